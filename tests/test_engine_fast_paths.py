"""The engines' fast paths agree with their plain ones.

Each engine's `apply` does its common steps inline and leaves the events unbuilt; `Game.apply`
(the plain path) checks, snapshots and applies through the hooks and builds the events. Under
random play both give the same state, events, undo and copies; and the tables the fast paths
look things up in equal the slow computation for every roll.
"""

from __future__ import annotations

import random
from copy import deepcopy
from itertools import combinations, permutations, product
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from firmware.dice import SeededDice
from firmware.games import OVER, ROLL, Game, Roll, game_class, new_game
from firmware.games.base import Player
from firmware.games.extra import rules as extra_engine
from firmware.games.extra.rules import Choice, Extra, Sheet
from firmware.games.exxtra import rules as exxtra_engine
from firmware.games.levelx import rules as levelx_engine
from firmware.games.levelx.rules import Groups
from firmware.records import replay_record
from tests.test_engine_snapshots import full_state
from tests.support import GAME_NAMES

GAMES = settings(max_examples=8, deadline=None)
seeds = st.integers(min_value=0, max_value=2**32 - 1)


def steps_of(name: str, players: int, seed: int) -> list[Any]:
    """The steps of one random game, played on the plain path."""
    game = new_game(name, [f"P{i}" for i in range(players)])
    dice, rng = SeededDice(seed), random.Random(seed)
    while (kind := game.pending().kind) != OVER:
        step = Roll(tuple(dice.roll(game.dice()))) if kind == ROLL else rng.choice(game.legal_decisions())
        Game.apply(game, step)
    return list(game.history)


def players_for(name: str) -> st.SearchStrategy[int]:
    cls = game_class(name)
    return st.integers(min_value=cls.min_players, max_value=cls.max_players)


def offered(game: Game, step: Any) -> Any:
    """`step` as `legal_decisions()` offers it (as a bot hands it back; an equal one takes the same path)."""
    if game.pending().kind == ROLL:
        return step
    return next(d for d in game.legal_decisions() if d == step)


@pytest.mark.parametrize("name", GAME_NAMES)
@GAMES
@given(data=st.data(), seed=seeds)
def test_fast_and_plain_apply_leave_the_same_state_step_by_step(name: str, data: st.DataObject, seed: int) -> None:
    players = data.draw(players_for(name))
    fast = new_game(name, [f"P{i}" for i in range(players)])
    plain = new_game(name, [f"P{i}" for i in range(players)])
    for step in steps_of(name, players, seed):
        fast.apply(offered(fast, step))
        Game.apply(plain, step)
        assert full_state(fast) == full_state(plain)


@pytest.mark.parametrize("name", GAME_NAMES)
@GAMES
@given(data=st.data(), seed=seeds)
def test_undo_of_fast_steps_restores_each_state_exactly(name: str, data: st.DataObject, seed: int) -> None:
    """A whole game on the fast path, its events never read, then taken back step by step:
    every position equals the plain path's (whose events were built as it went)."""
    players = data.draw(players_for(name))
    fast = new_game(name, [f"P{i}" for i in range(players)])
    plain = new_game(name, [f"P{i}" for i in range(players)])
    states, unbuilt = [], 0
    for step in steps_of(name, players, seed):
        states.append(deepcopy(full_state(plain)))  # full_state holds live lists
        fast.apply(offered(fast, step))
        Game.apply(plain, step)
        unbuilt += fast._events is None  # nothing read them: left unbuilt
    # Most steps take the fast path; the last may not (LEVEL X's last bonus tile is a choice).
    assert unbuilt >= len(fast.history) // 2
    assert full_state(fast) == full_state(plain)
    while fast.history:
        fast.undo()
        assert full_state(fast) == states.pop()


@pytest.mark.parametrize("name", GAME_NAMES)
@GAMES
@given(data=st.data(), seed=seeds)
def test_a_copy_with_unbuilt_events_is_independent(name: str, data: st.DataObject, seed: int) -> None:
    players = data.draw(players_for(name))
    steps = steps_of(name, players, seed)
    cut = data.draw(st.integers(min_value=1, max_value=len(steps) - 1))
    game = new_game(name, [f"P{i}" for i in range(players)])
    for step in steps[:cut]:
        game.apply(offered(game, step))
    twin = game.copy()
    for step in steps[cut:]:
        game.apply(offered(game, step))
    record = {key: value for key, value in game.to_record().items() if key != "result"}
    assert full_state(twin) == full_state(replay_record(record | {"steps": [s.to_json() for s in steps[:cut]]}))
    assert game.is_over() and full_state(game) == full_state(replay_record(game.to_record()))


