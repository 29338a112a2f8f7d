"""Salvage from a journal file moved aside as damaged: every game that still reads and
replays, with its scores, and the settings, ready to go into a fresh journal.

It only reads (a copy of the damaged file) and writes into a connection it is given; moving
files and swapping the salvaged journal into place is the storage's part (storage.py).
"""

from __future__ import annotations

import contextlib
import logging
import re
import shutil
import sqlite3
import tempfile
from dataclasses import dataclass
from pathlib import Path

from firmware.errors import N_, RecordError, Text
from firmware.games.base import Player
from firmware.journal.rows import checked_header, seat_scores, stored
from firmware.journal.schema import (
    SQLValue,
    COLUMNS,
    DB_NAME,
    FINISHED,
    QUARANTINE,
    Unusable,
    check_schema,
    from_json,
    text_of,
    to_json,
)
from firmware.records import replay_record

STAGING = f"{DB_NAME}.salvage"  # the salvaged journal being built, before it takes the file's place
SCRATCH = f".{DB_NAME}.salvage-"  # a copy of the damaged file being read (removed after)
PROBE_LIMIT = 100_000  # ids looked up one by one past damage (a damaged max(id) may be huge)


@dataclass(frozen=True)
class Salvaged:
    """One game read back from a damaged file, ready to go into the fresh journal."""

    row: tuple[SQLValue, ...]  # the games row: id, game, header, meta, status, result, started, updated
    steps: list[tuple[int, int, str]]
    scores: list[tuple[SQLValue, ...]]

    def insert(self, conn: sqlite3.Connection) -> None:
        conn.execute(f"INSERT INTO games ({', '.join(COLUMNS['games'])}) VALUES (?, ?, ?, ?, ?, ?, ?, ?)", self.row)
        conn.executemany("INSERT INTO steps (game_id, idx, step) VALUES (?, ?, ?)", self.steps)
        conn.executemany(
            "INSERT INTO scores (game_id, seat, game, name, score, won, players, bot, kids, date)"
            " VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
            self.scores,
        )


# What a damaged file gave: the games kept, how many were lost, the settings (key, JSON value).
Found = tuple[list[Salvaged], int, list[tuple[str, str]]]


def salvage_note(kept: int, lost: int) -> str:
    """What the display says about a salvage (short: a 128×64 OLED); a Text, shown in the
    board's language."""
    if kept or lost:
        return Text.ngettext(
            "journal damaged: kept {kept} game, lost {lost}",
            "journal damaged: kept {kept} games, lost {lost}",
            kept,
            kept=kept,
            lost=lost,
        )
    return Text(N_("journal unreadable: started afresh"))


def note_of(reason: str) -> str:
    """The salvage note a stored `reason` (its English) was made from, to show it translated.

    >>> note_of("journal damaged: kept 3 games, lost 1").params
    {'kept': 3, 'lost': 1}
    """
    found = re.fullmatch(r"journal damaged: kept (\d+) games?, lost (\d+)", reason)
    if found:
        return salvage_note(int(found[1]), int(found[2]))
    return salvage_note(0, 0) if reason == salvage_note(0, 0) else reason


def store_salvage(
    conn: sqlite3.Connection, kept: list[Salvaged], settings: list[tuple[str, str]], note: str, now: float
) -> None:
    """Write salvaged games and settings, and the outcome as a quarantine row 'salvage'."""
    for game in kept:
        game.insert(conn)
    conn.executemany("INSERT INTO settings (key, value) VALUES (?, ?) ON CONFLICT (key) DO NOTHING", settings)
    conn.execute(QUARANTINE)
    conn.execute("INSERT INTO quarantine (item, reason, date) VALUES ('salvage', ?, ?)", (note, now))


def read_salvage(source: Path, log: logging.Logger) -> Found:
    """The games (and settings) that still read and replay in a damaged journal file, and how
    many games could not be read. Row by row by key, so one damaged page loses only its rows.
    It reads a copy (with its write-ahead log): what was moved aside stays exactly as found."""
    try:  # next to the journal: the one place the board may surely write
        with tempfile.TemporaryDirectory(prefix=SCRATCH, dir=source.parent) as scratch:
            copy = Path(scratch) / DB_NAME
            shutil.copyfile(source, copy)
            if Path(f"{source}-wal").is_file():
                shutil.copyfile(f"{source}-wal", f"{copy}-wal")
            with contextlib.closing(sqlite3.connect(copy)) as conn:
                return read_games(conn, source.name, log)
    except (OSError, sqlite3.Error) as exc:
        log.error("journal: cannot read %s to salvage games: %s", source.name, exc)
        return [], 0, []


