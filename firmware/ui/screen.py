"""Screens (and, from `firmware.ui.choice`, the choice list every prompt is built from).

A screen reacts to buttons (`press`, and `back` on a short release) and draws itself; the app
routes a long BACK to the in-game menu. Only legal choices are ever put in a `Choice`.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import TYPE_CHECKING

from firmware.i18n import _
from firmware.ui.choice import Choice as Choice  # (where the screens take it from)
from firmware.ui.choice import Option as Option
from firmware.ui.colours import LedFrame
from firmware.ui.draw import Canvas, abbreviate, clip, wrap

if TYPE_CHECKING:
    from firmware.ui.intents import App

BUTTONS = ("roll", "ok", "back", "left", "right")


class Screen:
    """Base screen: nothing happens unless a subclass says so."""

    title = ""
    in_game = False  # a long BACK opens the in-game menu instead of the main menu
    choice: Choice | None = None  # the options the cursor is on, for a screen that offers some

    def refresh(self, app: App) -> None:
        """Re-read what the screen offers after the app's state changed (default: nothing to re-read)."""

    def relabel(self, app: App) -> None:
        """Re-read labels built in advance, in the language now active (default: none built)."""

    def press(self, app: App, button: str) -> bool:
        """A short press of ROLL, OK, LEFT or RIGHT, or a short BACK (on release). Returns
        whether the press did anything: the board says "not now" when it did not."""
        return False

    def draw(self, canvas: Canvas) -> None:
        canvas.title(self.title)

    def scene(self, app: App, frame: LedFrame) -> None:
        """Add this screen's cells to the LED frame (default: leave the frame as it is)."""


class MenuScreen(Screen):
    """A vertical list: LEFT/RIGHT (and ROLL, as "down") move, OK picks, BACK leaves."""

    def __init__(
        self,
        title: str,
        options: Sequence[Option],
        on_pick: Callable[[App, Option], None],
        on_back: Callable[[App], None] | None = None,
        index: int = 0,
    ) -> None:
        self.title = title
        self.choice: Choice = Choice(list(options), index)
        self.on_pick = on_pick
        self.on_back = on_back

    def press(self, app: App, button: str) -> bool:
        if button in ("left", "right"):
            return self.choice.move(button)
        if button == "roll":
            return self.choice.move("right")
        if button == "ok":
            self.on_pick(app, self.choice.current)
            return True
        if button == "back" and self.on_back is not None:
            self.on_back(app)
            return True
        if button == "back" and len(app.stack) > 1:
            app.pop()
            return True
        return False

    def draw(self, canvas: Canvas) -> None:
        canvas.title(self.title, self.choice.position())
        options, index = self.choice.options, self.choice.index
        visible = max(1, canvas.lines - 1)
        # With the large font, details (a setting's value) take the small one if any would not
        # fit beside its label otherwise: the same for every line.
        chars = canvas.columns_in(canvas.width)
        cramped = any(o.detail and len(o.label) + len(o.detail) + 3 > chars for o in options)
        detail_font = "small" if cramped and canvas.body.name != "small" else None
        # A wide panel lists a long menu in two columns (a page at a time), not scrolled, when
        # every option fits a column's one line.
        half = canvas.width // 2
        columns = (
            2
            if (
                canvas.size_class == "wide"
                and len(options) > visible
                and all(option_rows(canvas, half, o, detail_font) == 1 for o in options)
            )
            else 1
        )
        if columns == 2:
            per_page = visible * columns
            top = index // per_page * per_page
            for slot, option in enumerate(options[top : top + per_page]):
                row, column = slot % visible + 1, slot // visible
                draw_option(canvas, row, column * half, half, option, top + slot == index, detail_font)
            return
        # One column, scrolled: an option too long for a line takes two.
        heights = [option_rows(canvas, canvas.width, o, detail_font) for o in options]
        top, end = window(heights, index, visible)
        row = 1
        for slot in range(top, end):
            draw_option(canvas, row, 0, canvas.width, options[slot], slot == index, detail_font, heights[slot])
            row += heights[slot]


def window(heights: Sequence[int], index: int, visible: int) -> tuple[int, int]:
    """The options [top, end) shown in `visible` rows, option i taking heights[i] rows: the
    selected `index` with up to half the rows above it, the rest below, more above at the end.

    >>> window([1] * 10, 6, 5), window([1, 2, 1, 2, 1], 4, 5)
    ((4, 9), (2, 5))
    """
    top, end, used = index, index + 1, min(visible, heights[index])
    while top > 0 and used - heights[index] + heights[top - 1] <= visible // 2 and used + heights[top - 1] <= visible:
        top -= 1
        used += heights[top]
    while end < len(heights) and used + heights[end] <= visible:
        used += heights[end]
        end += 1
    while top > 0 and used + heights[top - 1] <= visible:
        top -= 1
        used += heights[top]
    return top, end


def _label_room(canvas: Canvas, width: int, detail: str, detail_font: str | None) -> int:
    """Characters of the body font left for a label beside `detail` in `width` pixels."""
    if not detail:
        return canvas.columns_in(width)
    if detail_font is not None:
        small = canvas.font(detail_font)
        return canvas.columns_in(width - small.width(detail) - small.advance)
    return canvas.columns_in(width) - len(detail) - 1


