"""The choice list every prompt is built from: the options, and the cursor LEFT/RIGHT move.
Only legal choices are ever put in a `Choice`. Nothing here knows the screens or the app, so
the app's view of a screen (`firmware.ui.intents.ScreenLike`) may name it."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any


@dataclass(frozen=True)
class Option:
    """One thing the player may pick: what it says, and the value it stands for."""

    label: str
    # Any: what the option stands for (a step, a name, a pair...), read by the screen that offered it
    value: Any = None
    detail: str = ""


@dataclass
class Choice:
    """LEFT/RIGHT cycle through `options` (wrapping), OK picks `current`."""

    options: Sequence[Option]
    index: int = 0

    def __post_init__(self) -> None:
        if not self.options:
            raise ValueError("a choice needs at least one option")
        self.index %= len(self.options)

    @property
    def current(self) -> Option:
        return self.options[self.index]

    def move(self, button: str) -> bool:
        if button not in ("left", "right") or len(self.options) < 2:
            return False
        self.index = (self.index + (1 if button == "right" else -1)) % len(self.options)
        return True

    def position(self) -> str:
        return f"{self.index + 1}/{len(self.options)}"

    def pick(self) -> bool:
        """OK: True when it picks `current`; a choice made in stages takes OK to go on instead."""
        return True

    def jump(self, index: int) -> None:
        """Put the cursor on option `index`, ready to be picked (a hint)."""
        self.index = index % len(self.options)
