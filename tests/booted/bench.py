"""The booted-system bench: a Debian bookworm root booted under systemd-nspawn, offline, with a
stood-in Pi, on which `systemd/install.sh` and `xtraboard.service` run as at a café.

    ./dev bench prepare [--arch amd64|arm64|all]   build and cache roots and wheelhouses (network)
    ./dev bench test [PYTEST ARGS]                 the booted tier (offline)
    ./dev bench shell [--arch A]                   boot a fresh copy, give a root shell in it

What is cached (under $XTRABOARD_BENCH_CACHE, default /var/cache/xtraboard-bench), each under a
key hashed from what it is built from, so that a change rebuilds it:
- `Root.prepared(arch)`: debootstrap's minbase with systemd and every apt package the installer
  names (APT_PACKAGES in systemd/install.sh), so that the install needs no network;
- `wheelhouse(arch, lock)`: every file of requirements/pi.lock for that arch, downloaded inside
  that arch's root with the lock's hashes checked, plus what its sdists need to build, proven by
  an offline install into a scratch venv before the entry counts as built.

Each build holds an flock and builds in a temporary folder renamed at the end, so two processes
never build the same entry and a half-built one never counts. Tests boot a throw-away copy
(`RootCopy`: overlayfs, else a reflink copy) of the pristine root, never the cached one.
"""

from __future__ import annotations

import argparse
import contextlib
import fcntl
import hashlib
import os
import re
import shlex
import shutil
import signal
import subprocess
import sys
import tempfile
import time
from collections.abc import Iterator, Sequence
from dataclasses import dataclass, field
from pathlib import Path

REPO = Path(__file__).resolve().parents[2]
INSTALL_SH = REPO / "systemd" / "install.sh"
PI_LOCK = REPO / "requirements" / "pi.lock"
SUITE = "bookworm"
MIRROR = "http://deb.debian.org/debian"
ARCHES = ("amd64", "arm64")
# What the root needs to boot and to make venvs, besides the installer's own packages.
BASE_PACKAGES = ("systemd", "systemd-sysv", "dbus", "python3", "python3-venv", "ca-certificates")
# install.sh's OPTIONAL_PACKAGES that Debian bookworm has (liblgpio-dev it has not): installed as
# on a board that once had the internet, so that installers that always `apt-get install` them
# (858ce89's, the update test's) find them there offline.
OPTIONAL_IN_DEBIAN = ("swig",)
ROOT_FORMAT = 1  # bump when the way a root is built changes (a new key: rebuilt)
WHEELHOUSE_FORMAT = 1
# Inside the booted root: where the bench puts the checkout, the wheelhouse and the stood-in Pi.
GUEST_SOURCE = "/root/xtraboard"
GUEST_WHEELHOUSE = "/root/wheelhouse"
GUEST_STANDIN = "/opt/xtraboard-bench"
DEBUG_SOCKET = "/run/xtraboard/debug.sock"
STANDIN_DROP_IN = "/etc/systemd/system/xtraboard.service.d/zz-bench-standin.conf"
GUEST_PATH = "/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin"
NSPAWN_RUN = Path("/run/systemd/nspawn")
BOOT_TIMEOUT_S = 120.0  # a bound on a hung boot, never a timing assertion


class BenchError(RuntimeError):
    """The bench cannot do what was asked; the message says what and why."""


def cache_dir() -> Path:
    return Path(os.environ.get("XTRABOARD_BENCH_CACHE", "/var/cache/xtraboard-bench"))


def log(message: str) -> None:
    print(f"bench: {message}", file=sys.stderr, flush=True)


def host_arch() -> str:
    return {"x86_64": "amd64", "aarch64": "arm64"}.get(os.uname().machine, os.uname().machine)


def check_arch(arch: str) -> str:
    if arch not in ARCHES:
        raise BenchError(f"--arch {arch!r}: expected one of {', '.join(ARCHES)}")
    return arch


def apt_packages(script: Path = INSTALL_SH) -> tuple[str, ...]:
    """The installer's APT_PACKAGES, read from the script (so the bench never keeps a copy)."""
    match = re.search(r"^APT_PACKAGES=\((.*?)^\)", script.read_text(encoding="utf-8"), re.M | re.S)
    if match is None:
        raise BenchError(f"{script}: no APT_PACKAGES=( ... ) array found")
    words = [word for line in match.group(1).splitlines() for word in line.split("#", 1)[0].split()]
    if not words:
        raise BenchError(f"{script}: APT_PACKAGES is empty")
    return tuple(words)