def read_games(conn: sqlite3.Connection, name: str, log: logging.Logger) -> Found:
    """`read_salvage` on an open copy of the damaged file `name`."""
    try:
        check_schema(conn)
    except (sqlite3.Error, Unusable) as exc:
        log.error("journal: %s holds no games this firmware can read: %s", name, exc)
        return [], 0, []
    ids: list[int] = []
    lost = 0
    try:  # NOT INDEXED: walk the table itself, never an index that may be the damage
        for (gid,) in conn.execute("SELECT id FROM games NOT INDEXED ORDER BY id"):
            ids.append(gid)
    except sqlite3.Error as exc:
        log.error("journal: %s: the list of games breaks off after %d: %s", name, len(ids), exc)
        found, lost = probe_games(conn, set(ids))
        ids += found
    kept = []
    for gid in ids:
        try:
            kept.append(salvaged(conn, gid))
        except Exception as exc:  # damaged data may fail in any way: one game never stops the others
            lost += 1
            log.error("journal: game %s in %s cannot be salvaged: %s", gid, name, exc)
    settings = []
    try:
        for raw_key, raw in conn.execute("SELECT CAST(key AS BLOB), CAST(value AS BLOB) FROM settings NOT INDEXED"):
            key = text_of(raw_key)
            with contextlib.suppress(RecordError):
                if key:
                    settings.append((key, to_json(from_json(raw, "setting"), "setting")))
    except sqlite3.Error as exc:
        log.error("journal: %s: settings cannot all be read: %s", name, exc)
    return kept, lost, settings


def probe_games(conn: sqlite3.Connection, seen: set[int]) -> tuple[list[int], int]:
    """Past a damaged page of the games table, look each id up by key (games are never
    deleted, so ids run from 1 up): the ids found, and how many lookups failed."""
    try:
        top = conn.execute("SELECT max(id) FROM games NOT INDEXED").fetchone()[0]
    except sqlite3.Error:
        return [], 1  # at least one: how many lie past the damage cannot be known
    if type(top) is not int:
        return [], 0
    found, lost = [], 0
    for gid in range(1, min(top, len(seen) + PROBE_LIMIT) + 1):
        if gid in seen:
            continue
        try:
            if conn.execute("SELECT id FROM games NOT INDEXED WHERE id = ?", (gid,)).fetchone() is not None:
                found.append(gid)
        except sqlite3.Error:
            lost += 1
    return found, lost


def salvaged(conn: sqlite3.Connection, game_id: int) -> Salvaged:
    """One game of a damaged file, checked: it reads, its header is a record's, it replays, and
    a finished game's result gives its scores again."""
    game_read = stored(conn, game_id)
    game, header = checked_header({k: v for k, v in game_read.record.items() if k not in ("steps", "result")})
    if not all(isinstance(t, (int, float)) for t in (game_read.started, game_read.updated)):
        raise RecordError(f"game {game_id} has no readable start and update times")
    steps = game_read.record["steps"]
    indexes = [idx for (idx,) in conn.execute("SELECT idx FROM steps WHERE game_id = ? ORDER BY idx", (game_id,))]
    if indexes != list(range(len(steps))):
        raise RecordError(f"game {game_id} steps are numbered {indexes[:5]}..., not 0, 1, 2, ...")
    replay_record(game_read.record)
    result = game_read.record.get("result")
    if (game_read.status == FINISHED) != (result is not None):
        raise RecordError(
            f"game {game_id} is {game_read.status} but {'has' if result is not None else 'lacks'} a result"
        )
    scores: list[tuple[SQLValue, ...]] = []
    if result is not None:
        players = [Player.from_json(p) for p in game_read.record["players"]]
        values, winners = seat_scores(game, len(players), result)
        scores = [
            (
                game_id,
                seat,
                game,
                p.name,
                values[seat],
                seat in winners,
                len(players),
                p.bot is not None,
                p.kids,
                game_read.updated,
            )
            for seat, p in enumerate(players)
        ]
    row = (
        game_id,
        game,
        header,
        to_json(game_read.meta, "meta"),
        game_read.status,
        None if result is None else to_json(result, "result"),
        game_read.started,
        game_read.updated,
    )
    return Salvaged(row, [(game_id, i, to_json(s, f"step {i}")) for i, s in enumerate(steps)], scores)
