"""Faults on the booted service (issue 35, items 6–8), on a machine of its own (the checks
change the service's drop-ins and mounts): the stood-in Pi with its GPIO or display missing, the
wall clock jumping under libfaketime through a drop-in, the state directory filling up, and a
read-only root with the state directory on its own writable mount. The same behaviours are
tested on plain subprocesses in tests/test_faults.py and tests/test_clock_and_disk.py."""

from __future__ import annotations

import contextlib
import glob
import json
import os
import shutil
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from firmware.hardware.config import default_board_path, load_board
from tests.booted.bench import GUEST_STANDIN, Machine, Root, RootCopy, cannot_boot_reason, wheelhouse
from tests.booted.standin import DEBUG_SOCKET, PINS, settings
from tests.support import fill
from tests.test_pi_standin import Debug, until

pytestmark = pytest.mark.booted
DROP_IN = "/etc/systemd/system/xtraboard.service.d/zz-faults.conf"  # after the stood-in's: it wins
STATE = "/var/lib/xtraboard"
FAKETIME = sorted(glob.glob("/usr/lib/x86_64-linux-gnu/faketime/libfaketime.so.1"))
GUEST_FAKETIME = f"{GUEST_STANDIN}/libfaketime.so.1"
STAMP = f"{GUEST_STANDIN}/faketime"  # read by the service (ProtectSystem=strict leaves /opt readable)
BUTTONS = load_board(default_board_path()).buttons


@pytest.fixture(scope="module")
def machine() -> Iterator[Machine]:
    reason = cannot_boot_reason()
    if reason:
        pytest.skip(reason)
    with RootCopy.of(Root.prepared("amd64")) as copy, Machine.boot(copy) as booted:
        booted.install(wheelhouse_dir=wheelhouse("amd64"))
        booted.wait_active()
        yield booted


def with_drop_in(machine: Machine, text: str) -> str:
    """The service restarted under `text` as its last drop-in; returns the new invocation's id."""
    machine.write(DROP_IN, "[Service]\n" + text)
    machine.run("systemctl", "daemon-reload")
    machine.run("systemctl", "restart", "xtraboard.service")
    machine.wait_active()
    return machine.unit_property("InvocationID")


def without_drop_in(machine: Machine) -> None:
    machine.path(DROP_IN).unlink(missing_ok=True)
    machine.run("systemctl", "daemon-reload")
    machine.run("systemctl", "restart", "xtraboard.service")
    machine.wait_active()


def fake_pi(**changes: object) -> str:
    return "Environment='XTRABOARD_FAKE_PI=" + json.dumps(settings(default_board_path()) | changes) + "'\n"


def said(machine: Machine, invocation: str) -> list[str]:
    """What this invocation of the service wrote (its standard error is the journal)."""
    out = machine.run("journalctl", "--no-pager", "-o", "cat", f"_SYSTEMD_INVOCATION_ID={invocation}", check=False)
    return [line for line in out.stdout.splitlines() if line.startswith("xtraboard run:")]


def press(machine: Machine, button: str) -> None:
    """Close a button for a tenth of a second through the stood-in Pi's pins file."""
    pin = BUTTONS.pins[button]
    down, up = ("low", "high") if BUTTONS.pull_up else ("high", "low")
    with machine.path(PINS).open("a", encoding="utf-8") as pins:
        pins.write(f"{down} {pin}\n")
    time.sleep(0.1)
    with machine.path(PINS).open("a", encoding="utf-8") as pins:
        pins.write(f"{up} {pin}\n")


@contextlib.contextmanager
def debug(machine: Machine) -> Iterator[Debug]:
    client = Debug(machine.path(DEBUG_SOCKET))
    try:
        yield client
    finally:
        client.close()


def steps(client: Debug) -> list[Any]:
    record = client.ask("state record")["value"]
    return list(record["steps"]) if record else []


