"""EXXTRA over random play: invariants after every step, the game ends, offered decisions are
accepted and every other candidate refused without a change, records round-trip, undo."""

from __future__ import annotations

import json
import random

from hypothesis import given, settings
from hypothesis import strategies as st

from firmware.dice import SeededDice
from firmware.errors import IllegalStepError
from firmware.games import DECISION, OVER, ROLL, Roll
from firmware.games.exxtra.rules import DIE_A, DIE_B, FINISH, Exxtra, Place, Reroll, combination

MAX_STEPS = 5000
CANDIDATES = [Reroll()] + [Place(r) for r in range(-1, 7)] + [Place(True), Place("2")]
SOME_ROLLS = [Roll(("7", "6")), Roll(("X", "X")), Roll(("1", "1")), Roll(("4", "X"))]
seeds = st.integers(min_value=0, max_value=2**32 - 1)
seats = st.integers(min_value=3, max_value=6)


def snapshot(game: Exxtra) -> tuple:
    return (
        game.to_record(),
        game.pending(),
        game.positions,
        game.ladder,
        game.rung_of,
        game.current_roll,
        game.current_combination,
        game.first_roll,
        game.rolls_this_turn,
        game.winner,
    )


def random_games(seed: int, players: int):
    """Yield (game, step) after each step of one random game; the game plays to its end."""
    game = Exxtra([f"P{i}" for i in range(players)])
    dice, rng = SeededDice(seed), random.Random(seed)
    for _ in range(MAX_STEPS):
        kind = game.pending().kind
        if kind == OVER:
            return
        if kind == ROLL:
            step = game.roll(dice)
        else:
            step = rng.choice(game.legal_decisions())
            game.apply(step)
        yield game, step
    raise AssertionError(f"seed {seed}: no winner after {MAX_STEPS} steps")


def check_invariants(game: Exxtra) -> None:
    n = len(game.players)
    positions, ladder, rung_of = game.positions, game.ladder, game.rung_of
    assert len(positions) == n and all(0 <= p <= FINISH for p in positions)
    assert len(ladder) == 6 and all(len(ladder[r]) <= 1 for r in range(1, 6))
    on_ladder = [pair.player for rung in ladder for pair in rung]
    assert len(on_ladder) == len(set(on_ladder))  # one pair of dice per player
    assert rung_of == tuple(
        next((r for r, rung in enumerate(ladder) if any(p.player == i for p in rung)), None) for i in range(n)
    )
    pending = game.pending()
    if game.winner is not None:
        assert pending.kind == OVER and positions[game.winner] == FINISH
        assert [i for i, p in enumerate(positions) if p == FINISH] == [game.winner]
        assert game.result() == {"positions": list(positions), "winners": [game.winner]}
        assert game.legal_decisions() == []
        return
    assert FINISH not in positions and game.result() is None
    assert pending.player == game.current_player and rung_of[game.current_player] is None
    if pending.kind == DECISION:
        assert game.rolls_this_turn >= 1
        assert game.current_combination == combination(game.current_roll, game.first_roll)
        free = [r for r in range(1, 6) if not ladder[r]]
        assert game.legal_decisions() == [Reroll(), Place(0)] + [Place(r) for r in free]
    else:
        assert pending.kind == ROLL and game.current_roll is None and game.legal_decisions() == []


