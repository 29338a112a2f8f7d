"""The one-line legend of what the buttons do on the current screen (a long ROLL shows it).

Short words, so a line fits 21 columns (128 px): `<>` is LEFT/RIGHT. docs/board.md has the
long form, screen by screen, and tests/test_board_doc.py checks it against the screens.

    >>> from firmware.ui.screen import TextScreen
    >>> legend(TextScreen("Rules", "..."))
    '<> scroll  OK close'
"""

from __future__ import annotations

from typing import Any

# By screen class (the first of the class's bases found here applies).
LEGENDS: dict[str, str] = {
    "MainMenu": "<> move  OK pick",
    "SeatScreen": "<> who ROLL:colour OK",
    "ConfirmScreen": "<> no/yes  OK pick",
    "SettingsScreen": "<> move  OK change",
    "GameMenu": "<> move  OK  BACK back",
    "MenuScreen": "<> move  OK  BACK back",
    "TextScreen": "<> scroll  OK close",
    "FaceEntryScreen": "<> face  OK next",
    "ResultScreen": "OK: main menu",
}
ROLL_WHILE_DECIDING = {"exxtra": "again", "levelx": "scores", "extra": "sheets"}


def legend(screen: Any, app: Any = None) -> str:
    """The legend for `screen`; the play screen's depends on what the game waits for."""
    if type(screen).__name__ == "PlayScreen" and app is not None and app.session is not None:
        return _play(screen, app.session)
    for cls in type(screen).__mro__:
        if cls.__name__ in LEGENDS:
            return LEGENDS[cls.__name__]
    return "hold BACK: menu"


def _play(play: Any, session: Any) -> str:
    if session.over:
        return "OK: result"
    if session.pending_bot():
        return "bots play  hold BACK"
    if session.awaiting_roll:
        return "ROLL: roll the dice"
    roll = ROLL_WHILE_DECIDING.get(session.game.name, "")
    return f"<> OK ROLL:{roll}" if roll else "<> choose  OK pick"
