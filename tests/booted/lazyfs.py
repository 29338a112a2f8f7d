"""A lazy file system for power cuts: what was not synced is lost, as on a disk whose power went.

A SIGKILL keeps the kernel's page cache, so a killed program loses nothing it wrote; a power
cut loses every write the disk had not been told to keep. `LazyFS` mounts (FUSE, through
mfusepy on libfuse 3) a view of a *backing* directory that always holds exactly what a disk
would after a power cut at that moment:

- Everything a program sees — the *live* tree — is a copy of the backing directory in memory (a
  folder on tmpfs), made at mount; reads, writes, truncates, creates, renames and unlinks go to it
  at once, as into a page cache.
- `fsync`/`fdatasync` of a file writes the byte ranges written or truncated since its last sync,
  and its size, into the file's copy on the disk (its *body*).
- A name becomes durable when its directory is fsync'd, as POSIX promises and SQLite relies on
  (it syncs the directory after creating a journal or WAL): the directory's entries on the disk
  are then made those of the live directory — new names get the file's body (a file never synced
  gets an empty one: its data is not on the disk yet), gone names are removed, a renamed file's
  body moves to its new name. A rename across directories is made durable, on both sides, by a
  sync of either. A file synced before its name is kept in a folder of nameless bodies beside the
  backing directory (`BACKING.orphans`) until its directory is synced; at a cut those are
  unreachable, and are removed, as fsck frees orphaned inodes.
- Mode, owner and times are written through to the body at once (where it has one).
- Hard links are refused (EPERM); the firmware and SQLite make none.

The cut: SIGKILL the daemon (`LazyFS.cut()`). Its memory — the live tree and which ranges were
dirty — is gone with it; the backing directory is the disk after the power cut. `arm(n)` freezes
the file system at the n-th sync from then on, before doing it, so a cut can land inside a
commit. A clean unmount (`LazyFS.unmount()`) keeps only what was synced too: nothing here
flushes at unmount.

Locks (POSIX record locks, which SQLite takes, and flock) are left to the kernel: the file system
implements neither, so libfuse asks the kernel to keep them locally — right for processes of one
machine, container included. Shared writable mmap (SQLite's -shm in WAL mode) works, as the
mount has no direct_io: the kernel writes the mapped pages back through `write`.

    python -m tests.booted.lazyfs serve BACKING MOUNTPOINT    # serve until killed or unmounted
    python -m tests.booted.lazyfs bench                        # its throughput beside a plain folder's
"""

from __future__ import annotations

import argparse
import contextlib
import errno
import itertools
import os
import shutil
import signal
import stat
import subprocess
import sys
import tempfile
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

MOUNT_TIMEOUT_S = 20.0
ORPHANS_SUFFIX = ".orphans"
TRIP_SUFFIX, TRIPPED_SUFFIX = ".trip", ".tripped"  # a cut on demand in a sync (LazyFS.arm)
UTIME_NOW, UTIME_OMIT = (1 << 30) - 1, (1 << 30) - 2  # <sys/stat.h>


def fuse_usable() -> str | None:
    """Why this machine cannot mount a LazyFS (one line), or None when it can."""
    if os.geteuid() != 0:
        return "lazy FS tests need root (FUSE mounts with allow_other)"
    if not os.path.exists("/dev/fuse"):
        return "lazy FS tests need /dev/fuse"
    if shutil.which("fusermount3") is None:
        return "lazy FS tests need fusermount3 (the Debian package fuse3)"
    try:
        import mfusepy  # noqa: F401
    except (ImportError, OSError) as exc:  # OSError: libfuse3 not installed
        return f"lazy FS tests need mfusepy and libfuse3: {exc}"
    return None


# --- the daemon ----------------------------------------------------------------------------------
@dataclass
class Node:
    """One file, directory or symlink of the live tree (by its live inode number)."""

    path: str | None  # its name in the live tree (relative, "" for the root); None once unlinked
    body: str | None  # its copy on the disk, relative to the backing directory's parent; None: none yet
    dirty: list[tuple[int, int]] = field(default_factory=list)  # byte ranges changed since its last sync


