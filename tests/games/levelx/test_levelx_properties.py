"""LEVEL X under random play: invariants, offered decisions accepted, others refused, records."""

from __future__ import annotations

import json
import random
from itertools import product
from typing import Any

from hypothesis import given, settings
from hypothesis import strategies as st

from firmware.dice import SeededDice
from firmware.errors import IllegalStepError
from firmware.games.base import Game, Roll
from firmware.games.levelx.rules import BONUS_TILES, FIELDS, PIECES, Groups, LevelX, TurnOnes, outcomes

from .test_levelx_rules import state

MAX_STEPS = 3000  # random games take ~170 steps on average; this only guards against a hang
GAMES = settings(max_examples=20, deadline=None)


def _index_groupings() -> list[tuple[tuple[int, ...], ...]]:
    """Every set of disjoint non-empty index groups over four dice, whatever the faces (52)."""
    found = set()
    for labels in product(range(5), repeat=4):  # die i in group labels[i], 0 = unused
        groups = (tuple(i for i in range(4) if labels[i] == g) for g in range(1, 5))
        found.add(tuple(sorted(g for g in groups if g)))
    return sorted(found)


INDEX_GROUPINGS = _index_groupings()


def check_invariants(game: LevelX) -> None:
    players = len(game.players)
    pending = game.pending()
    assert 0 <= game.current_player < players and game.round_number >= 1
    if pending.kind == "over":
        assert game.end_triggered and game.faces is None and game.result() is not None
    else:
        assert pending.player == game.current_player and game.result() is None
        assert (game.faces is None) == (pending.kind == "roll")
    if game.faces is not None:
        assert len(game.faces) == 4 and all(f in range(1, 7) for f in game.faces)
    closed = game.closed_rows
    for r, row in enumerate(range(5, 11)):
        assert game.chips_left[r] + sum(c[r] for c in game.chip_counts) == game.chips_start[r]
        assert game.chips_left[r] >= 0
        on_row = [p for p in range(players) if game.pieces[p][r] is not None]
        if row in closed:
            assert not on_row and game.x_holders[r] is None
        on_x = [p for p in on_row if game.pieces[p][r] == FIELDS[r] - 1]
        assert on_x == ([] if game.x_holders[r] is None else [game.x_holders[r]])
        assert all(0 <= game.pieces[p][r] < FIELDS[r] for p in on_row)  # type: ignore[operator]
    for p in range(players):
        on_board = sum(f is not None for f in game.pieces[p])
        assert game.supply[p] + on_board + game.lost[p] == PIECES and game.supply[p] >= 0
        assert game.lost[p] <= len(closed)
        if game.supply[p] == 0:  # why "no piece left to place" cannot happen
            assert all(game.pieces[p][r] is not None for r in range(6) if game.chips_left[r])
        assert len(game.bonus[p]) <= game.sets[p]
        if game.tiles_left:
            assert len(game.bonus[p]) == game.sets[p]
        assert game.scores[p] == sum(game.chips[p]) + sum(game.bonus[p])
        assert list(game.chips[p]) == sorted(game.chips[p])
    taken = sorted((t for tiles in game.bonus for t in tiles), reverse=True)
    assert tuple(taken) + game.tiles_left == BONUS_TILES
    assert game.end_triggered == (len(closed) >= 3 or not game.tiles_left)
    assert all(event.get("reason") != "no_piece" for event in game.events)


def candidates(game: LevelX, chooser: random.Random) -> list[Any]:
    """A wider space than the legal one: every grouping of indices, permuted spellings,
    malformed groupings, lucky-loser choices of every length with faces 0–7."""
    wide: list[Any] = [Groups(groups) for groups in INDEX_GROUPINGS]
    wide += [Groups(tuple(tuple(reversed(g)) for g in reversed(groups))) for groups in INDEX_GROUPINGS]
    wide += [Groups(((i,), (i,))) for i in range(4)] + [Groups(((),)), Groups(((4,),)), Groups(((0, 0),))]
    for length in range(5):
        for _ in range(3):
            wide.append(TurnOnes(tuple(chooser.randint(0, 7) for _ in range(length))))
    return wide


