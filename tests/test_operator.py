"""Operator mode (a café's board): the operator's code, kept as a salted hash beside the board
description (written by `xtraboard operator set-code`), typed during the idle show or on the code
entry screen, opens the operator menu; a wrong code only wakes the board, is counted and logged,
and five in a row lock code entry. The menu's audits, settings, games offered and clears, all
through button events on a SimBoard."""

from __future__ import annotations

from pathlib import Path

import pytest

from firmware.ui.operator_menu import CODE_GAP_S
from firmware.errors import ConfigError
from firmware.games import new_game
from firmware.games.base import Player
from firmware.hardware.config import default_board_path, load_board
from firmware.journal import Journal
from firmware.operator_code import StoredCode, write_code_file
from firmware.ui.colours import duty
from firmware.ui.menus import MainMenu, SettingsScreen
from firmware.ui.operator_menu import AuditScreen, OperatorMenu
from firmware.ui.screen import ConfirmScreen, TextScreen
from firmware.ui.settings import OperatorSettings
from sim.app import choose
from sim.board import SimBoard
from tests.support import play_on

CODE = ("left", "left", "right", "ok", "roll")


def board_file(tmp_path: Path, code: tuple[str, ...] | None = CODE, operator: str = "") -> Path:
    """A board description in tmp_path, with the operator's code file beside it (as
    `xtraboard operator set-code --board` writes it)."""
    path = tmp_path / "board.toml"
    path.write_text(default_board_path().read_text(encoding="utf-8") + "\n" + operator, encoding="utf-8")
    if code is not None:
        write_code_file(tmp_path / "operator-code", StoredCode.make(code))
    return path


def idle(board: SimBoard) -> None:
    """Wait until the idle show runs."""
    board.wait(board.app.settings.idle_timeout_s + 1)
    assert board.board.attract_phase is not None


def type_code(board: SimBoard, code: tuple[str, ...] = CODE) -> None:
    for button in code:
        board.tap(button)


def operator_menu_open(board: SimBoard) -> bool:
    return any(isinstance(screen, OperatorMenu) for screen in board.app.stack)


@pytest.fixture
def cafe(tmp_path: Path):
    board = SimBoard(board_file=board_file(tmp_path), state_dir=tmp_path / "state", kiosk=True, seed=1)
    yield board
    board.close()


# --- the board description -----------------------------------------------------------------------


def test_the_code_file_is_beside_the_board_description_and_there_is_no_default(tmp_path: Path) -> None:
    assert load_board(board_file(tmp_path)).operator.code_file == tmp_path / "operator-code"
    assert load_board(board_file(tmp_path, operator='[operator]\ncode_file = "codes/cafe"\n')).operator.code_file == (
        tmp_path / "codes" / "cafe"
    )
    assert not load_board().operator.code_file.exists()  # the shipped description: no operator mode at all


def test_a_plain_code_in_the_board_description_is_refused_saying_how_to_set_one(tmp_path: Path) -> None:
    with pytest.raises(ConfigError) as caught:
        load_board(board_file(tmp_path, operator='[operator]\ncode = ["left", "left", "right", "ok"]\n'))
    message = str(caught.value)
    assert "operator.code: a code in the board description can be read by anyone" in message
    assert "xtraboard operator set-code" in message and str(tmp_path / "operator-code") in message
    assert "\n" not in message
    with pytest.raises(ConfigError, match=r"operator\.pin: unknown key"):
        load_board(board_file(tmp_path, operator="[operator]\npin = 1234\n"))


# --- entering operator mode -------------------------------------------------------------------------


def test_the_code_typed_during_the_idle_show_opens_the_operator_menu(cafe: SimBoard) -> None:
    idle(cafe)
    type_code(cafe, CODE[:-1])
    assert cafe.board.attract_phase is not None  # the show goes on while the presses follow the code
    cafe.tap(CODE[-1])
    assert cafe.board.attract_phase is None
    assert isinstance(cafe.app.screen, OperatorMenu)
    assert cafe.app.screen.choice.index == 0  # the code's last release did nothing more
    assert "Operator" in cafe.screen_text()[0]
    cafe.tap("back")  # BACK leaves it: the main menu, as before
    assert isinstance(cafe.app.screen, MainMenu)


def test_a_wrong_code_only_wakes_the_board_once_a_whole_code_was_typed(cafe: SimBoard) -> None:
    idle(cafe)
    before = (cafe.app.version, cafe.app.screen.choice.index)
    type_code(cafe, ("left", "left", "ok", "ok"))  # a wrong press: the show goes on all the same
    assert cafe.board.attract_phase is not None
    cafe.tap("roll")  # the fifth press: a whole code, a wrong one, wakes the board and does nothing else
    assert cafe.board.attract_phase is None
    assert (cafe.app.version, cafe.app.screen.choice.index) == before
    assert isinstance(cafe.app.screen, MainMenu) and not operator_menu_open(cafe)
    type_code(cafe, CODE)  # the code, awake: ordinary presses (OK picks the menu's first line)
    assert not operator_menu_open(cafe)


