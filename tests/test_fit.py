"""Nothing clips or overlaps: every screen of every game, drawn for every display profile (and
the default board), in every text transform (language), has its texts inside their boxes, at
least a pixel apart, and none cut short with "~" (a title, a number, a prompt, a help line alike).

The screens are reached as a player reaches them: a SimBoard (the scenario runner's board) with
a seeded game, buttons tapped, bots playing the other seats. Each state is drawn at every
profile's size at once (`BoardApp.canvas`), so a walk is played once per transform.

TRANSFORMS are the texts' variants every screen is drawn in: each language and the pseudo-locale
(firmware/i18n.py's FIT_LANGUAGES: accented, a third longer), as the SimBoard's arguments.

Nothing is expected to fail: a screen that does not fit is fixed in its drawing (the fonts, the
layout), never excused here.
"""

from __future__ import annotations

import random
import re
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field, replace
from functools import lru_cache
from pathlib import Path
from typing import Any

import pytest
from goldens import check_profile_golden

from firmware import i18n, players
from firmware.games import game_names
from firmware.games.registry import find_game
from firmware.hardware.config import default_board_path, load_board
from firmware.i18n import FIT_LANGUAGES
from firmware.ui.draw import Canvas, clipped, problems
from firmware.ui.game_log import GameLogScreen
from firmware.ui.help import TIP
from firmware.ui.menus import MainMenu
from firmware.ui.moments import KEY_MOMENTS, MomentsScreen
from firmware.ui.play import MENU, PlayScreen, ResultScreen
from firmware.ui.screen import MenuScreen
from firmware.ui.seal import WordScreen
from sim.board import SimBoard

BOARDS = sorted((default_board_path().parent / "boards").glob("*.toml")) + [default_board_path()]


def _profile(path: Path) -> tuple[str, tuple[int, int]]:
    display = load_board(path).display
    size = (display.width, display.height)
    name = "default" if path == default_board_path() else path.stem
    return name, (size[1], size[0]) if display.rotate % 2 else size


PROFILES = dict(_profile(path) for path in BOARDS)
LONG_NAME = ("Maximilian" + "Wolfgang")[: players.MAX_LENGTH]  # seat 1: a name as long as a name may be
SIZES = sorted(set(PROFILES.values()))

# name -> the SimBoard arguments that make the board show its texts that way.
TRANSFORMS: dict[str, dict[str, Any]] = {code: {"language": code} for code in FIT_LANGUAGES}


@dataclass
class Walk:
    """What the walk saw: per moment and canvas size, the fit problems and clipped texts."""

    problems: dict[str, dict[tuple[int, int], list[str]]] = field(default_factory=dict)
    clipped: dict[str, dict[tuple[int, int], list[str]]] = field(default_factory=dict)
    canvases: dict[str, dict[tuple[int, int], Canvas]] = field(default_factory=dict)

    def shot(self, name: str, board: SimBoard, keep: bool = False) -> None:
        session = board.app.session
        names = session.names if session is not None else []
        for size in SIZES:
            canvas = board.app.canvas(size)
            self.problems.setdefault(name, {})[size] = (
                problems(canvas)
                + cut_names(canvas, names)
                + unasked(board.app, canvas)
                + tip_covers(board.app, size)
                + covers_spared(board.app, size)
                + lone_words(canvas)
            )
            self.clipped.setdefault(name, {})[size] = [box.text for box in clipped(canvas)]
            if keep:
                self.canvases.setdefault(name, {})[size] = canvas


_WORDS = re.compile(r"[^\W\d_]+")


