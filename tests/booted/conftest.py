"""One booted, installed board serves the tier's checks in order (install, play, watchdog):
tests/booted/bench.py boots a throw-away copy of the cached root and installs into it."""

from __future__ import annotations

import hashlib
import os
import stat
import time
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path

import pytest

from firmware.hardware.config import default_board_path
from tests.booted.bench import (
    GUEST_SOURCE,
    GUEST_WHEELHOUSE,
    Machine,
    Root,
    RootCopy,
    cache_dir,
    cannot_boot_reason,
    wheelhouse,
)
from tests.booted.games import engine_entry

BOARD = "/etc/xtraboard/board.toml"
# What a dry run must leave as it was: the listings (path, type, mode, owner, size, hash) of these.
WATCHED = ("/etc", "/opt", "/usr", "/var/lib")


def listing(machine: Machine) -> dict[str, str]:
    """Every entry under WATCHED (one file system, links not followed): "type mode owner size"
    and a file's SHA-256 or a link's target, read from the host through /proc/PID/root."""
    entries: dict[str, str] = {}
    for top in WATCHED:
        base = machine.path(top)
        device = base.lstat().st_dev
        for folder, dirs, files in os.walk(base):
            dirs[:] = [d for d in dirs if os.lstat(os.path.join(folder, d)).st_dev == device]
            for name in [*dirs, *files]:
                path = os.path.join(folder, name)
                info = os.lstat(path)
                facts = f"{stat.filemode(info.st_mode)} {info.st_uid}:{info.st_gid} {info.st_size}"
                if stat.S_ISLNK(info.st_mode):
                    facts += " -> " + os.readlink(path)
                elif stat.S_ISREG(info.st_mode):
                    with open(path, "rb") as handle:
                        facts += " " + hashlib.file_digest(handle, "sha256").hexdigest()
                entries["/" + os.path.relpath(path, machine.path("/"))] = facts
    return entries


@dataclass
class Installed:
    machine: Machine
    before_dry_run: dict[str, str]
    after_dry_run: dict[str, str]
    dry_run: str
    install_status: int
    install_output: str
    install_s: float
    installed_at: float  # time.monotonic() when the install returned
    notes: dict[str, str] = field(default_factory=dict)


@pytest.fixture(scope="session")
def installed() -> Iterator[Installed]:
    reason = cannot_boot_reason()
    if reason:
        pytest.skip(reason)
    pristine, wheels = Root.prepared("amd64"), wheelhouse("amd64")
    with RootCopy.of(pristine) as copy, Machine.boot(copy) as machine:
        # The checkout, the wheelhouse, the stood-in Pi and the operator's board description
        # with an engine are in place before the dry run: it is the installer's changes it shows.
        machine.put(machine.source, GUEST_SOURCE)
        machine.put(wheels, GUEST_WHEELHOUSE)
        machine.write(BOARD, default_board_path().read_text(encoding="utf-8") + engine_entry())
        machine.stand_in_pi()
        before = listing(machine)
        dry = machine.run("bash", f"{GUEST_SOURCE}/systemd/install.sh", "--wheelhouse", GUEST_WHEELHOUSE, "--dry-run")
        after = listing(machine)
        started = time.monotonic()
        done = machine.install(standin=False, check=False)
        yield Installed(
            machine,
            before,
            after,
            dry.stdout + dry.stderr,
            done.returncode,
            done.stdout + done.stderr,
            time.monotonic() - started,
            time.monotonic(),
        )


def report_path(name: str) -> Path:
    folder = cache_dir() / "reports"
    folder.mkdir(parents=True, exist_ok=True)
    return folder / name
