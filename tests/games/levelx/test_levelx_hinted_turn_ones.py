"""A hint to turn ones carries into the Turn ones screen, by button presses on a simulated board,
in every language and on every display profile: the faces start as the hint says, its words
stay on the screen, and OK, OK, OK plays the hinted turn."""

from __future__ import annotations

import random
import re
from pathlib import Path

import pytest

from firmware.games.levelx.rules import TurnOnes
from firmware.hints import hint
from firmware.ui.kit import FaceEntryScreen
from firmware.i18n import LANGUAGES, use
from sim.board import SimBoard
from sim.scenario import ScriptedDice
from tests.test_engines_at_board import seat_up

WIDE = {"ssd1322", "ssd1327"}  # room for the whole hint: 256 pixels wide, or 128 high
BOARDS = sorted((Path(__file__).parents[3] / "hardware" / "boards").glob("*.toml"))


@pytest.mark.parametrize("language", LANGUAGES)
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
        screen = board.app.screen
        assert isinstance(screen, FaceEntryScreen) and screen.values == [6, 6]  # the hint's faces
        figure = said.rsplit(": ", 1)[-1]  # "expect to end 27 points ahead"
        for die in (1, 2):  # the hint stays on the screen (where it does not fit, without the faces above it)
            shown = " ".join(board.screen_text())
            points = re.search(r"\d+", figure)
            assert points is not None and said.split(":")[0].strip() in shown and points.group() in shown, shown
            if board_file.stem in WIDE:
                assert figure in shown and "1→6,6" in shown, shown
            if die == 1:
                board.tap("ok")
        board.tap("ok")
        board.settle()
        assert session.game.history[-1] == TurnOnes((6, 6)) and session.game.faces == (6, 6, 1, 2)
    finally:
        board.close()
        use("en")
