"""EXXTRA's bots and the strong bot's evaluator: legal, deterministic decisions over seeded
games, the opponent model's rung rule, chances that are chances, and figures that agree with the
decision."""

from __future__ import annotations

import random
from fractions import Fraction

import pytest

from firmware.dice import SeededDice
from firmware.games import DECISION, Player, Roll, new_game
from firmware.games.exxtra import bots, greedy, model
from firmware.games.exxtra.rules import TOP_RUNG, Place, Reroll
from firmware.games import Game, words_of
from firmware.games.base import Decision

LEVELS = {"easy": bots.easy, "medium": bots.medium, "strong": bots.strong}


def positions_of(players: int, seed: int, limit: int = 400) -> list:
    """Copies of the decision positions of one seeded game of strong bots."""
    game = new_game("exxtra", [Player(f"P{i}") for i in range(players)])
    dice = SeededDice(f"bots:{seed}")
    rng = random.Random(seed)
    found = []
    while not game.is_over() and len(found) < limit:
        if game.pending().kind == DECISION:
            found.append(game.copy())
            game.apply(bots.strong(game, game.legal_decisions(), rng))
        else:
            game.roll(dice)
    return found


@pytest.mark.parametrize("players", [3, 4, 5, 6])
def test_every_level_plays_a_legal_decision_and_the_same_one_again(players):
    for game in positions_of(players, seed=players)[::3]:
        decisions = game.legal_decisions()
        for level, policy in LEVELS.items():
            first = policy(game, decisions, random.Random(1))
            assert first in decisions, (level, first, decisions)
            again = policy(game.copy(), list(decisions), random.Random(2))
            assert again == first, (level, game.to_record())


@pytest.mark.parametrize("players", [3, 4, 5, 6])
def test_strong_bots_finish_a_game(players):
    game = new_game("exxtra", [Player(f"P{i}", bot="strong") for i in range(players)])
    dice = SeededDice(f"finish:{players}")
    steps = 0
    while not game.is_over():
        steps += 1
        assert steps < 5000, "strong bots did not finish"
        if game.pending().kind == DECISION:
            game.apply(bots.strong(game, game.legal_decisions(), random.Random(0)))
        else:
            game.roll(dice)
    assert game.winner is not None


@pytest.mark.parametrize("players", [3, 4, 5, 6])
def test_the_opponent_model_places_as_the_greedy_rule_does(players):
    opponents = model.opponent_model(players)
    for free in range(model.ALL_FREE + 1):
        rungs = [r for r in range(1, TOP_RUNG + 1) if free >> (r - 1) & 1]
        for value, _chance in opponents.placed:
            assert opponents.rung(value, free) == greedy.rung(value, players, rungs), (value, rungs)


@pytest.mark.parametrize("players", [3, 6])
def test_the_opponent_model_is_a_distribution(players):
    opponents = model.opponent_model(players)
    placed = sum(chance for _, chance in opponents.placed)
    # the rest of a turn is an X on the re-roll: 26 first rolls below "61", then 11 X rolls in 36
    assert placed == pytest.approx(1 - Fraction(26, 36) * Fraction(11, 36))
    for free in range(model.ALL_FREE + 1):
        assert sum(chance for _, chance in opponents.transitions(free)) == pytest.approx(1.0)
        for rung in range(1, TOP_RUNG + 1):
            kicks = opponents.kicks(free, rung)
            assert all(a >= b for a, b in zip(kicks, kicks[1:])), "better combinations are rarer"
            assert 0.0 <= kicks[0] <= placed + 1e-12


def test_survival_win_chances_and_figures_agree_with_the_decision():
    for players in (3, 5):
        for game in positions_of(players, seed=10 + players)[::5]:
            position = model.Position(game)
            value = int(game.current_combination)
            decisions = game.legal_decisions()
            for decision in decisions:
                if isinstance(decision, Place):
                    removed = position.removed(decision.rung, value)
                    kept = position.survival(decision.rung, value, removed)
                    assert 0.0 <= kept <= 1.0
                    if decision.rung == 0:
                        assert kept == 1.0
                    assert 0.0 <= position.place(decision.rung, value, position.position) <= 1.0
            assert 0.0 <= position.reroll() <= 1.0
            figures = bots.evaluate(game, decisions)
            assert len(figures) == len(decisions)
            chosen = bots.strong(game, decisions, random.Random(0))
            assert figures[decisions.index(chosen)] == pytest.approx(max(figures), abs=1e-6)


def test_removing_pairs_takes_their_rungs_and_nothing_below():
    game = new_game("exxtra", ["A", "B", "C"])
    game.apply(Roll(("4", "1")))
    game.apply(Place(4))  # A: "41" on rung 4
    game.apply(Roll(("7", "3")))
    game.apply(Place(5))  # B: "73" on rung 5 (a pair removes only pairs above it)
    game.apply(Roll(("7", "5")))  # C decides on "75"
    position = model.Position(game)
    assert position.removed(3, 75) == 0b11000  # both pairs above rung 3 are no better
    assert position.removed(4, 75) == 0b10000  # from rung 4: only the pair above it
    assert position.removed(0, 40) == 0  # "40" beats neither
    assert position.removed(0, 41) == 0b01000  # an equal combination removes too
    assert position.survival(3, 75, 0b11000) > position.survival(3, 41, 0)


def hinted(game: Game, decision: Decision) -> str:
    """The hint the board shows for `decision`: its name in the game's words, the bots' reason."""
    return words_of(game.name).hint(game, decision, bots.hint_reason(game, decision))


def test_hints_speak_of_the_decision():
    game = new_game("exxtra", ["A", "B", "C", "D"])
    game.apply(Roll(("2", "1")))
    assert hinted(game, Reroll()).startswith("roll again: expect to end near space ")
    reason = hinted(game, Place(3))
    assert reason.startswith("rung 3: ") and "% safe, expect to end near space " in reason
