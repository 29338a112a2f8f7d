"""EXTRA! strong bot's second roll: many positions' one-roll look-ahead at once, with numpy.

`Position.lookahead` (search.py) judges one position in pure Python, about 0.3 ms here. Looking
a second roll ahead needs a hundred or more of them per contender, so `lookaheads` works them out
together, as arrays: the same values as `Position.lookahead` (to rounding: each roll's chance is
summed as a dot product here), for a few microseconds a position.

How the arrays are laid out:
- a *context* is what a decision does to the EXTRA table (column crossed, number written): it
  fixes the columns' room, so the rolls to come, the rows' groups, the EXTRA numbers' worth and
  the joint correction; `Grid` keeps, per room and groups, every row term by (row, crosses,
  rows in play);
- an *instance* is one position under one context: its 66 row pairs' values, as
  `Position.vector` gives them;
- a position's *blocks* are the best instance per face of the extra die (and the free ride),
  7 × 66 values, from which each roll takes the best of the pairs it offers (`_roll_index`).

`two_rolls` uses them for the second roll itself: over the next roll, the effect the table
judges best for it (or the best of a few), judged by its own look-ahead.
"""

from __future__ import annotations

from collections.abc import Callable
from functools import cache
from math import comb
from typing import cast

import numpy as np

from firmware.games.extra.model import MAX_OTHERS, OFFER, STRONG, Joint, Numbers, Table, groups, remaining_rolls
from firmware.games.extra.rules import COLUMN_SIZES, SUMS, row_score
from firmware.games.extra.search import FACES, PAIRS, ROLLS, SIZE, Effect, Position, _roll_indices, joint_key

ROWS = len(SUMS)
WIDTH = len(PAIRS)  # 66 row pairs
SLOTS = len(FACES) + 1  # the six faces of the extra die, then the free ride
FREE = len(FACES)  # the free ride's slot
CROSSES = max(SIZE) + 1  # 0..13 crosses
MOST_ROLLS = int(remaining_rolls(COLUMN_SIZES)) + 2  # whole numbers of rolls to come a term reads

_I = np.array([i for i, _ in PAIRS])
_J = np.array([j for _, j in PAIRS])
_DIAG = np.flatnonzero(_I == _J)
_DIAG_ROW = _I[_DIAG]
_SIZE = np.array(SIZE)
_ROW = np.arange(ROWS)
_SCORE = np.array([[row_score(s, min(c, size)) if c else 0 for c in range(CROSSES)] for s, size in zip(SUMS, SIZE)])
_CHANCE = np.array([chance for chance, _, _ in ROLLS])
_SHIFT = np.arange(-2, 3)  # the change of the rows in play a pair of crosses can make


class Grid:
    """One learnt table's row terms for numpy: `index(room, group)` is the row of `terms` that
    holds `term` under that room (sorted) and those groups, by (row, crosses, others in play).
    Rows are added as positions need them, `KEPT` at most (a board runs for weeks): past that,
    `start` begins again between two batches."""

    KEPT = 512  # about 4.4 MB

    def __init__(self, table: Table) -> None:
        self.table = table
        self._dense = _dense(table)  # (row, crosses, rolls to come, others, group): `entry`
        self._index: dict[tuple[tuple[int, ...], tuple[int, ...]], int] = {}
        self.terms = np.empty((self.KEPT, ROWS, CROSSES, MAX_OTHERS + 1))

    def start(self) -> bool:
        """Called before each batch: past `KEPT` rooms and groups, start again (a batch that
        needs more grows `terms` for itself); whether it did."""
        if len(self._index) < self.KEPT:
            return False
        self._index.clear()
        self.terms = self.terms[: self.KEPT]
        return True

    def index(self, room: tuple[int, ...], group: tuple[int, ...]) -> int:
        key = (room, group)
        found = self._index.get(key)
        if found is None:
            rolls = remaining_rolls(room)
            low = int(rolls)
            frac = rolls - low
            picked = self._dense[_ROW, :, low : low + 2, :, np.array(group)]  # row, crosses, 2, others
            ends = picked[:, :, 0], picked[:, :, 1]
            found = self._index[key] = len(self._index)
            if found == len(self.terms):
                self.terms = np.concatenate((self.terms, np.empty_like(self.terms)))
            self.terms[found] = ends[0] + frac * (ends[1] - ends[0])  # as `term` interpolates
        return found


