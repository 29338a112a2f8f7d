"""The dice seal players take part in (docs/dice.md). The board shows its seal before the first
roll on a page of its own, where ROLL plays (the first roll, when a person is to roll) and any
other press goes to the game. With the setting "Dice word: ask" the page also offers the table
a word that mixes the dice — a few presses of LEFT and RIGHT by anyone at the table (BACK takes
the last one back); OK or ROLL end it (at once: no word). The word goes into every roll's
derivation (hmac-sha256-v2): the board sealed its seed before anyone said the word, so it
cannot have picked a seed that suits it.

The seal is the first 32 hex digits (128 bits) of the commitment, on two lines of four groups
(`firmware.dice.seal_lines`): the same two lines on the seal's page, under a "Dice seal" label
on the game's first screen until the first roll where its lines are empty (`seal_bar`: it
covers nothing), in the game menu's "Dice seal" all game and in `xtraboard verify`'s output, so
that what a player wrote down or photographed compares line by line.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from firmware.i18n import _
from firmware.ui.draw import Canvas, wrap
from firmware.ui.screen import Screen, TextScreen

if TYPE_CHECKING:
    from firmware.ui.intents import App

WORD_KEYS = {"left": "L", "right": "R"}  # what a press adds to the word (ROLL plays: never a letter)
MAX_WORD = 12  # presses: 2^12 = 4,096 words, more than enough against a seed chosen in advance


class WordScreen(Screen):
    """The seal before the first roll, on its own page (it covers nothing): with `ask`, the table's
    word offered too, as it is made. Every press goes on to the game, ROLL with the first roll; a
    press that is no letter gives the word as it stands. It is no in-game screen: bots wait."""

    def __init__(self, app: App, ask: bool = True) -> None:
        self.app = app
        self.ask = ask
        self.word = ""

    @property
    def title(self) -> str:  # type: ignore[override]
        # Translators: the page that offers the table a word that mixes the dice (said to children too).
        return _("Mix the dice?") if self.ask else _("Dice seal")

    def press(self, app: App, button: str) -> bool:
        word = self.word
        if self.ask and button in WORD_KEYS:
            if len(self.word) < MAX_WORD:
                self.word += WORD_KEYS[button]
        elif self.ask and button == "back":
            self.word = self.word[:-1]
        else:  # OK, ROLL, and without `ask` any press: on to the game
            app.pop()
            app.set_word(self.word or None)
            if button == "roll":  # the press a newcomer makes to play: it rolls, as it says
                app.screen.press(app, "roll")
            return True
        return self.word != word  # a full word, or BACK with none, does nothing

    def draw(self, canvas: Canvas) -> None:
        """The title, the seal's two lines (critical: never cut), the word, then the help on the
        lines left; where the help needs more lines than are left (a long translation or a small
        display), only what ROLL does."""
        session = self.app.session
        seal = session.seal if session is not None else None
        canvas.title(self.title)
        lines = [*(seal or ())]
        if self.ask:
            # Translators: the word made by presses, e.g. "LRRL" ("-": none yet); with 12 letters in 21 columns.
            lines.append(_("Mix: {word}").format(word=self.word or "-"))
            # Translators: the help under the word, said to children too; the default display holds it
            # on two lines of 21 columns.
            help_text = _("Press LEFT and RIGHT to mix. ROLL: play!")
        else:
            # Translators: under the seal, said to children too; the default display holds it on three lines.
            help_text = _("These numbers lock the dice: fair for all. ROLL: play!")
        room = canvas.lines - 1 - len(lines)
        help_lines = wrap(help_text, canvas.columns)
        if len(help_lines) > room:
            help_lines = wrap(_("ROLL: play!"), canvas.columns)
        for row, text in enumerate(lines + help_lines, start=1):
            canvas.line(row, text, critical=row <= len(seal or ()))  # the seal is never cut


def seal_bar(app: App) -> tuple[str, ...] | None:
    """The seal's lines, labelled, for the game's first screen until the first roll."""
    session = app.session
    if session is None or session.seal is None or session.over or session.rolls_made():
        return None
    # Translators: the label over the seal's two lines of hex digits on the game's first screen.
    return (_("Dice seal"), *session.seal)


def draw_seal_bar(canvas: Canvas, lines: tuple[str, ...]) -> int | None:
    """`lines` on the lowest text lines below the title where nothing is drawn at all (the seal
    covers nothing: not who acts, not a score sheet, not the legend); the first line used, or
    None (drawn nowhere) where the screen leaves no such room — the game menu's "Dice seal"
    shows it then."""
    face = canvas.body if all(canvas.measure(line) <= canvas.width for line in lines) else canvas.font("small")
    if any(canvas.measure(line, face.name) > canvas.width for line in lines):
        return None
    first = seal_row(canvas, len(lines))
    if first is None:
        return None
    pitch = canvas.line_height
    for row, line in enumerate(lines, start=first):
        y = row * pitch + (pitch - face.line_height) // 2
        canvas.text(0, y, line, font=face.name, critical=row > first, secondary=row == first)
    return first


def seal_row(canvas: Canvas, count: int) -> int | None:
    """The first of the lowest `count` consecutive text lines below the title whose pixels are
    all dark (a game's own spacing and drawings count, not only its texts), or None."""
    pitch = canvas.line_height

    def empty(row: int) -> bool:
        return canvas.image.crop((0, row * pitch, canvas.width, (row + 1) * pitch)).getbbox() is None

    for first in range(canvas.lines - count, 0, -1):
        if all(empty(row) for row in range(first, first + count)):
            return first
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
