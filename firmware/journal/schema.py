"""The journal's file: its name, its tables, and how values are kept in them (JSON text).

Every other part of the journal builds on this module; it imports none of them.

    >>> from_json(to_json({"roll": [1, 2]}, "a step"), "a step")
    {'roll': [1, 2]}
"""

from __future__ import annotations

import json
import sqlite3
from typing import Any

from firmware.errors import RecordError
from firmware.games.base import RECORD_VERSION as RECORD_VERSION, RECORD_VERSIONS as RECORD_VERSIONS  # re-exported

LOGGER_NAME = "xtraboard.journal"
DB_NAME = "xtraboard.db"
SCHEMA_VERSION = 1
RECORD_FORMAT = "xtraboard-record"
# The journal keeps games of every record version the firmware reads (RECORD_VERSIONS): an
# unfinished game stored before an update resumes under the rules of its own version.

PLAYING, FINISHED, ABANDONED = "playing", "finished", "abandoned"

# IF NOT EXISTS: two processes opening a new journal at once both find it empty; the second
# one's transaction waits for the first's and then finds every table made, changing nothing.
SCHEMA = f"""
BEGIN IMMEDIATE;
CREATE TABLE IF NOT EXISTS games (
    id INTEGER PRIMARY KEY,
    game TEXT NOT NULL,
    header TEXT NOT NULL,
    meta TEXT NOT NULL,
    status TEXT NOT NULL CHECK (status IN ('{PLAYING}', '{FINISHED}', '{ABANDONED}')),
    result TEXT,
    started REAL NOT NULL,
    updated REAL NOT NULL
);
CREATE INDEX IF NOT EXISTS games_by_status ON games (status, game, id);
CREATE TABLE IF NOT EXISTS steps (
    game_id INTEGER NOT NULL REFERENCES games (id),
    idx INTEGER NOT NULL,
    step TEXT NOT NULL,
    PRIMARY KEY (game_id, idx)
) WITHOUT ROWID;
CREATE TABLE IF NOT EXISTS scores (
    game_id INTEGER NOT NULL REFERENCES games (id),
    seat INTEGER NOT NULL,
    game TEXT NOT NULL,
    name TEXT NOT NULL,
    score INTEGER NOT NULL,
    won INTEGER NOT NULL,
    players INTEGER NOT NULL,
    bot INTEGER NOT NULL,
    kids INTEGER NOT NULL,
    date REAL NOT NULL,
    PRIMARY KEY (game_id, seat)
) WITHOUT ROWID;
CREATE INDEX IF NOT EXISTS scores_best ON scores (game, kids, score DESC);
CREATE TABLE IF NOT EXISTS settings (key TEXT PRIMARY KEY, value TEXT NOT NULL) WITHOUT ROWID;
PRAGMA user_version = {SCHEMA_VERSION};
COMMIT;
"""
COLUMNS = {
    "games": ["id", "game", "header", "meta", "status", "result", "started", "updated"],
    "steps": ["game_id", "idx", "step"],
    "scores": ["game_id", "seat", "game", "name", "score", "won", "players", "bot", "kids", "date"],
    "settings": ["key", "value"],
}

# Where what cannot be read is kept (made when first needed; older files simply lack it).
QUARANTINE = """CREATE TABLE IF NOT EXISTS quarantine (
    id INTEGER PRIMARY KEY,
    item TEXT NOT NULL,
    reason TEXT NOT NULL,
    data,
    date REAL NOT NULL
)"""


class Unusable(Exception):
    """The database file is not a journal this firmware can use (internal to the journal)."""


def check_schema(conn: sqlite3.Connection) -> bool:
    """True for an empty database (a new journal); Unusable unless it holds this schema."""
    version = conn.execute("PRAGMA user_version").fetchone()[0]
    if version == 0 and conn.execute("SELECT count(*) FROM sqlite_master").fetchone()[0] == 0:
        return True
    if version != SCHEMA_VERSION:
        raise Unusable(f"schema version {version}, this firmware uses {SCHEMA_VERSION}")
    for table, columns in COLUMNS.items():
        found = [row[1] for row in conn.execute(f"PRAGMA table_info({table})")]
        if found != columns:
            raise Unusable(f"table {table!r} has columns {found}, expected {columns}")
    return False


# A value of an SQLite column as the sqlite3 module reads and writes it.
SQLValue = int | float | str | bytes | None


def to_json(value: object, what: str) -> str:
    """`value` as the journal stores it; RecordError naming `what` if it is not JSON."""
    try:
        return json.dumps(value, ensure_ascii=False, allow_nan=False, separators=(",", ":"))
    except (TypeError, ValueError) as exc:
        raise RecordError(f"{what} is not JSON: {exc}") from exc


def from_json(text: str | bytes, what: str) -> Any:  # Any: JSON of any shape; each caller checks its own
    """A stored value read back; RecordError naming `what` if it cannot be read."""
    try:
        return json.loads(text)
    except (ValueError, TypeError) as exc:  # bad JSON or UTF-8, or not text at all (damage)
        raise RecordError(f"{what} in the journal is not valid JSON: {exc}") from exc
    except RecursionError as exc:  # valid JSON, but deeper than the parser can follow
        raise RecordError(f"{what} in the journal is nested too deeply to read") from exc


def text_of(raw: object) -> str | None:
    """A text column read as bytes (CAST ... AS BLOB): the text, or None if it is not UTF-8."""
    try:
        return raw.decode("utf-8") if isinstance(raw, bytes) else None
    except UnicodeDecodeError:
        return None
