"""The lazy file system (tests/booted/lazyfs.py) loses exactly what a disk loses at a power cut.

On the host, no container: what was fsync'd survives a cut, what was not is gone (data, and names
whose folder was not synced), and SQLite in the journal's modes stays intact when cut at random
moments, every commit it acknowledged kept (WAL with synchronous=FULL, as firmware/journal opens
it). Rollback-journal mode only keeps its integrity: without synchronous=EXTRA SQLite does not sync
the folder after deleting the journal, so the last commit may be rolled back — as SQLite documents.
"""

from __future__ import annotations

import contextlib
import fcntl
import os
import random
import sqlite3
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path

import pytest

from tests.booted.lazyfs import LazyFS, fuse_usable

pytestmark = pytest.mark.booted

SEED = int(os.environ.get("XTRABOARD_CUT_SEED", "1"))
WAIT_S = 30.0  # a bound on a hung writer, never a timing assertion

# A writer as the board's journal writes: a transaction a row, "N" printed once COMMIT returned.
WRITER = """
import sqlite3, sys
conn = sqlite3.connect(sys.argv[1], isolation_level=None)
conn.execute("PRAGMA journal_mode = " + sys.argv[2])
conn.execute("PRAGMA synchronous = FULL")
conn.execute("CREATE TABLE IF NOT EXISTS step (n INTEGER PRIMARY KEY, body BLOB)")
n = conn.execute("SELECT coalesce(max(n), 0) FROM step").fetchone()[0]
print("start", n, flush=True)
while True:
    n += 1
    conn.execute("BEGIN IMMEDIATE")
    conn.execute("INSERT INTO step VALUES (?, randomblob(?))", (n, 50 + n * 37 % 6000))
    conn.execute("COMMIT")
    print(n, flush=True)
"""


LOCK_HOLDER = """
import fcntl, os, sys
folder = os.open(sys.argv[1], os.O_RDONLY)
fcntl.flock(folder, fcntl.LOCK_EX)
print("locked", flush=True)
sys.stdin.read()
"""

# Two of these at once on one database: each transaction waits for the other's lock.
COUNTING_WRITER = """
import sqlite3, sys
conn = sqlite3.connect(sys.argv[1], isolation_level=None, timeout=30)
conn.execute("PRAGMA journal_mode = WAL")
conn.execute("PRAGMA synchronous = FULL")
conn.execute("CREATE TABLE IF NOT EXISTS step (n INTEGER PRIMARY KEY)")
for n in range(int(sys.argv[2]), int(sys.argv[2]) + 200):
    conn.execute("BEGIN IMMEDIATE")
    conn.execute("INSERT INTO step VALUES (?)", (n,))
    conn.execute("COMMIT")
"""


SYNC_TWICE = """
import os, sys
fd = os.open(sys.argv[1], os.O_WRONLY | os.O_TRUNC)
for data in (b"second", b"third"):
    os.pwrite(fd, data, 0)
    os.fsync(fd)
"""


@pytest.fixture
def lazy(tmp_path: Path) -> Iterator[LazyFS]:
    reason = fuse_usable()
    if reason:
        pytest.skip(reason)
    fs = LazyFS(tmp_path / "disk", tmp_path / "mount").mount()
    yield fs
    fs.cut()


def sync_folder(path: Path) -> None:
    fd = os.open(path, os.O_RDONLY | os.O_DIRECTORY)
    try:
        os.fsync(fd)
    finally:
        os.close(fd)


def write(path: Path, data: bytes, *, sync: bool, mode: str = "wb") -> None:
    with open(path, mode) as file:
        file.write(data)
        file.flush()
        if sync:
            os.fsync(file.fileno())


def test_what_was_synced_survives_a_cut(lazy: LazyFS) -> None:
    mount = lazy.mountpoint
    write(mount / "kept", b"synced", sync=True)
    sync_folder(mount)
    (mount / "sub").mkdir()
    sync_folder(mount)
    write(mount / "sub" / "deep", b"deep", sync=True)
    sync_folder(mount / "sub")
    lazy.cut()
    assert (lazy.backing / "kept").read_bytes() == b"synced"
    assert (lazy.backing / "sub" / "deep").read_bytes() == b"deep"
    lazy.mount()
    assert (mount / "kept").read_bytes() == b"synced"  # and a new mount shows it