def merged(ranges: list[tuple[int, int]]) -> list[tuple[int, int]]:
    """Byte ranges sorted, touching ones joined: [(0, 4), (2, 8), (10, 12)] -> [(0, 8), (10, 12)]."""
    out: list[tuple[int, int]] = []
    for start, end in sorted(ranges):
        if out and start <= out[-1][1]:
            out[-1] = (out[-1][0], max(out[-1][1], end))
        else:
            out.append((start, end))
    return out


class Lazy:
    """The FUSE operations (mfusepy's path-based API) over the live tree, with the disk's bookkeeping.

    Served single-threaded: every operation is a short local call (locks are the kernel's), so no
    operation waits on another and the bookkeeping needs no lock of its own."""

    use_ns = True

    def __init__(self, backing: Path, live: Path) -> None:
        self.backing, self.live = backing, live
        self.disk = backing.parent  # bodies are named relative to it: the backing dir and its orphans
        self.orphans = backing.with_name(backing.name + ORPHANS_SUFFIX)
        self.trip = backing.with_name(backing.name + TRIP_SUFFIX)
        self.tripped = backing.with_name(backing.name + TRIPPED_SUFFIX)
        self.nodes: dict[int, Node] = {}
        self.owners: dict[str, int] = {}  # body -> live inode
        self.handles: dict[int, int] = {}  # open file handle (a live fd) -> live inode
        self._serial = itertools.count()
        self._load()

    # -- the live copy ---------------------------------------------------------------------------
    def _load(self) -> None:
        """Forget nameless bodies (a cut left them unreachable) and copy the disk into the live tree."""
        shutil.rmtree(self.orphans, ignore_errors=True)
        self.orphans.mkdir()
        self._copy_in("")

    def _copy_in(self, rel: str) -> None:
        source, target = self._on_disk(self._body_of_path(rel)), self._live(rel)
        st = os.lstat(source)
        if rel:
            if stat.S_ISDIR(st.st_mode):
                os.mkdir(target)
            elif stat.S_ISLNK(st.st_mode):
                os.symlink(os.readlink(source), target)
            elif stat.S_ISREG(st.st_mode):
                shutil.copyfile(source, target)
            else:
                return  # devices, fifos, sockets: not kept on a state directory
        os.lchown(target, st.st_uid, st.st_gid)
        if not stat.S_ISLNK(st.st_mode):
            os.chmod(target, stat.S_IMODE(st.st_mode))
        os.utime(target, ns=(st.st_atime_ns, st.st_mtime_ns), follow_symlinks=False)
        self._adopt(os.lstat(target).st_ino, Node(path=rel, body=self._body_of_path(rel)))
        if stat.S_ISDIR(st.st_mode):
            for name in sorted(os.listdir(source)):
                self._copy_in(os.path.join(rel, name))

    def _body_of_path(self, rel: str) -> str:
        return os.path.join(self.backing.name, rel) if rel else self.backing.name

    def _adopt(self, ino: int, node: Node) -> None:
        old = self.nodes.get(ino)
        if old is not None and old.body is not None and self.owners.get(old.body) == ino:
            del self.owners[old.body]  # a reused inode number: the old file's body has no owner now
        self.nodes[ino] = node
        if node.body is not None:
            self.owners[node.body] = ino

    def _live(self, path: str | None) -> str:
        return os.path.join(self.live, (path or "").lstrip("/"))

    def _on_disk(self, body: str) -> str:
        return os.path.join(self.disk, body)

    def _node_at(self, path: str) -> tuple[int, Node]:
        ino = os.lstat(self._live(path)).st_ino
        node = self.nodes.get(ino)
        if node is None:  # only if something changed the live tree behind our back
            raise OSError(errno.EIO, f"lazyfs: no record of {path}")
        return ino, node

    # -- reading -------------------------------------------------------------------------------------
    def getattr(self, path: str | None, fh: int | None = None) -> dict[str, Any]:
        st = os.fstat(fh) if fh is not None else os.lstat(self._live(path))
        keys = ("st_mode", "st_nlink", "st_uid", "st_gid", "st_size", "st_blocks", "st_ino")
        attrs: dict[str, Any] = {key: getattr(st, key) for key in keys}  # Any: ints, as mfusepy wants
        attrs.update(st_atime=st.st_atime_ns, st_mtime=st.st_mtime_ns, st_ctime=st.st_ctime_ns)
        return attrs

    def readdir(self, path: str, fh: int) -> list[str]:
        return [".", "..", *os.listdir(self._live(path))]

    def readlink(self, path: str) -> str:
        return os.readlink(self._live(path))

    def statfs(self, path: str) -> dict[str, int]:
        sv = os.statvfs(self._live(path))
        keys = ("f_bsize", "f_frsize", "f_blocks", "f_bfree", "f_bavail", "f_files", "f_ffree", "f_namemax")
        return {key: getattr(sv, key) for key in keys}

    def access(self, path: str, amode: int) -> int:
        return 0  # default_permissions: the kernel checks

    def opendir(self, path: str) -> int:
        return 0

    def releasedir(self, path: str, fh: int) -> int:
        return 0

    # -- files ---------------------------------------------------------------------------------------
    def open(self, path: str, flags: int) -> int:
        if flags & os.O_TRUNC:
            self._truncated(self._node_at(path)[1], os.lstat(self._live(path)).st_size, 0)
        return self._handle(os.open(self._live(path), _live_flags(flags)))

    def create(self, path: str, mode: int, flags: int) -> int:
        fd = os.open(self._live(path), _live_flags(flags) | os.O_CREAT | os.O_EXCL, mode)
        self._owned_by_caller(path)
        self._adopt(os.fstat(fd).st_ino, Node(path=path.lstrip("/"), body=None))
        return self._handle(fd)

    def _handle(self, fd: int) -> int:
        self.handles[fd] = os.fstat(fd).st_ino
        return fd

    def read(self, path: str | None, size: int, offset: int, fh: int) -> bytes:
        return os.pread(fh, size, offset)

    def write(self, path: str | None, data: bytes, offset: int, fh: int) -> int:
        written = os.pwrite(fh, data, offset)
        node = self.nodes[self.handles[fh]]
        node.dirty.append((offset, offset + written))
        if len(node.dirty) > 256:
            node.dirty = merged(node.dirty)
        return written

    def truncate(self, path: str | None, length: int, fh: int | None = None) -> int:
        if fh is not None:
            node, size = self.nodes[self.handles[fh]], os.fstat(fh).st_size
            os.ftruncate(fh, length)
        else:
            node, size = self._node_at(path or "/")[1], os.lstat(self._live(path)).st_size
            os.truncate(self._live(path), length)
        self._truncated(node, size, length)
        return 0

    def _truncated(self, node: Node, before: int, after: int) -> None:
        # Both ways: cut off, the tail must go from the body; grown, it reads as zeros.
        if before != after:
            node.dirty.append((min(before, after), max(before, after)))

    def flush(self, path: str | None, fh: int) -> int:
        return 0  # close() is no sync

    def release(self, path: str | None, fh: int) -> int:
        self.handles.pop(fh, None)
        os.close(fh)
        return 0

    def _maybe_trip(self) -> None:
        """Armed (`LazyFS.arm(n)` wrote n into BACKING.trip), the n-th sync from then on is never
        done: the daemon says so (BACKING.tripped) and freezes, so that sync and every request
        after it wait — the program is stopped inside its commit — until the cut kills it."""
        try:
            left = int(self.trip.read_text(encoding="ascii"))
        except (OSError, ValueError):
            return
        if left > 1:
            self.trip.write_text(str(left - 1), encoding="ascii")
            return
        self.trip.unlink()
        self.tripped.write_text(str(os.getpid()), encoding="ascii")
        while True:
            signal.pause()

    def fsync(self, path: str | None, datasync: int, fh: int) -> int:
        self._maybe_trip()
        ino = self.handles[fh]
        node = self.nodes[ino]
        if node.path is None and node.body is None:  # unlinked and never on the disk: nothing to keep
            node.dirty = []
            return 0
        if node.body is None:
            self._new_body(ino, node, os.fstat(fh))
        assert node.body is not None
        body = os.open(self._on_disk(node.body), os.O_WRONLY)
        try:
            for start, end in merged(node.dirty):
                data = os.pread(fh, end - start, start)
                if data:
                    os.pwrite(body, data, start)
            os.ftruncate(body, os.fstat(fh).st_size)
        finally:
            os.close(body)
        node.dirty = []
        return 0

    # -- names ---------------------------------------------------------------------------------------
    def mkdir(self, path: str, mode: int) -> int:
        os.mkdir(self._live(path), mode)
        self._owned_by_caller(path)
        self._adopt(os.lstat(self._live(path)).st_ino, Node(path=path.lstrip("/"), body=None))
        return 0

    def symlink(self, target: str, source: str) -> int:
        # mfusepy's names: `target` is the new link's path, `source` what it points to.
        os.symlink(source, self._live(target))
        self._owned_by_caller(target)
        self._adopt(os.lstat(self._live(target)).st_ino, Node(path=target.lstrip("/"), body=None))
        return 0

    def link(self, target: str, source: str) -> int:
        raise OSError(errno.EPERM, "lazyfs keeps no hard links")

    def unlink(self, path: str) -> int:
        ino, node = self._node_at(path)
        os.unlink(self._live(path))
        node.path = None
        return 0

    def rmdir(self, path: str) -> int:
        ino, node = self._node_at(path)
        os.rmdir(self._live(path))
        node.path = None
        return 0

    def rename(self, old: str, new: str) -> int:
        ino, node = self._node_at(old)
        with contextlib.suppress(FileNotFoundError):
            replaced = self._node_at(new)[1]
            if replaced is not node:
                replaced.path = None
        os.rename(self._live(old), self._live(new))
        old_rel, new_rel = old.lstrip("/"), new.lstrip("/")
        for other in self.nodes.values():  # the node itself and, for a folder, everything in it
            if other.path is not None and (other.path == old_rel or other.path.startswith(old_rel + "/")):
                other.path = new_rel + other.path[len(old_rel) :]
        return 0

    def fsyncdir(self, path: str | None, datasync: int, fh: int) -> int:
        self._maybe_trip()
        ino, folder = self._node_at(path or "/")
        if folder.body is None:
            self._new_body(ino, folder, os.lstat(self._live(folder.path)))
        assert folder.body is not None and folder.path is not None
        live_dir, disk_dir = self._live(folder.path), self._on_disk(folder.body)
        entries = {name: os.lstat(os.path.join(live_dir, name)) for name in os.listdir(live_dir)}
        for name in os.listdir(disk_dir):  # names the disk has that the live folder no longer has
            body = os.path.join(folder.body, name)
            owner = self.owners.get(body)
            if name in entries and owner == entries[name].st_ino:
                continue
            if owner is not None and self.nodes[owner].path is not None:  # lives on under another name
                self._move_body(owner, self._orphan_name())
            else:
                self._remove_body(body)
        for name, st in entries.items():  # names the live folder has that the disk has not
            body = os.path.join(folder.body, name)
            node = self.nodes[st.st_ino]
            if node.body == body:
                continue
            if node.body is not None:
                self._move_body(st.st_ino, body)
            else:
                self._make_body(st.st_ino, node, body, st)
        return 0

    # -- bodies on the disk -----------------------------------------------------------------------
    def _orphan_name(self) -> str:
        return os.path.join(self.orphans.name, f"{os.getpid()}-{next(self._serial)}")

    def _new_body(self, ino: int, node: Node, st: os.stat_result) -> None:
        """A body for a synced file or folder whose name is not on the disk yet: nameless, for now."""
        self._make_body(ino, node, self._orphan_name(), st)

    def _make_body(self, ino: int, node: Node, body: str, st: os.stat_result) -> None:
        where = self._on_disk(body)
        if stat.S_ISDIR(st.st_mode):
            os.mkdir(where)
        elif stat.S_ISLNK(st.st_mode):
            assert node.path is not None
            os.symlink(os.readlink(self._live(node.path)), where)
        else:
            os.close(os.open(where, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600))
        self._write_attrs(where, st)
        node.body = body
        self.owners[body] = ino

    def _move_body(self, ino: int, body: str) -> None:
        node = self.nodes[ino]
        assert node.body is not None
        os.replace(self._on_disk(node.body), self._on_disk(body))
        self._forget_below(node.body, body)
        node.body = body
        self.owners[body] = ino

    def _remove_body(self, body: str) -> None:
        where = self._on_disk(body)
        if os.path.isdir(where) and not os.path.islink(where):
            shutil.rmtree(where)
        else:
            os.unlink(where)
        self._forget_below(body, None)

    def _forget_below(self, body: str, moved_to: str | None) -> None:
        """`body` and what is below it on the disk moved (or went): rename their records."""
        for name in [name for name in self.owners if name == body or name.startswith(body + "/")]:
            ino = self.owners.pop(name)
            node = self.nodes[ino]
            if moved_to is None:
                node.body = None
            else:
                node.body = moved_to + name[len(body) :]
                self.owners[node.body] = ino

    def _write_attrs(self, where: str, st: os.stat_result) -> None:
        os.lchown(where, st.st_uid, st.st_gid)
        if not stat.S_ISLNK(st.st_mode):
            os.chmod(where, stat.S_IMODE(st.st_mode))

    # -- attributes: written through ---------------------------------------------------------------
    # An unlinked file's (path None) attributes reach no disk: nothing to do.
    def chmod(self, path: str | None, mode: int) -> int:
        if path is None:
            return 0
        os.chmod(self._live(path), mode)
        self._through(path)
        return 0

    def chown(self, path: str | None, uid: int, gid: int) -> int:
        if path is None:
            return 0
        os.lchown(self._live(path), uid, gid)
        self._through(path)
        return 0

    def utimens(self, path: str | None, times: tuple[int, int] | None = None) -> int:
        if path is None:
            return 0
        if times is None:
            os.utime(self._live(path), follow_symlinks=False)
            return 0
        # libfuse hands "now" and "leave as is" on as tv_nsec UTIME_NOW/UTIME_OMIT (tv_sec 0),
        # which mfusepy folds into one number of nanoseconds.
        st = os.lstat(self._live(path))
        now = time.time_ns()
        atime, mtime = (
            now if value == UTIME_NOW else current if value == UTIME_OMIT else value
            for value, current in zip(times, (st.st_atime_ns, st.st_mtime_ns), strict=True)
        )
        os.utime(self._live(path), ns=(atime, mtime), follow_symlinks=False)
        return 0

    def _through(self, path: str | None) -> None:
        node = self._node_at(path or "/")[1]
        if node.body is not None:
            self._write_attrs(self._on_disk(node.body), os.lstat(self._live(path)))

    def _owned_by_caller(self, path: str) -> None:
        from mfusepy import fuse_get_context

        uid, gid, _pid = fuse_get_context()
        os.lchown(self._live(path), uid, gid)


