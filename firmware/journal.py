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
aside (`xtraboard.db.corrupt-<UTC time>`, `moved_aside`) and a fresh one started; storage that
is read-only, full or failing switches the journal to memory so play goes on, and `problem`
says so in a few words for the display. It belongs to one thread (the board's loop).
"""

from __future__ import annotations

import contextlib
import errno
import json
import logging
import os
import sqlite3
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
        self.read_only = read_only
        self._clock = clock
        self._connect = connect
        self._log = logging.getLogger(LOGGER_NAME)
        self._conn: sqlite3.Connection | None = self._open_read_only() if read_only else self._open()

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
        """The game being played when the board stopped, if any."""

        def action(conn: sqlite3.Connection) -> StoredGame | None:
            row = conn.execute(
                "SELECT id FROM games WHERE status = ? ORDER BY id DESC LIMIT 1", (PLAYING,)
            ).fetchone()
            return None if row is None else _stored(conn, row[0])

        return self._read(action)

    def finished(self, game: str | None = None, limit: int | None = None) -> list[StoredGame]:
        """Finished games, newest first; only those of `game` if given, at most `limit`."""
        if game is not None:
            _check_game(game)

        def action(conn: sqlite3.Connection) -> list[StoredGame]:
            rows = conn.execute(
                "SELECT id FROM games WHERE status = ? AND (? IS NULL OR game = ?) ORDER BY id DESC LIMIT ?",
                (FINISHED, game, game, -1 if limit is None else limit),
            ).fetchall()
            return [_stored(conn, gid) for (gid,) in rows]

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
            lambda conn: [
                ScoreEntry(game, *row)
                for row in conn.execute(
                    "SELECT name, score, date, game_id, players FROM scores"
                    " WHERE game = ? AND bot = 0 AND kids = ? ORDER BY score DESC, date, game_id LIMIT ?",
                    (game, kids, limit),
                )
            ]
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
        row = self._read(
            lambda conn: conn.execute(
                "SELECT name, score, date, game_id, players FROM scores WHERE game = ? AND players = 1"
                " AND bot = 0 AND kids = ? AND (? IS NULL OR name = ?) ORDER BY score DESC, date, game_id LIMIT 1",
                (game, kids, name, name),
            ).fetchone()
        )
        return None if row is None else ScoreEntry(game, *row)

    def wins(self, game: str, limit: int = 5) -> list[tuple[str, int]]:
        """People with the most wins of `game` against others (shared wins count; solo games
        do not), most first."""
        _check_game(game)
        return self._read(
            lambda conn: [
                (name, int(count))
                for name, count in conn.execute(
                    "SELECT name, sum(won) AS n FROM scores WHERE game = ? AND bot = 0 AND players > 1"
                    " GROUP BY name HAVING n > 0 ORDER BY n DESC, name LIMIT ?",
                    (game, limit),
                )
            ]
        )

    def stats(self) -> dict[str, int]:
        """Finished games per game name."""
        counts = dict.fromkeys(game_names(), 0)
        rows = self._read(
            lambda conn: conn.execute(
                "SELECT game, count(*) FROM games WHERE status = ? GROUP BY game", (FINISHED,)
            ).fetchall()
        )
        counts.update({game: int(n) for game, n in rows})
        return counts

    # --- settings ------------------------------------------------------------------------
    def get_setting(self, key: str, default: Any = None) -> Any:
        """A setting's value, or `default` if it was never set."""
        row = self._read(lambda conn: conn.execute("SELECT value FROM settings WHERE key = ?", (key,)).fetchone())
        return default if row is None else _load(row[0], f"setting {key!r}")

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
            self._move_aside(reason)
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


def _load(text: str, what: str) -> Any:
    try:
        return json.loads(text)
    except ValueError as exc:
        raise RecordError(f"{what} in the journal is not valid JSON: {exc}") from exc


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
    row = conn.execute(
        "SELECT header, meta, status, result, started, updated FROM games WHERE id = ?", (game_id,)
    ).fetchone()
    if row is None:
        raise RecordError(f"no game {game_id!r} in the journal")
    header, meta, status, result, started, updated = row
    record = _load(header, f"game {game_id} header")
    record["steps"] = [
        _load(text, f"game {game_id} step {idx}")
        for idx, text in conn.execute("SELECT idx, step FROM steps WHERE game_id = ? ORDER BY idx", (game_id,))
    ]
    if result is not None:
        record["result"] = _load(result, f"game {game_id} result")
    return StoredGame(game_id, record, _load(meta, f"game {game_id} meta"), status, started, updated)
