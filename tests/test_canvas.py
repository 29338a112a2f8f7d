"""The Canvas's text boxes and the checks the fit test uses, the fitting primitive, and greys."""

from __future__ import annotations

import pytest

from firmware.loop import EventLoop, FakeClock
from firmware.table import Seat
from firmware.ui.app import BoardApp
from firmware.ui.draw import GREY, Canvas, clipped, outside, overlapping, problems, wrap
from firmware.ui.menus import SeatScreen, SettingsScreen
from firmware.ui.screen import ConfirmScreen, MenuScreen, Option, TextScreen, window


def test_text_leaving_the_canvas_or_its_region_is_found() -> None:
    canvas = Canvas((128, 64))
    canvas.text(110, 0, "Hello")
    canvas.text(0, 30, "Hi", region=(0, 30, 5, 40))
    canvas.text(0, 50, "fine")
    assert [box.text for box in outside(canvas)] == ["Hello", "Hi"]
    assert len(problems(canvas)) == 2


def test_texts_need_a_pixel_between_them() -> None:
    canvas = Canvas((128, 64))
    first = canvas.text(0, 0, "AB")
    canvas.text(first.box[2] + 1, 0, "CD")  # right next to it: touching
    canvas.text(first.box[2] + 2, 20, "EF")  # another line
    assert [(a.text, b.text) for a, b in overlapping(canvas)] == [("AB", "CD")]
    apart = Canvas((128, 64))
    first = apart.text(0, 0, "AB")
    apart.text(first.box[2] + 2, 0, "CD")  # one dark column between: fine
    assert overlapping(apart) == [] and problems(apart) == []


def test_any_text_clipped_with_a_tilde_is_a_failure() -> None:
    canvas = Canvas((128, 64))
    canvas.line(1, "a rather long line of text that does not fit")
    assert [box.text for box in clipped(canvas)] == ["a rather long line o~"]
    assert problems(canvas) == ["clipped: 'a rather long line o~'"]
    canvas.title("A title far too long for the line", "1/3")
    canvas.text(0, 40, "12345~")
    assert [p.split(":")[0] for p in problems(canvas)] == ["clipped"] * 3
    assert problems(canvas)[2] == "clipped: '12345~' (a title or number)"


def test_a_line_too_long_for_the_large_font_takes_the_small_one_on_its_baseline() -> None:
    canvas = Canvas((128, 128))
    canvas.line(3, "tiles left: 15 12 9 6")  # 21 characters: 16 fit the large font
    canvas.line(4, "Settings")
    assert [(box.text, box.font) for box in canvas.boxes] == [("tiles left: 15 12 9 6", "small"), ("Settings", "large")]
    assert problems(canvas) == []


def test_a_long_prompt_wraps_onto_the_line_above_over_what_was_there() -> None:
    canvas = Canvas((128, 64))
    canvas.line(4, "positions")
    assert canvas.block(5, "short") == 5 and canvas.boxes[0].hidden is False
    first = canvas.block(5, "<Sprosse 4 wirft 1 Paar zurück>", inverse=True)
    assert first == 4 and [box.text for box in canvas.boxes[2:]] == ["<Sprosse 4 wirft 1", "Paar zurück>"]
    assert canvas.boxes[0].hidden and problems(canvas) == []


def test_a_help_line_too_long_for_the_panel_shows_its_short_form() -> None:
    canvas = Canvas((128, 64))
    canvas.footer([("<> choisir une option  OK valider", "<> OK"), ("OK next", "OK")])
    assert [box.text for box in canvas.boxes] == ["<> OK", "OK next"] and problems(canvas) == []


def test_a_banner_hides_what_it_covers() -> None:
    canvas = Canvas((128, 64))
    canvas.line(5, "under the note")
    canvas.line(5, "the note", inverse=True)
    assert overlapping(canvas) == [] and canvas.boxes[0].hidden