def start_game(machine: Machine, client: Debug) -> None:
    """Play EXXTRA, three people (the main menu's defaults: OK on each), unless a game is on.
    Without a display the seat screens look alike from outside: OK until the game waits."""
    deadline = time.monotonic() + 60
    while client.ask("state pending")["value"] is None:
        assert time.monotonic() < deadline, "the game never started"
        press(machine, "ok")
        with contextlib.suppress(AssertionError):
            until(lambda: client.ask("state pending")["value"] is not None, "the game starts", within_s=1.0)


def step(machine: Machine, client: Debug) -> list[Any]:
    """ROLL when a roll is due, else OK; again while an animation lets a press go by."""
    before = len(steps(client))
    deadline = time.monotonic() + 60
    while len(steps(client)) == before:
        assert time.monotonic() < deadline, "no step"
        pending = client.ask("state pending")["value"]
        press(machine, "roll" if pending["kind"] == "roll" else "ok")
        with contextlib.suppress(AssertionError):
            until(lambda: len(steps(client)) > before, "a step", within_s=3)
    return steps(client)


def test_without_gpio_the_service_stays_up_in_a_fault_state_not_restarting(machine: Machine) -> None:
    restarts = int(machine.unit_property("NRestarts"))
    invocation = with_drop_in(machine, fake_pi(gpio=False) + "UnsetEnvironment=GPIOZERO_PIN_FACTORY\n")
    time.sleep(15)  # past three retries (3, 6 s): a restart loop would have restarted four times
    status = machine.unit_property("StatusText")
    print(f"StatusText={status}")
    assert status.startswith("fault: buttons: no GPIO access"), status
    assert machine.unit_property("ActiveState") == "active"
    assert machine.unit_property("InvocationID") == invocation and int(machine.unit_property("NRestarts")) == restarts
    lines = said(machine, invocation)
    assert len(lines) == 1 and lines[0].startswith("xtraboard run: buttons: no GPIO access ("), lines
    without_drop_in(machine)


def test_without_a_display_the_service_plays_on_and_says_so_once(machine: Machine) -> None:
    invocation = with_drop_in(machine, fake_pi(i2c={"1": []}))
    with debug(machine) as client:
        start_game(machine, client)
        for _ in range(4):
            step(machine, client)
        assert any("display" in problem for problem in client.ask("state problems")["value"])
    lines = said(machine, invocation)
    assert len(lines) == 1 and lines[0].startswith("xtraboard run: warning: display:"), lines
    without_drop_in(machine)


@pytest.mark.skipif(not FAKETIME, reason="libfaketime is not installed on the host (apt-get install libfaketime)")
def test_the_wall_clock_jumping_by_days_under_the_service_changes_nothing_but_the_dates(machine: Machine) -> None:
    machine.put(Path(FAKETIME[0]), GUEST_FAKETIME)
    machine.write(STAMP, "+0\n")
    restarts = int(machine.unit_property("NRestarts"))
    invocation = with_drop_in(
        machine,
        f"Environment=LD_PRELOAD={GUEST_FAKETIME} FAKETIME_TIMESTAMP_FILE={STAMP} FAKETIME_NO_CACHE=1"
        " FAKETIME_DONT_FAKE_MONOTONIC=1\n",
    )
    with debug(machine) as client:
        start_game(machine, client)
        shown = step(machine, client)
        for jump in ("-3d", "+5d", "-1d"):  # NTP steps back, forward, back
            machine.write(STAMP, f"{jump}\n")
            shown = step(machine, client)
            time.sleep(2)  # a timer on the wall clock would fire (or stall) now
            assert client.ask("state screen")["value"] == "PlayScreen"
    # The watchdog (monotonic on both sides) never fired: the same process, no restart.
    assert machine.unit_property("InvocationID") == invocation and int(machine.unit_property("NRestarts")) == restarts
    assert not [line for line in said(machine, invocation) if "Traceback" in line]
    without_drop_in(machine)  # a restart without faketime: the kiosk resumes every step, in order
    with debug(machine) as client:
        assert steps(client) == shown


