"""A broken board keeps telling why: `xtraboard run` as a real subprocess on the stood-in Pi
(tests/test_pi_standin.py) with a part missing.

- No GPIO: the board does not exit (systemd would start it again every 3 s for ever); it is
  READY with STATUS=fault, says why once on standard error (the journal), shows it on the
  display, blinks its code on the LEDs, and starts by itself when GPIO answers.
- No display: it plays on with buttons and LEDs and says so once.
"""

from __future__ import annotations

import time
from pathlib import Path

import pytest

from firmware.fault_mode import BLINKS, RETRY_FIRST_S, fault_screen
from firmware.hardware.config import default_board_path
from tests.test_pi_standin import Debug, StoodInPi, running, until

pytestmark = pytest.mark.system  # real subprocesses (the markers in pyproject.toml)

NO_GPIO = "xtraboard run: buttons: no GPIO access ("


def without_gpio(tmp_path: Path, **settings: object) -> StoodInPi:
    """A stood-in Pi on which gpiozero finds no pin factory at all (none is named for it)."""
    pi = StoodInPi(tmp_path, default_board_path(), gpio=False, **settings)  # type: ignore[arg-type]
    del pi.env["GPIOZERO_PIN_FACTORY"]
    return pi


def said(stderr: str) -> list[str]:
    """The lines a run wrote to standard error, but the debug service's own."""
    return [line for line in stderr.splitlines() if not line.startswith("debug service listening")]


def led_frames(pi: StoodInPi) -> list[set[tuple[int, int, int]]]:
    """Each frame sent to the LED chain as the set of its cells' colours."""
    from sim.hil.wire import cells_from_pixels, decode_ws2812_spi, pixels_from_bytes

    cfg = pi.config.leds
    return [
        set(cells_from_pixels(pixels_from_bytes(decode_ws2812_spi(bytes(e["data"])), cfg.order), cfg.cells).values())
        for e in pi.events()
        if e["kind"] == "busio.write"
    ]


def test_without_gpio_the_board_stays_up_in_a_fault_state_and_says_why_once(tmp_path: Path) -> None:
    pi = without_gpio(tmp_path)
    with running(pi) as run:
        [ready] = [m.decode() for m in run.messages if m.startswith(b"READY=1")]
        assert "STATUS=fault: buttons: no GPIO access" in ready, ready
        # Past two retries (3 s, then 6 s later) it is still up: no exit, no restart.
        time.sleep(RETRY_FIRST_S * 3 + 1)
        assert run.child.poll() is None, "the board exited"
        # The display says what is wrong; the LEDs blink red, BLINKS flashes a round.
        cfg = pi.config.display
        expected = fault_screen((cfg.width, cfg.height), pi.config.language).image.convert("L").tobytes()
        assert pi.display_pixels() == expected
        frames = led_frames(pi)
        lit = [frame for frame in frames if frame != {(0, 0, 0)}]
        assert len(lit) >= 2 * BLINKS and all(len(frame) == 1 and next(iter(frame))[1:] == (0, 0) for frame in lit)
        assert any(frame == {(0, 0, 0)} for frame in frames)
    assert run.child.returncode == 0 and "Traceback" not in run.stderr, run.stderr
    lines = run.stderr.splitlines()
    assert [line for line in lines if line.startswith(NO_GPIO)] == lines[:1] and len(lines) == 1, lines
    assert "trying again in 3 s, then less and less often (at most every 300 s)" in lines[0]
    # Stopped: LEDs off, display blanked by luma's cleanup.
    assert led_frames(pi)[-1] == {(0, 0, 0)}


def test_without_gpio_and_display_the_leds_still_blink_and_each_reason_is_one_line(tmp_path: Path) -> None:
    pi = without_gpio(tmp_path, i2c={1: []})
    with running(pi) as run:
        until(lambda: len([f for f in led_frames(pi) if f != {(0, 0, 0)}]) >= BLINKS, "the blink code")
    lines = run.stderr.splitlines()
    assert len(lines) == 2 and lines[0].startswith("xtraboard run: warning: display:"), lines
    assert lines[1].startswith(NO_GPIO), lines


def test_when_gpio_comes_late_the_board_starts_by_itself(tmp_path: Path) -> None:
    arrives = tmp_path / "gpiochip-is-there"
    pi = without_gpio(tmp_path, gpio_when=arrives)
    socket_path = tmp_path / "debug.sock"
    with running(pi, "--debug-socket", str(socket_path)) as run:
        assert run.messages[0].startswith(b"READY=1\nSTATUS=fault:"), run.messages
        arrives.touch()
        debug = Debug(socket_path)  # only the board proper serves it
        try:
            menu = debug.ask("text")["text"]
            assert any("EXXTRA" in line for line in menu), menu
            pi.press("right")
            until(lambda: debug.ask("text")["text"] != menu, "a press moves the menu")
        finally:
            debug.close()
    lines = said(run.stderr)
    assert run.child.returncode == 0 and len(lines) == 2, run.stderr
    assert (
        lines[0].startswith(NO_GPIO)
        and lines[1] == "xtraboard run: buttons: GPIO answers after 2 tries; starting the board"
    )


def test_without_a_display_the_board_plays_on_and_says_so_once(tmp_path: Path) -> None:
    pi = StoodInPi(tmp_path, default_board_path(), i2c={1: []})  # nothing answers at 0x3C
    socket_path = tmp_path / "debug.sock"
    with running(pi, "--debug-socket", str(socket_path)) as run:
        debug = Debug(socket_path)
        try:
            where = lambda: (debug.ask("state screen")["value"], debug.ask("state menu")["value"])  # noqa: E731
            for button in ("right", "right", "ok", "back", "left"):  # the menus answer each press
                before = where()
                pi.press(button)
                until(lambda before=before: where() != before, f"{button} is answered")
            assert any("display" in problem for problem in debug.ask("state problems")["value"])
        finally:
            debug.close()
        assert not [e for e in pi.events() if e["kind"] == "i2c"]  # nothing ever reached a display
        assert led_frames(pi), "the LEDs were lit"
    lines = said(run.stderr)
    assert run.child.returncode == 0 and len(lines) == 1, run.stderr
    assert lines[0].startswith("xtraboard run: warning: display:"), lines
