"""LEVEL X on the board, driven only by button events on a fake clock: complete games (people
and bots), the options offered against the engine's legal decisions, the lucky-loser screen,
golden OLED images (tests/golden/levelx/, regenerated with XTRABOARD_REGEN_GOLDEN=1), exact LED
frames for known positions, and the animations of a step."""

from __future__ import annotations

import random
from typing import Any

import pytest
from goldens import check_golden as shared_check_golden
from PIL import Image

from firmware.dice import ScriptedDice
from firmware.games import Roll
from firmware.games.levelx.rules import Groups, LevelX, TurnOnes
from firmware.hardware.buttons import ButtonEvent
from firmware.hardware.config import cell_names
from firmware.loop import EventLoop, FakeClock
from firmware.records import replay_record
from firmware.ui.app import BoardApp
from firmware.ui.colours import CLOSED, OFF, PIP, PLAYER_COLOURS, X_FIELD
from firmware.games.levelx import screens as ui
from firmware.games.levelx import text
from firmware.ui.play import Open, PlayScreen, ResultScreen
from firmware.table import Seat, Table
from firmware.ui.rules_page import rules_pages

SIZES = [(128, 64), (128, 32), (256, 64)]
RED, BLUE, GREEN, YELLOW = (PLAYER_COLOURS[c] for c in ("red", "blue", "green", "yellow"))
CELLS = set(cell_names())


# --- the rig: a board app, buttons and a fake clock --------------------------------------------
class Rig:
    def __init__(self, seed: int | str = 1, *, render: bool = True) -> None:
        self.loop = EventLoop(FakeClock())
        self.app = BoardApp(schedule=self.loop.call_later, seed=seed)
        self.render = render  # draw the OLED and LEDs after every timer, animations included

    def show(self) -> None:
        for size in SIZES:
            self.app.image(size)
        check_frame(self.app.frame())

    @property
    def game(self) -> LevelX:
        return self.app.session.game  # type: ignore[union-attr,return-value]

    def press(self, name: str, times: int = 1) -> None:
        for _ in range(times):  # pressed and let go: no bot acts while a button is down
            self.app.button(ButtonEvent(name, "press"))
            self.app.button(ButtonEvent(name, "release"))

    def back(self) -> None:
        self.app.button(ButtonEvent("back", "press"))
        self.app.button(ButtonEvent("back", "release"))

    def settle(self) -> None:
        """Let animations and bots run until the board waits for a person (or the game ends)."""
        for _ in range(100_000):
            deadline = self.loop.next_deadline()
            if deadline is None:
                return
            self.loop.clock.now = max(self.loop.clock.now, deadline)
            self.loop.run_pending(self.app.button)
            if self.render:
                self.show()
        raise AssertionError("the board never came to rest")

    def pick_menu(self, value: Any) -> None:
        """Move the current menu to the option with `value` and press OK."""
        for _ in range(len(self.app.screen.choice.options)):
            if self.app.screen.choice.current.value == value:
                self.press("ok")
                return
            self.press("right")
        raise AssertionError(f"no menu option {value!r}")

    def start(self, bots: list[bool]) -> None:
        """Main menu → Play LEVEL X → seat count → each seat person or bot, by buttons."""
        self.pick_menu(("play", "levelx"))
        self.pick_menu(len(bots))
        for bot in bots:
            if bot:
                self.press("right")
            self.press("ok")
        assert isinstance(self.app.screen, PlayScreen)
        self.settle()

    @property
    def choice(self) -> Any:
        play = self.app.screen
        assert isinstance(play, PlayScreen) and play.choice is not None
        return play.choice

    def labels(self) -> list[str]:
        return [o.label for o in self.choice.options]

    def go_to(self, index: int) -> None:
        """LEFT or RIGHT, whichever way is shorter, to option `index`."""
        count = len(self.choice.options)
        ahead = (index - self.choice.index) % count
        if ahead <= count - ahead:
            self.press("right", ahead)
        else:
            self.press("left", count - ahead)
        assert self.choice.index == index

    def choose(self, label: str) -> None:
        labels = self.labels()
        assert label in labels, f"{label!r} not offered: {labels}"
        self.go_to(labels.index(label))
        self.press("ok")

    def turn(self, faces: tuple[int, ...], label: str) -> None:
        """A scripted turn: these dice, then the option `label`."""
        self.app.session.dice = ScriptedDice([faces])  # type: ignore[union-attr]
        self.press("roll")
        self.settle()
        self.choose(label)
        self.settle()

    def png(self, size: tuple[int, int] = (128, 64)) -> Image.Image:
        return self.app.image(size)


