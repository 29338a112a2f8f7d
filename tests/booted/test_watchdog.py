"""The watchdog on the booted service: the loop stopped with SIGSTOP misses its pings, systemd
kills it (SIGABRT; SIGKILL after TimeoutAbortSec if that does not end it) and starts it again
after RestartSec; the
kiosk brings back the game where it stood, as the debug service's state shows before and after."""

from __future__ import annotations

import configparser
import time
from pathlib import Path

import pytest

from sim.hil.driver import DebugClient
from tests.booted.bench import REPO
from tests.booted.conftest import Installed
from tests.booted.test_play import hil_run

pytestmark = pytest.mark.booted
UNIT = REPO / "systemd" / "xtraboard.service"
# On top of systemd's own times: the new process's start until READY (Python importing Pillow,
# luma and gpiozero: about a second here) and the bench's 0.2 s polling. Stated, not measured.
MARGIN_S = 15.0
# What the kiosk must bring back: the game's place in play, read through the debug service.
TIMELINE = ("Watchdog timeout", "timed out", "Killing", "Scheduled restart", "Started xtraboard", "Main process exited")
STATE_PATHS = ("screen", "pending", "record", "scores", "chip_counts", "pieces", "x_holders", "chips_left")


def unit_seconds(name: str) -> float:
    parser = configparser.ConfigParser(strict=False, interpolation=None)
    parser.read(UNIT, encoding="utf-8")
    return float(parser["Service"][name])


def half_a_game(tmp: Path) -> Path:
    """LEVEL X for two people, up to Red's first move taken (the start of levelx_game.toml)."""
    text = (REPO / "tests" / "scenarios" / "levelx_game.toml").read_text(encoding="utf-8")
    head = text.split("# Blue: [2, 2, 2, 2], passes")[0].replace('name = "levelx_game"', 'name = "levelx_half"')
    path = tmp / "levelx_half.toml"
    path.write_text(head, encoding="utf-8")
    return path


def board_state(target: str) -> dict[str, object]:
    client = DebugClient.connect(target)
    try:
        answers = {path: client.ask(f"state {path}") for path in STATE_PATHS}
    finally:
        client.close()
    refused = {path: answer for path, answer in answers.items() if not answer.get("ok")}
    assert not refused, refused
    return {path: answer.get("value") for path, answer in answers.items()}


def test_a_stopped_loop_is_killed_and_restarted_within_the_bound_and_the_game_resumes(
    installed: Installed, tmp_path: Path
) -> None:
    machine = installed.machine
    assert installed.install_status == 0
    machine.wait_active()
    done = hil_run(installed, [half_a_game(tmp_path)], tmp_path)
    assert done.returncode == 0, done.stdout + done.stderr
    before = board_state(machine.debug_target)
    assert before["screen"] == "PlayScreen" and before["pending"] == {"kind": "roll", "player": 1}, before
    restarts = int(machine.unit_property("NRestarts"))
    old_pid = machine.unit_property("MainPID")
    bound = unit_seconds("WatchdogSec") + unit_seconds("TimeoutAbortSec") + unit_seconds("RestartSec") + MARGIN_S

    stopped = time.monotonic()
    machine.run("systemctl", "kill", "--kill-whom=main", "--signal=SIGSTOP", "xtraboard.service")
    while True:
        pid, state = machine.unit_property("MainPID"), machine.unit_property("ActiveState")
        if pid not in (old_pid, "0") and state == "active":
            break
        assert time.monotonic() - stopped < bound + 30, f"not back after {time.monotonic() - stopped:.0f} s"
        time.sleep(0.2)
    restart_s = time.monotonic() - stopped
    print(f"SIGSTOP to active again (new MainPID, READY): {restart_s:.1f} s; bound {bound:.0f} s")
    assert restart_s <= bound
    assert int(machine.unit_property("NRestarts")) == restarts + 1
    journal = machine.journal()
    print("\n".join(line for line in journal.splitlines() if any(word in line for word in TIMELINE)))
    assert "Watchdog timeout" in journal
    # SIGABRT's default action ends even a stopped process; a loop stuck in the kernel would be
    # killed with SIGKILL when TimeoutAbortSec ran out ("timed out. Killing").
    assert "Main process exited, code=killed, status=6/ABRT" in journal or "timed out. Killing" in journal

    deadline = time.monotonic() + 30
    while True:  # the debug socket comes up as the new loop starts
        try:
            after = board_state(machine.debug_target)
            break
        except OSError:
            assert time.monotonic() < deadline
            time.sleep(0.2)
    print(f"before: {before}\nafter:  {after}")
    assert after == before
