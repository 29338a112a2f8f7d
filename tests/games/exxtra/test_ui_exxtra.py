"""EXXTRA on the board: whole games through the button pins, the options against the engine,
golden screens and the LED scene of a known position."""

from __future__ import annotations

import random

import pytest
from goldens import check_golden

from firmware.games import Roll
from firmware.games.exxtra.rules import Place, Reroll
from firmware.loop import EventLoop, FakeClock
from firmware.records import replay_record
from firmware.ui.app import BoardApp
from firmware.ui.colours import PIP, PLAYER_COLOURS, X_RED, dim
from firmware.games.exxtra import screens as ui
from firmware.ui.play import PlayScreen, ResultScreen
from firmware.table import Seat, Table
from sim.board import SimBoard

RED, BLUE, GREEN = (PLAYER_COLOURS[c] for c in ("red", "blue", "green"))


def start(board: SimBoard, seats: int, bots: list[bool]) -> None:
    """Main menu → Play EXXTRA → N players → each seat person or bot (RIGHT toggles)."""
    board.tap("ok")
    for _ in range(seats - 3):
        board.tap("right")
    board.tap("ok")
    for bot in bots:
        if bot:
            board.tap("right")
        board.tap("ok")


def check_options(game, options) -> None:
    """Every option is legal, and every legal decision is offered exactly once."""
    values = [o.value for o in options]
    legal = game.legal_decisions()
    assert sorted(map(repr, values)) == sorted(map(repr, legal))
    assert len(set(o.label for o in options)) == len(options)


@pytest.mark.parametrize(
    ("seed", "bots"),
    [(1, [False, False, False]), (2, [False, True, False, True]), (3, [True, False, True, False, True, False])],
)
def test_complete_game_through_the_button_pins(seed, bots):
    board = SimBoard(seed=seed)
    start(board, len(bots), bots)
    rng = random.Random(seed)
    app = board.app
    for _ in range(5000):
        board.settle()
        session = app.session
        if session is None or session.over:
            break
        if session.awaiting_roll:
            board.tap("roll")
            continue
        play = app.screen
        assert isinstance(play, PlayScreen)
        check_options(session.game, play.choice.options)
        if rng.random() < 0.3 and Reroll() in session.game.legal_decisions():
            board.tap("roll")  # the ROLL button re-rolls while deciding
            continue
        for _ in range(rng.randrange(len(play.choice.options))):
            board.tap(rng.choice(["left", "right"]))
        board.tap("ok")
    assert isinstance(app.screen, ResultScreen)
    record = app.session.game.to_record()
    assert replay_record(record).result() == record["result"]
    assert record["players"][1].get("bot") == ("easy" if bots[1] else None)
    board.tap("ok")  # from any page to the choice: "Rematch" first, then "Menu"
    assert app.screen.page.name == "Rematch"
    board.tap("right")
    board.tap("ok")
    assert app.session is None and type(app.screen).__name__ == "MainMenu"


def known_position() -> tuple[BoardApp, EventLoop]:
    """Red placed 64 on rung 5; Blue rolled a double 2-2 (moves 2) and then 7-1, deciding."""
    loop = EventLoop(FakeClock())
    app = BoardApp(schedule=loop.call_later, seed=0)
    seats = [Seat("Red", "red"), Seat("Blue", "blue"), Seat("Green", "green")]
    session = Table.start("exxtra", seats)
    for step in (Roll(("4", "6")), Place(5), Roll(("2", "2")), Reroll(), Roll(("7", "1"))):
        session.apply(step)
    app.start_session(session)
    return app, loop


def test_scene_of_a_known_position():
    app, _ = known_position()
    frame = app.frame()
    assert frame["track.0"] == [RED, GREEN]  # two counters on start: shown in turn
    assert frame["track.2"] == BLUE
    assert frame["ladder.5"] == RED
    assert frame["seat.1"] == [BLUE, dim(BLUE, 0.15)]  # whose turn: blinking
    assert frame["seat.0"] == RED and frame["seat.2"] == GREEN
    # Die A shows 7 (all seven pips), die B shows 1 (the centre).
    assert {k for k, v in frame.items() if k.startswith("dice.") and v == PIP} == {f"dice.0.{p}" for p in range(7)} | {
        "dice.1.3"
    }
    assert set(frame) == {"track.0", "track.2", "ladder.5", "seat.0", "seat.1", "seat.2"} | {
        f"dice.0.{p}" for p in range(7)
    } | {"dice.1.3"}


def test_an_invalid_roll_shows_red_crosses_and_the_retreat():
    app, loop = known_position()
    frames = ui.VIEW.animation(
        app,
        app.session,
        [{"kind": "invalid", "player": 1, "xs": 2}, {"kind": "move", "player": 1, "from": 2, "to": 0, "cause": "x"}],
    )
    assert frames[0].leds["dice.0.3"] == X_RED and frames[0].caption == "Two X! Blue to start"
    assert [f.leds for f in frames[-2:]] == [{"track.1": BLUE}, {"track.0": BLUE}]


def test_options_offer_the_free_rungs_from_the_top_and_what_they_remove():
    app, _ = known_position()
    options = app.screen.choice.options
    assert [o.label for o in options] == ["Rung 4", "Rung 3", "Rung 2", "Rung 1", "Rung 0", "Roll again"]
    assert all(o.detail == "kicks 1" for o in options[:5])  # 71 beats Red's 64 on rung 5


def test_golden_screens():
    app, loop = known_position()
    check_golden("exxtra", "decision", app.image((128, 64)))
    app.screen.press(app, "right")
    check_golden("exxtra", "decision_moved", app.image((128, 64)))
    check_golden("exxtra", "decision_128x32", app.image((128, 32)))
    app.step(Place(3))
    while loop.next_deadline() is not None and app.animation is not None:
        loop.clock.now = loop.next_deadline()
        loop.run_pending(lambda e: None)
    check_golden("exxtra", "roll_prompt", app.image((128, 64)))
    app.open_menu()
    check_golden("exxtra", "game_menu", app.image((128, 64)))


# --- the rules text (issue 25, item 3) --------------------------------------------------------
@pytest.mark.parametrize(("language", "words"), [("en", "never behind the start"), ("de", "Start"), ("fr", "départ")])
def test_the_rules_say_a_counter_never_goes_back_behind_the_start(language: str, words: str) -> None:
    from firmware import i18n
    from firmware.games.exxtra.text import RULES

    backwards = next(p for p in RULES if "goes back" in p)  # the paragraph on an X
    i18n.use(language)
    try:
        assert words in i18n._(backwards)
    finally:
        i18n.use("en")