def check_golden(name: str, image: Image.Image) -> None:
    shared_check_golden("levelx", name, image)


# --- what the options must be ---------------------------------------------------------------
def state_after(game: LevelX, step: Any) -> tuple[Any, ...]:
    twin = game.copy()
    twin.apply(step)
    return (
        twin.pieces,
        twin.x_holders,
        twin.chips_left,
        twin.chip_counts,
        twin.bonus,
        twin.tiles_left,
        twin.supply,
        twin.lost,
        twin.end_triggered,
        twin.pending(),
        twin.round_number,
    )


def check_options(game: LevelX, options: list[Any]) -> None:
    """Options = the legal decisions, one per distinct effect; "Turn ones..." first when allowed."""
    legal = game.legal_decisions()
    turns = [d for d in legal if isinstance(d, TurnOnes)]
    groupings = [d for d in legal if isinstance(d, Groups)]
    values = [o.value for o in options]
    if turns:
        assert isinstance(values[0], Open) and options[0].label == "Turn ones..."
        assert len(turns) == 6**game.ones_to_turn  # every face for every turned die: the sub-screen
    assert sum(isinstance(v, Open) for v in values) == (1 if turns else 0)
    chosen = [v for v in values if not isinstance(v, Open)]
    assert all(isinstance(v, Groups) and v in groupings for v in chosen), "an option is not legal"
    effects = [state_after(game, v) for v in chosen]
    assert len(set(effects)) == len(effects), "two options do the same"
    assert {state_after(game, g) for g in groupings} == set(effects), "a legal effect is not offered"
    labels = [o.label for o in options]
    assert len(set(labels)) == len(labels)


def check_frame(frame: dict[str, Any]) -> None:
    for cell, value in frame.items():
        assert cell in CELLS, cell
        for colour in value if isinstance(value, list) else [value]:
            assert len(colour) == 3 and all(0 <= c <= 255 for c in colour), (cell, value)


def play_out(table: Rig, rng: random.Random) -> None:
    """People pick pseudo-random options by buttons; bots and animations run on the clock."""
    app = table.app
    for _ in range(5000):
        table.settle()
        if app.session.over:  # type: ignore[union-attr]
            return
        if table.render:
            table.show()
        if app.session.awaiting_roll:  # type: ignore[union-attr]
            table.press("roll")
            continue
        game = table.game
        check_options(game, list(table.choice.options))
        index = rng.randrange(len(table.choice.options))
        table.go_to(index)
        if rng.random() < 0.1:  # the score table and back
            table.press("roll")
            if table.render:
                table.show()
            table.press("roll")
        value = table.choice.current.value
        table.press("ok")
        if isinstance(value, Open):
            turned = [rng.randrange(6) for _ in range(game.ones_to_turn)]
            for presses in turned:
                if table.render:
                    table.show()
                table.press("right", presses)
                table.press("ok")
            assert game.history[-1] == TurnOnes(tuple(p + 1 for p in turned))
    raise AssertionError("the game did not end")


def check_record(table: Rig) -> None:
    assert not table.app.problems  # no illegal step was ever tried
    session = table.app.session
    assert isinstance(table.app.screen, ResultScreen)
    record = session.game.to_record()  # type: ignore[union-attr]
    replayed = replay_record(record)
    assert replayed.result() == session.game.result() == record["result"]  # type: ignore[union-attr]
    assert replayed.history == session.game.history  # type: ignore[union-attr]


# --- complete games -------------------------------------------------------------------------
@pytest.mark.parametrize(
    "seed, bots",
    [
        (11, [False, False]),
        (12, [False, True, False]),
        (13, [True, False, True, False]),
    ],
)
def test_complete_game_through_the_buttons(seed: int, bots: list[bool]) -> None:
    table = Rig(seed)
    table.start(bots)
    play_out(table, random.Random(seed))
    check_record(table)
    lines = table.app.screen.lines  # type: ignore[attr-defined]
    game = table.game
    assert lines[0].startswith(("Winner: ", "Shared: "))
    assert len(lines) == 1 + len(game.players)
    for size in SIZES:
        table.png(size)
    table.press("ok")  # to the choice "Rematch", then "Menu"
    table.press("right")
    table.press("ok")
    assert table.app.session is None


def test_bots_only_game_and_score_table_while_they_play() -> None:
    table = Rig("bots")
    table.pick_menu(("demo", None))
    table.pick_menu("levelx")
    table.pick_menu(4)
    play = table.app.screen
    assert isinstance(play, PlayScreen) and table.app.session.pending_bot()  # type: ignore[union-attr]
    table.press("roll")  # while the bots play, ROLL flips to the score table and back
    assert play.view == 0
    table.png()
    table.press("roll")
    assert play.view is None
    table.settle()
    check_record(table)