def _dense(table: Table) -> np.ndarray:
    """`entry` for every (row, crosses, whole rolls to come, others in play, group): the model's
    binomial where the learnt table has no entry (worked out in arrays: the same values to
    rounding), the table's where it has, 0 for an empty row it does not know, a full row's score."""
    others = np.arange(MAX_OTHERS + 1)
    crosses = np.arange(CROSSES)
    offer = np.array(OFFER)[:, None, None]
    weight = offer * (1 + STRONG["commit"] * crosses)[None, :, None]
    share = STRONG["share"] * weight / (weight + others[None, None, :] * 0.6 * (1 + STRONG["commit"] * 3))
    p = np.round(np.minimum(offer, share) * 100) / 100  # (row, crosses, others), as `term` rounds it
    dense = np.empty((ROWS, CROSSES, MOST_ROLLS, MAX_OTHERS + 1, 4))
    for n in range(MOST_ROLLS):
        k = np.arange(n + 1)[:, None, None, None]
        chance = np.array([comb(n, j) for j in range(n + 1)])[:, None, None, None] * p**k * (1 - p) ** (n - k)
        reached = np.minimum(crosses[None, :] + k[:, :, :, 0], _SIZE[:, None])  # (k, row, crosses)
        scores = _SCORE[_ROW[None, :, None], reached]
        dense[:, :, n, :, :] = (chance * scores[..., None]).sum(axis=0)[..., None]
    dense[:, 0] = 0.0
    keys = np.array(list(table), dtype=int).reshape(-1, 5)
    if len(keys):
        row, cross, rolls, other, group = keys.T
        fits = (rolls > 0) & (rolls < MOST_ROLLS) & (other <= MAX_OTHERS) & (cross < CROSSES) & (group < 4)
        at = (row[fits], cross[fits], rolls[fits], other[fits], group[fits])
        dense[at] = np.array(list(table.values()))[fits]
    for i in range(ROWS):  # a full row scores what it scores, whatever the table says
        dense[i, SIZE[i] :] = float(row_score(SUMS[i], SIZE[i]))
    return dense


# A sheet as the look-ahead tells them apart: its EXTRA numbers (None: none yet), each EXTRA
# column's crosses, and the children's variant.
SheetKey = tuple[tuple[int | None, ...], tuple[int, ...], bool]


class Sheet:
    """A sheet's EXTRA table (numbers, columns' crosses, children's option): what every roll's
    contexts do to it, as arrays over its contexts, in `Position.lookahead`'s order: per face of
    the extra die (a new number: one per empty column), then the free ride once three are owned."""

    __slots__ = (
        "ended",
        "owned",
        "slot",
        "rank",
        "ends",
        "terms",
        "bonus",
        "joint",
        "index",
        "after",
    )

    def __init__(
        self, key: SheetKey, grid: Grid, joint: Callable[[float], list[float]], numbers_table: Numbers
    ) -> None:
        numbers, columns, kids = key
        room = tuple(size - c for size, c in zip(COLUMN_SIZES, columns))
        self.ended = min(room) <= 0
        owned = [n for n in numbers if n is not None]
        full = len(owned) == len(COLUMN_SIZES)
        self.owned = tuple(sorted(owned)) if full else None  # which rolls offer what (`_roll_index`)
        effects: list[
            tuple[int, int | None, int | None, int | None]
        ] = []  # slot, column crossed, number written, its column
        empty = [c for c, n in enumerate(numbers) if n is None]
        for face in FACES:
            if face in numbers:
                effects.append((face - 1, numbers.index(face), None, None))
            elif not full:
                effects.extend((face - 1, None if kids else c, face, c) for c in empty)
        if full:
            effects.append((FREE, None, None, None))
        slot: list[int] = []
        rank: list[int] = []
        ends: list[bool] = []
        terms: list[int] = []
        bonus: list[float] = []
        joints: list[list[float]] = []
        self.index = np.zeros((SLOTS, len(COLUMN_SIZES)), dtype=int)  # (slot, rank) → context
        self.after: list[SheetKey] = []  # per context: the sheet it leads to
        for n, (face_slot, column, written, new_column) in enumerate(effects):
            rank.append(rank[-1] + 1 if slot and slot[-1] == face_slot else 0)
            slot.append(face_slot)
            self.index[face_slot, rank[-1]] = n
            after_room = list(room)
            after_numbers = list(numbers)
            if written is not None and new_column is not None:  # a new number comes with its column
                after_numbers[new_column] = written
            after_columns = list(columns)
            if column is not None:
                after_room[column] -= 1
                after_columns[column] += 1
            self.after.append((tuple(after_numbers), tuple(after_columns), kids))
            if column is not None and after_room[column] == 0:  # the game ends with this roll
                ends.append(True)
                terms.append(0)
                bonus.append(0.0)
                joints.append([0.0] * (ROWS + 1))
                continue
            room_key = tuple(sorted(after_room))
            owned_after = tuple(sorted(n for n in after_numbers if n is not None))
            rolls = remaining_rolls(room_key)
            ends.append(False)
            terms.append(grid.index(room_key, groups(owned_after)))
            bonus.append(numbers_table.get(owned_after, 0.0))
            joints.append(joint(rolls))
        self.slot = np.array(slot, dtype=int)
        self.rank = np.array(rank, dtype=int)
        self.ends = np.array(ends, dtype=bool)
        self.terms = np.array(terms, dtype=int)
        self.bonus = np.array(bonus)
        self.joint = np.array(joints).reshape(len(effects), ROWS + 1)