def test_the_code_typed_outside_the_idle_show_does_not_open_it(tmp_path: Path) -> None:
    code = ("left", "right", "left", "right", "roll")
    board = SimBoard(board_file=board_file(tmp_path, code), state_dir=tmp_path / "state", kiosk=True)
    type_code(board, code)  # awake on the main menu: these only move the cursor
    assert not operator_menu_open(board)
    assert isinstance(board.app.screen, MainMenu) and board.app.screen.choice.index == 1
    board.close()


def test_a_pause_half_way_wakes_the_board_and_counts_nothing(cafe: SimBoard) -> None:
    idle(cafe)
    type_code(cafe, CODE[:2])
    cafe.wait(CODE_GAP_S - 1)
    assert cafe.board.attract_phase is not None
    cafe.wait(2)
    assert cafe.board.attract_phase is None and not operator_menu_open(cafe)
    assert cafe.board.gate.failures == 0
    type_code(cafe, CODE[2:])  # the rest, awake: ordinary presses
    assert not operator_menu_open(cafe)


def test_the_code_again_after_a_pause_works(cafe: SimBoard) -> None:
    idle(cafe)
    type_code(cafe, CODE[:2])
    cafe.wait(CODE_GAP_S + 1)
    idle(cafe)
    type_code(cafe)
    assert isinstance(cafe.app.screen, OperatorMenu)


def test_without_a_code_file_there_is_no_operator_mode(tmp_path: Path) -> None:
    board = SimBoard(board_file=board_file(tmp_path, code=None), state_dir=tmp_path / "state", kiosk=True)
    assert board.board.gate is None
    idle(board)
    board.tap("left")  # without a code any press wakes the board at once
    assert board.board.attract_phase is None
    idle(board)
    type_code(board)
    assert not operator_menu_open(board)
    board.close()


# --- the guests' settings ---------------------------------------------------------------------------


def test_guests_settings_are_locked_in_kiosk_mode(cafe: SimBoard) -> None:
    choose(cafe, "Settings")
    assert isinstance(cafe.app.screen, TextScreen) and not isinstance(cafe.app.screen, SettingsScreen)
    assert any("Locked" in line for line in cafe.screen_text())
    cafe.tap("ok")
    assert isinstance(cafe.app.screen, MainMenu)
    assert "locked" in cafe.app.screen.choice.options[-1].detail


def test_guests_settings_are_open_outside_kiosk_mode(tmp_path: Path) -> None:
    board = SimBoard(board_file=board_file(tmp_path), state_dir=tmp_path / "state")
    choose(board, "Settings")
    assert isinstance(board.app.screen, SettingsScreen)
    board.close()


# --- the operator menu ----------------------------------------------------------------------------


def open_operator(board: SimBoard) -> None:
    idle(board)
    type_code(board)
    assert isinstance(board.app.screen, OperatorMenu)


def finished_game(journal: Journal, name: str = "extra", players: tuple[str, ...] = ("Marie",)) -> int:
    """A finished game in the journal (a short one: everything scores nothing)."""
    import random

    from firmware.dice import SeededDice

    game = new_game(name, [Player(p) for p in players])
    gid = journal.start_game(game.to_record(), {"mode": "play"})
    play_on(
        game,
        SeededDice(1),
        random.Random(1),
        each=lambda g: journal.append_step(gid, len(g.history) - 1, g.history[-1].to_json()),
    )
    journal.finish(gid, game.result())  # type: ignore[arg-type]
    return gid


def test_games_offered_limit_the_main_menu_and_are_kept(cafe: SimBoard, tmp_path: Path) -> None:
    open_operator(cafe)
    choose(cafe, "Games offered")
    choose(cafe, "EXXTRA")
    assert cafe.app.screen.choice.current.detail == "off"
    labels = [o.label for o in cafe.app.stack[0].choice.options]
    assert "Play EXXTRA" not in labels and "Play EXTRA!" in labels
    assert OperatorSettings.load(cafe.journal).games == ("levelx", "extra")  # kept for the next start
    for _ in range(2):
        cafe.tap("right")
        cafe.tap("ok")  # the other two off: the last one stays on
    assert sum(o.detail == "on" for o in cafe.app.screen.choice.options) == 1


