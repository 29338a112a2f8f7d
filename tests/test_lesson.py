"""Learn a game on the board: "Learn <game>" in the game's Play menu, chosen by button presses on
a simulated board, played to its end by buttons, each rule's page checked against what the game
shows at that moment; leaving midway; a learner who decides otherwise than the script planned;
and a lesson never counting as a game in the journal (records, high scores)."""

from __future__ import annotations

import random
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from firmware.bots import choose
from firmware.games import Roll
from firmware.games.lesson import Lesson, LessonDice
from firmware.games.registry import find_game
from firmware.ui.lesson_runner import LessonPage
from firmware.ui.menus import GameMenu, MainMenu, SeatCountScreen
from firmware.ui.play import PlayScreen, ResultScreen
from sim.board import SimBoard

LEARNER = 0
Check = Callable[[Any], bool]  # the game as the page comes up -> the rule applies now


def events(game: Any) -> list[dict[str, Any]]:
    return list(game.events) if game.history else []


def kinds(game: Any) -> set[str]:
    return {e["kind"] for e in events(game)}


def deciding(game: Any) -> bool:
    pending = game.pending()
    return pending.kind == "decision" and pending.player == LEARNER


def first_decision(game: Any) -> bool:
    """The learner decides, and has never decided before."""
    return deciding(game) and all(game.actor(i) != LEARNER for i in range(len(game.history)))


def last_roll(game: Any) -> tuple[Any, ...]:
    step = game.history[-1]
    assert isinstance(step, Roll), step
    return step.faces


def exxtra_can_kick(game: Any) -> bool:
    return deciding(game) and any(game.would_remove(r) for r in range(6) if r == 0 or not game.ladder[r])


# What each page's rule looks like in the game as the page comes up (read from the engine's
# state and events, not from the lesson's own triggers).
EXPECT: dict[str, dict[str, Check]] = {
    "exxtra": {
        "goal": lambda g: not g.history,
        "x_zero": lambda g: "X" in last_roll(g) and events(g)[0]["first"] and deciding(g),
        "number": first_decision,
        "ladder": first_decision,
        "rung_move": lambda g: any(e["kind"] == "move" and e["cause"] == "rung" for e in events(g)),
        "double": lambda g: last_roll(g)[0] == last_roll(g)[1] != "X" and g.positions[g.current_player] > 0,
        "kick": lambda g: "remove" in kinds(g) or exxtra_can_kick(g),
        "rung_zero": lambda g: bool(g.ladder[0]) or (deciding(g) and bool(g.would_remove(0))),
        "x_later": lambda g: "X" in last_roll(g) and "invalid" in kinds(g),
        "end": lambda g: g.is_over() and g.positions[g.winner] == 21,
    },
    "levelx": {
        "goal": lambda g: not g.history,
        "groups": lambda g: first_decision(g) and not g.ones_to_turn,
        "x_field": lambda g: "chip" in kinds(g),
        "lucky": lambda g: deciding(g) and g.faces.count(1) >= 2 and g.ones_to_turn == g.faces.count(1) - 1,
        "oust": lambda g: "oust" in kinds(g),
        "sets": lambda g: any(len(set(chips)) >= 2 for chips in g.chips),
        "close": lambda g: "close" in kinds(g) and g.closed_rows,
        "last_round": lambda g: "end_triggered" in kinds(g) and len(g.closed_rows) >= 3 or g.end_triggered,
        "end": lambda g: g.is_over(),
    },
    "extra": {
        "goal": lambda g: not g.history,
        "extra": lambda g: first_decision(g) and g.extra_dice() != [None],
        "pairs": lambda g: first_decision(g),
        "wall": lambda g: any(e["kind"] == "cross" and e["player"] == LEARNER for e in events(g)),
        "past_wall": lambda g: any(s.row_crosses[10] >= 4 or any(c > 3 for c in s.row_crosses) for s in g.sheets),
        "free_ride": lambda g: "free_ride" in kinds(g) or (deciding(g) and g.extra_dice() == [None]),
        "three": lambda g: deciding(g) and g.sheets[LEARNER].owned == 3,
        "column": lambda g: any(e["kind"] == "extra" and not e["new"] for e in events(g)),
        "ended": lambda g: "ended" in kinds(g),
        "end": lambda g: g.is_over(),
    },
}

# The pages in the order the planned play (the first option each time) brings them.
PLANNED = {
    "exxtra": ["goal", "x_zero", "number", "ladder", "rung_move", "kick", "double", "rung_zero", "x_later", "end"],
    "levelx": ["goal", "groups", "x_field", "lucky", "sets", "oust", "close", "last_round", "end"],
    "extra": ["goal", "extra", "pairs", "wall", "past_wall", "three", "free_ride", "column", "ended", "end"],
}


