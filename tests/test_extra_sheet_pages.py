"""EXTRA!'s sheet pages on every display: the legend and the tip never hide a row or the total
(on the 128×64 roll prompt the bottom bar covered rows 11 and 12 and the total); the whole
sheet says whose it is, that a bot is still deciding, and shows the takeback bar."""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

from firmware.hardware.config import default_board_path, load_board
from firmware.ui.play import PlayScreen
from sim.board import SimBoard

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "scripts"))
from screenshots import play, set_up  # noqa: E402  (the docs' scenes: button presses)

BOARDS = sorted((default_board_path().parent / "boards").glob("*.toml"))
SIZES = sorted({(load_board(b).display.width, load_board(b).display.height) for b in BOARDS} | {(128, 64)})


def at_roll_prompt() -> SimBoard:
    board = SimBoard(seed=2024)
    set_up(board, "extra", [False, True])
    play(board, decisions=8)
    for _ in range(20):
        board.settle()
        if board.app.session.awaiting_roll:
            break
        if isinstance(board.app.screen, PlayScreen) and board.app.screen.choice is not None:
            board.tap("ok")
    assert board.state("pending") == {"kind": "roll", "player": 0}
    return board


@pytest.mark.parametrize("size", SIZES)
def test_the_legend_and_tip_never_hide_a_row_or_the_total(size: tuple[int, int]) -> None:
    board = at_roll_prompt()
    try:
        help = board.app.help

        def hidden(canvas) -> set[tuple[str, tuple[int, int, int, int]]]:
            return {(box.text, box.box) for box in canvas.boxes if box.hidden and box.box[1] >= 6}

        seen, help.tip_seen = help.tip_seen, True
        bare = hidden(board.app.canvas(size))  # what the explanation covers (until a press)
        help.tip_seen = seen
        plain = board.app.canvas(size)  # the tip is up (the menu was never opened)
        assert hidden(plain) <= bare, (size, hidden(plain) - bare)
        board.hold("roll")  # the legend (the press hid the explanation)
        with_legend = board.app.canvas(size)
        # (the column labels on the header line may give way to it while it is up)
        assert hidden(with_legend) == set(), (size, hidden(with_legend))
        assert any("log" in box.text.casefold() and not box.hidden for box in with_legend.boxes)
    finally:
        board.close()
