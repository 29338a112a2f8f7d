"""The board's journal: every game step on storage before the board shows its effect.

One SQLite file, `state_dir/xtraboard.db` (WAL, synchronous=FULL: a step is durable when
`append_step` returns). It holds the game being played, finished games (records with their
result), the scores behind the high-score tables, and the menu's settings.

    >>> import tempfile
    >>> journal = Journal(tempfile.mkdtemp())     # the board passes its state directory
    >>> gid = journal.start_game({"format": "xtraboard-record", "version": 1, "game": "extra",
    ...                           "players": [{"name": "Marie"}]}, {"seed": 3})
    >>> journal.append_step(gid, 0, {"roll": [1, 2, 2, 3, 5]})
    >>> journal.unfinished().record["steps"]
    [{'roll': [1, 2, 2, 3, 5]}]
    >>> journal.close()

Games: `start_game(header, meta) -> id` (abandons a game still being played),
`append_step(id, index, step)` (index = the number of steps so far), `truncate(id, length)`
(undo; on a finished game it reopens it), `finish(id, result)`, `abandon(id)`.
Reading: `unfinished()`, `finished(game, limit)` (newest first), `record(id)`.
Records: `best_scores(game, limit, kids=)`, `solo_best(name, kids=)` (EXTRA! solo personal
record), `wins(game, limit)` (EXXTRA has no score: its table counts wins), `stats()`.
Settings: `get_setting(key, default)`, `set_setting(key, value)` (JSON values).
`Journal(state_dir, read_only=True)` is for commands that only read (never creates or repairs).
Mistakes by the caller (a wrong step index, an unknown game id, a bad header) raise RecordError.

Bot seats never enter the score tables; EXTRA! children's-variant seats have their own tables.

The journal never crashes on its own files: a corrupt, truncated or foreign database is moved
aside (`xtraboard.db.corrupt-<UTC time>`, `moved_aside`, kept as found) and replaced by a fresh
one holding every game that still reads and replays (`salvage = (kept, lost)`; built as
`xtraboard.db.salvage` and swapped in by one rename, so a power cut never loses it); storage that
is read-only, full or failing switches the journal to memory so play goes on, and `problem`
says so in a few words for the display. Damaged rows in a usable file never stop the board:
an unfinished game that cannot be read is set aside (marked abandoned, listed in the
`quarantine` table with the reason; nothing is deleted), an unreadable setting is moved to that
table and reads as its default, and the record readers skip rows they cannot read (one log line
per row). What was set aside is in `set_aside` ("game 3", "setting brightness"); what the
players should be told, in a few words for the display, in `notes`.
It belongs to one thread (the board's loop).
"""

from __future__ import annotations

import contextlib
import errno
import json
import logging
import os
import shutil
import sqlite3
import tempfile
import time
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from datetime import datetime, timezone
from pathlib import Path
from typing import Any, TypeVar

from firmware.errors import RecordError
from firmware.games.base import Player
from firmware.games.registry import find_game, game_names, games
from firmware.paths import private_dir, private_file
from firmware.records import replay_record

LOGGER_NAME = "xtraboard.journal"
DB_NAME = "xtraboard.db"
SCHEMA_VERSION = 1
RECORD_FORMAT = "xtraboard-record"
RECORD_VERSION = 1

PLAYING, FINISHED, ABANDONED = "playing", "finished", "abandoned"

SCHEMA = f"""
BEGIN IMMEDIATE;
CREATE TABLE games (
    id INTEGER PRIMARY KEY,
    game TEXT NOT NULL,
    header TEXT NOT NULL,
    meta TEXT NOT NULL,
    status TEXT NOT NULL CHECK (status IN ('{PLAYING}', '{FINISHED}', '{ABANDONED}')),
    result TEXT,
    started REAL NOT NULL,
    updated REAL NOT NULL
);
CREATE INDEX games_by_status ON games (status, game, id);
CREATE TABLE steps (
    game_id INTEGER NOT NULL REFERENCES games (id),
    idx INTEGER NOT NULL,
    step TEXT NOT NULL,
    PRIMARY KEY (game_id, idx)
) WITHOUT ROWID;
CREATE TABLE scores (
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
CREATE INDEX scores_best ON scores (game, kids, score DESC);
CREATE TABLE settings (key TEXT PRIMARY KEY, value TEXT NOT NULL) WITHOUT ROWID;
PRAGMA user_version = {SCHEMA_VERSION};
COMMIT;
"""
COLUMNS = {
    "games": ["id", "game", "header", "meta", "status", "result", "started", "updated"],
    "steps": ["game_id", "idx", "step"],
    "scores": ["game_id", "seat", "game", "name", "score", "won", "players", "bot", "kids", "date"],
    "settings": ["key", "value"],
}

# What the display says when storage fails (short: it is a 128×64 OLED).
FULL = "storage full: games not kept"
READ_ONLY = "storage read-only: games not kept"
UNAVAILABLE = "storage unavailable: games not kept"
DAMAGED = "storage damaged: games not kept"
FAILING = "storage error: games not kept"

# Where what cannot be read is kept (made when first needed; older files simply lack it).
QUARANTINE = """CREATE TABLE IF NOT EXISTS quarantine (
    id INTEGER PRIMARY KEY,
    item TEXT NOT NULL,
    reason TEXT NOT NULL,
    data,
    date REAL NOT NULL
)"""

STAGING = f"{DB_NAME}.salvage"  # the salvaged journal being built, before it takes the file's place
SCRATCH = f".{DB_NAME}.salvage-"  # a copy of the damaged file being read (removed after)

T = TypeVar("T")
Connect = Callable[[Path], sqlite3.Connection]