def test_fit_shrinks_then_abbreviates_then_clips() -> None:
    canvas = Canvas((128, 64))
    assert canvas.fit((0, 0, 127, 20), "Score 120").font == "large"
    assert canvas.fit((0, 22, 79, 40), "Score 120 to 7").font == "small"
    abbreviated = canvas.fit((0, 42, 59, 52), "Operator settings")
    assert abbreviated.text == "Ope. sett." and not abbreviated.clipped
    cut = canvas.fit((64, 42, 87, 52), "AB12CD34")  # no word to shorten
    assert cut.text == "AB1~" and cut.clipped
    assert outside(canvas) == []


def test_the_title_takes_the_small_font_where_the_large_one_does_not_fit() -> None:
    canvas = Canvas((128, 128))
    canvas.title("Operator settings", "1/5")
    assert [(box.text, box.font) for box in canvas.boxes] == [("Operator settings", "small"), ("1/5", "small")]
    assert problems(canvas) == []


def test_secondary_text_is_grey_on_greyscale_panels_and_lit_on_others() -> None:
    canvas = Canvas((256, 64))
    canvas.title("Rules", "2/9")  # the page count is secondary
    note = canvas.boxes[1].box
    grey = canvas.result("L")
    assert grey.mode == "L" and grey.crop((note[0], note[1], note[2] + 1, note[3] + 1)).getextrema() == (0, GREY)
    title = canvas.boxes[0].box
    assert grey.crop((title[0], title[1], title[2] + 1, title[3] + 1)).getextrema() == (0, 255)
    mono = canvas.result("1")
    assert mono.crop((note[0], note[1], note[2] + 1, note[3] + 1)).getbbox() is not None


@pytest.mark.parametrize("size", [(96, 16), (64, 48), (128, 32), (256, 32), (320, 240), (200, 100)])
def test_menus_and_pages_draw_on_any_panel_size(size: tuple[int, int]) -> None:
    """A panel of no profile gets its nearest class's layouts, clipped where need be, never an error."""
    loop = EventLoop(FakeClock())
    app = BoardApp(schedule=loop.call_later, seed=1)
    screens = [
        app.screen,
        SettingsScreen(app),
        ConfirmScreen("Abandon game?", lambda a: None),
        TextScreen("Rules", "Some words " * 40),
        SeatScreen("levelx", [Seat("Red", "red")] * 2, 0),
    ]
    for screen in screens:
        app.push(screen)
        image = app.image(size)
        assert image.size == size and image.getbbox() is not None, type(screen).__name__
    app.show_note("A note over it all")
    assert app.image(size, "L").mode == "L"


def test_a_menu_option_too_long_for_a_line_takes_two_and_the_cursor_stays_in_view() -> None:
    options = [Option(f"Option {n}") for n in range(6)] + [Option("An option far too long for one line", detail="x")]
    menu = MenuScreen("Menu", options, lambda app, option: None, index=6)
    canvas = Canvas((128, 64))
    menu.draw(canvas)
    shown = [box.text for box in canvas.boxes[2:]]  # under the title and its position
    assert shown == ["  Option 3", "  Option 4", "  Option 5", "> An option far too", "  long for one line x"]
    assert problems(canvas) == []
    assert window([1, 1, 2, 1], 0, 3) == (0, 2) and window([1, 1, 2, 1], 3, 3) == (2, 4)


def test_a_clipped_text_in_the_3x5_font_counts_too() -> None:
    canvas = Canvas((128, 64))
    canvas.tiny(0, 0, "Red: rows 10+10, chip 10, bonus~")
    assert problems(canvas) == ["clipped: 'Red: rows 10+10, chip 10, bonus~'"]


def test_a_no_break_space_holds_a_french_number_or_colon_together() -> None:
    assert wrap("Total : 5\u00a0000 points", 8) == ["Total :", "5\u00a0000", "points"]
    assert wrap("Rouge\u00a0: lance", 6) == ["Rouge\u00a0:", "lance"]
