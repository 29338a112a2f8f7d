"""The Pi's architecture: the same install on an arm64 Debian root booted under qemu-user.

`install.sh --wheelhouse` completes offline from the arm64 wheelhouse (built inside the arm64
root by `./dev bench prepare --arch arm64`: lgpio, cbor2, numpy, Pillow and sysv_ipc come as
manylinux aarch64 wheels; spidev, which has only an sdist, is built by pip at install time with
build-essential and python3-dev, from the hashed sdist and the pinned setuptools). Then
`xtraboard selftest` passes on the stood-in Pi and one scenario plays through `hil run`.

qemu-user cannot do one thing the unit asks for, so this machine alone gets the test-only
drop-in QEMU_DROP_IN (never installed by install.sh; the hardening itself is checked on amd64):
PrivateNetwork=. systemd's setup of the service's network namespace fails under qemu-user
("Failed to set up network namespacing: Input/output error", status 225/NETWORK), and the last
test shows it. The seccomp options stay as shipped and the service starts with its filters
loaded (Seccomp: 2 in its status); but they are built for aarch64's system calls while
qemu-user makes the host's, so what they block is not shown here: amd64 is where
SystemCallFilter= is in force.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
import threading
import time
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path

import pytest

from firmware.hardware.config import load_board
from tests.booted.bench import (
    GUEST_STANDIN,
    REPO,
    BenchError,
    Machine,
    Root,
    RootCopy,
    cannot_boot_reason,
    ensure_binfmt,
    wheelhouse,
)
from tests.booted.pinwire import ENV as PINFILE_ENV
from tests.booted.pinwire import sitecustomize_source
from tests.booted.standin import PINS, settings

pytestmark = pytest.mark.booted

ARCH = "arm64"
BOARD = "/etc/xtraboard/board.toml"
XTRABOARD = "/opt/xtraboard/venv/bin/xtraboard"
QEMU_DROP_IN = "/etc/systemd/system/xtraboard.service.d/zz-bench-qemu.conf"
QEMU_DROP_IN_TEXT = """\
# The bench's arm64 machine under qemu-user only (tests/booted/test_arm64.py); never installed by
# systemd/install.sh. qemu-user cannot set up the service's network namespace (status
# 225/NETWORK); the unit's hardening is checked on amd64.
[Service]
PrivateNetwork=no
"""
SCENARIO = REPO / "tests" / "scenarios" / "levelx_game.toml"  # a whole game by buttons, on a kiosk board
SELFTEST_DIR = "/root/selftest"  # its own stood-in Pi's record and pins, not the service's
BOOT_TIMEOUT_S = 300.0  # systemd itself runs under qemu-user: a bound, not a timing check


@dataclass
class Arm64:
    machine: Machine
    install: subprocess.CompletedProcess[str]
    again: subprocess.CompletedProcess[str]
    seconds: dict[str, float] = field(default_factory=dict)


@pytest.fixture(scope="module")
def arm64() -> Iterator[Arm64]:
    reason = cannot_boot_reason()
    if reason:
        pytest.skip(reason)
    try:
        ensure_binfmt(ARCH)
    except BenchError as error:
        pytest.skip(f"arm64 machine: {error}")
    seconds: dict[str, float] = {}
    started = time.monotonic()
    pristine, wheels = Root.prepared(ARCH), wheelhouse(ARCH)
    seconds["prepare"] = time.monotonic() - started
    with RootCopy.of(pristine) as copy:
        started = time.monotonic()
        with Machine.boot(copy, arch=ARCH, timeout=BOOT_TIMEOUT_S) as machine:
            seconds["boot"] = time.monotonic() - started
            machine.write(QEMU_DROP_IN, QEMU_DROP_IN_TEXT)
            started = time.monotonic()
            first = machine.install(wheelhouse_dir=wheels, check=False)
            seconds["install cold"] = time.monotonic() - started
            started = time.monotonic()
            again = machine.install(wheelhouse_dir=wheels, check=False)  # the venv and wheels' builds there
            seconds["install again"] = time.monotonic() - started
            yield Arm64(machine, first, again, seconds)


def test_the_machine_is_arm64(arm64: Arm64) -> None:
    assert arm64.machine.run("uname", "-m").stdout.strip() == "aarch64"
    assert arm64.machine.run("dpkg", "--print-architecture").stdout.strip() == "arm64"


def test_the_installer_completes_offline_from_the_arm64_wheelhouse(arm64: Arm64) -> None:
    for done in (arm64.install, arm64.again):
        assert done.returncode == 0, done.stdout[-3000:] + done.stderr[-3000:]
    listed = arm64.machine.run("/opt/xtraboard/venv/bin/pip", "list", "--format=json").stdout
    names = {package["name"].lower() for package in json.loads(listed)}
    assert {"lgpio", "rpi-lgpio", "spidev", "xtraboard"} <= names
    # The compiled parts are aarch64 code.
    found = arm64.machine.run(
        "/opt/xtraboard/venv/bin/python", "-c", "import lgpio, spidev; print(lgpio.__file__); print(spidev.__file__)"
    ).stdout.split()
    kinds = arm64.machine.run("sh", "-c", "od -An -tx1 -j18 -N2 " + " ".join(found[1:])).stdout.split()
    assert kinds == ["b7", "00"], f"{found[1]} is not an aarch64 ELF (e_machine {kinds})"
    print(
        f"arm64: prepare {arm64.seconds['prepare']:.0f} s (cached when near 0), boot {arm64.seconds['boot']:.0f} s, "
        f"install.sh cold {arm64.seconds['install cold']:.0f} s, again {arm64.seconds['install again']:.0f} s"
    )


def test_the_service_runs_under_the_unit_and_only_the_qemu_drop_in(arm64: Arm64) -> None:
    machine = arm64.machine
    machine.wait_active(timeout=BOOT_TIMEOUT_S)
    drop_ins = machine.unit_property("DropInPaths").split()
    assert sorted(Path(p).name for p in drop_ins) == ["zz-bench-qemu.conf", "zz-bench-standin.conf"]
    assert machine.unit_property("ProtectSystem") == "strict"
    assert machine.unit_property("User") == "xtraboard"


def press_every_button(pins_file: Path, pins: list[int], active_low: bool, stop: threading.Event) -> None:
    """The selftest asks for the buttons one by one; a bench finger presses each in turn."""
    down, up = ("low", "high") if active_low else ("high", "low")
    while not stop.is_set():
        for pin in pins:
            with pins_file.open("a", encoding="utf-8") as wire:
                wire.write(f"{down} {pin}\n")
            time.sleep(0.15)
            with pins_file.open("a", encoding="utf-8") as wire:
                wire.write(f"{up} {pin}\n")
            time.sleep(0.25)


def test_selftest_passes_on_the_stood_in_pi(arm64: Arm64) -> None:
    machine = arm64.machine
    board = load_board(machine.path(BOARD))
    fake = settings(machine.path(BOARD)) | {"record": f"{SELFTEST_DIR}/pi.jsonl", "pins": f"{SELFTEST_DIR}/pins"}
    machine.run("mkdir", "-p", SELFTEST_DIR)
    machine.run("touch", f"{SELFTEST_DIR}/pins")
    pins = list(board.buttons.pins.values()) + ([board.buttons.tilt] if board.buttons.tilt is not None else [])
    stop = threading.Event()
    finger = threading.Thread(
        target=press_every_button, args=(machine.path(f"{SELFTEST_DIR}/pins"), pins, board.buttons.pull_up, stop)
    )
    finger.start()
    try:
        done = machine.run(
            XTRABOARD, "selftest", "--step", "0.2", "--timeout", "60",
            env={
                "PYTHONPATH": f"{GUEST_STANDIN}/site",
                "XTRABOARD_FAKE_PI": json.dumps(fake),
                "GPIOZERO_PIN_FACTORY": "mock",
                "GPIOZERO_MOCK_PIN_CLASS": "mockpwmpin",
            },
            check=False,
            timeout=900,
        )  # fmt: skip
    finally:
        stop.set()
        finger.join()
    assert done.returncode == 0, done.stdout[-3000:] + done.stderr[-3000:]
    assert "NOT seen" not in done.stdout


def test_a_scenario_plays_through_hil_run(arm64: Arm64, tmp_path: Path) -> None:
    machine = arm64.machine
    machine.wait_active(timeout=BOOT_TIMEOUT_S)
    buttons = load_board(machine.path(BOARD)).buttons
    site = tmp_path / "site"
    site.mkdir()
    (site / "sitecustomize.py").write_text(sitecustomize_source(REPO), encoding="utf-8")
    pins = ",".join(f"{name}={pin}" for name, pin in buttons.pins.items())
    argv = [sys.executable, "-m", "firmware", "hil", "run", "--target", machine.debug_target, "--buttons", "gpio"]
    argv += ["--pins", pins, "--wait", "120"] + (["--active-low"] if buttons.pull_up else []) + [str(SCENARIO)]
    env = {**os.environ, "PYTHONPATH": str(site), PINFILE_ENV: str(machine.path(PINS))}
    started = time.monotonic()
    done = subprocess.run(argv, env=env, capture_output=True, text=True, timeout=1800, cwd=REPO)
    assert done.returncode == 0, done.stdout[-3000:] + done.stderr[-3000:]
    assert "scenario levelx_game:" in done.stdout and "passed" in done.stdout
    print(f"arm64: hil run {SCENARIO.name}: {time.monotonic() - started:.0f} s")


def exit_status_without(machine: Machine, drop_in_text: str | None) -> str:
    """The service's ExecMainStatus when started with `drop_in_text` in place of the qemu drop-in
    (None: none at all), once it has failed; the qemu drop-in is put back afterwards."""
    try:
        if drop_in_text is None:
            machine.run("rm", "-f", QEMU_DROP_IN)
        else:
            machine.write(QEMU_DROP_IN, drop_in_text)
        machine.run("systemctl", "daemon-reload")
        machine.run("systemctl", "reset-failed", "xtraboard.service", check=False)
        machine.run("systemctl", "restart", "xtraboard.service", check=False, timeout=BOOT_TIMEOUT_S)
        deadline = time.monotonic() + BOOT_TIMEOUT_S
        while time.monotonic() < deadline:
            status = machine.unit_property("ExecMainStatus")
            if machine.unit_property("Result") != "success" and status != "0":
                return status
            time.sleep(0.5)
        return "still running"
    finally:
        machine.write(QEMU_DROP_IN, QEMU_DROP_IN_TEXT)
        machine.run("systemctl", "daemon-reload")
        machine.run("systemctl", "reset-failed", "xtraboard.service", check=False)
        machine.run("systemctl", "restart", "xtraboard.service", check=False, timeout=BOOT_TIMEOUT_S)


def test_the_qemu_drop_in_relaxes_only_what_qemu_user_cannot_do(arm64: Arm64) -> None:
    """Last (it restarts the service): the unit as shipped stops at its network namespace
    (225/NETWORK); with the drop-in (PrivateNetwork=no and nothing else) it runs, seccomp
    filters loaded."""
    machine = arm64.machine
    assert exit_status_without(machine, None) == "225"
    assert "NETWORK" in machine.journal()
    machine.wait_active(timeout=BOOT_TIMEOUT_S)
    pid = machine.unit_property("MainPID")
    status = machine.run("cat", f"/proc/{pid}/status").stdout
    assert "Seccomp:\t2" in status, status