class Search:
    """The look-aheads of one learnt table: its `Grid` and the `Sheet`s met so far."""

    def __init__(self, table: Table, numbers_table: Numbers, joint: Joint) -> None:
        self.grid = Grid(table)
        self.numbers_table = numbers_table
        self.joint = joint
        self.sheets: dict[SheetKey, Sheet] = {}
        self._joint_by_rolls: dict[float, list[float]] = {}

    def joint_by_empty(self, rolls: float) -> list[float]:
        """The joint correction with `rolls` to come, by rows still empty (0 to 11)."""
        found = self._joint_by_rolls.get(rolls)
        if found is None:
            found = [self.joint.get(joint_key(empty, rolls), 0.0) for empty in range(ROWS + 1)]
            self._joint_by_rolls[rolls] = found
        return found

    def start(self) -> None:
        if self.grid.start():
            self.sheets.clear()

    def sheet(self, key: SheetKey) -> Sheet:
        found = self.sheets.get(key)
        if found is None:
            found = self.sheets[key] = Sheet(key, self.grid, self.joint_by_empty, self.numbers_table)
        return found

    def blocks(self, rows: np.ndarray, sheets: list[Sheet]) -> tuple[np.ndarray, np.ndarray]:
        """Per position (`rows`, (k, 11), on `sheets`, none ended): its blocks (k, 7, 66; a slot
        no roll offers stays 0), and per slot and pair the rank of the context that gave it."""
        counts = [len(sheet.slot) for sheet in sheets]
        owner = np.repeat(np.arange(len(sheets)), counts)
        slot = np.concatenate([sheet.slot for sheet in sheets])
        rank = np.concatenate([sheet.rank for sheet in sheets])
        ends = np.concatenate([sheet.ends for sheet in sheets])
        values = np.empty((len(owner), WIDTH))
        live = ~ends
        if live.any():
            values[live] = _vectors(
                rows,
                owner[live],
                self.grid.terms,
                np.concatenate([sheet.terms for sheet in sheets])[live],
                np.concatenate([sheet.bonus for sheet in sheets])[live],
                np.concatenate([sheet.joint for sheet in sheets])[live],
            )
        if not live.all():
            values[~live] = _ending(rows[owner[~live]])
        blocks = np.zeros((len(sheets), SLOTS, WIDTH))
        chosen = np.zeros((len(sheets), SLOTS, WIDTH), dtype=int)
        for r in range(int(rank.max()) + 1):  # a new number with several empty columns: the best per pair
            mine = np.flatnonzero(rank == r)
            k, s = owner[mine], slot[mine]
            if r == 0:
                blocks[k, s] = values[mine]
                continue
            better = values[mine] > blocks[k, s]
            blocks[k, s] = np.where(better, values[mine], blocks[k, s])
            chosen[k, s] = np.where(better, r, chosen[k, s])
        return blocks, chosen

    def lookaheads(self, rows: np.ndarray, sheets: list[Sheet]) -> np.ndarray:
        """`Position.lookahead` of each position (`rows`, (k, 11), on `sheets`)."""
        result, going, live = _ended_apart(rows, sheets)
        if not live:
            return result
        blocks, _ = self.blocks(rows[going], live)
        flat_blocks = blocks.reshape(len(live), SLOTS * WIDTH)
        kinds: dict[tuple[int, ...] | None, list[int]] = {}
        for n, sheet in enumerate(live):
            kinds.setdefault(sheet.owned, []).append(n)
        for kind, members in kinds.items():
            flat, starts, _ = _roll_index(kind)
            chosen = np.array(members)
            best = np.maximum.reduceat(flat_blocks[chosen][:, flat], starts, axis=1)
            result[going[chosen]] = best @ _CHANCE
        return result

    def two_rolls(self, rows: np.ndarray, sheets: list[Sheet], inner: int = 1, limit: int | None = None) -> np.ndarray:
        """Expected final total of each position (`rows`, (k, 11), on `sheets`) with two rolls
        looked ahead: over the next roll, the better of the `inner` (row pair, face of the extra
        die) the table judges best for it (each with its best column), each judged by its own
        look-ahead (all the positions' at once).

        With a `limit`, a position's look-aheads work out at most that many instances (a child
        position costs one per context its next roll offers): its children are taken by the
        chance of the rolls that lead to them, most likely first, and a child left out is judged
        by the table plus the mean gain the look-ahead brought its more likely siblings."""
        result, going, live = _ended_apart(rows, sheets)
        if not live:
            return result
        blocks, chosen = self.blocks(rows[going], live)
        child_rows: list[np.ndarray] = []
        child_sheets: list[Sheet] = []
        plans = []
        chances = np.tile(_CHANCE, inner)
        count = 0
        for n, sheet in enumerate(live):
            flat, starts, owner = _roll_index(sheet.owned)
            values = blocks[n].reshape(-1)[flat]
            order = np.lexsort((-values, owner))  # per roll, best first (ties: the lower index)
            lengths = np.diff(np.append(starts, len(flat)))
            codes = np.concatenate([flat[order[starts + np.minimum(k, lengths - 1)]] for k in range(inner)])
            slot, pair = np.divmod(codes, WIDTH)  # (inner × 252): each roll's picks, roll by roll
            context = sheet.index[slot, chosen[n][slot, pair]]
            unique, first, inverse = np.unique(context * WIDTH + pair, return_index=True, return_inverse=True)
            ctx, pr = np.divmod(unique, WIDTH)
            after = [self.sheet(sheet.after[c]) for c in ctx.tolist()]
            kept = np.arange(len(unique))
            if limit is not None:
                mass = np.bincount(inverse, weights=chances, minlength=len(unique))
                cost = np.array([0 if child.ended else len(child.slot) for child in after])
                likely = np.argsort(-mass, kind="stable")
                kept = likely[: max(1, int(np.searchsorted(np.cumsum(cost[likely]), limit, side="right")))]
            child_rows.append(np.minimum(rows[going[n]] + _GAIN[pr[kept]], _SIZE))
            child_sheets.extend(after[k] for k in kept.tolist())
            table_value = blocks[n].reshape(-1)[codes[first]]
            plans.append((inverse.reshape(inner, -1), kept, count, table_value, len(unique)))
            count += len(kept)
        ahead = self.lookaheads(np.concatenate(child_rows), child_sheets)
        for n, (inverse, kept, start, table_value, size) in enumerate(plans):
            mine = ahead[start : start + len(kept)]
            judged = table_value.copy()
            if len(kept) < size:
                mass = np.bincount(inverse.reshape(-1), weights=chances, minlength=size)[kept]
                judged += float((mine - table_value[kept]) @ mass / mass.sum())
            judged[kept] = mine
            result[going[n]] = judged[inverse].max(axis=0) @ _CHANCE
        return result