def connect_file(path: Path) -> sqlite3.Connection:
    """The default way to open the database file (tests inject others); it is 0600, and so
    SQLite makes its -wal and -shm."""
    private_file(path, sidecars=("-wal", "-shm"))
    return sqlite3.connect(path, isolation_level=None, check_same_thread=False)


@dataclass(frozen=True)
class StoredGame:
    """A game in the journal: its record (steps, and result once finished) and meta."""

    id: int
    record: dict[str, Any]
    meta: Any
    status: str  # "playing", "finished" or "abandoned"
    started: float  # clock time (UNIX seconds)
    updated: float


@dataclass(frozen=True)
class ScoreEntry:
    """One seat's final score in a finished game."""

    game: str
    name: str
    score: int
    date: float  # when the game finished (UNIX seconds)
    game_id: int
    players: int  # seats in that game (1 = solo)


class _Unusable(Exception):
    """The database file is not a journal this firmware can use (internal)."""


class Journal:
    """Games, records and settings kept on the board; see the module docstring."""

    def __init__(
        self,
        state_dir: str | Path,
        *,
        clock: Callable[[], float] = time.time,
        connect: Connect = connect_file,
        read_only: bool = False,
    ) -> None:
        self.state_dir = Path(state_dir)
        self.path = self.state_dir / DB_NAME
        self.problem: str | None = None
        self.moved_aside: Path | None = None
        self.salvage: tuple[int, int] | None = None  # (games kept, games lost) from a moved-aside file
        self.set_aside: list[str] = []  # rows set aside while this journal was open
        self.notes: list[str] = []  # what the players should be told (short, for the display)
        self.read_only = read_only
        self._clock = clock
        self._connect = connect
        self._log = logging.getLogger(LOGGER_NAME)
        self._skipped: set[str] = set()  # unreadable rows already logged
        self._found: tuple[list[_Salvaged], int, list[tuple[str, str]]] | None = None  # read from a damaged file
        self._staged = False  # ... and already in the file now in place
        finished_late = False if read_only else self._finish_staging()
        self._conn: sqlite3.Connection | None = self._open_read_only() if read_only else self._open()
        if self._found is not None and self.problem is None:
            self._salvage()
        elif finished_late and self.problem is None:
            self.notes += [row[0] for row in self._read(
                lambda conn: conn.execute("SELECT reason FROM quarantine WHERE item = 'salvage' ORDER BY id DESC LIMIT 1")
            )]

    # --- games ---------------------------------------------------------------------------
    def start_game(self, header: Mapping[str, Any], meta: Any = None) -> int:
        """Begin a game; `header` is its record without steps or result, `meta` free JSON
        (seed, mode, ...) to recognise the same game on restart. Returns the game's id."""
        game, header_text = _checked_header(header)
        meta_text = _json({} if meta is None else meta, "meta")
        now = self._clock()

        def action(conn: sqlite3.Connection) -> int:
            for (old,) in conn.execute("SELECT id FROM games WHERE status = ?", (PLAYING,)):
                self._log.info("journal: game %d was still being played; abandoned for a new game", old)
            conn.execute("UPDATE games SET status = ?, updated = ? WHERE status = ?", (ABANDONED, now, PLAYING))
            cursor = conn.execute(
                "INSERT INTO games (game, header, meta, status, started, updated) VALUES (?, ?, ?, ?, ?, ?)",
                (game, header_text, meta_text, PLAYING, now, now),
            )
            return int(cursor.lastrowid or 0)

        return self._write(action)

    def append_step(self, game_id: int, index: int, step: Mapping[str, Any]) -> None:
        """Store step number `index` (0-based) of a game being played; it must be the next one."""
        if not isinstance(step, Mapping):
            raise RecordError(f"a step must be a JSON object, not {step!r}", index)
        text = _json(dict(step), f"step {index}")

        def action(conn: sqlite3.Connection) -> None:
            status = _status(conn, game_id)
            if status != PLAYING:
                raise RecordError(f"game {game_id} is {status}: it takes no more steps", index)
            count = _step_count(conn, game_id)
            if index != count:
                raise RecordError(f"game {game_id} has {count} steps, so the next step is number {count}", index)
            conn.execute("INSERT INTO steps (game_id, idx, step) VALUES (?, ?, ?)", (game_id, index, text))
            conn.execute("UPDATE games SET updated = ? WHERE id = ?", (self._clock(), game_id))

        self._write(action)

    def truncate(self, game_id: int, length: int) -> None:
        """Keep only the first `length` steps (undo). A finished game is reopened (its result
        and scores removed) so its last decision can be taken back."""

        def action(conn: sqlite3.Connection) -> None:
            status = _status(conn, game_id)
            count = _step_count(conn, game_id)
            if status == ABANDONED:
                raise RecordError(f"game {game_id} was abandoned: nothing to undo")
            if not 0 <= length <= count or (status == FINISHED and length == count):
                raise RecordError(f"game {game_id} has {count} steps: cannot keep {length} of them by undo")
            if status == FINISHED:
                other = conn.execute("SELECT id FROM games WHERE status = ?", (PLAYING,)).fetchone()
                if other is not None:
                    raise RecordError(f"game {game_id} cannot be reopened while game {other[0]} is being played")
                conn.execute("DELETE FROM scores WHERE game_id = ?", (game_id,))
            conn.execute("DELETE FROM steps WHERE game_id = ? AND idx >= ?", (game_id, length))
            conn.execute(
                "UPDATE games SET status = ?, result = NULL, updated = ? WHERE id = ?",
                (PLAYING, self._clock(), game_id),
            )

        self._write(action)

    def finish(self, game_id: int, result: Mapping[str, Any]) -> None:
        """Mark a game over with its result (RECORDS.md) and enter its scores."""
        if not isinstance(result, Mapping):
            raise RecordError(f"game {game_id}: a result must be a JSON object, not {result!r}")
        text = _json(dict(result), "result")

        def action(conn: sqlite3.Connection) -> None:
            status = _status(conn, game_id)
            if status != PLAYING:
                raise RecordError(f"game {game_id} is {status}: it cannot finish again")
            game, header_text = conn.execute("SELECT game, header FROM games WHERE id = ?", (game_id,)).fetchone()
            players = [Player.from_json(p) for p in _load(header_text, f"game {game_id} header")["players"]]
            scores, winners = _seat_scores(game, len(players), result)
            now = self._clock()
            conn.executemany(
                "INSERT INTO scores (game_id, seat, game, name, score, won, players, bot, kids, date)"
                " VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
                [
                    (game_id, seat, game, p.name, scores[seat], seat in winners, len(players),
                     p.bot is not None, p.kids, now)
                    for seat, p in enumerate(players)
                ],
            )
            conn.execute(
                "UPDATE games SET status = ?, result = ?, updated = ? WHERE id = ?", (FINISHED, text, now, game_id)
            )

        self._write(action)

    def abandon(self, game_id: int) -> None:
        """Give up a game being played (kept, but never resumed or counted); idempotent."""

        def action(conn: sqlite3.Connection) -> None:
            status = _status(conn, game_id)
            if status == FINISHED:
                raise RecordError(f"game {game_id} is finished: it cannot be abandoned")
            conn.execute(
                "UPDATE games SET status = ?, updated = ? WHERE id = ? AND status = ?",
                (ABANDONED, self._clock(), game_id, PLAYING),
            )

        self._write(action)

    # --- reading -------------------------------------------------------------------------
    def unfinished(self) -> StoredGame | None:
        """The game being played when the board stopped, if any. One whose header, steps or
        meta cannot be read is set aside (see the module docstring) and is no longer it."""
        seen: set[int] = set()
        while True:
            row = self._read(
                lambda conn: conn.execute(
                    "SELECT id FROM games WHERE status = ? ORDER BY id DESC LIMIT 1", (PLAYING,)
                ).fetchone()
            )
            if row is None or row[0] in seen:
                return None
            gid = int(row[0])
            try:
                return self._read(lambda conn: _resumable(conn, gid))
            except RecordError as exc:
                if self.read_only:
                    raise
                seen.add(gid)
                self._quarantine_game(gid, str(exc))

    def finished(self, game: str | None = None, limit: int | None = None) -> list[StoredGame]:
        """Finished games, newest first; only those of `game` if given, at most `limit`."""
        if game is not None:
            _check_game(game)

        def action(conn: sqlite3.Connection) -> list[StoredGame]:
            rows = conn.execute(
                "SELECT id FROM games WHERE status = ? AND (? IS NULL OR game = ?) ORDER BY id DESC LIMIT ?",
                (FINISHED, game, game, -1 if limit is None else limit),
            ).fetchall()
            games = []
            for (gid,) in rows:
                try:
                    games.append(_stored(conn, gid))
                except RecordError as exc:
                    self._skip(f"game {gid}", str(exc))
            return games

        return self._read(action)

    def record(self, game_id: int) -> dict[str, Any]:
        """A game's record (RECORDS.md): header, steps, and result once finished."""
        return self._read(lambda conn: _stored(conn, game_id).record)

    # --- records -------------------------------------------------------------------------
    def best_scores(self, game: str, limit: int = 5, *, kids: bool = False) -> list[ScoreEntry]:
        """The best single scores of people in finished games of `game`, best first (earlier
        first on equal scores). EXXTRA is a race without scores: empty (see `wins`)."""
        if not find_game(game).ranking.high_scores:
            return []
        return self._read(
            lambda conn: self._entries(
                game,
                conn.execute(
                    f"SELECT {ENTRY} FROM scores"
                    " WHERE game = ? AND bot = 0 AND kids = ? ORDER BY score DESC, date, game_id",
                    (game, kids),
                ),
                limit,
            )
        )

    def solo_best(self, name: str | None = None, *, kids: bool = False, game: str | None = None) -> ScoreEntry | None:
        """The solo personal record of `game` (default: the first game that keeps one, EXTRA!):
        the best solo total (of `name`, if given)."""
        if game is None:
            game = next((spec.name for spec in games() if spec.ranking.solo_record), None)
            if game is None:
                return None
        elif not find_game(game).ranking.solo_record:
            return None
        entries = self._read(
            lambda conn: self._entries(
                game,
                conn.execute(
                    f"SELECT {ENTRY} FROM scores WHERE game = ? AND players = 1"
                    " AND bot = 0 AND kids = ? AND (? IS NULL OR name = ?) ORDER BY score DESC, date, game_id",
                    (game, kids, name, name),
                ),
                1,
            )
        )
        return entries[0] if entries else None

    def wins(self, game: str, limit: int = 5) -> list[tuple[str, int]]:
        """People with the most wins of `game` against others (shared wins count; solo games
        do not), most first."""
        _check_game(game)

        def action(conn: sqlite3.Connection) -> list[tuple[str, int]]:
            counts: dict[str, int] = {}
            rows = conn.execute(
                "SELECT game_id, seat, CAST(name AS BLOB), won FROM scores"
                " WHERE game = ? AND bot = 0 AND players > 1",
                (game,),
            )
            for gid, seat, raw, won in rows:
                name = _text(raw)
                if name is None or won not in (0, 1):
                    self._skip(f"game {gid} seat {seat} score", "its name or win cannot be read")
                    continue
                counts[name] = counts.get(name, 0) + int(won)
            ranked = sorted(((n, c) for n, c in counts.items() if c > 0), key=lambda nc: (-nc[1], nc[0].encode()))
            return ranked[:limit]

        return self._read(action)

    def stats(self) -> dict[str, int]:
        """Finished games per game name."""
        counts = dict.fromkeys(game_names(), 0)
        rows = self._read(
            lambda conn: conn.execute(
                "SELECT id, CAST(game AS BLOB) FROM games WHERE status = ?", (FINISHED,)
            ).fetchall()
        )
        for gid, raw in rows:
            game = _text(raw)
            if game in counts:
                counts[game] += 1
            else:
                self._skip(f"game {gid}", f"its game name {raw!r} cannot be read")
        return counts

    # --- settings ------------------------------------------------------------------------
    def get_setting(self, key: str, default: Any = None) -> Any:
        """A setting's value, or `default` if it was never set or cannot be read (then it is
        moved to the quarantine table and `set_aside` says so)."""
        row = self._read(
            lambda conn: conn.execute("SELECT CAST(value AS BLOB) FROM settings WHERE key = ?", (key,)).fetchone()
        )
        if row is None:
            return default
        try:
            return _load(row[0], f"setting {key!r}")
        except RecordError as exc:
            if self.read_only:
                self._skip(f"setting {key}", str(exc))
            else:
                self._quarantine_setting(key, str(exc))
            return default

    def set_setting(self, key: str, value: Any) -> None:
        """Store a setting (any JSON value)."""
        if not isinstance(key, str) or not key:
            raise RecordError(f"a setting's key must be a non-empty string, not {key!r}")
        text = _json(value, f"setting {key!r}")
        self._write(
            lambda conn: conn.execute(
                "INSERT INTO settings (key, value) VALUES (?, ?) ON CONFLICT (key) DO UPDATE SET value = excluded.value",
                (key, text),
            )
        )

    # --- what cannot be read ------------------------------------------------------------
    def _quarantine_game(self, game_id: int, reason: str) -> None:
        """Set aside a game being played that cannot be read: kept as it is, never resumed."""
        now = self._clock()

        def action(conn: sqlite3.Connection) -> None:
            conn.execute(QUARANTINE)
            conn.execute(
                "INSERT INTO quarantine (item, reason, date) VALUES (?, ?, ?)", (f"game {game_id}", reason, now)
            )
            conn.execute(
                "UPDATE games SET status = ?, updated = ? WHERE id = ? AND status = ?",
                (ABANDONED, now, game_id, PLAYING),
            )

        self._write(action)
        self.set_aside.append(f"game {game_id}")
        self.notes.append(f"saved game {game_id} unreadable: set aside")
        self._log.error("journal: game %d cannot be resumed (%s): set aside (kept, marked abandoned)", game_id, reason)

    def _quarantine_setting(self, key: str, reason: str) -> None:
        """Move an unreadable setting's row, as it is, to the quarantine table."""
        now = self._clock()

        def action(conn: sqlite3.Connection) -> None:
            conn.execute(QUARANTINE)
            conn.execute(
                "INSERT INTO quarantine (item, reason, data, date) SELECT 'setting ' || key, ?, value, ?"
                " FROM settings WHERE key = ?",
                (reason, now, key),
            )
            conn.execute("DELETE FROM settings WHERE key = ?", (key,))

        self._write(action)
        self.set_aside.append(f"setting {key}")
        self._log.error("journal: setting %r cannot be read (%s): set aside, using its default", key, reason)

    def _skip(self, item: str, reason: str) -> None:
        """A row a reader passes over: logged once per journal, never raised."""
        if item not in self._skipped:
            self._skipped.add(item)
            self._log.warning("journal: %s cannot be read (%s): skipped", item, reason)

    def _entries(self, game: str, rows: Any, limit: int) -> list[ScoreEntry]:
        """Score rows (ENTRY's columns) that read as they should, at most `limit`."""
        entries: list[ScoreEntry] = []
        for gid, seat, raw, score, date, players in rows:
            name = _text(raw)
            if name is None or type(score) is not int or type(date) not in (int, float) or type(players) is not int:
                self._skip(f"game {gid} seat {seat} score", "its name, score, date or seats cannot be read")
                continue
            entries.append(ScoreEntry(game, name, score, date, gid, players))
            if len(entries) >= limit:
                break
        return entries

    def _salvage(self) -> None:
        """Say how the salvage from a file moved aside went (`salvage`, `notes`); store what it
        found here if that could not be done before the swap (`_stage_salvage`)."""
        if self._found is None:
            return
        kept, lost, settings = self._found
        note = _salvage_note(len(kept), lost)
        if not self._staged and (kept or settings):
            try:
                self._write(lambda conn: _store_salvage(conn, kept, settings, note, self._clock()))
            except sqlite3.Error as exc:  # never expected in a fresh file; the board must still start
                self._log.error("journal: salvaged games could not be stored: %s", exc)
                kept, lost = [], lost + len(kept)
                note = _salvage_note(0, lost)
        self.salvage = (len(kept), lost)
        self.notes.append(note)
        self._log.error(
            "journal: salvaged %d games and %d settings from %s; %d games could not be read",
            len(kept), len(settings), self.moved_aside.name if self.moved_aside else "?", lost,
        )

    def _stage_salvage(self) -> Path | None:
        """Read what can be saved from the unusable file and build the new journal from it under
        another name, so that it replaces the file in one rename: a power cut at any moment
        leaves either the damaged file (salvaged again at the next start) or the salvaged one."""
        self._found = kept, lost, settings = _read_salvage(self.path, self._log)
        staging = self.path.with_name(STAGING)
        try:
            _remove(staging)
            conn = self._connect(staging)
            try:
                _prepare(conn)
                conn.execute("BEGIN IMMEDIATE")
                _store_salvage(conn, kept, settings, _salvage_note(len(kept), lost), self._clock())
                conn.execute("COMMIT")
            finally:
                conn.close()  # the last connection: SQLite checkpoints and removes the -wal
            if Path(f"{staging}-wal").exists():
                raise OSError(f"{staging.name}-wal was left behind")
            self._staged = True
            return staging
        except (OSError, sqlite3.Error, _Unusable) as exc:
            self._log.error("journal: cannot build %s (%s); salvaging into the fresh journal instead", staging.name, exc)
            with contextlib.suppress(OSError):
                _remove(staging)
            return None

    def _finish_staging(self) -> bool:
        """A start cut short between moving a damaged file aside and putting the salvaged one
        in its place: finish the swap (True). A salvage cut short before that is dropped."""
        staging = self.path.with_name(STAGING)
        with contextlib.suppress(OSError):
            for scratch in self.state_dir.glob(f"{SCRATCH}*"):  # left by a start cut short
                shutil.rmtree(scratch, ignore_errors=True)
        try:
            if not staging.is_file():
                return False
            if self.path.exists():
                _remove(staging)
                return False
            os.replace(staging, self.path)
            _remove(staging)
            _sync_dir(self.state_dir)
        except OSError as exc:
            self._log.error("journal: cannot put %s in place: %s", staging.name, exc)
            return False
        self._log.error("journal: %s put in place (a start was cut short while salvaging)", staging.name)
        return True

    # --- life cycle ----------------------------------------------------------------------
    def close(self) -> None:
        """Close the database; idempotent."""
        if self._conn is not None:
            self._conn.close()
            self._conn = None

    def __enter__(self) -> Journal:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    def __repr__(self) -> str:
        where = "memory" if self.problem else str(self.path)
        return f"<Journal {where} problem={self.problem!r}>"

    # --- opening -------------------------------------------------------------------------
    def _open(self) -> sqlite3.Connection:
        """The file database, a fresh one after moving an unusable one aside, or memory."""
        conn: sqlite3.Connection | None = None
        try:
            private_dir(self.state_dir)
            _check_header(self.path)
            conn = self._connect(self.path)
            _prepare(conn)
            return conn
        except _Unusable as exc:
            reason = str(exc)
        except sqlite3.DatabaseError as exc:
            if not _is_corruption(exc):
                return self._fall_back(conn, exc)
            reason = str(exc)
        except OSError as exc:
            return self._fall_back(conn, exc)
        if conn is not None:
            conn.close()
        try:
            staged = self._stage_salvage()
            self._move_aside(reason)
            if staged is not None:
                os.replace(staged, self.path)
                _sync_dir(self.state_dir)
            conn = self._connect(self.path)
            _prepare(conn)
            return conn
        except (OSError, sqlite3.Error, _Unusable) as exc:
            return self._fall_back(None, exc, DAMAGED)

    def _open_read_only(self) -> sqlite3.Connection:
        """For commands that only read: never creates, moves or repairs; errors say what is wrong."""
        if not self.path.is_file():
            raise RecordError(f"no journal at {self.path} (is the state directory right?)")
        try:
            conn = sqlite3.connect(f"{self.path.resolve().as_uri()}?mode=ro", uri=True, check_same_thread=False)
            conn.isolation_level = None
            _check_header(self.path)
            if conn.execute("PRAGMA quick_check").fetchall() != [("ok",)]:
                raise _Unusable("the integrity check failed")
            if _check_schema(conn):
                raise _Unusable("it holds no journal yet")
            return conn
        except (OSError, sqlite3.Error, _Unusable) as exc:
            raise RecordError(f"cannot read the journal {self.path}: {exc}") from exc

    def _move_aside(self, reason: str) -> None:
        stamp = datetime.fromtimestamp(self._clock(), timezone.utc).strftime("%Y%m%dT%H%M%SZ")
        target, n = self.path.with_name(f"{DB_NAME}.corrupt-{stamp}"), 0
        while any(Path(f"{target}{s}").exists() for s in ("", "-wal", "-shm")):
            n += 1
            target = self.path.with_name(f"{DB_NAME}.corrupt-{stamp}-{n}")
        # The -wal first: a stale one next to a fresh database would be replayed into it.
        for suffix in ("-wal", "-shm", ""):
            source = Path(f"{self.path}{suffix}")
            if source.exists():
                os.replace(source, Path(f"{target}{suffix}"))
        _sync_dir(self.state_dir)
        self.moved_aside = target
        self._log.error(
            "journal %s unusable (%s): moved aside to %s, starting a fresh journal", self.path, reason, target.name
        )

    def _fall_back(
        self, conn: sqlite3.Connection | None, exc: BaseException, problem: str | None = None
    ) -> sqlite3.Connection:
        """Continue in memory, keeping what can still be read from storage."""
        self.problem = problem or _problem_of(exc) or FAILING
        self._log.error(
            "journal %s: %s; %s (keeping games in memory)", self.path, str(exc) or type(exc).__name__, self.problem
        )
        memory = self._rescue(conn) if conn is not None else None
        if conn is not None:
            try:
                conn.close()
            except sqlite3.Error:
                pass
        if memory is None:
            memory = sqlite3.connect(":memory:", isolation_level=None, check_same_thread=False)
            memory.executescript(SCHEMA)
        return memory

    def _rescue(self, conn: sqlite3.Connection) -> sqlite3.Connection | None:
        """A copy in memory of the journal on storage, or None if it cannot be read."""
        _roll_back(conn)
        memory = _copy_to_memory(conn)
        wal = Path(f"{self.path}-wal")
        if memory is None and not (wal.exists() and wal.stat().st_size > 0):
            # Without a write-ahead log the file alone is the journal; SQLite can read it even
            # where it may not create the -shm (a read-only directory).
            try:
                uri = f"{self.path.resolve().as_uri()}?immutable=1"
                with contextlib.closing(sqlite3.connect(uri, uri=True)) as frozen:
                    memory = _copy_to_memory(frozen)
            except (OSError, sqlite3.Error):
                pass
        return memory

    # --- running statements --------------------------------------------------------------
    def _write(self, action: Callable[[sqlite3.Connection], T]) -> T:
        """Run `action` in one transaction; on storage trouble move to memory and run it there."""
        if self.read_only:
            raise RecordError(f"the journal {self.path} was opened read-only")
        while True:
            conn = self._connection()
            try:
                conn.execute("BEGIN IMMEDIATE")
                try:
                    value = action(conn)
                    conn.execute("COMMIT")
                except Exception:
                    _roll_back(conn)
                    raise
                return value
            except sqlite3.Error as exc:
                if self.problem is not None or not _is_trouble(exc):
                    raise
                self._conn = self._fall_back(conn, exc)

    def _read(self, action: Callable[[sqlite3.Connection], T]) -> T:
        while True:
            conn = self._connection()
            try:
                return action(conn)
            except sqlite3.Error as exc:
                if self.read_only or self.problem is not None or not _is_trouble(exc):
                    raise
                self._conn = self._fall_back(conn, exc)

    def _connection(self) -> sqlite3.Connection:
        if self._conn is None:
            raise RecordError(f"the journal {self.path} is closed")
        return self._conn


