"""Feedback and help on the board: explanations of every move, "not now", the legend, the menu
tip, held LEFT/RIGHT repeat — all through the simulated board's pins (MockFactory)."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest

from firmware.games import Roll
from firmware.games.exxtra.rules import Exxtra, Place
from firmware.games.extra.rules import Extra
from firmware.games.levelx.rules import Groups, LevelX
from firmware.hardware.buttons import REPEAT_DELAY_S, REPEAT_EVERY_S
from tests.support import explained as describe
from firmware.ui.help import CUE_S, NOT_NOW, TIP
from firmware.ui.legend import LEGENDS
from firmware.ui.menus import MainMenu
from firmware.ui.play import PlayScreen
from firmware.ui.screen import Screen, TextScreen
from sim.board import SimBoard
from tests.test_engines_at_board import pick, seat_up

GAMES = ("exxtra", "levelx", "extra")


@pytest.fixture
def board() -> Iterator[SimBoard]:
    sim = SimBoard(seed=7)
    try:
        yield sim
    finally:
        sim.close()


def shown(board: SimBoard) -> str:
    return " | ".join(board.screen_text())


# --- explanations from the engines' events --------------------------------------------------
def test_exxtra_says_where_the_pair_went_and_whom_it_kicked() -> None:
    game = Exxtra(["Blue", "Red", "Green"])
    game.apply(Roll(("4", "1")))
    game.apply(Place(5))
    assert describe("exxtra", ["Blue", "Red", "Green"], game.events) == "Blue: 41 on rung 5"
    game.apply(Roll(("7", "3")))
    game.apply(Place(2))
    assert describe("exxtra", ["Blue", "Red", "Green"], game.events) == "Red: 73 on rung 2, kicks Blue"
    game.apply(Roll(("X", "X")))
    assert describe("exxtra", ["Blue", "Red", "Green"], game.events) is None  # a first roll: X counts 0


def test_exxtra_an_x_on_a_later_roll_and_a_double() -> None:
    names = ["Blue", "Red", "Green"]
    game = Exxtra(names)
    game.apply(Roll(("2", "2")))
    assert describe("exxtra", names, game.events) == "Blue: double, +2"
    game.apply(game.legal_decisions()[0])  # roll again
    assert describe("exxtra", names, game.events) == "Blue rolls again"
    game.apply(Roll(("X", "1")))
    assert describe("exxtra", names, game.events) == "Blue: an X, back 1"


def test_levelx_and_extra_words() -> None:
    names = ["Ann", "Bob"]
    game = LevelX(names)
    game.apply(Roll((2, 3, 4, 6)))
    game.apply(Groups(((0, 1), (2, 3))))
    assert describe("levelx", names, game.events) == "Ann: rows 5+10"
    extra = Extra(names)
    extra.apply(Roll((1, 2, 3, 4, 5)))
    choice = extra.legal_decisions()[0]
    extra.apply(choice)
    face = extra.events[0]["face"]
    sums = "+".join(str(e["sum"]) for e in extra.events if e["kind"] == "cross")
    assert describe("extra", names, extra.events) == f"Ann: extra {face}, crosses {sums}"


@pytest.mark.parametrize("game", GAMES)
def test_every_bot_move_is_explained_on_the_display_until_the_next_move(game: str, board: SimBoard) -> None:
    seat_up(board, game, ["bot:easy", "bot:easy", "bot:medium"])
    session = board.app.session
    seen = 0
    for _ in range(60):  # a few dozen steps: each one's line on the display as it happens
        board.wait(2.0)  # the bot's pace, then the animation
        text = board.app.help.explanation
        if text is not None and not board.app.animation:
            words = describe(game, [p.name for p in session.game.players], session.game.events)
            if words is not None:
                assert text == words
            assert text[:12] in shown(board)
            seen += 1
        if session.over:
            break
    assert seen > 3


def test_a_press_hides_the_line_and_a_plain_roll_keeps_it(board: SimBoard) -> None:
    seat_up(board, "exxtra", ["bot:easy", "human", "bot:easy"])
    board.settle()  # the bot played; the person is asked to roll
    line = board.app.help.explanation
    assert line is not None and line.startswith("Red")  # seat 1 is Blue; Red (seat 0) moved
    assert line in shown(board)
    board.tap("roll")
    board.settle()
    session = board.app.session
    if (
        not session.awaiting_roll
        and session.game.events[0]["kind"] == "roll"
        and describe("exxtra", [p.name for p in session.game.players], session.game.events) is None
    ):
        assert line not in shown(board)  # the ROLL press hid it; the screen is the player's


# --- "not now" ------------------------------------------------------------------------------
def test_a_press_that_cannot_act_says_not_now_briefly(board: SimBoard) -> None:
    assert isinstance(board.app.screen, MainMenu)
    board.tap("back")  # the main menu has nowhere to go back to
    assert NOT_NOW in shown(board)
    board.wait(CUE_S)
    assert NOT_NOW not in shown(board)
    board.tap("right")  # a press that acts says nothing
    assert NOT_NOW not in shown(board)


def test_left_while_a_bot_plays_says_not_now(board: SimBoard) -> None:
    seat_up(board, "exxtra", ["human", "bot:easy", "bot:easy"])
    board.tap("roll")
    board.settle()
    pick_first = board.app.play_screen().choice
    assert pick_first is not None
    board.tap("ok")
    while board.app.animation is not None:  # the move's animation ends; the bot's pace runs
        board.wait(0.01)
    assert board.app.session.pending_bot()
    board.tap("left")
    assert NOT_NOW in shown(board)


class KeepsCount(Screen):
    """A screen of the test's own: RIGHT counts presses it keeps to itself (nothing it draws
    changes) and reports them used; LEFT it does not use."""

    def __init__(self) -> None:
        self.count = 0

    def press(self, app: object, button: str) -> bool:
        if button == "right":
            self.count += 1
            return True
        return False


def test_not_now_comes_from_what_the_screen_reports_not_from_the_picture(board: SimBoard) -> None:
    screen = KeepsCount()
    board.app.push(screen)
    board.board.render()
    board.tap("right")  # used, though the display and LEDs show the same
    assert screen.count == 1 and NOT_NOW not in shown(board)
    board.tap("left")
    assert NOT_NOW in shown(board)


def test_the_last_page_of_a_text_says_not_now_on_right_and_the_first_on_left(board: SimBoard) -> None:
    board.app.push(TextScreen("Text", " ".join(f"word{n}" for n in range(80))))
    board.board.render()
    board.tap("left")
    assert NOT_NOW in shown(board)
    board.wait(CUE_S)
    for _ in range(40):
        board.tap("right")
    board.wait(CUE_S)
    board.tap("right")  # past the last page: nothing moves
    assert NOT_NOW in shown(board)


# --- the legend -----------------------------------------------------------------------------
def test_a_long_roll_toggles_the_legend(board: SimBoard) -> None:
    board.hold("roll")
    assert LEGENDS["MainMenu"] in shown(board)
    board.hold("roll")
    assert LEGENDS["MainMenu"] not in shown(board)


@pytest.mark.parametrize("game", GAMES)
def test_the_legend_on_the_play_screen_says_what_roll_does(game: str, board: SimBoard) -> None:
    seat_up(board, game, ["human", "human", "human"])
    board.hold("roll")  # the hold's press rolls; the hold shows the legend
    board.settle()
    assert board.app.help.legend
    assert "ROLL:" in shown(board) or "<>" in shown(board) or "ROLL  hold BACK" in shown(board)


# --- the menu tip ---------------------------------------------------------------------------
def test_the_menu_tip_shows_until_the_menu_was_opened_once(tmp_path: Path) -> None:
    board = SimBoard(seed=3, state_dir=tmp_path)
    try:
        seat_up(board, "exxtra", ["human", "human", "human"])  # (LEVEL X on 128×64 has no room for it)
        assert TIP in shown(board)
        board.hold("back")  # the in-game menu
        board.hold("back")  # and back to the game
        assert isinstance(board.app.screen, PlayScreen)
        assert TIP not in shown(board)
    finally:
        board.close()
    again = SimBoard(seed=3, state_dir=tmp_path)  # the settings remember it
    try:
        pick(again, ("resume", None))
        assert isinstance(again.app.screen, PlayScreen)
        assert TIP not in shown(again)
    finally:
        again.close()


# --- held LEFT/RIGHT ------------------------------------------------------------------------
def test_a_held_right_walks_through_a_menu(board: SimBoard) -> None:
    menu = board.app.screen
    assert isinstance(menu, MainMenu)
    start = menu.choice.index
    board.press("right")
    board.wait(REPEAT_DELAY_S + 2 * REPEAT_EVERY_S + 0.01)
    board.release("right")
    steps = (menu.choice.index - start) % len(menu.choice.options)
    assert steps == 4 % len(menu.choice.options)  # the press and three repeats
