"""Screens and the choice list every prompt is built from.

A screen reacts to buttons (`press`, and `back` on a short release) and draws itself; the app
routes a long BACK to the in-game menu. Only legal choices are ever put in a `Choice`.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from firmware.i18n import _
from firmware.ui.draw import Canvas

if TYPE_CHECKING:
    from firmware.ui.intents import App

BUTTONS = ("roll", "ok", "back", "left", "right")


@dataclass(frozen=True)
class Option:
    """One thing the player may pick: what it says, and the value it stands for."""

    label: str
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


class Screen:
    """Base screen: nothing happens unless a subclass says so."""

    title = ""
    in_game = False  # a long BACK opens the in-game menu instead of the main menu

    def press(self, app: App, button: str) -> None:
        """A short press of ROLL, OK, LEFT or RIGHT, or a short BACK (on release)."""

    def draw(self, canvas: Canvas) -> None:
        canvas.title(self.title)

    def scene(self, app: App, frame: dict[str, Any]) -> None:
        """Add this screen's cells to the LED frame (default: leave the frame as it is)."""


class MenuScreen(Screen):
    """A vertical list: LEFT/RIGHT (and ROLL, as "down") move, OK picks, BACK leaves."""

    def __init__(self, title: str, options: Sequence[Option], on_pick: Callable[[App, Option], None],
                 on_back: Callable[[App], None] | None = None, index: int = 0) -> None:
        self.title = title
        self.choice = Choice(list(options), index)
        self.on_pick = on_pick
        self.on_back = on_back

    def press(self, app: App, button: str) -> None:
        if button in ("left", "right"):
            self.choice.move(button)
        elif button == "roll":
            self.choice.move("right")
        elif button == "ok":
            self.on_pick(app, self.choice.current)
        elif button == "back":
            if self.on_back is not None:
                self.on_back(app)
            elif len(app.stack) > 1:
                app.pop()

    def draw(self, canvas: Canvas) -> None:
        canvas.title(self.title, self.choice.position())
        visible = canvas.lines - 1
        top = min(max(0, self.choice.index - visible // 2), max(0, len(self.choice.options) - visible))
        for row, option in enumerate(self.choice.options[top: top + visible], start=1):
            selected = top + row - 1 == self.choice.index
            text = ("> " if selected else "  ") + option.label
            if option.detail:
                text = f"{text:<{canvas.columns - len(option.detail)}}{option.detail}"
            canvas.line(row, text)


class TextScreen(Screen):
    """Read-only pages (rules, records): LEFT/RIGHT scroll, OK or BACK close."""

    def __init__(self, title: str, text: str) -> None:
        self.title = title
        self.text = text
        self.top = 0

    def _lines(self, canvas_columns: int) -> list[str]:
        from firmware.ui.draw import wrap

        return wrap(self.text, canvas_columns)

    def press(self, app: App, button: str) -> None:
        if button in ("ok", "back"):
            app.pop()
        elif button in ("right", "roll"):
            self.top += 1
        elif button == "left":
            self.top = max(0, self.top - 1)

    def draw(self, canvas: Canvas) -> None:
        lines = self._lines(canvas.columns)
        visible = canvas.lines - 1
        self.top = min(self.top, max(0, len(lines) - visible))
        pages = f"{self.top + 1}/{max(1, len(lines) - visible + 1)}"
        canvas.title(self.title, pages)
        for row, text in enumerate(lines[self.top: self.top + visible], start=1):
            canvas.line(row, text)


class ConfirmScreen(MenuScreen):
    """A yes/no question; "No" is the default so a stray OK never destroys anything."""

    def __init__(self, question: str, on_yes: Callable[[App], None]) -> None:
        def pick(app: App, option: Option) -> None:
            app.pop()
            if option.value:
                on_yes(app)

        super().__init__(question, [Option(_("No"), False), Option(_("Yes"), True)], pick)