def test_what_was_not_synced_is_lost(lazy: LazyFS) -> None:
    mount = lazy.mountpoint
    write(mount / "file", b"0123456789", sync=True)
    sync_folder(mount)
    write(mount / "file", b"ab", sync=False, mode="r+b")  # overwritten, not synced
    write(mount / "file", b"tail", sync=False, mode="ab")  # grown, not synced
    write(mount / "never", b"never synced", sync=False)  # nothing synced
    write(mount / "nameless", b"data synced", sync=True)  # its folder not synced
    assert (mount / "file").read_bytes() == b"ab23456789tail"
    assert lazy.cut() == ["file", "nameless", "never"]  # what the cut lost
    assert (lazy.backing / "file").read_bytes() == b"0123456789"
    assert sorted(os.listdir(lazy.backing)) == ["file"]
    assert not lazy.orphans.exists()  # the nameless body went with the cut


def test_a_name_is_durable_once_its_folder_is_synced(lazy: LazyFS) -> None:
    mount = lazy.mountpoint
    write(mount / "a", b"first", sync=True)
    write(mount / "gone", b"to unlink", sync=True)
    sync_folder(mount)
    write(mount / "b.tmp", b"second", sync=True)
    os.replace(mount / "b.tmp", mount / "a")  # the write-then-rename of firmware.paths.write_secret
    (mount / "gone").unlink()
    write(mount / "unsynced", b"", sync=False)
    lazy.cut()
    assert sorted(os.listdir(lazy.backing)) == ["a", "gone"]  # neither the rename nor the unlink
    assert (lazy.backing / "a").read_bytes() == b"first"
    lazy.mount()
    write(mount / "b.tmp", b"second", sync=True)
    os.replace(mount / "b.tmp", mount / "a")
    (mount / "gone").unlink()
    write(mount / "empty", b"data not synced", sync=False)
    sync_folder(mount)
    lazy.cut()
    assert sorted(os.listdir(lazy.backing)) == ["a", "empty"]
    assert (lazy.backing / "a").read_bytes() == b"second"
    assert (lazy.backing / "empty").read_bytes() == b""  # its name synced, its data not


def test_a_truncate_is_lost_or_kept_with_the_next_sync(lazy: LazyFS) -> None:
    mount = lazy.mountpoint
    write(mount / "file", b"a" * 100, sync=True)
    sync_folder(mount)
    os.truncate(mount / "file", 10)
    lazy.cut()
    assert (lazy.backing / "file").read_bytes() == b"a" * 100
    lazy.mount()
    with open(mount / "file", "r+b") as file:
        file.truncate(10)
        file.seek(90)
        file.write(b"b" * 10)  # the cut-off tail reads as zeros now, and must on the disk too
        file.flush()
        os.fsync(file.fileno())
    lazy.cut()
    assert (lazy.backing / "file").read_bytes() == b"a" * 10 + bytes(80) + b"b" * 10


def test_an_armed_sync_freezes_before_it_is_done(lazy: LazyFS) -> None:
    mount = lazy.mountpoint
    write(mount / "file", b"first", sync=True)
    sync_folder(mount)
    lazy.arm(2)
    syncer = subprocess.Popen([sys.executable, "-c", SYNC_TWICE, str(mount / "file")])
    deadline = time.monotonic() + WAIT_S
    while not lazy.tripped and time.monotonic() < deadline:
        time.sleep(0.01)
    assert lazy.tripped and syncer.poll() is None  # stopped inside its second sync
    syncer.kill()  # it dies once its request ends: with the file system, at the cut
    assert lazy.cut() == ["file"]
    syncer.wait(WAIT_S)
    assert (lazy.backing / "file").read_bytes() == b"second"  # the first sync was done, not the second


def test_modes_and_owners_reach_the_disk(lazy: LazyFS) -> None:
    mount = lazy.mountpoint
    write(mount / "secret", b"x", sync=True)
    sync_folder(mount)
    os.chmod(mount / "secret", 0o600)
    os.chown(mount / "secret", 1234, 1234)
    lazy.cut()
    st = os.stat(lazy.backing / "secret")
    assert (st.st_mode & 0o777, st.st_uid, st.st_gid) == (0o600, 1234, 1234)


def test_times_are_set_and_set_to_now(lazy: LazyFS) -> None:
    path = lazy.mountpoint / "file"
    write(path, b"x", sync=True)
    os.utime(path, ns=(1_000_000_000_123, 2_000_000_000_456))
    assert (os.stat(path).st_atime_ns, os.stat(path).st_mtime_ns) == (1_000_000_000_123, 2_000_000_000_456)
    os.utime(path)  # "now": UTIME_NOW through libfuse
    assert os.stat(path).st_mtime_ns > 2_000_000_000_456 * 100  # this century, not 1970 plus a second


