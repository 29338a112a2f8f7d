"""EXTRA! (Sid Sackson), 1–6 players: one roll of five dice counts for every player still in.

Each player picks an extra die for their EXTRA table and splits four dice into two pairs whose
sums are crossed on their sheet (rules and the engine's decisions: docs/rules/extra.md).

    >>> game = Extra(["Marie"])
    >>> game.apply(Roll((1, 2, 2, 3, 5)))
    >>> game.apply(Choice(0, 3, 0, ((1, 2), (0, 4))))     # 2+2=4, 1+5=6, extra 3 in column 0
    >>> game.sheets[0].crosses_in(4), game.sheets[0].numbers
    (1, (3, None, None))
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from functools import cache
from itertools import product
from types import MappingProxyType
from typing import Any, cast

from firmware.errors import N_, IllegalStepError, RecordError, Text
from firmware.games.base import OVER, Game, Pending, Roll, Step, parse_roll, pending_values, winners_of
from firmware.games.extra.events import ExtraEvent

SUMS: tuple[int, ...] = tuple(range(2, 13))
POINTS: Mapping[int, int] = MappingProxyType(
    {2: 100, 3: 70, 4: 60, 5: 50, 6: 40, 7: 30, 8: 40, 9: 50, 10: 60, 11: 70, 12: 100}
)
WALLS: Mapping[int, int] = MappingProxyType({2: 3, 3: 3, 4: 4, 5: 5, 6: 7, 7: 7, 8: 7, 9: 5, 10: 4, 11: 3, 12: 3})
FACTORS: tuple[int, ...] = (0, 1, 2, 3, 5, 7)
ROW_SIZES: Mapping[int, int] = MappingProxyType({s: WALLS[s] + len(FACTORS) for s in SUMS})
COLUMN_SIZES: tuple[int, ...] = (7, 8, 9)
MAX_NUMBERS = 3
WALL_SCORE = -200
FACES: tuple[int, ...] = (1, 2, 3, 4, 5, 6)
DICE_COUNT = 5

# Row data by index (sum - 2): the engine's hot path avoids mapping look-ups.
_ROW_SIZE = tuple(ROW_SIZES[s] for s in SUMS)
_ROWS = len(SUMS)
_DICE = (FACES,) * DICE_COUNT
_OVER = Pending(OVER)
_ROLLS = frozenset(product(FACES, repeat=DICE_COUNT))  # every roll of the five dice


def _splits(dice: Sequence[int]) -> tuple[tuple[tuple[int, int], tuple[int, int]], ...]:
    """The three ways to split four dice indices into two pairs, normalised and ascending."""
    a, b, c, d = sorted(dice)
    return (((a, b), (c, d)), ((a, c), (b, d)), ((a, d), (b, c)))


# The pair splits left when die e is the extra die (index e) — constant tables.
_SPLITS_WITHOUT = tuple(_splits([i for i in range(DICE_COUNT) if i != e]) for e in range(DICE_COUNT))
_FREE_RIDE_SPLITS = tuple(split for splits in _SPLITS_WITHOUT for split in splits)
_SHOWN_SETS = 1 << len(FACES)  # sets of faces in a roll's table (see _roll_table)


def _numbers_key(numbers: Sequence[int | None]) -> int:
    """A sheet's EXTRA numbers as one int for the legal-decision look-up: bit c (0–2) when
    column c is empty, bit 2 + f when face f is written.

    >>> _numbers_key([None, 4, None]) == 0b101 | 1 << 6
    True
    """
    key = 0
    for column, number in enumerate(numbers):
        key |= 1 << column if number is None else 1 << 2 + number
    return key


_ALL_FREE = _numbers_key([None] * len(COLUMN_SIZES))


def row_score(total: int, crosses: int) -> int:
    """Score of row `total` with `crosses` crosses: 0, −200 inside the wall, else points × factor.

    >>> row_score(11, 7)
    210
    """
    if crosses == 0:
        return 0
    if not 0 < crosses <= ROW_SIZES[total]:
        raise IllegalStepError(
            N_("sheet: row {row} has {size} boxes, not {n} crosses"), row=total, size=ROW_SIZES[total], n=crosses
        )
    wall = WALLS[total]
    if crosses <= wall:
        return WALL_SCORE
    return POINTS[total] * FACTORS[crosses - wall - 1]


class Sheet:
    """One player's sheet: crosses per sum row, the EXTRA table, whether their game has ended.

    Read-only for everyone but the engine. Rows are addressed by their sum (2–12); columns by
    index 0–2 (7, 8 and 9 boxes).

    - `row_crosses`: crosses per row, a tuple for sums 2..12; `crosses_in(total)` for one row.
    - `numbers`: the EXTRA number written in each column, or None.
    - `column_crosses`: crosses in each column.
    - `ended`: the last box of a column is crossed (this player's game is over).
    - `row_scores` ({sum: score}), `row_score_of(total)`, `total`.

        >>> Sheet.filled({11: 7}).row_scores[11]
        210
    """

    __slots__ = ("_crosses", "_numbers", "_column_crosses", "_ended", "_key")

    def __init__(self) -> None:
        self._crosses: list[int] = [0] * _ROWS
        self._numbers: list[int | None] = [None, None, None]
        self._column_crosses: list[int] = [0, 0, 0]
        self._ended = False
        self._key = _ALL_FREE  # _numbers_key(self._numbers), kept up to date with _numbers

    @classmethod
    def filled(
        cls,
        crosses: Mapping[int, int] | None = None,
        numbers: Sequence[int | None] = (None, None, None),
        column_crosses: Sequence[int] = (0, 0, 0),
    ) -> Sheet:
        """A sheet with the given crosses (for scoring, previews and tests); checked box by box."""
        sheet = cls()
        for total, count in (crosses or {}).items():
            if total not in ROW_SIZES:
                raise IllegalStepError(N_("sheet: there is no row {row!r} (rows are 2 to 12)"), row=total)
            if type(count) is not int or not 0 <= count <= ROW_SIZES[total]:
                raise IllegalStepError(
                    N_("sheet: row {row} has {size} boxes, {n!r} crosses do not fit"),
                    row=total,
                    size=ROW_SIZES[total],
                    n=count,
                )
            sheet._crosses[total - 2] = count
        if len(numbers) != len(COLUMN_SIZES) or len(column_crosses) != len(COLUMN_SIZES):
            raise IllegalStepError(N_("sheet: the EXTRA table has exactly 3 columns"))
        owned = [n for n in numbers if n is not None]
        if any(n not in FACES for n in owned) or len(set(owned)) != len(owned):
            raise IllegalStepError(
                N_("sheet: EXTRA numbers must be different die faces 1-6, not {numbers}"), numbers=list(numbers)
            )
        for column, (number, count) in enumerate(zip(numbers, column_crosses)):
            size = COLUMN_SIZES[column]
            if type(count) is not int or not 0 <= count <= size or (number is None and count):
                raise IllegalStepError(
                    N_("sheet: column {column} ({size} boxes, number {number}) cannot hold {n!r} crosses"),
                    column=column,
                    size=size,
                    number=number,
                    n=count,
                )
            sheet._numbers[column] = number
            sheet._column_crosses[column] = count
            if count == size:
                sheet._ended = True
        sheet._key = _numbers_key(sheet._numbers)
        return sheet

    # --- what the UI reads ------------------------------------------------------------
    @property
    def row_crosses(self) -> tuple[int, ...]:
        return tuple(self._crosses)

    def crosses_in(self, total: int) -> int:
        return self._crosses[total - 2]

    def is_row_full(self, total: int) -> bool:
        return self._crosses[total - 2] == _ROW_SIZE[total - 2]

    @property
    def numbers(self) -> tuple[int | None, ...]:
        return tuple(self._numbers)

    @property
    def column_crosses(self) -> tuple[int, ...]:
        return tuple(self._column_crosses)

    @property
    def owned(self) -> int:
        """How many EXTRA numbers are written (0–3)."""
        return len(COLUMN_SIZES) - self._numbers.count(None)

    def column_of(self, face: int) -> int | None:
        """The column holding EXTRA number `face`, or None."""
        numbers = self._numbers
        return numbers.index(face) if face in numbers else None

    @property
    def ended(self) -> bool:
        return self._ended

    def row_score_of(self, total: int) -> int:
        return row_score(total, self._crosses[total - 2])

    @property
    def row_scores(self) -> dict[int, int]:
        return {total: row_score(total, count) for total, count in zip(SUMS, self._crosses)}

    @property
    def total(self) -> int:
        return sum(row_score(total, count) for total, count in zip(SUMS, self._crosses))

    # --- changed by the engine only ---------------------------------------------------
    def _cross_row(self, total: int) -> int | None:
        """Cross the next box of row `total`; its box index, or None when the row is full."""
        index = total - 2
        count = self._crosses[index]
        if count == _ROW_SIZE[index]:
            return None
        self._crosses[index] = count + 1
        return count

    def _take(self, column: int, face: int, cross: bool) -> None:
        """Write `face` in `column` (if new) and cross its next box when `cross`."""
        self._numbers[column] = face
        self._key = _numbers_key(self._numbers)
        if cross:
            self._column_crosses[column] += 1
            if self._column_crosses[column] == COLUMN_SIZES[column]:
                self._ended = True

    def _copy(self) -> Sheet:
        twin = Sheet.__new__(Sheet)
        twin._crosses = self._crosses.copy()
        twin._numbers = self._numbers.copy()
        twin._column_crosses = self._column_crosses.copy()
        twin._ended = self._ended
        twin._key = self._key
        return twin

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, Sheet):
            return NotImplemented
        return (self._crosses, self._numbers, self._column_crosses) == (
            other._crosses,
            other._numbers,
            other._column_crosses,
        )

    __hash__ = None  # type: ignore[assignment]  # mutable (by the engine)

    def __repr__(self) -> str:
        crosses = {s: c for s, c in zip(SUMS, self._crosses) if c}
        return f"Sheet.filled({crosses}, numbers={tuple(self._numbers)}, column_crosses={tuple(self._column_crosses)})"


def _normalised(pairs: object) -> object:
    """Each pair ascending, the two pairs ascending; anything malformed is left for the rules check."""
    try:
        # as if well formed: anything else raises TypeError here, and is kept as it came
        return tuple(sorted(tuple(sorted(pair)) for pair in cast(Iterable[Iterable[int]], pairs)))
    except TypeError:
        return tuple(pairs) if isinstance(pairs, list) else pairs


@dataclass(frozen=True, slots=True)
class Choice:
    """One player's decision on the current roll: the extra die (index, None on a free ride),
    the column for a new EXTRA number (else None), and two pairs of dice indices.

        >>> Choice(0, 3, 0, [[4, 0], [1, 2]])
        Choice(player=0, extra=3, column=0, pairs=((0, 4), (1, 2)))
    """

    player: int
    extra: int | None
    column: int | None
    pairs: tuple[tuple[int, int], tuple[int, int]]
    # The hash, worked out once: the fast `apply` finds a choice among the offered ones by
    # value on every step. None when a part cannot be hashed (left for the rules check).
    _hash: int | None = field(default=None, init=False, repr=False, compare=False)

    def __post_init__(self) -> None:
        pairs = _normalised(self.pairs)
        object.__setattr__(self, "pairs", pairs)
        try:
            object.__setattr__(self, "_hash", hash((self.player, self.extra, self.column, pairs)))
        except TypeError:
            pass

    def __hash__(self) -> int:
        if self._hash is None:
            raise TypeError(f"unhashable parts in {self!r}")
        return self._hash

    def __reduce__(
        self,
    ) -> tuple[
        type[Choice], tuple[int, int | None, int | None, tuple[tuple[int, int], ...]]
    ]:  # the hash is worked out again where it is unpickled
        return Choice, (self.player, self.extra, self.column, self.pairs)

    def to_json(self) -> dict[str, object]:
        data: dict[str, object] = {"player": self.player, "extra": self.extra}
        if self.column is not None:
            data["column"] = self.column
        data["pairs"] = [list(pair) for pair in self.pairs]
        return data


ExtraStep = Roll | Choice  # an EXTRA! step: the roll, or one player's choice on it


def _choice_table() -> tuple[tuple[tuple[tuple[Choice, ...], ...], ...], ...]:
    """Every well-formed Choice, built once: [player][extra or 5 for None][column or 3 for None]."""
    table = []
    for player in range(6):
        by_extra = []
        for extra in range(DICE_COUNT + 1):
            by_column = []
            for column in (0, 1, 2, None):
                if extra == DICE_COUNT:
                    splits = _FREE_RIDE_SPLITS if column is None else ()
                    die = None
                else:
                    splits, die = _SPLITS_WITHOUT[extra], extra
                by_column.append(tuple(Choice(player, die, column, split) for split in splits))
            by_extra.append(tuple(by_column))
        table.append(tuple(by_extra))
    return tuple(table)


_CHOICES = _choice_table()
# `_legal_for(player, shown, free)` at index player << 8 | shown << 3 | free, filled as met.
# What `_legal_for` gives: the decisions, and the same as a set (the fast `apply` checks a step
# against it by value)
_Offered = tuple[list[Choice], frozenset[Choice]]
_LEGAL: list[_Offered | None] = [None] * (6 << 8)
_FREE = DICE_COUNT  # index of the free ride in _CHOICES[player]
_NO_COLUMN = 3  # index of "no column" in _CHOICES[player][extra]


def _roll_terms() -> tuple[tuple[int, ...], ...]:
    """Per die index and face, that die's share of a roll's table (see `_roll_table`) as one
    int, the table's bytes little-endian: its bit in every set of faces holding the face.
    Terms of different dice never carry into each other (shown masks stay below 32), so a
    roll's table is the sum of its five dice's terms."""
    terms = []
    for die in range(DICE_COUNT):
        by_face = [0]
        for face in FACES:
            by_face.append(sum(1 << die << 8 * faces for faces in range(_SHOWN_SETS) if faces >> face - 1 & 1))
        terms.append(tuple(by_face))
    return tuple(terms)


_TERMS = _roll_terms()
# The tables of the rolls met so far: at most 7776 of 64 bytes.
_TABLES: dict[tuple[int, ...], bytes] = {}


def _roll_table(faces: tuple[int, ...]) -> bytes:
    """What the legal-decision look-up needs of one roll, cached per roll: per set of faces
    (bit f - 1 for face f, as in `_numbers_key` >> 3), the bit mask of the dice showing one of
    them.

        >>> _roll_table((1, 2, 2, 3, 5))[0b000010]   # dice 1 and 2 show a 2
        6
    """
    table = _TABLES.get(faces)
    if table is None:
        a, b, c, d, e = faces
        table = _TABLES[faces] = (_TERMS[0][a] + _TERMS[1][b] + _TERMS[2][c] + _TERMS[3][d] + _TERMS[4][e]).to_bytes(
            _SHOWN_SETS, "little"
        )
    return table


@cache
def _legal_for(player: int, shown: int, free: int) -> _Offered:
    """`legal_decisions` (and the same as a set) of `player` when the dice in bit mask `shown`
    show one of their EXTRA numbers and the columns in bit mask `free` are empty: at most
    6 × 32 × 8 cases, so each is built once (same order as `Extra.legal_decisions` documents).
    """
    table = _CHOICES[player]
    columns = tuple(c for c in range(len(COLUMN_SIZES)) if free >> c & 1)
    if columns:
        dice: list[int | None] = list(range(DICE_COUNT))
    else:
        dice = [i for i in range(DICE_COUNT) if shown >> i & 1] or [None]
    decisions: list[Choice] = []
    for die in dice:
        if die is None:
            decisions.extend(table[_FREE][_NO_COLUMN])
        elif shown >> die & 1:
            decisions.extend(table[die][_NO_COLUMN])
        else:
            for column in columns:
                decisions.extend(table[die][column])
    # a list, never handed out: `legal_decisions` returns copies (a list's copy is the cheapest)
    return decisions, frozenset(decisions)


def _all_int(faces: Iterable[object]) -> bool:
    """Every face an int (not a bool, not a float equal to one)."""
    for face in faces:
        if type(face) is not int:
            return False
    return True


def _integers(step: Choice) -> bool:
    """Every field of `step` an int where it is not None. True, 1.0 and 0.0 compare (and hash)
    equal to 1, 1 and 0: such a choice would pass for the offered one and be played and
    recorded as given, so it goes to the full check, which names the field."""
    pairs = step.pairs
    return (
        type(step.player) is int
        and (step.extra is None or type(step.extra) is int)
        and (step.column is None or type(step.column) is int)
        and type(pairs) is tuple
        and all(type(pair) is tuple and all(type(index) is int for index in pair) for pair in pairs)
    )


def _pairs_problem(pairs: object, extra: int | None) -> Text | None:
    """Why `pairs` are not two disjoint pairs of dice indices without the extra die, or None."""
    if not (
        isinstance(pairs, tuple)
        and len(pairs) == 2
        and all(isinstance(p, tuple) and len(p) == 2 and all(type(i) is int for i in p) for p in pairs)
    ):
        return Text(N_("pairs must be two pairs of dice indices, not {pairs!r}"), pairs=pairs)
    used = {*pairs[0], *pairs[1]}
    if any(not 0 <= i < DICE_COUNT for i in used):
        return Text(N_("pairs {pairs}: dice indices are 0 to 4"), pairs=[list(p) for p in pairs])
    if len(used) != 4:
        return Text(N_("pairs {pairs} must use four different dice"), pairs=[list(p) for p in pairs])
    if extra in used:
        return Text(
            N_("pairs {pairs}: the extra die {extra} cannot also be in a pair"),
            pairs=[list(p) for p in pairs],
            extra=extra,
        )
    return None


class Extra(Game):
    """EXTRA!: 1–6 players share each roll; each decides their own sheet.

    Public state (read-only; the UI draws from it and never re-derives rules):
    - `sheets`: one `Sheet` per player.
    - `faces`: the faces of the last roll (None before the first).
    - `roller`: who presses ROLL for the pending roll, or who rolled the dice being decided
      (None once the game is over).
    - `rolls`: how many rolls have been made.
    - `undecided`: players still to decide on the current roll, in seating order.
    - `in_game`: players whose game has not ended, in seating order.
    - `events`: what the last applied step did, a list of dicts:
      `{"kind": "roll", "player": roller, "faces": (..5..)}`;
      `{"kind": "extra", "player", "die", "face", "column", "new": bool, "crossed": bool}` or
      `{"kind": "free_ride", "player"}`;
      per pair, in order: `{"kind": "cross", "player", "sum", "box"}` (box index from the left)
      or `{"kind": "row_full", "player", "sum"}`;
      `{"kind": "ended", "player", "column"}` when that choice crossed a column's last box;
      `{"kind": "game_over", "winners": [...]}` when the last player has ended.
    - `extra_dice()`: the dice the pending player may take as extra die ([None] = free ride);
      `columns_for(die)`: the columns that die's face may be written in (() if already owned).

    `legal_decisions()` order: extra die ascending, then column ascending, then the three pair
    splits (normalised, ascending); a free ride lists the splits leaving out die 0, then die 1,
    ... die 4, three each.
    """

    name = "extra"
    title = "EXTRA!"
    min_players = 1
    max_players = 6

    def _setup(self) -> None:
        self.sheets: tuple[Sheet, ...] = tuple([Sheet() for _ in self.players])
        self.faces: tuple[int, ...] | None = None
        self.roller: int | None = 0
        self.rolls = 0
        self._undecided: list[int] = []
        self._in_game: list[int] = list(range(len(self.players)))
        self._events: list[ExtraEvent] | None = []  # None: not built yet (see Game.events)
        # Pending values are immutable: shared, pending() is called on every step
        self._to_roll, self._to_decide = pending_values(len(self.players))
        self._offered: _Offered | None = None  # see _legal
        self._showing_for: tuple[int, ...] | None = None  # the roll `_showing` (its _roll_table) is of
        self._showing: bytes = b""
        self._actors = None  # a Choice names its player: see `actor`

    def _snapshot(self, step: Step) -> tuple[object, ...]:
        if isinstance(step, Roll):
            return (self._events, tuple(self._undecided), self.faces, self.rolls)
        player = self._undecided[0]  # a Choice for someone else is refused before any change
        sheet = self.sheets[player]
        return (
            self._events,
            tuple(self._undecided),
            tuple(self._in_game),
            self.roller,
            player,
            tuple(sheet._crosses),
            tuple(sheet._numbers),
            tuple(sheet._column_crosses),
            sheet._ended,
        )

    def _restore(self, record: Any) -> None:  # Any: one of `_snapshot`'s or `_choose`'s tuples
        self._offered = None
        if type(record[1]) is int:  # the fast `apply`'s record of a choice (player second): undo its changes
            self._events, player, first, second, column, number, crossed, in_game, self.roller = record
            sheet = self.sheets[player]
            crosses = sheet._crosses
            if second >= 0:  # taken back in reverse order: both pairs may cross the same row
                crosses[second] -= 1
            if first >= 0:
                crosses[first] -= 1
            if column >= 0:
                sheet._numbers[column] = number
                if number is None:  # the choice wrote a new number
                    sheet._key = _numbers_key(sheet._numbers)
                if crossed:
                    sheet._column_crosses[column] -= 1
            if in_game is not None:  # the choice ended this player's game
                self._in_game = list(in_game)
                sheet._ended = False
            self._undecided.insert(0, player)
            return
        self._events, self._undecided = record[0], list(record[1])
        if len(record) == 4:
            self.faces, self.rolls = record[2], record[3]
            return
        _, _, in_game, self.roller, player, crosses, numbers, column_crosses, ended = record
        self._in_game = list(in_game)
        sheet = self.sheets[player]
        sheet._crosses, sheet._numbers = list(crosses), list(numbers)
        sheet._key = _numbers_key(numbers)
        sheet._column_crosses, sheet._ended = list(column_crosses), ended

    def _copy_into(self, twin: Extra) -> None:
        twin.sheets = tuple(sheet._copy() for sheet in self.sheets)
        twin._undecided = self._undecided.copy()
        twin._in_game = self._in_game.copy()
        if self._events is not None:
            twin._events = self._events.copy()

    @property
    def undecided(self) -> tuple[int, ...]:
        return tuple(self._undecided)

    @property
    def in_game(self) -> tuple[int, ...]:
        return tuple(self._in_game)

    def actor(self, index: int) -> int | None:
        """Who made history step `index`: the player a Choice names (only the pending player's
        choices are applied), None for a roll."""
        step = self.history[index]
        return step.player if isinstance(step, Choice) else None

    def pending(self) -> Pending:
        undecided = self._undecided
        if undecided:
            return self._to_decide[undecided[0]]
        roller = self.roller
        if roller is not None:  # None once every player is out (`_next_roller`)
            return self._to_roll[roller]
        return _OVER

    def dice(self) -> tuple[tuple[int, ...], ...]:
        return _DICE

    # --- the extra die -------------------------------------------------------------------
    def extra_dice(self) -> list[int | None]:
        """Dice the pending player may take as extra die; [None] on a free ride, [] if none pending."""
        if not self._undecided or self.faces is None:
            return []
        sheet = self.sheets[self._undecided[0]]
        if sheet.owned < MAX_NUMBERS:
            return list(range(DICE_COUNT))
        numbers = sheet._numbers
        shown: list[int | None] = [i for i, face in enumerate(self.faces) if face in numbers]
        return shown or [None]

    def columns_for(self, die: int) -> tuple[int, ...]:
        """Columns the face of `die` may be written in by the pending player; () if it is owned."""
        if not self._undecided or self.faces is None:
            return ()
        sheet = self.sheets[self._undecided[0]]
        if self.faces[die] in sheet._numbers:
            return ()
        return tuple(c for c, n in enumerate(sheet._numbers) if n is None)

    def legal_decisions(self) -> list[Choice]:
        offered = self._offered  # set only while a decision is pending
        if offered is None:
            undecided = self._undecided
            faces = self.faces
            if not undecided or faces is None:  # (a decision is pending only after a roll)
                return []
            # _legal, inline: bots and the bench ask on every decision
            player = undecided[0]
            key = self.sheets[player]._key
            if faces is not self._showing_for:
                self._showing_for, self._showing = faces, _roll_table(faces)
            index = (player << 8) | (self._showing[key >> 3] << 3) | (key & 7)
            offered = _LEGAL[index]
            if offered is None:
                offered = _LEGAL[index] = _legal_for(player, index >> 3 & 31, index & 7)
            self._offered = offered
        return offered[0].copy()

    def _legal(self) -> _Offered:
        """The pending player's legal decisions, from the cached table for their situation;
        kept until the next step (a bot asks for them, then applies one)."""
        player = self._undecided[0]
        key = self.sheets[player]._key  # free columns in bits 0-2, owned faces above
        faces = self.faces
        assert faces is not None, "a decision is pending only after a roll"
        if faces is not self._showing_for:  # every player decides on the same roll: look it up once
            self._showing_for, self._showing = faces, _roll_table(faces)
        index = (player << 8) | (self._showing[key >> 3] << 3) | (key & 7)
        offered = _LEGAL[index]
        if offered is None:
            offered = _LEGAL[index] = _legal_for(player, index >> 3 & 31, index & 7)
        self._offered = offered
        return offered

    # --- applying steps --------------------------------------------------------------------
    def apply(self, step: Step) -> None:
        """`Game.apply` with its one fast path: a roll of five known faces, or a choice equal to
        one `legal_decisions()` offers, goes straight to the rules (`_roll`, `_choose`) without
        the generic checks and with the events unbuilt (`Game.events` builds them when read);
        anything else, and every refused step, takes the plain path. The rules are the same:
        only the checking and the undo record differ (a fast choice's record holds what it
        changed, see `_choose` and `_restore`)."""
        kind = type(step)
        if kind is Choice:
            offered = self._offered  # set while a decision is pending, once it was asked for
            if offered is None and self._undecided:
                offered = self._legal()
            # offered: legal and the pending player's (by value, so True must not pass for 1)
            choice = cast(Choice, step)
            if offered is not None and _integers(choice) and choice in offered[1]:
                self._undo_stack.append(self._choose(choice, None))
                self._events = None
                self._offered = None
                self.history.append(step)
                return
        elif kind is Roll and not self._undecided and self._in_game:
            faces = cast(Roll, step).faces
            try:  # one look-up checks the roll and finds its table
                found = _TABLES.get(faces)
                if found is None and faces in _ROLLS:
                    found = _roll_table(faces)
            except TypeError:  # unhashable faces: the plain path names the bad one
                found = None
            if found is not None and _all_int(faces):  # True and 1.0 find 1's table too
                self._undo_stack.append((self._events, (), self.faces, self.rolls))
                self._events = None
                self._roll(faces)
                self._showing_for, self._showing = self.faces, found
                self.history.append(step)
                return
        Game.apply(self, step)

    def _apply(self, step: Step) -> None:
        if isinstance(step, Roll):
            self._apply_roll(step)
        elif isinstance(step, Choice):
            self._apply_choice(step)
        else:
            raise IllegalStepError(N_("an EXTRA! step is a Roll or a Choice, not {step!r}"), step=step)
        self._offered = None

    def _apply_roll(self, step: Roll) -> None:
        if not _all_int(step.faces):  # the base class checked the values, not their type
            raise IllegalStepError(N_("roll: faces must be integers 1–6, not {faces}"), faces=list(step.faces))
        self._roll(step.faces)
        roller, faces = self.roller, self.faces
        assert roller is not None and faces is not None  # a roll is made only while the game goes on
        self._events = [{"kind": "roll", "player": roller, "faces": faces}]

    def _roll(self, faces: Sequence[int]) -> None:
        """The roll's rules: every player still in decides on these faces."""
        self.faces = faces if type(faces) is tuple else tuple(faces)
        self.rolls += 1
        self._undecided = list(self._in_game)
        self._offered = None

    def _check_choice(self, step: Choice) -> Text | None:
        """The rule `step` breaks, or None; changes nothing."""
        player = self._undecided[0]
        if type(step.player) is not int or step.player != player:
            return Text(
                N_("turn order: player {player} decides now, not player {chosen!r}"), player=player, chosen=step.player
            )
        faces = cast(tuple[int, ...], self.faces)  # a decision is pending only after a roll
        sheet = self.sheets[player]
        extra, column = step.extra, step.column
        if extra is not None and (type(extra) is not int or not 0 <= extra < DICE_COUNT):
            return Text(N_("extra die: {extra!r} is not a die index 0 to 4 (or null for a free ride)"), extra=extra)
        if column is not None and (type(column) is not int or not 0 <= column < len(COLUMN_SIZES)):
            return Text(N_("EXTRA column: {column!r} is not a column 0, 1 or 2"), column=column)
        numbers = sheet._numbers
        if sheet.owned == MAX_NUMBERS:
            shown = [i for i, face in enumerate(faces) if face in numbers]
            if shown and extra not in shown:
                owned = sorted(n for n in numbers if n is not None)
                return Text(
                    N_(
                        "extra die: the roll shows an EXTRA number of {owned}, so the extra die "
                        "must be one of dice {shown}, not {extra}"
                    ),
                    owned=owned,
                    shown=shown,
                    extra=extra,
                )
            if not shown and extra is not None:
                return Text(
                    N_("free ride: the roll shows none of the EXTRA numbers, so no extra die (not die {extra})"),
                    extra=extra,
                )
        elif extra is None:
            return Text(
                N_("free ride: only with three EXTRA numbers; player {player} owns {owned}, so an extra die is needed"),
                player=player,
                owned=sheet.owned,
            )
        if extra is not None:
            face = faces[extra]
            owned_column = sheet.column_of(face)
            if owned_column is not None and column is not None:
                return Text(
                    N_("EXTRA column: {face} is already the EXTRA number of column {column}; give no column"),
                    face=face,
                    column=owned_column,
                )
            if owned_column is None:
                if column is None:
                    return Text(
                        N_("EXTRA column: {face} becomes a new EXTRA number; choose an empty column"), face=face
                    )
                if numbers[column] is not None:
                    return Text(
                        N_("EXTRA column: column {column} already holds the EXTRA number {number}"),
                        column=column,
                        number=numbers[column],
                    )
        elif column is not None:
            return Text(N_("EXTRA column: a free ride writes no EXTRA number; give no column"))
        return _pairs_problem(step.pairs, extra)

    def _apply_choice(self, step: Choice) -> None:
        try:
            offered = _integers(step) and step in (self._offered or self._legal())[1]
        except TypeError:  # unhashable parts: the full check names what is wrong
            offered = False
        if not offered:
            problem = self._check_choice(step)
            if problem is not None:
                raise IllegalStepError(problem)
        events: list[ExtraEvent] = []
        self._choose(step, events)
        self._events = events

    def _choose(self, step: Choice, events: list[ExtraEvent] | None) -> tuple[object, ...]:
        """Apply a legal choice; its events go to `events` unless that is None (fast `apply`).
        Returns what it changed, the fast path's undo record (see `_restore`): the events
        before it, the player, the two rows crossed (-1: full), the EXTRA column touched (-1:
        none) with its number before and whether a box was crossed, the players still in when
        this choice ended the player's game (else None; a deciding player's sheet had not
        ended), and the roller."""
        record_events, roller = self._events, self.roller
        player = step.player
        sheet = self.sheets[player]
        faces: tuple[int, ...] = self.faces  # type: ignore[assignment]  # a choice is pending: rolled
        extra = step.extra
        column, before, cross = -1, None, False
        if extra is None:
            if events is not None:
                events.append({"kind": "free_ride", "player": player})
        else:
            face = faces[extra]
            numbers = sheet._numbers
            new = face not in numbers
            if new:
                column = step.column  # type: ignore[assignment]  # a new number names its column
                cross = not self.players[player].kids
                numbers[column] = face  # Sheet._take, inline
                sheet._key = sheet._key & ~(1 << column) | 1 << 2 + face  # _numbers_key, updated
            else:
                column, before, cross = numbers.index(face), face, True
            if cross:
                column_crosses = sheet._column_crosses
                column_crosses[column] += 1
                if column_crosses[column] == COLUMN_SIZES[column]:
                    sheet._ended = True
            if events is not None:
                events.append(
                    {
                        "kind": "extra",
                        "player": player,
                        "die": extra,
                        "face": face,
                        "column": column,
                        "new": new,
                        "crossed": cross,
                    }
                )
        crosses = sheet._crosses
        (a, b), (c, d) = step.pairs
        first, second = faces[a] + faces[b] - 2, faces[c] + faces[d] - 2  # the rows' indices
        box = crosses[first]  # Sheet._cross_row, inline (twice)
        if box < _ROW_SIZE[first]:
            crosses[first] = box + 1
            if events is not None:
                events.append({"kind": "cross", "player": player, "sum": first + 2, "box": box})
        else:
            if events is not None:
                events.append({"kind": "row_full", "player": player, "sum": first + 2})
            first = -1  # the row was full: nothing crossed
        box = crosses[second]
        if box < _ROW_SIZE[second]:
            crosses[second] = box + 1
            if events is not None:
                events.append({"kind": "cross", "player": player, "sum": second + 2, "box": box})
        else:
            if events is not None:
                events.append({"kind": "row_full", "player": player, "sum": second + 2})
            second = -1
        del self._undecided[0]
        in_game = None
        if sheet._ended:
            in_game = tuple(self._in_game)
            self._in_game.remove(player)
            if events is not None:
                events.append({"kind": "ended", "player": player, "column": column})
        if not self._undecided:
            self._next_roller()
            if not self._in_game and events is not None:
                events.append({"kind": "game_over", "winners": self._winners()})
        return (record_events, player, first, second, column, before, cross, in_game, roller)

    def _next_roller(self) -> None:
        """Clockwise to the next player still in; None when nobody is."""
        in_game = self._in_game
        if not in_game:
            self.roller = None
            return
        current = self.roller
        if current is not None:
            for player in in_game:  # a loop, not a list: this runs after every roll's last choice
                if player > current:
                    self.roller = player
                    return
        self.roller = in_game[0]

    # --- the end ----------------------------------------------------------------------------
    def _winners(self) -> list[int]:
        scores = [sheet.total for sheet in self.sheets]
        if len(scores) == 1:
            # Solo: a negative total is a loss, 0 is not (docs/rules/extra.md).
            return [0] if scores[0] >= 0 else []
        return winners_of(scores)

    def result(self) -> dict[str, Any] | None:  # Any: as `Game.result`
        if self._in_game:
            return None
        return {
            "scores": [sheet.total for sheet in self.sheets],
            "rows": [{str(total): score for total, score in sheet.row_scores.items()} for sheet in self.sheets],
            "winners": self._winners(),
        }

    # --- records ----------------------------------------------------------------------------
    @classmethod
    def parse_step(cls, data: object) -> ExtraStep:
        if not isinstance(data, Mapping):
            raise RecordError(Text(N_("an EXTRA! step must be a JSON object, not {data!r}"), data=data))
        if "roll" in data:
            return parse_roll(data, DICE_COUNT, int)
        if "player" not in data:
            raise RecordError(
                Text(
                    N_("an EXTRA! step needs 'roll' or 'player', 'extra' and 'pairs'; got keys {keys}"),
                    keys=sorted(data),
                )
            )
        player = data["player"]
        if type(player) is not int or player < 0:
            raise RecordError(Text(N_("'player' must be a seat index (integer from 0), not {player!r}"), player=player))
        if "extra" not in data:
            raise RecordError(Text(N_("'extra' is missing: a die index 0-4, or null on a free ride")))
        extra = data["extra"]
        if extra is not None and (type(extra) is not int or not 0 <= extra < DICE_COUNT):
            raise RecordError(Text(N_("'extra' must be a die index 0-4 or null, not {extra!r}"), extra=extra))
        column = data.get("column")
        if column is not None and (type(column) is not int or not 0 <= column < len(COLUMN_SIZES)):
            raise RecordError(Text(N_("'column' must be 0, 1, 2 or null, not {column!r}"), column=column))
        pairs = data.get("pairs")
        if not (
            isinstance(pairs, list)
            and len(pairs) == 2
            and all(
                isinstance(p, list) and len(p) == 2 and all(type(i) is int and 0 <= i < DICE_COUNT for i in p)
                for p in pairs
            )
        ):
            raise RecordError(
                Text(
                    N_("'pairs' must be two pairs of dice indices 0-4, like [[1, 2], [0, 4]], not {pairs!r}"),
                    pairs=pairs,
                )
            )
        (a, b), (c, d) = pairs
        return Choice(player, extra, column, ((a, b), (c, d)))
