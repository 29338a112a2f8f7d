"""EXTRA! strong bot's search: a sheet's value from the learnt row table, one roll looked ahead.

A solo position is `rows` (crosses per sum row, index = sum − 2), `numbers` (the EXTRA number of
each column or None) and `columns` (crosses per EXTRA column). An *effect* is what a decision
does to it: (column crossed or None, new EXTRA number or None, its column or None, row index,
row index). `value` judges a position by the learnt table (its rows one by one, plus a joint
correction learnt on how many rows are still empty and how many rolls are to come:
`joint_key`); `lookahead` by the expectation over the 252 distinct next rolls of the best effect
each one offers (an expectimax of depth one).

    >>> rows = (0,) * 11
    >>> effects((1, 2, 3, 4, 6), rows, (None, None, None), False)[0]
    (0, 1, 0, 3, 8)
"""

from __future__ import annotations

from itertools import combinations_with_replacement
from math import factorial

from firmware.games.extra.model import (
    MAX_OTHERS,
    OFFER,
    STRONG,
    Joint,
    Numbers,
    Table,
    groups,
    remaining_rolls,
    row_value,
)
from firmware.games.extra.rules import COLUMN_SIZES, ROW_SIZES, SUMS, row_score

SIZE = tuple(ROW_SIZES[s] for s in SUMS)
# What a choice does to a sheet: (EXTRA column crossed, new EXTRA number written, its column,
# row, row); None where the choice does not.
Effect = tuple[int | None, int | None, int | None, int, int]


def _pair_rows(rest: list[int]) -> tuple[tuple[int, int], ...]:
    """The distinct (row, row) results of splitting four dice into two pairs, ascending."""
    a, b, c, d = rest
    splits = ((a + b, c + d), (a + c, b + d), (a + d, b + c))
    found = {(min(x, y) - 2, max(x, y) - 2) for x, y in splits}
    return tuple(sorted(found))


def _by_face(faces: tuple[int, ...]) -> dict[int, tuple[tuple[int, int], ...]]:
    """Per distinct face of a roll: the row pairs left when a die of that face is the extra die."""
    table = {}
    for face in sorted(set(faces)):
        rest = list(faces)
        rest.remove(face)
        table[face] = _pair_rows(rest)
    return table


def _rolls() -> list[tuple[float, dict[int, tuple[tuple[int, int], ...]], tuple[tuple[int, int], ...]]]:
    """The 252 sorted rolls of five dice: chance, row pairs per extra face, row pairs of a free ride."""
    table = []
    for faces in combinations_with_replacement(range(1, 7), 5):
        ways = factorial(5)
        for face in set(faces):
            ways //= factorial(faces.count(face))
        by_face = _by_face(faces)
        free = tuple(sorted({pair for pairs in by_face.values() for pair in pairs}))
        table.append((ways / 6**5, by_face, free))
    return table


ROLLS = _rolls()


def effects(
    faces: tuple[int, ...],
    rows: tuple[int, ...],
    numbers: tuple[int | None, ...],
    kids: bool,
    by_face: dict[int, tuple[tuple[int, int], ...]] | None = None,
    free: tuple[tuple[int, int], ...] | None = None,
) -> list[Effect]:
    """The distinct effects the roll `faces` offers (in the order of the engine's decisions)."""
    if by_face is None:
        by_face = _by_face(faces)
    owned = [n for n in numbers if n is not None]
    found: list[Effect] = []
    if len(owned) == len(COLUMN_SIZES):
        shown = [f for f in by_face if f in numbers]
        if not shown:
            pairs = free if free is not None else tuple(sorted({p for ps in by_face.values() for p in ps}))
            return [(None, None, None, i, j) for i, j in pairs]
        for face in shown:
            column = numbers.index(face)
            found.extend((column, None, None, i, j) for i, j in by_face[face])
        return found
    empty = [c for c, n in enumerate(numbers) if n is None]
    for face, pairs in by_face.items():
        if face in numbers:
            column = numbers.index(face)
            found.extend((column, None, None, i, j) for i, j in pairs)
            continue
        for column in empty:
            crossed = None if kids else column
            found.extend((crossed, face, column, i, j) for i, j in pairs)
    return found


