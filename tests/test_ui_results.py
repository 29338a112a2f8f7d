"""The end of a game: the result screen's pages (standings, the game's own pages, the choice
"Rematch" / "Menu"), flipping through them, rematch, leaving, golden pages per display size
class; and the EXXTRA defects of issue 13 (one ROLL to roll again, every player on the result,
seat initials that cannot be read as digits, the LEDs after a long BACK, an X on the start)."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from goldens import check_golden

from firmware.dice import ScriptedDice
from firmware.games import Roll
from firmware.games.exxtra.rules import Place, Reroll
from firmware.hardware.buttons import ButtonEvent
from firmware.hardware.config import cell_names
from firmware.journal import Journal
from firmware.loop import EventLoop, FakeClock
from firmware.ui.app import BoardApp
from firmware.ui.colours import DEFAULT_ORDER, DIM
from firmware.ui.draw import Canvas
from firmware.games.exxtra import screens as exxtra_ui
from firmware.ui.play import PlayScreen, ResultScreen
from firmware.table import Seat, Table
from sim.board import SimBoard

# One display per size class: small (SSD1306/SH1106/SSD1309), wide (SSD1322), tall (SSD1327).
SIZE_CLASSES = {"small": (128, 64), "wide": (256, 64), "tall": (128, 128)}
LETTER_BY_DIGIT = re.compile(r"\b[A-Z][0-9]|[0-9][A-Z]\b")  # "B8", "64B": a seat initial by a digit


def settle(app: BoardApp, loop: EventLoop) -> None:
    """Run animations and bots until the board waits for a person or the game is over."""
    for _ in range(100_000):
        deadline = loop.next_deadline()
        if deadline is None:
            return
        loop.clock.now = max(loop.clock.now, deadline)
        loop.run_pending(app.button)
    raise AssertionError("the board never came to rest")


def bots_game(game: str, seats: int, seed: int, journal: Journal | None = None) -> tuple[BoardApp, EventLoop]:
    """A bots-only game played to its result screen."""
    loop = EventLoop(FakeClock())
    app = BoardApp(schedule=loop.call_later, seed=seed, journal=journal)
    app.start_game(game, [Seat(c.capitalize(), c, "easy") for c in DEFAULT_ORDER[:seats]], "demo")
    settle(app, loop)
    assert isinstance(app.screen, ResultScreen)
    return app, loop


def texts(app: BoardApp, size: tuple[int, int]) -> list[str]:
    app.image(size)
    return app.texts


def press(app: BoardApp, *buttons: str) -> None:
    """Short presses, each let go (no bot acts while a button is down)."""
    for button in buttons:
        app.button(ButtonEvent(button, "press"))
        app.button(ButtonEvent(button, "release"))


# --- the pages ------------------------------------------------------------------------------------
@pytest.mark.parametrize(
    ("game", "seats", "pages"),
    [
        (
            "exxtra",
            6,
            ["standings", "track", "ladder", *(f"figures 0 seat {s}" for s in range(6)), "game log", "Rematch", "Menu"],
        ),
        (
            "levelx",
            4,
            ["standings", "grid", "chips", *(f"figures 0 seat {s}" for s in range(4)), "game log", "Rematch", "Menu"],
        ),
        ("extra", 2, None),  # whatever EXTRA!'s module offers, then the choice
    ],
)
def test_pages_flip_both_ways_and_wrap(game: str, seats: int, pages: list[str] | None) -> None:
    app, _ = bots_game(game, seats, seed=3)
    screen = app.screen
    names = [page.name for page in screen.pages]
    assert names[0] == "standings" and names[-2:] == ["Rematch", "Menu"]
    if pages is not None:
        assert names == pages
    seen = []
    for _ in names:
        seen.append(screen.page.name)
        # the page number: "Rematch" and "Menu" are one page, "What next?", with a cursor
        number = f"{min(len(seen), len(names) - 1)}/{len(names) - 1}"
        assert any(number in text for text in texts(app, (128, 64)))
        press(app, "right")
    assert seen == names and screen.page.name == "standings"  # RIGHT wraps to the first
    press(app, "left")
    assert screen.page.name == "Menu"  # and LEFT back to the last
    press(app, "roll")
    assert screen.page.name == "standings"  # ROLL turns the page like RIGHT
    assert isinstance(app.screen, ResultScreen) and app.session is not None and app.session.over


def test_ok_goes_to_the_choice_and_the_choice_is_done_by_ok() -> None:
    app, _ = bots_game("exxtra", 3, seed=1)
    press(app, "right", "ok")  # OK on the track page: to the choice, "Rematch" first
    assert app.screen.page.name == "Rematch"
    assert "> Rematch" in texts(app, (128, 64))
    press(app, "right")
    assert app.screen.page.name == "Menu" and "> Menu" in texts(app, (128, 64))
    press(app, "ok")
    assert app.session is None and type(app.screen).__name__ == "MainMenu"


def test_a_long_back_on_any_page_goes_to_the_menu_and_a_short_one_takes_back() -> None:
    app, _ = bots_game("levelx", 2, seed=5)
    press(app, "right")
    app.button(ButtonEvent("back", "press"))
    app.button(ButtonEvent("back", "hold"))
    app.button(ButtonEvent("back", "release", held=True))
    assert app.session is None and type(app.screen).__name__ == "MainMenu"
    loop = EventLoop(FakeClock())
    app = BoardApp(schedule=loop.call_later, seed=1)
    app.start_game("levelx", [Seat("Red", "red"), Seat("Blue", "blue")], "play")  # ends on a decision
    for _ in range(5000):
        settle(app, loop)
        if isinstance(app.screen, ResultScreen):
            break
        press(app, "roll" if app.session.awaiting_roll else "ok")
    steps = len(app.session.game.history)
    press(app, "right", "back")  # on the track page: the game's last decision is taken back
    assert app.session is not None and not isinstance(app.screen, ResultScreen)
    assert len(app.session.game.history) < steps


def test_rematch_keeps_the_seats_the_game_and_the_mode_in_a_new_journal_game(tmp_path: Path) -> None:
    journal = Journal(tmp_path, clock=FakeClock(1000.0))
    loop = EventLoop(FakeClock())
    app = BoardApp(schedule=loop.call_later, seed=7, journal=journal)
    seats = [Seat("Anna", "purple"), Seat("Bot", "cyan", "medium"), Seat("Cleo", "yellow")]
    app.start_game("exxtra", seats, "play")
    first = app.session
    # Play it out: the people take the first option, the bot plays itself.
    for _ in range(5000):
        settle(app, loop)
        if isinstance(app.screen, ResultScreen):
            break
        press(app, "roll" if app.session.awaiting_roll else "ok")
    assert isinstance(app.screen, ResultScreen)
    press(app, "ok", "ok")  # to the choice, then "Rematch"
    second = app.session
    assert second is not None and second is not first and not second.over
    assert isinstance(app.screen, PlayScreen) and [type(s).__name__ for s in app.stack] == ["MainMenu", "PlayScreen"]
    assert second.game.name == "exxtra" and second.meta["mode"] == "play"
    assert [(p.name, p.bot, p.kids) for p in second.game.players] == [
        ("Anna", None, False),
        ("Bot", "medium", False),
        ("Cleo", None, False),
    ]
    assert second.colours == ["purple", "cyan", "yellow"]
    assert second.journal_id is not None and second.journal_id != first.journal_id
    assert [g.id for g in journal.finished()][-1] == first.journal_id
    assert journal.unfinished().id == second.journal_id


def test_every_page_of_every_result_draws_on_every_size() -> None:
    """Each game, the smallest and largest table, each size class and the short 128×32: no page
    raises, and none draws outside the display."""
    for game, seats in (("exxtra", 3), ("exxtra", 6), ("levelx", 2), ("levelx", 4), ("extra", 1), ("extra", 6)):
        app, _ = bots_game(game, seats, seed=seats)
        for _ in app.screen.pages:
            for size in [*SIZE_CLASSES.values(), (128, 32)]:
                canvas = Canvas(size)
                app.screen.draw(canvas)
                assert canvas.image.size == size and canvas.texts
            press(app, "right")


# --- goldens per size class -----------------------------------------------------------------------
@pytest.mark.parametrize("size_class", list(SIZE_CLASSES))
@pytest.mark.parametrize(("game", "seats", "seed"), [("exxtra", 6, 3), ("levelx", 4, 3)])
def test_golden_result_pages(game: str, seats: int, seed: int, size_class: str) -> None:
    app, _ = bots_game(game, seats, seed)
    for page in app.screen.pages:
        check_golden("results", f"{game}{seats}_{page.name.lower()}_{size_class}", app.image(SIZE_CLASSES[size_class]))
        press(app, "right")


@pytest.mark.parametrize("size_class", list(SIZE_CLASSES))
def test_golden_exxtra_play_screen(size_class: str) -> None:
    """Six players, a decision with pairs on the ladder: the layout of each size class."""
    loop = EventLoop(FakeClock())
    app = BoardApp(schedule=loop.call_later, seed=0)
    session = Table.start("exxtra", [Seat(c.capitalize(), c) for c in DEFAULT_ORDER[:6]])
    steps = [
        Roll(("4", "6")),
        Place(5),
        Roll(("3", "3")),
        Reroll(),
        Roll(("2", "1")),
        Place(1),
        Roll(("7", "2")),
        Place(0),
        Roll(("4", "1")),
        Place(0),
        Roll(("2", "X")),
        Place(3),
        Roll(("7", "5")),
    ]
    for step in steps:
        session.apply(step)
    app.start_session(session)
    assert isinstance(app.screen, PlayScreen) and app.screen.choice is not None
    check_golden("results", f"exxtra6_play_{size_class}", app.image(SIZE_CLASSES[size_class]))


# --- the defects of issue 13 ----------------------------------------------------------------------
def exxtra_table(steps: list, rolls: list[tuple[str, str]]) -> tuple[BoardApp, EventLoop]:
    """Three people at EXXTRA after `steps`, the dice scripted with `rolls`."""
    loop = EventLoop(FakeClock())
    app = BoardApp(schedule=loop.call_later, seed=0, dice=ScriptedDice(rolls))
    session = Table.start("exxtra", [Seat("Red", "red"), Seat("Blue", "blue"), Seat("Green", "green")])
    for step in steps:
        session.apply(step)
    app.start_session(session)
    return app, loop


def test_bug4_one_roll_press_rolls_again() -> None:
    """docs/board.md: ROLL while deciding rolls again. It took two presses (give up, then roll)."""
    app, loop = exxtra_table([Roll(("4", "6"))], [("3", "5")])
    game = app.session.game
    assert game.pending().kind == "decision" and game.rolls_this_turn == 1
    press(app, "roll")
    settle(app, loop)
    assert game.rolls_this_turn == 2 and game.current_roll == ("3", "5")
    assert game.pending().kind == "decision" and game.current_player == 0


def test_bug4_the_roll_again_option_still_waits_for_roll() -> None:
    """Picking "Roll again" with OK gives the turn back to the ROLL button (the dice are thrown
    by ROLL, as on every other roll)."""
    app, loop = exxtra_table([Roll(("4", "6"))], [("3", "5")])
    while app.screen.choice.current.label != "Roll again":
        press(app, "right")
    press(app, "ok")
    settle(app, loop)
    assert app.session.awaiting_roll
    press(app, "roll")
    settle(app, loop)
    assert app.session.game.current_roll == ("3", "5")


@pytest.mark.parametrize("size_class", list(SIZE_CLASSES))
def test_bug5_the_result_shows_every_player_of_six(size_class: str) -> None:
    app, _ = bots_game("exxtra", 6, seed=3)
    game = app.session.game
    drawn = texts(app, SIZE_CLASSES[size_class])
    for player, position in zip(game.players, game.positions):
        assert any(player.name in text for text in drawn), (player.name, drawn)
        assert any(text.endswith(str(position)) for text in drawn), (position, drawn)
    assert not [t for t in drawn if LETTER_BY_DIGIT.search(t)]


@pytest.mark.parametrize("size_class", list(SIZE_CLASSES))
def test_bug5_seat_initials_never_touch_a_digit_and_every_counter_is_shown(size_class: str) -> None:
    """Six players on the play screen: each counter's space is drawn, and no seat initial is
    written next to a digit ("B8", "O0", "G6", "64B" read as numbers in the bitmap font)."""
    loop = EventLoop(FakeClock())
    app = BoardApp(schedule=loop.call_later, seed=0)
    session = Table.start("exxtra", [Seat(c.capitalize(), c) for c in DEFAULT_ORDER[:6]])
    for step in (Roll(("4", "6")), Place(5), Roll(("3", "3")), Reroll(), Roll(("2", "1")), Place(1)):
        session.apply(step)
    app.start_session(session)
    drawn = texts(app, SIZE_CLASSES[size_class])
    assert not [t for t in drawn if LETTER_BY_DIGIT.search(t)], drawn
    if size_class != "tall":  # (the tall layout shows the race as bars with the numbers)
        assert drawn.count("0") >= 5 and "3" in drawn  # Red at 0 ... Blue at 3 (the double)
    else:
        assert [t for t in drawn if t in ("0", "3")].count("0") >= 5


@pytest.mark.parametrize(("game", "menu_index"), [("exxtra", 0), ("levelx", 1), ("extra", 2)])
def test_bug6_a_long_back_on_the_result_turns_off_every_game_led(game: str, menu_index: int, tmp_path: Path) -> None:
    board = SimBoard(seed=4, state_dir=tmp_path)
    for _ in range(3):
        board.tap("right")  # Demo
    board.tap("ok")
    for _ in range(menu_index):
        board.tap("right")
    board.tap("ok")
    board.tap("ok")  # the fewest seats
    board.settle()
    assert isinstance(board.app.screen, ResultScreen)
    assert board.app.frame()["seat.0"] != DIM  # the finished game's colours are on the LEDs
    board.hold("back")
    board.wait(2.0)
    assert [type(s).__name__ for s in board.app.stack] == ["MainMenu"]
    assert {cell: board.led(cell) for cell in cell_names() if board.led(cell) != (0, 0, 0)} == {
        f"seat.{seat}": DIM for seat in range(6)
    }
    shown = board.hardware.leds.pixels.shown()  # what the chain really shows, not only the frame
    assert sum(1 for colour in shown if tuple(colour) != (0, 0, 0)) == 6


def test_bug7_an_x_on_the_start_space_does_not_say_back() -> None:
    """Red, on the start, rolls again and throws an X: the turn ends, nothing moves."""
    app, loop = exxtra_table([Roll(("4", "6"))], [("X", "1")])
    press(app, "roll")  # roll again, at once
    for _ in range(6):  # past the tumble
        loop.clock.now = loop.next_deadline()
        loop.run_pending(app.button)
    captions = {frame.caption for frame in app.animation.frames}
    assert captions == {"X! Red stays at start"}
    settle(app, loop)
    assert app.session.game.positions[0] == 0 and app.session.game.current_player == 1


def test_bug7_an_x_says_how_far_the_counter_really_goes_back() -> None:
    session = Table.start("exxtra", [Seat("Red", "red"), Seat("Blue", "blue"), Seat("Green", "green")])
    for step in (Roll(("1", "1")), Reroll(), Roll(("X", "X"))):  # at 1 after the double, then X-X
        session.apply(step)
    loop = EventLoop(FakeClock())
    app = BoardApp(schedule=loop.call_later, seed=0)
    events = session.game.events
    assert [e for e in events if e["kind"] == "move"] == [
        {"kind": "move", "player": 0, "from": 1, "to": 0, "cause": "x"}
    ]
    captions = {frame.caption for frame in exxtra_ui.VIEW.animation(app, session, events)}
    assert "Two X! Red to start" in captions and "X! Red back 1" not in captions  # two Xs, onto the start


@pytest.mark.parametrize("size_class", list(SIZE_CLASSES))
def test_levelx_scores_never_put_a_seat_initial_by_a_digit(size_class: str) -> None:
    """Four players on 128×64 do not fit by name: the scores go by seat tag, not "B12"."""
    loop = EventLoop(FakeClock())
    app = BoardApp(schedule=loop.call_later, seed=0)
    session = Table.start("levelx", [Seat(c.capitalize(), c) for c in DEFAULT_ORDER[:4]], seed=5)
    session.apply(session.draw_roll())
    app.start_session(session)
    drawn = texts(app, SIZE_CLASSES[size_class])
    assert not [t for t in drawn if LETTER_BY_DIGIT.search(t)], drawn
    assert drawn.count("0") >= 4 or any("Yellow 0" in t for t in drawn)  # every player's score
