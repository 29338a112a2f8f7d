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


def after_the_persons_choice() -> SimBoard:
    """Red (a person) has chosen on this roll, Blue (a bot) is still deciding: Red may take
    the choice back until Blue's roll comes."""
    board = SimBoard(seed=2024)
    set_up(board, "extra", [False, True])
    play(board, decisions=8)
    while board.state("pending") == {"kind": "decision", "player": 0}:
        board.tap("ok")  # each stage of the choice
    for _ in range(10):
        if board.app.takeback_window() is not None:
            break
        board.wait(0.5)
    assert board.state("pending") == {"kind": "decision", "player": 1}
    assert board.app.takeback_window() == 1.0
    return board


def _bar_rows(board: SimBoard, size: tuple[int, int]) -> list[tuple[int, int]]:
    """Where the finished image differs from the screen and its help layer alone: (row, pixels)."""
    from firmware.ui.draw import Canvas

    app = board.app
    base = Canvas(size)
    app.screen.draw(base)
    app.help.draw(base, app)
    full = app.canvas(size).image
    rows = []
    for y in range(size[1]):
        changed = sum(full.getpixel((x, y)) != base.image.getpixel((x, y)) for x in range(size[0]))
        if changed:
            rows.append((y, changed))
    return rows


@pytest.mark.parametrize("size", SIZES)
def test_the_whole_sheet_shows_the_takeback_bar(size: tuple[int, int]) -> None:
    """The draining bar says a step can still be taken back; a sheet that uses both edges
    gets it under its header line instead of not at all."""
    board = after_the_persons_choice()
    try:
        assert board.app.screen is board.app.play_screen()
        rows = _bar_rows(board, size)
        assert len(rows) == 1 and rows[0][1] == size[0], rows  # one row, full length: all the chance left
        board.tap("roll")  # flip to Red's own whole sheet
        rows = _bar_rows(board, size)
        assert len(rows) == 1 and rows[0][1] == size[0], f"Red's whole sheet: {rows}"
    finally:
        board.close()


def test_every_whole_sheet_says_whose_it_is_and_that_a_bot_still_decides() -> None:
    board = after_the_persons_choice()
    try:
        texts = board.app.image((128, 64)) and board.app.texts
        assert "Blue plays" in texts  # the bot's sheet while it decides: not empty for good
        board.tap("roll")
        board.app.image((128, 64))
        assert any(text.startswith("Red") for text in board.app.texts), board.app.texts
    finally:
        board.close()
    board = SimBoard(seed=2024)
    try:
        set_up(board, "extra", [False, True])
        play(board, decisions=8)
        board.tap("roll")  # the decider's whole sheet, the option previewed: named too
        board.app.image((128, 64))
        header = [text for text in board.app.texts if text.startswith("Red ")]
        assert header and any("+" in text for text in header), board.app.texts
    finally:
        board.close()


def test_a_sheet_using_both_edges_gets_the_bar_under_its_header() -> None:
    """A page drawn from the top edge to the bottom one (a 3×5 header on rows 0-4, the last
    row of boxes on the bottom row) used to get no bar at all: it goes on the empty pixel row
    under the header, an underline that drains."""
    from firmware.ui.draw import Canvas, takeback_bar

    canvas = Canvas((128, 64))
    canvas.tiny(0, 0, "RED ROLL")
    for y in range(6, 64, 5):
        canvas.draw.line((20, y, 100, y), fill=1)
    canvas.draw.line((0, 63, 100, 63), fill=1)  # the bottom row of boxes
    takeback_bar(canvas, 0.5)
    assert [x for x in range(128) if canvas.image.getpixel((x, 5))] == list(range(64))
