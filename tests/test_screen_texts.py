"""Texts on the screens, by button presses on every display profile and in every language: a
language switch mid-decision (in-game menu → Settings → Language) relabels the open decision's
options at once, cursor kept; the seat badges say the colours' initials in the language shown;
EXTRA!'s part being chosen and its legend in words; the menu tip covers nothing."""

from __future__ import annotations

from pathlib import Path

import pytest

from firmware import i18n
from firmware.i18n import pgettext
from firmware.games.extra.screens import StagedOption
from firmware.hardware.config import default_board_path
from firmware.ui.choice import Option
from firmware.ui.draw import Canvas, clipped
from firmware.ui.help import NOT_NOW, TIP
from firmware.ui.names import colour_initial, default_name
from firmware.ui.play import PlayScreen, Standing, ranked_page
from firmware.ui.screen import MenuScreen
from sim.board import SimBoard
from sim.scenario import ScriptedDice

BOARDS = sorted((default_board_path().parent / "boards").glob("*.toml")) + [default_board_path()]


def parts(option: Option) -> object:
    """A staged option's parts (EXTRA!'s stage marks), which speak the language too."""
    return option.parts if isinstance(option, StagedOption) else None


def pick(board: SimBoard, value: object) -> None:
    """Move the open menu's cursor to the option standing for `value`, then OK."""
    screen = board.app.screen
    assert isinstance(screen, MenuScreen) and screen.choice is not None
    while screen.choice.current.value != value:
        board.tap("right")
    board.tap("ok")


def to_decision(board: SimBoard, game: str) -> PlayScreen:
    """Start `game` with people on every seat of the smallest table and roll once."""
    board.settle()
    pick(board, ("play", game))
    board.tap("ok")  # the first seat count
    app = board.app
    while not isinstance(app.screen, PlayScreen):
        board.tap("ok")
    board.settle()
    board.tap("roll")
    board.settle()
    play = app.screen
    assert isinstance(play, PlayScreen) and play.choice is not None
    return play


def switch_to(board: SimBoard, language: str) -> None:
    """Long BACK, Settings, Language stepped until `language`, then back to the game."""
    board.hold("back")
    board.settle()
    pick(board, "settings")
    while board.app.language != language:
        pick(board, "language")
    board.tap("back")
    board.tap("back")
    board.settle()


@pytest.mark.parametrize("start, language", [("en", "de"), ("en", "fr"), ("fr", "en")])
@pytest.mark.parametrize("game", ["exxtra", "extra"])
@pytest.mark.parametrize("board_file", BOARDS, ids=lambda path: path.stem)
def test_the_open_decision_speaks_the_new_language(board_file: Path, game: str, start: str, language: str) -> None:
    board = SimBoard(seed=3, language=start, board_file=board_file)
    try:
        play = to_decision(board, game)
        board.tap("right")
        assert play.choice is not None
        index, values = play.choice.index, [o.value for o in play.choice.options]
        switch_to(board, language)
        assert board.app.screen is play
        choice = play.choice
        assert choice is not None
        assert (choice.index, [o.value for o in choice.options]) == (index, values)  # the same decision, cursor kept
        i18n.use(language)
        fresh = play.ui.options(board.app, play.session)
        assert [o.label for o in choice.options] == [o.label for o in fresh]
        assert [parts(o) for o in choice.options] == [parts(o) for o in fresh]
        if game == "exxtra":  # its options are words ("Rung 4", "Sprosse 4"); EXTRA!'s are figures
            assert fresh[0].label != _label_in(start, play, board)
            assert choice.current.label in " ".join(board.screen_text())
    finally:
        board.close()


def _label_in(language: str, play: PlayScreen, board: SimBoard) -> str:
    """The first option's label as `language` says it (the active language restored after)."""
    active = board.app.language
    i18n.use(language)
    try:
        return play.ui.options(board.app, play.session)[0].label
    finally:
        i18n.use(active)


@pytest.mark.parametrize("language, initials", [("en", "RBGYPO"), ("de", "RBGELO"), ("fr", "RBVJPO")])
def test_the_seat_badges_are_the_languages_initials(language: str, initials: str) -> None:
    i18n.use(language)
    try:
        colours = ("red", "blue", "green", "yellow", "purple", "orange")
        assert "".join(colour_initial(c) for c in colours) == initials
        assert len(set(initials)) == len(initials)  # no two seats share a badge
    finally:
        i18n.use("en")


@pytest.mark.parametrize("language", i18n.LANGUAGES)
@pytest.mark.parametrize("board_file", BOARDS, ids=lambda path: path.stem)
def test_extras_part_being_chosen_is_said_in_words(board_file: Path, language: str) -> None:
    """EXTRA!: the part LEFT/RIGHT change now reads "extra 2" (not "x2") below or on the sheet;
    a wide panel's header, in the 3×5 font beside block two, keeps the marks."""
    board = SimBoard(seed=3, language=language, board_file=board_file)
    try:
        play = to_decision(board, "extra")
        image = board.image()
        wide = image.width > 2 * image.height
        assert play.choice is not None
        option = play.choice.current
        face = str(option.parts[0][1]) if isinstance(option, StagedOption) else ""
        assert face.startswith("x")
        worded = pgettext("EXTRA!", "extra {face}").format(face=face[1:])
        shown = board.screen_text()
        assert (face if wide else worded) in shown, shown
        assert not any(text.endswith("~") for text in shown)  # nothing cut to make room
    finally:
        board.close()