@contextlib.contextmanager
def small_state_dir(machine: Machine, size: str) -> Iterator[None]:
    """A tmpfs of `size` on the state directory (what it held copied in), undone afterwards."""
    machine.run("systemctl", "stop", "xtraboard.service")
    keep = machine.path("/root/state-kept")
    shutil.copytree(machine.path(STATE), keep, dirs_exist_ok=True)
    owner = machine.path(STATE).stat()
    machine.run(
        "mount", "-t", "tmpfs", "-o", f"size={size},mode=0700,uid={owner.st_uid},gid={owner.st_gid}", "tmpfs", STATE
    )
    try:
        machine.run("cp", "-a", "/root/state-kept/.", STATE)
        yield
    finally:
        machine.run("systemctl", "stop", "xtraboard.service")
        machine.run("umount", STATE)
        shutil.rmtree(keep, ignore_errors=True)


def test_a_state_directory_filling_up_is_said_once_and_play_goes_on(machine: Machine) -> None:
    with small_state_dir(machine, "3m"):
        machine.run("systemctl", "start", "xtraboard.service")
        machine.wait_active()
        invocation = machine.unit_property("InvocationID")
        restarts = int(machine.unit_property("NRestarts"))
        with debug(machine) as client:
            start_game(machine, client)
            step(machine, client)
            filler = fill(machine.path(STATE))
            for _ in range(4):
                step(machine, client)
            problems = client.ask("state problems")["value"]
            assert problems.count("storage full: games not kept") == 1, problems
        assert (
            machine.unit_property("InvocationID") == invocation and int(machine.unit_property("NRestarts")) == restarts
        )
        journal = machine.run("journalctl", "--no-pager", "-o", "cat", f"_SYSTEMD_INVOCATION_ID={invocation}").stdout
        assert len([line for line in journal.splitlines() if "full" in line]) == 1, journal[-3000:]
        filler.unlink()
    machine.run("systemctl", "start", "xtraboard.service")
    machine.wait_active()


def test_the_overlay_option_on_plain_debian_says_what_is_missing_and_changes_nothing(machine: Machine) -> None:
    done = machine.run(
        "bash", "/root/xtraboard/systemd/install.sh", "--wheelhouse", "/root/wheelhouse", "--overlay", check=False
    )
    assert done.returncode != 0, done.stdout
    assert "no file system labelled" in done.stderr and "raspi-config not found" in done.stderr, done.stderr
    assert machine.unit_property("ActiveState") == "active"


def test_on_a_read_only_root_with_the_state_on_its_own_mount_the_board_keeps_its_games(
    machine: Machine, tmp_path: Path
) -> None:
    """What `--overlay` makes of a café board, as far as a container shows it: / read-only, the
    state directory a writable file system of its own (the partition fstab mounts)."""
    with debug(machine) as client:
        start_game(machine, client)
        shown = step(machine, client)
    machine.run("systemctl", "stop", "xtraboard.service")
    state = tmp_path / "state"
    shutil.copytree(machine.path(STATE), state, symlinks=True)
    owner = machine.path(STATE).stat()
    for path in [state, *state.rglob("*")]:  # copytree keeps modes, not owners
        os.chown(path, owner.st_uid, owner.st_gid, follow_symlinks=False)
    machine.shutdown()
    again = Machine.start(machine.root, binds=("--read-only", f"{state}:{STATE}"))
    try:
        again.wait_active()
        refused = again.run("touch", "/etc/xtraboard/written", check=False)
        assert refused.returncode != 0 and "Read-only file system" in refused.stderr, refused
        with debug(again) as client:
            assert steps(client) == shown  # resumed from the state mount
            shown = step(again, client)
        again.run("systemctl", "restart", "xtraboard.service")
        again.wait_active()
        with debug(again) as client:
            assert steps(client) == shown  # the new step was kept on the writable mount
        assert not [line for line in again.journal().splitlines() if "storage" in line and "read-only" in line]
    finally:
        again.shutdown()
