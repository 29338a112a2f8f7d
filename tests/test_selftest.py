"""The self-test, scripted: a simulated person presses MockFactory pins when asked; a fake clock."""

from __future__ import annotations

import os
import queue
import subprocess
import sys
from pathlib import Path

import pytest
from gpiozero.pins.mock import MockFactory, MockPWMPin
from luma.core.interface.serial import i2c

from firmware.hardware.board import Hardware, open_hardware
from firmware.hardware.buttons import RawEdge
from firmware.hardware.selftest import QueueEdges, SelftestReport, run_selftest
from firmware.ui.cues import TUNES
from sim.bench.buses import RecordingI2CBus
from tests.hardware_fixtures import FakeClock, default_board

pytestmark = pytest.mark.filterwarnings("ignore:Image.Image.getdata is deprecated:DeprecationWarning")
ROOT = Path(__file__).resolve().parents[1]
ALL = ("roll", "ok", "back", "left", "right", "tilt")


class Person:
    """Listens to the self-test's progress lines and presses what it is asked for (with bounce).

    Also the edge source: `wait(timeout)` either performs the next scripted pin change (moving
    the fake clock to it) or lets `timeout` pass on the fake clock.
    """

    def __init__(self, hardware: Hardware, clock: FakeClock, *, skip=(), instead=None, reaction_s=0.4) -> None:
        self.hardware, self.clock = hardware, clock
        self.skip, self.instead, self.reaction_s = set(skip), dict(instead or {}), reaction_s
        self.actions: list[tuple[float, str, bool]] = []
        self.heard: list[tuple[float, str]] = []
        self.lit: dict[str, set[int]] = {}  # segment → LED indices lit when it was announced
        self.images: dict[str, object] = {}

    def hear(self, line: str) -> None:
        self.heard.append((self.clock(), line))
        if line.startswith("LEDs: ") and " lit " in line:
            segment = line.split()[1]
            self.lit[segment] = {i for i, c in enumerate(self.hardware.leds.pixels.shown()) if c != (0, 0, 0)}
        if line.startswith("display: test pattern") and self.hardware.display is not None:
            self.images["pattern"] = self.hardware.display.image.copy()
        asked = _asked(line)
        if asked is None or asked in self.skip:
            return
        t = self.clock() + self.reaction_s
        for name in self.instead.get(asked, []) + [asked]:
            self.press(name, t)
            t += 0.5

    def press(self, name: str, t: float) -> None:
        # Contact bounce on both edges, then a 150 ms press.
        self.actions += [
            (t, name, True),
            (t + 0.001, name, False),
            (t + 0.002, name, True),
            (t + 0.150, name, False),
            (t + 0.151, name, True),
            (t + 0.153, name, False),
        ]
        self.actions.sort(key=lambda action: action[0])

    def wait(self, timeout: float) -> RawEdge | None:
        edges = self.hardware.edges
        while self.actions and self.actions[0][0] <= self.clock() + timeout:
            t, name, pressed = self.actions.pop(0)
            self.clock.now = max(self.clock.now, t)
            pin = self.pin(name)
            pin.drive_low() if pressed else pin.drive_high()
            if not edges.empty():
                return edges.get_nowait()
        self.clock.advance(timeout)
        return None

    def pin(self, name: str):
        buttons = self.hardware.config.buttons
        return self.hardware.pin_factory.pin(buttons.tilt if name == "tilt" else buttons.pins[name])


def _asked(line: str) -> str | None:
    if line.startswith("buttons: Press "):
        return line.split()[2].lower()
    if line.startswith("buttons: Tilt the board"):
        return "tilt"
    return None


def selftest(hardware: Hardware, clock: FakeClock, **person) -> tuple[SelftestReport, Person]:
    someone = Person(hardware, clock, **person)
    report = run_selftest(hardware, someone, button_timeout_s=10.0, step_s=1.0, say=someone.hear)
    return report, someone


@pytest.fixture
def clock() -> FakeClock:
    return FakeClock(0.0)


@pytest.fixture
def hardware(clock: FakeClock):
    with open_hardware(default_board(), "mock", clock=clock) as hardware:
        yield hardware


def test_every_button_pressed_passes(hardware: Hardware, clock: FakeClock) -> None:
    report, person = selftest(hardware, clock)
    assert report.ok
    assert report.seen == ALL and report.missed == () and report.stray == ()
    assert report.lines()[-1] == "self-test passed"
    # 5 segments + all LEDs + test pattern, 1 s each; every cue and a pause after it; then six
    # presses 0.4 s after each prompt.
    sound_s = sum(seconds for tune in TUNES.values() for _, seconds in tune) + 0.2 * len(TUNES)
    assert clock() == pytest.approx(7.0 + sound_s + 6 * 0.4)
    assert f"buzzer: GPIO27, {len(TUNES)} cues played" in report.lines()