@pytest.mark.parametrize("language", i18n.LANGUAGES)
@pytest.mark.parametrize("board_file", BOARDS, ids=lambda path: path.stem)
def test_extras_legend_says_what_the_buttons_do(board_file: Path, language: str) -> None:
    """A long ROLL while deciding in EXTRA!: "<> pick  ROLL: sheets", whole, in the language."""
    board = SimBoard(seed=3, language=language, board_file=board_file)
    try:
        to_decision(board, "extra")
        board.hold("roll")
        board.settle()
        legend = i18n._("<> pick  ROLL: sheets")
        assert len(legend) <= 21 and (language == "en") == (legend == "<> pick  ROLL: sheets")
        assert legend in board.screen_text(), board.screen_text()
    finally:
        board.close()


@pytest.mark.parametrize("language", i18n.LANGUAGES)
@pytest.mark.parametrize("game", ["exxtra", "levelx", "extra"])
@pytest.mark.parametrize("board_file", BOARDS, ids=lambda path: path.stem)
def test_the_menu_tip_covers_nothing(board_file: Path, game: str, language: str) -> None:
    """At the first roll prompt the tip "ROLL  hold BACK: menu" takes a band the screen leaves
    empty (EXXTRA's track row and LEVEL X's tiles stay in view), in a readable font (never the
    3×5 one outside a sheet: none where no band for it is free), and goes once the menu was
    opened."""
    board = SimBoard(seed=3, language=language, board_file=board_file)
    try:
        board.settle()
        pick(board, ("play", game))
        board.tap("ok")
        app = board.app
        while not isinstance(app.screen, PlayScreen):
            board.tap("ok")
        board.settle()
        image = board.image()
        canvas = Canvas(image.size)  # the screen and the help layer alone (no seal, no note)
        app.screen.draw(canvas)
        app.help.draw(canvas, app)
        tip = i18n._(TIP)
        tips = [box for box in canvas.boxes if box.text == tip and box.box is not None]
        tops = [box.box[1] for box in tips if box.box is not None]
        unreadable = {
            ("levelx", (128, 64)),
            ("exxtra", (128, 128)),
        }  # a band for a readable font in some languages only
        assert tops or (game, image.size) in unreadable, "the tip is shown"
        sheet = canvas.spare is not None or (tops and tops[0] <= 1)  # EXTRA!'s sheet: its own 3×5 room
        assert sheet or all(box.font != "tiny" for box in tips)
        if tops and tops[0] > 1:  # (a whole sheet's header takes it beside the name: tests/test_extra_sheet_pages.py)
            assert [box.text for box in canvas.boxes if box.hidden] == []
        board.hold("back")
        board.tap("back")
        board.settle()
        assert tip not in board.screen_text()
    finally:
        board.close()


@pytest.mark.parametrize("language", i18n.LANGUAGES)
@pytest.mark.parametrize("game", ["exxtra", "levelx", "extra"])
@pytest.mark.parametrize("board_file", BOARDS, ids=lambda path: path.stem)
def test_not_now_stays_with_the_screen_that_refused(board_file: Path, game: str, language: str) -> None:
    """A refused press on a lesson page says "not now" there; OK, within the cue's second,
    opens the game's screen without it."""
    board = SimBoard(seed=3, language=language, board_file=board_file)
    try:
        board.settle()
        pick(board, ("play", game))
        pick(board, "learn")
        board.settle()
        cue = i18n._(NOT_NOW)
        for _ in range(6):  # ROLL turns a long page's pages, then is refused
            board.tap("roll")
            if board.app.help.cue is not None:
                break
        page = board.app.screen
        assert f" {cue} " in board.screen_text() and board.app.screen is page
        board.tap("ok")
        assert board.app.screen is not page
        assert f" {cue} " not in board.screen_text()
    finally:
        board.close()


@pytest.mark.parametrize("language", i18n.LANGUAGES)
@pytest.mark.parametrize("board_file", BOARDS, ids=lambda path: path.stem)
def test_the_last_deciders_line_leaves_the_next_focus_view_whole(board_file: Path, language: str) -> None:
    """EXTRA! with two people: Red's choice, said to Blue, goes on a band Blue's focus view
    (the small panels' decision view) leaves empty, never over its rows, −200s or total."""
    board = SimBoard(seed=3, language=language, board_file=board_file)
    try:
        board.settle()
        pick(board, ("play", "extra"))
        pick(board, 2)
        app = board.app
        while not isinstance(app.screen, PlayScreen):
            board.tap("ok")
        board.settle()
        board.tap("roll")
        board.settle()
        while app.session is not None and app.session.game.pending().player == 0:
            board.tap("ok")
            board.settle()
        said = app.help.shown_explanation(app.session)
        assert said is not None  # Red's choice is news to Blue
        canvas = app.canvas(board.image().size)
        if canvas.size_class == "small":  # the focus view (wide and tall panels show the whole sheet)
            assert [box.text for box in canvas.boxes if box.hidden] == []
            assert said in [box.text for box in canvas.boxes]
    finally:
        board.close()


