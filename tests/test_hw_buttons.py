"""Buttons: gpiozero MockFactory pins driven with scripted bounces, a hand-driven clock."""

from __future__ import annotations

import queue
from dataclasses import replace

import pytest
from gpiozero.pins.mock import MockFactory
from hypothesis import given, settings
from hypothesis import strategies as st

from firmware.errors import HardwareError
from firmware.hardware.buttons import ButtonEvent, ButtonInputs, ButtonTracker, RawEdge
from tests.hardware_fixtures import FakeClock, default_board

PRESS = ButtonEvent("ok", "press")
RELEASE = ButtonEvent("ok", "release")


class Rig:
    """Mock pins → ButtonInputs → queue → ButtonTracker, the way the loop wires them."""

    def __init__(self, buttons=None) -> None:
        self.config = buttons or default_board().buttons
        self.clock = FakeClock()
        self.factory = MockFactory()
        self.edges: queue.SimpleQueue[RawEdge] = queue.SimpleQueue()
        self.inputs = ButtonInputs(self.config, self.edges.put, pin_factory=self.factory, clock=self.clock)
        self.tracker = ButtonTracker.from_config(self.config)

    def pin(self, name: str):
        number = self.config.tilt if name == "tilt" else self.config.pins[name]
        return self.factory.pin(number)

    def drive(self, name: str, pressed: bool, at_ms: float) -> list[ButtonEvent]:
        """Set the clock, drive the pin (to GND = pressed), feed what arrived to the tracker."""
        self.clock.now = 100.0 + at_ms / 1000
        pin = self.pin(name)
        pin.drive_low() if pressed else pin.drive_high()
        return self.drain()

    def drain(self) -> list[ButtonEvent]:
        events = []
        while not self.edges.empty():
            edge = self.edges.get_nowait()
            events += self.tracker.edge(edge.name, edge.pressed, edge.t)
        return events

    def advance_to(self, at_ms: float) -> list[ButtonEvent]:
        self.clock.now = 100.0 + at_ms / 1000
        return self.tracker.advance(self.clock.now)


@pytest.fixture
def rig():
    rig = Rig()
    yield rig
    rig.inputs.close()


def test_press_is_reported_at_the_leading_edge(rig: Rig) -> None:
    assert rig.drive("ok", True, 0) == [PRESS]
    assert rig.tracker.is_pressed("ok")


def test_callbacks_only_hand_over_raw_edges_with_the_injected_time(rig: Rig) -> None:
    rig.clock.now = 123.5
    rig.pin("left").drive_low()
    rig.pin("left").drive_high()
    assert [rig.edges.get_nowait(), rig.edges.get_nowait()] == [
        RawEdge("left", True, 123.5),
        RawEdge("left", False, 123.5),
    ]


def test_bounces_after_the_press_are_ignored(rig: Rig) -> None:
    events = rig.drive("ok", True, 0)
    for at_ms, pressed in [(1, False), (2, True), (4, False), (5, True)]:
        events += rig.drive("ok", pressed, at_ms)
    assert events == [PRESS]
    assert rig.tracker.next_deadline() is not None  # only the hold is still to come
    assert rig.advance_to(20) == []


def test_release_with_bounces_is_one_release(rig: Rig) -> None:
    rig.drive("ok", True, 0)
    events = rig.drive("ok", False, 100)
    for at_ms, pressed in [(101, True), (102, False), (103, True), (104, False)]:
        events += rig.drive("ok", pressed, at_ms)
    events += rig.advance_to(120)
    assert events == [RELEASE]
    assert rig.tracker.next_deadline() is None  # idle: the loop may block


def test_change_hidden_in_the_bounce_window_is_emitted_when_it_ends(rig: Rig) -> None:
    rig.drive("ok", True, 0)
    assert rig.drive("ok", False, 5) == []  # a real release inside the window
    assert rig.tracker.next_deadline() == pytest.approx(100.020)
    assert rig.advance_to(19) == []
    assert rig.advance_to(20) == [RELEASE]


def test_an_edge_after_an_overdue_deadline_reports_both_in_order(rig: Rig) -> None:
    rig.drive("ok", True, 0)
    rig.drive("ok", False, 5)  # release judged at 20 ms, but the loop was late
    assert rig.drive("ok", True, 50) == [RELEASE, PRESS]


def test_hold_after_hold_s_once_and_release_says_held(rig: Rig) -> None:
    back = rig.drive("back", True, 0)
    assert rig.tracker.next_deadline() == pytest.approx(101.0)
    assert rig.advance_to(999) == []
    back += rig.advance_to(1000)
    back += rig.advance_to(3000)  # no second hold
    back += rig.drive("back", False, 3500)
    assert back == [
        ButtonEvent("back", "press"),
        ButtonEvent("back", "hold"),
        ButtonEvent("back", "release", held=True),
    ]


def test_short_press_release_is_not_held(rig: Rig) -> None:
    rig.drive("back", True, 0)
    assert rig.drive("back", False, 300) == [ButtonEvent("back", "release", held=False)]
    assert rig.advance_to(2000) == []  # the cancelled hold never fires


