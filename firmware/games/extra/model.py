"""The EXTRA! row model the medium and strong bots share with the strong bot's look-ahead
(firmware/games/extra/search.py): how likely a roll offers each sum, how many rolls a sheet has
left, and a row's expected final score.
"""

from __future__ import annotations

from functools import lru_cache
from itertools import combinations_with_replacement, product
from math import comb, factorial

from firmware.games.extra.rules import ROW_SIZES, SUMS, row_score

# The learnt tables' shapes (`learnt.Tables`: rows, numbers, joint, read from learnt.bin).
Table = dict[tuple[int, int, int, int, int], float]
Numbers = dict[tuple[int, ...], float]
Joint = dict[tuple[int, int], float]

_SIZE = tuple(ROW_SIZES[s] for s in SUMS)
MAX_OTHERS = 6  # rows in play besides this one, counted up to this (the learnt table's key)

# The row model, chosen from a small grid of solo runs: how much of a roll's two crosses the
# rows in play share ("share") and how much more a row with more crosses draws ("commit").
# Strong falls back on its own setting where the learnt table has no entry.
STRONG = {"share": 1.9, "commit": 0.06}
LOOKAHEAD = 8  # effects strong looks a roll ahead from: its second roll's contenders come from these
MEDIUM = {"share": 1.2, "commit": 0.0}


def _offer_probabilities() -> tuple[float, ...]:
    """Per sum: the chance that five dice hold two dice with that sum (exact, 6^5 rolls; each
    of the 252 sorted rolls counted as often as it occurs, so importing stays quick)."""
    hits = [0] * len(SUMS)
    for roll in combinations_with_replacement(range(1, 7), 5):
        ways = 120  # 5!, over the repeats' factorials
        for face in set(roll):
            ways //= factorial(roll.count(face))
        found = {roll[a] + roll[b] for a in range(5) for b in range(a + 1, 5)}
        for s in found:
            hits[s - 2] += ways
    return tuple(h / 6**5 for h in hits)


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
        chance = comb(rolls, k) * p**k * (1 - p) ** (rolls - k)
        value += chance * row_score(total, min(size, crosses + k))
    return value


def _roll_masks() -> tuple[tuple[int, dict[int, int], int], ...]:
    """Per sorted roll of five dice: how often it occurs (of 6^5), and the sums (bit s − 2) its
    pairs offer, per face as the extra die and over all (a free ride)."""
    table = []
    for faces in combinations_with_replacement(range(1, 7), 5):
        by_face: dict[int, int] = {}
        for e in range(5):
            a, b, c, d = (faces[k] for k in range(5) if k != e)
            mask = 0
            for s in (a + b, c + d, a + c, b + d, a + d, b + c):
                mask |= 1 << (s - 2)
            by_face[faces[e]] = by_face.get(faces[e], 0) | mask
        ways = factorial(5)
        for face in set(faces):
            ways //= factorial(faces.count(face))
        free = 0
        for mask in by_face.values():
            free |= mask
        table.append((ways, by_face, free))
    return tuple(table)


_ROLL_MASKS = _roll_masks()


@lru_cache(maxsize=None)
def groups(owned: tuple[int, ...]) -> tuple[int, ...]:
    """Per row: how much three owned EXTRA numbers (ascending) cut the chance a roll offers its
    sum, as a group 1 (to under 86 % of `OFFER`), 2 (under 95 %) or 3 (barely); all 0 with fewer
    numbers owned (any die may then be the extra one). Owning 1, 2 and 3 takes a low die away
    from the pairs, so the low sums come less often.

    >>> groups((1, 2, 3))[0], groups((1, 2, 3))[10], groups((1, 2))
    (1, 3, (0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0))
    """
    if len(owned) < 3:
        return (0,) * len(SUMS)
    by_mask: dict[int, int] = {}
    for ways, by_face, free in _ROLL_MASKS:
        mask = 0
        for face in owned:
            mask |= by_face.get(face, 0)
        mask = mask or free
        by_mask[mask] = by_mask.get(mask, 0) + ways
    hits = [0] * len(SUMS)
    for mask, ways in by_mask.items():
        for s in range(len(SUMS)):
            if mask >> s & 1:
                hits[s] += ways
    ratios = (h / 6**5 / offer for h, offer in zip(hits, OFFER))
    return tuple(1 if r < 0.86 else 2 if r < 0.95 else 3 for r in ratios)