# --- helpers ---------------------------------------------------------------------------------
def _prepare(conn: sqlite3.Connection) -> None:
    """Check the file (reading only, so an unusable one is moved aside as found), then set it up."""
    conn.isolation_level = None  # transactions are ours (BEGIN IMMEDIATE ... COMMIT)
    conn.execute("PRAGMA busy_timeout = 5000")
    problems = [row[0] for row in conn.execute("PRAGMA quick_check(3)")]
    if problems != ["ok"]:
        raise _Unusable("integrity check: " + "; ".join(problems))
    fresh = _check_schema(conn)
    conn.execute("PRAGMA journal_mode = WAL")
    conn.execute("PRAGMA synchronous = FULL")
    if fresh:
        conn.executescript(SCHEMA)
    # A write that is rolled back: read-only storage shows now, not at a game's first step.
    conn.execute("BEGIN IMMEDIATE")
    try:
        conn.execute(f"PRAGMA user_version = {SCHEMA_VERSION}")
    finally:
        _roll_back(conn)


def _check_schema(conn: sqlite3.Connection) -> bool:
    """True for an empty database (a new journal); _Unusable unless it holds this schema."""
    version = conn.execute("PRAGMA user_version").fetchone()[0]
    if version == 0 and conn.execute("SELECT count(*) FROM sqlite_master").fetchone()[0] == 0:
        return True
    if version != SCHEMA_VERSION:
        raise _Unusable(f"schema version {version}, this firmware uses {SCHEMA_VERSION}")
    for table, columns in COLUMNS.items():
        found = [row[1] for row in conn.execute(f"PRAGMA table_info({table})")]
        if found != columns:
            raise _Unusable(f"table {table!r} has columns {found}, expected {columns}")
    return False


