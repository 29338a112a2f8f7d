"""EXTRA! properties over random play: invariants, offered decisions accepted, others refused,
records round-trip, undo, and every game ends."""

from __future__ import annotations

import itertools
import json
import random
from typing import Any

from hypothesis import given, settings
from hypothesis import strategies as st

from firmware.dice import SeededDice
from firmware.errors import IllegalStepError
from firmware.games.base import Player, Roll
from firmware.games.extra.rules import COLUMN_SIZES, FACES, ROW_SIZES, SUMS, Choice, Extra
from firmware.records import replay_record

MAX_STEPS = 5000  # far beyond any real game; a loop guard, not a rule
ALL_PAIRS = list(itertools.combinations(range(5), 2))
# Wider than the rules: overlapping pairs, the extra die in a pair, every column, a free ride.
PAIR_SPACE = [tuple(two) for two in itertools.combinations(ALL_PAIRS, 2)]
EXTRA_SPACE = [None, 0, 1, 2, 3, 4]
COLUMN_SPACE = [None, 0, 1, 2]

games = st.tuples(
    st.integers(0, 2**32),
    st.lists(st.booleans(), min_size=1, max_size=6),
)


def new_game(kids: list[bool]) -> Extra:
    return Extra([Player(f"P{i}", kids=k) for i, k in enumerate(kids)])


def snapshot(game: Extra) -> tuple[Any, ...]:
    """Every piece of public state, cheaply (a refused step must change none of it)."""
    return (
        tuple((s.row_crosses, s.numbers, s.column_crosses, s.ended) for s in game.sheets),
        game.faces,
        game.roller,
        game.rolls,
        game.undecided,
        game.in_game,
        len(game.history),
        game.pending(),
        json.dumps(game.events, default=list),
    )


def check_invariants(game: Extra) -> None:
    for index, sheet in enumerate(game.sheets):
        for total, count in zip(SUMS, sheet.row_crosses):
            assert 0 <= count <= ROW_SIZES[total]
        owned = [n for n in sheet.numbers if n is not None]
        assert len(set(owned)) == len(owned) and all(n in FACES for n in owned)
        for number, count, size in zip(sheet.numbers, sheet.column_crosses, COLUMN_SIZES):
            assert 0 <= count <= size
            assert number is not None or count == 0
        assert sheet.ended == any(c == s for c, s in zip(sheet.column_crosses, COLUMN_SIZES))
        assert (index in game.in_game) == (not sheet.ended)
        assert sheet.total == sum(sheet.row_scores.values())
    assert list(game.in_game) == sorted(game.in_game)
    assert all(p in game.in_game for p in game.undecided)
    assert list(game.undecided) == sorted(game.undecided)
    pending = game.pending()
    if game.undecided:
        assert pending.kind == "decision" and pending.player == game.undecided[0]
        assert game.legal_decisions(), "a pending decision always has a legal choice"
    elif game.in_game:
        assert pending.kind == "roll" and pending.player == game.roller and game.roller in game.in_game
        assert game.legal_decisions() == []
    else:
        assert pending.kind == "over" and game.roller is None
    result = game.result()
    if game.is_over():
        assert result is not None
        assert result["scores"] == [s.total for s in game.sheets]
        assert [sum(rows.values()) for rows in result["rows"]] == result["scores"]
        assert all(list(rows) == [str(s) for s in SUMS] for rows in result["rows"])
        if len(game.players) == 1:
            assert result["winners"] == ([0] if result["scores"][0] >= 0 else [])
        else:
            best = max(result["scores"])
            assert result["winners"] == [i for i, s in enumerate(result["scores"]) if s == best]
    else:
        assert result is None


def check_events(game: Extra, step: Any) -> None:
    if isinstance(step, Roll):
        assert game.events == [{"kind": "roll", "player": game.events[0]["player"], "faces": step.faces}]
        return
    kinds = [e["kind"] for e in game.events]
    assert kinds[0] in ("extra", "free_ride") and (kinds[0] == "free_ride") == (step.extra is None)
    assert sum(k in ("cross", "row_full") for k in kinds) == 2
    sheet = game.sheets[step.player]
    for event in game.events:
        assert event.get("player", step.player) == step.player
        if event["kind"] == "cross":
            assert sheet.crosses_in(event["sum"]) > event["box"]
        elif event["kind"] == "row_full":
            assert sheet.is_row_full(event["sum"])
    assert ("ended" in kinds) == (sheet.ended and step.player not in game.in_game)
    assert ("game_over" in kinds) == game.is_over()


def random_candidates(game: Extra, rng: random.Random, count: int) -> list[Choice]:
    """Candidates from the wider space, plus near misses of offered decisions."""
    players = range(len(game.players))
    found = [
        Choice(rng.choice(players), rng.choice(EXTRA_SPACE), rng.choice(COLUMN_SPACE), rng.choice(PAIR_SPACE))
        for _ in range(count)
    ]
    offered = rng.choice(game.legal_decisions())
    found += [Choice(offered.player, offered.extra, c, offered.pairs) for c in COLUMN_SPACE]
    found += [Choice(offered.player, e, offered.column, offered.pairs) for e in EXTRA_SPACE]
    return found