def key_of(*parts: str) -> str:
    digest = hashlib.sha256()
    for part in parts:
        digest.update(part.encode() + b"\0")
    return digest.hexdigest()[:16]


def run_host(argv: Sequence[str], *, check: bool = True, **kwargs: object) -> subprocess.CompletedProcess[str]:
    return subprocess.run(list(argv), check=check, text=True, **kwargs)  # type: ignore[call-overload, no-any-return]


@contextlib.contextmanager
def flocked(path: Path) -> Iterator[None]:
    path.parent.mkdir(parents=True, exist_ok=True)
    with path.open("a") as handle:
        fcntl.flock(handle, fcntl.LOCK_EX)
        try:
            yield
        finally:
            fcntl.flock(handle, fcntl.LOCK_UN)


def built(kind: str, key: str, build: object) -> Path:
    """The cache entry `kind/key`, built by `build(tmp_dir)` under a lock if it is not there."""
    final = cache_dir() / kind / key
    if (final / ".built").exists():
        return final
    with flocked(cache_dir() / kind / f"{key}.lock"):
        if (final / ".built").exists():  # another process built it while we waited
            return final
        tmp = Path(tempfile.mkdtemp(prefix=f"{key}.tmp-", dir=final.parent))
        try:
            build(tmp)  # type: ignore[operator]
            (tmp / ".built").write_text(time.strftime("%Y-%m-%d %H:%M:%S\n"), encoding="utf-8")
            if final.exists():  # a half-built leftover of an older format: not ours to keep
                shutil.rmtree(final)
            tmp.rename(final)
        except BaseException:
            shutil.rmtree(tmp, ignore_errors=True)
            raise
    return final


# --- roots -----------------------------------------------------------------------------------------
class Root:
    """Pristine, cached Debian roots, one per arch."""

    @staticmethod
    def packages() -> tuple[str, ...]:
        return tuple(dict.fromkeys((*BASE_PACKAGES, *apt_packages(), *OPTIONAL_IN_DEBIAN)))

    @staticmethod
    def key(arch: str) -> str:
        return key_of(str(ROOT_FORMAT), SUITE, check_arch(arch), MIRROR, *Root.packages())

    @staticmethod
    def prepared(arch: str = "amd64") -> Path:
        """The cached pristine root for `arch` (built first if missing): boot only copies of it."""
        packages = Root.packages()

        def build(tmp: Path) -> None:
            target = tmp / "root"
            if arch != host_arch():
                ensure_binfmt(arch)
            log(f"debootstrap {SUITE} {arch} with {len(packages)} packages into {target}")
            started = time.monotonic()
            run_host(
                ["debootstrap", "--variant=minbase", f"--arch={arch}", f"--include={','.join(packages)}"]
                + [SUITE, str(target), MIRROR],
                stdout=subprocess.DEVNULL,
            )
            configure_root(target)
            log(f"root {arch} built in {time.monotonic() - started:.0f} s")

        return built("roots", Root.key(arch), build) / "root"


QEMU_BINFMT = {"arm64": "qemu-aarch64", "amd64": "qemu-x86_64"}


def ensure_binfmt(arch: str) -> None:
    """Another arch's programs run through qemu-user: binfmt_misc mounted (a host without systemd
    does not mount it) and qemu-user-static's entry enabled, with the F flag (the interpreter
    opened once, so it works inside the container's root too)."""
    entry = Path("/proc/sys/fs/binfmt_misc") / QEMU_BINFMT[arch]
    if not entry.exists():
        if run_host(["mountpoint", "-q", str(entry.parent)], check=False).returncode != 0:
            run_host(["mount", "-t", "binfmt_misc", "binfmt_misc", str(entry.parent)])
        if shutil.which("update-binfmts"):
            run_host(["update-binfmts", "--enable", QEMU_BINFMT[arch]], check=False)
    if not entry.exists() or "enabled" not in entry.read_text(encoding="utf-8"):
        raise BenchError(f"a {arch} root needs qemu-user-static and binfmt-support (apt-get install them)")