def test_the_brightness_cap_limits_the_leds(cafe: SimBoard) -> None:
    open_operator(cafe)
    choose(cafe, "Settings")
    assert cafe.app.screen.choice.current.label == "Brightness cap"
    cafe.tap("ok")  # 100% -> 40%
    assert cafe.app.operator.brightness_cap == 0.4 < cafe.app.settings.brightness
    assert cafe.hardware.leds.brightness == duty(0.4)  # the cap is a perceived level, as the setting
    assert OperatorSettings.load(cafe.journal).brightness_cap == 0.4


def test_clear_high_scores_asks_first(cafe: SimBoard) -> None:
    finished_game(cafe.journal)
    assert cafe.journal.best_scores("extra")
    open_operator(cafe)
    choose(cafe, "Clear high scores")
    assert isinstance(cafe.app.screen, ConfirmScreen)
    cafe.tap("ok")  # "No" is the default
    assert cafe.journal.best_scores("extra")
    choose(cafe, "Clear high scores")
    choose(cafe, "Yes")
    assert cafe.journal.best_scores("extra") == []
    assert len(cafe.journal.all_games()) == 1  # the games (and the audits) stay


def test_records_are_cleared_only_after_a_second_confirmation(cafe: SimBoard) -> None:
    finished_game(cafe.journal)
    open_operator(cafe)
    choose(cafe, "Clear records")
    choose(cafe, "Yes")
    assert isinstance(cafe.app.screen, ConfirmScreen)  # asked again
    cafe.tap("ok")  # No
    assert len(cafe.journal.all_games()) == 1 and isinstance(cafe.app.screen, OperatorMenu)
    choose(cafe, "Clear records")
    choose(cafe, "Yes")
    choose(cafe, "Yes")
    assert cafe.journal.all_games() == [] and cafe.journal.best_scores("extra") == []


def test_factory_reset_of_settings_keeps_the_records(cafe: SimBoard) -> None:
    finished_game(cafe.journal)
    open_operator(cafe)
    choose(cafe, "Settings")
    cafe.tap("ok")  # brightness cap 20%
    cafe.tap("right")
    cafe.tap("ok")  # LED budget
    cafe.tap("back")
    choose(cafe, "Reset settings")
    choose(cafe, "Yes")
    assert cafe.app.operator == OperatorSettings()
    assert cafe.app.settings == type(cafe.app.settings)()
    assert cafe.journal.get_setting("operator") is None
    assert len(cafe.journal.all_games()) == 1 and cafe.journal.best_scores("extra")


def test_audits_on_the_oled_page_by_page(cafe: SimBoard) -> None:
    finished_game(cafe.journal)
    finished_game(cafe.journal, "levelx", ("Alex", "Bea"))
    open_operator(cafe)
    choose(cafe, "Audits")
    assert isinstance(cafe.app.screen, AuditScreen)
    first = cafe.screen_text()
    assert first[:4] == ["Audits", "1/5", "Games: 2", "finished 2"]
    cafe.tap("right")
    second = cafe.screen_text()
    assert second[:2] == ["Audits", "2/5"] and second[2:] != first[2:]
    cafe.tap("left")
    assert cafe.screen_text() == first
    cafe.tap("ok")
    assert isinstance(cafe.app.screen, OperatorMenu)


def test_the_fleets_counters_are_an_audit_line_when_the_fleet_is_on(cafe: SimBoard) -> None:
    from firmware.ui.operator_menu import audit_text

    assert "Fleet" not in audit_text(cafe.app)  # no [fleet] in this description
    cafe.app.fleet_status = lambda: {"connected": False, "problem": "broker refused", "reconnects": 3}
    assert audit_text(cafe.app).splitlines()[-1] == "Fleet: not connected (broker refused); reconnects 3"


def test_kept_operator_settings_that_are_not_allowed_fall_back_to_their_defaults(tmp_path: Path) -> None:
    journal = Journal(tmp_path)
    journal.set_setting("operator", {"brightness_cap": "dim", "language": "xx", "games": ["chess"]})
    assert OperatorSettings.load(journal) == OperatorSettings()
    journal.set_setting("operator", {"brightness_cap": 0.55, "language": "de", "games": ["extra"]})
    assert OperatorSettings.load(journal) == OperatorSettings(0.55, "de", ("extra",))
    # A cap kept as a share of light (before levels were perceived) becomes the level at or below it.
    journal.set_setting("operator", {"brightness_cap": 0.45})
    assert OperatorSettings.load(journal).brightness_cap == 0.55  # 0.45 of the light looks like 0.70 → 0.55
    journal.set_setting("operator", {"brightness_cap": 0.2})  # the lowest old cap: still no brighter
    assert duty(OperatorSettings.load(journal).brightness_cap) <= 0.2
    journal.set_setting("operator", "not an object")
    assert OperatorSettings.load(journal) == OperatorSettings()
    journal.close()