@pytest.mark.parametrize("language", i18n.LANGUAGES)
def test_an_x_that_sends_the_counter_to_the_start_says_so(language: str) -> None:
    """EXXTRA: a double (+2), roll again, X-X: "Red: two X, back to the start" in the round log
    (not "Red: X, back 2": two Xs in plain words, and the counter is on the start again)."""
    board = SimBoard(seed=3, language=language, dice=ScriptedDice())
    try:
        board.settle()
        pick(board, ("play", "exxtra"))
        board.tap("ok")
        app = board.app
        while not isinstance(app.screen, PlayScreen):
            board.tap("ok")
        board.settle()
        for faces in (["2", "2"], ["X", "X"]):
            board.queue_dice(faces)
            board.tap("roll")  # the double's decision: ROLL rolls again
            board.settle()
        assert app.session is not None and app.session.game.positions[0] == 0
        red = app.session.name(0)
        logged = i18n._("{who} rolled {xs}, back to the start").format(who=red, xs=i18n._("two X"))
        assert logged in [line for line, _concerns in app.help.round_log(app.session)]
        said = i18n._("{who}: {xs}, back to the start").format(who=red, xs=i18n._("two X"))
        assert app.help.explanation == said
        assert said in " ".join(board.screen_text())  # Blue, to roll next, reads it
    finally:
        board.close()


@pytest.mark.parametrize("language", i18n.LANGUAGES)
@pytest.mark.parametrize("size", [(128, 64), (256, 64), (128, 128)])
@pytest.mark.parametrize("seats", [3, 6])
def test_a_tie_headline_is_never_cut(size: tuple[int, int], language: str, seats: int) -> None:
    """Three share first: "Red & Blue & Green share" where it fits, else "3 tie for first",
    never "Red & Blue & Green s~"."""
    i18n.use(language)
    try:
        colours = ["red", "blue", "green", "yellow", "purple", "orange"][:seats]
        names = [default_name(c) for c in colours]
        standings = [
            Standing(1 if i < 3 else i + 1, c, n, "40" if i < 3 else "12")
            for i, (c, n) in enumerate(zip(colours, names))
        ]
        headline = i18n._("{names} share").format(names=" & ".join(names[:3]))
        canvas = Canvas(size)
        ranked_page("EXTRA!", headline, standings).draw(canvas, "1/9")
        shown = [box.text for box in canvas.boxes]
        assert not clipped(canvas), shown
        short = i18n._("{count} tie for first").format(count=3)
        assert headline in shown or short in shown
    finally:
        i18n.use("en")


@pytest.mark.parametrize("board_file", BOARDS, ids=[p.stem for p in BOARDS])
@pytest.mark.parametrize("language", i18n.LANGUAGES)
def test_a_wrapped_line_never_leaves_the_rung_number_alone(board_file: Path, language: str) -> None:
    """Issue 37, item 3 (tests/scenarios/french_no_lone_number.toml on the default board): Red
    places 31 on rung 4, by buttons; at Blue's roll prompt the line (and the round log) keeps
    the "4" with the word before it on every display and in every language ("Rouge : 31 au" /
    "barreau 4", never "... barreau" over a lone "4")."""
    from test_fit import lone_words

    board = SimBoard(board_file=board_file, seed=1, language=language, dice=ScriptedDice())
    size = (board.config.display.width, board.config.display.height)
    try:
        board.settle()
        pick(board, ("play", "exxtra"))
        pick(board, 3)
        app = board.app
        while not isinstance(app.screen, PlayScreen):
            board.tap("ok")
        board.settle()
        board.queue_dice(["3", "1"])
        board.tap("roll")
        board.settle()
        play = app.screen
        assert isinstance(play, PlayScreen) and play.choice is not None
        target = next(i for i, o in enumerate(play.choice.options) if getattr(o.value, "rung", None) == 4)
        while play.choice.index != target:
            board.tap("right")
        board.tap("ok")
        board.settle()
        assert board.state("pending") == {"kind": "roll", "player": 1}
        canvas = app.canvas(size)
        shown = [box for box in canvas.boxes if box.box is not None and not box.hidden]
        said = app.help.explanation
        assert said is not None and " ".join(said.split()) in " ".join(" ".join(b.text for b in shown).split())
        assert lone_words(canvas) == []
        board.tap("left")  # the round log
        canvas = app.canvas(size)
        assert lone_words(canvas) == [], [box.text for box in canvas.boxes]
    finally:
        board.close()
        i18n.use("en")