def joint_key(empty: int, rolls: float) -> tuple[int, int]:
    """The joint correction's key: (rolls to come, rounded, in pairs; rows still empty, up to 9).
    The row table judges each row alone; together, the rows left empty late in the game cost
    more than their sum (they are forced open with no time to leave the wall), early on less.

    >>> joint_key(4, 7.6)
    (4, 4)
    """
    return min(int(round(rolls)), 22) // 2, min(empty, 9)


# Row terms already worked out, per table (by id: the learnt table lives as long as the process).
_TERMS: dict[int, dict[tuple[int, int, tuple[int, ...], int, int], float]] = {}
# A board runs for weeks: past this many terms (about 10 MB) the cache starts again.
TERMS_KEPT = 60_000


def _terms_of(table: Table) -> dict[tuple[int, int, tuple[int, ...], int, int], float]:
    cache = _TERMS.get(id(table))
    if cache is None or len(cache) > TERMS_KEPT:
        cache = _TERMS[id(table)] = {}
    return cache


def term(i: int, c: int, room: tuple[int, ...], others: int, table: Table, group: int = 0) -> float:
    """Expected final score of row `i` with `c` crosses, EXTRA room `room` (sorted), `others`
    other rows in play, the row's `group` under the EXTRA numbers owned (`groups`): the learnt
    table between whole numbers of rolls to come, else the model."""
    key = (i, c, room, others, group)
    cache = _terms_of(table)
    value = cache.get(key)
    if value is not None:
        return value
    rolls = remaining_rolls(room)
    if c and (c >= SIZE[i] or rolls <= 0):
        value = float(row_score(SUMS[i], c))
    else:
        low = int(rolls)
        frac = rolls - low
        ends = [entry(i, c, n, others, table, group) for n in (low, low + 1)]
        value = ends[0] + frac * (ends[1] - ends[0])
    cache[key] = value
    return value


def entry(i: int, c: int, n: int, others: int, table: Table, group: int = 0) -> float:
    """`term` at a whole number `n` of rolls to come (it interpolates between two of these): the
    learnt table's entry, else (a row not empty) the model's binomial."""
    if c == 0:
        # an empty row: what the rolls to come will make of it (opened late, often at −200)
        return table.get((i, 0, n, others, group), 0.0) if n > 0 else 0.0
    if c >= SIZE[i]:
        return float(row_score(SUMS[i], c))
    learnt = table.get((i, c, n, others, group)) if n > 0 else None
    if learnt is None:
        weight = OFFER[i] * (1 + STRONG["commit"] * c)
        share = STRONG["share"] * weight / (weight + others * 0.6 * (1 + STRONG["commit"] * 3))
        learnt = row_value(i, c, n, int(round(min(OFFER[i], share) * 100)))
    return learnt


_NO_JOINT: Joint = {}  # one object: the second roll's caches know the tables by identity