def play_checked(seed: int, players: int) -> LevelX:
    game = LevelX([f"P{i}" for i in range(players)])
    dice, chooser = SeededDice(seed), random.Random(seed)
    lost, counts, closed = list(game.lost), game.chip_counts, game.closed_rows
    for step_number in range(MAX_STEPS):
        check_invariants(game)
        if game.is_over():
            return game
        if game.pending().kind == "roll":
            assert game.legal_decisions() == []
            game.roll(dice)
            continue
        legal = game.legal_decisions()
        legal_set = set(legal)
        assert len(legal_set) == len(legal) and Groups(()) in legal_set
        assert (game.ones_to_turn > 0) == isinstance(legal[0], TurnOnes)
        for decision in legal:  # every offered decision is accepted
            twin = game.copy()
            twin.apply(decision)
            check_invariants(twin)
        for candidate in candidates(game, chooser):  # everything else is refused, unchanged
            if candidate in legal_set:
                continue
            before = state(game)
            try:
                game.apply(candidate)
            except IllegalStepError:
                assert state(game) == before
            else:
                raise AssertionError(f"{candidate!r} was accepted but not offered for {game.faces}")
        reps = {o.groups for o in outcomes(game)}
        assert reps <= legal_set and len(reps) == len({tuple(sorted(o.sums)) for o in outcomes(game)})
        decision = chooser.choice(legal)
        if step_number % 7 == 0:  # undo restores the previous record
            record = game.to_record()
            game.apply(decision)
            assert game.undo() == decision and game.to_record() == record
        game.apply(decision)
        assert all(a <= b for a, b in zip(lost, game.lost))
        assert all(a <= b for old, new in zip(counts, game.chip_counts) for a, b in zip(old, new))
        assert set(closed) <= set(game.closed_rows)
        lost, counts, closed = list(game.lost), game.chip_counts, game.closed_rows
    raise AssertionError(f"seed {seed}: no end after {MAX_STEPS} steps")


@GAMES
@given(seed=st.integers(0, 2**32 - 1), players=st.integers(2, 4))
def test_random_games_keep_the_rules(seed: int, players: int) -> None:
    assert len(INDEX_GROUPINGS) == 52  # Bell(5): partitions of the dice plus an "unused" block
    game = play_checked(seed, players)
    result = game.result()
    assert result is not None
    assert result["scores"] == list(game.scores)
    assert result["winners"] == [i for i, s in enumerate(result["scores"]) if s == max(result["scores"])]
    assert result["chips"] == [sorted(c) for c in result["chips"]]
    assert game.round_number * players == sum(isinstance(s, Groups) for s in game.history)  # equal turns
    # records round-trip through JSON text and replay to the same game
    text = json.dumps(game.to_record())
    replay = LevelX([p["name"] for p in json.loads(text)["players"]])
    for data in json.loads(text)["steps"]:
        replay.apply(LevelX.parse_step(data))
    assert replay.to_record() == game.to_record() and state(replay) == state(game)
    assert state(game.copy()) == state(Game.copy(game)) == state(game)


@settings(max_examples=60, deadline=None)
@given(
    groups=st.lists(st.lists(st.integers(0, 3), min_size=1, max_size=4, unique=True), max_size=4),
    data=st.data(),
)
def test_groups_equality_is_order_free(groups: list[list[int]], data: st.DataObject) -> None:
    shuffled = data.draw(st.permutations([data.draw(st.permutations(g)) for g in groups]))
    a, b = Groups(tuple(map(tuple, groups))), Groups(tuple(map(tuple, shuffled)))
    assert a == b and hash(a) == hash(b)
    assert b.to_json() == {"groups": [list(g) for g in shuffled]}
    assert LevelX.parse_step(json.loads(json.dumps(b.to_json()))).to_json() == b.to_json()


@settings(max_examples=60, deadline=None)
@given(faces=st.tuples(*[st.integers(1, 6)] * 4))
def test_outcomes_partition_the_legal_groupings(faces: tuple[int, int, int, int]) -> None:
    game = LevelX(["A", "B"])
    game.apply(Roll(faces))
    groupings = [d for d in game.legal_decisions() if isinstance(d, Groups)]
    sums = {tuple(sorted(sum(faces[i] for i in g) for g in d.groups)) for d in groupings}
    result = outcomes(faces)
    assert [o.sums for o in result] == sorted(sums, key=lambda s: (-len(s), s))
    assert [o.label for o in result] == ["+".join(map(str, o.sums)) or "none" for o in result]
    for outcome in result:  # the representative is the first grouping giving those sums
        first = next(d for d in groupings if sorted(sum(faces[i] for i in g) for g in d.groups) == list(outcome.sums))
        assert outcome.groups == first
