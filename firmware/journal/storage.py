"""The journal's storage: the SQLite file, opened so that the board never stops on it.

`Storage` opens `state_dir/xtraboard.db` (WAL, synchronous=FULL) and runs every statement of
the other parts of the journal in `_write` (one transaction) or `_read`. A corrupt, truncated
or foreign file is moved aside as found and replaced by a fresh one holding what the salvage
(rescue.py) could read from it, swapped in by one rename; storage that is read-only, full or
failing switches to a copy in memory, and `problem` says so for the display. The database
file, the salvage being built, and SQLite's -wal and -shm are 0600 (firmware.paths).
"""

from __future__ import annotations

import contextlib
import errno
import fcntl
import logging
import os
import shutil
import sqlite3
import tempfile
import time
from collections.abc import Callable
from datetime import datetime, timezone
from pathlib import Path
from typing import Self, TypeVar

from firmware.errors import N_, RecordError, Text
from firmware.journal.rescue import SCRATCH, STAGING, Found, note_of, read_salvage, salvage_note, store_salvage
from firmware.journal.schema import DB_NAME, LOGGER_NAME, SCHEMA, SCHEMA_VERSION, Unusable, check_schema
from firmware.paths import private_dir, private_file

# What the display says when storage fails (short: it is a 128×64 OLED).
# Texts: English here and in the log, the board's language on the display (firmware.i18n.tr).
FULL = Text(N_("storage full: games not kept"))
READ_ONLY = Text(N_("storage read-only: games not kept"))
UNAVAILABLE = Text(N_("storage unavailable: games not kept"))
DAMAGED = Text(N_("storage damaged: games not kept"))
FAILING = Text(N_("storage error: games not kept"))

T = TypeVar("T")
Connect = Callable[[Path], sqlite3.Connection]


def connect_file(path: Path) -> sqlite3.Connection:
    """The default way to open the database file (tests inject others); it is 0600, and so
    SQLite makes its -wal and -shm."""
    private_file(path, sidecars=("-wal", "-shm"))
    return sqlite3.connect(path, isolation_level=None, check_same_thread=False)


class Storage:
    """The journal's database, on storage or in memory; the parts of `Journal` build on it."""

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
        self.skipped: list[str] = []  # rows the readers passed over as unreadable (logged once each)
        self._found: Found | None = None  # read from a damaged file
        self._staged = False  # ... and already in the file now in place
        finished_late = False if read_only else self._finish_staging()
        self._conn: sqlite3.Connection | None = self._open_read_only() if read_only else self._open()
        if self._found is not None and self.problem is None:
            self._salvage()
        elif finished_late and self.problem is None:
            self.notes += [
                note_of(row[0])
                for row in self._read(
                    lambda conn: conn.execute(
                        "SELECT reason FROM quarantine WHERE item = 'salvage' ORDER BY id DESC LIMIT 1"
                    )
                )
            ]

    # --- rows that cannot be read -------------------------------------------------------
    def _skip(self, item: str, reason: str) -> None:
        """A row a reader passes over: logged once per journal, never raised."""
        if item not in self.skipped:
            self.skipped.append(item)
            self._log.warning("journal: %s cannot be read (%s): skipped", item, reason)

    # --- salvage from a damaged file ----------------------------------------------------
    def _salvage(self) -> None:
        """Say how the salvage from a file moved aside went (`salvage`, `notes`); store what it
        found here if that could not be done before the swap (`_stage_salvage`)."""
        if self._found is None:
            return
        kept, lost, settings = self._found
        note = salvage_note(len(kept), lost)
        if not self._staged and (kept or settings):
            try:
                self._write(lambda conn: store_salvage(conn, kept, settings, note, self._clock()))
            except sqlite3.Error as exc:  # never expected in a fresh file; the board must still start
                self._log.error("journal: salvaged games could not be stored: %s", exc)
                kept, lost = [], lost + len(kept)
                note = salvage_note(0, lost)
        self.salvage = (len(kept), lost)
        self.notes.append(note)
        self._log.error(
            "journal: salvaged %d games and %d settings from %s; %d games could not be read",
            len(kept),
            len(settings),
            self.moved_aside.name if self.moved_aside else "?",
            lost,
        )

    def _stage_salvage(self) -> Path | None:
        """Read what can be saved from the unusable file and build the new journal from it under
        another name, so that it replaces the file in one rename: a power cut at any moment
        leaves either the damaged file (salvaged again at the next start) or the salvaged one."""
        self._found = kept, lost, settings = read_salvage(self.path, self._log)
        staging = self.path.with_name(STAGING)
        try:
            _remove(staging)
            # 0600 before SQLite writes a byte (whatever `connect` does): it becomes the journal.
            private_file(staging, sidecars=("-wal", "-shm"))
            conn = self._connect(staging)
            try:
                _prepare(conn)
                conn.execute("BEGIN IMMEDIATE")
                store_salvage(conn, kept, settings, salvage_note(len(kept), lost), self._clock())
                conn.execute("COMMIT")
            finally:
                conn.close()  # the last connection: SQLite checkpoints and removes the -wal
            if Path(f"{staging}-wal").exists():
                raise OSError(f"{staging.name}-wal was left behind")
            self._staged = True
            return staging
        except (OSError, sqlite3.Error, Unusable) as exc:
            self._log.error(
                "journal: cannot build %s (%s); salvaging into the fresh journal instead", staging.name, exc
            )
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

    def __enter__(self) -> Self:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    def __repr__(self) -> str:
        where = "memory" if self.problem else str(self.path)
        return f"<{type(self).__name__} {where} problem={self.problem!r}>"

    # --- opening -------------------------------------------------------------------------
    def _open(self) -> sqlite3.Connection:
        """`_open_unlocked` with the state directory locked (flock on the folder itself, no file
        of its own): processes opening a journal at once check, create or set it aside one at a
        time, so none finds another's half-made journal and sets it aside or falls back to memory."""
        try:
            private_dir(self.state_dir)
            folder = os.open(self.state_dir, os.O_RDONLY)
        except OSError:
            return self._open_unlocked()  # it says what is wrong with the folder
        try:
            fcntl.flock(folder, fcntl.LOCK_EX)
            return self._open_unlocked()
        finally:
            os.close(folder)  # and with it the lock

    def _open_unlocked(self) -> sqlite3.Connection:
        """The file database, a fresh one after moving an unusable one aside, or memory."""
        conn: sqlite3.Connection | None = None
        for attempt in range(_OPEN_TRIES):
            try:
                private_dir(self.state_dir)
                _check_header(self.path)
                conn = self._connect(self.path)
                _prepare(conn)
                return conn
            except Unusable as exc:
                reason = str(exc)
            except sqlite3.DatabaseError as exc:
                # Another process making the same new journal holds it for a moment (switching it
                # to WAL does not wait on the busy timeout): try again, not fall back to memory.
                if _code(exc) == sqlite3.SQLITE_BUSY and attempt + 1 < _OPEN_TRIES:
                    if conn is not None:
                        conn.close()
                    conn = None
                    time.sleep(_OPEN_RETRY_S)
                    continue
                if not _is_corruption(exc):
                    return self._fall_back(conn, exc)
                reason = str(exc)
            except OSError as exc:
                return self._fall_back(conn, exc)
            break
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
        except (OSError, sqlite3.Error, Unusable) as exc:
            return self._fall_back(None, exc, DAMAGED)

    def _open_read_only(self) -> sqlite3.Connection:
        """For commands that only read: never creates, moves or repairs; errors say what is wrong."""
        if not self.path.is_file():
            raise RecordError(Text(N_("no journal at {file} (is the state directory right?)"), file=self.path))
        try:
            conn = sqlite3.connect(f"{self.path.resolve().as_uri()}?mode=ro", uri=True, check_same_thread=False)
            conn.isolation_level = None
            _check_header(self.path)
            try:
                _check_journal(conn)
            except sqlite3.OperationalError as exc:
                if (getattr(exc, "sqlite_errorcode", 0) & 0xFF) not in (_SQLITE_READONLY, _SQLITE_CANTOPEN):
                    raise
                conn.close()  # a read-only card: SQLite may not make the -shm a WAL journal needs
                conn = _read_through_a_copy(self.path)
                _check_journal(conn)
            return conn
        except (OSError, sqlite3.Error, Unusable) as exc:
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
        raise Unusable("integrity check: " + "; ".join(problems))
    fresh = check_schema(conn)
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