def test_locks_hold_between_processes(lazy: LazyFS) -> None:
    # The kernel keeps them: flock (the journal locks its folder so) and SQLite's POSIX locks.
    holder = subprocess.Popen(
        [sys.executable, "-c", LOCK_HOLDER, str(lazy.mountpoint)], stdout=subprocess.PIPE, stdin=subprocess.PIPE
    )
    assert holder.stdout is not None and holder.stdin is not None
    assert holder.stdout.readline() == b"locked\n"
    folder = os.open(lazy.mountpoint, os.O_RDONLY)
    try:
        with pytest.raises(BlockingIOError):
            fcntl.flock(folder, fcntl.LOCK_EX | fcntl.LOCK_NB)
        holder.stdin.close()  # it lets go and exits
        holder.wait(WAIT_S)
        fcntl.flock(folder, fcntl.LOCK_EX | fcntl.LOCK_NB)
    finally:
        os.close(folder)
    # Made in WAL mode first, as the journal does under its folder's lock: two rollback-mode
    # connections switching a new file at once may get SQLITE_BUSY without waiting (SQLite's
    # deadlock rule for a read lock being upgraded), whatever the file system.
    database = lazy.mountpoint / "shared.db"
    with contextlib.closing(sqlite3.connect(database)) as conn:
        conn.execute("PRAGMA journal_mode = WAL")
    writers = [
        subprocess.Popen([sys.executable, "-c", COUNTING_WRITER, str(database), str(first)]) for first in (0, 1000)
    ]
    assert [writer.wait(WAIT_S) for writer in writers] == [0, 0]
    with contextlib.closing(sqlite3.connect(database)) as conn:
        assert conn.execute("PRAGMA integrity_check").fetchall() == [("ok",)]
        assert conn.execute("SELECT count(*) FROM step").fetchone() == (400,)


def cut_writer_at_random(lazy: LazyFS, journal_mode: str, cuts: int, rng: random.Random) -> tuple[int, int]:
    """Start the writer, cut at a random moment, check the file; `cuts` times. (acknowledged, lost)."""
    database = lazy.mountpoint / "steps.db"
    acknowledged = lost = 0
    for cut in range(cuts):
        writer = subprocess.Popen(
            [sys.executable, "-c", WRITER, str(database), journal_mode], stdout=subprocess.PIPE, text=True
        )
        assert writer.stdout is not None
        start = int(writer.stdout.readline().split()[1])
        lost += max(0, acknowledged - start)
        deadline = time.monotonic() + rng.uniform(0.0, 0.4)
        while time.monotonic() < deadline:
            acknowledged = int(writer.stdout.readline())
        writer.kill()
        writer.wait(WAIT_S)
        acknowledged = max([acknowledged, *(int(line) for line in writer.stdout)])  # printed before the kill
        lazy.cut()
        with sqlite3.connect(lazy.backing / "steps.db") as conn:
            check = conn.execute("PRAGMA integrity_check").fetchall()
            count, top = conn.execute("SELECT count(*), coalesce(max(n), 0) FROM step").fetchone()
        conn.close()
        assert check == [("ok",)], f"cut {cut} (seed {SEED}): {check}"
        assert count == top, f"cut {cut} (seed {SEED}): rows missing below {top}"
        lazy.mount()
    return acknowledged, lost


def test_sqlite_in_wal_mode_keeps_every_commit_through_random_cuts(lazy: LazyFS) -> None:
    acknowledged, lost = cut_writer_at_random(lazy, "WAL", 15, random.Random(SEED))
    assert acknowledged > 15  # the cuts landed among commits
    assert lost == 0


def test_sqlite_in_rollback_mode_stays_intact_through_random_cuts(lazy: LazyFS) -> None:
    # Each cut may roll back the last commit (its journal's unlink was never synced), no more.
    cuts = 10
    acknowledged, lost = cut_writer_at_random(lazy, "DELETE", cuts, random.Random(SEED + 1))
    assert acknowledged > cuts
    assert lost <= cuts


def test_an_unsynced_sqlite_database_is_lost_whole(lazy: LazyFS) -> None:
    # The test's own check: a writer that never syncs keeps nothing, so the cuts above did cut.
    # (synchronous first: switching to WAL is a synced rollback-mode transaction otherwise)
    conn = sqlite3.connect(lazy.mountpoint / "unsynced.db", isolation_level=None)
    conn.execute("PRAGMA synchronous = OFF")
    conn.execute("PRAGMA journal_mode = WAL")
    conn.execute("CREATE TABLE step (n INTEGER PRIMARY KEY)")
    conn.execute("INSERT INTO step VALUES (1)")
    lazy.cut()
    conn.close()
    assert os.listdir(lazy.backing) == []