def cut_names(canvas: Canvas, names: list[str]) -> list[str]:
    """A player's name shown cut short ("Gree", "Yell~"): a word of at least three letters on
    the display that is the start of a name but not the whole name (a seat's one-letter tag is
    not a name). Names are abbreviated never: a label gives way, or the page wraps or pages."""
    found, folded = [], [n.casefold() for n in names]
    for box in canvas.boxes:
        if box.box is None or box.hidden:
            continue
        for word in (w.casefold() for w in _WORDS.findall(box.text)):
            if len(word) >= 3 and word not in folded and any(n.startswith(word) for n in folded):
                found.append(f"cut name: {word!r} in {box.text!r}")
    return found


def unasked(app: Any, canvas: Canvas) -> list[str]:
    """On a play screen while someone is to act: what says who is asked and what (the texts a
    game draws in `Canvas.asking`) is drawn, names the player, and nothing (an explanation,
    the legend, the tip, a note) covers it."""
    session = app.session
    if session is None or session.over or app.animation is not None or app.screen is not app.play_screen():
        return []
    pending = session.game.pending()
    if pending.player is None:
        return []
    name = session.name(pending.player)
    asks = canvas.asks()
    out = [f"covers who is asked: {box.text!r}" for box in asks if box.hidden]
    shown = " ".join(box.text for box in asks if not box.hidden)
    if not asks:
        out.append(f"nothing says that {name} is asked, nor what")
    elif name not in shown:
        out.append(f"{name} is asked, not named: {shown!r}")
    return out


def lone_words(canvas: Canvas) -> list[str]:
    """A wrapped text whose last line is a lone word of one or two characters ("4" under
    "Rouge pose 31 sur le barreau"): a line at the left edge with nothing else on its row,
    right under a line of words at the left edge."""
    shown = [box for box in canvas.boxes if box.box is not None and not box.hidden]
    found = []
    for box in shown:
        assert box.box is not None
        left, top, _right, bottom = box.box
        if len(box.text.strip()) > 2 or left > 1 or box.text.endswith("_"):
            continue  # (a name being typed ends with its cursor: a field, not wrapped words)
        if any(o is not box and o.box is not None and o.box[1] <= bottom and top <= o.box[3] for o in shown):
            continue  # a label of a row with more on it (a sheet's row number), not a wrapped line
        above = [
            o
            for o in shown
            if o.box is not None and o.box[0] <= 1 and o.box[3] < top and top - o.box[3] <= canvas.line_height
        ]
        if any(" " in o.text.strip() and len(o.text.strip()) >= 10 for o in above):
            found.append(f"a lone word on a line: {box.text!r}")
    return found


def tip_covers(app: Any, size: tuple[int, int]) -> list[str]:
    """The menu tip ("ROLL  hold BACK: menu", up until the in-game menu was opened once) is not
    asked for: it covers no text of the screen under it (drawn with the help layer alone, so
    a note or the seal over it do not count)."""
    help = app.help
    if help.tip_seen or help.legend or help.cue is not None or app.animation is not None:
        return []
    if app.session is None or app.screen is not app.play_screen() or help.shown_explanation(app.session) is not None:
        return []
    canvas = Canvas(size)
    app.screen.draw(canvas)
    help.draw(canvas, app)
    tip = [box for box in canvas.boxes if box.text == i18n._(TIP) and box.box is not None]
    if tip and tip[0].box is not None and tip[0].box[1] <= 1:
        return []  # in a whole sheet's header, beside the name (tests/test_extra_sheet_pages.py)
    out = [f"the tip covers {box.text!r}" for box in canvas.boxes if box.hidden]
    spare = canvas.spare
    for box in tip:  # 5 px high, unreadable at a small panel's true size, but in a sheet's own room
        assert box.box is not None
        inside = spare is not None and spare[0] <= box.box[0] and spare[1] <= box.box[1]
        if box.font == "tiny" and not inside:
            out.append(f"the tip in the 3×5 font at {box.box}")
    return out


