"""EXTRA! on the board: whole games through the buttons (people, bots, a child seat), the options
against the engine's legal decisions, the sheets as golden images (the rulebook's 210-point
sheet above all), LED scenes and animations, the result screen.

Regenerate the golden images with XTRABOARD_REGEN_GOLDEN=1 (then look at them)."""

from __future__ import annotations

import json
import random
from pathlib import Path
from typing import Any

import pytest
from goldens import check_golden as shared_check_golden
from PIL import Image

from firmware.bots import choose
from firmware.dice import SeededDice
from firmware.games import find_game
from firmware.games.base import Player, Roll
from firmware.games.extra.rules import COLUMN_SIZES, ROW_SIZES, SUMS, Choice, Extra, Sheet
from firmware.hardware.buttons import ButtonEvent
from firmware.journal import Journal
from firmware.loop import EventLoop, FakeClock
from firmware.records import replay_record
from firmware.ui.app import BoardApp
from firmware.ui.colours import OFF, PIP, PLAYER_COLOURS, dim
from firmware.ui.draw import Canvas, tiny_width
from firmware.games.extra import screens as ui
from firmware.games.extra import text
from firmware.ui.gameview import Records
from firmware.ui.play import DiceEntryScreen, PlayScreen, ResultScreen, records_of
from firmware.table import Seat, Table
from firmware.ui.settings import Settings
from tests.support import play_on
from firmware.ui.rules_page import rules_pages

GOLDEN = Path(__file__).parents[2] / "golden" / "extra"
EXAMPLE = Path(__file__).parents[2] / "data" / "extra_example_sheet.json"
THREE = GOLDEN / "three_players.json"  # a bots' game (Cleo a child seat), kept as data
SIZE = (128, 64)
WIDE, TALL = (256, 64), (128, 128)
PROFILES = {"small": SIZE, "wide": WIDE, "tall": TALL}
RED, BLUE, GREEN = PLAYER_COLOURS["red"], PLAYER_COLOURS["blue"], PLAYER_COLOURS["green"]


# --- the board on a fake clock --------------------------------------------------------------
class Board:
    """The app driven only by button presses and its own timers on a fake clock."""

    def __init__(self, *, seed: int = 1, dice_mode: str = "electronic", journal: Any = None) -> None:
        self.clock = FakeClock()
        self.loop = EventLoop(self.clock)
        settings = Settings(dice_mode=dice_mode, bot_pace="fast")
        self.app = BoardApp(schedule=self.loop.call_later, seed=seed, settings=settings, journal=journal)

    def press(self, *names: str) -> None:
        for name in names:  # pressed and let go: no bot acts while a button is down
            self.app.button(ButtonEvent(name, "press"))
            self.app.button(ButtonEvent(name, "release"))

    def tick(self) -> bool:
        """Run the next timer (an animation frame, a bot's move); False when none is set."""
        deadline = self.loop.next_deadline()
        if deadline is None:
            return False
        self.clock.now = max(self.clock.now, deadline)
        self.loop.run_pending(self.app.button)
        return True

    def settle(self) -> None:
        """Let animations and bots run until the board waits for a person (or shows the result)."""
        for _ in range(100_000):
            if not self.tick():
                return
        raise AssertionError("the board never came to rest")

    @property
    def play(self) -> PlayScreen:
        screen = self.app.screen
        assert isinstance(screen, PlayScreen), f"expected the play screen, not {type(screen).__name__}"
        return screen

    def point(self, index: int) -> None:
        """Move the cursor to option `index` by the fewest presses (through the stages), ready
        for the OK that plays it."""
        choice = self.play.choice
        assert choice is not None
        self.press(*choice.route(index)[:-1])
        assert choice.index == index

    def pick(self, index: int) -> Any:
        """Move the cursor to option `index`, check it, press OK."""
        self.point(index)
        choice = self.play.choice
        assert choice is not None
        step = choice.current.value
        self.press("ok")
        return step

    def image(self, size: tuple[int, int] = SIZE) -> Image.Image:
        return self.app.image(size)


