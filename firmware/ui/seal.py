"""The dice seal players take part in (docs/dice.md): before the first roll of a game with the
board's own random dice, the board shows its seal and asks for the table's word — a few presses
of LEFT, RIGHT and ROLL by anyone at the table (BACK takes the last one back), OK when done (or
at once, to skip). The word goes into every roll's derivation (hmac-sha256-v2): the board sealed
its seed before anyone said the word, so it cannot have picked a seed that suits it.

The seal and the word stay on the game's first screen until the first roll (`seal_line`) and in
the game menu ("Dice seal") all game.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

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
        session = self.app.session
        seal = session.seal if session is not None else None
        canvas.title(self.title)
        # Translators: the word the players make by presses; {word} is e.g. "LRRD" ("-": none yet).
        lines = [_("Seal {seal}").format(seal=seal), _("Word: {word}").format(word=self.word or "-")]
        help_text = (
            _("LEFT RIGHT ROLL: a word for the dice; OK: done")
            if self.word
            else _("LEFT RIGHT ROLL: a word for the dice; OK: skip")
        )
        lines += wrap(help_text, canvas.columns)
        for row, text in enumerate(lines[: canvas.lines - 1], start=1):
            canvas.line(row, text)


def seal_line(app: Any) -> str | None:
    """The seal (and word) as one line for the game's first screen, until the first roll."""
    session = app.session
    if session is None or session.seal is None or session.over or session.rolls_made():
        return None
    if session.word is None:
        return _("Seal {seal}").format(seal=session.seal)
    return _("Seal {seal} word {word}").format(seal=session.seal, word=session.word)


def seal_screen(app: App) -> TextScreen:
    """The game menu's "Dice seal": the whole commitment, the scheme and the word."""
    session = app.session
    header = session.header() if session is not None else {}
    dice = header.get("dice")
    if dice is None:
        text = _("This game's dice make no claim: they are scripted.")
    else:
        commit = dice["commit"].removeprefix("sha256:")
        groups = " ".join(commit[i : i + 8] for i in range(0, len(commit), 8))
        word = dice.get("word")
        text = "\n".join(
            [
                _("Word: {word}").format(word=word) if word is not None else _("Word: none"),
                _("Sealed before the game (SHA-256 of the seed):"),
                groups,
                _("Scheme: {scheme}").format(scheme=dice["scheme"]),
                _("The seed is in the record when the game is over: xtraboard verify checks every roll."),
            ]
        )
    return TextScreen(_("Dice seal"), text)