class Position:
    """A position's rows and EXTRA table with cached partial sums, to judge many effects fast."""

    __slots__ = (
        "rows",
        "numbers",
        "columns",
        "kids",
        "table",
        "numbers_table",
        "joint",
        "room",
        "active",
        "empty",
        "groups",
        "_base",
        "_pairs",
    )

    def __init__(
        self,
        rows: tuple[int, ...],
        numbers: tuple[int | None, ...],
        columns: tuple[int, ...],
        kids: bool,
        table: Table,
        numbers_table: Numbers,
        joint: Joint | None = None,
    ) -> None:
        self.rows = rows
        self.numbers = numbers
        self.columns = columns
        self.kids = kids
        self.table = table
        self.numbers_table = numbers_table
        self.joint = joint or _NO_JOINT  # joint_key -> points: the correction to the rows' sum
        self.room = tuple(size - c for size, c in zip(COLUMN_SIZES, columns))
        self.active = sum(1 for i, c in enumerate(rows) if 0 < c < SIZE[i])
        self.empty = rows.count(0)
        self.groups = groups(tuple(sorted(n for n in numbers if n is not None)))
        self._base: dict[tuple[tuple[int, ...], int, tuple[int, ...]], float] = {}
        self._pairs: tuple[list[int], list[int]] | None = None

    def _others(self, c: int, i: int, active: int) -> int:
        return min(active - (1 if 0 < c < SIZE[i] else 0), MAX_OTHERS)

    def base(self, room: tuple[int, ...], active: int, groups: tuple[int, ...]) -> float:
        """Σ of the row terms of these rows under `room` (sorted) with `active` rows in play and
        the rows' `groups`."""
        key = (room, active, groups)
        value = self._base.get(key)
        if value is None:
            value = 0.0
            table = self.table
            for i, c in enumerate(self.rows):
                value += term(i, c, room, self._others(c, i, active), table, groups[i])
            self._base[key] = value
        return value

    def after(self, effect: Effect) -> tuple[tuple[int, ...], tuple[int | None, ...], tuple[int, ...]]:
        """The (rows, numbers, columns) an effect leads to."""
        column, face, new_column, i, j = effect
        rows = list(self.rows)
        for r in (i, j):
            if rows[r] < SIZE[r]:
                rows[r] += 1
        numbers = list(self.numbers)
        if face is not None and new_column is not None:  # a new number comes with its column
            numbers[new_column] = face
        columns = list(self.columns)
        if column is not None:
            columns[column] += 1
        return tuple(rows), tuple(numbers), tuple(columns)

    def child(self, effect: Effect) -> Position:
        """The position an effect leads to."""
        rows, numbers, columns = self.after(effect)
        return Position(rows, numbers, columns, self.kids, self.table, self.numbers_table, self.joint)

    def value(self, effect: Effect) -> float:
        """Expected final total after `effect` (exact once it ends the game)."""
        column, face, new_column, i, j = effect
        rows = self.rows
        room = list(self.room)
        if column is not None:
            room[column] -= 1
        ci, cj = rows[i], rows[j]
        ni = min(SIZE[i], ci + 1)
        nj = min(SIZE[j], (ci + 2 if i == j else cj + 1))  # both crosses in one row: ci + 2
        if column is not None and room[column] == 0:
            total = 0.0
            for r, c in enumerate(rows):
                if r != i and r != j and c:
                    total += row_score(SUMS[r], c)
            if i == j:
                return total + row_score(SUMS[i], nj)
            return total + row_score(SUMS[i], ni) + row_score(SUMS[j], nj)
        active = self.active
        if i == j:
            active += (ci == 0 and nj < SIZE[i]) - (0 < ci < SIZE[i] and nj == SIZE[i])
        else:
            active += (ci == 0 and ni < SIZE[i]) - (0 < ci < SIZE[i] and ni == SIZE[i])
            active += (cj == 0 and nj < SIZE[j]) - (0 < cj < SIZE[j] and nj == SIZE[j])
        key = tuple(sorted(room))
        table = self.table
        owned, group = self._numbers_after(face, new_column)
        gi, gj = group[i], group[j]
        value = self.base(key, active, group)
        value -= term(i, ci, key, self._others(ci, i, active), table, gi)
        if i == j:
            value += term(i, nj, key, self._others(nj, i, active), table, gi)
        else:
            value -= term(j, cj, key, self._others(cj, j, active), table, gj)
            value += term(i, ni, key, self._others(ni, i, active), table, gi)
            value += term(j, nj, key, self._others(nj, j, active), table, gj)
        value += self.numbers_table.get(owned, 0.0)
        if self.joint:
            empty = self.empty - (ci == 0) - (cj == 0 and i != j)
            value += self.joint.get(joint_key(empty, remaining_rolls(key)), 0.0)
        return value

    def final(self) -> float:
        """The sheet's total as it stands (the game's end: rows not yet opened count 0)."""
        return float(sum(row_score(SUMS[r], c) for r, c in enumerate(self.rows) if c))

    def lookahead(self) -> float:
        """Expected final total when the next roll's best effect (by `value`) is played.

        Each effect's value is `value`'s, worked out per *context* (the EXTRA column crossed and
        the number written, which fix the columns' room and the numbers owned) for all 66 row
        pairs at once from per-row terms; each roll then takes the best of its effects through
        precomputed indices (`_roll_indices`)."""
        if min(self.room) <= 0:
            return self.final()
        numbers, kids = self.numbers, self.kids
        owned = [n for n in numbers if n is not None]
        full = len(owned) == len(COLUMN_SIZES)
        empty = [c for c, n in enumerate(numbers) if n is None]
        blocks: list[float] = []
        for face in FACES:
            if face in numbers:
                blocks += self.vector(numbers.index(face), None, None)
            elif full:
                blocks += _UNUSED
            else:
                found = [self.vector(None if kids else c, face, c) for c in empty]
                blocks += found[0] if len(found) == 1 else list(map(max, *found))
        if full:
            blocks += self.vector(None, None, None)
        item = blocks.__getitem__
        total = 0.0
        for chance, index in _roll_indices(tuple(sorted(owned)) if full else None):
            total += chance * max(map(item, index))
        return total

    def vector(self, column: int | None, face: int | None, new_column: int | None) -> list[float]:
        """`value` of the effects (column, face, new_column, i, j) for every row pair (i, j) of
        `PAIRS`, in that order (the same sums in the same order: the same floats)."""
        room = list(self.room)
        if column is not None:
            room[column] -= 1
            if room[column] == 0:  # the game ends: the totals as they will stand
                total = self.final()
                one, two = self._gains()
                return [total + two[i] if i == j else total + one[i] + one[j] for i, j in PAIRS]
        key = tuple(sorted(room))
        owned, group = self._numbers_after(face, new_column)
        bonus = self.numbers_table.get(owned, 0.0)
        has_joint = bool(self.joint)
        if has_joint:
            rolls = remaining_rolls(key)
            joint = [self.joint.get(joint_key(self.empty - k, rolls), 0.0) for k in range(3)]
        else:
            joint = [0.0, 0.0, 0.0]
        terms: dict[int, tuple[float, list[float], list[float], list[float]]] = {}
        shift, drop = self._shifts()
        values = []
        active = self.active
        for n, (i, j) in enumerate(PAIRS):
            a = active + shift[n]
            found = terms.get(a)
            if found is None:
                found = terms[a] = self._terms(key, a, group)
            base, old, one, two = found
            if i == j:
                value = base - old[i] + two[i]
            else:
                value = base - old[i] - old[j] + one[i] + one[j]
            value += bonus
            if has_joint:
                value += joint[drop[n]]
            values.append(value)
        return values

    def _numbers_after(self, face: int | None, new_column: int | None) -> tuple[tuple[int, ...], tuple[int, ...]]:
        """The EXTRA numbers owned (sorted) and the rows' groups once `face` is written in
        `new_column` (None: no new number)."""
        numbers = self.numbers
        if face is None:
            return tuple(sorted(n for n in numbers if n is not None)), self.groups
        assert new_column is not None
        numbers = numbers[:new_column] + (face,) + numbers[new_column + 1 :]
        owned = tuple(sorted(n for n in numbers if n is not None))
        return owned, groups(owned)

    def _terms(
        self, key: tuple[int, ...], active: int, group: tuple[int, ...]
    ) -> tuple[float, list[float], list[float], list[float]]:
        """Per row under `key`, `active` rows in play and `group`: the base (Σ of the rows' terms,
        as `base` sums them) and each row's term now, after one cross and after two."""
        table = self.table
        cache = _terms_of(table)
        get = cache.get
        limit = MAX_OTHERS
        base = 0.0
        old, one, two = [], [], []
        for i, c in enumerate(self.rows):
            size = SIZE[i]
            g = group[i]
            others = active - 1 if 0 < c < size else active
            others = others if others < limit else limit
            value = get((i, c, key, others, g))
            if value is None:
                value = term(i, c, key, others, table, g)
            base += value
            old.append(value)
            if c >= size:
                one.append(value)
                two.append(value)
                continue
            n = c + 1
            others = active - 1 if n < size else active
            others = others if others < limit else limit
            value = get((i, n, key, others, g))
            if value is None:
                value = term(i, n, key, others, table, g)
            one.append(value)
            if n >= size:
                two.append(value)
                continue
            n += 1
            others = active - 1 if n < size else active
            others = others if others < limit else limit
            value = get((i, n, key, others, g))
            if value is None:
                value = term(i, n, key, others, table, g)
            two.append(value)
        self._base.setdefault((key, active, group), base)
        return base, old, one, two

    def _shifts(self) -> tuple[list[int], list[int]]:
        """Per row pair of `PAIRS`: how the rows in play change, how many empty rows get crossed."""
        if self._pairs is not None:
            return self._pairs
        rows = self.rows
        one, two, opened = [], [], []
        for i, c in enumerate(rows):
            size = SIZE[i]
            n1, n2 = min(size, c + 1), min(size, c + 2)
            one.append((c == 0 and n1 < size) - (0 < c < size and n1 == size))
            two.append((c == 0 and n2 < size) - (0 < c < size and n2 == size))
            opened.append(int(c == 0))
        shift = [two[i] if i == j else one[i] + one[j] for i, j in PAIRS]
        drop = [opened[i] if i == j else opened[i] + opened[j] for i, j in PAIRS]
        self._pairs = (shift, drop)
        return shift, drop

    def _gains(self) -> tuple[list[float], list[float]]:
        """Per row: how much one cross and two crosses add to its score now (the game's end)."""
        one, two = [], []
        for i, c in enumerate(self.rows):
            now = row_score(SUMS[i], c) if c else 0
            one.append(float(row_score(SUMS[i], min(SIZE[i], c + 1)) - now))
            two.append(float(row_score(SUMS[i], min(SIZE[i], c + 2)) - now))
        return one, two

    def lookahead_by_effect(self) -> float:
        """`lookahead` the slow way, effect by effect through `value` (the reference it keeps)."""
        if min(self.room) <= 0:
            return self.final()
        cache: dict[Effect, float] = {}
        total = 0.0
        rows, numbers, kids = self.rows, self.numbers, self.kids
        for chance, by_face, free in ROLLS:
            best = float("-inf")
            for effect in effects((), rows, numbers, kids, by_face, free):
                value = cache.get(effect)
                if value is None:
                    value = cache[effect] = self.value(effect)
                if value > best:
                    best = value
            total += chance * best
        return total