# --- the lucky loser ------------------------------------------------------------------------
def three_players() -> Rig:
    """Red, Blue, Green (people) after three scripted turns:
    Red on row 5's X with a 5-chip; Blue on rows 6 (field 1) and 7 (field 0); Green on 10's X."""
    table = Rig()
    table.start([False, False, False])
    table.turn((5, 5, 5, 5), "5+5+5+5")
    table.turn((3, 4, 6, 6), "6+6+7")
    table.turn((4, 6, 4, 6), "10+10")
    return table


def test_known_position() -> None:
    game = three_players().game
    assert game.pieces == (
        (3, None, None, None, None, None),
        (None, 1, 0, None, None, None),
        (None, None, None, None, None, 1),
    )
    assert game.chip_counts[0][0] == 1 and game.chip_counts[2][5] == 1 and game.current_player == 0


def test_turn_ones_screen() -> None:
    table = three_players()
    table.app.session.dice = ScriptedDice([(1, 1, 1, 4)])  # type: ignore[union-attr]
    table.press("roll")
    table.settle()
    check_options(table.game, list(table.choice.options))
    assert table.labels()[0] == "Turn ones..."
    check_golden("ones_offered", table.png())
    table.press("ok")
    screen = table.app.screen
    assert isinstance(screen, ui.TurnOnesScreen) and screen.dice == [0, 1]  # the last 1 stays
    faces = []
    for _ in range(6):  # RIGHT visits every face and comes back
        faces.append(screen.new[0])
        table.press("right")
    assert sorted(faces) == [1, 2, 3, 4, 5, 6] and screen.new[0] == 1
    table.press("left")
    assert screen.new[0] == 6
    table.press("ok")
    table.press("right", 4)
    check_golden("turn_ones", table.png())
    for size in SIZES:
        table.png(size)
    frame = table.app.frame()
    assert frame["dice.1.0"] == [PIP, OFF] and frame["dice.0.2"] == PIP  # die 1 (a 5) blinks
    table.back()  # back to the first die, then out
    assert screen.index == 0
    table.back()
    assert isinstance(table.app.screen, PlayScreen) and table.game.ones_to_turn == 2
    table.press("ok")
    table.press("left")
    table.press("ok")
    table.press("right", 4)
    table.press("ok")
    assert table.game.history[-1] == TurnOnes((6, 5))
    assert table.app.animation is not None and table.app.animation.current.caption == "Red turns the ones"
    table.settle()
    assert table.game.faces == (6, 5, 1, 4) and "Turn ones..." not in table.labels()
    check_options(table.game, list(table.choice.options))
    assert table.labels()[0] == "5+5+6"
    check_golden("after_turning", table.png())


# --- screens ----------------------------------------------------------------------------------
def test_golden_screens() -> None:
    table = three_players()
    check_golden("roll_pending", table.png())
    table.app.session.dice = ScriptedDice([(5, 5, 5, 5)])  # type: ignore[union-attr]
    table.press("roll")
    table.settle()
    assert table.labels() == ["5+5+5+5", "5+5+5", "5+5+10", "5+5", "5+10", "10+10", "5", "10", "pass"]
    check_golden("decision", table.png())
    table.go_to(5)
    check_golden("decision_oust", table.png())
    check_golden("decision_128x32", table.png((128, 32)))
    check_golden("decision_256x64", table.png((256, 64)))
    table.press("roll")
    check_golden("scores", table.png())
    table.press("roll")
    table.go_to(8)
    check_golden("decision_pass", table.png())


def test_names_that_are_not_colours() -> None:
    table = Rig()
    seats = [Seat("Alexandra", "purple"), Seat("Bo", "cyan")]
    table.app.start_session(Table.start("levelx", seats, seed=3))
    check_golden("named_players", table.png())
    table.press("roll")
    table.settle()
    for size in SIZES:
        table.png(size)
    assert table.app.frame()["seat.0"] == [PLAYER_COLOURS["purple"], OFF]


