"""Reading a file a person names on the command line, with bounds: it must be a regular file of
at most `limit` bytes. A FIFO would block for ever, a device such as /dev/zero never ends and a
directory is no file at all; each is refused before a byte is read, and so is a file larger
than the limit (a file that grows while it is read is cut at limit + 1 bytes and refused too).

    data = read_regular_file(path, MAX_BOARD_BYTES)   # NotRegularFile / TooLarge / OSError
    data = read_stream(sys.stdin.buffer, limit)       # TooLarge / OSError

Callers turn NotRegularFile and TooLarge into their own message (what the file should have
been); neither is an OSError, so a caller's "cannot read" handler does not swallow them.
"""

from __future__ import annotations

import os
import stat
from pathlib import Path
from typing import BinaryIO

from firmware.errors import N_

# What a file that is not a regular one is, as a message names it (marked, translated where shown).
KINDS = (
    (stat.S_ISDIR, N_("a directory")),
    (stat.S_ISFIFO, N_("a FIFO")),
    (stat.S_ISCHR, N_("a character device")),
    (stat.S_ISBLK, N_("a block device")),
    (stat.S_ISSOCK, N_("a socket")),
)


class NotRegularFile(ValueError):
    """The path is a directory, a FIFO, a device or a socket: `kind` says which (English, marked)."""

    def __init__(self, path: str | Path, kind: str) -> None:
        super().__init__(f"{path}: not a regular file ({kind})")
        self.kind = kind


class TooLarge(ValueError):
    """More than `limit` bytes."""

    def __init__(self, path: str | Path, limit: int) -> None:
        super().__init__(f"{path}: larger than {limit} bytes")
        self.limit = limit


def read_regular_file(path: str | Path, limit: int) -> bytes:
    """The bytes of `path`, a regular file of at most `limit` bytes. Opened without blocking
    (a FIFO's open would wait for a writer) and checked on the open file, so nothing swapped in
    between can slip through."""
    fd = os.open(path, os.O_RDONLY | os.O_NONBLOCK | getattr(os, "O_CLOEXEC", 0))  # (not on every platform)
    try:
        info = os.fstat(fd)
        if not stat.S_ISREG(info.st_mode):
            kind = next((name for test, name in KINDS if test(info.st_mode)), N_("not a file"))
            raise NotRegularFile(path, kind)
        if info.st_size > limit:
            raise TooLarge(path, limit)
        os.set_blocking(fd, True)
        with os.fdopen(os.dup(fd), "rb") as file:
            return _bounded(file, path, limit)
    finally:
        os.close(fd)


def read_stream(stream: BinaryIO, limit: int, name: str = "standard input") -> bytes:
    """At most `limit` bytes of an open stream (standard input), else TooLarge: `xtraboard
    verify - < /dev/zero` reads limit + 1 bytes and stops."""
    return _bounded(stream, name, limit)


def _bounded(file: BinaryIO, path: str | Path, limit: int) -> bytes:
    chunks, size = [], 0
    while size <= limit:
        chunk = file.read(min(1 << 20, limit + 1 - size))
        if not chunk:
            break
        chunks.append(chunk)
        size += len(chunk)
    if size > limit:
        raise TooLarge(path, limit)
    return b"".join(chunks)