FACES = range(1, 7)
PAIRS = tuple((i, j) for i in range(len(SUMS)) for j in range(i, len(SUMS)))
_PAIR = {pair: n for n, pair in enumerate(PAIRS)}
_UNUSED = [0.0] * len(PAIRS)  # a face that offers nothing (all numbers owned, not this one)
_INDICES: dict[tuple[int, ...] | None, list[tuple[float, tuple[int, ...]]]] = {}


def _roll_indices(owned: tuple[int, ...] | None) -> list[tuple[float, tuple[int, ...]]]:
    """Per distinct roll: its chance and where its effects' values are in `lookahead`'s blocks
    (face f's row pairs at (f − 1) × 66 + pair, a free ride's after the six faces): for a sheet
    with a free column (`owned` None), or owning the three numbers `owned`."""
    found = _INDICES.get(owned)
    if found is None:
        found = []
        width = len(PAIRS)
        for chance, by_face, free in ROLLS:
            faces = [f for f in by_face if owned is None or f in owned]
            if faces:
                index = {(f - 1) * width + _PAIR[pair] for f in faces for pair in by_face[f]}
            else:
                index = {len(FACES) * width + _PAIR[pair] for pair in free}
            found.append((chance, tuple(sorted(index))))
        _INDICES[owned] = found
    return found
