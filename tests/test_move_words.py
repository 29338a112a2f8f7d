"""One way to say a move (firmware/games/words.py): every step a game's engine makes, in seeded
games of each built-in game, is said in all three forms (short, sentence, log) in every
language the board speaks, none empty, none showing a raw field, JSON or a placeholder; a
step that concerns another seat is said to them too; a decision is worded before it is played."""

from __future__ import annotations

import random
from collections.abc import Callable, Iterator

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from firmware import i18n
from firmware.dice import SeededDice
from firmware.games import ROLL, Game, new_game
from firmware.games.registry import find_game
from firmware.games.levelx.rules import Bonus
from firmware.games import words_of
from firmware.games.words import Said, Words
from firmware.records import replay_record
from levelx_bonus import offer_record
from support import GAME_NAMES

LANGUAGES = ("en", "de", "fr")
SEEDS = range(12)
# The kinds each engine documents (docs/rules/<game>.md): every one is met and said.
KINDS = {
    "exxtra": {"roll", "invalid", "move", "place", "remove", "win", "turn", "return", "reroll"},
    "levelx": {
        "roll", "turn_ones", "group", "no_effect", "place", "move", "oust", "chip", "bonus",
        "bonus_declined", "close", "end_triggered", "bonus_offer", "game_over", "turn",
    },
    "extra": {"roll", "extra", "free_ride", "cross", "row_full", "ended", "game_over"},
}  # fmt: skip
# What a person must never read: a record's or event's raw fields, JSON, an unfilled placeholder.
RAW = ("{", "}", "[", "]", '"', "kind", "player", "combination", "cause", "reason", "winners", "None", "True")


def steps_of(game: str, seed: int, seats: int | None = None) -> Iterator[tuple[Game, list[dict[str, object]]]]:
    """Every step of a game of `game` (`seats` players, default the benchmarks' count) with
    seeded dice and random decisions: the game after it and that step's events."""
    rng = random.Random(seed)
    players = [f"P{i}" for i in range(seats or find_game(game).benchmark_players)]
    played = new_game(game, players)
    dice = SeededDice(seed)
    while not played.is_over():
        if played.pending().kind == ROLL:
            played.roll(dice)
        else:
            played.apply(rng.choice(played.legal_decisions()))
        yield played, list(played.events)


def last_tile_steps() -> Iterator[tuple[Game, list[dict[str, object]]]]:
    """LEVEL X's last bonus tile, offered (tests/levelx_bonus.py), then taken and left: steps
    random games hardly reach."""
    offered = replay_record(offer_record())
    for take in (True, False):
        game = offered.copy()
        game.undo()
        game.apply(offered.history[-1])
        yield game, list(game.events)
        game.apply(Bonus(take))
        yield game, list(game.events)


# Steps random games of the benchmarks' size hardly reach: LEVEL X's last tile, an EXTRA! row
# full (seed 11 of two players fills one).
RARE: dict[str, Callable[[], Iterator[tuple[Game, list[dict[str, object]]]]]] = {
    "levelx": last_tile_steps,
    "extra": lambda: steps_of("extra", 11, seats=2),
}


def assert_words(said: Said | None, where: str) -> None:
    assert said is not None, where
    for form in (said.short, said.sentence, said.log):
        assert form.strip(), f"{where}: an empty form in {said}"
        assert not any(raw in form for raw in RAW), f"{where}: {form!r}"
    assert said.sentence[-1] in ".!", f"{where}: a sentence ends as one: {said.sentence!r}"
    assert "\n" not in said.short + said.log, f"{where}: one line each"


@pytest.mark.parametrize("language", LANGUAGES)
@pytest.mark.parametrize("game", GAME_NAMES)
def test_every_step_of_every_kind_is_said_in_three_forms(game: str, language: str) -> None:
    i18n.use(language)
    words = words_of(game)
    seen: set[str] = set()
    told: set[str] = set()  # said to a seat the step concerns
    games = [steps_of(game, seed) for seed in SEEDS] + ([RARE[game]()] if game in RARE else [])
    for steps in games:
        for played, events in steps:
            names = [p.name for p in played.players]
            where = f"{game} {language} step {len(played.history)}: {events}"
            assert_words(words.said(names, events), where)
            seen |= {str(e["kind"]) for e in events}
            for seat in range(len(names)):
                said = words.said_to(names, events, seat)
                if said is not None:
                    assert_words(said, f"{where} to seat {seat}")
                    told.add(said.log)
    assert KINDS[game] <= seen, f"not met in {len(games)} games: {KINDS[game] - seen}"
    assert told or game == "extra", "a kick or an oust is said to the player it hit"  # EXTRA! hits nobody