def test_effect_wording() -> None:
    table = three_players()
    table.app.session.dice = ScriptedDice([(5, 5, 5, 5)])  # type: ignore[union-attr]
    table.press("roll")
    table.settle()
    game = table.game
    effects = {o.label: ui.effect_text(game, o.value, 21) for o in table.choice.options}
    assert effects == {
        "5+5+5+5": "row 5: 4 chips",
        "5+5+5": "row 5: 3 chips",
        "5+5+10": "5: 2 chips  10: new",
        "5+5": "row 5: 2 chips",
        "5+10": "5: chip  10: new",
        "10+10": "10: new,X,oust,chip",
        "5": "row 5: chip",
        "10": "row 10: new piece",
        "pass": "nothing happens",
    }
    assert ui.effect_text(game, Groups(((0, 1), (2, 3))), 42) == "row 10: new piece, to X, oust Green, chip"
    assert ui.effect_text(game, Groups(((0,), (1,), (2, 3))), 30) == "5: 2 chips; 10: new piece"
    assert ui.effect_text(game, Groups(((0, 1), (2, 3))), 12) == "10:new+X+ou~"
    # From nothing, four 5s: the steps before X are not worth a word.
    fresh = LevelX(["A", "B"])
    fresh.apply(Roll((5, 5, 5, 5)))
    assert ui.effect_text(fresh, Groups(((0,), (1,), (2,), (3,))), 21) == "5: new,X,chip"
    assert ui.effect_text(fresh, Groups(((0,), (1,), (2,))), 21) == "5: new piece, 2 steps"
    assert ui.effect_text(fresh, Groups(((0,), (1,))), 30) == "row 5: new piece, step on"


def test_rules_fit_the_display() -> None:
    """The rules page the menus open (the view's paragraphs): whole lines, a handful of pages."""
    pages = rules_pages("levelx", 21, 5)  # a 128×64 display: 21 columns, 5 lines under the title
    assert 3 <= len(pages) <= 10
    assert all(len(page) <= 5 and all(len(line) <= 21 for line in page) for page in pages)


# --- LEDs -------------------------------------------------------------------------------------
def test_scene_of_a_known_position() -> None:
    table = three_players()
    table.app.session.dice = ScriptedDice([(1, 1, 1, 4)])  # type: ignore[union-attr]
    table.press("roll")
    table.settle()
    assert table.app.frame() == {
        "grid.5.3": RED,
        "grid.6.1": BLUE,
        "grid.7.0": BLUE,
        "grid.10.1": GREEN,
        "grid.6.3": X_FIELD,
        "grid.7.2": X_FIELD,
        "grid.8.2": X_FIELD,
        "grid.9.1": X_FIELD,
        "dice.0.3": PIP,
        "dice.1.3": PIP,
        "dice.2.3": PIP,
        "dice.3.0": PIP,
        "dice.3.1": PIP,
        "dice.3.5": PIP,
        "dice.3.6": PIP,
        "seat.0": [RED, OFF],
        "seat.1": BLUE,
        "seat.2": GREEN,
    }
    assert table.labels() == ["Turn ones...", "5", "6", "7", "pass"]  # the 4 is in every group
    table.press("right")  # "5": Red, on row 5's X, takes a chip there
    blinking = {cell: value for cell, value in table.app.frame().items() if isinstance(value, list)}
    assert blinking == {"grid.5.3": [RED, OFF], "seat.0": [RED, OFF]}


def test_preview_blinks_the_fields_reached() -> None:
    table = three_players()
    table.app.session.dice = ScriptedDice([(5, 5, 5, 5)])  # type: ignore[union-attr]
    table.press("roll")
    table.settle()
    table.go_to(table.labels().index("10+10"))  # Red enters row 10 and ousts Green from its X
    frame = table.app.frame()
    assert frame["grid.10.0"] == [RED, OFF] and frame["grid.10.1"] == [RED, GREEN]
    table.go_to(table.labels().index("5"))  # Red on row 5's X takes a chip there
    frame = table.app.frame()
    assert frame["grid.5.3"] == [RED, OFF] and frame["grid.10.1"] == GREEN
    table.go_to(table.labels().index("pass"))
    assert not [v for k, v in table.app.frame().items() if k.startswith("grid") and isinstance(v, list)]


def test_closed_rows_and_result() -> None:
    """Red empties rows 10, 9 and 8 (2 players) while Blue climbs row 6; the third closed stack
    ends the game at the end of that round."""
    table = Rig()
    table.start([False, False])
    # The last "10+10" would take the last chip, close the row, then do nothing: it is "10".
    reds = [((5, 5, 5, 5), "10+10")] * 3 + [((5, 5, 5, 5), "10")]
    reds += [((3, 6, 3, 6), "9+9")] * 4 + [((4, 4, 4, 4), "8+8")] * 5
    for turn, (faces, label) in enumerate(reds):
        table.turn(faces, label)
        # Blue climbs row 6 and takes three chips, then passes; the round is completed after
        # the third stack ran out.
        table.turn(*(((2, 2, 2, 2), "6") if turn < 6 else ((1, 1, 1, 1), "pass")))
    game = table.game
    assert game.closed_rows == (8, 9, 10) and game.is_over()
    assert game.lost == (3, 0) and game.scores == (187, 18)
    check_golden("result", table.png())
    frame = table.app.frame()  # the winner's seat blinks; the closed rows stay dim red
    assert frame["seat.0"] == [RED, OFF] and frame["seat.1"] == BLUE
    assert all(frame[f"grid.{row}.0"] == CLOSED for row in (8, 9, 10)) and frame["grid.6.3"] == BLUE
    check_record(table)