def configure_root(target: Path) -> None:
    """What a booted bench root needs beyond debootstrap: a name, no login prompt, a journal."""
    (target / "etc/hostname").write_text("xtraboard-bench\n", encoding="utf-8")
    (target / "etc/machine-id").write_text("", encoding="utf-8")  # made at each boot
    # No getty on the console: the bench enters with nsenter, and a getty on a pipe only spins.
    for unit in ("console-getty.service", "getty@.service", "systemd-timesyncd.service"):
        link = target / "etc/systemd/system" / unit
        link.unlink(missing_ok=True)
        link.symlink_to("/dev/null")
    # The apt lists debootstrap fetched stay, so `apt-cache show` answers offline (install.sh asks
    # it about its optional packages); the downloaded .debs do not.
    shutil.rmtree(target / "var/cache/apt/archives", ignore_errors=True)
    (target / "var/cache/apt/archives/partial").mkdir(parents=True, exist_ok=True)


# --- wheelhouses -----------------------------------------------------------------------------------
def host_pip_settings() -> tuple[list[str], dict[str, str]]:
    """The nspawn options and environment that give pip inside a root what the host's pip has:
    its CA bundle, its config files and the local folders they name (read-only)."""
    options: list[str] = []
    env = {key: value for key, value in os.environ.items() if key.startswith("PIP_")}
    for name in ("SSL_CERT_FILE", "REQUESTS_CA_BUNDLE"):
        if name in os.environ:
            env[name] = os.environ[name]
    bundle = Path("/etc/ssl/certs/ca-certificates.crt")
    if bundle.exists():
        options.append(f"--bind-ro={bundle}:/run/host-ca.crt")
        env.update({"PIP_CERT": "/run/host-ca.crt", "SSL_CERT_FILE": "/run/host-ca.crt"})
        env.pop("REQUESTS_CA_BUNDLE", None)
    configs = [Path("/etc/pip.conf"), Path.home() / ".config/pip/pip.conf", Path.home() / ".pip/pip.conf"]
    text = "\n".join(path.read_text(encoding="utf-8") for path in configs if path.exists())
    named = set(re.findall(r"(?:file://)?(/[^\s]+)", text + " " + " ".join(env.values())))
    for path in sorted(named):
        folder = Path(path.rstrip("/"))
        top = Path(*folder.parts[:3]) if len(folder.parts) > 3 else folder
        if top.exists() and not str(top).startswith(("/etc/ssl", "/run")):
            options.append(f"--bind-ro={top}")
    if any(path.exists() for path in configs):
        # pip reads one PIP_CONFIG_FILE; the host's files are merged into it below.
        env["PIP_CONFIG_FILE"] = "/work-bench/pip.conf"
    return options, env


def merged_pip_config() -> str:
    """The host's pip config files merged into one (later files win, as pip reads them)."""
    import configparser
    import io

    merged = configparser.ConfigParser(interpolation=None)
    for path in (Path("/etc/pip.conf"), Path.home() / ".config/pip/pip.conf", Path.home() / ".pip/pip.conf"):
        if path.exists():
            merged.read(path, encoding="utf-8")
    for section in merged.sections():
        for name, value in merged[section].items():
            merged[section][name] = value.replace("/etc/ssl/certs/ca-certificates.crt", "/run/host-ca.crt")
    text = io.StringIO()
    merged.write(text)
    return text.getvalue()


def nspawn_run(root: Path, script: str, *, binds: Sequence[str] = (), env: dict[str, str] | None = None) -> None:
    """Run a shell script in a throw-away copy of `root`, not booted, with the host's network."""
    ensure_nspawn_run()
    with RootCopy.of(root) as copy:
        _nspawn_run(copy.path, script, binds=binds, env=env)


def _nspawn_run(root: Path, script: str, *, binds: Sequence[str], env: dict[str, str] | None) -> None:
    argv = ["systemd-nspawn", "-q", "--register=no", "--keep-unit", "-D", str(root), "--pipe"]
    argv += list(binds)
    for name, value in (env or {}).items():
        argv.append(f"--setenv={name}={value}")
    argv += ["--", "/bin/bash", "-euo", "pipefail", "-c", script]
    run_host(argv, stdin=subprocess.DEVNULL)


def sdist_build_requires(folder: Path) -> list[str]:
    """What the sdists in `folder` name in [build-system] requires (setuptools if nothing)."""
    import tarfile
    import tomllib
    import zipfile

    needed: list[str] = []
    for sdist in sorted(folder.iterdir()):
        text = None
        if sdist.name.endswith(".tar.gz"):
            with tarfile.open(sdist) as archive:
                member = next(
                    (m for m in archive.getmembers() if m.name.count("/") == 1 and m.name.endswith("/pyproject.toml")),
                    None,
                )
                handle = archive.extractfile(member) if member else None
                text = handle.read().decode() if handle else ""
        elif sdist.name.endswith(".zip"):
            with zipfile.ZipFile(sdist) as archive:
                names = [
                    name for name in archive.namelist() if name.count("/") == 1 and name.endswith("/pyproject.toml")
                ]
                text = archive.read(names[0]).decode() if names else ""
        if text is None:
            continue
        requires = tomllib.loads(text).get("build-system", {}).get("requires") if text else None
        needed += requires if requires is not None else ["setuptools>=40.8.0", "wheel"]
    return sorted(set(needed))