def test_tilt_switch_rolls(rig: Rig) -> None:
    events = rig.drive("tilt", True, 0) + rig.drive("tilt", False, 3) + rig.advance_to(30)
    assert events == [ButtonEvent("roll", "press"), ButtonEvent("roll", "release")]
    assert rig.tracker.names[-1] == "tilt"


def test_two_buttons_are_independent(rig: Rig) -> None:
    events = rig.drive("left", True, 0) + rig.drive("ok", True, 1) + rig.drive("left", False, 2)
    events += rig.advance_to(25)
    assert events == [
        ButtonEvent("left", "press"),
        ButtonEvent("ok", "press"),
        ButtonEvent("left", "release"),
    ]


def test_pull_down_wiring_is_pressed_when_high() -> None:
    config = replace(default_board().buttons, pull_up=False)
    rig = Rig(config)
    try:
        assert rig.drive("ok", True, 0) == []  # driving low is "released" with pull-downs
        rig.pin("ok").drive_high()
        assert rig.drain() == [PRESS]
    finally:
        rig.inputs.close()


def test_pressed_reports_raw_levels(rig: Rig) -> None:
    rig.pin("right").drive_low()
    assert rig.inputs.pressed() == {
        "roll": False,
        "ok": False,
        "back": False,
        "left": False,
        "right": True,
        "tilt": False,
    }


def test_close_is_idempotent_and_frees_the_pins(rig: Rig) -> None:
    with rig.inputs:
        pass
    rig.inputs.close()
    again = ButtonInputs(rig.config, rig.edges.put, pin_factory=rig.factory, clock=rig.clock)
    again.close()
    assert again.names == ()


def test_a_pin_in_use_is_a_hardware_error_naming_button_and_pin(rig: Rig) -> None:
    with pytest.raises(HardwareError, match=r"button ROLL on GPIO5: .*in use"):
        ButtonInputs(rig.config, rig.edges.put, pin_factory=rig.factory, clock=rig.clock)


def test_unknown_input_name_is_a_value_error(rig: Rig) -> None:
    with pytest.raises(ValueError, match="unknown input 'menu'"):
        rig.tracker.edge("menu", True, 0.0)


@settings(max_examples=60, deadline=None)
@given(
    gaps=st.lists(st.integers(min_value=1, max_value=60), min_size=1, max_size=30),
)
def test_events_alternate_and_settle_on_the_final_level(gaps: list[int]) -> None:
    """Any bounce pattern: press/release alternate, and the final raw level wins."""
    tracker = ButtonTracker(["ok"], debounce_ms=20, hold_s=10.0)
    t, pressed, events = 0.0, False, []
    for gap in gaps:
        t += gap / 1000
        pressed = not pressed
        events += tracker.edge("ok", pressed, t)
    events += tracker.advance(t + 1.0)
    kinds = [e.kind for e in events]
    assert kinds == ["press", "release"] * (len(kinds) // 2) + ["press"] * (len(kinds) % 2)
    assert tracker.is_pressed("ok") == pressed
    # Settled: only a pending hold (hold_s is longer than the whole pattern) can remain.
    assert (tracker.next_deadline() is not None) == pressed


# --- held LEFT/RIGHT repeat, LEFT+RIGHT chord ---------------------------------------------------
def test_a_held_left_repeats_after_a_delay_then_steadily_until_released(rig: Rig) -> None:
    from firmware.hardware.buttons import REPEAT_DELAY_S, REPEAT_EVERY_S

    events = rig.drive("left", True, 0)
    events += rig.advance_to(REPEAT_DELAY_S * 1000 - 1)
    assert events == [ButtonEvent("left", "press")]  # a tap never repeats
    events = rig.advance_to((REPEAT_DELAY_S + 3 * REPEAT_EVERY_S) * 1000 + 1)
    assert events == [ButtonEvent("left", "repeat")] * 4
    events = rig.drive("left", False, (REPEAT_DELAY_S + 3 * REPEAT_EVERY_S) * 1000 + 2)
    events += rig.advance_to(5000)
    assert ButtonEvent("left", "repeat") not in events
    assert events[0].kind == "release"


def test_ok_and_roll_never_repeat(rig: Rig) -> None:
    events = rig.drive("ok", True, 0) + rig.advance_to(3000)
    assert [e.kind for e in events] == ["press", "hold"]


def test_right_while_left_is_down_is_the_chord_and_stops_the_repeats(rig: Rig) -> None:
    events = rig.drive("left", True, 0) + rig.drive("right", True, 100)
    events += rig.advance_to(3000)
    assert events[:2] == [ButtonEvent("left", "press"), ButtonEvent("right", "chord")]
    assert all(e.kind != "repeat" for e in events)


def test_a_bad_repeat_timing_is_refused() -> None:
    with pytest.raises(ValueError, match="repeat delay and interval must be > 0"):
        ButtonTracker(["left"], debounce_ms=20, hold_s=1.0, repeating=["left"], repeat_s=(0.0, 0.1))