# The notes that advise a move (their `advice`): the strong bot's choice where they come up.
ADVISING = {"exxtra": [], "levelx": ["lucky"], "extra": []}


def test_only_the_advising_notes_advise() -> None:
    """A note whose text suggests a move ("Try a 6.") says which moves follow it, so the test
    above checks it against the strong bot; the others only explain the rules."""
    for game, advising in ADVISING.items():
        lesson = find_game(game).lesson_script()
        assert lesson is not None
        assert [n.key for n in lesson.notes if n.advice is not None] == advising
        for note in lesson.notes:
            assert ("Try" in note.text) == (note.advice is not None), (game, note.key, note.text)


def choose_learn(board: SimBoard, game: str) -> None:
    """Main menu → "Play <game>" → "Learn <game>", by LEFT/RIGHT and OK."""
    app = board.app
    menu = app.screen
    assert isinstance(menu, MainMenu), menu
    while menu.choice.current.value != ("play", game):
        board.tap("right")
    board.tap("ok")
    play_menu = app.screen
    assert isinstance(play_menu, SeatCountScreen), play_menu
    assert any(o.label == f"Learn {find_game(game).title}" for o in play_menu.choice.options)
    while play_menu.choice.current.value != "learn":
        board.tap("left")  # the last entry: LEFT wraps to it
    board.tap("ok")
    board.settle()


class Learner:
    """Plays a lesson with the buttons: reads every page (OK through its pages), checks its rule
    against the game as it comes up, rolls, and decides with `decide` (the presses before OK)."""

    def __init__(self, board: SimBoard, game: str, decide: Callable[[SimBoard], None] | None = None) -> None:
        self.board, self.game, self.decide = board, game, decide
        self.pages: list[str] = []
        self.steps_at: list[int] = []
        self.advised: list[str] = []  # the notes whose advice was checked against the strong bot

    def read_page(self) -> None:
        board, app = self.board, self.board.app
        page = app.screen
        assert isinstance(page, LessonPage)
        key = page.note.key
        game = app.session.game
        assert EXPECT[self.game][key](game), f"{key} shown at step {len(game.history)}, where it does not apply"
        assert page.title in board.screen_text(), (page.title, board.screen_text())
        if page.note.advice is not None and deciding(game):
            strong = choose(game.copy(), random.Random(len(game.history)), find_game(self.game).levels[-1])
            assert page.note.advice(game, strong), f"{key} advises otherwise than strong plays: {strong}"
            self.advised.append(key)
        self.pages.append(key)
        self.steps_at.append(len(game.history))
        for _ in range(10):  # OK reads on, and on the last page goes back to the game
            board.tap("ok")
            board.settle()
            if app.screen is not page:
                break
        assert page not in app.stack

    def play(self, until: Callable[[], bool], limit: int = 400) -> None:
        board, app = self.board, self.board.app
        for _ in range(limit):
            if until():
                return
            screen = app.screen
            session = app.session
            if isinstance(screen, LessonPage):
                self.read_page()
            elif isinstance(screen, ResultScreen) or session is None:
                return
            elif type(screen).__name__ == "TurnOnesScreen":
                for _ in range(5):  # the lucky loser: the turned one becomes a 6, as advised
                    board.tap("right")
                board.tap("ok")
                board.settle()
            elif isinstance(screen, PlayScreen) and session.awaiting_roll and not session.pending_bot():
                board.tap("roll")
                board.settle()
            elif isinstance(screen, PlayScreen) and screen.choice is not None:
                if self.decide is not None:
                    self.decide(board)
                board.tap("ok")
                board.settle()
            else:
                board.settle()
                assert board.busy() or app.screen is not screen, f"stuck on {type(screen).__name__}"
        raise AssertionError(f"the lesson did not end in {limit} moves; pages {self.pages}")


@pytest.mark.parametrize("game", ["exxtra", "levelx", "extra"])
def test_learn_a_game_to_its_end(game: str, tmp_path: Path) -> None:
    board = SimBoard(seed=1, state_dir=tmp_path)
    try:
        board.settle()
        choose_learn(board, game)
        app = board.app
        assert app.session is not None and app.session.meta["mode"] == "lesson"
        learner = Learner(board, game)
        learner.play(until=lambda: isinstance(app.screen, ResultScreen))
        assert learner.pages == PLANNED[game]
        assert learner.advised == ADVISING[game]  # each advice checked where the planned play meets it
        assert app.session.over and learner.pages[-1] == "end"
        lesson = find_game(game).lesson_script()
        rolls = [s.faces for s in app.session.game.history if isinstance(s, Roll)]
        assert [tuple(str(f) for f in r) for r in rolls[: len(lesson.rolls)]] == [
            tuple(str(f) for f in r) for r in lesson.rolls
        ]
        # Not a game of the journal: nothing to resume, nothing in the records or high scores.
        assert board.journal.unfinished() is None
        assert board.journal.finished() == [] and not any(board.journal.stats().values())
        assert board.journal.best_scores(game) == [] and board.journal.wins(game) == []
        result = app.screen
        while result.page.name != "Menu":
            board.tap("right")
        board.tap("ok")  # "Menu": back to the Play menu the lesson was chosen in
        board.settle()
        assert app.session is None and app.lesson is None
        assert isinstance(app.screen, SeatCountScreen) and app.screen.game == game
    finally:
        board.close()


