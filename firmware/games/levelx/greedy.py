"""LEVEL X's greedy baseline: the arena's fixed yardstick (`SPEC.baseline`), not a level players pick.

Among the distinct outcomes of the legal decisions (a lucky-loser choice is worth its best
grouping), the highest value of own score (chips + bonus tiles) + Σ over own pieces on the board
of row × (field + 1) / fields-in-row (field 0 = the first). Ties at random. Offered the last bonus
tile, it always takes it.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from fractions import Fraction

from firmware.games.levelx.rules import FIELDS, ROWS, Bonus, Decision, Groups, LevelX, TurnOnes, outcomes


TAKE_TILE = Bonus(True)


def position_value(game: LevelX, player: int) -> Fraction:
    """Own score + Σ over own pieces on the board of row × (field + 1) / fields-in-row."""
    value = Fraction(game.scores[player])
    for row, fields, field in zip(ROWS, FIELDS, game.pieces[player]):
        if field is not None:
            value += Fraction(row * (field + 1), fields)
    return value


def _best_grouping(game: LevelX, player: int) -> tuple[Fraction, list[Groups]]:
    """The best value over the distinct outcomes of the pending grouping, and the outcomes' groups reaching it."""
    best: Fraction | None = None
    tied: list[Groups] = []
    for outcome in outcomes(game):
        game.apply(outcome.groups)
        taken = TAKE_TILE in game.legal_decisions()  # offered the last bonus tile: greedy takes it
        if taken:
            game.apply(TAKE_TILE)
        value = position_value(game, player)
        if taken:
            game.undo()
        game.undo()
        if best is None or value > best:
            best, tied = value, [outcome.groups]
        elif value == best:
            tied.append(outcome.groups)
    assert best is not None, "a grouping is pending: 'none' at least is an outcome"
    return best, tied


def greedy(game: LevelX, decisions: Sequence[Decision], rng: random.Random) -> Decision:
    if TAKE_TILE in decisions:
        return TAKE_TILE
    player = game.current_player
    best, tied = _best_grouping(game, player)
    candidates: list[Decision] = list(tied)
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
