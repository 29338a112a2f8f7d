"""docs/board.md's table "Every button on every screen", checked against the board: each row's
screen is reached on a simulated board (MockFactory pins), the gesture done, and the effect its
tag names is looked for. A row whose effect the board does not show fails, naming the row."""

from __future__ import annotations

import re
from collections.abc import Callable, Iterator
from dataclasses import dataclass, replace
from pathlib import Path
from typing import Any

import pytest

from firmware.hardware.buttons import REPEAT_DELAY_S, REPEAT_EVERY_S
from firmware.hardware.config import default_board_path
from firmware.operator_code import StoredCode, write_code_file
from firmware.ui.game_log import GameLogScreen
from firmware.ui.help import NOT_NOW
from firmware.ui.lesson_runner import LessonPage
from firmware.ui.menus import GameMenu, MainMenu, RulesScreen, SeatScreen
from firmware.ui.moments import KEY_MOMENTS, MomentsScreen
from firmware.ui.name_entry import NameEntryScreen
from firmware.ui.operator_menu import CodeEntryScreen
from firmware.ui.play import FaceEntryScreen, PlayScreen, ResultScreen
from firmware.ui.screen import ConfirmScreen
from sim.board import SimBoard
from sim.timing import TAP_S, hold_press_s
from tests.test_engines_at_board import pick, play_out, seat_up

DOC = Path(__file__).resolve().parent.parent / "docs" / "board.md"
SECTION = "## Every button on every screen"
ROW = re.compile(r"^\|\s*([^|]+?)\s*\|\s*([^|]+?)\s*\|\s*([^|]*?)\s*\|\s*`([^`]+)`\s*\|\s*$")


@dataclass(frozen=True)
class Row:
    screen: str
    gesture: str
    does: str
    tag: str

    def __str__(self) -> str:
        return f"{self.screen} × {self.gesture} → {self.tag}"


def doc_rows() -> list[Row]:
    """The table's rows (header and separator left out)."""
    text = DOC.read_text(encoding="utf-8")
    assert SECTION in text, f"docs/board.md has no section {SECTION!r}"
    rows = []
    for line in text.split(SECTION, 1)[1].splitlines():
        if line.startswith("## "):
            break
        match = ROW.match(line)
        if match:
            rows.append(Row(*match.groups()))
    return rows


# --- bringing a board to each screen ---------------------------------------------------------
@pytest.fixture(scope="module", autouse=True)
def _with_an_operator_code(tmp_path_factory: pytest.TempPathFactory) -> Iterator[None]:
    """The boards below have an operator's code (the code entry rows need one)."""
    global BOARD_FILE
    folder = tmp_path_factory.mktemp("board")
    BOARD_FILE = folder / "board.toml"
    BOARD_FILE.write_text(default_board_path().read_text(encoding="utf-8"), encoding="utf-8")
    write_code_file(folder / "operator-code", StoredCode.make(("left", "right", "ok", "roll"), n=2))
    yield
    BOARD_FILE = None


BOARD_FILE: Path | None = None


def _board() -> SimBoard:
    return SimBoard(seed=21, board_file=BOARD_FILE)


def _menu(board: SimBoard) -> None:
    pick(board, ("demo", None))


def _seat_count(board: SimBoard) -> None:
    pick(board, ("play", "exxtra"))


def _seat(board: SimBoard) -> None:
    _seat_count(board)
    pick(board, 3)


def _last_seat(board: SimBoard) -> None:
    _seat(board)
    board.tap("ok")
    board.tap("ok")


def _name_entry(board: SimBoard) -> None:
    _seat(board)
    board.tap("left")  # "New name"
    board.tap("ok")
    board.tap("ok")  # "A" typed


def _settings(board: SimBoard) -> None:
    pick(board, ("settings", None))


def _page(board: SimBoard) -> None:
    pick(board, ("rules", None))
    pick(board, "levelx")


def _roll_prompt(board: SimBoard) -> None:
    seat_up(board, "exxtra", ["human", "human", "human"])


def _deciding(game: str) -> Callable[[SimBoard], None]:
    def reach(board: SimBoard) -> None:
        seat_up(board, game, ["human", "human", "human"])
        for _ in range(20):  # an EXXTRA double or an X can end the turn: roll until a choice
            board.tap("roll")
            board.settle()
            play = board.app.screen
            if isinstance(play, PlayScreen) and play.choice is not None and len(play.choice.options) > 2:
                return
            if isinstance(play, PlayScreen) and play.choice is not None:
                board.tap("ok")
                board.settle()
        raise AssertionError(f"{game}: no decision with three options came")

    return reach


