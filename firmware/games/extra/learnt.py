"""The EXTRA! strong bot's learnt tables, kept as a compact binary data file (`learnt.bin`).

`scripts/extra_table.py` learns them by self-play and writes the file with `dump`; the bot reads
it with `tables()` on its first decision (once per process), with the standard library only.
Three tables, every value a number of points rounded to 0.1:

- `rows`: (row index, crosses, rolls to come, other rows in play, group) → expected final row
  score (crosses 0: an empty row, what the rolls to come will make of it; group: how much the
  EXTRA numbers owned cut the row's chances, `model.groups`);
- `numbers`: EXTRA numbers owned (ascending) → final total against the average;
- `joint`: (rolls to come in pairs, rows still empty) → points added to the rows' sum
  (`search.joint_key`); `tables()` gives it `JOINT_WEIGHT` times as learnt.

The file, little-endian: an 8-byte magic `XBLEARNT`, the format version (u16), the length of the
command that made it (u16), the payload's length (u32) and its SHA-256 (32 bytes); the command
(UTF-8); the payload: per table, in the order above, its key width and entry count (u8, u32),
the keys (that many bytes each, unsigned; a shorter key is padded with 255 at the end), then
the values in tenths of a point (i16 each; −32768 stands for −0.0). A file that does not match its header is refused
with `LearntTablesError`, naming the file.

    >>> import tempfile, pathlib
    >>> path = pathlib.Path(tempfile.mkdtemp()) / "t.bin"
    >>> dump(path, {(0, 1, 2, 3, 0): -1.4}, {(): 2.5, (1, 6): -0.3}, {(0, 1): 12.9}, "made by hand")
    >>> loaded = load(path)
    >>> loaded.rows, loaded.numbers[(1, 6)], loaded.command
    ({(0, 1, 2, 3, 0): -1.4}, -0.3, 'made by hand')
"""

from __future__ import annotations

import hashlib
import struct
import sys
from array import array
from functools import cache
from pathlib import Path
from collections.abc import Iterable, Mapping
from typing import TYPE_CHECKING, NamedTuple, TypeVar, cast

from firmware.errors import XtraboardError

if TYPE_CHECKING:  # the model computes its chances at import: not needed to read the file
    from firmware.games.extra.model import Joint, Numbers, Table

PATH = Path(__file__).with_name("learnt.bin")
# The joint correction counts this many times its learnt mean error, tuned on paired solo games
# (the figures: docs/bots.md, "The strong EXTRA! table"). It is learnt as the mean error over the
# positions play reaches; as a guide between two positions it pays to count it more.
JOINT_WEIGHT = 1.5
MAGIC = b"XBLEARNT"
VERSION = 1
_HEADER = struct.Struct("<8sHHI32s")  # magic, version, command length, payload length, SHA-256
_SECTION = struct.Struct("<BI")  # key width, entry count
_PAD = 255  # pads a shorter key (an EXTRA-numbers set of fewer than three)
_MINUS_ZERO = -32768  # the value -0.0 (the learning rounds make a few): kept as it was learnt

Key = tuple[int, ...]


class LearntTablesError(XtraboardError):
    """The learnt tables' file is missing, damaged or of another format (the message names it)."""


class Tables(NamedTuple):
    rows: Table
    numbers: Numbers
    joint: Joint
    command: str  # how the tables were made (the generator's command lines)


_Key = TypeVar("_Key", bound=tuple[int, ...])  # a table's key: a few small numbers


def _section(table: Mapping[_Key, float], width: int) -> bytes:
    keys = bytearray()
    values = array("h")
    for key, value in table.items():  # in the given order (the generator sorts them)
        if len(key) > width or any(not 0 <= part < _PAD for part in key):
            raise ValueError(f"key {key!r} does not fit {width} bytes below {_PAD}")
        tenths = _MINUS_ZERO if value == 0 and str(value)[0] == "-" else round(value * 10)
        if tenths != _MINUS_ZERO and (tenths / 10 != value or not -32767 <= tenths <= 32767):
            raise ValueError(f"value {value!r} of {key!r} is not a number of tenths in 16 bits")
        keys += bytes(key) + bytes([_PAD] * (width - len(key)))
        values.append(tenths)
    if sys.byteorder == "big":
        values.byteswap()
    return _SECTION.pack(width, len(table)) + bytes(keys) + values.tobytes()


def dump(path: Path, rows: dict[Key, float], numbers: dict[Key, float], joint: dict[Key, float], command: str) -> None:
    """Write the tables to `path` (refusing a value that does not round-trip exactly)."""
    payload = _section(rows, 5) + _section(numbers, 3) + _section(joint, 2)
    text = command.encode()
    header = _HEADER.pack(MAGIC, VERSION, len(text), len(payload), hashlib.sha256(payload).digest())
    Path(path).write_bytes(header + text + payload)


def load(path: Path = PATH) -> Tables:
    """The tables in `path`, checked against the file's header; LearntTablesError if they are
    not there whole."""
    try:
        data = Path(path).read_bytes()
    except OSError as exc:
        raise LearntTablesError(f"{path}: cannot read the EXTRA! learnt tables: {exc.strerror or exc}") from exc
    if len(data) < _HEADER.size or data[:8] != MAGIC:
        raise LearntTablesError(f"{path}: not an EXTRA! learnt-tables file (no {MAGIC.decode()} header)")
    _, version, command_length, payload_length, digest = _HEADER.unpack_from(data)
    if version != VERSION:
        raise LearntTablesError(f"{path}: learnt-tables format version {version}; this firmware reads {VERSION}")
    start = _HEADER.size + command_length
    payload = memoryview(data)[start:]
    if len(payload) != payload_length:
        raise LearntTablesError(
            f"{path}: {len(payload)} bytes of tables where the header says {payload_length} (truncated or padded)"
        )
    if hashlib.sha256(payload).digest() != digest:
        raise LearntTablesError(f"{path}: the tables do not match their checksum (the file is damaged)")
    try:
        command = bytes(data[_HEADER.size : start]).decode()
        tables: list[dict[tuple[int, ...], float]] = []
        offset = 0
        for _ in range(3):
            width, count = _SECTION.unpack_from(payload, offset)
            offset += _SECTION.size
            keys = payload[offset : offset + width * count]
            offset += width * count
            values = array("h")
            values.frombytes(payload[offset : offset + 2 * count])
            offset += 2 * count
            if len(keys) != width * count or len(values) != count:
                raise ValueError("a table runs past the end")
            if sys.byteorder == "big":
                values.byteswap()
            parts = iter(keys.tobytes())
            split: Iterable[tuple[int, ...]] = zip(*[parts] * width)  # the key bytes, `width` at a time
            if width == 3:  # the EXTRA-numbers sets: padded
                split = (tuple(n for n in key if n != _PAD) for key in split)
            tables.append(dict(zip(split, [v / 10 if v != _MINUS_ZERO else -0.0 for v in values])))
        if offset != len(payload):
            raise ValueError(f"{len(payload) - offset} bytes after the last table")
    except (struct.error, ValueError, UnicodeDecodeError) as exc:
        raise LearntTablesError(f"{path}: the tables are malformed ({exc})") from exc
    return Tables(cast("Table", tables[0]), tables[1], cast("Joint", tables[2]), command)


@cache
def tables() -> Tables:
    """The shipped tables, read once per process (a failed read is tried again next time), the
    joint correction weighted by `JOINT_WEIGHT`."""
    found = load(PATH)
    return found._replace(joint={key: JOINT_WEIGHT * value for key, value in found.joint.items()})