# --- the tables, against the slow computation for every roll ---------------------------------


def test_exxtra_roll_values_equal_the_rules_for_every_roll() -> None:
    for a, b in product(exxtra_engine.DIE_A, exxtra_engine.DIE_B):
        later, first = exxtra_engine._ROLL_VALUES[a, b]
        for value, is_first in ((later, False), (first, True)):
            combination = exxtra_engine.combination((a, b), is_first)
            assert (None if value < 0 else exxtra_engine._TEXTS[value]) == combination


def test_exxtra_plain_roll_values_are_the_rolls_without_doubles_or_a_late_x() -> None:
    for a, b in product(exxtra_engine.DIE_A, exxtra_engine.DIE_B):
        for is_first in (False, True):
            plain = exxtra_engine._PLAIN_VALUES[a, b][is_first]
            combination = exxtra_engine.combination((a, b), is_first)
            expected = -1 if a == b or combination is None else int(combination)
            assert plain == expected, (a, b, is_first)


def test_extra_roll_tables_equal_the_slow_computation_for_every_roll() -> None:
    """Per roll: the dice showing any set of faces."""
    for faces in product(range(1, 7), repeat=5):
        table = extra_engine._roll_table(faces)
        assert len(table) == 64
        for owned in range(64):
            expected = sum(1 << i for i, face in enumerate(faces) if owned >> face - 1 & 1)
            assert table[owned] == expected


def test_exxtra_legal_decisions_per_ladder_equal_the_free_rungs() -> None:
    game = exxtra_engine.Exxtra(["A", "B", "C", "D", "E", "F"])
    game.apply(Roll(("7", "2")))
    for owners in product(range(-1, 6), repeat=5):
        game._owner = [-1, *owners]
        expected = [exxtra_engine.Reroll(), exxtra_engine.Place(0)] + [
            exxtra_engine.Place(r) for r in range(1, 6) if owners[r - 1] < 0
        ]
        assert game.legal_decisions() == expected


def slow_groupings(faces: tuple[int, ...]) -> set[frozenset[frozenset[int]]]:
    """Every set of disjoint non-empty groups of dice indices whose sums are 5–10, by brute force."""
    found: set[frozenset[frozenset[int]]] = set()
    for labels in product(range(5), repeat=4):  # die i in group labels[i]; 0 = unused
        groups = frozenset(frozenset(i for i in range(4) if labels[i] == g) for g in range(1, 5)) - {frozenset()}
        if all(5 <= sum(faces[i] for i in group) <= 10 for group in groups):
            found.add(groups)
    return found


def test_levelx_tables_equal_the_slow_computation_for_every_roll() -> None:
    for faces in product(range(1, 7), repeat=4):
        sums, bad = levelx_engine._SUMS[faces]
        for mask in range(16):
            total = sum(faces[i] for i in range(4) if mask >> i & 1)
            assert sums[mask] == total
            assert bool(bad >> mask & 1) == (not 5 <= total <= 10)
        groupings = levelx_engine._groups_for(faces)
        assert {frozenset(frozenset(g) for g in groups.groups) for groups in groupings} == slow_groupings(faces)
        assert list(groupings) == [g for g in levelx_engine._decisions_for(faces, True)]


def test_levelx_groups_masks_agree_with_the_rules_check() -> None:
    """For every roll and every grouping (in every order of groups and of indices, and some
    malformed ones), the fast path's masks give the rules check's totals or refuse likewise."""
    shapes: list[tuple[tuple[int, ...], ...]] = [((0, 0),), ((0,), (0, 1)), ((4,),), ((),), ((0, 1), ())]
    for groups in levelx_engine._groups_for((1, 2, 3, 4)) + levelx_engine._groups_for((5, 5, 5, 5)):
        shapes += [tuple(order) for order in permutations(tuple(reversed(g)) for g in groups.groups)]
    shapes += [tuple((i,) for i in c) for n in range(5) for c in combinations(range(4), n)]
    for faces in product(range(1, 7), repeat=4):
        sums, bad = levelx_engine._SUMS[faces]
        for shape in shapes:
            step = Groups(shape)
            try:
                expected: list[int] | None = levelx_engine.LevelX._checked_totals(step.groups, faces)
            except Exception:
                expected = None
            fast = None if step._masks is None or step._needs & bad else [sums[m] for m in step._masks]
            assert fast == expected, (faces, shape)


