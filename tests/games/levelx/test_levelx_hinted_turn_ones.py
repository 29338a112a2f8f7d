"""A hint to turn ones carries into the Turn ones screen, by button presses on a simulated board,
in every language and on every display profile: the faces start as the hint says, its words
stay on the screen, and OK, OK, OK plays the hinted turn."""

from __future__ import annotations

import random
from pathlib import Path

import pytest

from firmware.games.levelx.rules import TurnOnes
from firmware.hints import hint
from firmware.i18n import FIT_LANGUAGES, use
from sim.board import SimBoard
from sim.scenario import ScriptedDice
from tests.test_engines_at_board import seat_up

BOARDS = sorted((Path(__file__).parents[3] / "hardware" / "boards").glob("*.toml"))


@pytest.mark.parametrize("language", FIT_LANGUAGES)
@pytest.mark.parametrize("board_file", BOARDS, ids=[b.stem for b in BOARDS])
def test_the_hinted_faces_are_where_turning_ones_starts(board_file: Path, language: str) -> None:
    board = SimBoard(board_file=board_file, seed=3, dice=ScriptedDice(), language=language)
    try:
        seat_up(board, "levelx", ["human", "human"])
        board.queue_dice([1, 1, 1, 2])
        board.tap("roll")
        board.settle()
        board.press("left")  # LEFT and RIGHT together: the hint
        board.press("right")
        board.release("right")
        board.release("left")
        board.settle()
        session = board.app.session
        expected, _ = hint(session.game.copy(), random.Random(0))
        assert expected == TurnOnes((6, 6))
        said = board.app.note
        assert said is not None and "1→6,6" in said
        board.tap("ok")  # "Turn ones..."
        assert type(board.app.screen).__name__ == "TurnOnesScreen"
        shown = " ".join(board.screen_text())
        assert said.split(":")[0] in shown and "1→6,6" in shown  # the hint stays on the screen
        board.tap("ok")
        assert "1→6,6" in " ".join(board.screen_text())
        board.tap("ok")
        board.settle()
        assert session.game.history[-1] == TurnOnes((6, 6)) and session.game.faces == (6, 6, 1, 2)
    finally:
        board.close()
        use("en")
