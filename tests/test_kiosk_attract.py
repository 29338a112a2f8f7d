"""Kiosk: after the idle time the LEDs play the attract show; any button brings the board back
exactly where it was, and that press does nothing else."""

from __future__ import annotations

from dataclasses import replace

import pytest

from firmware.ui.app import NOTE_S
from sim.board import SimBoard


def test_idle_show_and_wake_up_where_it_was():
    board = SimBoard(seed=2)
    timeout = board.app.settings.idle_timeout_s
    for button in ("ok", "ok", "ok", "ok", "ok"):  # a game of EXXTRA for three people
        board.tap(button)
    board.settle()
    before_track = board.led("track.0")
    board.wait(NOTE_S)  # the note saying the dice are sealed has gone
    before = (board.app.version, type(board.app.screen).__name__, board.app.session.game.to_record())

    board.wait(timeout - 1 - NOTE_S)
    assert board.board.attract_phase is None  # not yet
    board.wait(2)
    assert board.board.attract_phase is not None
    shown = {board.led(f"track.{i}") for i in range(22)}
    board.wait(0.5)
    assert {board.led(f"track.{i}") for i in range(22)} != shown or len(shown) > 1  # it moves

    board.tap("roll")  # wakes the board; must not roll
    assert board.board.attract_phase is None
    after = (board.app.version, type(board.app.screen).__name__, board.app.session.game.to_record())
    assert after == before
    assert board.led("track.0") == before_track
    board.tap("roll")  # now it rolls
    board.settle()
    assert len(board.app.session.game.history) > len(before[2]["steps"])
    board.close()


def test_no_show_while_bots_play_a_demo():
    from sim.app import start_demo

    board = SimBoard(seed=3)
    board.app.settings = replace(board.app.settings, bot_pace="slow")  # a game longer than the idle time
    start_demo(board, "exxtra", 6)
    board.wait(board.app.settings.idle_timeout_s + 5)
    assert not board.app.session.over
    assert board.board.attract_phase is None
    board.close()


def test_an_hour_on_the_fake_clock_is_the_same_show_without_its_frames(tmp_path):
    """A long wait on the fake clock jumps the idle show (and the blinking cells) to where it
    would be: the same phase and LEDs as waiting in small steps, and 10,000 waits of an hour
    (a scenario's `wait = 3600`) finish instead of rendering 30,000 frames each."""
    import io
    import time

    from sim.scenario import run_scenario_file

    stepped, jumped = SimBoard(seed=4), SimBoard(seed=4)
    for _ in range(4000):
        stepped.wait(0.1)
    jumped.wait(400)
    assert jumped.clock() == pytest.approx(stepped.clock())
    assert jumped.board.attract_phase == stepped.board.attract_phase is not None
    assert jumped.board.pushes["leds"] < 10 < stepped.board.pushes["leds"]
    cells = list(jumped.config.leds.cells)
    assert [jumped.led(c) for c in cells] == [stepped.led(c) for c in cells]
    assert list(jumped.hardware.leds.pixels) == list(stepped.hardware.leds.pixels)
    jumped.close()
    stepped.close()

    scenario = tmp_path / "hours.toml"
    scenario.write_text(
        'name = "hours"\ndescription = "ten thousand hours idle"\n'
        + "[[step]]\nwait = 3600\n" * 10_000
        + '[[step]]\nexpect = { state = "screen", equals = "MainMenu" }\n',
        encoding="utf-8",
    )
    started = time.process_time()
    assert run_scenario_file(scenario, out=io.StringIO()) == 0
    print(f"10,000 hour-long waits: {time.process_time() - started:.1f} s of CPU")