def test_extra_legal_decisions_equal_every_choice_the_rules_allow() -> None:
    """Every roll, with sheets owning no, one, two and three EXTRA numbers: the table's
    decisions are exactly the well-formed choices `_check_choice` lets through, in order."""
    every = [
        Choice(0, e, c, split) for e in range(5) for c in (0, 1, 2, None) for split in extra_engine._SPLITS_WITHOUT[e]
    ]
    every += [Choice(0, None, None, split) for split in extra_engine._FREE_RIDE_SPLITS]
    sheets = [(None, None, None), (3, None, None), (None, 6, 1), (2, 4, 5)]
    rng = random.Random(11)
    rolls = list(product(range(1, 7), repeat=5))
    for faces in rng.sample(rolls, 600) + [(1, 1, 1, 1, 1), (2, 4, 5, 2, 4), (6, 6, 3, 3, 1)]:
        for numbers in sheets:
            game = Extra(["Solo"])
            game.sheets = (Sheet.filled(numbers=numbers, column_crosses=(0, 0, 0)),)
            game.apply(Roll(faces))
            allowed = {c for c in every if game._check_choice(c) is None}
            assert set(game.legal_decisions()) == allowed, (faces, numbers)


# --- the rarer branches of the fast paths, each seen at least once ----------------------------


def both_paths_step_by_step(fast: Game, plain: Game, steps: list[Any]) -> None:
    """Apply `steps` to `fast` (fast path) and `plain` (plain path): after each, the same state,
    and taking the fast step back on a copy gives the state before it."""
    for step in steps:
        before = deepcopy(full_state(plain))
        fast.apply(offered(fast, step))
        Game.apply(plain, step)
        assert full_state(fast) == full_state(plain)
        twin = fast.copy()
        twin.undo()
        assert full_state(twin) == before


def test_exxtra_fast_place_that_sends_the_next_pair_back_or_whose_return_wins() -> None:
    """A place removes the next player's pair (so it does not come back and move), or passes
    the turn to a player whose returning pair reaches the finish."""
    seen: set[str] = set()
    for seed in range(300):
        steps = steps_of("exxtra", 3, seed)
        fast, plain = (new_game("exxtra", ["A", "B", "C"]) for _ in range(2))
        for step in steps:
            if isinstance(step, exxtra_engine.Place):
                following = (plain.current_player + 1) % 3
                back = plain.rung_of[following]
                if (
                    back
                    and step.rung < back
                    and plain.would_remove(step.rung)
                    and any(pair.player == following for pair in plain.would_remove(step.rung))
                ):
                    seen.add("sent back")
                elif back and plain.positions[following] + back >= exxtra_engine.FINISH:
                    seen.add("return wins")
            both_paths_step_by_step(fast, plain, [step])
        if len(seen) == 2:
            break
    assert seen == {"sent back", "return wins"}


def test_extra_fast_choice_for_children_and_at_a_players_end() -> None:
    """Children's new numbers (no cross), full rows, and a choice that ends a player's game,
    on the fast path with its lean undo record, equal the plain path."""
    seen: set[str] = set()
    for seed in range(40):
        players = [Player("Kid", kids=True), Player("Adult")]
        plain = Extra(players)
        dice, rng = SeededDice(seed), random.Random(seed)
        while (kind := plain.pending().kind) != OVER:
            step = Roll(tuple(dice.roll(plain.dice()))) if kind == ROLL else rng.choice(plain.legal_decisions())
            Game.apply(plain, step)
            for event in plain.events:
                if event["kind"] == "extra" and event["new"] and not event["crossed"]:
                    seen.add("kids")
                seen.update({"row_full", "ended"} & {event["kind"]})
        fast = Extra(players)
        both_paths_step_by_step(fast, Extra(players), plain.history)
        if len(seen) == 3:
            break
    assert seen == {"kids", "row_full", "ended"}


def test_extra_fast_path_knows_an_offered_choice_by_its_value() -> None:
    """A choice equal to an offered one (as a record's replay or an engine's answer builds it)
    takes the fast path as the offered object does: no object identity decides the path."""
    game = Extra(["A", "B"])
    game.apply(Roll((1, 2, 2, 3, 5)))
    offered = game.legal_decisions()[4]
    twin = Extra.parse_step(offered.to_json())
    assert twin == offered and twin is not offered
    plain = game.copy()
    game.apply(twin)
    assert game._events is None  # the fast path: events left to be built when read
    Game.apply(plain, offered)
    assert full_state(game) == full_state(plain)
    game.undo()
    plain.undo()
    assert full_state(game) == full_state(plain)
