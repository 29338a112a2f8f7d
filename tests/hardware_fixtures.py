"""Shared helpers for the hardware tests: the default board, a hand-driven clock."""

from __future__ import annotations

from dataclasses import replace

from firmware.loop import FakeClock as LoopFakeClock
from firmware.hardware.config import BoardConfig, ButtonsConfig, Cell, load_board


class FakeClock(LoopFakeClock):
    """The loop's fake clock, starting at 100 s (no sleeps, no tolerances)."""

    def __init__(self, start: float = 100.0) -> None:
        super().__init__(start)

    def advance(self, seconds: float) -> float:
        self.now += seconds
        return self.now


def default_board() -> BoardConfig:
    """hardware/board.toml as the loader reads it."""
    return load_board()


def board_with(
    buttons: ButtonsConfig | None = None,
    cells: dict[str, Cell] | None = None,
    **leds_changes: object,
) -> BoardConfig:
    """The default board with its buttons, cells or [leds] keys replaced."""
    board = default_board()
    leds = replace(board.leds, **leds_changes)
    if cells is not None:
        leds = replace(leds, cells=cells)
    return replace(board, buttons=buttons or board.buttons, leds=leds)