@pytest.mark.parametrize("game", GAME_NAMES)
def test_the_forms_differ_and_the_short_one_is_the_explanation(game: str) -> None:
    """The three forms are three: the sentence reads aloud, the log tells the history; the
    display's line is the short form, a plain roll not shown."""
    words = words_of(game)
    differ = shown = plain = 0
    for played, events in steps_of(game, 1):
        said = words.said([p.name for p in played.players], events)
        assert said is not None
        differ += len({said.short, said.sentence, said.log}) == 3
        shown += said.shown
        plain += not said.shown and events[0]["kind"] == "roll"
    assert differ and shown and plain


@pytest.mark.parametrize("game", GAME_NAMES)
def test_a_decision_is_worded_before_it_is_played_and_the_game_is_left_as_it_was(game: str) -> None:
    words = words_of(game)
    for played, _events in steps_of(game, 3):
        if played.pending().kind != "decision" or len(played.history) > 40:
            continue
        before = played.to_record()
        for decision in played.legal_decisions():
            said = words.decision(played, decision)
            assert_words(said, f"{game}: {decision}")
            mover = played.players[played.pending().player or 0].name
            assert said is not None and said.log.startswith(mover) and said.sentence.startswith(mover)
        assert played.to_record() == before


@settings(max_examples=15, deadline=None)
@given(game=st.sampled_from(GAME_NAMES), seed=st.integers(0, 10**6), language=st.sampled_from(LANGUAGES))
def test_any_seeded_game_is_said_whole(game: str, seed: int, language: str) -> None:
    i18n.use(language)
    words = words_of(game)
    try:
        for played, events in steps_of(game, seed):
            assert_words(words.said([p.name for p in played.players], events), f"{game} seed {seed}")
    finally:
        i18n.use("en")


def test_the_explanation_line_keeps_its_words() -> None:
    """The short form is the line the board always showed (the scenario suite reads it)."""
    said = words_of("exxtra").said(
        ["Blue", "Red", "Green"],
        [
            {"kind": "place", "player": 0, "rung": 5, "combination": "62"},
            {"kind": "remove", "player": 1, "rung": 4, "combination": "51", "by": 0},
            {"kind": "turn", "player": 1},
        ],
    )
    assert said == Said(
        "Blue: 62 on rung 5, kicks Red",
        "Blue places 6 and 2 on rung 5 and knocks Red off.",
        "Blue placed 62 on rung 5, kicked Red",
    )


def test_a_game_naming_no_words_says_nothing_and_still_words_a_decision_for_key_moments() -> None:
    from firmware.ui.moments import describe_decision

    class Plain(Words):
        pass

    game = new_game("exxtra", ["A", "B", "C"])
    game.roll(SeededDice(1))
    assert Plain().said(["A", "B", "C"], game.events) is None
    assert Plain().decision(game, game.legal_decisions()[0]) is None
    line = describe_decision(game, game.legal_decisions()[0])
    assert line and not any(raw in line for raw in RAW)


def test_the_dice_shown_are_the_games_own_declared_faces() -> None:
    exxtra = new_game("exxtra", ["A", "B", "C"])
    assert exxtra.shown_faces() == ()
    exxtra.roll(SeededDice(2))
    assert exxtra.shown_faces() == exxtra.current_roll
    levelx = new_game("levelx", ["A", "B"])
    levelx.roll(SeededDice(2))
    assert levelx.shown_faces() == levelx.faces
    extra = new_game("extra", ["A"])
    extra.roll(SeededDice(2))
    assert extra.shown_faces() == extra.history[-1].faces


def test_the_words_import_no_display_code() -> None:
    """A game's words read events only: `firmware.games.words` and each game's text.py import
    nothing of `firmware.ui` (coach, analyse and later speech use them without a display)."""
    import ast
    from pathlib import Path

    root = Path(__file__).resolve().parent.parent / "firmware" / "games"
    for path in [root / "words.py", *sorted(root.glob("*/text.py"))]:
        tree = ast.parse(path.read_text(encoding="utf-8"))
        imported = [n.module or "" for n in ast.walk(tree) if isinstance(n, ast.ImportFrom)]
        imported += [a.name for n in ast.walk(tree) if isinstance(n, ast.Import) for a in n.names]
        assert not [m for m in imported if m.startswith("firmware.ui")], path
    assert len(list(root.glob("*/text.py"))) == 3
