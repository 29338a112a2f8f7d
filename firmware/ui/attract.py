"""The idle show (kiosk attract): after the idle time the LEDs play a colour wave until a press
wakes the board (firmware/board_loop.py starts and stops it; a press during it may be a digit
of the operator's code, firmware/ui/operator_menu.py).

    >>> from firmware.hardware.config import load_board
    >>> frame = attract_frame(load_board(), 0, "default")
    >>> frame["track.0"] == PALETTES["default"]["red"], "dice.0.0" in frame
    (True, False)
"""

from __future__ import annotations

import math
from collections.abc import Callable

from firmware.hardware.config import BoardConfig
from firmware.hardware.leds import CellColours
from firmware.loop import Timer
from firmware.ui.colours import PALETTES

STEP_S = 0.12  # one step of the wave


def attract_frame(config: BoardConfig, phase: int, palette: str) -> dict[str, CellColours]:
    """A colour wave running along every path, ladder (rungs) and the seats, rows of tiles
    pulsing (whichever game declared them), in the seat colours of `palette`; the dice stay dark."""
    colours = list(PALETTES[palette].values())[:6]
    shapes = {group.name: group.shape for group in config.layout}
    frame: dict[str, CellColours] = {}
    for name in config.leds.cells:
        group, _, rest = name.partition(".")
        index = sum(int(part) for part in rest.split("."))
        shape = shapes.get(group)
        if shape in ("path", "rungs", "seats"):
            frame[name] = colours[(index + phase) // 3 % len(colours)]
        elif shape == "rows":
            level = 0.5 + 0.5 * math.sin((phase + index) / 4)
            r, g, b = colours[(phase // 20) % len(colours)]
            frame[name] = (int(r * level), int(g * level), int(b * level))
    return frame


class AttractShow:
    """The show's step (`phase`, None when not showing) and the timer that moves it on;
    `step` is called after each move (the board renders)."""

    def __init__(
        self,
        call_later: Callable[[float, Callable[[], None]], Timer],
        call_at: Callable[[float, Callable[[], None]], Timer],
        moved: Callable[[], None],
    ) -> None:
        self._call_later, self._call_at, self._moved = call_later, call_at, moved
        self.phase: int | None = None
        self._timer: Timer | None = None

    @property
    def showing(self) -> bool:
        return self.phase is not None

    def start(self) -> None:
        self.phase = 0
        self._step()

    def stop(self) -> None:
        self.phase = None
        if self._timer is not None:
            self._timer.cancel()
            self._timer = None

    def _step(self) -> None:
        if self.phase is None:
            return
        self.phase += 1
        self._moved()
        self._timer = self._call_later(STEP_S, self._step)

    def fast_forward(self, end: float) -> None:
        """The show's phase at `end` as if every step up to it had run, without their frames
        (Board.fast_forward)."""
        timer = self._timer
        if self.phase is None or timer is None or timer.cancelled:
            return
        skipped = int((end - timer.deadline) // STEP_S)
        if skipped > 0:
            timer.cancel()
            self.phase += skipped
            self._timer = self._call_at(timer.deadline + skipped * STEP_S, self._step)
