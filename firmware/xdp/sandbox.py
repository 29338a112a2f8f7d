"""The box an external engine runs in (docs/engine-protocol.md, "The engine's box"): bubblewrap
(`bwrap`, the Debian package `bubblewrap`) with the file system read-only, a private /tmp as its
only writable folder, no network, no view of the board's processes, no capabilities, and the
board's secrets made unreadable: its state directory (the journal holds the running game's dice
seed), /etc/xtraboard (the board description, the operator code), and wherever they are the
board description, every file it names (firmware.hardware.config.named_files: the operator's
code file, the MQTT password file, …) and every socket the board serves (the debug socket).
The engine gets a short environment of its own (`environment`), not the board's, and a limit
on its memory (`memory_bytes`, set by firmware/xdp/limits.py inside the box).

    >>> Sandbox(hidden=["/etc/xtraboard"]).command(["deep", "--xdp"], bwrap="/usr/bin/bwrap")[:3]
    ['/usr/bin/bwrap', '--unshare-all', '--die-with-parent']

An engine that does not fit the box (it needs to write its own files, or lives in /tmp or /run)
must be changed, not the box: the board's dice are only secret while engines cannot read them.
The board's own Python and code are the exception: where they lie in /tmp or /run (a checkout
there, as in CI), they are shown read-only, so `xtraboard engine` runs in the box from anywhere.
"""

from __future__ import annotations

import os
import shutil
import sys
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path

from firmware.hardware.config import ENGINE_MEMORY_MB
from firmware.paths import default_state_dir

PACKAGE = "bubblewrap"  # the Debian package that provides bwrap
CONFIG_DIR = Path("/etc/xtraboard")  # the installed board's description and operator code
SYSTEM_STATE_DIR = Path("/var/lib/xtraboard")  # the installed board's journal
TMP_SIZE = 64 * 1024 * 1024  # the engine's own /tmp (RAM-backed): bytes
SHM_SIZE = 16 * 1024 * 1024  # its /dev/shm (RAM-backed; the rest of its /dev is read-only): bytes
LIMITS = Path(__file__).with_name("limits.py")  # sets the limit inside the box, then runs the engine
# What an engine may know of the board's environment: where programs are and the language, no
# more (the board's may hold credentials, XTRABOARD_* settings, systemd's sockets).
PASSED_ENV = ("PATH", "LANG", "LANGUAGE", "TZ")
PASSED_ENV_PREFIX = "LC_"
DEFAULT_PATH = "/usr/local/bin:/usr/bin:/bin"
# Top-level folders the box does not show as they are: fresh ones replace them. /proc is left
# out entirely (a new procfs cannot be mounted under systemd's ProtectProc=/ProtectKernelTunables=,
# and the board's own would show its open files); /run holds sockets a read-only mount does not
# close (connecting to a socket is no write).
REPLACED = {"proc", "dev", "tmp", "run"}


class SandboxMissing(RuntimeError):
    """bwrap is not installed: the board starts no engine without its box."""


def find_bwrap() -> str:
    """The bwrap program on PATH; SandboxMissing naming the package to install."""
    found = shutil.which("bwrap")
    if found is None:
        raise SandboxMissing(
            f"the engine sandbox needs bwrap: install the package {PACKAGE} (sudo apt-get install {PACKAGE})"
        )
    return found


def environment(board: Mapping[str, str] | None = None) -> dict[str, str]:
    """The environment an engine starts with: PASSED_ENV and LC_* from the board's (`board`,
    by default os.environ), PATH at least DEFAULT_PATH; the box adds HOME and TMPDIR (/tmp)."""
    board = os.environ if board is None else board
    passed = {k: v for k, v in board.items() if k in PASSED_ENV or k.startswith(PASSED_ENV_PREFIX)}
    return {"PATH": DEFAULT_PATH} | passed