def covers_spared(app: Any, size: tuple[int, int]) -> list[str]:
    """A screen that leaves room for the help layer (`Canvas.spare`: EXTRA!'s wide sheet, whose
    header holds the factor and column labels): the explanation, tip and legend go there and
    hide none of its texts."""
    if app.session is None or app.screen is not app.play_screen() or app.animation is not None:
        return []
    canvas = Canvas(size)
    app.screen.draw(canvas)
    if canvas.spare is None:
        return []
    app.help.draw(canvas, app)
    return [f"the help layer covers {box.text!r} at {box.box}" for box in canvas.boxes if box.hidden]


def pick(board: SimBoard, wanted: Callable[[Any], bool]) -> None:
    """Move the menu's cursor to the first option whose value is `wanted`, then OK."""
    screen = board.app.screen
    assert isinstance(screen, MenuScreen), screen
    target = next(i for i, option in enumerate(screen.choice.options) if wanted(option.value))
    while screen.choice.index != target:
        board.tap("right")
    board.tap("ok")
    board.settle()


def walk_menus(walk: Walk, state: Path, **board_args: Any) -> None:
    """Main menu, demo and rules choices, rules pages, records, settings, operator screens."""
    board = SimBoard(seed=1, state_dir=state, **board_args)
    try:
        board.settle()
        app = board.app
        walk.shot("main menu", board, keep=True)
        board.hold("roll")
        walk.shot("legend: main menu", board)
        board.hold("roll")
        pick(board, lambda v: v == ("demo", None))
        walk.shot("demo: game choice", board)
        board.tap("back")
        pick(board, lambda v: v == ("rules", None))
        walk.shot("rules: game choice", board)
        for game in game_names():
            pick(board, lambda v, game=game: v == game)
            walk.shot(f"rules page: {game}", board, keep=True)
            for _ in range(4):
                board.tap("right")
            walk.shot(f"rules page scrolled: {game}", board)
            board.tap("back")
        board.tap("back")
        pick(board, lambda v: v == ("records", None))
        walk.shot("records: none yet", board)
        board.tap("back")
        pick(board, lambda v: v == ("settings", None))
        walk.shot("settings", board)
        for _ in range(3):
            board.tap("ok")  # a value stepped
            board.tap("right")
        walk.shot("settings: moved", board)
        board.tap("back")
        app.open_operator()
        board.settle()
        walk.shot("operator menu", board)
        for action in ("audits", "settings", "games"):
            pick(board, lambda v, a=action: v == a)
            walk.shot(f"operator: {action}", board)
            board.tap("back")
        pick(board, lambda v: v == "records")
        walk.shot("operator: confirm", board)
        pick(board, lambda v: v is True)
        walk.shot("operator: confirm twice", board)
        board.tap("back")
        board.tap("back")
        app.show_note("A long note that the board shows over the screen for a few seconds.")
        board.settle(0.1)
        walk.shot("note over a menu", board)
    finally:
        board.close()


