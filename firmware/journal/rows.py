"""A game's rows read back and checked: what the records, the scores and the salvage of a
damaged file all need to know about a stored game (no connection of its own, no state).

Every problem with a row is a RecordError naming the game and the row, never another error:
rows on storage may be damaged in any way.
"""

from __future__ import annotations

import sqlite3
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from firmware.errors import RecordError
from firmware.games.base import Player
from firmware.games.registry import find_game, game_names
from firmware.journal.schema import (
    ABANDONED,
    FINISHED,
    PLAYING,
    RECORD_FORMAT,
    RECORD_VERSIONS,
    from_json,
    text_of,
    to_json,
)


@dataclass(frozen=True)
class StoredGame:
    """A game in the journal: its record (steps, and result once finished) and meta."""

    id: int
    # JSON read back from the journal, its header checked as the journal wrote it
    # (`checked_header`); each reader takes the keys it needs
    record: dict[str, Any]  # Any: JSON read back (see above)
    meta: Any  # Any: JSON read back (see above)
    status: str  # "playing", "finished" or "abandoned"
    started: float  # clock time (UNIX seconds)
    updated: float


def check_game(game: str) -> None:
    find_game(game)  # RecordError naming the known games


def checked_header(header: Mapping[str, object]) -> tuple[str, str]:
    """The game name and the header's JSON, after checking it is a record's start (docs/records.md)."""
    if not isinstance(header, Mapping):
        raise RecordError(f"a game header must be a JSON object, not {header!r}")
    version = header.get("version")
    if header.get("format") != RECORD_FORMAT or type(version) is not int or version not in RECORD_VERSIONS:
        raise RecordError(
            f"a game header needs 'format': {RECORD_FORMAT!r} and 'version': one of"
            f" {', '.join(map(str, RECORD_VERSIONS))}, not {header.get('format')!r} and {version!r}"
        )
    game = header.get("game")
    if not isinstance(game, str):
        raise RecordError(f"a game header needs 'game': one of {', '.join(game_names())}, not {game!r}")
    check_game(game)
    players = header.get("players")
    if not isinstance(players, list) or not players:
        raise RecordError(f"a game header needs a non-empty 'players' list, not {players!r}")
    for player in players:
        Player.from_json(player)
    if header.get("steps"):
        raise RecordError("a game header must start with no steps: store them with append_step")
    if "result" in header:
        raise RecordError("a game header must not hold a 'result': store it with finish")
    clean = {key: value for key, value in header.items() if key != "steps"}
    return game, to_json(clean, "the game header")


def stored_header(text: str | bytes, game_id: int) -> dict[str, object]:
    """A game's header as stored: a JSON object, or RecordError."""
    header = from_json(text, f"game {game_id} header")
    if not isinstance(header, dict):
        raise RecordError(f"game {game_id} header in the journal is not a JSON object")
    return header


def stored_players(text: str | bytes, game_id: int) -> list[Player]:
    """The seats of a game from its stored header, or RecordError."""
    players = stored_header(text, game_id).get("players")
    if not isinstance(players, list):
        raise RecordError(f"game {game_id} header in the journal has no list of players")
    return [Player.from_json(p) for p in players]


def status_of(conn: sqlite3.Connection, game_id: int) -> str:
    row = conn.execute("SELECT status FROM games WHERE id = ?", (game_id,)).fetchone()
    if row is None:
        raise RecordError(f"no game {game_id!r} in the journal")
    return str(row[0])


def step_count(conn: sqlite3.Connection, game_id: int) -> int:
    return int(conn.execute("SELECT count(*) FROM steps WHERE game_id = ?", (game_id,)).fetchone()[0])


def seat_scores(game: str, seats: int, result: Mapping[str, object]) -> tuple[list[int], set[int]]:
    """Each seat's score (EXXTRA: its final position; which result field it is comes from the
    game registry) and the winners, checked against docs/records.md."""
    key = find_game(game).ranking.score
    scores, winners = result.get(key), result.get("winners")
    if not isinstance(scores, list) or len(scores) != seats or any(type(s) is not int for s in scores):
        raise RecordError(f"a {game} result needs {key!r}: a list of {seats} integers, not {scores!r}")
    if not isinstance(winners, list) or any(type(w) is not int or not 0 <= w < seats for w in winners):
        raise RecordError(f"a result needs 'winners': a list of seat numbers 0–{seats - 1}, not {winners!r}")
    return scores, set(winners)


def stored(conn: sqlite3.Connection, game_id: int) -> StoredGame:
    """A game as stored; RecordError if any of its rows cannot be read (text is read as bytes
    so that damaged UTF-8 is one game's problem, not an error from the cursor)."""
    row = conn.execute(
        "SELECT CAST(header AS BLOB), CAST(meta AS BLOB), CAST(status AS BLOB), CAST(result AS BLOB), started,"
        " updated FROM games WHERE id = ?",
        (game_id,),
    ).fetchone()
    if row is None:
        raise RecordError(f"no game {game_id!r} in the journal")
    header, meta, raw_status, result, started, updated = row
    status = text_of(raw_status)
    if status not in (PLAYING, FINISHED, ABANDONED):
        raise RecordError(f"game {game_id} has an unknown status {raw_status!r}")
    record = stored_header(header, game_id)
    record["steps"] = [
        from_json(text, f"game {game_id} step {idx}")
        for idx, text in conn.execute(
            "SELECT idx, CAST(step AS BLOB) FROM steps WHERE game_id = ? ORDER BY idx", (game_id,)
        )
    ]
    if result is not None:
        record["result"] = from_json(result, f"game {game_id} result")
    return StoredGame(game_id, record, from_json(meta, f"game {game_id} meta"), status, started, updated)


def resumable(conn: sqlite3.Connection, game_id: int) -> StoredGame:
    """A game being played, checked for the shape resuming needs: a record header as
    `start_game` takes it, steps that are JSON objects, meta a JSON object."""
    game = stored(conn, game_id)
    checked_header({key: value for key, value in game.record.items() if key != "steps"})
    for index, step in enumerate(game.record["steps"]):
        if not isinstance(step, dict):
            raise RecordError(f"game {game_id} step {index} in the journal is not a JSON object")
    if not isinstance(game.meta, dict):
        raise RecordError(f"game {game_id} meta in the journal is not a JSON object")
    return game
