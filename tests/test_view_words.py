"""The play screens word no move themselves: in seeded games of each built-in game, every
animation caption (EXTRA!'s sheet header too) and every option label is what the game's words
(`firmware.games.words.Words`: `caption`, `option`) give; and no translatable string of a
game's screens words an event or a decision (an AST scan; the screens' own chrome is listed)."""

from __future__ import annotations

import ast
import random
from collections.abc import Iterator
from pathlib import Path

import pytest

from firmware.dice import SeededDice
from firmware.games import ROLL, Game, new_game, words_of
from firmware.games.base import Events, Step
from firmware.games.extra.screens import SheetFrame, StagedOption
from firmware.games.levelx.rules import Bonus, Groups
from firmware.games.levelx.screens import effect_text, fitted
from firmware.games.registry import find_game
from firmware.loop import EventLoop, FakeClock
from firmware.records import replay_record
from firmware.table import Table
from firmware.ui.app import BoardApp
from firmware.ui.gameview import game_view
from levelx_bonus import offer_record
from support import GAME_NAMES

ROOT = Path(__file__).resolve().parents[1]
COLOURS = ["red", "blue", "green", "yellow", "white"]
# The event kinds an animation shows with a caption of its own (docs/rules/<game>.md): all met.
CAPTIONED = {
    "exxtra": {"invalid", "move", "remove", "win"},
    "levelx": {
        "turn_ones", "group", "no_effect", "place", "move", "oust", "chip", "bonus", "bonus_declined",
        "close", "end_triggered", "bonus_offer", "game_over",
    },
    "extra": {"extra", "free_ride", "cross", "row_full", "ended"},
}  # fmt: skip


def played(game: str, seed: int, seats: int | None = None) -> Iterator[tuple[Table, Step]]:
    """A seeded game of `game` with random decisions: the table in the position a step is played
    from, and the step (the caller plays it)."""
    rng = random.Random(seed)
    fresh = new_game(game, [f"P{i}" for i in range(seats or find_game(game).benchmark_players)])
    yield from _steps(Table(fresh, COLOURS[: len(fresh.players)], SeededDice(seed)), rng, SeededDice(seed))


def _steps(table: Table, rng: random.Random, dice: SeededDice) -> Iterator[tuple[Table, Step]]:
    while not table.game.is_over():
        if table.game.pending().kind == ROLL:
            twin = table.game.copy()
            twin.roll(dice)
            step = twin.history[-1]
        else:
            step = rng.choice(table.game.legal_decisions())
        yield table, step  # (the test plays it)


def last_tile() -> Iterator[tuple[Table, Step]]:
    """LEVEL X's last bonus tile offered (tests/levelx_bonus.py), then taken, or left."""
    offered = replay_record(offer_record())
    for take in (True, False):
        fresh = offered.copy()
        while fresh.history:
            fresh.undo()
        table = Table(fresh, COLOURS[: len(fresh.players)], SeededDice(0))
        for step in offered.history:
            yield table, step
        yield table, Bonus(take)


def games(game: str) -> Iterator[tuple[Table, Step]]:
    for seed in range(4):
        yield from played(game, seed)
    if game == "levelx":
        yield from last_tile()
    if game == "extra":
        yield from played("extra", 11, seats=2)  # a row full


def board(table: Table) -> BoardApp:
    app = BoardApp(schedule=EventLoop(FakeClock()).call_later, seed=0)
    app.start_session(table)
    return app


def captions(game: Game, names: list[str], events: Events, before: Game) -> set[str]:
    """Every caption the words give for a step's events ("" for none)."""
    words = words_of(game.name)
    return {words.caption(names, event, events, before) for event in [*events, None]}


@pytest.mark.parametrize("name", GAME_NAMES)
def test_every_caption_and_option_label_comes_from_the_words(name: str) -> None:
    view, words = game_view(name), words_of(name)
    shown: set[str] = set()
    labels = 0
    app: BoardApp | None = None
    for table, step in games(name):
        if app is None or app.session is not table:
            app = board(table)
        game, names = table.game, table.names
        if game.pending().kind != ROLL:
            for option in view.options(app, table):
                if option.value not in game.legal_decisions():
                    continue  # an option that opens a screen (LEVEL X's "Turn ones...")
                label = words.option(names, game, option.value)
                assert label is not None and option.label == label.text, (name, option)
                labels += 1
                if isinstance(option, StagedOption):
                    assert tuple(text for _, text in option.parts) == label.parts
                    assert option.parts[1][0] == label.parts[1]  # pairs staged apart as they read
                elif isinstance(option.value, Groups):
                    assert effect_text(game, option.value, 21, names) == fitted(label.details, 21)
                    assert effect_text(game, option.value, 99, names) == label.details[0]
                else:
                    assert option.detail == label.detail
        before = game.copy()
        table.apply(step)  # the step a seeded game plays: `games` goes on from here
        events = list(table.game.events)
        said = captions(table.game, names, events, before)
        for frame in view.animation(app, table, events):
            told = frame.header if isinstance(frame, SheetFrame) else frame.caption
            assert told in said, (name, told, events)
            if told:
                shown |= {e["kind"] for e in events if words.caption(names, e, events, before) == told}
    assert labels > 0
    assert CAPTIONED[name] <= shown, CAPTIONED[name] - shown


# What the screens may still word themselves: titles, headings, prompts, the result's lines,
# statuses, and what an option that opens a screen opens (LEVEL X's turned ones). A move, an
# event or a decision is worded in the game's text.py.
CHROME = {
    "exxtra": {
        "1st roll", "roll {n}", "at {space}", "Final track", "Final ladder", "{game}: result",
        "{name} wins!", "{names} wins!", "Game over",
    },
    "levelx": {
        "Turn ones...", "Turn ones", "one 1 to any face", "two 1s to any face", "three 1s to any face",
        "die {number}/{count}", "then: {options}", "die {number} stays 1", "<> face  OK done",
        "<> face  OK next", "Last round!", "tiles {tiles}", "no tiles left", "Scores", "round {n}",
        "none", "tiles left: {tiles}", "PTS", "Winner: {name}", "Shared: {names}", "Final grid",
        "R{n}", "(keeps the ones)", "{game}: result", "Chips & tiles",
    },
    "extra": {
        "Game over", "end", "done", "plays", "press ROLL", "rolls...", "plays...", "press OK", "rolls",
        "{name}: {score}", "Won!", "Lost (below 0)", "New solo record!", "{name} wins!", "{names} share",
        "{game}: result",
    },
}  # fmt: skip
SAMPLE = {"exxtra": "{name} moves", "levelx": "{name} is ousted", "extra": "game ends"}  # a caption's msgid
MARKERS = {"_": 0, "N_": 0, "ngettext": 0, "pgettext": 1, "npgettext": 1}  # the msgid's argument


def marked_strings(path: Path) -> set[str]:
    """The literal msgids of `path`'s translatable strings."""
    found = set()
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and node.func.id in MARKERS:
            argument = node.args[MARKERS[node.func.id]] if len(node.args) > MARKERS[node.func.id] else None
            if isinstance(argument, ast.Constant) and isinstance(argument.value, str):
                found.add(argument.value)
    return found


@pytest.mark.parametrize("name", GAME_NAMES)
def test_a_games_screens_word_no_move(name: str) -> None:
    marked = marked_strings(ROOT / "firmware" / "games" / name / "screens.py")
    assert marked - CHROME[name] == set()
    assert SAMPLE[name] in marked_strings(ROOT / "firmware" / "games" / name / "text.py")  # the scan sees it there