def _ended_apart(rows: np.ndarray, sheets: list[Sheet]) -> tuple[np.ndarray, np.ndarray, list[Sheet]]:
    """The result array with the ended sheets' totals filled in (nothing more to come), the
    indices of the others and their sheets."""
    result = np.empty(len(sheets))
    ended = np.array([sheet.ended for sheet in sheets], dtype=bool)
    if ended.any():
        result[ended] = _SCORE[_ROW, rows[ended]].sum(axis=1)
    going = np.flatnonzero(~ended)
    return result, going, [sheets[k] for k in going]


# per row pair: the crosses it adds to each row
_GAIN = np.zeros((WIDTH, ROWS), dtype=int)
np.add.at(_GAIN, (np.arange(WIDTH), _I), 1)
np.add.at(_GAIN, (np.arange(WIDTH), _J), 1)


def _vectors(
    rows: np.ndarray, owner: np.ndarray, terms: np.ndarray, index: np.ndarray, bonus: np.ndarray, joint: np.ndarray
) -> np.ndarray:
    """`Position.vector` for each instance: the rows of its position `rows[owner]` (11 each), its
    terms `terms[index]` (row, crosses, others in play), EXTRA numbers' worth (n,), and joint
    correction by rows still empty (n, 12). What depends on the rows alone is worked out once
    per position; every look-up is a flat `take`."""
    count = len(owner)
    playing = (rows > 0) & (rows < _SIZE)
    fresh = (rows == 0).astype(np.intp)
    one = np.minimum(rows + 1, _SIZE)
    two = np.minimum(rows + 2, _SIZE)
    opened1 = fresh * (one < _SIZE) - (playing & (one == _SIZE))
    opened2 = fresh * (two < _SIZE) - (playing & (two == _SIZE))
    shift = opened1[:, _I] + opened1[:, _J]  # (k, 66): how the rows in play change
    shift[:, _DIAG] = opened2[:, _DIAG_ROW]
    drop = fresh[:, _I] + fresh[:, _J]  # empty rows the pair crosses
    drop[:, _DIAG] = fresh[:, _DIAG_ROW]
    left = fresh.sum(axis=1)[:, None] - drop  # rows still empty after the pair
    active = playing.sum(axis=1)
    # per instance from here: ((index × 11 + row) × 14 + crosses) × 7 + others indexes `terms`
    row_base = (index[:, None] * ROWS + _ROW) * CROSSES  # (n, 11)
    at = (active[owner][:, None] + _SHIFT)[:, :, None]  # (n, 5, 1): rows in play, per shift
    flat_terms = terms.reshape(-1)

    def read(crosses: np.ndarray, in_play: np.ndarray) -> np.ndarray:  # (n, 5, 11)
        others = np.minimum(np.maximum(at - in_play[owner][:, None, :], 0), MAX_OTHERS)
        found: np.ndarray = flat_terms.take(((row_base + crosses[owner]) * (MAX_OTHERS + 1))[:, None, :] + others)
        return found

    old = read(rows, playing)
    new1 = read(one, one < _SIZE)
    base = old[:, :, 0].copy()
    for i in range(1, ROWS):  # row by row, as `Position.base` adds them
        base += old[:, :, i]
    at_pair = np.arange(count)[:, None] * len(_SHIFT) + shift[owner] + 2  # (n, 66): (instance, shift)
    at_i, at_j = at_pair * ROWS + _I, at_pair * ROWS + _J
    old_f, new1_f = old.reshape(-1), new1.reshape(-1)
    value = base.reshape(-1).take(at_pair) - old_f.take(at_i) - old_f.take(at_j) + new1_f.take(at_i) + new1_f.take(at_j)
    # both crosses in one row: its term after two crosses, read at the diagonal pairs' shifts only
    at_diag = at_pair[:, _DIAG]
    in_play2 = (two < _SIZE)[owner]
    others2 = np.minimum(np.maximum(active[owner][:, None] + shift[owner][:, _DIAG] - in_play2, 0), MAX_OTHERS)
    new2 = flat_terms.take((row_base + two[owner]) * (MAX_OTHERS + 1) + others2)
    value[:, _DIAG] = base.reshape(-1).take(at_diag) - old_f.take(at_diag * ROWS + _DIAG_ROW) + new2
    value += bonus[:, None]
    value += joint.reshape(-1).take(np.arange(count)[:, None] * (ROWS + 1) + left[owner])
    return np.asarray(value)