@dataclass(frozen=True)
class Sandbox:
    """Where an engine may not look, beyond the defaults (/etc/xtraboard, the board's usual state
    directories): the board's own state directory, board description, the files it names and
    the sockets the board serves. `hidden` is read each time an engine starts (a list the board
    adds to, such as a debug socket opened after the engine's seat was made, counts). And how
    much memory the engine may take: `memory_bytes` of address space (None: no limit)."""

    hidden: Sequence[str | Path] = field(default_factory=tuple)
    memory_bytes: int | None = ENGINE_MEMORY_MB * 1024 * 1024

    def hidden_paths(self) -> list[Path]:
        """Every existing path to hide, outermost only (a path inside a hidden one is hidden
        already, as is anything in the fresh /tmp, /run, /dev)."""
        candidates = [CONFIG_DIR, SYSTEM_STATE_DIR, default_state_dir(), *map(Path, self.hidden)]
        found: list[Path] = []
        for path in sorted({Path(os.path.realpath(p)) for p in candidates}, key=lambda p: len(p.parts)):
            if not path.exists() or len(path.parts) < 2:
                continue
            if path.parts[1] in REPLACED and not any(path.is_relative_to(own) for own in own_code()):
                continue
            if any(path.is_relative_to(outer) for outer in found):
                continue
            found.append(path)
        return found

    def command(self, command: Sequence[str], *, bwrap: str | None = None, empty_fds: Sequence[int] = ()) -> list[str]:
        """`command` wrapped in bwrap. Each hidden file is covered by an unreadable empty file
        read from one of `empty_fds` (pipes at their end, passed to the child: bwrap reads each
        once); `files_to_cover()` says how many it needs."""
        hidden = self.hidden_paths()
        files = [path for path in hidden if not path.is_dir()]
        if len(empty_fds) < len(files):
            raise ValueError(f"{len(files)} hidden files need as many empty_fds, not {len(empty_fds)}")
        fds = iter(empty_fds)
        args = [bwrap or find_bwrap(), "--unshare-all", "--die-with-parent", "--new-session", "--cap-drop", "ALL"]
        args += _root_entries(entry for entry in sorted(os.listdir("/")) if entry not in REPLACED)
        args += ["--dev", "/dev", "--size", str(SHM_SIZE), "--tmpfs", "/dev/shm", "--remount-ro", "/dev"]
        args += ["--size", str(TMP_SIZE), "--tmpfs", "/tmp", "--tmpfs", "/run"]
        for path in own_code():
            args += ["--ro-bind", str(path), str(path)]
        for path in hidden:
            if path.is_dir():
                args += ["--perms", "0000", "--tmpfs", str(path)]
            else:
                args += ["--perms", "0000", "--ro-bind-data", str(next(fds)), str(path)]
        args += ["--setenv", "HOME", "/tmp", "--setenv", "TMPDIR", "/tmp", "--chdir", "/tmp", "--"]
        if self.memory_bytes is not None:
            args += [sys.executable, "-I", "-S", str(LIMITS), str(self.memory_bytes), "--"]
        return args + list(command)

    def files_to_cover(self) -> int:
        """How many hidden files (not folders) need an `empty_fd` each."""
        return sum(1 for path in self.hidden_paths() if not path.is_dir())


def own_code() -> list[Path]:
    """The board's Python (its venv and the interpreter it was made from) and the folder holding
    the `firmware` package, where they lie in a folder the box replaces (/tmp, /run): the box
    shows them read-only, or the board's own engine could not start from a checkout in /tmp."""
    package_root = Path(__file__).resolve().parents[2]  # firmware/xdp/sandbox.py -> the package's folder
    roots = {Path(os.path.realpath(p)) for p in (sys.prefix, sys.base_prefix, package_root)}
    return sorted(p for p in roots if len(p.parts) > 2 and p.parts[1] in {"tmp", "run"})


def _root_entries(names: Iterable[str]) -> list[str]:
    """The top-level folders read-only, its symlinks (Debian's /bin -> usr/bin) as they are."""
    args: list[str] = []
    for name in names:
        path = "/" + name
        if os.path.islink(path):
            args += ["--symlink", os.readlink(path), path]
        elif os.path.isdir(path):
            args += ["--ro-bind", path, path]
    return args