@pytest.mark.parametrize("game", ["exxtra", "levelx", "extra"])
def test_leave_a_lesson_midway(game: str, tmp_path: Path) -> None:
    board = SimBoard(seed=1, state_dir=tmp_path)
    try:
        board.settle()
        choose_learn(board, game)
        app = board.app
        learner = Learner(board, game)
        learner.play(until=lambda: isinstance(app.screen, LessonPage) and len(learner.pages) >= 4)
        assert app.session is not None and len(app.session.game.history) > 4  # midway: a page is up
        board.hold("back")
        board.settle()
        menu = app.screen
        assert isinstance(menu, GameMenu)
        assert [o.value for o in menu.choice.options][-1] == "leave"
        assert "abandon" not in [o.value for o in menu.choice.options]
        board.tap("left")  # wraps to the last entry, "Leave lesson"
        assert menu.choice.current.label == "Leave lesson"
        board.tap("ok")
        board.settle()
        assert app.session is None and app.lesson is None
        assert isinstance(app.screen, SeatCountScreen) and app.screen.game == game
        assert board.journal.unfinished() is None and not any(board.journal.stats().values())
        board.tap("back")  # and BACK from there: the main menu, as after any Play menu
        assert isinstance(app.screen, MainMenu)
    finally:
        board.close()


def last_option(board: SimBoard) -> None:
    """A learner who decides otherwise than planned: the last option, not the first."""
    board.tap("left")


@pytest.mark.parametrize("game", ["exxtra", "levelx", "extra"])
def test_a_learner_off_the_script_is_still_taught(game: str, tmp_path: Path) -> None:
    board = SimBoard(seed=1, state_dir=tmp_path)
    try:
        board.settle()
        choose_learn(board, game)
        app = board.app
        learner = Learner(board, game, decide=last_option)
        learner.play(until=lambda: app.session is not None and len(app.session.game.history) >= 24)
        session = app.session
        assert session is not None and session.meta["mode"] == "lesson"
        lesson = find_game(game).lesson_script()
        rolls = [s.faces for s in session.game.history if isinstance(s, Roll)]
        # The script's dice still come, roll by roll, whatever the learner chose.
        assert [tuple(str(f) for f in r) for r in rolls] == [
            tuple(str(f) for f in r) for r in lesson.rolls[: len(rolls)]
        ]
        assert learner.pages[0] == "goal" and len(learner.pages) >= 3  # every page checked as it came
        assert len(set(learner.pages)) == len(learner.pages)  # each rule once
    finally:
        board.close()


def test_lesson_dice_follow_the_roll_number() -> None:
    """Roll n is the script's roll n (a taken-back roll comes again), then seeded ones."""
    dice = LessonDice([(1, 2), (3, 4)], seed="t")
    six = [(1, 2, 3, 4, 5, 6)] * 2
    assert dice.roll(six) == (1, 2) and dice.roll(six) == (3, 4)
    after = dice.roll(six)
    dice.rolls_made = 1
    assert dice.roll(six) == (3, 4)
    dice.rolls_made = 2
    assert dice.roll(six) == after  # the same seeded roll 2 again
    assert LessonDice([(9, 9)], seed="t").roll(six) == LessonDice([], seed="t").roll(six)  # unfit: seeded


def test_a_game_without_a_lesson_offers_none() -> None:
    from firmware.games.registry import GameSpec, register_game, unregister_game

    spec = find_game("exxtra")
    register_game(
        GameSpec(type("Plain", (spec.engine,), {"name": "plain", "title": "PLAIN"}), view=spec.view, bots=spec.bots)
    )
    try:
        assert find_game("plain").lesson_script() is None
        menu = SeatCountScreen("plain", demo=False)
        assert "learn" not in [o.value for o in menu.choice.options]
        assert "learn" in [o.value for o in SeatCountScreen("exxtra", demo=False).choice.options]
        assert "learn" not in [o.value for o in SeatCountScreen("exxtra", demo=True).choice.options]
    finally:
        unregister_game("plain")


def test_every_built_in_lesson_is_whole() -> None:
    for game in ("exxtra", "levelx", "extra"):
        lesson = find_game(game).lesson_script()
        assert isinstance(lesson, Lesson)
        assert set(PLANNED[game]) == {n.key for n in lesson.notes}, game
        assert len(lesson.bots) + 1 in find_game(game).players