def locked_version(lock: Path, name: str) -> str | None:
    match = re.search(rf"^{re.escape(name)}==([^\s;\\]+)", lock.read_text(encoding="utf-8"), re.M)
    return match.group(1) if match else None


def wheelhouse(arch: str = "amd64", lock: Path = PI_LOCK) -> Path:
    """The cached wheelhouse of `lock` for `arch`: what `install.sh --wheelhouse` installs from."""
    root = Root.prepared(arch)
    if arch != host_arch():
        ensure_binfmt(arch)
    key = key_of(str(WHEELHOUSE_FORMAT), Root.key(arch), lock.read_text(encoding="utf-8"))

    def build(tmp: Path) -> None:
        started = time.monotonic()
        work = tmp / "work"
        (work / "out").mkdir(parents=True)
        shutil.copy(lock, work / "requirements.lock")
        options, env = host_pip_settings()
        (work / "pip.conf").write_text(merged_pip_config(), encoding="utf-8")
        env |= {"HOME": "/work-bench/home", "TMPDIR": "/work-bench/tmp", "PIP_NO_CACHE_DIR": "1"}
        (work / "tmp").mkdir()
        binds = [*options, f"--bind={work}:/work-bench"]
        log(f"wheelhouse {arch}: pip download --require-hashes inside the {arch} root")
        nspawn_run(
            root,
            "python3 -m venv /work-bench/venv\n"
            "/work-bench/venv/bin/pip download --quiet --require-hashes -r /work-bench/requirements.lock"
            " -d /work-bench/out\n",
            binds=binds,
            env=env,
        )
        sdists = work / "sdists"
        sdists.mkdir()
        for file in (work / "out").iterdir():
            if file.name.endswith((".tar.gz", ".zip")):
                shutil.copy(file, sdists / file.name)
        requires = sdist_build_requires(sdists)
        if requires:
            # The build backends' own pins where the lock has them (setuptools): the same versions.
            constraints = [f"{name}=={v}" for name in ("setuptools",) if (v := locked_version(lock, name))]
            (work / "constraints.txt").write_text("\n".join(constraints) + "\n", encoding="utf-8")
            log(f"wheelhouse {arch}: the sdists' build requirements: {' '.join(requires)}")
            nspawn_run(
                root,
                "/work-bench/venv/bin/pip download --quiet --only-binary=:all: -c /work-bench/constraints.txt"
                f" -d /work-bench/out {' '.join(shlex.quote(r) for r in requires)}\n",
                binds=binds,
                env=env,
            )
        # The proof: an install from the wheelhouse alone, hashes checked, sdists built offline.
        log(f"wheelhouse {arch}: offline install into a scratch venv (the proof)")
        offline = {key: value for key, value in env.items() if key not in ("PIP_FIND_LINKS", "PIP_CONFIG_FILE")}
        nspawn_run(
            root,
            "python3 -m venv /work-bench/proof\n"
            "/work-bench/proof/bin/pip install --quiet --no-index --find-links /work-bench/out"
            " --require-hashes -r /work-bench/requirements.lock\n",
            binds=[f"--bind={work}:/work-bench", "--private-network"],
            env=offline | {"PIP_CONFIG_FILE": "/dev/null"},
        )
        (work / "out").rename(tmp / "wheels")
        shutil.rmtree(work)
        log(f"wheelhouse {arch} built in {time.monotonic() - started:.0f} s")

    return built("wheelhouses", key, build) / "wheels"


# --- throw-away copies and booted machines -------------------------------------------------------
def ensure_nspawn_run() -> None:
    """systemd-nspawn keeps its state in /run/systemd/nspawn and wants a tmpfs there (a host
    without systemd has /run on the root file system)."""
    with flocked(cache_dir() / "nspawn-run.lock"):
        NSPAWN_RUN.mkdir(parents=True, exist_ok=True)
        if run_host(["mountpoint", "-q", str(NSPAWN_RUN)], check=False).returncode != 0:
            if (
                run_host(["findmnt", "-n", "-o", "FSTYPE", "/run"], check=False, capture_output=True).stdout.strip()
                != "tmpfs"
            ):
                run_host(["mount", "-t", "tmpfs", "-o", "mode=0755", "tmpfs", str(NSPAWN_RUN)])


