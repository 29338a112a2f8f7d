"""The round log. Everything since a person's last move can be read from their roll prompt
(LEFT or RIGHT, said by the legend) and from the in-game menu at any moment of the game (on a
decision LEFT/RIGHT choose and ROLL is the game's), a line per move: what concerns them first,
said to them ("Blue 76 → rung 4: kicked your 50"), marked "!", and the one the explanation line
shows; then the others, oldest first. EXTRA!'s log is everyone's choices on the latest roll."""

from __future__ import annotations

from pathlib import Path

import pytest

from firmware.ui.play import PlayScreen
from firmware.ui.screen import TextScreen
from sim.board import SimBoard
from sim.robustness import choose
from tests.support import red_then_two_bots_played

SIZE = (128, 64)


def red_and_two_bots(tmp_path: Path) -> SimBoard:
    """EXXTRA, seed 2: Red (a person) places 50 on rung 5; Blue's 76 on rung 4 kicks it, then
    Green plays 64 on rung 5 (the issue's game); back at Red's roll prompt."""
    board = SimBoard(seed=2, state_dir=tmp_path)
    choose(board, "Play EXXTRA")
    choose(board, "3 players")
    return red_then_two_bots_played(board)


def shown(board: SimBoard) -> list[str]:
    board.app.image(SIZE)
    return board.app.texts


def test_the_move_that_kicked_you_is_said_not_only_the_last_one(tmp_path: Path) -> None:
    board = red_and_two_bots(tmp_path)
    texts = shown(board)
    assert "! Blue 76 → rung 4:" in texts and "kicked your 50" in texts  # not only "Green: 64 on rung 5"
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
    assert screen.text.splitlines() == ["! Blue 76 → rung 4: kicked your 50", "Green placed 64 on rung 5"]
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
    assert screen.text.startswith("! Blau 76 → Sprosse 4:") and "Grün" in screen.text
    board.close()


def test_what_concerns_you_comes_first_even_when_it_was_not_the_first_move() -> None:
    """Said per player: the move that kicked Red's pair is first in Red's log and said to Red,
    to Green it is a move like any other (it kicked someone else)."""
    from firmware.games import words_of
    from firmware.games.words import Said

    def said_to(game: str, events: list[dict[str, object]], seat: int) -> str | None:
        said: Said | None = words_of(game).said_to(names, events, seat)
        return None if said is None else said.log

    names = ["Red", "Blue", "Green"]
    kick = [
        {"kind": "place", "player": 1, "rung": 4, "combination": "76"},
        {"kind": "remove", "player": 0, "rung": 5, "combination": "50", "by": 1},
        {"kind": "turn", "player": 2},
    ]
    assert said_to("exxtra", kick, 0) == "Blue 76 → rung 4: kicked your 50"
    assert said_to("exxtra", kick, 2) is None
    assert said_to("exxtra", kick, 1) is None  # your own move is not news to you
    oust = [
        {"kind": "group", "player": 2, "row": 8, "dice": [0, 1]},
        {"kind": "chip", "player": 2, "row": 8},
        {"kind": "oust", "player": 0, "row": 8, "by": 2},
        {"kind": "turn", "player": 0},
    ]
    assert said_to("levelx", oust, 0) == "Green took the X in row 8 — your piece went home"
    assert said_to("levelx", oust, 1) is None


def test_the_log_is_in_the_in_game_menu_while_you_decide(tmp_path: Path) -> None:
    """On a decision LEFT/RIGHT choose, ROLL is the game's, OK picks, BACK takes back: no
    gesture is free there, so the in-game menu (a long BACK) offers the log; OK on it reads it
    and OK again is back at the same decision."""
    board = red_and_two_bots(tmp_path)
    board.tap("roll")
    board.settle()
    play = board.app.screen
    assert isinstance(play, PlayScreen) and play.choice is not None
    before = play.choice.index
    board.hold("back")
    menu = board.app.screen
    values = [o.value for o in menu.choice.options]
    assert "log" in values
    while menu.choice.current.value != "log":
        board.tap("right")
    assert menu.choice.current.label == "Round log"
    board.tap("ok")
    screen = board.app.screen
    assert isinstance(screen, TextScreen) and screen.text.splitlines()[0] == "! Blue 76 → rung 4: kicked your 50"
    board.tap("ok")
    assert board.app.screen is play and play.choice is not None and play.choice.index == before
    board.close()


def test_extras_log_is_everyones_choices_on_the_latest_roll(tmp_path: Path) -> None:
    """EXTRA!: one roll counts for every player; the log at the next roll prompt holds every
    player's choice on the last roll, the person's own included, and nothing older."""
    board = SimBoard(seed=3, state_dir=tmp_path)
    choose(board, "Play EXTRA!")
    choose(board, "2 players")
    board.tap("ok")
    board.tap("right")
    board.tap("ok")
    for _roll in range(2):
        board.settle()
        while board.app.session.awaiting_roll is False or board.state("pending")["player"] != 0:
            if board.app.screen.choice is not None:
                board.tap("ok")
            board.settle()
        if _roll == 0:
            board.tap("roll")
            board.settle()
    board.tap("left")
    screen = board.app.screen
    assert isinstance(screen, TextScreen) and screen.title == "This roll"
    lines = screen.text.splitlines()
    assert [line.split()[0] for line in lines] == ["Red", "Blue"], lines
    board.close()


@pytest.mark.parametrize("size", [(128, 64), (256, 64), (128, 128)])
def test_the_line_that_concerns_you_is_whole_on_every_display(tmp_path: Path, size: tuple[int, int]) -> None:
    """On the 128×128 panel (16 columns of its large font) the line went into one line of the
    3×5 font and lost its end ("... kicked your"): it takes two lines of the 6×11 font instead,
    and nothing of it is ever left out."""
    board = red_and_two_bots(tmp_path)
    canvas = board.app.canvas(size)
    shown = " ".join(box.text for box in canvas.boxes if not box.hidden)
    assert "kicked your 50" in shown.replace("\n", " "), shown
    fonts = {box.font for box in canvas.boxes if "kicked" in box.text}
    assert fonts <= {"small", "large"}, fonts  # never the 3×5 font where the 6×11 one fits
    board.close()
