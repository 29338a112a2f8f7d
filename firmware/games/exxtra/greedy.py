"""EXXTRA's greedy baseline: the arena's fixed yardstick (`SPEC.baseline`), not a level players pick.

Accept a combination ranking at least "61"; below that re-roll, but after the first re-roll
accept any valid combination. Place on the highest free rung r in 1–5 with beaten · r < ½, where
beaten = P(one first roll of dice A and B gives a combination ranking at least as high, X counted
as 0) × (players − 1) / 5; if none, the lowest free rung 1–5; if none is free, rung 0.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from fractions import Fraction
from functools import cache

from firmware.games.exxtra.rules import DIE_A, DIE_B, TOP_RUNG, Decision, Exxtra, Place, Reroll

ACCEPT = 61  # the lowest combination accepted on the first roll of a turn


def _first_roll_value(a: str, b: str) -> int:
    """A first roll's combination as high*10+low, X counted as 0 (a first roll is always valid)."""
    va, vb = (0 if a == "X" else int(a)), (0 if b == "X" else int(b))
    return max(va, vb) * 10 + min(va, vb)


@cache
def at_least_chance(value: int) -> Fraction:
    """P(one first roll of dice A and B gives a combination ranking at least `value`), exactly."""
    hits = sum(1 for a in DIE_A for b in DIE_B if _first_roll_value(a, b) >= value)
    return Fraction(hits, len(DIE_A) * len(DIE_B))


def beaten(value: int, players: int) -> Fraction:
    """The issue's `beaten` of a combination: at_least_chance × (players − 1) / 5."""
    return at_least_chance(value) * (players - 1) / 5


def rung(value: int, players: int, free: Sequence[int]) -> int:
    """The rung greedy places combination `value` on, given the free rungs among 1–5."""
    risk = beaten(value, players)
    fitting = [r for r in free if 1 <= r <= TOP_RUNG and risk * r < Fraction(1, 2)]
    if fitting:
        return max(fitting)
    ones = [r for r in free if 1 <= r <= TOP_RUNG]
    return min(ones) if ones else 0


def greedy(game: Exxtra, decisions: Sequence[Decision], rng: random.Random) -> Decision:
    combo = game.current_combination
    assert combo is not None, "a decision is pending: a combination is showing"
    value = int(combo)
    reroll = Reroll()
    if reroll in decisions and game.rolls_this_turn == 1 and value < ACCEPT:
        return reroll
    free = [d.rung for d in decisions if isinstance(d, Place) and d.rung > 0]
    return Place(rung(value, len(game.players), free))