def walk_game(walk: Walk, game: str, seed: int, state: Path, physical: bool = False, **board_args: Any) -> None:
    """Setup menus (seat count, every kind of seat), then a game with a person on seat 1 (named
    with a kept name of the longest length a name may have) and easy bots elsewhere, taking shots at the start, on every decision, in the game menu, on a
    caption and note, and on the result screen; then Records with the game in it."""
    board = SimBoard(seed=seed, state_dir=state, **board_args)
    rng = random.Random(seed)
    tag = f"{game}{' physical' if physical else ''}"
    try:
        if LONG_NAME not in players.names(board.journal):
            players.add(board.journal, LONG_NAME)
        board.settle()
        app = board.app
        if physical:
            app.settings = replace(app.settings, dice_mode="physical")
        pick(board, lambda v: v == ("play", game))
        walk.shot(f"seat count: {game}", board)
        count = find_game(game).players
        pick(board, lambda v: v == min(count.stop - 1, 4))
        seats = app.screen
        for kind in range(len(seats.kinds())):
            walk.shot(f"seat screen: {game} {kind}", board)
            board.tap("right")
        board.tap("roll")  # the next colour
        walk.shot(f"seat screen: {game} colour", board)
        board.tap("right")  # a kept name as long as a name may be: it is never cut anywhere
        assert seats.seat.name == LONG_NAME, seats.seat.name
        walk.shot(f"seat screen: {game} long name", board)
        if game == game_names()[0]:
            walk_name_entry(walk, board)
        board.tap("ok")
        while not isinstance(app.screen, PlayScreen):
            while app.screen.kind() != "bot:easy":
                board.tap("right")
            board.tap("ok")
        if not physical:  # the seal's page and the table's word (unseeded games only: this one is seeded)
            app.push(WordScreen(app, ask=False))
            walk.shot(f"seal: {tag} seal only", board)
            app.pop()
            app.push(WordScreen(app, ask=True))
            walk.shot(f"seal: {tag} no word", board)
            for button in ("left", "right", "right", "left") * 3:  # a whole word: 12 letters (ROLL would play)
                board.tap(button)
            walk.shot(f"seal: {tag} word", board)
            app.pop()
            app.advance()
        board.settle()
        decisions = 0
        for _ in range(3000):
            session = app.session
            if session is None or session.over:
                break
            if session.awaiting_roll:
                walk.shot(f"play: {tag} roll prompt", board)
                board.tap("roll")
                if physical:
                    walk.shot(f"dice entry: {tag}", board)
                    while type(app.screen).__name__ == "DiceEntryScreen":
                        board.tap(rng.choice(["left", "right", "ok"]))
                elif app.animation is not None:
                    walk.shot(f"caption: {tag}", board)
                board.settle()
                continue
            play = app.screen
            if not isinstance(play, PlayScreen) or play.choice is None:
                walk.shot(f"play: {tag} other {type(play).__name__}", board)
                board.tap("ok")
                board.settle()
                continue
            walk.shot(f"play: {tag} decision {decisions}", board)
            if decisions == 1:  # the legend of the buttons over a decision, and off again
                app.help.toggle_legend()
                app.changed()
                walk.shot(f"legend: {tag}", board)
                app.help.toggle_legend()
                app.changed()
            if decisions == 2:
                board.hold("back")  # the game menu, its confirm, and back to the game
                board.settle()
                walk.shot("game menu", board)
                pick(board, lambda v: v == "seal")
                walk.shot(f"game menu: dice seal {tag}", board)
                for _ in range(3):
                    board.tap("right")
                walk.shot(f"game menu: dice seal scrolled {tag}", board)
                board.tap("back")
                pick(board, lambda v: v == "abandon")
                walk.shot("game menu: confirm", board)
                board.tap("back")
                pick(board, lambda v: v == "back")
                board.hold("back")  # the whole game's log so far, said to the person asked
                pick(board, lambda v: v == "game log")
                walk.shot(f"game log: {tag} in game", board)
                board.tap("ok")
                app.push(MainMenu(app))  # the main menu offers to resume the game
                walk.shot("main menu: resume", board)
                app.pop()
                app.show_note("Dice sealed: 0123456789ab")
                walk.shot(f"note: {tag}", board)
                app.dismiss_note()
            decisions += 1
            for _ in range(rng.randrange(len(play.choice.options))):
                board.tap(rng.choice(["left", "right"]))
            if decisions % 3 == 0:
                walk.shot(f"play: {tag} decision {decisions} moved", board)
            board.tap("ok")
            board.settle()
        result = app.screen
        assert isinstance(result, ResultScreen), result
        for page in result.pages:  # the standings, the game's own pages, then Rematch / Menu
            walk.shot(f"result: {tag} {page.name}", board)
            board.tap("right")
        walk_key_moments(walk, board, tag)
        walk_game_log(walk, board, tag)
        while result.page.name != MENU:
            board.tap("right")
        board.tap("ok")
        board.settle()
        walk.shot(f"main menu: same table {tag}", board)  # "Same table again" first
        pick(board, lambda v: v == ("records", None))
        walk.shot(f"records: after {tag}", board)
    finally:
        board.close()


