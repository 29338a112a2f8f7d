"""Where the board keeps its files, and how: its own directory 0700, its files 0600, whatever
the umask (under systemd the unit's UMask= and StateDirectoryMode= say the same); secrets
written so that nobody else can redirect or swap them (`write_secret`); and the lock that keeps
a state directory to one board process at a time.

    >>> default_state_dir({"STATE_DIRECTORY": "/var/lib/xtraboard"})
    PosixPath('/var/lib/xtraboard')
"""

from __future__ import annotations

import contextlib
import fcntl
import logging
import os
import secrets
import stat
from collections.abc import Iterable, Mapping
from pathlib import Path

from firmware.errors import N_, ConfigError, Text, XtraboardError

PRIVATE_DIR_MODE = 0o700
PRIVATE_FILE_MODE = 0o600
LOCK_NAME = "xtraboard.lock"  # in the state directory: held by the board process using it

log = logging.getLogger("xtraboard.paths")


class StateDirInUse(XtraboardError):
    """Another board process holds the state directory's lock."""


class UnsafePlace(ConfigError):
    """A secret's folder someone else could write, or a secret's path that is a symbolic link:
    nothing is written (the message names the folder or the path, and what to do)."""


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


def write_secret(path: Path, data: bytes, *, mode: int = PRIVATE_FILE_MODE, group: int | None = None) -> None:
    """Replace the file `path` with `data` at once (a power cut leaves the old file or the new
    one), with `mode` and, given `group`, that group; the file is never readable by others
    before it has its mode.

    Written as root into a folder another user could write, a fixed temporary name would let
    that user plant a symbolic link there and have root truncate, fill and chmod the file it
    points to. So: the folder must be writable by its owner only, and owned by this user or
    root (UnsafePlace otherwise, naming it); `path` itself must not be a symbolic link. The
    data goes into a new temporary file of a random name beside it, created exclusively and
    never through a link (O_CREAT | O_EXCL | O_NOFOLLOW, 0600), synced, renamed over `path`;
    then the folder is synced so the rename survives a power cut. Every step works on the
    folder opened once, so the folder cannot be swapped half-way. OSError for the rest (no such
    folder, no permission); nothing is left behind.
    """
    path = Path(path)
    folder = path.parent
    _check_way_to(folder)
    where = os.open(folder, os.O_RDONLY | os.O_DIRECTORY | os.O_CLOEXEC)
    try:
        _check_secret_place(where, folder, path)
        temporary, fd = _private_temporary(where, path.name)
        try:
            try:
                os.fchmod(fd, mode)
                if group is not None:
                    os.fchown(fd, -1, group)
                view = memoryview(data)
                while view:
                    view = view[os.write(fd, view) :]
                os.fsync(fd)
            finally:
                os.close(fd)
            os.replace(temporary, path.name, src_dir_fd=where, dst_dir_fd=where)
        except BaseException:
            with contextlib.suppress(OSError):
                os.unlink(temporary, dir_fd=where)
            raise
        os.fsync(where)
    finally:
        os.close(where)


def _check_way_to(folder: Path) -> None:
    """UnsafePlace unless every folder and symbolic link on the way to `folder` (as written and
    as resolved; `folder` too if it is a link) belongs to this user or root, and no folder on it is writable by others without
    the sticky bit (as /tmp has): else another user could swap a part of the way and send the
    secret into a folder of their choosing."""
    written = Path(os.path.abspath(folder))
    for way in (written, Path(os.path.realpath(folder))):
        for part in [*reversed(way.parents), way]:
            try:
                info = os.lstat(part)
            except FileNotFoundError:
                return  # opening the folder will say so
            if part == way and not stat.S_ISLNK(info.st_mode):
                continue  # the folder itself: _check_secret_place says what is wrong with it
            others_write = info.st_mode & (stat.S_IWGRP | stat.S_IWOTH) and not info.st_mode & stat.S_ISVTX
            if info.st_uid not in (0, os.geteuid()) or (stat.S_ISDIR(info.st_mode) and others_write):
                raise UnsafePlace(
                    Text(
                        N_(
                            "{folder} is reached through {part} (uid {uid}, mode {mode}), which another user "
                            "could change to send the file elsewhere; nothing was written. Give a path "
                            "through folders and links of your own or root's"
                        ),
                        folder=str(folder),
                        part=str(part),
                        uid=info.st_uid,
                        mode=f"{stat.S_IMODE(info.st_mode):04o}",
                    )
                )


