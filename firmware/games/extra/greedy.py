"""EXTRA!'s greedy baseline: the arena's fixed yardstick (`SPEC.baseline`), not a level players pick.

The highest change of the sheet's total, + 5 for each cross into a row already started (before
this decision) and not full, + 2 × (boxes left in the EXTRA column it crosses). Ties at random.
"""

from __future__ import annotations

import random
from collections.abc import Sequence

from firmware.games.extra.rules import COLUMN_SIZES, ROW_SIZES, Choice, Extra, row_score

STARTED_ROW_BONUS = 5
COLUMN_BOX_BONUS = 2


def choice_value(game: Extra, choice: Choice) -> int:
    """The greedy value of `choice`: change of the sheet's total + 5 per cross into a row
    started before this decision and not full + 2 × boxes left in the EXTRA column crossed."""
    sheet = game.sheets[choice.player]
    faces = game.faces
    assert faces is not None, "a decision is pending: the dice are rolled"
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


def greedy(game: Extra, decisions: Sequence[Choice], rng: random.Random) -> Choice:
    values = [choice_value(game, choice) for choice in decisions]
    best = max(values)
    return rng.choice([choice for choice, v in zip(decisions, values) if v == best])
