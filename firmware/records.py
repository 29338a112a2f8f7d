"""Game records (docs/records.md): read, validate, replay and write them.

    >>> game = replay_record({"format": "xtraboard-record", "version": 1, "game": "extra",
    ...                       "players": [{"name": "Marie"}], "steps": []})
    >>> game.pending()
    Pending(kind='roll', player=0)

Every reader goes through `replay_record`, so a record that loads is a record that replays.
"""

from __future__ import annotations

import json
import sys
from collections.abc import Mapping
from pathlib import Path
from typing import Any

from firmware.errors import IllegalStepError, RecordError
from firmware.games import Game, Player, game_class, game_names

FORMAT = "xtraboard-record"
VERSION = 1


def header_of(record: Mapping[str, Any]) -> tuple[type[Game], list[Player]]:
    """The engine class and players of a record, after checking its top-level keys."""
    if not isinstance(record, Mapping):
        raise RecordError(f"a record must be a JSON object, not {type(record).__name__}")
    if record.get("format") != FORMAT:
        raise RecordError(f"'format' must be {FORMAT!r}, not {record.get('format')!r}")
    if record.get("version") != VERSION:
        raise RecordError(f"'version' must be {VERSION}, not {record.get('version')!r}")
    if record.get("game") not in game_names():
        raise RecordError(f"'game' must be one of {', '.join(game_names())}, not {record.get('game')!r}")
    players = record.get("players")
    if not isinstance(players, list):
        raise RecordError(f"'players' must be a list of players, not {players!r}")
    if not isinstance(record.get("steps"), list):
        raise RecordError(f"'steps' must be a list, not {record.get('steps')!r}")
    return game_class(record["game"]), [Player.from_json(p) for p in players]


def replay_record(record: Mapping[str, Any]) -> Game:
    """Rebuild the game a record describes; RecordError names the first bad step by its index."""
    cls, players = header_of(record)
    try:
        game = cls(players)
    except IllegalStepError as exc:
        raise RecordError(str(exc)) from exc
    for index, data in enumerate(record["steps"]):
        try:
            game.apply_json(data)
        except IllegalStepError as exc:
            raise RecordError(f"illegal {json.dumps(data)}: {exc}", index) from exc
        except RecordError as exc:
            raise RecordError(str(exc), index) from exc
    return game


def parse_record_text(text: str, source: str = "record") -> dict[str, Any]:
    """JSON text → record object; RecordError with the line and column of a syntax error."""
    try:
        data = json.loads(text)
    except json.JSONDecodeError as exc:
        raise RecordError(f"{source} is not valid JSON: {exc.msg} at line {exc.lineno} column {exc.colno}") from exc
    if not isinstance(data, dict):
        raise RecordError(f"{source} must hold one JSON object, not {type(data).__name__}")
    return data


def read_record(path: str | Path) -> dict[str, Any]:
    """Read a record from a file, or from standard input when `path` is "-"."""
    if str(path) == "-":
        return parse_record_text(sys.stdin.read(), "standard input")
    try:
        text = Path(path).read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError) as exc:
        raise RecordError(f"cannot read {path}: {exc}") from exc
    return parse_record_text(text, str(path))


def record_json(game: Game) -> str:
    """The game's record as one line of JSON (the JSON Lines form selfplay writes)."""
    return json.dumps(game.to_record(), separators=(",", ":"))