def _ending(rows: np.ndarray) -> np.ndarray:
    """The sheet's final totals after each pair when the game ends with it (`Position.vector`)."""
    now = _SCORE[_ROW, rows]
    total = now.sum(axis=1).astype(float)
    one = (_SCORE[_ROW, np.minimum(rows + 1, _SIZE)] - now).astype(float)
    two = (_SCORE[_ROW, np.minimum(rows + 2, _SIZE)] - now).astype(float)
    value = total[:, None] + one[:, _I] + one[:, _J]
    value[:, _DIAG] = total[:, None] + two[:, _DIAG_ROW]
    return np.asarray(value)


@cache
def _roll_index(owned: tuple[int, ...] | None) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """`search._roll_indices` as arrays: the flat indices of all rolls one after another, where
    each roll's start, and the roll of each index."""
    rolls = _roll_indices(owned)
    flat = np.array([n for _, index in rolls for n in index])
    lengths = [len(index) for _, index in rolls]
    starts = np.concatenate(([0], np.cumsum(lengths)[:-1]))
    return flat, starts, np.repeat(np.arange(len(rolls)), lengths)


_SEARCHES: dict[tuple[int, int, int], Search] = {}  # by the tables' identity (the shipped ones live on)
KEPT_SEARCHES = 4  # the table script plays with tables of its own: the last few are kept


