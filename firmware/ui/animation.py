"""Animations: frames shown one after another on the LEDs (and a caption on the display), then
a callback. The board app runs them; the per-game UI modules build their frames."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING

from firmware.ui.colours import LedFrame

if TYPE_CHECKING:
    from firmware.pace import Timer

Overlay = LedFrame  # the cells a frame lights over the screens' (an animation's name for it)


@dataclass
class Frame:
    """One frame of an animation: how long it shows, LED cells it overrides, a caption."""

    seconds: float
    leds: Overlay
    caption: str = ""


class Animation:
    def __init__(self, frames: Sequence[Frame], then: Callable[[], None]) -> None:
        self.frames = list(frames)
        self.index = 0
        self.then = then
        self.timer: Timer | None = None

    @property
    def current(self) -> Frame:
        return self.frames[self.index]
