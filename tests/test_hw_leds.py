"""The LED chain over a real PixelBuf (MemoryPixels): bytes, brightness, budget, cycling."""

from __future__ import annotations

import pytest

from firmware.errors import ConfigError
from firmware.hardware.config import Cell
from firmware.hardware.leds import LedChain, MemoryPixels, from_config, memory_pixels
from tests.hardware_fixtures import default_board

CELLS = {
    "seat.0": Cell((0,), 0, 0),
    "seat.1": Cell((1,), 0, 0),
    "track.3": Cell((2, 3), 0, 0),  # one cell, two LEDs
}
RED, GREEN, BLUE, WHITE = (255, 0, 0), (0, 255, 0), (0, 0, 255), (255, 255, 255)


def chain(brightness: float = 1.0, budget_amps: float = 10.0, count: int = 4) -> LedChain:
    pixels = MemoryPixels(count, byteorder="GRB", brightness=brightness)
    return LedChain(CELLS, pixels, budget_amps=budget_amps, ma_per_channel=20.0)


def test_bytes_are_grb_and_absent_cells_are_off() -> None:
    leds = chain()
    assert leds.show({"seat.0": (10, 20, 30), "track.3": BLUE}, t=0.0)
    assert leds.pixels.last == bytes([20, 10, 30, 0, 0, 0, 0, 0, 255, 0, 0, 255])
    assert leds.pixels.shown() == [(10, 20, 30), (0, 0, 0), BLUE, BLUE]


def test_brightness_scales_the_bytes() -> None:
    leds = chain(brightness=0.5)
    leds.show({"seat.1": (200, 100, 50)}, t=0.0)
    assert leds.pixels.last[3:6] == bytes([50, 100, 25])


def test_unchanged_frame_is_not_pushed() -> None:
    leds = chain()
    assert leds.show({"seat.0": RED}, t=0.0)
    assert not leds.show({"seat.0": RED}, t=5.0)
    assert not leds.show({"seat.0": [RED]}, t=9.0)  # one colour "in turn" is the same frame
    assert leds.pixels.pushes == 1
    assert leds.show({"seat.0": GREEN}, t=9.0)
    assert leds.pixels.pushes == 2


def test_a_brightness_change_pushes_the_same_frame_again() -> None:
    leds = chain()
    leds.show({"seat.0": RED}, t=0.0)
    leds.brightness = 0.2
    assert leds.show({"seat.0": RED}, t=0.0)
    assert leds.pixels.last[:3] == bytes([0, 51, 0])


def test_frames_over_budget_are_scaled_down_to_fit() -> None:
    # 4 white LEDs at full brightness: 4 × 3 × 20 mA = 240 mA; budget 120 mA → half.
    leds = chain(budget_amps=0.120)
    leds.show({"seat.0": WHITE, "seat.1": WHITE, "track.3": WHITE}, t=0.0)
    assert set(leds.pixels.last) == {127}
    assert leds.estimate_ma(leds.pixels.shown()) <= 120.0


def test_budget_accounts_for_brightness() -> None:
    # Same frame at brightness 0.5 draws 120 mA: within the budget, no scaling.
    leds = chain(brightness=0.5, budget_amps=0.120)
    leds.show({"seat.0": WHITE, "seat.1": WHITE, "track.3": WHITE}, t=0.0)
    assert set(leds.pixels.last) == {127}
    assert leds.pixels.shown() == [(127, 127, 127)] * 4


def test_default_board_all_white_stays_under_its_budget() -> None:
    board = default_board()
    leds = from_config(board.leds, memory_pixels(board.leds))
    leds.show({name: WHITE for name in board.leds.cells}, t=0.0)
    assert leds.estimate_ma(leds.pixels.shown(), brightness=1.0) <= board.leds.budget_amps * 1000
    assert min(leds.pixels.last) > 0  # dimmed, not dark


def test_a_cell_with_several_colours_shows_them_in_turn() -> None:
    leds = chain()
    frame = {"seat.0": [RED, GREEN, BLUE]}
    seen = []
    for t in (0.0, 0.49, 0.5, 1.0, 1.5):
        leds.show(frame, t)
        seen.append(leds.pixels.shown()[0])
    assert seen == [RED, RED, GREEN, BLUE, RED]
    assert leds.pixels.pushes == 4  # 0.49 looked like 0.0: nothing sent


def test_next_change_names_the_next_cycle_step_or_none() -> None:
    leds = chain()
    assert leds.next_change({"seat.0": [RED, GREEN]}, 0.2) == pytest.approx(0.5)
    assert leds.next_change({"seat.0": [RED, GREEN]}, 0.5) == pytest.approx(1.0)
    assert leds.next_change({"seat.0": RED, "seat.1": [BLUE, BLUE]}, 0.2) is None


def test_unknown_cell_is_a_value_error_naming_it() -> None:
    with pytest.raises(ValueError, match="unknown cell 'seat.9'"):
        chain().show({"seat.9": RED}, 0.0)


def test_bad_colour_is_a_value_error_naming_the_cell() -> None:
    with pytest.raises(ValueError, match="cell 'seat.0' has colour \\(300, 0, 0\\)"):
        chain().show({"seat.0": (300, 0, 0)}, 0.0)


def test_cell_beyond_the_chain_is_a_config_error() -> None:
    with pytest.raises(ConfigError, match="cell 'track.3' uses LED index 3, but the chain has 3 LEDs"):
        chain(count=3)


def test_off_and_close_blank_the_chain() -> None:
    leds = chain()
    pixels = leds.pixels
    leds.show({"seat.0": RED}, 0.0)
    leds.close()
    leds.close()
    assert pixels.last == bytes(12)
