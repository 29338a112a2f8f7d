"""The operator's code: a salted scrypt hash in a file of its own, and the gate that counts
wrong codes and locks code entry.

The file (`operator-code` beside the board description: /etc/xtraboard/operator-code on an
installed board, root:xtraboard 0640) holds one line, written by `xtraboard operator set-code`:

    scrypt n=16384 r=8 p=1 length=5 salt=<32 hex digits> hash=<64 hex digits>

The length is kept so the board knows when a whole code has been typed: it answers every press
the same way until then (firmware/ui/operator_menu.py), so a code cannot be found one press at a time.
After WRONG_BEFORE_LOCK wrong codes in a row, code entry locks for FIRST_LOCK_S, twice as long
at each further lock; a right code ends the doubling. The gate's counts live in the journal's
settings (so a power cut does not lift a lock: a lock in force when the board stopped starts
again in full when it comes back), tied to the code's hash (setting a new code starts afresh).

    >>> code = StoredCode.make(("left", "right", "ok", "roll"), salt=bytes(16), n=2)
    >>> code.matches(("left", "right", "ok", "roll")), code.matches(("left", "right", "ok", "ok"))
    (True, False)
"""

from __future__ import annotations

import grp
import hashlib
import hmac
import logging
import os
import re
import secrets
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING

from firmware.errors import ConfigError
from firmware.hardware.config import CODE_FILE_NAME
from firmware.input_files import NotRegularFile, TooLarge, read_regular_file
from firmware.journal.settings import OPERATOR_GATE
from firmware.paths import write_secret

if TYPE_CHECKING:
    from firmware.journal.protocol import SettingsStore

log = logging.getLogger("xtraboard.operator")

CODE_FILE_MODE = 0o640  # root writes it, the board's group reads it, nobody else
CODE_GROUP = "xtraboard"
MAX_CODE_FILE_BYTES = 4096  # one line of a hundred characters or so
BUTTONS = ("roll", "ok", "back", "left", "right")
CODE_LENGTH = (4, 16)  # presses: long enough not to be typed by chance
SCRYPT_N, SCRYPT_R, SCRYPT_P = 2**14, 8, 1  # 16 MiB, about 0.1 s on a Pi 4: once per whole code
WRONG_BEFORE_LOCK = 5
FIRST_LOCK_S = 15 * 60.0
GATE_KEY = OPERATOR_GATE  # the journal setting with the gate's counts (no reset clears it)
_LINE = re.compile(r"scrypt n=(\d+) r=(\d+) p=(\d+) length=(\d+) salt=([0-9a-f]{32}) hash=([0-9a-f]{64})")


def check_code(presses: Sequence[str]) -> tuple[str, ...]:
    """The presses as a code, or ValueError saying in one line what is wrong with them."""
    low, high = CODE_LENGTH
    for press in presses:
        if press not in BUTTONS:
            raise ValueError(f"{press!r} is not a button; a code is {low} to {high} of {', '.join(BUTTONS)}")
    if not low <= len(presses) <= high:
        raise ValueError(f"{len(presses)} presses; a code is {low} to {high} presses")
    if len(set(presses)) < 2:
        raise ValueError("one button pressed over and over is too easy to hit; use at least two different buttons")
    return tuple(presses)


@dataclass(frozen=True)
class StoredCode:
    """What the code file keeps: never the code, only its length and salted hash."""

    length: int
    salt: bytes
    digest: bytes
    n: int = SCRYPT_N
    r: int = SCRYPT_R
    p: int = SCRYPT_P

    @classmethod
    def make(cls, presses: Sequence[str], *, salt: bytes | None = None, n: int = SCRYPT_N) -> StoredCode:
        code = check_code(presses)
        salt = salt if salt is not None else secrets.token_bytes(16)
        return cls(len(code), salt, _scrypt(code, salt, n, SCRYPT_R, SCRYPT_P), n)

    def matches(self, presses: Sequence[str]) -> bool:
        if len(presses) != self.length:
            return False
        return hmac.compare_digest(_scrypt(tuple(presses), self.salt, self.n, self.r, self.p), self.digest)

    @property
    def fingerprint(self) -> str:
        """Names this code in the gate's counts (a new code starts them afresh); reveals nothing."""
        return hashlib.sha256(self.digest).hexdigest()[:16]

    def line(self) -> str:
        return (
            f"scrypt n={self.n} r={self.r} p={self.p} length={self.length} salt={self.salt.hex()} "
            f"hash={self.digest.hex()}\n"
        )

    @classmethod
    def parse(cls, text: str, source: Path) -> StoredCode:
        found = _LINE.fullmatch(text.strip())
        if found is None:
            raise ConfigError(f"{source}: not an operator code file; write it with `xtraboard operator set-code`")
        n, r, p, length = (int(found.group(i)) for i in range(1, 5))
        low, high = CODE_LENGTH
        if not (low <= length <= high and 2 <= n <= 2**20 and n & (n - 1) == 0 and 1 <= r <= 32 and 1 <= p <= 4):
            raise ConfigError(
                f"{source}: the operator code file's parameters are out of range; "
                "write it again with `xtraboard operator set-code`"
            )
        return cls(length, bytes.fromhex(found.group(5)), bytes.fromhex(found.group(6)), n, r, p)


def _scrypt(code: tuple[str, ...], salt: bytes, n: int, r: int, p: int) -> bytes:
    return hashlib.scrypt(" ".join(code).encode("ascii"), salt=salt, n=n, r=r, p=p, maxmem=256 * 1024 * 1024, dklen=32)