def overlay_works() -> bool:
    with tempfile.TemporaryDirectory(dir=cache_dir()) as tmp:
        parts = [Path(tmp, part) for part in ("lower", "upper", "work", "merged")]
        for part in parts:
            part.mkdir()
        options = f"lowerdir={parts[0]},upperdir={parts[1]},workdir={parts[2]}"
        if run_host(
            ["mount", "-t", "overlay", "overlay", "-o", options, str(parts[3])], check=False, stderr=subprocess.DEVNULL
        ).returncode:
            return False
        run_host(["umount", str(parts[3])])
        return True


@dataclass
class RootCopy:
    """A throw-away copy of a pristine root (`path`); it outlives boots, so a machine can boot it
    again after a power cut. `remove()` (or leaving the `with`) deletes it."""

    pristine: Path
    folder: Path
    overlay: bool = False

    @property
    def path(self) -> Path:
        return self.folder / ("merged" if self.overlay else "root")

    @classmethod
    def of(cls, pristine: Path, overlay: bool | None = None) -> RootCopy:
        """`overlay=False`: a plain copy even where overlayfs works (an installer that takes any
        overlay root for Raspberry Pi OS's read-only one: 858ce89's)."""
        (cache_dir() / "copies").mkdir(parents=True, exist_ok=True)
        folder = Path(tempfile.mkdtemp(prefix="copy-", dir=cache_dir() / "copies"))
        copy = cls(pristine, folder, overlay_works() if overlay is None else overlay)
        if copy.overlay:
            for part in ("upper", "work", "merged"):
                (folder / part).mkdir()
            options = f"lowerdir={pristine},upperdir={folder / 'upper'},workdir={folder / 'work'}"
            run_host(["mount", "-t", "overlay", "overlay", "-o", options, str(copy.path)])
        else:
            run_host(["cp", "-a", "--reflink=auto", str(pristine), str(copy.path)])
        return copy

    def remove(self) -> None:
        if self.overlay:
            run_host(["umount", "-l", str(self.path)], check=False)
        shutil.rmtree(self.folder, ignore_errors=True)

    def __enter__(self) -> RootCopy:
        return self

    def __exit__(self, *exc: object) -> None:
        self.remove()


# What a copy of the checkout leaves out: venvs, git, caches and build leftovers.
SKIPPED_NAMES = {".venv", "venv", ".git", "__pycache__", "build", ".hypothesis"}


def skip_in_copy(folder: str, names: list[str]) -> set[str]:
    return {n for n in names if n in SKIPPED_NAMES or n.endswith((".egg-info", "_cache"))}


def comm_of(pid: int) -> str:
    try:
        return Path(f"/proc/{pid}/comm").read_text().strip()
    except OSError:
        return ""


def children_of(pid: int) -> list[int]:
    found: list[int] = []
    with contextlib.suppress(OSError):
        for task in Path(f"/proc/{pid}/task").iterdir():
            found += [int(child) for child in (task / "children").read_text().split()]
    return found