def _bots_turn(board: SimBoard) -> None:
    seat_up(board, "levelx", ["bot:easy", "human"])
    while board.app.animation is not None or not board.app.session.pending_bot():
        board.wait(0.01)


def _game_menu(board: SimBoard) -> None:
    _roll_prompt(board)
    board.hold("back")


def _confirm(board: SimBoard) -> None:
    _game_menu(board)
    pick(board, "abandon")


def _dice_entry(board: SimBoard) -> None:
    board.app.settings = replace(board.app.settings, dice_mode="physical")
    _roll_prompt(board)
    board.tap("roll")


def _result(board: SimBoard) -> None:
    seat_up(board, "extra", ["human"])
    play_out(board, set())


def _key_moments(board: SimBoard) -> None:
    _result(board)
    result = board.app.screen
    while result.page.name != KEY_MOMENTS:
        board.tap("right")
    board.settle()
    board.tap("ok")


def _game_log(board: SimBoard) -> None:
    """The review's game log, one page on from its first: every way to page is open."""
    _result(board)
    result = board.app.screen
    while result.page.name != "game log":
        board.tap("right")
    board.tap("ok")
    board.tap("right")


def _lesson_page(board: SimBoard) -> None:
    _seat_count(board)
    pick(board, "learn")
    board.settle()


SCREENS: dict[str, tuple[Callable[[SimBoard], None], type]] = {
    "Main menu": (lambda board: None, MainMenu),
    "Menu": (_menu, object),
    "Seat count": (_seat_count, object),
    "Seat": (_seat, SeatScreen),
    "Last seat": (_last_seat, SeatScreen),
    "Name entry": (_name_entry, NameEntryScreen),
    "Settings": (_settings, object),
    "Page": (_page, RulesScreen),
    "Roll prompt": (_roll_prompt, PlayScreen),
    "EXXTRA decision": (_deciding("exxtra"), PlayScreen),
    "LEVEL X decision": (_deciding("levelx"), PlayScreen),
    "EXTRA! decision": (_deciding("extra"), PlayScreen),
    "Bot's turn": (_bots_turn, PlayScreen),
    "Game menu": (_game_menu, GameMenu),
    "Confirm": (_confirm, ConfirmScreen),
    "Dice entry": (_dice_entry, FaceEntryScreen),
    "Result": (_result, ResultScreen),
    "Key moments": (_key_moments, MomentsScreen),
    "Game log": (_game_log, GameLogScreen),
    "Lesson page": (_lesson_page, LessonPage),
    "Power-up": (lambda board: None, MainMenu),
}


# --- gestures ------------------------------------------------------------------------------
def gesture(board: SimBoard, name: str, screen: str = "") -> None:
    words = name.split()
    if screen == "Power-up":  # the button is down while the board starts, and let go once it is ready
        board.press(words[1].lower())
        board.power_cycle()
        board.release(words[1].lower())
        board.wait(TAP_S)
    elif words[0] == "hold" and "+" in words[1]:  # both down (BACK first), for the time the row names
        first, second = words[1].lower().split("+")
        board.press(second)
        board.press(first)
        board.wait(float(words[3]) + 0.1)
        board.release(first)
        board.release(second)
        board.wait(TAP_S)
    elif name == "LEFT+RIGHT":
        board.press("left")
        board.press("right")
        board.release("right")
        board.release("left")
        board.wait(0.05)
    elif words[0] == "hold":  # no long wait after the release: the cue lasts a second
        board.press(words[1].lower())
        board.wait(hold_press_s(board.config.buttons.hold_s))
        board.release(words[1].lower())
        board.wait(TAP_S)
    elif words[0] == "held":
        board.press(words[1].lower())
        board.wait(REPEAT_DELAY_S + 2 * REPEAT_EVERY_S + 0.01)
        board.release(words[1].lower())
    else:
        board.tap(name.lower())


# --- what the board looks like, before and after --------------------------------------------
@dataclass
class Look:
    screen: Any
    depth: int
    index: int | None
    count: int
    steps: int
    session: Any
    seat: tuple[str, str] | None
    values: tuple[Any, ...] | None
    top: int | None
    view: Any
    settings: Any
    stage: Any = None  # a choice in stages: which stage LEFT/RIGHT change
    typed: str | None = None  # the name entry's text


def _scrolled(screen: Any) -> int | None:
    """How far a page is scrolled or turned (text pages scroll by lines, rules turn pages)."""
    return getattr(screen, "top", getattr(screen, "page", None))


