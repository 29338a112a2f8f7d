"""Entering a player's name with the five buttons: one screen any setup uses (a seat here, a
seat at another board's table later).

A ring of choices that LEFT/RIGHT walk: the names given (the most recent first: OK picks one),
a short alphabet (OK adds the letter: the first of a word upper case, the rest lower case), and
"Done". ROLL is done at once, BACK deletes the last letter (with none left it leaves, choosing
nothing). The name is checked as every kept name is (firmware/players.py): a seat colour's name
or one already at the table is refused on the screen, saying why.
"""

from __future__ import annotations

from collections.abc import Callable, Collection, Sequence
from typing import TYPE_CHECKING

from firmware.i18n import _
from firmware.players import MAX_LENGTH, SEAT_COLOURS, PlayerNameError, check_name, seat_colour_names
from firmware.ui.colours import LedFrame
from firmware.ui.draw import LINE_HEIGHT, Canvas
from firmware.ui.screen import Screen

if TYPE_CHECKING:
    from firmware.ui.intents import App

LETTERS = "ABCDEFGHIJKLMNOPQRSTUVWXYZÄÖÜÉÈÇ-"
DONE = "done"


class NameEntryScreen(Screen):
    """`done(app, name)` gets the name picked or entered (this screen already closed); `names`
    are offered first, `taken` (another seat's names) refused; `lights` draws the LEDs (the
    seat being named)."""

    def __init__(
        self,
        title: str,
        done: Callable[[App, str], None],
        names: Sequence[str] = (),
        taken: Collection[str] = (),
        lights: Callable[[App, LedFrame], None] | None = None,
    ) -> None:
        self.title = title
        self.done = done
        self.names = [n for n in names if n.lower() not in {t.lower() for t in taken}]
        self.taken = {t.lower() for t in taken}
        self.lights = lights
        self.items: list[tuple[str, str]] = [("name", n) for n in self.names]
        self.items += [("letter", c) for c in LETTERS] + [(DONE, "")]
        self.index = 0
        self.text = ""
        self.refused = ""  # why the last name was refused, shown until the next press

    @property
    def item(self) -> tuple[str, str]:
        return self.items[self.index]

    def letter(self, char: str) -> str:
        """`char` as it is added: upper case to begin a word, else lower case."""
        return char if not self.text or self.text[-1] in " -" else char.lower()

    def press(self, app: App, button: str) -> bool:
        before = (self.index, self.text, self.refused)
        self.refused = ""
        kind, value = self.item
        if button in ("left", "right"):
            self.index = (self.index + (1 if button == "right" else -1)) % len(self.items)
        elif button == "ok" and kind == "name":
            return self._finish(app, value)
        elif button == "ok" and kind == "letter":
            if len(self.text) < MAX_LENGTH:
                self.text += self.letter(value)
        elif button == "roll" or button == "ok":  # ROLL anywhere, OK on "Done"
            if self.text:
                return self._finish(app, self.text)
            self.refused = _("Enter a letter first")
        elif button == "back":
            if not self.text:
                app.pop()
                return True
            self.text = self.text[:-1]
        return (self.index, self.text, self.refused) != before

    def _finish(self, app: App, name: str) -> bool:
        refused = self.refusal(name)
        if refused:
            self.refused = refused
            return True
        app.pop()
        self.done(app, check_name(name))
        return True

    def refusal(self, name: str) -> str:
        """Why `name` cannot be this seat's, in a few words ("" if it can)."""
        text = " ".join(name.split())
        if text.lower() in seat_colour_names(SEAT_COLOURS):
            # Translators: the name entry refuses "Red" (unnamed seats are called by their colour).
            return _("A colour's name")
        if text.lower() in self.taken:
            return _("Already at the table")
        try:
            check_name(text)
        except PlayerNameError:
            return _("Not a name")
        return ""

    def strip(self, columns: int) -> str:
        """The line of choices around the cursor: the letters near it with the current one in
        brackets ("K L [M] N O"), or a name or "Done" between arrows."""
        kind, value = self.item
        if kind == "name":
            return f"< {value} >" if len(value) + 4 <= columns else value
        if kind == DONE:
            # Translators: the name entry's last choice: the name is complete.
            done = _("Done")
            return f"< {done} >"
        shown = f"[{self.letter(value)}]"
        letters = [i for i, (k, _v) in enumerate(self.items) if k == "letter"]
        at = letters.index(self.index)
        for step in range(1, len(letters)):
            left = self.letter(self.items[letters[(at - step) % len(letters)]][1])
            right = self.letter(self.items[letters[(at + step) % len(letters)]][1])
            wider = f"{left} {shown} {right}"
            if len(wider) > columns or 2 * step >= len(letters):
                break
            shown = wider
        return shown

    def draw(self, canvas: Canvas) -> None:
        canvas.title(self.title, f"{len(self.text)}/{MAX_LENGTH}")
        # A line between the name and the choices where the panel has room (the cursor "_"
        # would touch the big font's brackets below it).
        row = 3 if (canvas.height - 4 * canvas.line_height) // LINE_HEIGHT >= 2 else 2
        if self.refused:  # over the choices, wrapped if need be, until the next press
            canvas.block(row, self.refused, rows=row - 1)
        else:
            canvas.line(1, self.text + "_" if len(self.text) < MAX_LENGTH else self.text, critical=True)
            canvas.line(row, self.strip(canvas.columns), align="center", critical=True)
        kind = self.item[0]
        # Translators: the name entry's help lines (buttons' names as printed on the board);
        # the forms after each are what is shown where the first does not fit.
        first = {
            "name": (_("OK take this name"), "OK"),
            "letter": (_("OK add  ROLL done"), "OK +  ROLL ="),
            DONE: (_("OK done"), "OK ="),
        }[kind]
        help_lines = [first, (_("BACK delete  <> move"), _("BACK delete"), "BACK <")]
        room = (canvas.height - (row + 1) * canvas.line_height) // LINE_HEIGHT
        if room > 0:
            canvas.footer(help_lines[:room])

    def scene(self, app: App, frame: LedFrame) -> None:
        if self.lights is not None:
            self.lights(app, frame)