@dataclass
class Machine:
    """A booted root: `run` enters it (nsenter into every namespace of its init)."""

    root: Path
    arch: str
    process: subprocess.Popen[bytes]
    console: Path
    init_pid: int = 0
    source: Path = REPO
    boots: int = 1
    extra: dict[str, str] = field(default_factory=dict)
    binds: tuple[str, ...] = ()  # kept for `again`: the same root boots with the same binds

    @classmethod
    @contextlib.contextmanager
    def boot(
        cls, root_copy: Path | RootCopy, binds: Sequence[str] = (), arch: str = "amd64", timeout: float = BOOT_TIMEOUT_S
    ) -> Iterator[Machine]:
        """Boot `root_copy` (a RootCopy or its path; never the cached root) until systemd is up;
        shut it down (or kill it) when the block ends."""
        root = root_copy.path if isinstance(root_copy, RootCopy) else Path(root_copy)
        machine = cls.start(root, binds=binds, arch=arch, timeout=timeout)
        try:
            yield machine
        finally:
            machine.shutdown()

    @classmethod
    def start(
        cls,
        root: Path,
        binds: Sequence[str] = (),
        arch: str = "amd64",
        timeout: float = BOOT_TIMEOUT_S,
        until_running: bool = True,
    ) -> Machine:
        if root.resolve().is_relative_to((cache_dir() / "roots").resolve()):
            raise BenchError(f"{root} is a cached pristine root: boot a RootCopy of it")
        ensure_nspawn_run()
        if arch != host_arch():
            ensure_binfmt(arch)
        console = root.parent / f"console-{int(time.time() * 1000)}.log"
        argv = ["systemd-nspawn", "-q", "-D", str(root), "--boot", "--register=no", "--keep-unit", "--console=pipe"]
        argv += [f"--bind={bind}" if ":" in bind or bind.startswith("/") else bind for bind in binds]
        with console.open("wb") as out:
            process = subprocess.Popen(
                argv, stdin=subprocess.DEVNULL, stdout=out, stderr=subprocess.STDOUT, start_new_session=True
            )
        machine = cls(root=root, arch=arch, process=process, console=console, binds=tuple(binds))
        machine.wait_booted(timeout, until_running)
        return machine

    def again(self, timeout: float = BOOT_TIMEOUT_S, until_running: bool = True) -> Machine:
        """Boot the same root again (after `kill_all` or `shutdown`): a new Machine; with
        `until_running=False` it returns once the container's init is there (a cut during boot)."""
        machine = Machine.start(
            self.root, binds=self.binds, arch=self.arch, timeout=timeout, until_running=until_running
        )
        machine.boots = self.boots + 1
        return machine

    def wait_booted(self, timeout: float, until_running: bool = True) -> None:
        deadline = time.monotonic() + timeout
        while not self.init_pid:
            if self.process.poll() is not None:
                raise BenchError(f"systemd-nspawn exited ({self.process.returncode}): {self.console_text()[-2000:]}")
            # nspawn forks helpers too; the container's init is the child that runs systemd.
            inits = [pid for pid in children_of(self.process.pid) if comm_of(pid) == "systemd"]
            if inits:
                self.init_pid = inits[0]
            elif time.monotonic() > deadline:
                raise BenchError(f"no init in the container within {timeout:.0f} s")
            time.sleep(0.05)
        while until_running:
            state = self.run("systemctl", "is-system-running", check=False, timeout=30).stdout.strip()
            if state in ("running", "degraded"):
                return
            if self.process.poll() is not None or time.monotonic() > deadline:
                raise BenchError(
                    f"the booted root is {state or 'unreachable'} after {timeout:.0f} s:\n{self.console_text()[-3000:]}"
                )
            time.sleep(0.2)

    def console_text(self) -> str:
        return self.console.read_text(encoding="utf-8", errors="replace") if self.console.exists() else ""

    def run(
        self,
        *argv: str,
        check: bool = True,
        timeout: float = 600.0,
        input: str | None = None,
        env: dict[str, str] | None = None,
    ) -> subprocess.CompletedProcess[str]:
        """`argv` inside the machine as root, with a clean environment; output captured."""
        guest_env = {"PATH": GUEST_PATH, "HOME": "/root", "LANG": "C.UTF-8", "TERM": "dumb", **(env or {})}
        command = [
            "nsenter",
            "-t",
            str(self.init_pid),
            "-a",
            "--",
            "env",
            "-i",
            *(f"{k}={v}" for k, v in guest_env.items()),
            *argv,
        ]
        done = subprocess.run(command, text=True, capture_output=True, timeout=timeout, input=input, check=False)
        if check and done.returncode != 0:
            raise BenchError(
                f"in the machine: {shlex.join(argv)} exited {done.returncode}\n{done.stdout[-3000:]}\n{done.stderr[-3000:]}"
            )
        return done

    def path(self, guest_path: str) -> Path:
        """A path inside the running machine as the host reaches it."""
        return Path(f"/proc/{self.init_pid}/root") / guest_path.lstrip("/")

    def put(self, host: Path, guest: str) -> None:
        """Copy a host file or folder into the machine (folders: the checkout's files, no venvs)."""
        target = self.path(guest)
        if host.is_dir():
            shutil.rmtree(target, ignore_errors=True)
            shutil.copytree(host, target, symlinks=True, ignore=skip_in_copy)
        else:
            target.parent.mkdir(parents=True, exist_ok=True)
            shutil.copy(host, target)

    def write(self, guest: str, text: str, mode: int = 0o644) -> None:
        target = self.path(guest)
        target.parent.mkdir(parents=True, exist_ok=True)
        target.write_text(text, encoding="utf-8")
        target.chmod(mode)

    def install(
        self, *installer_args: str, wheelhouse_dir: Path | None = None, standin: bool = True, check: bool = True
    ) -> subprocess.CompletedProcess[str]:
        """Copy the checkout and the wheelhouse in, give the service a stood-in Pi (unless
        `standin=False`), and run `install.sh --wheelhouse` with `installer_args`."""
        self.put(self.source, GUEST_SOURCE)
        if not self.path(GUEST_WHEELHOUSE).exists():
            self.put(wheelhouse_dir or wheelhouse(self.arch), GUEST_WHEELHOUSE)
        if standin:
            self.stand_in_pi()
        return self.run(
            "bash", f"{GUEST_SOURCE}/systemd/install.sh", "--wheelhouse", GUEST_WHEELHOUSE, *installer_args, check=check
        )

    def stand_in_pi(self, board: Path | None = None) -> None:
        """The test-only drop-in: tests/pi_fakes on the service's PYTHONPATH and the debug socket."""
        from tests.booted.standin import drop_in_text, standin_files

        for guest, host in standin_files().items():
            self.put(host, f"{GUEST_STANDIN}/{guest}")
        self.write(
            f"{GUEST_STANDIN}/site/sitecustomize.py",
            f"import sys\nsys.path.insert(0, {GUEST_STANDIN!r})\nfrom tests.pi_fakes import start_from_environment\nstart_from_environment()\n",
        )
        self.write(STANDIN_DROP_IN, drop_in_text(board or self.board_file()))

    def board_file(self) -> Path:
        """The board description the service will read (the operator's, else the shipped one)."""
        operator = self.path("/etc/xtraboard/board.toml")
        return operator if operator.exists() else self.source / "hardware" / "board.toml"

    def unit_property(self, name: str, unit: str = "xtraboard.service") -> str:
        return self.run("systemctl", "show", "--value", "-p", name, unit).stdout.strip()

    def wait_active(self, unit: str = "xtraboard.service", timeout: float = 120.0) -> None:
        deadline = time.monotonic() + timeout
        state = ""
        while time.monotonic() < deadline:
            state = self.unit_property("ActiveState", unit)
            if state == "active":
                return
            time.sleep(0.2)
        raise BenchError(f"{unit} is {state}, not active, after {timeout:.0f} s:\n{self.journal(unit)[-3000:]}")

    def journal(self, unit: str = "xtraboard.service", *args: str) -> str:
        return self.run("journalctl", "--no-pager", "-o", "short-monotonic", "-u", unit, *args, check=False).stdout

    @property
    def debug_target(self) -> str:
        """The service's debug socket for `xtraboard hil run --target` from the host."""
        return f"unix:{self.path(DEBUG_SOCKET)}"

    def kill_all(self, reap: bool = True) -> None:
        """The power cut: SIGKILL to the container's init kills every process in it at once.
        `reap=False`: every process of its PID namespace is sent SIGKILL as well (one blocked in
        a file system request dies only once that returns) and nothing is waited for."""
        if self.init_pid and not reap:
            with contextlib.suppress(OSError):
                namespace = os.readlink(f"/proc/{self.init_pid}/ns/pid")
                for entry in os.listdir("/proc"):
                    with contextlib.suppress(OSError):
                        if entry.isdigit() and os.readlink(f"/proc/{entry}/ns/pid") == namespace:
                            os.kill(int(entry), signal.SIGKILL)
        if self.init_pid:
            with contextlib.suppress(ProcessLookupError):
                os.kill(self.init_pid, signal.SIGKILL)
        if reap:
            self._reap(10.0)

    def shutdown(self, timeout: float = 60.0) -> None:
        """A clean power-off (systemd stops every unit); killed if it takes longer than `timeout`."""
        if self.process.poll() is None:
            with contextlib.suppress(ProcessLookupError):
                os.kill(self.process.pid, signal.SIGTERM)  # nspawn: SIGRTMIN+3 to init, a halt
        self._reap(timeout)

    def _reap(self, timeout: float) -> None:
        try:
            self.process.wait(timeout)
        except subprocess.TimeoutExpired:
            with contextlib.suppress(ProcessLookupError):
                os.killpg(self.process.pid, signal.SIGKILL)
            if self.init_pid:
                with contextlib.suppress(ProcessLookupError):
                    os.kill(self.init_pid, signal.SIGKILL)
            self.process.wait(30)
        self.init_pid = 0


