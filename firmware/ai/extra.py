"""EXTRA! bots "medium" and "strong": one-step look-ahead on a model of each row's future.

Both judge every distinct effect of the legal decisions (which EXTRA column gets a cross, which
two rows get one) by the expected final score of the sheet after it:

- the game's expected remaining length `R` comes from the EXTRA table (`remaining_rolls`, an
  exact expectation under "take the shown number with most room left", computed once);
- each row then gains a cross on each remaining roll with a probability `p` (how often a roll
  offers its sum, shared among the rows in play), so its final score is an expectation over a
  binomial number of future crosses (`row_value`).

"medium" plays the same model with a blunter row model (it looks only at whether a cross can
still get a row out of its wall); "strong" uses the tuned model. Deterministic: ties go to the
first decision in `legal_decisions()` order; the rng is not needed.

    >>> import random
    >>> from firmware.games import new_game, Roll
    >>> game = new_game("extra", ["Solo"]); game.apply(Roll((1, 2, 3, 4, 6)))
    >>> strong(game, game.legal_decisions(), random.Random(1)) in game.legal_decisions()
    True
"""

from __future__ import annotations

import random
from functools import lru_cache
from itertools import product
from math import comb
from typing import Any

from firmware.games.extra import COLUMN_SIZES, FACTORS, POINTS, ROW_SIZES, SUMS, WALLS, row_score

_SUM_INDEX = {s: i for i, s in enumerate(SUMS)}
_WALL = tuple(WALLS[s] for s in SUMS)
_SIZE = tuple(ROW_SIZES[s] for s in SUMS)
_POINTS = tuple(POINTS[s] for s in SUMS)

# Tuned by simulation (sim/arena.py, EXTRA! solo): how much of a roll's two crosses a row in
# play can count on, and how strongly a row with more crosses draws them.
STRONG = {"share": 1.9, "commit": 0.06, "open_bias": 0.0}
MEDIUM = {"share": 1.2, "commit": 0.0, "open_bias": 0.0}


def _offer_probabilities() -> tuple[float, ...]:
    """Per sum: the chance that five dice hold two dice with that sum (exact, 6^5 rolls)."""
    hits = [0] * len(SUMS)
    for roll in product(range(1, 7), repeat=5):
        found = {roll[a] + roll[b] for a in range(5) for b in range(a + 1, 5)}
        for s in found:
            hits[s - 2] += 1
    return tuple(h / 6 ** 5 for h in hits)


OFFER = _offer_probabilities()


def _shown_sets(count: int) -> list[tuple[frozenset[int], float]]:
    """For `count` EXTRA numbers: each set of them a roll of five dice shows, with its chance."""
    table: dict[frozenset[int], float] = {}
    for roll in product(range(count + 1), repeat=5):  # value `count` = any other face
        shown = frozenset(v for v in roll if v < count)
        weight = 1.0
        for v in roll:
            weight *= 1 / 6 if v < count else (6 - count) / 6
        table[shown] = table.get(shown, 0.0) + weight
    return sorted(table.items(), key=lambda item: sorted(item[0]))


_SHOWN3 = _shown_sets(3)


@lru_cache(maxsize=None)
def remaining_rolls(room: tuple[int, ...]) -> float:
    """Expected rolls still to come (the ending one included) with `room` boxes left in the three
    columns, taking the shown number with most room left; 0 once a column is full.

    >>> remaining_rolls((1, 5, 5)) >= 1.0
    True
    """
    if min(room) <= 0:
        return 0.0
    empty = 0.0
    total = 1.0
    for shown, chance in _SHOWN3:
        if not shown:
            empty = chance
            continue
        pick = max(shown, key=lambda i: (room[i], -i))
        after = list(room)
        after[pick] -= 1
        total += chance * remaining_rolls(tuple(sorted(after)))
    return total / (1 - empty)