def look(board: SimBoard) -> Look:
    app = board.app
    screen = app.screen
    choice = getattr(screen, "choice", None)
    play = app.play_screen()
    seat = (screen.kind(), screen.seat.colour) if isinstance(screen, SeatScreen) else None
    values = (screen.index, *screen.values) if isinstance(screen, FaceEntryScreen) else None
    index = (
        choice.index
        if choice is not None
        else screen.index
        if isinstance(screen, ResultScreen | NameEntryScreen)
        else None
    )
    return Look(
        screen,
        len(app.stack),
        index,
        len(choice.options) if choice is not None else 0,
        len(app.session.game.history) if app.session is not None else -1,
        app.session,
        seat,
        values,
        _scrolled(screen),
        play.view if play is not None else None,
        app.settings,
        getattr(choice, "level", None),
        screen.text if isinstance(screen, NameEntryScreen) else None,
    )


def effect(tag: str, board: SimBoard, before: Look, after: Look) -> bool:
    app = board.app
    same = after.screen is before.screen
    if tag in ("cursor+1", "cursor-1"):
        step = 1 if tag == "cursor+1" else -1
        return same and after.index == (before.index + step) % before.count  # type: ignore[operator]
    if tag == "cursor+n":
        return same and (after.index - before.index) % before.count > 1  # type: ignore[operator]
    if tag == "option":
        return same and after.index != before.index
    if tag == "letter":
        return same and after.typed != before.typed
    if tag == "stage":
        choice = app.screen.choice if same else None
        return (after.stage != before.stage and choice is not None) or effect("step", board, before, after)
    if tag == "open":
        return after.depth > before.depth
    if tag == "close":
        return after.depth < before.depth and app.screen is not before.screen
    if tag == "start":
        return before.session is None and isinstance(app.screen, PlayScreen)
    if tag == "step":
        while app.animation is not None:
            board.wait(0.02)
        return app.session is not None and len(app.session.game.history) > before.steps
    if tag == "kind":
        return same and after.seat is not None and after.seat[0] != before.seat[0]  # type: ignore[index]
    if tag == "colour":
        return same and after.seat is not None and after.seat[1] != before.seat[1]  # type: ignore[index]
    if tag == "value":
        return same and after.settings != before.settings
    if tag == "scroll":
        board.app.image(board.board.hardware.display.canvas_size)  # the page clamps when drawn
        return same and _scrolled(app.screen) != before.top
    if tag == "view":
        return same and after.view != before.view
    if tag == "menu":
        return isinstance(app.screen, GameMenu)
    if tag == "game":
        return isinstance(app.screen, PlayScreen) and app.session is before.session
    if tag == "home":
        return len(app.stack) == 1 and isinstance(app.screen, MainMenu)
    if tag == "face":
        return same and after.values is not None and after.values[1:] != before.values[1:]  # type: ignore[index]
    if tag == "next":
        return same and after.values is not None and after.values[0] == before.values[0] + 1  # type: ignore[index]
    if tag == "legend":
        return app.help.legend
    if tag == "legend-only":  # the legend and nothing else: no step, no tumble, no other screen
        return app.help.legend and same and app.animation is None and after.steps == before.steps
    if tag == "hint":
        board.board.agents.runner.submit(lambda: None)  # the worker has thought by then
        for _ in range(200):
            board.wait(0.05)
            if app.note is not None and app.note.startswith("Hint: "):
                return True
        return False
    if tag == "note":
        return app.note is not None
    if tag == "code":
        return isinstance(app.screen, CodeEntryScreen)
    if tag == "not-now":
        return app.help.cue == NOT_NOW and same and after.depth == before.depth and after.steps == before.steps
    raise AssertionError(f"docs/board.md: unknown tag {tag!r}")


ROWS = doc_rows()


def test_the_table_covers_every_screen_and_the_five_buttons() -> None:
    assert {row.screen for row in ROWS} == set(SCREENS)
    gestures = {row.gesture for row in ROWS}
    assert {"ROLL", "OK", "BACK", "LEFT", "RIGHT", "hold BACK", "hold ROLL", "LEFT+RIGHT"} <= gestures


@pytest.mark.parametrize("row", ROWS, ids=str)
def test_each_row_of_the_table_is_what_the_board_does(row: Row) -> None:
    reach, kind = SCREENS[row.screen]
    board = _board()
    try:
        reach(board)
        board.wait(0.01)
        assert isinstance(board.app.screen, kind), f"{row.screen}: reached {type(board.app.screen).__name__}"
        before = look(board)
        gesture(board, row.gesture, row.screen)
        after = look(board)
        assert effect(row.tag, board, before, after), (
            f"docs/board.md says {row.screen} × {row.gesture} → {row.tag} ({row.does}); "
            f"the board showed {' | '.join(board.screen_text())}"
        )
    finally:
        board.close()