def code_file_beside(board_file: Path) -> Path:
    """Where the code is kept for the board description `board_file`."""
    return board_file.parent / CODE_FILE_NAME


def read_code_file(path: Path) -> StoredCode | None:
    """The stored code, None when there is no file (no operator mode); ConfigError otherwise."""
    try:
        # Bounded, a regular file only: a FIFO would block the board's start, /dev/zero never ends.
        text = read_regular_file(path, MAX_CODE_FILE_BYTES).decode("ascii")
    except FileNotFoundError:
        return None
    except NotRegularFile as exc:
        raise ConfigError(f"{path}: not a regular file ({exc.kind}); expected the operator code file") from None
    except TooLarge:
        raise ConfigError(
            f"{path}: larger than {MAX_CODE_FILE_BYTES} bytes; expected the operator code file (one line)"
        ) from None
    except (OSError, UnicodeDecodeError) as exc:
        reason = exc.strerror if isinstance(exc, OSError) and exc.strerror else exc
        raise ConfigError(
            f"{path}: cannot read the operator code ({reason}); the board's user must be in "
            f"group {CODE_GROUP} and the file {CODE_FILE_MODE:o} root:{CODE_GROUP}"
        ) from None
    return StoredCode.parse(text, path)


def write_code_file(path: Path, code: StoredCode) -> None:
    """Replace the code file at once (firmware.paths.write_secret: a new private file renamed
    over the old one; UnsafePlace, writing nothing, when its folder is writable by others or it
    is a symbolic link): mode 0640, and root:xtraboard when run as root where that group exists
    (the board reads it; engines and guests cannot)."""
    group = None
    if os.geteuid() == 0:
        try:
            group = grp.getgrnam(CODE_GROUP).gr_gid
        except KeyError:
            pass  # not installed yet: install.sh gives the file to the group when it makes it
    write_secret(path, code.line().encode("ascii"), mode=CODE_FILE_MODE, group=group)


class CodeGate:
    """Wrong codes and locks for one stored code; `store` is the journal (or None: kept in
    memory only). Times are the board loop's clock."""

    def __init__(self, code: StoredCode, store: SettingsStore | None, now: float) -> None:
        self.code = code
        self.store = store
        kept = store.get_setting(GATE_KEY, None) if store is not None else None
        if not isinstance(kept, dict) or kept.get("code") != code.fingerprint:
            kept = {}
        number = {k: _count(kept.get(k)) for k in ("failures", "locks", "streak", "level")}
        self.failures, self.locks, self.streak, self.level = (
            number[k] for k in ("failures", "locks", "streak", "level")
        )
        self.locked_until = now + self.lock_s(self.level) if kept.get("locked") is True else 0.0

    @property
    def length(self) -> int:
        return self.code.length

    @staticmethod
    def lock_s(level: int) -> float:
        """The length of lock number `level` (1, 2, ...): 15 minutes, then doubling."""
        return FIRST_LOCK_S * float(2 ** (max(1, level) - 1))

    def locked_for(self, now: float) -> float:
        """Seconds left of the lock in force (0: code entry is open)."""
        return max(0.0, self.locked_until - now)

    def attempt(self, presses: Sequence[str], now: float) -> str:
        """A whole code typed: "open", "wrong" or "locked" (then it was not even checked)."""
        self.expire(now)
        if self.locked_for(now) > 0:
            log.warning("operator code typed while code entry is locked (%.0f s left)", self.locked_for(now))
            return "locked"
        if self.code.matches(presses):
            self.streak = self.level = 0
            self.locked_until = 0.0
            self._save()
            log.info("operator code accepted: the operator menu opens")
            return "open"
        self.failures += 1
        self.streak += 1
        log.warning("wrong operator code (%d in a row, %d in all)", self.streak, self.failures)
        if self.streak >= WRONG_BEFORE_LOCK:
            self.streak = 0
            self.level += 1
            self.locks += 1
            self.locked_until = now + self.lock_s(self.level)
            log.warning(
                "operator code entry locked for %.0f minutes after %d wrong codes (lock %d)",
                self.lock_s(self.level) / 60,
                WRONG_BEFORE_LOCK,
                self.locks,
            )
        self._save()
        return "wrong"

    def _save(self) -> None:
        if self.store is not None:
            self.store.set_setting(
                GATE_KEY,
                {
                    "code": self.code.fingerprint,
                    "failures": self.failures,
                    "locks": self.locks,
                    "streak": self.streak,
                    "level": self.level,
                    "locked": self.locked_until > 0,
                },
            )

    def expire(self, now: float) -> None:
        """A lock whose time is over is lifted in the journal too (so a restart does not renew it)."""
        if self.locked_until and self.locked_for(now) == 0:
            self.locked_until = 0.0
            self._save()


def gate_counts(store: SettingsStore | None) -> tuple[int, int] | None:
    """(wrong codes, locks) kept in the journal, or None when no code was ever tried."""
    kept = store.get_setting(GATE_KEY, None) if store is not None else None
    if not isinstance(kept, dict):
        return None
    failures, locks = kept.get("failures"), kept.get("locks")
    return (failures if type(failures) is int else 0, locks if type(locks) is int else 0)


def _count(value: object) -> int:
    """A kept counter: a whole number from 0, else 0 (a damaged or foreign value)."""
    return value if type(value) is int and value >= 0 else 0
