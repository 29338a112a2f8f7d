"""The UI defects the button-mashing suite found, each driven through the board's buttons on a
SimBoard (MockFactory pins, fake clock, a real journal)."""

from __future__ import annotations

from sim.board import SimBoard
from sim.robustness import choose, set_dice_mode


def stack(board: SimBoard) -> list[str]:
    return [type(screen).__name__ for screen in board.app.stack]


def exxtra_for_three_people(board: SimBoard) -> None:
    choose(board, "Play EXXTRA")
    choose(board, "3 players")
    for _ in range(3):
        board.tap("ok")  # each seat a person


def test_undo_with_physical_dice_closes_the_dice_entry_of_the_undone_position(tmp_path):
    board = SimBoard(seed=3, state_dir=tmp_path)
    set_dice_mode(board, "physical")
    exxtra_for_three_people(board)
    board.tap("roll")
    board.tap("ok")
    board.tap("ok")  # both dice keyed in: Red decides
    board.settle()
    board.tap("ok")  # Red's choice; Blue's roll is pending
    board.tap("roll")  # Blue starts keying in the dice...
    assert stack(board) == ["MainMenu", "PlayScreen", "DiceEntryScreen"]
    board.hold("back")
    choose(board, "Take back")  # ...and Red takes the choice back
    assert stack(board) == ["MainMenu", "PlayScreen"]
    assert board.state("pending.kind") == "decision"
    assert board.state("pending.player") == 0
    assert any(line.startswith("<") for line in board.screen_text())  # Red's options again
    board.tap("ok")
    board.tap("ok")
    board.settle()
    assert board.app.problems == []
    assert board.state("pending.kind") == "roll"
    board.close()


def test_undo_from_the_game_menu_over_dice_entry_keeps_the_game_playable(tmp_path):
    """The same, mashing OK afterwards: no step is ever refused."""
    board = SimBoard(seed=4, state_dir=tmp_path)
    set_dice_mode(board, "physical")
    exxtra_for_three_people(board)
    board.tap("roll")
    board.tap("ok")
    board.tap("ok")
    board.settle()
    board.tap("ok")
    board.tap("roll")
    board.tap("right")  # Blue's first die half set
    board.hold("back")
    choose(board, "Take back")
    for _ in range(12):
        board.tap("ok")
        board.tap("roll")
        board.settle()
    assert board.app.problems == []
    board.close()


def test_long_back_twice_returns_to_the_game_not_the_main_menu(tmp_path):
    board = SimBoard(seed=5, state_dir=tmp_path)
    exxtra_for_three_people(board)
    session = board.app.session
    board.hold("back")
    assert stack(board) == ["MainMenu", "PlayScreen", "GameMenu"]
    board.hold("back")  # the menu closes: the game is where it was
    assert stack(board) == ["MainMenu", "PlayScreen"]
    assert board.app.session is session
    assert "Red: press ROLL" in board.screen_text()


def test_long_back_from_screens_opened_in_the_game_menu_returns_to_the_game(tmp_path):
    board = SimBoard(seed=5, state_dir=tmp_path)
    exxtra_for_three_people(board)
    session = board.app.session
    board.hold("back")
    choose(board, "Rules")
    board.hold("back")
    assert stack(board) == ["MainMenu", "PlayScreen"]
    board.hold("back")
    choose(board, "Abandon game")
    board.hold("back")  # the question is dropped, the game kept
    assert stack(board) == ["MainMenu", "PlayScreen"]
    assert board.app.session is session
    assert board.journal.unfinished().id == session.journal_id


def test_long_back_on_a_dice_entry_menu_goes_back_to_the_dice_entry(tmp_path):
    board = SimBoard(seed=5, state_dir=tmp_path)
    set_dice_mode(board, "physical")
    exxtra_for_three_people(board)
    board.tap("roll")
    board.hold("back")
    board.hold("back")
    assert stack(board) == ["MainMenu", "PlayScreen", "DiceEntryScreen"]


def test_bots_wait_while_the_game_menu_is_open_and_play_on_after_a_long_back(tmp_path):
    board = SimBoard(seed=6, state_dir=tmp_path)
    choose(board, "Play EXXTRA")
    choose(board, "3 players")
    board.tap("ok")  # Red: a person
    board.tap("right")  # Blue: a bot
    board.tap("ok")
    board.tap("right")  # Green: a bot
    board.tap("ok")
    board.tap("roll")
    board.settle()
    board.tap("ok")  # Red's choice: the bots' turns come
    board.hold("back")
    steps = len(board.app.session.game.history)
    board.wait(30)
    assert len(board.app.session.game.history) == steps  # the bots wait for the menu
    board.hold("back")
    board.settle()
    assert len(board.app.session.game.history) > steps
    assert board.app.problems == []


def test_long_back_on_the_result_closes_the_game(tmp_path):
    board = SimBoard(seed=2, state_dir=tmp_path)
    choose(board, "Demo")
    choose(board, "EXTRA!")
    choose(board, "1 player")
    board.settle()
    assert stack(board)[-1] == "ResultScreen"
    board.hold("back")
    assert stack(board) == ["MainMenu"]
    assert board.app.session is None
    assert board.led("seat.0") == board.led("seat.5")  # the menu's dim seats, not the game's colours