def _check_secret_place(where: int, folder: Path, path: Path) -> None:
    """UnsafePlace unless the open folder `where` is writable by its owner only, that owner is
    this user or root, and `path` in it is no symbolic link."""
    info = os.fstat(where)
    if info.st_mode & (stat.S_IWGRP | stat.S_IWOTH):
        raise UnsafePlace(
            Text(
                N_(
                    "{folder} can be written by other users (mode {mode}): they could redirect or swap "
                    "the file; nothing was written. Keep it in a folder only its owner can write "
                    "(chmod go-w {folder})"
                ),
                folder=str(folder),
                mode=f"{stat.S_IMODE(info.st_mode):04o}",
            )
        )
    if info.st_uid not in (0, os.geteuid()):
        raise UnsafePlace(
            Text(
                N_(
                    "{folder} belongs to another user (uid {uid}), who could redirect or swap the file; "
                    "nothing was written. Keep it in a folder of your own or root's"
                ),
                folder=str(folder),
                uid=info.st_uid,
            )
        )
    try:
        link = stat.S_ISLNK(os.lstat(path.name, dir_fd=where).st_mode)
    except FileNotFoundError:
        return
    if link:
        raise UnsafePlace(
            Text(
                N_("{path} is a symbolic link; nothing was written. Remove it, or give the path of the file itself"),
                path=str(path),
            )
        )


def _private_temporary(where: int, name: str) -> tuple[str, int]:
    """A new file `.NAME.<random>.new` in the open folder `where`, 0600, made by this call (never
    one already there, never through a link): its name and descriptor."""
    flags = os.O_WRONLY | os.O_CREAT | os.O_EXCL | os.O_NOFOLLOW | os.O_CLOEXEC
    for _ in range(100):
        temporary = f".{name}.{secrets.token_hex(8)}.new"
        try:
            return temporary, os.open(temporary, flags, PRIVATE_FILE_MODE, dir_fd=where)
        except FileExistsError:
            continue  # someone else's name (or a planted link): another name
    raise FileExistsError(f"no free temporary name beside {name}")


class StateLock:
    """An exclusive lock (flock) on `state_dir/xtraboard.lock`, held by the one board process
    that plays on that state directory, from its start until `release()` or its end (the
    system drops a dead process's lock: nothing stale is left to clean up).

    Two boards on one journal would each take the other's unfinished game for their own and
    write steps in between; the second one refuses to start instead (StateDirInUse, naming the
    holder's process id). Commands that only read (`records`) or add a name (`players`) take no
    lock: SQLite keeps their few writes apart. Where the lock file cannot be made (read-only or
    missing storage) there is nothing to share: the board plays on in memory, unlocked.
    """

    def __init__(self, state_dir: Path) -> None:
        self.path = Path(state_dir) / LOCK_NAME
        self._fd: int | None = None
        try:
            private_dir(Path(state_dir))
            fd = os.open(self.path, os.O_RDWR | os.O_CREAT | os.O_CLOEXEC, PRIVATE_FILE_MODE)
        except OSError as exc:
            log.info(
                "state directory %s: no lock (%s); its storage cannot be shared either", state_dir, exc.strerror or exc
            )
            return
        try:
            fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except BlockingIOError:
            holder = _read_pid(fd)
            os.close(fd)
            raise StateDirInUse(
                Text(
                    N_(
                        "the state directory {folder} is in use by another board process{holder}; "
                        "stop it first, or give this one another --state-dir"
                    ),
                    folder=str(state_dir),
                    holder=f" (pid {holder})" if holder else "",
                )
            ) from None
        except OSError as exc:  # a file system without locks: play on, unlocked
            log.warning("state directory %s: cannot lock %s (%s)", state_dir, self.path, exc.strerror or exc)
            os.close(fd)
            return
        try:
            os.ftruncate(fd, 0)
            os.write(fd, f"{os.getpid()}\n".encode("ascii"))
        except OSError:
            pass  # the pid is only for the message of a second process
        self._fd = fd

    @property
    def held(self) -> bool:
        return self._fd is not None

    def release(self) -> None:
        """Let the state directory go (safe to call twice)."""
        if self._fd is not None:
            os.close(self._fd)  # closing the last descriptor drops the flock
            self._fd = None


def _read_pid(fd: int) -> int | None:
    try:
        text = os.pread(fd, 32, 0).decode("ascii").strip()
        return int(text) if text.isdigit() else None
    except (OSError, UnicodeDecodeError):
        return None