def walk_name_entry(walk: Walk, board: SimBoard) -> None:
    """From a seat named with the long kept name: "New name", the name entry (the kept name
    first, the alphabet, a full name, "Done", a refusal), then back to the seat as it was."""
    seats = board.app.screen
    while seats.kind() != "enter":
        board.tap("left")
    walk.shot("seat screen: new name", board)
    board.tap("ok")
    walk.shot("name entry: a kept name", board)
    board.tap("right")
    walk.shot("name entry: alphabet", board)
    for _ in range(players.MAX_LENGTH):
        board.tap("ok")
    walk.shot("name entry: full", board)
    entry = board.app.screen
    while entry.item[0] != "done":
        board.tap("left")
    walk.shot("name entry: done", board)
    for _ in range(players.MAX_LENGTH):
        board.tap("back")
    board.tap("roll")  # nothing typed
    walk.shot("name entry: refused", board)
    board.tap("back")  # leaves, nothing chosen
    while seats.kind() != f"name:{LONG_NAME}":
        board.tap("right")


def walk_key_moments(walk: Walk, board: SimBoard, tag: str) -> None:
    """The result's Key moments page once the analysis is in, and every page of the moments
    (each display size lays them out in its own number of pages: all are drawn)."""
    result = board.app.screen
    assert isinstance(result, ResultScreen), result
    assert KEY_MOMENTS in [page.name for page in result.pages], "a person played: Key moments are offered"
    while result.page.name != KEY_MOMENTS:
        board.tap("right")
    board.settle()
    walk.shot(f"result: {tag} key moments ready", board)
    board.tap("ok")
    moments = board.app.screen
    assert isinstance(moments, MomentsScreen), moments
    count = max(len(moments.pages(Canvas(size).columns, Canvas(size).lines - 1)) for size in SIZES)
    for index in range(count):
        moments.page = index
        walk.shot(f"key moments: {tag} {index}", board)
    board.tap("back")
    assert board.app.screen is result