def _check_header(path: Path) -> None:
    """Refuse a file that is not SQLite at all before SQLite touches it (or its -wal/-shm)."""
    try:
        with open(path, "rb") as file:
            start = file.read(16)
    except FileNotFoundError:
        return
    if start and start != b"SQLite format 3\x00":
        raise _Unusable("file is not a database")


def _copy_to_memory(source: sqlite3.Connection) -> sqlite3.Connection | None:
    """An in-memory copy of a journal, or None if it cannot be read or is not one."""
    memory = sqlite3.connect(":memory:", isolation_level=None, check_same_thread=False)
    try:
        source.backup(memory)
        if _check_schema(memory):
            memory.executescript(SCHEMA)
        return memory
    except (sqlite3.Error, _Unusable):
        memory.close()
        return None


def _roll_back(conn: sqlite3.Connection) -> None:
    """End a failed transaction; a failing rollback must not hide the error that caused it."""
    try:
        if conn.in_transaction:
            conn.execute("ROLLBACK")
    except sqlite3.Error:
        pass


def _remove(path: Path) -> None:
    """Remove a database file with its -wal and -shm (those first), if they exist."""
    for suffix in ("-wal", "-shm", ""):
        Path(f"{path}{suffix}").unlink(missing_ok=True)


def _salvage_note(kept: int, lost: int) -> str:
    return f"journal damaged: kept {kept} games, lost {lost}" if kept or lost else "journal unreadable: started afresh"