def start_from_menu(board: Board, kinds: list[str]) -> None:
    """Main menu -> Play EXTRA! -> seat count -> each seat (person, bot or child) -> play."""
    app = board.app
    for _ in range(10):
        if app.screen.choice.current.value == ("play", "extra"):
            break
        board.press("right")
    board.press("ok")
    for _ in range(10):
        if app.screen.choice.current.value == len(kinds):
            break
        board.press("right")
    board.press("ok")
    for kind in kinds:
        board.press(
            *["right"] * {"human": 0, "bot": 1, "kids": 2 + len(find_game("extra").levels)}[kind]
        )  # past "New name"
        board.press("ok")
    board.settle()
    assert [(p.bot is not None, p.kids) for p in app.session.game.players] == [(k == "bot", k == "kids") for k in kinds]


def load(path: Path, steps: int | None = None, bots: tuple[int, ...] = ()) -> Extra:
    """A game replayed from a record file, cut after `steps` steps, seats `bots` made bots."""
    record = json.loads(path.read_text())
    record["steps"] = record["steps"][:steps]
    for seat in bots:
        record["players"][seat]["bot"] = "easy"
    game = replay_record(record)
    assert isinstance(game, Extra)
    return game


# --- what the options must be ---------------------------------------------------------------
def sheet_after(game: Extra, decision: Choice) -> str:
    """The decider's sheet after `decision`, by the engine itself (on a copy)."""
    player = game.undecided[0]
    twin = game.copy()
    twin.apply(decision)
    return repr(twin.sheets[player])


def check_options(game: Extra, options: list[Any]) -> None:
    """Only legal decisions, each with its own effect, and every legal effect offered."""
    legal = game.legal_decisions()
    values = [option.value for option in options]
    assert all(value in legal for value in values)
    labels = [option.label for option in options]
    assert len(set(labels)) == len(labels)
    offered = [sheet_after(game, value) for value in values]
    assert len(set(offered)) == len(offered), "two options do the same"
    assert {sheet_after(game, decision) for decision in legal} == set(offered), "a legal effect is missing"


def play_out(board: Board, rng: random.Random) -> int:
    """Play to the result screen: people pick random options (and now and then flip through
    the sheets); returns how many decisions people made."""
    made = 0
    for _ in range(5_000):
        board.settle()
        app = board.app
        if isinstance(app.screen, ResultScreen):
            return made
        session = app.session
        game: Extra = session.game  # type: ignore[assignment]
        if session.awaiting_roll:
            board.press("roll")
            continue
        play = board.play
        assert play.choice is not None
        check_options(game, list(play.choice.options))
        assert read_sheet(board.image(WIDE), WIDE)[0] == dict(zip(SUMS, game.sheets[game.undecided[0]].row_crosses))
        board.image()  # the focus view draws
        if len(game.players) > 1 and rng.random() < 0.15:
            flip_all(board)
        history = len(game.history)
        step = board.pick(rng.randrange(len(play.choice.options)))
        assert game.history[history:] == [step]
        made += 1
    raise AssertionError("the game did not end")


def flip_all(board: Board) -> None:
    """ROLL shows every sheet in turn, then the decider's again; LEFT/RIGHT come back too."""
    play = board.play
    game: Extra = board.app.session.game  # type: ignore[assignment]
    decider = game.undecided[0]
    count = len(game.players)
    index = play.choice.index
    seen = []
    for _ in range(count):
        board.press("roll")
        seen.append(play.view)
        board.image()  # draws
    assert seen == [(decider + k) % count for k in range(count)]
    board.press("roll")
    assert play.view is None
    board.press("roll", "right", "left")
    assert play.view is None and play.choice.index == index


# --- reading the drawn sheet back ------------------------------------------------------------
def read_sheet(image: Image.Image, size: tuple[int, int]) -> tuple[dict[int, int], tuple[int, ...]]:
    """Crossed boxes per row and per EXTRA column, read from the pixels (a cross fills its box);
    crosses must be the leftmost (topmost) boxes."""
    layout = ui.sheet_layout(*size)
    pixels = image.convert("1").load()

    def filled(box: tuple[int, int, int, int]) -> bool:
        x0, y0, x1, y1 = box
        return all(pixels[x, y] for x in range(x0, x1 + 1) for y in range(y0, y1 + 1))

    def count(flags: list[bool]) -> int:
        crossed = sum(flags)
        assert flags == [True] * crossed + [False] * (len(flags) - crossed), f"crosses out of order: {flags}"
        return crossed

    rows = {s: count([filled(layout.row_box(s, i)) for i in range(ROW_SIZES[s])]) for s in SUMS}
    columns = tuple(
        count([filled(layout.column_box(c, i)) for i in range(size_)]) for c, size_ in enumerate(COLUMN_SIZES)
    )
    return rows, columns