def test_closed_row_scene_and_collapsed_options() -> None:
    table = Rig()
    table.start([False, False])
    for label in ("10+10", "10+10", "10+10", "10"):
        table.turn((5, 5, 5, 5), label)
        table.turn((1, 1, 1, 1), "pass")
    game = table.game
    assert game.closed_rows == (10,) and game.lost == (1, 0)
    frame = table.app.frame()
    assert frame["grid.10.0"] == CLOSED and frame["grid.10.1"] == CLOSED
    table.app.session.dice = ScriptedDice([(5, 5, 5, 5)])  # type: ignore[union-attr]
    table.press("roll")
    table.settle()
    # 10 does nothing now: "10+10" = "10" = "pass", "5+10" = "5", "5+5+10" = "5+5".
    assert table.labels() == ["5+5+5+5", "5+5+5", "5+5", "5", "pass"]
    check_options(table.game, list(table.choice.options))
    check_golden("closed_row", table.png())


# --- animations ---------------------------------------------------------------------------------
def test_oust_animation() -> None:
    table = three_players()
    table.app.session.dice = ScriptedDice([(5, 5, 5, 5)])  # type: ignore[union-attr]
    table.press("roll")
    table.settle()
    table.choose("10+10")
    frames = table.app.animation.frames  # type: ignore[union-attr]
    assert [f.caption for f in frames] == [
        "5+5 = row 10",
        "Red: new piece",
        "Red: new piece",
        "5+5 = row 10",
        "Red reaches X",
        "Green is ousted",
        "Green is ousted",
        "Green is ousted",
        "Green is ousted",
        "Red takes a 10",
        "Red takes a 10",
    ]
    assert all(0.15 <= f.seconds <= 0.4 for f in frames)
    first = frames[0].leds
    assert first["grid.10.1"] == GREEN and first["grid.10.0"] == OFF and first["dice.0.3"] == PIP
    assert frames[4].leds["grid.10.1"] == [RED, GREEN]
    assert frames[5].leds["grid.10.1"] == GREEN and frames[6].leds["grid.10.1"] == OFF
    assert frames[9].leds["grid.10.1"] == (255, 255, 255) and frames[10].leds["grid.10.1"] == RED
    for frame in frames:
        check_frame(frame.leds)
    table.settle()
    assert table.game.x_holders[5] == 0


def test_close_and_bonus_animations() -> None:
    """Red takes a chip of every row: the sixth value makes a set and the 15 tile comes."""
    table = Rig()
    table.start([False, False])
    for faces, label in (
        ((5, 5, 5, 5), "5+5+5+5"),
        ((6, 6, 6, 6), "6+6+6+6"),
        ((3, 4, 3, 4), "7+7"),
        ((3, 4, 3, 4), "7+7"),
        ((4, 4, 4, 4), "8+8"),
        ((4, 4, 4, 4), "8+8"),
        ((4, 5, 4, 5), "9+9"),
    ):
        table.turn(faces, label)
        table.turn((1, 1, 1, 1), "pass")
    table.app.session.dice = ScriptedDice([(5, 5, 5, 5)])  # type: ignore[union-attr]
    table.press("roll")
    table.settle()
    table.choose("10+10")
    captions = [f.caption for f in table.app.animation.frames]  # type: ignore[union-attr]
    assert captions[-2:] == ["Bonus tile 15!", "Bonus tile 15!"]
    assert table.app.animation.frames[-2].leds["seat.0"] == (255, 255, 255)  # type: ignore[union-attr]
    table.settle()
    assert table.game.bonus == ((15,), ())
    check_golden("bonus", table.png())
    # Blue passes: a pass shows as one frame.
    table.app.session.dice = ScriptedDice([(1, 1, 1, 1)])  # type: ignore[union-attr]
    table.press("roll")
    table.settle()
    table.choose("pass")
    assert [f.caption for f in table.app.animation.frames] == ["Blue passes"]  # type: ignore[union-attr]


def test_rows_with_the_same_effect_are_told_together_where_the_line_is_short() -> None:
    assert text._same_effect([(5, ["step"]), (6, ["step"]), (7, ["2 chips"])]) == {"step": [5, 6], "2chips": [7]}
