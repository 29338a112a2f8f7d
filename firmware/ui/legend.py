"""The one-line legend of what the buttons do on the current screen (a long ROLL shows it).

Short words, so a line fits 21 columns (128 px): `<>` is LEFT/RIGHT. docs/board.md has the
long form, screen by screen, and tests/test_board_doc.py checks it against the screens.

    >>> from firmware.ui.screen import TextScreen
    >>> legend(TextScreen("Rules", "..."))
    '<> scroll  OK close'
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from firmware.i18n import N_, _
from firmware.ui.gameview import game_view

if TYPE_CHECKING:
    from firmware.table import Table
    from firmware.ui.intents import App, ScreenLike

# By screen class (the first of the class's bases found here applies); translated when shown.
# Translators: the legends are one display line (21 columns); "<>" stands for LEFT/RIGHT.
LEGENDS: dict[str, str] = {
    "MainMenu": N_("<> move  OK pick"),
    "SeatScreen": N_("<> who ROLL:colour OK"),
    "ConfirmScreen": N_("<> no/yes  OK pick"),
    "SettingsScreen": N_("<> move  OK change"),
    "GameMenu": N_("<> move  OK  BACK back"),
    "MenuScreen": N_("<> move  OK  BACK back"),
    "RulesScreen": N_("<> page  OK close"),
    "GameLogScreen": N_("<> page  OK close"),
    "TextScreen": N_("<> scroll  OK close"),
    "FaceEntryScreen": N_("<> face  OK next"),
    "ResultScreen": N_("OK: main menu"),
}


def legend(screen: ScreenLike, app: App | None = None) -> str:
    """The legend for `screen`; the play screen's depends on what the game waits for."""
    if type(screen).__name__ == "PlayScreen" and app is not None and app.session is not None:
        return _play(screen, app.session, app)
    for cls in type(screen).__mro__:
        if cls.__name__ in LEGENDS:
            return _(LEGENDS[cls.__name__])
    return _("hold BACK: menu")


def _play(play: ScreenLike, session: Table, app: App | None = None) -> str:
    if session.over:
        return _("OK: result")
    if session.pending_bot():
        return _("bots play  hold BACK")
    if session.awaiting_roll:
        if app is not None and app.help.round_log(session):
            # Translators: the legend at the roll prompt when moves since the last turn can be read; 21 columns.
            return _("ROLL: dice  <>: log")
        # The tip's words (firmware.ui.help.TIP): where the tip finds no readable band (LEVEL X
        # on 128×64, EXXTRA on 128×128) the legend is how a newcomer learns where the menu is.
        return _("ROLL  hold BACK: menu")
    return game_view(session.game.name).legend()  # what ROLL does while deciding is the game's