def _live_flags(flags: int) -> int:
    """The flags of the daemon's own descriptor: readable (a sync reads the dirty ranges back), never
    appending (writes come with the offset the kernel chose), never truncating (done before)."""
    if flags & os.O_ACCMODE == os.O_WRONLY:
        flags = flags & ~os.O_ACCMODE | os.O_RDWR
    return flags & ~(os.O_APPEND | os.O_TRUNC | os.O_CREAT | os.O_EXCL)


def serve(backing: Path, mountpoint: Path, live: Path) -> None:
    """Mount and serve in the foreground until unmounted (or killed: the power cut)."""
    from mfusepy import FUSE

    operations = Lazy(backing, live)
    FUSE(
        operations,
        str(mountpoint),
        foreground=True,
        nothreads=True,
        allow_other=True,  # the service's own user, and the container's processes
        default_permissions=True,  # the kernel checks modes, as on a disk
        hard_remove=True,  # unlink at once (no .fuse_hidden files): open files go on by handle
        fsname=f"lazyfs:{backing}",
        subtype="lazyfs",
    )


# --- the controller ----------------------------------------------------------------------------
class LazyFS:
    """A lazy mount of `backing` on `mountpoint`, served by a daemon of its own (a subprocess).

    `cut()` is the power cut; `mount()` mounts again (a fresh live copy of what the cut kept)."""

    def __init__(self, backing: Path, mountpoint: Path) -> None:
        self.backing, self.mountpoint = Path(backing), Path(mountpoint)
        self.orphans = self.backing.with_name(self.backing.name + ORPHANS_SUFFIX)
        self.trip = self.backing.with_name(self.backing.name + TRIP_SUFFIX)
        self.tripped_file = self.backing.with_name(self.backing.name + TRIPPED_SUFFIX)
        self.process: subprocess.Popen[bytes] | None = None
        self.live: Path | None = None
        self.cuts = 0

    def mount(self) -> LazyFS:
        if self.process is not None:
            raise RuntimeError(f"{self.mountpoint} is mounted already")
        self.backing.mkdir(parents=True, exist_ok=True)
        self.mountpoint.mkdir(parents=True, exist_ok=True)
        shm = "/dev/shm" if os.path.isdir("/dev/shm") else None
        self.live = Path(tempfile.mkdtemp(prefix="lazyfs-live-", dir=shm))
        self.trip.unlink(missing_ok=True)
        self.tripped_file.unlink(missing_ok=True)
        root = Path(__file__).resolve().parents[2]
        env = {**os.environ, "PYTHONPATH": f"{root}{os.pathsep}{os.environ.get('PYTHONPATH', '')}"}
        command = [sys.executable, "-m", "tests.booted.lazyfs", "serve", str(self.backing), str(self.mountpoint)]
        self.process = subprocess.Popen([*command, "--live", str(self.live)], env=env, start_new_session=True)
        deadline = time.monotonic() + MOUNT_TIMEOUT_S
        while not os.path.ismount(self.mountpoint):
            status = self.process.poll()
            if status is not None:
                self.process = None
                self._clean_up()
                raise RuntimeError(f"lazyfs on {self.mountpoint} exited at start (status {status})")
            if time.monotonic() > deadline:
                self.cut()
                raise RuntimeError(f"lazyfs did not mount {self.mountpoint} within {MOUNT_TIMEOUT_S} s")
            time.sleep(0.01)
        return self

    def cut(self) -> list[str]:
        """The power cut: the daemon dies with every unsynced write; the backing directory is the
        disk. Returns what the cut lost: the paths whose live state the disk does not hold."""
        lost: list[str] = []
        if self.process is not None:
            self.process.send_signal(signal.SIGKILL)
            self.process.wait()
            self.process = None
            self.cuts += 1
            if self.live is not None:
                lost = unsynced(self.live, self.backing)
        self._clean_up()
        return lost

    def arm(self, syncs: int = 1) -> None:
        """Freeze the file system at the `syncs`-th fsync from now, before it is done (`tripped`
        then says so): the moment to `cut()` a program in the middle of its commit."""
        if syncs < 1:
            raise ValueError(f"syncs must be at least 1, not {syncs}")
        self.trip.write_text(str(syncs), encoding="ascii")

    def disarm(self) -> None:
        self.trip.unlink(missing_ok=True)

    @property
    def tripped(self) -> bool:
        """An armed sync came: the file system is frozen inside it."""
        return self.tripped_file.exists()

    def unmount(self) -> None:
        """A clean unmount, which keeps what was synced and nothing else (there is no write-back)."""
        if self.process is not None:
            subprocess.run(["fusermount3", "-u", str(self.mountpoint)], check=False, capture_output=True)
            try:
                self.process.wait(timeout=MOUNT_TIMEOUT_S)
            except subprocess.TimeoutExpired:
                self.process.kill()
                self.process.wait()
            self.process = None
        self._clean_up()

    def _clean_up(self) -> None:
        # A dead daemon leaves its mount behind (ENOTCONN): detach it.
        if os.path.ismount(self.mountpoint) or _dead_mount(self.mountpoint):
            subprocess.run(["fusermount3", "-u", "-z", str(self.mountpoint)], check=False, capture_output=True)
        if self.live is not None:
            shutil.rmtree(self.live, ignore_errors=True)
            self.live = None
        shutil.rmtree(self.orphans, ignore_errors=True)
        self.trip.unlink(missing_ok=True)
        self.tripped_file.unlink(missing_ok=True)

    def __enter__(self) -> LazyFS:
        return self.mount() if self.process is None else self

    def __exit__(self, *exc: object) -> None:
        self.cut()