def box_look(image: Image.Image, box: tuple[int, int, int, int]) -> str:
    """How a box is drawn: crossed (filled), cross (an X: to be crossed), empty (outline), end
    (outline with a bar) or wall (a dot)."""
    pixels = image.convert("1").load()
    x0, y0, x1, y1 = box
    if all(pixels[x, y] for x in range(x0, x1 + 1) for y in range(y0, y1 + 1)):
        return "crossed"
    if not pixels[x0, y0]:
        return "wall"
    if not pixels[x0 + 1, y0]:
        return "cross"
    return "end" if pixels[(x0 + x1) // 2, (y0 + y1) // 2] else "empty"


def shows_text(image: Image.Image, right: int, y: int, text: str) -> bool:
    """Whether exactly `text` (the layout's small font, right-aligned at `right`) is drawn there,
    with nothing just left of it."""
    font = ui.sheet_layout(*image.size).font
    probe = Canvas(image.size)
    font.write(probe, right - font.width(text) + 1, y, text)
    box = (right - tiny_width(text) - 2, y, right + 1, y + font.height)
    return probe.image.crop(box).tobytes() == image.convert("1").crop(box).tobytes()


def find_text(image: Image.Image, y: int, text: str) -> int | None:
    """The x where exactly `text` (3×5 font) is drawn on line `y`, or None."""
    width = tiny_width(text)
    probe = Canvas(image.size)
    for x in range(image.width - width + 1):
        probe.draw.rectangle((0, 0, image.width, image.height), fill=0)
        probe.tiny(x, y, text)
        box = (max(0, x - 1), y, min(image.width, x + width + 1), y + 5)
        if probe.image.crop(box).tobytes() == image.convert("1").crop(box).tobytes():
            return x
    return None


def check_golden(image: Image.Image, name: str) -> None:
    shared_check_golden("extra", name, image)


# --- whole games through the buttons ---------------------------------------------------------
@pytest.mark.parametrize(
    ("kinds", "seed"),
    [
        (["human"], 3),
        (["human", "bot", "kids"], 11),
        (["bot", "human", "bot", "kids", "bot", "human"], 5),
    ],
)
def test_complete_games_through_the_buttons_replay_to_the_same_result(kinds: list[str], seed: int) -> None:
    board = Board(seed=seed)
    start_from_menu(board, kinds)
    made = play_out(board, random.Random(seed))
    game = board.app.session.game
    record = game.to_record()
    assert made > 0 and game.is_over()
    assert replay_record(json.loads(json.dumps(record))).result() == record["result"] == game.result()
    assert board.app.screen.lines == ui.VIEW.result_lines(board.app.session, records_of(board.app.session))
    board.press("ok", "right", "ok")  # to the choice "Rematch", then "Menu"
    assert board.app.session is None


def test_the_rulebook_example_sheet_through_physical_dice_entry(tmp_path: Path) -> None:
    """Marie's 210-point sheet: every roll keyed in, every choice picked from the options."""
    example = json.loads(EXAMPLE.read_text())
    journal = Journal(tmp_path, clock=FakeClock(1000.0))
    board = Board(dice_mode="physical", journal=journal)
    app = board.app
    session = Table.start("extra", [Seat("Marie", "red")], journal=journal)
    app.start_session(session)
    board.settle()
    goldens = {1: "first_roll", 31: "free_ride"}  # the rulebook's "4, 6 and 3" and its free ride
    for index, data in enumerate(example["steps"]):
        step = Extra.parse_step(data)
        if isinstance(step, Roll):
            enter_dice(board, step.faces)
            continue
        options = list(board.play.choice.options)
        check_options(session.game, options)
        wanted = sheet_after(session.game, step)
        target = next(i for i, o in enumerate(options) if sheet_after(session.game, o.value) == wanted)
        if index == 1:
            assert options[target].label == "4+6 x3>B"
        if index in (15, 31):
            assert all(o.label.startswith("free: ") for o in options)
        if index in goldens:
            board.point(target)
            for profile, size in PROFILES.items():
                check_golden(board.image(size), f"{goldens[index]}_{profile}")
        if index == 1:  # the preview on the whole sheet: crosses-to-be in rows 4 and 6 and column B
            board.point(target)
            board.image()
            assert board.app.texts[:4] == ["x3", "4+6", "column B", "2/3"]  # the focus view: the column stage
            for size in (WIDE, TALL):
                layout = ui.sheet_layout(*size)
                image = board.image(size)
                assert [box_look(image, layout.row_box(s, 0)) for s in (3, 4, 5, 6)] == [
                    "wall",
                    "cross",
                    "wall",
                    "cross",
                ]
                assert [box_look(image, layout.column_box(c, 0)) for c in range(3)] == ["empty", "cross", "empty"]
                assert box_look(image, layout.column_box(0, 6)) == "end"
            board.press("roll")  # the small display's second page: the whole sheet with the preview
            layout, image = ui.sheet_layout(*SIZE), board.image()
            assert [box_look(image, layout.row_box(s, 0)) for s in (3, 4, 5, 6)] == ["wall", "cross", "wall", "cross"]
            board.press("roll")
            assert board.play.view is None
        board.pick(target)
        if index == len(example["steps"]) - 1:
            break
        board.settle()
    # the last choice ends Marie's game: its crosses blink, then her seat flashes
    frames = app.animation.frames
    assert [type(f).__name__ for f in frames] == ["SheetFrame"] * 8
    while app.animation.current.header != "game ends":
        assert board.tick()
    sheet = session.game.sheets[0]
    for profile, size in PROFILES.items():  # the rulebook's 210 sheet on every size class
        image = board.image(size)
        check_golden(image, f"example_210_{profile}")
        rows, columns = read_sheet(image, size)
        assert rows == {2: 1, 3: 0, 4: 10, 5: 3, 6: 10, 7: 8, 8: 0, 9: 0, 10: 2, 11: 7, 12: 5}
        assert rows == dict(zip(SUMS, sheet.row_crosses)) and columns == sheet.column_crosses == (7, 7, 7)
        layout = ui.sheet_layout(*size)
        assert shows_text(image, *layout.total_xy, "210")
        for total, score in example["result"]["rows"][0].items():
            if int(total) != 3 and int(total) < 8 or int(total) > 9:  # rows with crosses show a score
                assert shows_text(image, layout.score_right(int(total)), layout.text_y(int(total)), str(score)), total
    board.settle()
    assert isinstance(app.screen, ResultScreen)
    assert app.screen.lines == ["Marie: 210", "Won!", "New solo record!"]
    check_golden(board.image(), "example_result")
    assert replay_record(journal.record(session.journal_id)).result() == example["result"]


def test_an_equal_solo_total_is_not_a_new_record(tmp_path: Path) -> None:
    journal = Journal(tmp_path, clock=FakeClock(1000.0))
    example = json.loads(EXAMPLE.read_text())
    ids, lines = [], []
    for _ in range(2):
        session = Table.start("extra", [Seat("Marie", "red")], journal=journal)
        for data in example["steps"]:
            session.apply(Extra.parse_step(data))
        ids.append(session.journal_id)
        lines.append(ui.VIEW.result_lines(session, records_of(session)))
    assert lines == [["Marie: 210", "Won!", "New solo record!"], ["Marie: 210", "Won!"]]
    assert journal.solo_best().game_id == ids[0]


def enter_dice(board: Board, faces: tuple[int, ...]) -> None:
    """ROLL, then each die's face with RIGHT from 1 and OK."""
    board.press("roll")
    assert isinstance(board.app.screen, DiceEntryScreen)
    for face in faces:
        board.press(*["right"] * (face - 1), "ok")
    board.settle()
    assert board.app.session.game.faces == tuple(faces)


# --- the options -------------------------------------------------------------------------------
def test_first_roll_options_are_labelled_as_spoken_and_ordered_by_face_then_sums() -> None:
    game = Extra(["Marie"])
    game.apply(Roll((1, 2, 2, 3, 5)))
    session = Table(game, ["red"], None)
    labels = [o.label for o in ui.VIEW.options(None, session)]  # type: ignore[arg-type]
    # the two 2s are the same die to a player; equal sums collapse (2+3 and 2+5 either way)
    assert labels[:9] == [
        "4+8 x1>A",
        "4+8 x1>B",
        "4+8 x1>C",
        "5+7 x1>A",
        "5+7 x1>B",
        "5+7 x1>C",
        "3+8 x2>A",
        "3+8 x2>B",
        "3+8 x2>C",
    ]
    assert len(labels) == 27 and "4+6 x3>B" in labels
    check_options(game, ui.VIEW.options(None, session))  # type: ignore[arg-type]


def test_sums_of_full_rows_are_bracketed_and_choices_with_the_same_effect_collapse() -> None:
    sheet = Sheet.filled({3: 9, 4: 10, 6: 13, 7: 13}, numbers=(3, None, None), column_crosses=(1, 0, 0))
    faces = (3, 2, 2, 1, 5)
    four_six = Choice(0, 0, None, ((1, 2), (3, 4)))  # 2+2, 1+5
    three_seven = Choice(0, 0, None, ((1, 3), (2, 4)))  # 2+1, 2+5
    assert text.label(sheet, faces, four_six) == "(4)+(6) x3"
    assert text.label(sheet, faces, three_seven) == "(3)+(7) x3"
    assert ui.effect(sheet, faces, four_six) == ui.effect(sheet, faces, three_seven) == (3, None, ())
    assert text.label(sheet, faces, Choice(0, 3, 1, ((0, 4), (1, 2)))) == "(4)+8 x1>B"
    # one box left in row 6: 3+3 and 3+3 cross it once
    one_left = Sheet.filled({6: 12})
    assert text.label(one_left, (3, 3, 3, 3, 1), Choice(0, 4, 0, ((0, 1), (2, 3)))) == "6+(6) x1>A"
    assert text.crossed_sums(one_left, [6, 6]) == [6] and text.crossed_sums(Sheet.filled({6: 13}), [6, 6]) == []


def test_three_numbers_owned_make_a_free_ride_or_force_the_extra_die() -> None:
    game = load(EXAMPLE, 31)  # Marie owns 6, 3 and 1; the roll 2 4 5 5 5 shows none
    session = Table(game, ["red"], None)
    assert game.faces == (2, 4, 5, 5, 5)
    labels = [o.label for o in ui.VIEW.options(None, session)]  # type: ignore[arg-type]
    assert labels == ["free: 6+10", "free: 7+9", "free: 7+10", "free: 9+10"]
    game = load(EXAMPLE, 33)  # 3 3 2 4 6: she must keep a 3 or the 6
    session = Table(game, ["red"], None)
    labels = [o.label for o in ui.VIEW.options(None, session)]  # type: ignore[arg-type]
    assert {label.split(" x")[1] for label in labels} == {"3", "6"}
    check_options(game, ui.VIEW.options(None, session))  # type: ignore[arg-type]


# --- screens ----------------------------------------------------------------------------------
def three_player_board(steps: int, bots: tuple[int, ...] = ()) -> Board:
    board = Board()
    game = load(THREE, steps, bots=bots)
    board.app.start_session(Table(game, ["red", "blue", "green"], SeededDice(1)))
    return board


def test_sheets_flip_with_roll_and_show_ended_players() -> None:
    board = three_player_board(61)  # Anna's game has ended; Ben decides on the roll
    board.settle()
    game: Extra = board.app.session.game  # type: ignore[assignment]
    assert game.in_game == (1, 2) and game.undecided == (1, 2)
    check_golden(board.image(), "three_ben_decides")
    board.press("roll")  # Ben's own whole sheet first
    assert board.play.view == 1
    check_golden(board.image(), "three_ben_sheet")
    board.press("roll")
    assert board.play.view == 2
    check_golden(board.image(), "three_flip_cleo")
    board.press("roll")
    assert board.play.view == 0
    check_golden(board.image(), "three_flip_anna_ended")
    assert read_sheet(board.image(), SIZE)[1] == game.sheets[0].column_crosses == (3, 8, 4)
    board.press("roll")
    assert board.play.view is None


def test_while_a_bot_decides_roll_flips_the_sheets_and_the_bot_goes_on() -> None:
    board = three_player_board(58, bots=(1,))  # Ben (a bot) decides next
    game: Extra = board.app.session.game  # type: ignore[assignment]
    assert game.undecided == (1, 2) and board.app.session.pending_bot()
    check_golden(board.image(), "three_bot_plays")
    board.press("roll")
    assert board.play.view == 2
    board.press("roll", "roll")
    assert board.play.view is None
    board.settle()
    assert game.undecided == (2,) and board.play.choice is not None


def test_the_roller_is_prompted_and_the_result_ranks_everyone() -> None:
    board = three_player_board(60)  # Ben rolls next; Anna's game has ended
    board.settle()
    game: Extra = board.app.session.game  # type: ignore[assignment]
    assert game.pending().kind == "roll" and game.roller == 1
    check_golden(board.image(), "three_roll_prompt")
    # finish the game as recorded
    record = json.loads(THREE.read_text())
    for data in record["steps"][60:]:
        board.app.step(Extra.parse_step(data))
        board.settle()
    assert isinstance(board.app.screen, ResultScreen)
    assert board.app.screen.lines == ["Cleo wins!", "*Cleo -540", " Anna -1010", " Ben -2000"]
    check_golden(board.image(), "three_result")


def test_a_long_name_gives_way_to_the_option_in_the_header() -> None:
    record = json.loads(EXAMPLE.read_text())
    record["players"] = [{"name": "Maximiliane"}]
    record["steps"] = record["steps"][:31]  # the free ride
    board = Board()
    board.app.start_session(Table(replay_record(record), ["red"], SeededDice(1)))
    board.settle()
    assert board.play.choice.current.label == "free: 6+10"
    board.image()
    assert board.app.texts[:3] == ["free ride", "6+10", "1/4"]  # the focus view: the pairs stage
    wide = board.image(WIDE)
    layout = ui.sheet_layout(*WIDE)
    assert ui.header_room(layout) >= 11 and find_text(wide, 0, "Maximiliane") == 0  # room for all of it
    assert board.app.texts[-3:] == ["free", "6+10", "1/4"]  # the option above the second block
    board.press("roll")  # the small display's whole sheet: the option in the header
    board.image()
    assert "free 6+10" in board.app.texts


def test_rules_fit_the_display() -> None:
    """The rules page the menus open (the view's paragraphs): whole lines, a handful of pages."""
    canvas = Canvas(SIZE)
    pages = rules_pages("extra", canvas.columns, canvas.lines - 1)
    assert 3 <= len(pages) <= 10
    assert all(len(page) <= canvas.lines - 1 and all(len(line) <= canvas.columns for line in page) for page in pages)


@pytest.mark.parametrize("size", [(128, 32), (256, 64), (128, 128), (96, 16), (320, 240)])
def test_other_display_sizes_draw_without_trouble(size: tuple[int, int]) -> None:
    board = three_player_board(61)
    board.settle()
    images = [board.image(size)]
    board.press("roll", "roll")
    images.append(board.image(size))
    board.pick(0)
    images.append(board.image(size))  # the animation
    for image in images:
        assert image.size == size and image.getbbox() is not None
    if size[1] >= 64:  # rows of at least 5 px: the sheet reads back
        board.settle()
        game: Extra = board.app.session.game  # type: ignore[assignment]
        rows, _ = read_sheet(board.image(size), size)
        assert rows == dict(zip(SUMS, game.sheets[game.undecided[0]].row_crosses))


def test_a_child_writes_a_new_number_without_a_cross() -> None:
    board = three_player_board(3)  # Cleo, a child seat, decides on the first roll
    board.settle()
    game: Extra = board.app.session.game  # type: ignore[assignment]
    assert game.undecided == (2,) and game.players[2].kids
    options = list(board.play.choice.options)
    target = next(i for i, o in enumerate(options) if o.label.endswith(">C"))
    board.point(target)
    face = game.faces[board.play.choice.current.value.extra]
    image, layout = board.image(WIDE), ui.sheet_layout(*WIDE)
    assert box_look(image, layout.column_box(2, 0)) == "empty"  # no cross to come
    corners = [bool(image.getpixel((layout.columns_x[c], 0))) for c in range(3)]
    assert corners == [False, False, True]  # the number to be written stands inverted over column C
    board.image()
    assert "new" in board.app.texts  # the focus view: a new number, no cross
    board.press("ok")
    board.settle()
    assert game.sheets[2].numbers[2] == face and game.sheets[2].column_crosses == (0, 0, 0)


# --- LEDs ---------------------------------------------------------------------------------------
def pips(die: int, *indices: int, colour: tuple[int, int, int] = PIP) -> dict[str, Any]:
    return {f"dice.{die}.{p}": colour for p in indices}


def test_led_frame_of_the_first_roll_shows_the_extra_die_in_the_deciders_colour_and_the_pairs() -> None:
    """1 2 2 3 5: the extra die in red, the pair of the lower sum white, the other pair dim."""
    board = Board()
    game = load(EXAMPLE, 1)
    board.app.start_session(Table(game, ["red"], None))  # type: ignore[arg-type]
    board.settle()
    assert board.play.choice.current.label == "4+8 x1>A"  # 2+2 white, 3+5 dim
    grey = dim(PIP)
    expected = {"seat.0": [RED, OFF]}
    expected |= pips(0, 3, colour=RED) | pips(1, 0, 6) | pips(2, 0, 6)
    expected |= pips(3, 0, 3, 6, colour=grey) | pips(4, 0, 1, 3, 5, 6, colour=grey)
    assert board.app.frame() == expected
    board.press("ok", "right")  # the pairs stage: 2+3 white, 2+5 dim
    assert board.play.choice.current.label == "5+7 x1>A"
    frame = board.app.frame()
    assert frame["dice.0.3"] == RED and frame["dice.3.3"] == PIP and frame["dice.4.3"] == grey
    assert {frame["dice.1.0"], frame["dice.2.0"]} == {PIP, grey}
    board.press("back", "right")  # back to the extra die: the next face, a 2 (die 1)
    assert board.play.choice.current.label == "3+8 x2>A"
    frame = board.app.frame()
    assert frame["dice.1.0"] == frame["dice.1.6"] == RED and frame["dice.0.3"] == frame["dice.2.0"] == PIP


def test_led_frame_while_a_roll_is_pending_marks_the_roller_and_dims_ended_players() -> None:
    board = three_player_board(60)
    board.settle()
    assert board.app.frame() == {"seat.0": dim(RED), "seat.1": [BLUE, PIP], "seat.2": GREEN}


def test_a_decision_animates_its_crosses_on_the_sheet_and_the_extra_die_on_the_leds() -> None:
    board = Board()
    game = load(EXAMPLE, 1)
    board.app.start_session(Table(game, ["red"], None))  # type: ignore[arg-type]
    board.settle()
    options = list(board.play.choice.options)
    board.pick(next(i for i, o in enumerate(options) if o.label == "4+6 x3>B"))
    animation = board.app.animation
    assert [f.seconds for f in animation.frames] == [0.2] * 4
    first = animation.frames[0]
    assert isinstance(first, ui.SheetFrame) and first.header == "4+6 x3" and first.caption == ""
    lit = {k: v for k, v in first.leds.items() if v != OFF}
    assert lit == {"seat.0": RED} | pips(0, 3) | pips(1, 0, 6) | pips(2, 0, 6) | pips(3, 0, 3, 6, colour=RED) | pips(
        4, 0, 1, 3, 5, 6
    )
    assert len(first.leds) == 36  # every pip is set, lit or off
    blink = board.image()  # the new crosses as crosses-to-be
    assert read_sheet(blink, SIZE) == ({s: 0 for s in SUMS}, (0, 0, 0))
    assert board.tick()
    crossed = read_sheet(board.image(), SIZE)
    assert crossed == ({s: int(s in (4, 6)) for s in SUMS}, (0, 1, 0))
    check_golden(blink, "cross_blink")
    board.settle()
    assert board.app.animation is None and board.app.session.awaiting_roll


def test_a_roll_adds_no_animation_of_its_own() -> None:
    board = Board()
    session = Table(Extra(["Marie"]), ["red"], None)  # type: ignore[arg-type]
    board.app.start_session(session)
    session.game.apply(Roll((1, 2, 2, 3, 5)))
    assert ui.VIEW.animation(board.app, session, session.game.events) == []


# --- the result -------------------------------------------------------------------------------
def test_a_solo_win_says_new_record_only_when_the_records_say_so() -> None:
    """The view is given what the journal says (`Records`); a table without one is enough."""
    marie = Extra(["Marie"])
    for data in json.loads(EXAMPLE.read_text())["steps"]:
        marie.apply(Extra.parse_step(data))
    table = Table(marie, ["red"], SeededDice(1))
    assert records_of(table) == Records()  # no journal: nothing to say
    assert ui.VIEW.result_lines(table, Records()) == ["Marie: 210", "Won!"]
    assert ui.VIEW.result_lines(table, Records(solo_record=True)) == ["Marie: 210", "Won!", "New solo record!"]


def test_result_lines_for_a_solo_loss_a_shared_win_and_six_players() -> None:
    lost = Extra(["Anna"])
    for _ in range(7):  # 3+3 and 4+4 stay in the walls of rows 6 and 8; the 6 ends a column
        lost.apply(Roll((6, 3, 3, 4, 4)))
        lost.apply(Choice(0, 0, None if lost.sheets[0].numbers[0] else 0, ((1, 2), (3, 4))))
    assert ui.VIEW.result_lines(Table(lost, ["red"], SeededDice(1)), Records()) == ["Anna: -400", "Lost (below 0)"]

    example = json.loads(EXAMPLE.read_text())
    twins = Extra(["Anna", "Ben"])  # both play Marie's sheet
    for data in example["steps"]:
        step = Extra.parse_step(data)
        for player in (0, 1) if isinstance(step, Choice) else (None,):
            twins.apply(step if player is None else Choice(player, step.extra, step.column, step.pairs))
    assert ui.VIEW.result_lines(Table(twins, ["red", "blue"], SeededDice(1)), Records()) == [
        "Anna & Ben share",
        "*Anna 210",
        "*Ben 210",
    ]

    six = Extra([Player(n, "easy") for n in ("Anna", "Ben", "Cleo", "Dora", "Emil", "Fritz")])
    rng = random.Random(4)
    play_on(six, SeededDice(4), decide=lambda game: choose(game, rng))
    lines = ui.VIEW.result_lines(Table(six, ["red"] * 6, SeededDice(1)), Records())
    scores, winners = six.result()["scores"], six.result()["winners"]
    ranked = sorted(range(6), key=lambda p: (-scores[p], p))
    assert len(lines) == 7 and lines[0] in (
        "Anna Ben Cleo Dora Emil Fritz".split()[winners[0]] + " wins!",
        " & ".join(six.players[w].name for w in winners) + " share",
    )
    assert all(len(line) <= 21 for line in lines)
    cells = [line.lstrip("*").split() for line in lines[1:]]  # a line each, whole names (never cut)
    assert [c[0] for c in cells] == [six.players[p].name for p in ranked]
    assert [int(c[1]) for c in cells] == [scores[p] for p in ranked]


def test_every_final_sheet_draws_as_a_result_page_best_first() -> None:
    board = three_player_board(len(json.loads(THREE.read_text())["steps"]))
    session = board.app.session
    game: Extra = session.game  # type: ignore[assignment]
    assert game.is_over() and ui.final_order(session) == [2, 0, 1]  # Cleo -540, Anna -1010, Ben -2000
    for profile, size in PROFILES.items():
        for page, player in enumerate(ui.final_order(session)):
            canvas = Canvas(size)
            ui.draw_final_sheet(canvas, session, player, f"{page + 2}/6")
            rows, columns = read_sheet(canvas.image, size)
            sheet = game.sheets[player]
            assert rows == dict(zip(SUMS, sheet.row_crosses)) and columns == sheet.column_crosses
            assert shows_text(canvas.image, *ui.sheet_layout(*size).total_xy, str(sheet.total))
            if page == 0:
                check_golden(canvas.image, f"final_cleo_{profile}")
