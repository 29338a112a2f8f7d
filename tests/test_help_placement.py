"""Where the help layer's texts go, by button presses on a SimBoard in every language (issue 37,
items 1 and 2): on the wide 256×64 panel EXTRA!'s explanation and tip go into the sheet's free
slot (block two's last row, left of the total), never over its header's factor and column
labels; and the tip ("ROLL  hold BACK: menu") is never drawn in the 3×5 font outside a sheet,
unreadable at a small panel's true size: where only that font would fit it is not shown."""

from __future__ import annotations

import pytest

from firmware import i18n
from firmware.hardware.config import default_board_path
from firmware.ui.draw import Canvas
from firmware.ui.help import TIP
from firmware.ui.play import PlayScreen
from firmware.ui.screen import MenuScreen
from sim.board import SimBoard

BOARDS = default_board_path().parent / "boards"


def pick(board: SimBoard, value: object) -> None:
    screen = board.app.screen
    assert isinstance(screen, MenuScreen)
    while screen.choice.current.value != value:
        board.tap("right")
    board.tap("ok")
    board.settle()


def seated(board: SimBoard, game: str, seats: int, bot: bool) -> None:
    """`game` for `seats`: a person on seat 1, strong bots (or people) on the others."""
    board.settle()
    pick(board, ("play", game))
    pick(board, seats)
    app = board.app
    board.tap("ok")
    board.settle()
    while not isinstance(app.screen, PlayScreen):
        while bot and app.screen.kind() != "bot:strong":
            board.tap("right")
        board.tap("ok")
        board.settle()


def size_of(board: SimBoard) -> tuple[int, int]:
    return board.config.display.width, board.config.display.height


def header_hidden(board: SimBoard) -> list[str]:
    """The texts of the screen's top line the help layer hid (the sheet's labels, its option)."""
    canvas = board.app.canvas(size_of(board))
    return [box.text for box in canvas.boxes if box.hidden and box.box is not None and box.box[1] <= 1]


@pytest.mark.parametrize("language", i18n.LANGUAGES)
def test_on_the_wide_panel_extras_help_keeps_off_the_sheets_labels(language: str) -> None:
    board = SimBoard(seed=3, board_file=BOARDS / "ssd1322.toml", language=language)
    try:
        seated(board, "extra", 2, bot=True)
        app = board.app
        size = size_of(board)
        canvas = app.canvas(size)
        tip = [box for box in canvas.boxes if box.text == i18n._(TIP) and not box.hidden]
        assert tip and tip[0].box is not None and tip[0].box[1] > 40, "the tip, in the free slot at the bottom"
        assert header_hidden(board) == []
        explained = 0
        for _ in range(8):  # Red's decisions and rolls; the bot's moves explained between them
            if app.session is not None and app.session.awaiting_roll:
                board.tap("roll")
            else:
                board.tap("ok")
            board.settle()
            said = app.help.shown_explanation(app.session)
            if said is not None:
                explained += 1
                drawn = " ".join(box.text for box in app.canvas(size).boxes if not box.hidden)
                assert " ".join(said.split()) in " ".join(drawn.split())
            assert header_hidden(board) == [], said
        assert explained, "a bot's move was explained"
    finally:
        board.close()
        i18n.use("en")


@pytest.mark.parametrize("language", i18n.LANGUAGES)
@pytest.mark.parametrize(("game", "board_name"), [("levelx", "ssd1306"), ("exxtra", "ssd1327"), ("levelx", "board")])
def test_the_tip_is_never_drawn_in_the_3x5_font(language: str, game: str, board_name: str) -> None:
    """LEVEL X on 128×64, EXXTRA on 128×128: no line of the body or small font is free at the
    roll prompt, so no tip; a long ROLL's legend says the buttons in a readable font."""
    path = default_board_path() if board_name == "board" else BOARDS / f"{board_name}.toml"
    board = SimBoard(seed=3, board_file=path, language=language)
    try:
        seated(board, game, 3, bot=True)
        app = board.app
        assert app.session is not None and app.session.awaiting_roll and not app.help.tip_seen
        canvas = app.canvas(size_of(board))
        tips = [box for box in canvas.boxes if box.text == i18n._(TIP)]
        assert all(box.font != "tiny" for box in tips), [(box.font, box.box) for box in tips]
        assert not [box.text for box in canvas.boxes if box.hidden]
        board.hold("roll")  # the legend, asked for
        canvas = app.canvas(size_of(board))
        legend = app.help.legend_for(app.screen, app)
        words = " ".join(legend.split())  # (a bar may close up the legend's double space)
        shown = [
            box for box in canvas.boxes if len(box.text) > 2 and " ".join(box.text.split()) in words and not box.hidden
        ]
        assert " ".join(box.text for box in shown).split() == legend.split()  # whole (maybe wrapped)
        assert all(box.font != "tiny" for box in shown)
    finally:
        board.close()
        i18n.use("en")


def test_a_free_slot_left_by_the_screen_is_where_the_help_goes() -> None:
    """`Canvas.spare` is set by the wide sheet alone: the small and tall sheets keep their header."""
    from firmware.games import Player
    from firmware.games.extra.rules import Extra
    from firmware.games.extra.sheet import draw_sheet

    sheet = Extra([Player("Red")]).sheets[0]
    for size, spared in (((256, 64), True), ((128, 64), False), ((128, 128), False)):
        canvas = Canvas(size)
        draw_sheet(canvas, sheet, name="Red")
        assert (canvas.spare is not None) == spared
        if canvas.spare is not None:
            x0, y0, x1, y1 = canvas.spare
            assert canvas.image.crop((x0, y0, x1 + 1, y1 + 1)).getbbox() is None  # empty room
            assert x1 - x0 >= 4 * len("ROLL  hold BACK: menu")