def _check_header(path: Path) -> None:
    """Refuse a file that is not SQLite at all before SQLite touches it (or its -wal/-shm)."""
    try:
        with open(path, "rb") as file:
            start = file.read(16)
    except FileNotFoundError:
        return
    if start and start != b"SQLite format 3\x00":
        raise Unusable("file is not a database")


_OPEN_TRIES, _OPEN_RETRY_S = 50, 0.05  # a journal another process is creating: up to 2.5 s
_SQLITE_READONLY, _SQLITE_CANTOPEN = 8, 14  # primary result codes (sqlite3.h)


def _check_journal(conn: sqlite3.Connection) -> None:
    """Unusable unless `conn` holds an intact journal (reads only)."""
    if conn.execute("PRAGMA quick_check").fetchall() != [("ok",)]:
        raise Unusable("the integrity check failed")
    if check_schema(conn):
        raise Unusable("it holds no journal yet")


def _read_through_a_copy(path: Path) -> sqlite3.Connection:
    """The journal at `path` in memory, read from a private copy of the file and its -wal.

    For a journal on a read-only file system (a card mounted elsewhere to rescue its games): a
    WAL database needs its -shm, which SQLite cannot create there. `immutable=1` would open the
    file but leave out the games still in the -wal; in the copy SQLite replays them. Nothing is
    written beside the original."""
    memory = sqlite3.connect(":memory:", isolation_level=None, check_same_thread=False)
    with tempfile.TemporaryDirectory(prefix="xtraboard-read-") as folder:
        copy = Path(folder) / path.name
        shutil.copyfile(path, copy)
        wal = Path(f"{path}-wal")
        if wal.exists():
            shutil.copyfile(wal, Path(f"{copy}-wal"))
        with contextlib.closing(sqlite3.connect(copy)) as source:
            source.backup(memory)
    return memory


def _copy_to_memory(source: sqlite3.Connection) -> sqlite3.Connection | None:
    """An in-memory copy of a journal, or None if it cannot be read or is not one."""
    memory = sqlite3.connect(":memory:", isolation_level=None, check_same_thread=False)
    try:
        source.backup(memory)
        if check_schema(memory):
            memory.executescript(SCHEMA)
        return memory
    except (sqlite3.Error, Unusable):
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


def _sync_dir(directory: Path) -> None:
    """Make renames in `directory` survive a power cut."""
    fd = os.open(directory, os.O_RDONLY)
    try:
        os.fsync(fd)
    finally:
        os.close(fd)


def _code(exc: sqlite3.Error) -> int:
    # the primary result code; sqlite3 sets `sqlite_errorcode` on the errors it raises, not on one made by hand
    return (getattr(exc, "sqlite_errorcode", None) or 0) & 0xFF


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