def _store_salvage(conn: sqlite3.Connection, kept: list[_Salvaged], settings: list[tuple[str, str]],
                   note: str, now: float) -> None:
    """Write salvaged games and settings, and the outcome as a quarantine row 'salvage'."""
    for game in kept:
        game.insert(conn)
    conn.executemany("INSERT INTO settings (key, value) VALUES (?, ?) ON CONFLICT (key) DO NOTHING", settings)
    conn.execute(QUARANTINE)
    conn.execute("INSERT INTO quarantine (item, reason, date) VALUES ('salvage', ?, ?)", (note, now))


def _sync_dir(directory: Path) -> None:
    """Make renames in `directory` survive a power cut."""
    fd = os.open(directory, os.O_RDONLY)
    try:
        os.fsync(fd)
    finally:
        os.close(fd)


def _code(exc: sqlite3.Error) -> int:
    return (getattr(exc, "sqlite_errorcode", None) or 0) & 0xFF  # the primary result code


def _is_corruption(exc: sqlite3.Error) -> bool:
    return _code(exc) in (sqlite3.SQLITE_CORRUPT, sqlite3.SQLITE_NOTADB)


def _is_trouble(exc: sqlite3.Error) -> bool:
    """Storage or file trouble (switch to memory), as opposed to a mistake in a statement."""
    return _problem_of(exc) is not None