@lru_cache(maxsize=None)
def row_value(index: int, crosses: int, rolls: int, p_key: int) -> float:
    """Expected final score of row `index` with `crosses` now, `rolls` rolls to come and a
    chance p = p_key/100 of a cross on each (binomial)."""
    size = _SIZE[index]
    total = SUMS[index]
    if rolls <= 0 or crosses >= size:
        return float(row_score(total, crosses))
    p = p_key / 100
    value = 0.0
    for k in range(rolls + 1):
        chance = comb(rolls, k) * p ** k * (1 - p) ** (rolls - k)
        value += chance * row_score(total, min(size, crosses + k))
    return value


def _row_chances(crosses: list[int], params: dict[str, float]) -> list[float]:
    """The chance each row gains a cross per roll: rows in play share the roll's two crosses in
    proportion to how often their sum is offered (and how far along they are)."""
    weights = []
    for i, c in enumerate(crosses):
        if 0 < c < _SIZE[i]:
            weights.append(OFFER[i] * (1 + params["commit"] * c))
        else:
            weights.append(0.0)
    total = sum(weights) or 1.0
    share = params["share"]
    return [min(OFFER[i], share * w / total) if w else 0.0 for i, w in enumerate(weights)]


def sheet_value(crosses: list[int], room: tuple[int, ...], params: dict[str, float],
                table: dict[tuple[int, int, int, int], float] | None = None) -> float:
    """Expected final total of a sheet: rows `crosses`, EXTRA columns with `room` boxes left.
    With a `table` (row, crosses, rolls to come, other rows in play) → expected final row score
    (learnt from play), its entries replace the model's where present."""
    rolls = remaining_rolls(tuple(sorted(room)))
    low = int(rolls)
    frac = rolls - low
    chances = _row_chances(crosses, params)
    active = sum(1 for i, c in enumerate(crosses) if 0 < c < _SIZE[i])
    value = 0.0
    for i, c in enumerate(crosses):
        if c == 0:
            continue
        others = min(active - (1 if c < _SIZE[i] else 0), MAX_OTHERS)
        key = int(round(chances[i] * 100))
        ends = []
        for n in (low, low + 1) if frac else (low,):
            learnt = table.get((i, c, n, others)) if table is not None and c < _SIZE[i] and n > 0 else None
            ends.append(learnt if learnt is not None else row_value(i, c, n, key))
        value += ends[0] if frac == 0 else ends[0] + frac * (ends[1] - ends[0])
    return value


MAX_OTHERS = 6  # rows in play besides this one, counted up to this


def _room(sheet: Any, column: int | None, new: bool) -> tuple[int, ...]:
    numbers, crossed = sheet.numbers, sheet.column_crosses
    room = [COLUMN_SIZES[i] - crossed[i] for i in range(3)]
    if column is not None:
        room[column] -= 1
    return tuple(room)


def _decide(game: Any, decisions: list, params: dict[str, float],
            table: dict[tuple[int, int, int, int], float] | None = None) -> Any:
    player = game.undecided[0]
    sheet = game.sheets[player]
    faces = game.faces
    kids = game.players[player].kids
    base = list(sheet.row_crosses)
    seen: dict[tuple, float] = {}
    best, best_value = decisions[0], float("-inf")
    for choice in decisions:
        column = choice.column
        new = column is not None
        if choice.extra is not None and not new:
            column = sheet.column_of(faces[choice.extra])
        crossed_column = None if choice.extra is None or (new and kids) else column
        (a, b), (c, d) = choice.pairs
        s1, s2 = faces[a] + faces[b], faces[c] + faces[d]
        key = (crossed_column, min(s1, s2), max(s1, s2))
        value = seen.get(key)
        if value is None:
            rows = base[:]
            for s in (s1, s2):
                i = s - 2
                if rows[i] < _SIZE[i]:
                    rows[i] += 1
            value = sheet_value(rows, _room(sheet, crossed_column, new), params, table)
            seen[key] = value
        if value > best_value:
            best, best_value = choice, value
    return best


def strong(game: Any, decisions: list, rng: random.Random) -> Any:
    """The tuned model: best expected final total after this decision."""
    return _decide(game, decisions, STRONG)


def medium(game: Any, decisions: list, rng: random.Random) -> Any:
    """The same look-ahead with a blunter model of the rows' future."""
    return _decide(game, decisions, MEDIUM)
