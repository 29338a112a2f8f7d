"""Issue 23, item 3: the settings a guest may change without leaving the game (language, bot
pace, takeback rule, brightness, night mode, sound, colours) are in the in-game menu, on a café's
board (kiosk mode) too; what only the operator sets is not offered there, and the operator's
brightness cap still holds. All through button presses on a SimBoard."""

from __future__ import annotations

from pathlib import Path

from firmware import i18n
from firmware.ui.menus import GameMenu, SettingsScreen
from firmware.ui.play import PlayScreen
from firmware.ui.settings import IN_GAME, OperatorSettings, label
from sim.board import SimBoard
from sim.robustness import choose
from tests.test_operator import board_file


def in_game(tmp_path: Path, kiosk: bool) -> SimBoard:
    """EXXTRA, one person and two bots, the in-game menu open (a long BACK)."""
    board = SimBoard(board_file=board_file(tmp_path), state_dir=tmp_path / "state", kiosk=kiosk, seed=2)
    choose(board, "Play EXXTRA")
    choose(board, "3 players")
    board.tap("ok")
    for _ in range(2):
        board.tap("right")
        board.tap("ok")
    assert isinstance(board.app.screen, PlayScreen)
    board.hold("back")
    assert isinstance(board.app.screen, GameMenu)
    return board


def test_the_game_menu_offers_the_guests_settings_on_a_cafes_board(tmp_path: Path) -> None:
    board = in_game(tmp_path, kiosk=True)
    choose(board, "Settings")
    assert isinstance(board.app.screen, SettingsScreen)
    offered = [o.value for o in board.app.screen.choice.options]
    assert offered == list(IN_GAME)
    assert not {"led_budget_amps", "dice_mode", "idle_timeout_s"} & set(offered)  # the operator's
    choose(board, label("bot_pace"))  # normal → fast, kept at once
    assert board.app.settings.bot_pace == "fast"
    assert board.app.journal.get_setting("bot_pace") == "fast"
    board.tap("back")
    assert isinstance(board.app.screen, GameMenu)
    choose(board, "Back to game")
    assert isinstance(board.app.screen, PlayScreen) and not board.app.session.over
    board.close()


def test_the_language_changes_mid_game_and_the_game_menu_speaks_it(tmp_path: Path) -> None:
    board = in_game(tmp_path, kiosk=True)
    choose(board, "Settings")
    choose(board, label("language"))  # English → Deutsch
    assert i18n.language() == "de" and board.app.settings.language == "de"
    assert board.app.screen.title == "Einstellungen"
    board.tap("back")
    assert board.app.screen.title == "Spielmenü"
    assert "Einstellungen" in [o.label for o in board.app.screen.choice.options]
    board.close()


def test_the_takeback_rule_changed_mid_game_changes_what_the_game_menu_offers(tmp_path: Path) -> None:
    board = in_game(tmp_path, kiosk=False)
    board.tap("back")  # back to the game
    board.tap("roll")  # Red rolls and places; the bots play on to Red's next roll
    board.wait(1)
    board.tap("ok")
    board.wait(6)
    assert board.app.settings.takeback == "roll"
    board.hold("back")
    assert "undo" not in [o.value for o in board.app.screen.choice.options]  # nothing since Red's roll
    choose(board, "Settings")
    choose(board, label("takeback"))  # this roll → whole game
    assert board.app.settings.takeback == "game"
    board.tap("back")
    assert isinstance(board.app.screen, GameMenu)
    assert "undo" in [o.value for o in board.app.screen.choice.options]  # Red's last decision, past rolls too
    history = len(board.app.session.game.history)
    choose(board, "Take back")
    assert len(board.app.session.game.history) < history
    board.close()


def test_the_operators_brightness_cap_holds_in_the_game_menu(tmp_path: Path) -> None:
    board = in_game(tmp_path, kiosk=True)
    board.app.operator = OperatorSettings(brightness_cap=0.55)
    choose(board, "Settings")
    seen = set()
    for _ in range(8):
        choose(board, label("brightness"))
        seen.add(board.app.settings.brightness)
    assert seen and max(seen) <= 0.55
    board.close()