def option_rows(canvas: Canvas, width: int, option: Option, detail_font: str | None = None) -> int:
    """1 if the option's cursor, label and detail fit a line of `width` pixels (a label without
    detail may take the small font on a large-font panel), else 2."""
    label = "> " + option.label
    if len(label) <= _label_room(canvas, width, option.detail, detail_font):
        return 1
    if not option.detail and canvas.body.name != "small" and len(label) <= canvas.columns_in(width, "small"):
        return 1
    return 2


def draw_option(
    canvas: Canvas,
    row: int,
    x: int,
    width: int,
    option: Option,
    selected: bool,
    detail_font: str | None = None,
    rows: int = 1,
) -> None:
    """One menu option from line `row`: a cursor, the label, the detail (e.g. a setting's value)
    at the right, in `detail_font` (default: the body font). With `rows` = 2 the label is
    word-wrapped onto a second line, which also holds the detail."""
    if rows == 2:
        parts = wrap(option.label, canvas.columns_in(width) - 2)
        if len(parts) == 1 or len(parts[0]) + 2 > canvas.columns_in(width):  # one long word: stems
            parts = [abbreviate(option.label, canvas.columns_in(width) - 2)]
        _option_line(canvas, row, x, width, ("> " if selected else "  ") + parts[0], "", None)
        rest = " ".join(parts[1:])
        if rest or option.detail:
            _option_line(canvas, row + 1, x, width, "  " + rest, option.detail, detail_font)
        return
    _option_line(canvas, row, x, width, ("> " if selected else "  ") + option.label, option.detail, detail_font)


def _option_line(
    canvas: Canvas, row: int, x: int, width: int, label: str, detail: str, detail_font: str | None
) -> None:
    y = row * canvas.line_height
    chars = canvas.columns_in(width)
    detail = detail[: max(0, chars - 4)]
    room = chars - (len(detail) + 1 if detail else 0)
    face, dy = detail_font, 0
    if detail and face is not None:
        small = canvas.font(face)
        room = canvas.columns_in(width - small.width(detail) - small.advance)
        dy = canvas.body.baseline - small.baseline + canvas.body.top - small.top  # baselines level
    elif detail and len(label) <= room:  # one text, the detail right-aligned by spaces
        label, detail = f"{label:<{chars - len(detail)}}{detail}", ""
    region = (x, y + canvas.body.top, x + width - 1, y + canvas.body.top + canvas.body.cell[1] - 1)
    label_font, label_dy = None, 0
    if not detail and len(label) > chars and canvas.body.name != "small":
        # Too long for the large font: the small one, on the same baseline, before clipping.
        small = canvas.font("small")
        label_font, chars = "small", canvas.columns_in(width, "small")
        label_dy = canvas.body.baseline - small.baseline + canvas.body.top - small.top
    # Beside a value, a label that does not fit is cut to stems (deliberate; the value stays whole).
    shown = abbreviate(label, room) if detail else clip(label, chars)
    record = canvas.text(x, y + label_dy, shown, font=label_font or canvas.body.name, region=region)
    record.clipped = record.clipped or not detail and shown != label
    if detail:
        canvas.text(
            x + width - canvas.measure(detail, face), y + dy, detail, font=face or canvas.body.name, region=region
        )


class TextScreen(Screen):
    """Read-only pages (rules, records): LEFT/RIGHT scroll, OK or BACK close."""

    def __init__(self, title: str, text: str) -> None:
        self.title = title
        self.text = text
        self.top = 0
        self.last_top: int | None = None  # the top of the last page, known once drawn

    def _lines(self, canvas_columns: int) -> list[str]:
        return wrap(self.text, canvas_columns)

    def scroll(self, to: int) -> bool:
        """Put `to` at the top, within the pages (as drawn last); whether the view moved."""
        top = max(0, to if self.last_top is None else min(to, self.last_top))
        moved, self.top = top != self.top, top
        return moved

    def press(self, app: App, button: str) -> bool:
        if button in ("ok", "back"):
            app.pop()
            return True
        if button in ("right", "roll"):
            return self.scroll(self.top + 1)
        if button == "left":
            return self.scroll(self.top - 1)
        return False

    def draw(self, canvas: Canvas) -> None:
        lines = self._lines(canvas.columns)
        visible = canvas.lines - 1
        self.last_top = max(0, len(lines) - visible)
        self.top = min(self.top, self.last_top)
        pages = f"{self.top + 1}/{max(1, len(lines) - visible + 1)}"
        canvas.title(self.title, pages)
        for row, text in enumerate(lines[self.top : self.top + visible], start=1):
            canvas.line(row, text)


class ConfirmScreen(MenuScreen):
    """A yes/no question; "No" is the default so a stray OK never destroys anything."""

    def __init__(self, question: str, on_yes: Callable[[App], None]) -> None:
        def pick(app: App, option: Option) -> None:
            app.pop()
            if option.value:
                on_yes(app)

        super().__init__(question, [Option(_("No"), False), Option(_("Yes"), True)], pick)

    def draw(self, canvas: Canvas) -> None:
        """The question (wrapped, as many lines as it needs and the answers leave), underlined,
        then the answers."""
        lines = wrap(self.title, canvas.columns)
        room = max(1, canvas.lines - 3)
        if len(lines) > room:
            lines = lines[: room - 1] + [clip(" ".join(lines[room - 1 :]), canvas.columns)]
        for row, text in enumerate(lines):
            canvas.line(row, text, critical=True)
        bottom = len(lines) * canvas.line_height - 1
        canvas.draw.line((0, bottom, canvas.width - 1, bottom), fill=1)
        for index, option in enumerate(self.choice.options):
            draw_option(canvas, len(lines) + index, 0, canvas.width, option, index == self.choice.index)
