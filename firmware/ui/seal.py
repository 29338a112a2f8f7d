"""The dice seal players take part in (docs/dice.md): before the first roll of a game with the
board's own random dice, the board shows its seal and asks for the table's word — a few presses
of LEFT, RIGHT and ROLL by anyone at the table (BACK takes the last one back), OK when done (or
at once, to skip). The word goes into every roll's derivation (hmac-sha256-v2): the board sealed
its seed before anyone said the word, so it cannot have picked a seed that suits it.

The seal is the first 32 hex digits (128 bits) of the commitment, on two lines of four groups
(`firmware.dice.seal_lines`): the same two lines on the word screen, at the bottom of the game's
first screen until the first roll (`seal_bar`), in the game menu's "Dice seal" all game and in
`xtraboard verify`'s output, so that what a player wrote down or photographed compares line by line.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from firmware.i18n import _
from firmware.ui.draw import Canvas, wrap
from firmware.ui.screen import Screen, TextScreen

if TYPE_CHECKING:
    from firmware.ui.intents import App

WORD_KEYS = {"left": "L", "right": "R", "roll": "D"}  # what a press adds to the word
MAX_WORD = 8  # presses: 3^8 = 6,561 words, more than enough for a seed chosen in advance


class WordScreen(Screen):
    """The seal, and the table's word as it is typed. It is no in-game screen: bots wait."""

    def __init__(self, app: App) -> None:
        self.app = app
        self.word = ""

    @property
    def title(self) -> str:  # type: ignore[override]
        return _("Dice seal")

    def press(self, app: App, button: str) -> bool:
        word = self.word
        if button in WORD_KEYS:
            if len(self.word) < MAX_WORD:
                self.word += WORD_KEYS[button]
        elif button == "back":
            self.word = self.word[:-1]
        elif button == "ok":
            app.pop()
            app.set_word(self.word or None)
            return True
        return self.word != word  # a full word, or BACK with none, does nothing

    def draw(self, canvas: Canvas) -> None:
        """The title, the seal's two lines, the word, then the help on the lines left; where the
        help needs more lines than are left (a long translation), only what OK does."""
        session = self.app.session
        seal = session.seal if session is not None else None
        canvas.title(self.title)
        # Translators: the word the players make by presses; {word} is e.g. "LRRD" ("-": none yet).
        lines = [*(seal or ()), _("Word: {word}").format(word=self.word or "-")]
        room = canvas.lines - 1 - len(lines)
        # Translators: the help under the word; the default display holds it on two lines of 21 columns.
        help_text = _("LEFT RIGHT ROLL: a word; OK: done") if self.word else _("LEFT RIGHT ROLL: a word; OK: skip")
        help_lines = wrap(help_text, canvas.columns)
        if len(help_lines) > room:
            help_lines = wrap(_("OK: done") if self.word else _("OK: skip"), canvas.columns)
        for row, text in enumerate(lines + help_lines, start=1):
            canvas.line(row, text, critical=row <= len(seal or ()))  # the seal is never cut


def seal_bar(app: App) -> tuple[str, ...] | None:
    """The seal's lines for the bottom of the game's first screen, until the first roll."""
    session = app.session
    if session is None or session.seal is None or session.over or session.rolls_made():
        return None
    return session.seal


def seal_row(canvas: Canvas, count: int) -> int | None:
    """The line the seal's bar of `count` lines ends on: the lowest below the title whose
    lines up to it no "who is asked" text touches (the seal never covers who acts); None for
    the last line, where `bottom_bar` also covers what a screen draws below it (LEVEL X's own
    spacing, EXTRA!'s sheet), so no half line peeks out."""
    free = set(canvas.free_rows())
    for last in range(canvas.lines - 1, count - 1, -1):
        if all(row in free for row in range(last - count + 1, last + 1)):
            return None if last == canvas.lines - 1 else last
    return None


class SealScreen(TextScreen):
    """The game menu's "Dice seal": a text page whose seal lines stay whole (in the small font
    where the body font cannot hold a line of four groups), the rest wrapped."""

    def __init__(self, title: str, text: str, seal: tuple[str, ...]) -> None:
        super().__init__(title, text)
        self.seal = seal

    def _lines(self, canvas_columns: int) -> list[str]:
        out: list[str] = []
        for paragraph in self.text.split("\n"):
            out += [paragraph] if paragraph in self.seal else wrap(paragraph, canvas_columns)
        return out


def seal_screen(app: App) -> TextScreen:
    """The game menu's "Dice seal": the seal as it was shown before the first roll, the word,
    the scheme, and how to check it."""
    session = app.session
    dice = session.header().get("dice") if session is not None else None
    if dice is None or session is None or session.seal is None:
        return TextScreen(_("Dice seal"), _("This game's dice make no claim: they are scripted."))
    word = dice.get("word")
    text = "\n".join(
        [
            *session.seal,
            _("Word: {word}").format(word=word) if word is not None else _("Word: none"),
            _("Scheme: {scheme}").format(scheme=dice["scheme"]),
            _(
                "The seal is the first 32 hex digits of the SHA-256 of the seed. Once the game is over the seed"
                " is in the record: xtraboard verify --seal prints the same seal and checks every roll."
            ),
        ]
    )
    return SealScreen(_("Dice seal"), text, session.seal)