def cannot_boot_reason() -> str | None:
    """Why booted tests cannot run here (None when they can): one line."""
    if os.geteuid() != 0:
        return "booted tier: needs root (systemd-nspawn, mounts)"
    for tool in ("systemd-nspawn", "debootstrap", "nsenter"):
        if shutil.which(tool) is None:
            return f"booted tier: {tool} not found (apt-get install systemd-container debootstrap)"
    for namespace in ("user", "pid", "mnt"):
        if not Path(f"/proc/self/ns/{namespace}").exists():
            return f"booted tier: the kernel has no {namespace} namespaces"
    return None


# --- the command ---------------------------------------------------------------------------------
# The commit the update test installs first (tests/booted/test_update.py): its own lock's
# wheelhouse is built by `prepare` too, so that the test runs offline.
UPDATE_FROM = "858ce89"


def lock_of(commit: str) -> Path:
    """requirements/pi.lock as it was at `commit`, kept in the cache (the key is its content)."""
    text = run_host(["git", "-C", str(REPO), "show", f"{commit}:requirements/pi.lock"], capture_output=True).stdout
    path = cache_dir() / "locks" / f"{commit}-pi.lock"
    path.parent.mkdir(parents=True, exist_ok=True)
    if not path.exists() or path.read_text(encoding="utf-8") != text:
        path.write_text(text, encoding="utf-8")
    return path