def _problem_of(exc: BaseException) -> str | None:
    if isinstance(exc, OSError):
        if exc.errno in (errno.ENOSPC, errno.EDQUOT):
            return FULL
        if exc.errno in (errno.EROFS, errno.EACCES, errno.EPERM):
            return READ_ONLY
        if exc.errno in (errno.EISDIR, errno.ENOTDIR, errno.EEXIST, errno.ENOENT):
            return UNAVAILABLE  # something else stands where the journal should be
        return FAILING
    if isinstance(exc, sqlite3.Error):
        return {
            sqlite3.SQLITE_FULL: FULL,
            sqlite3.SQLITE_READONLY: READ_ONLY,
            sqlite3.SQLITE_PERM: READ_ONLY,
            sqlite3.SQLITE_CANTOPEN: UNAVAILABLE,
            sqlite3.SQLITE_IOERR: FAILING,
            sqlite3.SQLITE_CORRUPT: DAMAGED,
            sqlite3.SQLITE_NOTADB: DAMAGED,
        }.get(_code(exc))
    return None


def _json(value: Any, what: str) -> str:
    try:
        return json.dumps(value, ensure_ascii=False, allow_nan=False, separators=(",", ":"))
    except (TypeError, ValueError) as exc:
        raise RecordError(f"{what} is not JSON: {exc}") from exc