def check_events(game: Exxtra, step, before: tuple[int, ...]) -> None:
    """Events describe the step: moves add up to the change of positions, a place removed every
    equal-or-lower pair above it."""
    assert game.events and all("kind" in e and "player" in e for e in game.events)
    moved = list(before)
    for event in game.events:
        if event["kind"] == "move":
            assert moved[event["player"]] == event["from"]
            moved[event["player"]] = event["to"]
    assert tuple(moved) == game.positions
    if isinstance(step, Place):
        placed = game.events[0]
        assert placed == {
            "kind": "place",
            "player": placed["player"],
            "rung": step.rung,
            "combination": placed["combination"],
        }
        for rung in range(step.rung + 1, 6):
            assert all(pair.combination > placed["combination"] for pair in game.ladder[rung])
    if isinstance(step, Roll):
        rolled = game.events[0]
        assert rolled["kind"] == "roll" and rolled["faces"] == step.faces
        player, start = rolled["player"], before[rolled["player"]]
        xs = step.faces.count("X")
        if rolled["combination"] is None:  # an X on a later roll: back one per X, turn over
            assert not rolled["first"] and xs > 0
            assert game.events[1:3] == [
                {"kind": "invalid", "player": player, "xs": xs},
                {"kind": "move", "player": player, "from": start, "to": max(0, start - xs), "cause": "x"},
            ]
            assert game.events[3]["kind"] == "turn"
        elif step.faces[0] == step.faces[1] != "X":
            assert game.events[1] == {
                "kind": "move",
                "player": player,
                "from": start,
                "to": min(FINISH, start + int(step.faces[0])),
                "cause": "double",
            }
        else:
            assert game.events == [rolled] and game.positions == before


@settings(max_examples=40, deadline=None)
@given(seed=seeds, players=seats)
def test_random_games_keep_the_invariants_and_end(seed, players):
    check_invariants(Exxtra([f"P{i}" for i in range(players)]))
    before = (0,) * players
    game = None
    for game, step in random_games(seed, players):
        check_invariants(game)
        check_events(game, step, before)
        before = game.positions
    assert game is not None and game.is_over() and game.winner is not None


def check_candidates(game: Exxtra) -> None:
    legal = game.legal_decisions()
    assert len(legal) == len(set(legal))
    for step in legal:
        twin = game.copy()
        twin.apply(step)
        assert twin.history[-1] == step
    wider = CANDIDATES + (SOME_ROLLS if game.pending().kind == DECISION else [])
    before = snapshot(game)
    for step in wider:
        if step in legal:
            continue
        try:
            game.apply(step)
        except IllegalStepError:
            pass
        else:
            raise AssertionError(f"{step!r} was not offered but was accepted")
        assert snapshot(game) == before


@settings(max_examples=25, deadline=None)
@given(seed=seeds, players=seats, every=st.integers(min_value=3, max_value=12))
def test_offered_decisions_are_accepted_and_all_others_refused(seed, players, every):
    for index, (game, _) in enumerate(random_games(seed, players)):
        if game.is_over():
            return
        if index % every == 0 or game.pending().kind == ROLL:
            if game.pending().kind == ROLL:
                before = snapshot(game)
                for step in CANDIDATES:  # no decision before the roll
                    try:
                        game.apply(step)
                    except IllegalStepError:
                        continue
                    raise AssertionError(f"{step!r} accepted before the roll")
                assert snapshot(game) == before
            else:
                check_candidates(game)


@settings(max_examples=25, deadline=None)
@given(seed=seeds, players=seats)
def test_records_round_trip_through_json_text(seed, players):
    *_, (game, _) = random_games(seed, players)
    text = json.dumps(game.to_record())
    data = json.loads(text)
    twin = Exxtra([p["name"] for p in data["players"]])
    for step_data in data["steps"]:
        twin.apply(Exxtra.parse_step(step_data))
    assert twin.to_record() == game.to_record() and twin.result() == game.result()
    assert snapshot(twin) == snapshot(game)


@settings(max_examples=25, deadline=None)
@given(seed=seeds, players=seats, cut=st.floats(min_value=0, max_value=1))
def test_undo_restores_the_previous_record(seed, players, cut):
    *_, (finished, _) = random_games(seed, players)
    steps = finished.history
    keep = int(cut * (len(steps) - 1))
    game = Exxtra(finished.players)
    for step in steps[:keep]:
        game.apply(step)
    before = snapshot(game)
    game.apply(steps[keep])
    assert game.undo() == steps[keep]
    assert snapshot(game) == before


def test_every_roll_outcome_is_accepted_when_a_roll_is_pending():
    game = Exxtra(["A", "B", "C"])
    for a in DIE_A:
        for b in DIE_B:
            twin = game.copy()
            twin.apply(Roll((a, b)))
            assert twin.pending().kind == DECISION  # the first roll is always valid
