"""Where the board keeps its files, and how: its own directory 0700, its files 0600, whatever
the umask (under systemd the unit's UMask= and StateDirectoryMode= say the same).

    >>> default_state_dir({"STATE_DIRECTORY": "/var/lib/xtraboard"})
    PosixPath('/var/lib/xtraboard')
"""

from __future__ import annotations

import os
import stat
from collections.abc import Iterable, Mapping
from pathlib import Path

PRIVATE_DIR_MODE = 0o700
PRIVATE_FILE_MODE = 0o600


def default_state_dir(environ: Mapping[str, str] | None = None) -> Path:
    """$STATE_DIRECTORY (systemd's StateDirectory=), else $XDG_STATE_HOME/xtraboard,
    else ~/.local/state/xtraboard."""
    env = os.environ if environ is None else environ
    state = env.get("STATE_DIRECTORY", "")
    if state:
        # systemd lists several directories separated by ':' when the unit names several.
        return Path(state.split(":")[0])
    xdg = env.get("XDG_STATE_HOME", "")
    if xdg and Path(xdg).is_absolute():  # the XDG spec says to ignore relative paths
        return Path(xdg) / "xtraboard"
    home = env.get("HOME") or str(Path.home())
    return Path(home) / ".local" / "state" / "xtraboard"


def private_dir(path: Path) -> Path:
    """Create the directory `path` (with any missing parents) as 0700 whatever the umask.

    A directory that is already there keeps its mode: it may be the operator's choice (a
    `--state-dir`, systemd's StateDirectory=). Something else in its place is an error, as for
    Path.mkdir(exist_ok=True).
    """
    try:
        path.mkdir(mode=PRIVATE_DIR_MODE)
    except FileNotFoundError:
        path.parent.mkdir(parents=True, exist_ok=True)
        return private_dir(path)
    except FileExistsError:
        if not path.is_dir():
            raise
        return path
    os.chmod(path, PRIVATE_DIR_MODE)  # mkdir's mode passes through the umask; this does not
    return path


def private_file(path: Path, sidecars: Iterable[str] = ()) -> None:
    """Create `path` if missing and make it 0600 whatever the umask; so are the files named
    `path` + a suffix in `sidecars` that are already there (SQLite's -wal and -shm left by a
    crash: SQLite gives new ones the main file's mode).

    Best effort: whatever cannot be created or changed is left for the code that opens it to
    report, as it would without this call.
    """
    for name, create in [(path, True), *((Path(f"{path}{suffix}"), False) for suffix in sidecars)]:
        try:
            fd = os.open(name, os.O_RDONLY | (os.O_CREAT if create else 0), PRIVATE_FILE_MODE)
        except OSError:
            continue
        try:
            if stat.S_ISREG(os.fstat(fd).st_mode):
                os.fchmod(fd, PRIVATE_FILE_MODE)
        except OSError:
            pass  # a read-only file system, someone else's file: opening it will say so
        finally:
            os.close(fd)