def _load(text: str | bytes, what: str) -> Any:
    try:
        return json.loads(text)
    except (ValueError, TypeError) as exc:  # bad JSON or UTF-8, or not text at all (damage)
        raise RecordError(f"{what} in the journal is not valid JSON: {exc}") from exc


def _text(raw: Any) -> str | None:
    """A text column read as bytes (CAST ... AS BLOB): the text, or None if it is not UTF-8."""
    try:
        return raw.decode("utf-8") if isinstance(raw, bytes) else None
    except UnicodeDecodeError:
        return None


ENTRY = "game_id, seat, CAST(name AS BLOB), score, date, players"  # what `Journal._entries` reads


def _check_game(game: str) -> None:
    find_game(game)  # RecordError naming the known games


def _checked_header(header: Mapping[str, Any]) -> tuple[str, str]:
    """The game name and the header's JSON, after checking it is a record's start (RECORDS.md)."""
    if not isinstance(header, Mapping):
        raise RecordError(f"a game header must be a JSON object, not {header!r}")
    if header.get("format") != RECORD_FORMAT or header.get("version") != RECORD_VERSION:
        raise RecordError(
            f"a game header needs 'format': {RECORD_FORMAT!r} and 'version': {RECORD_VERSION},"
            f" not {header.get('format')!r} and {header.get('version')!r}"
        )
    game = header.get("game")
    if not isinstance(game, str):
        raise RecordError(f"a game header needs 'game': one of {', '.join(game_names())}, not {game!r}")
    _check_game(game)
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
    return game, _json(clean, "the game header")


def _status(conn: sqlite3.Connection, game_id: int) -> str:
    row = conn.execute("SELECT status FROM games WHERE id = ?", (game_id,)).fetchone()
    if row is None:
        raise RecordError(f"no game {game_id!r} in the journal")
    return row[0]


def _step_count(conn: sqlite3.Connection, game_id: int) -> int:
    return int(conn.execute("SELECT count(*) FROM steps WHERE game_id = ?", (game_id,)).fetchone()[0])


def _seat_scores(game: str, seats: int, result: Mapping[str, Any]) -> tuple[list[int], set[int]]:
    """Each seat's score (EXXTRA: its final position) and the winners, checked against RECORDS.md."""
    key = find_game(game).ranking.score
    scores, winners = result.get(key), result.get("winners")
    if not isinstance(scores, list) or len(scores) != seats or any(type(s) is not int for s in scores):
        raise RecordError(f"a {game} result needs {key!r}: a list of {seats} integers, not {scores!r}")
    if not isinstance(winners, list) or any(type(w) is not int or not 0 <= w < seats for w in winners):
        raise RecordError(f"a result needs 'winners': a list of seat numbers 0–{seats - 1}, not {winners!r}")
    return scores, set(winners)


def _stored(conn: sqlite3.Connection, game_id: int) -> StoredGame:
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
    status = _text(raw_status)
    if status not in (PLAYING, FINISHED, ABANDONED):
        raise RecordError(f"game {game_id} has an unknown status {raw_status!r}")
    record = _load(header, f"game {game_id} header")
    if not isinstance(record, dict):
        raise RecordError(f"game {game_id} header in the journal is not a JSON object")
    record["steps"] = [
        _load(text, f"game {game_id} step {idx}")
        for idx, text in conn.execute(
            "SELECT idx, CAST(step AS BLOB) FROM steps WHERE game_id = ? ORDER BY idx", (game_id,)
        )
    ]
    if result is not None:
        record["result"] = _load(result, f"game {game_id} result")
    return StoredGame(game_id, record, _load(meta, f"game {game_id} meta"), status, started, updated)


