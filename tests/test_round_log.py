"""Issue 23, item 2: the round log. Everything since a person's last move can be read from
their roll prompt (LEFT or RIGHT, said by the legend), a line per move, oldest first; a move
that concerns them is marked and is the one the explanation line shows."""

from __future__ import annotations

from pathlib import Path

from firmware.ui.play import PlayScreen
from firmware.ui.screen import TextScreen
from sim.board import SimBoard
from sim.robustness import choose

SIZE = (128, 64)


def red_and_two_bots(tmp_path: Path) -> SimBoard:
    """EXXTRA, seed 2: Red (a person) places 50 on rung 5; Blue's 76 on rung 4 kicks it, then
    Green plays 64 on rung 5 (the issue's game); back at Red's roll prompt."""
    board = SimBoard(seed=2, state_dir=tmp_path)
    choose(board, "Play EXXTRA")
    choose(board, "3 players")
    for kind in ("p", "b", "b"):
        if kind == "b":
            board.tap("right")
        board.tap("ok")
    board.tap("roll")
    board.settle()
    board.tap("ok")
    board.settle()
    assert board.state("pending") == {"kind": "roll", "player": 0}
    return board


def shown(board: SimBoard) -> list[str]:
    board.app.image(SIZE)
    return board.app.texts


def test_the_move_that_kicked_you_is_said_not_only_the_last_one(tmp_path: Path) -> None:
    board = red_and_two_bots(tmp_path)
    texts = shown(board)
    assert "! Blue: 76 on rung 4, kicks Red" in texts  # before: only "Green: 64 on rung 5"
    assert "Red: press ROLL" in texts
    board.close()


def test_left_at_the_roll_prompt_opens_every_move_since_your_last_oldest_first(tmp_path: Path) -> None:
    board = red_and_two_bots(tmp_path)
    board.hold("roll")
    assert "ROLL: dice  <>: log" in shown(board)  # the legend says where the log is
    board.hold("roll")
    board.tap("left")
    screen = board.app.screen
    assert isinstance(screen, TextScreen) and screen.title == "Since your turn"
    assert screen.text.splitlines() == ["! Blue: 76 on rung 4, kicks Red", "Green: 64 on rung 5"]
    board.tap("ok")  # back to the prompt, nothing rolled
    assert isinstance(board.app.screen, PlayScreen)
    assert board.state("pending") == {"kind": "roll", "player": 0}
    board.close()


def test_the_log_is_in_the_boards_language(tmp_path: Path) -> None:
    board = SimBoard(seed=2, state_dir=tmp_path, language="de")
    board.settle()
    screen = board.app.screen
    target = next(i for i, o in enumerate(screen.choice.options) if o.value == ("play", "exxtra"))
    while screen.choice.index != target:
        board.tap("right")
    board.tap("ok")
    screen = board.app.screen
    target = next(i for i, o in enumerate(screen.choice.options) if o.value == 3)
    while screen.choice.index != target:
        board.tap("right")
    board.tap("ok")
    for kind in ("p", "b", "b"):
        if kind == "b":
            board.tap("right")
        board.tap("ok")
    board.tap("roll")
    board.settle()
    board.tap("ok")
    board.settle()
    board.tap("left")
    screen = board.app.screen
    assert isinstance(screen, TextScreen) and screen.title != "Since your turn"
    assert screen.text.startswith("! Blau") and "Grün" in screen.text
    board.close()