def search_of(position: Position) -> Search:
    key = (id(position.table), id(position.numbers_table), id(position.joint))
    found = _SEARCHES.get(key)
    if (
        found is None
        or found.grid.table is not position.table
        or found.numbers_table is not position.numbers_table
        or found.joint is not position.joint
    ):
        while len(_SEARCHES) >= KEPT_SEARCHES:
            del _SEARCHES[next(iter(_SEARCHES))]
        found = _SEARCHES[key] = Search(position.table, position.numbers_table, position.joint)
    return found


def _batch(positions: list[Position]) -> tuple[Search, np.ndarray, list[Sheet]]:
    found = search_of(positions[0])
    found.start()
    rows = np.array([p.rows for p in positions], dtype=int).reshape(len(positions), ROWS)
    return found, rows, [found.sheet((p.numbers, p.columns, p.kids)) for p in positions]


def lookaheads(positions: list[Position]) -> np.ndarray:
    """`Position.lookahead` of each of `positions` (they share their tables), worked out together."""
    found, rows, sheets = _batch(positions)
    return found.lookaheads(rows, sheets)


def two_rolls(positions: list[Position], inner: int = 1, limit: int | None = None) -> np.ndarray:
    """Each position's expected final total with two rolls looked ahead (`Search.two_rolls`)."""
    found, rows, sheets = _batch(positions)
    return found.two_rolls(rows, sheets, inner, limit)


def reference_two_rolls(position: Position, inner: int = 1) -> float:
    """`two_rolls` the slow way, one position at a time through `Position` (the tests' yardstick):
    per roll, each (face of the extra die, row pair) with its best column, the `inner` best of
    them (ties: the lower face, then the lower pair) judged by their own look-ahead."""
    if min(position.room) <= 0:
        return position.final()
    from firmware.games.extra.search import effects as offered

    numbers = position.numbers
    ahead: dict[Effect, float] = {}
    total = 0.0
    for chance, by_face, free in ROLLS:
        best: dict[tuple[int, int], tuple[float, Effect]] = {}
        for effect in offered((), position.rows, numbers, position.kids, by_face, free):
            column, face, _, i, j = effect
            slot = (
                face - 1 if face is not None else FREE if column is None else cast(int, numbers[column]) - 1
            )  # a column crossed holds its number
            key = (slot, PAIRS.index((i, j)))
            value = position.value(effect)
            if key not in best or value > best[key][0]:
                best[key] = (value, effect)
        ranked = sorted(best, key=lambda k: (-best[k][0], k))[:inner]
        total += chance * max(ahead.setdefault(best[k][1], position.child(best[k][1]).lookahead()) for k in ranked)
    return total