def walk_game_log(walk: Walk, board: SimBoard, tag: str) -> None:
    """The review's "Game log": every page of the whole game's log (each display size pages
    it in its own way: all are drawn), then back to the result."""
    result = board.app.screen
    assert isinstance(result, ResultScreen), result
    while result.page.name != "game log":
        board.tap("right")
    board.tap("ok")
    log = board.app.screen
    assert isinstance(log, GameLogScreen), log
    count = max(len(log.pages(Canvas(size).columns, Canvas(size).lines - 1)) for size in SIZES)
    for index in (0, 1, count // 2, count - 1):
        log.page = index
        walk.shot(f"game log: {tag} {index}", board)
    board.tap("back")
    assert board.app.screen is result


def walk_last_tile(walk: Walk, state: Path, **board_args: Any) -> None:
    """LEVEL X's choice of the last bonus tile (rare in a random game, so reached on purpose):
    a saved game resumed at the turn that completes the person's fourth set; the two options,
    the hint's note, the decline's caption and explanation."""
    from levelx_bonus import COMPLETING, offer_record

    from firmware.dice import ScriptedDice
    from firmware.journal import Journal

    header = offer_record(red_bot="easy")
    steps = header.pop("steps")
    with Journal(state) as journal:
        gid = journal.start_game(header, {"colours": ["yellow", "red"]})
        for index, step in enumerate(steps[:-2]):  # up to the completing turn, played below
            journal.append_step(gid, index, step)
    board = SimBoard(seed=1, state_dir=state, dice=ScriptedDice(), **board_args)
    try:
        board.settle()
        pick(board, lambda v: v == ("resume", None))
        board.settle()
        board.queue_dice(COMPLETING[0])
        board.tap("roll")
        board.settle()
        play = board.app.screen
        faces = COMPLETING[0]  # the option "7+10": the chips that complete the fourth set
        target = next(
            i
            for i, o in enumerate(play.choice.options)
            if sorted(sum(faces[d] for d in g) for g in getattr(o.value, "groups", ())) == [7, 10]
        )
        while play.choice.index != target:
            board.tap("right")
        board.tap("ok")
        board.settle()
        walk.shot("play: levelx last tile", board)
        board.tap("right")
        walk.shot("play: levelx last tile declined", board)
        board.app.ask_hint()
        board.settle()
        walk.shot("note: levelx last tile hint", board)
        board.app.dismiss_note()
        board.queue_dice((2, 2, 2, 2))  # the bot's roll after the decline
        while board.app.screen.choice.current.value.take:
            board.tap("right")
        board.tap("ok")
        walk.shot("caption: levelx last tile declined", board)
        board.app.finish_animation()
        walk.shot("play: levelx last tile explained", board)
        board.settle()
    finally:
        board.close()


def walk_code_entry(walk: Walk, state: Path, **board_args: Any) -> None:
    """The operator's code entry, as a café board shows it: OK + BACK held on the main menu
    (the board description's folder holds an operator code), then one press typed."""
    from firmware.ui.operator_menu import ENTRY_HOLD_S
    from firmware.hardware.config import default_board_path as board_path
    from firmware.operator_code import StoredCode, write_code_file
    from firmware.ui.operator_menu import CodeEntryScreen

    folder = state / "etc"
    folder.mkdir(parents=True, exist_ok=True)
    description = folder / "board.toml"
    description.write_text(board_path().read_text(encoding="utf-8"), encoding="utf-8")
    write_code_file(folder / "operator-code", StoredCode.make(("left", "left", "right", "ok", "roll")))
    board = SimBoard(board_file=description, state_dir=state / "state", seed=1, **board_args)
    try:
        board.settle()
        board.press("back")
        board.press("ok")
        board.wait(ENTRY_HOLD_S + 0.1)
        board.release("ok")
        board.release("back")
        board.wait(0.1)
        assert isinstance(board.app.screen, CodeEntryScreen), type(board.app.screen).__name__
        walk.shot("operator: code entry", board)
        board.tap("left")
        walk.shot("operator: code entry typed", board)
    finally:
        board.close()


def walk_lesson(walk: Walk, game: str, state: Path, **board_args: Any) -> None:
    """ "Learn <game>" from the game's Play menu, played with the first option each time: every
    page of every lesson note as it comes up (each of its display pages), the game menu with
    "Leave lesson", and the result's choice after the lesson."""
    from firmware.ui.lesson_runner import LessonPage

    board = SimBoard(seed=1, state_dir=state, **board_args)
    try:
        board.settle()
        app = board.app
        pick(board, lambda v: v == ("play", game))
        walk.shot(f"seat count: {game} learn", board)
        pick(board, lambda v: v == "learn")
        for _ in range(400):
            screen, session = app.screen, app.session
            if isinstance(screen, LessonPage):
                while app.screen is screen:
                    walk.shot(f"lesson: {game} {screen.note.key} page {screen.page + 1}", board)
                    board.tap("ok")
                board.settle()
                if screen.note.key == "goal":  # the game menu of a lesson, over the game
                    board.hold("back")
                    board.settle()
                    walk.shot(f"lesson: {game} game menu", board)
                    pick(board, lambda v: v == "back")
            elif isinstance(screen, ResultScreen) or session is None:
                break
            elif type(screen).__name__ == "TurnOnesScreen":
                for button in ("right",) * 5 + ("ok",):  # the 1 turned into a 6, as the lesson advises
                    board.tap(button)
                board.settle()
            elif isinstance(screen, PlayScreen) and (session.awaiting_roll or screen.choice is not None):
                board.tap("roll" if session.awaiting_roll and not session.pending_bot() else "ok")
                board.settle()
            else:
                board.settle()
        result = app.screen
        assert isinstance(result, ResultScreen), result
        while result.page.name != MENU:
            board.tap("right")
        walk.shot(f"lesson: {game} result menu", board)
        board.tap("ok")
        board.settle()
        walk.shot(f"lesson: {game} back to the play menu", board)
    finally:
        board.close()


@lru_cache(maxsize=None)
def walk_for(transform: str, state: Path) -> Walk:
    walk, args = Walk(), TRANSFORMS[transform]
    try:
        walk_menus(walk, state / "menus", **args)
        walk_code_entry(walk, state / "code entry", **args)
        for index, game in enumerate(game_names()):
            walk_game(walk, game, seed=index + 1, state=state / game, **args)
        walk_game(walk, game_names()[0], seed=9, state=state / "physical", physical=True, **args)
        walk_last_tile(walk, state / "last tile", **args)
        for game in game_names():
            if find_game(game).lesson is not None:
                walk_lesson(walk, game, state / f"lesson {game}", **args)
    finally:
        i18n.use("en")  # the board switched the process's language: leave English behind
    return walk


@pytest.fixture(scope="module")
def walks(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Callable[[str], Walk]]:
    root = tmp_path_factory.mktemp("fit")
    yield lambda transform: walk_for(transform, root / transform)


@pytest.mark.parametrize("profile", list(PROFILES))
@pytest.mark.parametrize("transform", list(TRANSFORMS))
def test_every_screen_fits(walks: Callable[[str], Walk], transform: str, profile: str) -> None:
    walk = walks(transform)
    size = PROFILES[profile]
    failures = [f"{moment}: {problem}" for moment, by_size in walk.problems.items() for problem in by_size[size]]
    assert not failures, f"{transform} on {profile} {size}:\n" + "\n".join(failures[:40])
    print(f"{transform} {profile}: {len(walk.problems)} moments, every text whole")


def test_the_walk_reaches_every_kind_of_screen(walks: Callable[[str], Walk]) -> None:
    moments = set(walks("en").problems)
    for kind in (
        "main menu",
        "demo: game choice",
        "rules page",
        "records",
        "settings",
        "operator menu",
        "operator: audits",
        "operator: code entry",
        "operator: confirm",
        "seat count",
        "seat screen",
        "seat screen: new name",
        "name entry",
        "main menu: same table",
        "game menu",
        "game menu: confirm",
        "game menu: dice seal",
        "seal: ",
        "main menu: resume",
        "dice entry",
        "caption",
        "note",
        "result",
        "records: after",
        "legend",
        "key moments",
        "game log",
    ):
        assert any(m.startswith(kind) for m in moments), kind
    for game in game_names():
        assert sum(m.startswith(f"play: {game} decision") for m in moments) >= 3, game
    assert {
        "play: levelx last tile",
        "play: levelx last tile declined",
        "note: levelx last tile hint",
        "caption: levelx last tile declined",
        "play: levelx last tile explained",
    } <= moments
    for game in game_names():  # every note of each lesson, read on the board
        lesson = find_game(game).lesson_script()
        for note in lesson.notes if lesson is not None else ():
            assert f"lesson: {game} {note.key} page 1" in moments, (game, note.key)
        assert lesson is None or f"lesson: {game} game menu" in moments


@pytest.mark.parametrize("profile", list(PROFILES))
def test_golden_menu_and_text_page(walks: Callable[[str], Walk], profile: str) -> None:
    """The main menu and a rules page per profile, pixel for pixel (tests/golden/<profile>/)."""
    walk = walks("en")
    size = PROFILES[profile]
    check_profile_golden(profile, "main_menu", walk.canvases["main menu"][size].result())
    check_profile_golden(profile, "rules_page", walk.canvases[f"rules page: {game_names()[0]}"][size].result())
