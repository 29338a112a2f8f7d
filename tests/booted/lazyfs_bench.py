"""What the lazy file system costs: its throughput beside plain folders (`python -m tests.booted.lazyfs bench`).

Three places: a folder on tmpfs (where LazyFS keeps its live tree), a folder on the disk the
backing directory is on, and a LazyFS mount. On each: N MiB written in 64 KiB writes and fsync'd,
read back (a fresh open: the kernel's cache may still serve it), and SQLite commits as the board's
journal makes them (WAL, synchronous=FULL, a row a transaction). One line each.
"""

from __future__ import annotations

import os
import sqlite3
import tempfile
import time
from pathlib import Path

from tests.booted.lazyfs import LazyFS, fuse_usable

CHUNK = 64 * 1024


def measure(folder: Path, mb: int, commits: int) -> tuple[float, float, float]:
    """(write+fsync MiB/s, read MiB/s, SQLite commits/s) in `folder`."""
    data = os.urandom(CHUNK)
    path = folder / "stream"
    started = time.perf_counter()
    fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600)
    for _ in range(mb * 1024 * 1024 // CHUNK):
        os.write(fd, data)
    os.fsync(fd)
    os.close(fd)
    write_rate = mb / (time.perf_counter() - started)
    started = time.perf_counter()
    with open(path, "rb", buffering=0) as file:
        while file.read(CHUNK):
            pass
    read_rate = mb / (time.perf_counter() - started)
    path.unlink()
    conn = sqlite3.connect(folder / "bench.db", isolation_level=None)
    conn.execute("PRAGMA journal_mode = WAL")
    conn.execute("PRAGMA synchronous = FULL")
    conn.execute("CREATE TABLE step (n INTEGER PRIMARY KEY, body TEXT)")
    started = time.perf_counter()
    for n in range(commits):
        conn.execute("BEGIN IMMEDIATE")
        conn.execute("INSERT INTO step VALUES (?, ?)", (n, "x" * 200))
        conn.execute("COMMIT")
    commit_rate = commits / (time.perf_counter() - started)
    conn.close()
    return write_rate, read_rate, commit_rate


def run_bench(mb: int, commits: int) -> int:
    reason = fuse_usable()
    if reason:
        print(f"lazyfs bench: {reason}")
        return 1
    rows: list[tuple[str, tuple[float, float, float]]] = []
    with tempfile.TemporaryDirectory(prefix="lazyfs-bench-", dir="/dev/shm") as shm:
        rows.append(("tmpfs folder", measure(Path(shm), mb, commits)))
    with tempfile.TemporaryDirectory(prefix="lazyfs-bench-", dir="/var/tmp") as disk:
        plain = Path(disk) / "plain"
        plain.mkdir()
        rows.append(("disk folder", measure(plain, mb, commits)))
        fs = LazyFS(Path(disk) / "backing", Path(disk) / "mount").mount()
        try:
            rows.append(("lazyfs", measure(fs.mountpoint, mb, commits)))
        finally:
            fs.cut()
    print(f"{'where':<14} {'write+fsync MiB/s':>18} {'read MiB/s':>11} {'commits/s':>10}")
    for name, (write, read, commit) in rows:
        print(f"{name:<14} {write:>18.0f} {read:>11.0f} {commit:>10.0f}")
    return 0