def _resumable(conn: sqlite3.Connection, game_id: int) -> StoredGame:
    """A game being played, checked for the shape resuming needs: a record header as
    `start_game` takes it, steps that are JSON objects, meta a JSON object."""
    stored = _stored(conn, game_id)
    _checked_header({key: value for key, value in stored.record.items() if key != "steps"})
    for index, step in enumerate(stored.record["steps"]):
        if not isinstance(step, dict):
            raise RecordError(f"game {game_id} step {index} in the journal is not a JSON object")
    if not isinstance(stored.meta, dict):
        raise RecordError(f"game {game_id} meta in the journal is not a JSON object")
    return stored


@dataclass(frozen=True)
class _Salvaged:
    """One game read back from a damaged file, ready to go into the fresh journal."""

    row: tuple[Any, ...]  # the games row: id, game, header, meta, status, result, started, updated
    steps: list[tuple[int, int, str]]
    scores: list[tuple[Any, ...]]

    def insert(self, conn: sqlite3.Connection) -> None:
        conn.execute(f"INSERT INTO games ({', '.join(COLUMNS['games'])}) VALUES (?, ?, ?, ?, ?, ?, ?, ?)", self.row)
        conn.executemany("INSERT INTO steps (game_id, idx, step) VALUES (?, ?, ?)", self.steps)
        conn.executemany(
            "INSERT INTO scores (game_id, seat, game, name, score, won, players, bot, kids, date)"
            " VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
            self.scores,
        )


def _read_salvage(source: Path, log: logging.Logger) -> tuple[list[_Salvaged], int, list[tuple[str, str]]]:
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
                return _read_games(conn, source.name, log)
    except (OSError, sqlite3.Error) as exc:
        log.error("journal: cannot read %s to salvage games: %s", source.name, exc)
        return [], 0, []


def _read_games(
    conn: sqlite3.Connection, name: str, log: logging.Logger
) -> tuple[list[_Salvaged], int, list[tuple[str, str]]]:
    """`_read_salvage` on an open copy of the damaged file `name`."""
    try:
        _check_schema(conn)
    except (sqlite3.Error, _Unusable) as exc:
        log.error("journal: %s holds no games this firmware can read: %s", name, exc)
        return [], 0, []
    ids: list[int] = []
    lost = 0
    try:  # NOT INDEXED: walk the table itself, never an index that may be the damage
        for (gid,) in conn.execute("SELECT id FROM games NOT INDEXED ORDER BY id"):
            ids.append(gid)
    except sqlite3.Error as exc:
        log.error("journal: %s: the list of games breaks off after %d: %s", name, len(ids), exc)
        found, lost = _probe_games(conn, set(ids))
        ids += found
    kept = []
    for gid in ids:
        try:
            kept.append(_salvaged(conn, gid))
        except Exception as exc:  # damaged data may fail in any way: one game never stops the others
            lost += 1
            log.error("journal: game %s in %s cannot be salvaged: %s", gid, name, exc)
    settings = []
    try:
        for raw_key, raw in conn.execute("SELECT CAST(key AS BLOB), CAST(value AS BLOB) FROM settings NOT INDEXED"):
            key = _text(raw_key)
            with contextlib.suppress(RecordError):
                if key:
                    settings.append((key, _json(_load(raw, "setting"), "setting")))
    except sqlite3.Error as exc:
        log.error("journal: %s: settings cannot all be read: %s", name, exc)
    return kept, lost, settings


def _probe_games(conn: sqlite3.Connection, seen: set[int]) -> tuple[list[int], int]:
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


PROBE_LIMIT = 100_000  # ids looked up one by one past damage (a damaged max(id) may be huge)


def _salvaged(conn: sqlite3.Connection, game_id: int) -> _Salvaged:
    """One game of a damaged file, checked: it reads, its header is a record's, it replays, and
    a finished game's result gives its scores again."""
    stored = _stored(conn, game_id)
    game, header = _checked_header({k: v for k, v in stored.record.items() if k not in ("steps", "result")})
    if not all(isinstance(t, (int, float)) for t in (stored.started, stored.updated)):
        raise RecordError(f"game {game_id} has no readable start and update times")
    steps = stored.record["steps"]
    indexes = [idx for (idx,) in conn.execute("SELECT idx FROM steps WHERE game_id = ? ORDER BY idx", (game_id,))]
    if indexes != list(range(len(steps))):
        raise RecordError(f"game {game_id} steps are numbered {indexes[:5]}..., not 0, 1, 2, ...")
    replay_record(stored.record)
    result = stored.record.get("result")
    if (stored.status == FINISHED) != (result is not None):
        raise RecordError(f"game {game_id} is {stored.status} but {'has' if result is not None else 'lacks'} a result")
    scores: list[tuple[Any, ...]] = []
    if result is not None:
        players = [Player.from_json(p) for p in stored.record["players"]]
        values, winners = _seat_scores(game, len(players), result)
        scores = [
            (game_id, seat, game, p.name, values[seat], seat in winners, len(players), p.bot is not None, p.kids,
             stored.updated)
            for seat, p in enumerate(players)
        ]
    row = (game_id, game, header, _json(stored.meta, "meta"), stored.status,
           None if result is None else _json(result, "result"), stored.started, stored.updated)
    return _Salvaged(row, [(game_id, i, _json(s, f"step {i}")) for i, s in enumerate(steps)], scores)