def unsynced(live: Path, disk: Path) -> list[str]:
    """The paths (relative) where `live` and `disk` differ: a file's type or content, or a name
    only one of them has. Modes and times are left out (they are written through)."""

    def entries(top: Path) -> dict[str, tuple[str, bytes]]:
        found: dict[str, tuple[str, bytes]] = {}
        for folder, dirs, files in os.walk(top):
            for name in dirs + files:
                path = Path(folder) / name
                rel = str(path.relative_to(top))
                if path.is_symlink():
                    found[rel] = ("link", os.readlink(path).encode())
                elif path.is_dir():
                    found[rel] = ("dir", b"")
                elif path.is_file():
                    found[rel] = ("file", path.read_bytes())
        return found

    here, there = entries(live), entries(disk)
    return sorted(rel for rel in here.keys() | there.keys() if here.get(rel) != there.get(rel))


def _dead_mount(path: Path) -> bool:
    try:
        os.stat(path)
    except OSError as exc:
        return exc.errno == errno.ENOTCONN
    return False


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m tests.booted.lazyfs", description=__doc__.split("\n")[0])
    commands = parser.add_subparsers(dest="command", required=True)
    serving = commands.add_parser("serve", help="mount and serve in the foreground (what LazyFS runs)")
    serving.add_argument("backing", type=Path, help="the disk: a directory that holds only what was synced")
    serving.add_argument("mountpoint", type=Path)
    serving.add_argument("--live", type=Path, help="an empty folder for the live tree (default: a new one on tmpfs)")
    measuring = commands.add_parser("bench", help="print the file system's throughput beside a plain folder's")
    measuring.add_argument("--mb", type=int, default=64, help="MiB written and read (default 64)")
    measuring.add_argument("--commits", type=int, default=2000, help="SQLite commits (default 2000)")
    args = parser.parse_args(argv)
    if args.command == "bench":
        from tests.booted.lazyfs_bench import run_bench

        return run_bench(args.mb, args.commits)
    live = args.live or Path(tempfile.mkdtemp(prefix="lazyfs-live-", dir="/dev/shm"))
    signal.signal(signal.SIGTERM, lambda *_: os._exit(0))  # a cut too: nothing is flushed
    serve(args.backing.resolve(), args.mountpoint, live)
    return 0


if __name__ == "__main__":
    sys.exit(main())