def prepare(arches: Sequence[str]) -> None:
    for arch in arches:
        started = time.monotonic()
        Root.prepared(arch)
        wheelhouse(arch)
        if arch == "amd64":
            wheelhouse(arch, lock=lock_of(UPDATE_FROM))
        print(f"bench prepare {arch}: {time.monotonic() - started:.1f} s (cache {cache_dir()})", flush=True)


def shell(arch: str) -> int:
    with RootCopy.of(Root.prepared(arch)) as copy, Machine.boot(copy, arch=arch) as machine:
        machine.put(REPO, GUEST_SOURCE)
        machine.put(wheelhouse(arch), GUEST_WHEELHOUSE)
        print(f"booted {copy.path}: the checkout is in {GUEST_SOURCE}, the wheelhouse in {GUEST_WHEELHOUSE}")
        print(f"  bash {GUEST_SOURCE}/systemd/install.sh --wheelhouse {GUEST_WHEELHOUSE}   (exit: leave and power off)")
        return subprocess.call(
            [
                "nsenter",
                "-t",
                str(machine.init_pid),
                "-a",
                "--",
                "env",
                "-i",
                f"PATH={GUEST_PATH}",
                "HOME=/root",
                "TERM=" + os.environ.get("TERM", "xterm"),
                "bash",
                "-l",
            ],
            cwd="/",
        )


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="./dev bench", description="the booted-system bench (hardware/BENCH.md)")
    commands = parser.add_subparsers(dest="command", required=True)
    p = commands.add_parser("prepare", help="build and cache the roots and wheelhouses (network)")
    p.add_argument("--arch", default="amd64", choices=[*ARCHES, "all"])
    commands.add_parser("test", help="the booted tier (pytest -m booted ARGS)", add_help=False)
    s = commands.add_parser("shell", help="boot a fresh copy and give a root shell in it")
    s.add_argument("--arch", default="amd64", choices=ARCHES)
    c = commands.add_parser("cuts", help="the power-cut campaign")
    c.add_argument("n", type=int)
    args, rest = parser.parse_known_args(argv)
    try:
        if args.command == "prepare":
            prepare(ARCHES if args.arch == "all" else [args.arch])
            return 0
        if args.command == "test":
            started = time.monotonic()
            status = subprocess.call(
                [sys.executable, "-m", "pytest", "-m", "booted", "-p", "no:cacheprovider", *rest], cwd=REPO
            )
            print(f"booted tier: {time.monotonic() - started:.1f} s", flush=True)
            return status
        if args.command == "shell":
            return shell(args.arch)
        if args.command == "cuts":
            try:
                from tests.booted import cuts  # the power-cut campaign's own module
            except ModuleNotFoundError as error:
                raise BenchError(f"cuts: the power-cut campaign (tests/booted/cuts.py) is not here: {error}") from error

            return int(cuts.main([str(args.n), *rest]))  # type: ignore[attr-defined]
    except BenchError as error:
        print(f"bench: {error}", file=sys.stderr)
        return 1
    return 2


if __name__ == "__main__":
    sys.exit(main())