def test_each_segment_lights_exactly_its_cells(hardware: Hardware, clock: FakeClock) -> None:
    report, person = selftest(hardware, clock)
    cells = hardware.config.leds.cells
    for name, prefix in [
        ("seats", "seat."),
        ("track", "track."),
        ("ladder", "ladder."),
        ("grid", "grid."),
        ("dice", "dice."),
    ]:
        expected = {i for cell, c in cells.items() if cell.startswith(prefix) for i in c.leds}
        assert person.lit[name] == expected
    assert dict(report.segments) == {name: len(person.lit[name]) for name in person.lit if name != "all"}
    assert len(person.lit["all"]) == sum(len(c.leds) for c in cells.values())
    assert set(hardware.leds.pixels.last) == {0}  # off again afterwards


def test_the_display_shows_a_pattern_and_what_was_detected(hardware: Hardware, clock: FakeClock) -> None:
    report, person = selftest(hardware, clock)
    pattern = person.images["pattern"]
    assert pattern.getpixel((0, 0)) and pattern.getpixel((127, 63)) and pattern.getpixel((64, 0))  # border
    assert pattern.getpixel((32, 16))  # the diagonal
    assert report.display == "ssd1309 128×64 on I2C bus 1 at 0x3C (simulated)"
    assert hardware.display.image.getbbox() is not None  # the result screen


def test_unpressed_buttons_time_out_and_fail(hardware: Hardware, clock: FakeClock) -> None:
    report, person = selftest(hardware, clock, skip={"left", "tilt"})
    assert not report.ok
    assert report.missed == ("left", "tilt")
    assert report.seen == ("roll", "ok", "back", "right")
    assert "buttons NOT seen: LEFT, the tilt switch" in report.lines()
    asked_left = next(t for t, line in person.heard if line == "buttons: Press LEFT …")
    gave_up = next(t for t, line in person.heard if line == "buttons: LEFT NOT seen within 10 s")
    assert gave_up - asked_left == pytest.approx(10.0)


def test_a_wrong_button_first_is_reported_as_stray(hardware: Hardware, clock: FakeClock) -> None:
    report, _ = selftest(hardware, clock, instead={"left": ["right"]})
    assert report.ok
    assert report.stray == (("left", "right"),)
    assert "asked for LEFT, got RIGHT: swapped wires?" in report.lines()


def test_a_button_held_down_from_the_start_is_reported_as_stuck(hardware: Hardware, clock: FakeClock) -> None:
    hardware.pin_factory.pin(hardware.config.buttons.pins["back"]).drive_low()  # e.g. a short to GND
    hardware.edges.get_nowait()  # that edge came before the test
    report, _ = selftest(hardware, clock, skip={"back"})  # a shorted button cannot be pressed
    assert report.stuck == ("back",)
    assert report.missed == ("back",)
    assert "BACK read as pressed before the test: check its wiring and buttons.pull_up" in report.lines()


def test_without_leds_and_display_the_buttons_are_still_tested(clock: FakeClock) -> None:
    with open_hardware(default_board(), "pi", pin_factory=MockFactory(pin_class=MockPWMPin), clock=clock) as hardware:
        report, _ = selftest(hardware, clock)
    assert report.ok
    assert report.segments == () and report.display == ""
    lines = report.lines()
    assert "LEDs: none (no LED chain)" in lines and "display: none" in lines
    assert sum(line.startswith("warning: ") for line in lines) == 2


def test_a_display_lost_mid_test_is_noted_and_the_test_goes_on(clock: FakeClock) -> None:
    bus = RecordingI2CBus()
    with open_hardware(default_board(), "mock", clock=clock, serial=i2c(bus=bus, address=0x3C)) as hardware:
        bus.present = ()
        report, _ = selftest(hardware, clock)
    assert report.ok and report.display == ""
    assert any("display: sending a frame failed" in problem for problem in report.problems)


def test_queue_edges_returns_an_edge_or_none() -> None:
    edges: queue.SimpleQueue[RawEdge] = queue.SimpleQueue()
    source = QueueEdges(edges)
    assert source.wait(0.0) is None
    edges.put(RawEdge("ok", True, 1.0))
    assert source.wait(0.0) == RawEdge("ok", True, 1.0)


def _xtraboard(*args: str) -> subprocess.CompletedProcess[str]:
    env = {k: v for k, v in os.environ.items() if k not in ("GPIOZERO_PIN_FACTORY", "XTRABOARD_BOARD")}
    return subprocess.run(
        [sys.executable, "-m", "firmware", *args], cwd=ROOT, env=env, capture_output=True, text=True, timeout=60
    )


def test_command_with_mock_parts_fails_when_nobody_presses() -> None:
    done = _xtraboard("selftest", "--backend", "mock", "--timeout", "0.01", "--step", "0")
    assert done.returncode == 1
    assert "LEDs lit: seats 6, track 24, ladder 6, grid 18, dice 35" in done.stdout
    assert "buttons NOT seen: ROLL, OK, BACK, LEFT, RIGHT, the tilt switch" in done.stdout
    assert done.stdout.rstrip().endswith("self-test FAILED")


def test_command_on_a_machine_without_gpio_fails_clearly() -> None:
    done = _xtraboard("selftest")
    assert done.returncode == 1
    assert done.stderr.startswith("xtraboard selftest: buttons: no GPIO access")
    assert "Traceback" not in done.stderr
