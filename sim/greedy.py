"""The greedy baseline: one simple, fixed policy per game that the arena measures the levels against.

Not a level players pick (it lives with the arena, not in `firmware/games`): it is the yardstick
of issue 22, built exactly as defined there, so that figures against it can be compared with
figures of bots written elsewhere from the same definition.

- EXXTRA: accept a combination ranking at least "61"; below that re-roll, but after the first
  re-roll accept any valid combination. Place on the highest free rung r in 1–5 with
  beaten · r < ½, where beaten = P(one first roll of dice A and B gives a combination ranking at
  least as high, X counted as 0) × (players − 1) / 5; if none, the lowest free rung 1–5; if
  none is free, rung 0.
- LEVEL X: among the distinct outcomes of the legal decisions (a lucky-loser choice is worth its
  best grouping), the highest value of own score (chips + bonus tiles) + Σ over own pieces on the
  board of row × (field + 1) / fields-in-row (field 0 = the first). Ties at random. Offered the
  last bonus tile, it always takes it.
- EXTRA!: the highest change of the sheet's total, + 5 for each cross into a row already started
  (before this decision) and not full, + 2 × (boxes left in the EXTRA column it crosses). Ties
  at random.

Each policy has the bots' signature `policy(game, decisions, rng) -> decision`.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Sequence
from fractions import Fraction
from functools import cache
from typing import Any

from firmware.games.exxtra.rules import DIE_A, DIE_B, TOP_RUNG, Place, Reroll
from firmware.games.extra.rules import COLUMN_SIZES, ROW_SIZES, Choice, row_score
from firmware.games.levelx.rules import FIELDS, ROWS, Bonus, Groups, TurnOnes, outcomes

NAME = "greedy"
EXXTRA_ACCEPT = 61  # the lowest combination accepted on the first roll of a turn
STARTED_ROW_BONUS = 5
COLUMN_BOX_BONUS = 2


# --- EXXTRA ------------------------------------------------------------------------------
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


def exxtra_rung(value: int, players: int, free: Sequence[int]) -> int:
    """The rung greedy places combination `value` on, given the free rungs among 1–5."""
    risk = beaten(value, players)
    fitting = [r for r in free if 1 <= r <= TOP_RUNG and risk * r < Fraction(1, 2)]
    if fitting:
        return max(fitting)
    ones = [r for r in free if 1 <= r <= TOP_RUNG]
    return min(ones) if ones else 0


def exxtra(game: Any, decisions: Sequence[Any], rng: random.Random) -> Any:
    combo = game.current_combination
    assert combo is not None, "a decision is pending: a combination is showing"
    value = int(combo)
    reroll = Reroll()
    if reroll in decisions and game.rolls_this_turn == 1 and value < EXXTRA_ACCEPT:
        return reroll
    free = [d.rung for d in decisions if isinstance(d, Place) and d.rung > 0]
    return Place(exxtra_rung(value, len(game.players), free))


# --- LEVEL X -----------------------------------------------------------------------------
TAKE_TILE = Bonus(True)


def levelx_value(game: Any, player: int) -> Fraction:
    """Own score + Σ over own pieces on the board of row × (field + 1) / fields-in-row."""
    value = Fraction(game.scores[player])
    for row, fields, field in zip(ROWS, FIELDS, game.pieces[player]):
        if field is not None:
            value += Fraction(row * (field + 1), fields)
    return value


def _best_grouping(game: Any, player: int) -> tuple[Fraction, list[Groups]]:
    """The best value over the distinct outcomes of the pending grouping, and the outcomes' groups reaching it."""
    best: Fraction | None = None
    tied: list[Groups] = []
    for outcome in outcomes(game):
        game.apply(outcome.groups)
        taken = TAKE_TILE in game.legal_decisions()  # offered the last bonus tile: greedy takes it
        if taken:
            game.apply(TAKE_TILE)
        value = levelx_value(game, player)
        if taken:
            game.undo()
        game.undo()
        if best is None or value > best:
            best, tied = value, [outcome.groups]
        elif value == best:
            tied.append(outcome.groups)
    assert best is not None, "a grouping is pending: 'none' at least is an outcome"
    return best, tied


def levelx(game: Any, decisions: Sequence[Any], rng: random.Random) -> Any:
    if TAKE_TILE in decisions:
        return TAKE_TILE
    player = game.current_player
    best, tied = _best_grouping(game, player)
    candidates: list[Any] = list(tied)
    for decision in decisions:
        if isinstance(decision, TurnOnes):
            game.apply(decision)
            value, _ = _best_grouping(game, player)
            game.undo()
            if value > best:
                best, candidates = value, [decision]
            elif value == best:
                candidates.append(decision)
    return rng.choice(candidates)


# --- EXTRA! ------------------------------------------------------------------------------
def extra_value(game: Any, choice: Choice) -> int:
    """The greedy value of `choice`: change of the sheet's total + 5 per cross into a row
    started before this decision and not full + 2 × boxes left in the EXTRA column crossed."""
    sheet = game.sheets[choice.player]
    faces = game.faces
    crosses = {total: sheet.crosses_in(total) for total in ROW_SIZES}
    before = dict(crosses)
    value = 0
    for a, b in choice.pairs:
        total = faces[a] + faces[b]
        if crosses[total] < ROW_SIZES[total]:
            if before[total] > 0:
                value += STARTED_ROW_BONUS
            value += row_score(total, crosses[total] + 1) - row_score(total, crosses[total])
            crosses[total] += 1
    if choice.extra is not None:
        face = faces[choice.extra]
        column = sheet.column_of(face)
        crossed = column is not None or not game.players[choice.player].kids
        if column is None:
            column = choice.column
        if crossed and column is not None:
            value += COLUMN_BOX_BONUS * (COLUMN_SIZES[column] - sheet.column_crosses[column])
    return value


def extra(game: Any, decisions: Sequence[Any], rng: random.Random) -> Any:
    values = [extra_value(game, choice) for choice in decisions]
    best = max(values)
    return rng.choice([choice for choice, value in zip(decisions, values) if value == best])


POLICIES: dict[str, Callable[[Any, Sequence[Any], random.Random], Any]] = {
    "exxtra": exxtra,
    "levelx": levelx,
    "extra": extra,
}


def choose(game: Any, rng: random.Random) -> Any:
    """Greedy's decision for the pending decision of `game`; refuses a game it has no policy for."""
    policy = POLICIES.get(game.name)
    if policy is None:
        raise ValueError(f"the greedy baseline has no policy for {game.name!r} (it plays {', '.join(POLICIES)})")
    decisions = game.legal_decisions()
    if not decisions:
        raise ValueError("no decision is pending")
    choice = policy(game, decisions, rng)
    if choice not in decisions:
        raise AssertionError(f"greedy chose an illegal decision {choice!r}")
    return choice
