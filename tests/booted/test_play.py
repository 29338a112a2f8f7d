"""Whole games of each kind played on the booted service through `xtraboard hil run` against
its debug socket, the buttons pressed through the stood-in Pi's pins: a bot and the external
engine (in bubblewrap, under the unit's own hardening and the engines' drop-in) play to the end;
the records replay as legal games with the engine in its seat and no fault note."""

from __future__ import annotations

import json
import os
import subprocess
import sys
import time
from pathlib import Path

import pytest

from firmware.hardware.config import load_board
from firmware.records import replay_record
from tests.booted.bench import REPO
from tests.booted.conftest import BOARD, Installed
from tests.booted.games import ENGINE, GAMES, scenario
from tests.booted.pinwire import ENV, sitecustomize_source
from tests.booted.standin import PINS

pytestmark = pytest.mark.booted
MINUTE_S = 60.0


def hil_run(installed: Installed, files: list[Path], tmp: Path) -> subprocess.CompletedProcess[str]:
    """`xtraboard hil run` from the host, its gpio outputs wired to the board's pins file."""
    machine = installed.machine
    buttons = load_board(machine.path(BOARD)).buttons
    site = tmp / "site"
    site.mkdir(exist_ok=True)
    (site / "sitecustomize.py").write_text(sitecustomize_source(REPO), encoding="utf-8")
    env = {**os.environ, "PYTHONPATH": str(site), ENV: str(machine.path(PINS))}
    pins = ",".join(f"{name}=GPIO{pin}" for name, pin in buttons.pins.items())
    argv = [sys.executable, "-m", "firmware", "hil", "run", "--target", machine.debug_target, "--buttons", "gpio"]
    argv += ["--pins", pins] + (["--active-low"] if buttons.pull_up else [])
    return subprocess.run([*argv, *map(str, files)], env=env, capture_output=True, text=True, timeout=1800)


def records(installed: Installed) -> list[dict[str, object]]:
    out = installed.machine.run(
        "runuser", "-u", "xtraboard", "--", "/opt/xtraboard/venv/bin/xtraboard", "records", "export",
        "--state-dir", "/var/lib/xtraboard", "--out", "-",
    ).stdout  # fmt: skip
    return [json.loads(line) for line in out.splitlines() if line.strip()]


def test_a_bot_and_the_engine_play_a_whole_game_of_each_kind(installed: Installed, tmp_path: Path) -> None:
    assert installed.install_status == 0
    installed.machine.wait_active()
    files = []
    for game in GAMES:
        files.append(tmp_path / f"{game}.toml")
        files[-1].write_text(scenario(game), encoding="utf-8")
    started = time.monotonic()
    done = hil_run(installed, files, tmp_path)
    print(done.stdout, done.stderr, f"\nthree whole games on the booted service: {time.monotonic() - started:.1f} s")
    assert done.returncode == 0, done.stdout + done.stderr
    assert done.stdout.count(", passed") == len(GAMES)
    kept = records(installed)
    for game in GAMES:
        [record] = [r for r in kept if r["game"] == game]
        players = record["players"]
        assert isinstance(players, list) and players[-1]["bot"] == f"engine:{ENGINE}"
        assert "notes" not in record, record.get("notes")  # no fault: the engine played every turn itself
        assert replay_record(record).is_over()  # every step legal, to the end
    journal = installed.machine.journal()
    assert "Traceback" not in journal, journal[-3000:]


def test_the_service_did_not_restart_over_a_minute(installed: Installed) -> None:
    machine = installed.machine
    assert installed.install_status == 0
    left = MINUTE_S - (time.monotonic() - installed.installed_at)
    if left > 0:
        time.sleep(left)
    print(f"NRestarts checked {time.monotonic() - installed.installed_at:.0f} s after the install")
    assert machine.unit_property("NRestarts") == "0"
    assert machine.unit_property("ActiveState") == "active"
