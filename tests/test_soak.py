"""Memory: 300 demo games (every game at every seat count, back to the main menu after each) in
one board process; what it keeps per event must be bounded, so memory after the first 30 games
may not grow by more than 2 MB (it grew about 60 KB a game: gpiozero's mock pins kept every
state change, the buzzer's notes among them, and `Sound.played` every cue). A real process,
measured from outside the test runner; `xtraboard bench soak` prints the same figures."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

pytestmark = pytest.mark.system  # the system tier (the markers in pyproject.toml)

ROOT = Path(__file__).resolve().parents[1]
LIMIT_KB = 2048


def test_three_hundred_games_in_one_process_do_not_grow_memory() -> None:
    done = subprocess.run(
        [sys.executable, "-m", "firmware", "bench", "soak", "--games", "300", "--warmup", "30", "--no-display"],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=1200,
    )
    assert done.returncode == 0, done.stderr
    print(done.stdout)
    figures = dict(line.split(": ", 1) for line in done.stdout.splitlines())
    assert int(figures["games"]) == 300
    assert int(figures["rss_kb_after_warmup"]) > 0
    assert int(figures["growth_kb"]) <= LIMIT_KB, done.stdout


def test_a_simulated_pin_and_the_sound_keep_a_bounded_history() -> None:
    from firmware.hardware.board import PIN_HISTORY
    from firmware.hardware.sound import PLAYED_KEPT
    from sim.board import SimBoard

    board = SimBoard(seed=1)
    try:
        pin = board.pins["right"]
        for _ in range(PIN_HISTORY * 3):
            board.tap("right")
        assert len(pin.states) == PIN_HISTORY and pin.states[-1].state == pin.state
        sound = board.board.sound
        for _ in range(PLAYED_KEPT * 2):
            sound.play("refused", (("C6", 0.01),), volume=0.1)
        assert len(sound.played) == PLAYED_KEPT and sound.played[-1] == "refused"
        buzzer = board.hardware.buzzer
        if buzzer is not None:
            assert len(buzzer.pwm_device.pin.states) <= PIN_HISTORY
    finally:
        board.close()