def check_refused(game: Extra, candidates: list[Choice]) -> None:
    legal = set(game.legal_decisions())
    for candidate in candidates:
        if candidate in legal:
            continue
        before = snapshot(game)
        try:
            game.apply(candidate)
        except IllegalStepError:
            pass
        else:
            raise AssertionError(f"{candidate} was accepted but not offered")
        assert snapshot(game) == before


def play_game(seed: int, kids: list[bool], every_step: Any = None) -> Extra:
    """Play a whole random game; `every_step(game, step, rng)` runs before each step is applied."""
    game = new_game(kids)
    dice, rng = SeededDice(seed), random.Random(seed)
    takes = [0] * len(kids)
    last_roller: int | None = None
    for _ in range(MAX_STEPS):
        if game.is_over():
            return game
        if game.pending().kind == "roll":
            # clockwise among the players still in, player 0 first
            seats = game.in_game
            expected = 0 if last_roller is None else next((p for p in seats if p > last_roller), seats[0])
            assert game.pending().player == expected
            last_roller = expected
            step: Any = Roll(tuple(dice.roll(game.dice())))
        else:
            step = rng.choice(game.legal_decisions())
        if every_step is not None:
            every_step(game, step, rng)
        game.apply(step)
        check_invariants(game)
        check_events(game, step)
        if isinstance(step, Choice) and step.extra is not None:
            takes[step.player] += 1
            sheet = game.sheets[step.player]
            # every take crosses one box, except a child's first take of each number
            assert sum(sheet.column_crosses) == takes[step.player] - (sheet.owned if kids[step.player] else 0)
    raise AssertionError(f"no end after {MAX_STEPS} steps")


@settings(max_examples=30, deadline=None)
@given(games)
def test_random_games_keep_invariants_and_end(params: tuple[int, list[bool]]) -> None:
    seed, kids = params
    game = play_game(seed, kids)
    assert game.is_over() and game.result() is not None
    assert game.rolls >= min(COLUMN_SIZES) - (1 if any(kids) else 0)


@settings(max_examples=15, deadline=None)
@given(games)
def test_offered_decisions_are_accepted_and_others_refused(params: tuple[int, list[bool]]) -> None:
    seed, kids = params

    def check(game: Extra, step: Any, rng: random.Random) -> None:
        if isinstance(step, Roll):
            return
        offered = game.legal_decisions()
        assert offered == game.legal_decisions()  # deterministic
        assert len(set(offered)) == len(offered)
        assert all(d.player == game.pending().player for d in offered)
        for choice in rng.sample(offered, min(2, len(offered))):
            twin = game.copy()
            twin.apply(choice)
        check_refused(game, random_candidates(game, rng, 12))

    play_game(seed, kids, check)


@settings(max_examples=6, deadline=None)
@given(games)
def test_whole_decision_space_matches_legal_decisions(params: tuple[int, list[bool]]) -> None:
    """At every fifth decision: each candidate of the wider space is legal iff it is offered."""
    seed, kids = params
    counter = itertools.count()

    def check(game: Extra, step: Any, rng: random.Random) -> None:
        if isinstance(step, Roll) or next(counter) % 5:
            return
        player = game.pending().player
        space = [Choice(player, e, c, p) for e in EXTRA_SPACE for c in COLUMN_SPACE for p in PAIR_SPACE]
        space += [Choice((player + 1) % 6, 0, None, ((1, 2), (3, 4)))]
        offered = set(game.legal_decisions())
        assert offered <= set(space)
        check_refused(game, space)
        for choice in rng.sample(sorted(offered, key=repr), min(3, len(offered))):
            game.copy().apply(choice)

    play_game(seed, kids, check)


@settings(max_examples=20, deadline=None)
@given(games)
def test_records_round_trip_through_json(params: tuple[int, list[bool]]) -> None:
    seed, kids = params
    game = play_game(seed, kids)
    record = game.to_record()
    data = json.loads(json.dumps(record))
    again = new_game(kids)
    for step in data["steps"]:
        again.apply(Extra.parse_step(step))
    assert again.to_record() == record
    assert again.result() == record["result"]
    assert replay_record(data).to_record() == record


@settings(max_examples=15, deadline=None)
@given(games)
def test_undo_restores_the_previous_record(params: tuple[int, list[bool]]) -> None:
    seed, kids = params

    def check(game: Extra, step: Any, rng: random.Random) -> None:
        if rng.random() < 0.05:
            before = game.to_record()
            game.apply(step)
            assert game.undo() == step
            assert game.to_record() == before

    game = play_game(seed, kids, check)
    before = game.to_record()
    last = game.history[-1]
    assert game.undo() == last
    assert game.to_record() == {k: v for k, v in before.items() if k != "result"} | {"steps": before["steps"][:-1]}
    assert not game.is_over()
