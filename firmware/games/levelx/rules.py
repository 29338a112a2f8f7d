"""LEVEL X (Stefan Risthaus), 2–4 players: group four dice into sums 5–10 and race to the X fields.

Each group of dice with sum s places or moves the player's piece in row s; arriving on (or
standing on) the row's X field takes a chip of that row. Rules, and the decisions where they are
silent: docs/rules/levelx.md.

    >>> game = LevelX(["Yellow", "Red"])
    >>> game.apply(Roll((5, 5, 5, 5)))
    >>> game.apply(Groups(((0,), (1,), (2,), (3,))))    # place in row 5, move three times onto X
    >>> game.pieces[0][0], game.x_holders[0], game.chips[0]
    (3, 0, (5,))
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from functools import cache
from itertools import permutations, product
from typing import Any, TypeVar, cast

from firmware.errors import N_, IllegalStepError, RecordError, Text
from firmware.games.base import (
    OVER,
    RECORD_VERSION,
    Game,
    Pending,
    Player,
    Roll,
    Step,
    parse_roll,
    pending_values,
    winners_of,
)
from firmware.dice import Face
from firmware.games.levelx.events import LevelXEvent

ROWS: tuple[int, ...] = (5, 6, 7, 8, 9, 10)
FIELDS: tuple[int, ...] = (4, 4, 3, 3, 2, 2)  # fields per row, the X field last
CHIPS: tuple[int, ...] = (12, 11, 10, 9, 8, 7)  # chips per row with 4 players
SMALL_GAME_PLAYERS = 3  # with this many players or fewer, one chip fewer in every row
BONUS_TILES: tuple[int, ...] = (15, 12, 9, 6)  # top first
PIECES = 6
DICE_COUNT = 4
FACES: tuple[int, ...] = (1, 2, 3, 4, 5, 6)
STACKS_TO_END = 3
MIN_SUM, MAX_SUM = ROWS[0], ROWS[-1]

_DICE = (FACES,) * DICE_COUNT
_OVER = Pending(OVER)
_LAST_FIELD = tuple(n - 1 for n in FIELDS)
_WIDTH = len(ROWS)  # per-player state is kept flat: player p's row r at p * _WIDTH + r


@dataclass(frozen=True)
class Bonus:
    """Take (True) or decline (False) the last bonus tile, when the player who just grouped is
    entitled to it (version-2 rules: `LevelX(..., last_tile_choice=True)`).

        >>> Bonus(False).to_json()
        {'bonus': False}
    """

    take: bool

    def __post_init__(self) -> None:
        if type(self.take) is not bool:
            raise IllegalStepError(N_("bonus: 'take' must be true or false, not {take!r}"), take=self.take)

    def to_json(self) -> dict[str, object]:
        return {"bonus": self.take}


_BONUS_CHOICES = (Bonus(True), Bonus(False))


@dataclass(frozen=True)
class TurnOnes:
    """Lucky loser: new faces for all the ones but one; they replace the ones at the lowest
    indices, in order, and the last one stays 1.

        >>> TurnOnes((5, 6)).to_json()
        {'turn_ones': [5, 6]}
    """

    faces: tuple[int, ...]

    def __post_init__(self) -> None:
        object.__setattr__(self, "faces", tuple(self.faces))

    def to_json(self) -> dict[str, object]:
        return {"turn_ones": list(self.faces)}


# The bit mask of every well-formed group of dice indices (0–3, none twice, in any order).
_MASK_OF: dict[tuple[int, ...], int] = {
    group: sum(1 << index for index in group)
    for size in range(1, DICE_COUNT + 1)
    for group in permutations(range(DICE_COUNT), size)
}


def _or_all(masks: Sequence[int]) -> int:
    """The bits set in any of `masks` (their sum when no two share a bit: groups are disjoint)."""
    bits = 0
    for mask in masks:
        bits |= mask
    return bits


@dataclass(frozen=True, eq=False)
class Groups:
    """The groups of dice indices the player uses, applied in the order given; `()` uses none.

    Equal (and hashing equal) to any Groups with the same groups in another order or with the
    indices of a group in another order; `to_json` keeps the order given.

        >>> Groups(((3, 0), (1, 2))) == Groups(((1, 2), (0, 3)))
        True
        >>> Groups(((3, 0), (1, 2))).to_json()
        {'groups': [[3, 0], [1, 2]]}
    """

    groups: tuple[tuple[int, ...], ...]
    _key: tuple[tuple[int, ...], ...] = field(init=False, repr=False)
    _masks: tuple[int, ...] | None = field(init=False, repr=False)
    _needs: int = field(init=False, repr=False)

    def __post_init__(self) -> None:
        groups = tuple(tuple(group) for group in self.groups)
        for group in groups:
            for index in group:
                if type(index) is not int:
                    raise IllegalStepError(
                        N_("groups: die index {index!r} must be an integer 0–{last}"), index=index, last=DICE_COUNT - 1
                    )
        object.__setattr__(self, "groups", groups)
        object.__setattr__(self, "_key", tuple(sorted(tuple(sorted(group)) for group in groups)))
        # For the engine's fast path: each group's bit mask of dice indices (in the order
        # given) and the bits of those masks, or None when the groups are not well formed
        # (an index outside 0–3, a die in two groups, an empty group: the rules check says which).
        found = tuple(_MASK_OF.get(group, 0) for group in groups)
        masks = None if 0 in found or sum(found) != _or_all(found) else found
        object.__setattr__(self, "_masks", masks)
        object.__setattr__(self, "_needs", sum(1 << mask for mask in set(masks)) if masks else 0)

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, Groups):
            return NotImplemented
        return self._key == other._key

    def __hash__(self) -> int:
        return hash(self._key)

    def canonical(self) -> Groups:
        """The same decision in canonical form: indices ascending, groups by lowest index."""
        return Groups(self._key)

    def to_json(self) -> dict[str, object]:
        return {"groups": [list(group) for group in self.groups]}


Decision = Bonus | TurnOnes | Groups  # what a LEVEL X player decides
LevelXStep = Roll | Decision  # a LEVEL X step (`LevelX.parse_step`)
_T = TypeVar("_T")


@dataclass(frozen=True)
class Outcome:
    """What a grouping does, as a player sees it: the sums formed (ascending), a label such as
    "5+6" or "none", and one representative `groups` decision giving it."""

    label: str
    sums: tuple[int, ...]
    groups: Groups


def _partial_partitions(count: int) -> list[tuple[tuple[int, ...], ...]]:
    """Every set of disjoint non-empty index groups over `count` dice, in canonical form."""
    found: list[tuple[tuple[int, ...], ...]] = []

    def extend(index: int, groups: list[list[int]]) -> None:
        if index == count:
            found.append(tuple(tuple(group) for group in groups))
            return
        extend(index + 1, groups)  # die unused
        for group in groups:
            group.append(index)
            extend(index + 1, groups)
            group.pop()
        groups.append([index])
        extend(index + 1, groups)
        groups.pop()

    extend(0, [])
    return sorted(found, key=lambda groups: (len(groups), groups))


def _mask(group: Sequence[int]) -> int:
    return sum(1 << index for index in group)


# Constant tables: every grouping of four dice (canonical, in legal_decisions order) with the
# bit mask of each group and the set of those masks as bits; every lucky-loser choice for 1, 2
# or 3 new faces.
_GROUPINGS: tuple[tuple[Groups, tuple[int, ...], int], ...] = tuple(
    (Groups(groups), masks, sum(1 << mask for mask in set(masks)))
    for groups in _partial_partitions(DICE_COUNT)
    for masks in [tuple(_mask(group) for group in groups)]
)
_TURN_CHOICES: tuple[tuple[TurnOnes, ...], ...] = tuple(
    tuple(TurnOnes(faces) for faces in product(FACES, repeat=count)) for count in range(DICE_COUNT)
)


def _subset_sums(faces: Sequence[int]) -> list[int]:
    """The sum of the dice in each bit mask of indices."""
    sums = [0] * (1 << len(faces))
    for mask in range(1, len(sums)):
        low = mask & -mask
        sums[mask] = sums[mask ^ low] + faces[low.bit_length() - 1]
    return sums


def _bad_subsets(sums: Sequence[int]) -> int:
    """Bits of the index masks whose sum is outside 5–10 (they cannot be a group)."""
    return sum(1 << mask for mask, total in enumerate(sums) if not MIN_SUM <= total <= MAX_SUM)


@cache
def _sums_for(faces: tuple[int, ...]) -> tuple[tuple[int, ...], int]:
    """Subset sums by index mask and the bits of the masks that cannot be a group (at most
    6**4 rolls, so cached whole)."""
    sums = _subset_sums(faces)
    return tuple(sums), _bad_subsets(sums)


# Every roll of the four dice with its subset sums and bad masks (6**4 rolls, built at import:
# the fast `apply` looks a roll up here).
_SUMS: dict[tuple[int, ...], tuple[tuple[int, ...], int]] = {
    faces: _sums_for(faces) for faces in product(FACES, repeat=DICE_COUNT)
}
_ROLLS = frozenset(_SUMS)


@cache
def _groups_for(faces: tuple[int, ...]) -> tuple[Groups, ...]:
    """The groupings whose every group sums to 5–10, in canonical order."""
    bad = _sums_for(faces)[1]
    return tuple(groups for groups, _, needs in _GROUPINGS if not needs & bad)


@cache
def _decisions_for(faces: tuple[int, ...], ones_turned: bool) -> tuple[TurnOnes | Groups, ...]:
    """`legal_decisions` for these faces: lucky-loser choices (two or more ones, not turned
    yet this turn), then the groupings."""
    ones = 0 if ones_turned else faces.count(1)
    return (_TURN_CHOICES[ones - 1] if ones >= 2 else ()) + _groups_for(faces)


_GROUP_MASKS = _MASK_OF  # index mask of every well-formed group: the plain path's fast check


class LevelX(Game):
    """The LEVEL X rules engine.

    A turn: `Roll` of four faces, then optionally `TurnOnes` (two or more ones, once per turn),
    then one `Groups` decision, which ends the turn — unless it left the player entitled to the
    last bonus tile: then a `Bonus(take)` decision ends it.

    `last_tile_choice`: the rules of record version 2, where the last bonus tile may be
    declined (the default); False plays version 1, where it is always taken at once (records
    written before the choice existed replay, and unfinished games resume, under those rules).

    Read-only state for the UI (rows indexed like `ROWS`: index 0 is row 5, index 5 row 10;
    fields counted from 0, the X field is `FIELDS[i] - 1`):

    - `current_player`, `round_number` (from 1; a round is one turn of each player 0..n-1)
    - `faces`: the four faces of this turn after any turned ones, or None before the roll
    - `ones_turned`: the lucky loser choice was made this turn; `ones_to_turn`: how many new
      faces a `TurnOnes` needs now (0 when it is not allowed)
    - `pieces[player][row]`: field index of the player's piece in that row, or None
    - `x_holders[row]`: the player on that row's X field, or None
    - `chips_left[row]`, `chips_start[row]`, `closed_rows` (row numbers whose stack is empty)
    - `chip_counts[player][row]`, `chips[player]` (chip values ascending), `sets[player]`
    - `bonus[player]` (tiles in the order taken), `tiles_left` (top first)
    - `supply[player]`, `lost[player]` (pieces out of the game for good)
    - `scores[player]` (chips + bonus tiles), `end_triggered`
    - `bonus_pending`: the current player is choosing whether to take the last bonus tile
    - `events`: what the last applied step did, a list of dicts (see docs/rules/levelx.md)
    """

    name = "levelx"
    title = "LEVEL X"
    min_players = 2
    max_players = 4
    _actors: list[int | None]  # every step's actor is kept (the fast `apply` appends to it)

    def __init__(self, players: Sequence[Player | str], *, last_tile_choice: bool = True) -> None:
        if type(last_tile_choice) is not bool:
            raise TypeError(f"last_tile_choice must be True or False, not {last_tile_choice!r}")
        self.last_tile_choice = last_tile_choice
        super().__init__(players)
        self.record_version = RECORD_VERSION if last_tile_choice else 1

    @classmethod
    def for_record(cls, players: Sequence[Player | str], version: int) -> LevelX:
        """Version 1 records predate the choice of the last tile: their rules take it at once."""
        return cls(players, last_tile_choice=version >= 2)

    def _setup(self) -> None:
        count = len(self.players)
        self._current = 0
        self._round = 1
        self._faces: tuple[int, ...] | None = None
        self._ones_turned = False
        # Per player and row, flat (player p, row index r at p * _WIDTH + r): one tuple() call
        # snapshots them for undo. Bonus tiles, tiles left and lost pieces change rarely, so
        # they are tuples replaced when they change and snapshots share them.
        self._pieces: list[int | None] = [None] * (count * _WIDTH)
        self._x_holders: list[int | None] = [None] * len(ROWS)
        fewer = 1 if count <= SMALL_GAME_PLAYERS else 0
        self._chips_start = tuple(c - fewer for c in CHIPS)
        self._chips_left = list(self._chips_start)
        self._chip_counts = [0] * (count * _WIDTH)
        self._bonus: tuple[tuple[int, ...], ...] = ((),) * count
        self._tiles_left: tuple[int, ...] = BONUS_TILES
        self._supply = [PIECES] * count
        self._lost: tuple[int, ...] = (0,) * count
        self._closed = 0
        self._end_triggered = False
        self._over = False
        self._asking = False  # the current player chooses whether to take the last bonus tile
        self._events: list[LevelXEvent] | None = []  # None: not built yet (see Game.events)
        # Pending values are immutable: shared, pending() is called on every step
        self._to_roll, self._to_decide = pending_values(count)

    def _snapshot(self, step: Step) -> tuple[object, ...]:
        if isinstance(step, (Roll, TurnOnes)):  # a roll or turned ones change only these
            return (self._faces, self._ones_turned, self._events)
        return self._full_record()

    def _full_record(self) -> tuple[object, ...]:
        return (
            self._faces,
            self._ones_turned,
            self._events,
            self._current,
            self._round,
            tuple(self._pieces),
            tuple(self._x_holders),
            tuple(self._chips_left),
            tuple(self._chip_counts),
            self._bonus,
            self._tiles_left,
            tuple(self._supply),
            self._lost,
            self._closed,
            self._end_triggered,
            self._over,
            self._asking,
        )

    def _restore(self, record: Any) -> None:  # Any: one of `_snapshot`'s tuples (see there)
        self._faces, self._ones_turned, self._events = record[0], record[1], record[2]
        if len(record) > 3:
            (
                _,
                _,
                _,
                self._current,
                self._round,
                pieces,
                x_holders,
                chips_left,
                chip_counts,
                self._bonus,
                self._tiles_left,
                supply,
                self._lost,
                self._closed,
                self._end_triggered,
                self._over,
                self._asking,
            ) = record
            self._pieces = list(pieces)
            self._x_holders = list(x_holders)
            self._chips_left = list(chips_left)
            self._chip_counts = list(chip_counts)
            self._supply = list(supply)

    def _copy_into(self, twin: LevelX) -> None:
        twin._pieces = self._pieces.copy()
        twin._x_holders = self._x_holders.copy()
        twin._chips_left = self._chips_left.copy()
        twin._chip_counts = self._chip_counts.copy()
        twin._supply = self._supply.copy()
        if self._events is not None:
            twin._events = self._events.copy()

    # --- the protocol ------------------------------------------------------------------
    def apply(self, step: Step) -> None:
        """`Game.apply` with its one fast path: a roll of four integer faces 1–6 and a grouping
        whose groups are well formed and sum to 5–10, checked as the plain path checks them, go
        to the same rules (`_act`, `_end_turn`; a roll only sets the faces) with the events
        unbuilt (`Game.events` builds them when read); anything else, and every refused step,
        takes the plain path."""
        kind = type(step)
        faces = self._faces
        if self._over or self._asking:
            pass
        elif kind is Roll:
            if faces is None:
                rolled = cast(Roll, step).faces
                try:
                    known = rolled in _ROLLS
                except TypeError:  # unhashable faces: the plain path names the bad one
                    known = False
                if known:
                    a, b, c, d = rolled  # 1.0 and True equal 1: the plain path refuses them
                    if type(a) is int and type(b) is int and type(c) is int and type(d) is int:
                        self._undo_stack.append((None, self._ones_turned, self._events))
                        self._events = None
                        self._faces = rolled  # all `_roll` does once its check passed, events aside
                        self.history.append(step)
                        self._actors.append(None)
                        return
        elif kind is Groups and faces is not None:
            groups = cast(Groups, step)
            masks = groups._masks
            if masks is not None:
                sums, bad = _SUMS[faces]
                if not groups._needs & bad:
                    player = self._current
                    self._undo_stack.append(self._full_record())
                    self._events = None
                    for mask in masks:
                        self._act(player, sums[mask] - MIN_SUM)
                    self._end_groups()
                    self.history.append(step)
                    self._actors.append(player)
                    return
        Game.apply(self, step)

    def pending(self) -> Pending:
        if self._over:
            return _OVER
        return (self._to_roll if self._faces is None and not self._asking else self._to_decide)[self._current]

    def dice(self) -> tuple[tuple[int, ...], ...]:
        return _DICE

    def legal_decisions(self) -> list[Decision]:
        """TurnOnes choices first when allowed (new faces in lexicographic order), then every
        grouping in canonical form (indices ascending, groups by lowest index), ordered by the
        number of groups, then lexicographically; `Groups(())` comes first of them. While the
        last bonus tile is offered: `Bonus(True)`, `Bonus(False)`."""
        if self._asking:
            return list(_BONUS_CHOICES)
        if self._over or self._faces is None:
            return []
        return list(_decisions_for(self._faces, self._ones_turned))

    def _apply(self, step: Step) -> None:
        # The plain path: every step builds its events (the fast `apply` leaves them to later).
        if self._asking and not isinstance(step, Bonus):
            raise IllegalStepError(
                N_("the last bonus tile is offered: take it or decline it first (bonus true or false)")
            )
        previous, self._events = self._events, []
        try:
            if isinstance(step, Roll):
                self._roll(step.faces)
            elif isinstance(step, TurnOnes):
                self._turn_ones(step.faces)
            elif isinstance(step, Groups):
                self._play_groups(step.groups)
            elif isinstance(step, Bonus):
                self._choose_bonus(step.take)
            else:
                raise IllegalStepError(
                    N_("{step!r} is not a LEVEL X step (roll, turn_ones, groups or bonus)"), step=step
                )
        except IllegalStepError:
            self._events = previous  # a refused step changes nothing, its events included
            raise

    def result(self) -> dict[str, Any] | None:  # Any: as `Game.result`
        if not self._over:
            return None
        scores = list(self.scores)
        return {
            "scores": scores,
            "chips": [list(chips) for chips in self.chips],
            "bonus": [list(tiles) for tiles in self._bonus],
            "winners": winners_of(scores),
        }

    @classmethod
    def parse_step(cls, data: object) -> LevelXStep:
        if not isinstance(data, Mapping):
            raise RecordError(
                Text(
                    N_("a LEVEL X step must be an object with 'roll', 'turn_ones', 'groups' or 'bonus', not {data!r}"),
                    data=data,
                )
            )
        keys = [key for key in ("roll", "turn_ones", "groups", "bonus") if key in data]
        if len(keys) != 1:
            raise RecordError(
                Text(
                    N_("a LEVEL X step needs exactly one of 'roll', 'turn_ones', 'groups', 'bonus'; got {keys}"),
                    keys=sorted(data),
                )
            )
        if keys[0] == "bonus":
            take = data["bonus"]
            if type(take) is not bool:
                raise RecordError(Text(N_("'bonus' must be true or false, not {take!r}"), take=take))
            return _BONUS_CHOICES[0] if take else _BONUS_CHOICES[1]
        if keys[0] == "roll":
            return parse_roll(data, DICE_COUNT, int)
        if keys[0] == "turn_ones":
            faces = data["turn_ones"]
            if not isinstance(faces, list) or not all(type(face) is int for face in faces):
                raise RecordError(Text(N_("'turn_ones' must be a list of integer faces, not {faces!r}"), faces=faces))
            return TurnOnes(tuple(faces))
        groups = data["groups"]
        if not isinstance(groups, list) or not all(
            isinstance(group, list) and all(type(index) is int for index in group) for group in groups
        ):
            raise RecordError(
                Text(N_("'groups' must be a list of lists of integer dice indices, not {groups!r}"), groups=groups)
            )
        return Groups(tuple(tuple(group) for group in groups))

    # --- read-only state for the UI ----------------------------------------------------
    @property
    def current_player(self) -> int:
        return self._current

    @property
    def round_number(self) -> int:
        return self._round

    @property
    def faces(self) -> tuple[int, ...] | None:
        return self._faces

    def shown_faces(self) -> tuple[Face, ...]:
        """The faces now (turned ones included), else the last roll's."""
        return self._faces if self._faces is not None else super().shown_faces()

    @property
    def ones_turned(self) -> bool:
        return self._ones_turned

    @property
    def ones_to_turn(self) -> int:
        """How many new faces a TurnOnes takes now; 0 when the lucky loser is not allowed."""
        if self._faces is None or self._ones_turned or self._over:
            return 0
        ones = self._faces.count(1)
        return ones - 1 if ones >= 2 else 0

    @property
    def pieces(self) -> tuple[tuple[int | None, ...], ...]:
        return self._per_player(self._pieces)

    def _per_player(self, flat: Sequence[_T]) -> tuple[tuple[_T, ...], ...]:
        return tuple(tuple(flat[start : start + _WIDTH]) for start in range(0, len(flat), _WIDTH))

    @property
    def x_holders(self) -> tuple[int | None, ...]:
        return tuple(self._x_holders)

    @property
    def chips_left(self) -> tuple[int, ...]:
        return tuple(self._chips_left)

    @property
    def chips_start(self) -> tuple[int, ...]:
        """Chips per row at the start (one fewer with 2–3 players)."""
        return self._chips_start

    @property
    def closed_rows(self) -> tuple[int, ...]:
        return tuple(row for row, left in zip(ROWS, self._chips_left) if left == 0)

    @property
    def chip_counts(self) -> tuple[tuple[int, ...], ...]:
        return self._per_player(self._chip_counts)

    @property
    def chips(self) -> tuple[tuple[int, ...], ...]:
        return tuple(
            tuple(row for row, count in zip(ROWS, counts) for _ in range(count)) for counts in self.chip_counts
        )

    @property
    def sets(self) -> tuple[int, ...]:
        return tuple(min(counts) for counts in self.chip_counts)

    @property
    def bonus(self) -> tuple[tuple[int, ...], ...]:
        return self._bonus

    @property
    def tiles_left(self) -> tuple[int, ...]:
        return self._tiles_left

    @property
    def supply(self) -> tuple[int, ...]:
        return tuple(self._supply)

    @property
    def lost(self) -> tuple[int, ...]:
        return self._lost

    @property
    def scores(self) -> tuple[int, ...]:
        return tuple(
            sum(row * count for row, count in zip(ROWS, counts)) + sum(tiles)
            for counts, tiles in zip(self.chip_counts, self._bonus)
        )

    @property
    def end_triggered(self) -> bool:
        return self._end_triggered

    @property
    def bonus_pending(self) -> bool:
        """The current player is choosing whether to take the last bonus tile (`Bonus`)."""
        return self._asking

    # --- the rules -----------------------------------------------------------------------
    def _rolled(self) -> tuple[int, ...]:
        if self._faces is None:  # the base class already refuses decisions before the roll
            raise IllegalStepError(N_("the dice must be rolled first"))
        return self._faces

    def _roll(self, faces: tuple[int, ...]) -> None:
        if set(map(type, faces)) != {int}:  # the base class checked the values, not their type
            raise IllegalStepError(N_("roll: faces must be integers 1–6, not {faces}"), faces=list(faces))
        self._faces = tuple(faces)
        if self._events is not None:
            self._events.append({"kind": "roll", "player": self._current, "faces": list(faces)})

    def _turn_ones(self, new_faces: tuple[int, ...]) -> None:
        faces = self._rolled()
        if self._ones_turned:
            raise IllegalStepError(N_("lucky loser: the ones were already turned this turn (one choice per turn)"))
        ones = [index for index, face in enumerate(faces) if face == 1]
        if len(ones) < 2:
            raise IllegalStepError(
                N_("lucky loser: needs two or more dice showing 1, this roll shows {n}"), n=len(ones)
            )
        if len(new_faces) != len(ones) - 1:
            raise IllegalStepError(
                N_("lucky loser: all the ones but one are turned: {want} new faces, not {got}"),
                want=len(ones) - 1,
                got=len(new_faces),
            )
        for face in new_faces:
            if type(face) is not int or face not in FACES:
                raise IllegalStepError(N_("lucky loser: new face {face!r} is not a die face 1–6"), face=face)
        turned = list(faces)
        for index, face in zip(ones, new_faces):
            turned[index] = face
        self._faces = tuple(turned)
        self._ones_turned = True
        if self._events is not None:
            self._events.append(
                {"kind": "turn_ones", "player": self._current, "dice": ones[:-1], "faces": list(self._faces)}
            )

    def _play_groups(self, groups: tuple[tuple[int, ...], ...]) -> None:
        faces = self._rolled()
        totals = self._fast_totals(groups, faces)
        if totals is None:
            totals = self._checked_totals(groups, faces)
        player = self._current
        for group, total in zip(groups, totals):
            if self._events is not None:
                self._events.append({"kind": "group", "player": player, "dice": list(group), "row": total})
            self._act(player, total - MIN_SUM)
        self._end_groups()

    @staticmethod
    def _fast_totals(groups: tuple[tuple[int, ...], ...], faces: tuple[int, ...]) -> list[int] | None:
        """Each group's sum from the cached tables, or None if any group breaks a rule."""
        sums, bad = _sums_for(faces)
        used = 0
        totals = []
        for group in groups:
            mask = _GROUP_MASKS.get(group, 0)
            if not mask or used & mask or bad >> mask & 1:
                return None
            used |= mask
            totals.append(sums[mask])
        return totals

    @staticmethod
    def _checked_totals(groups: tuple[tuple[int, ...], ...], faces: tuple[int, ...]) -> list[int]:
        """Each group's sum; IllegalStepError naming the first rule a group breaks."""
        used = 0
        totals = []
        for group in groups:
            if not group:
                raise IllegalStepError(N_("groups: every group needs at least one die"))
            total = 0
            for index in group:
                if not 0 <= index < DICE_COUNT:
                    raise IllegalStepError(
                        N_("groups: die index {index} does not exist (dice are 0–{last})"),
                        index=index,
                        last=DICE_COUNT - 1,
                    )
                bit = 1 << index
                if used & bit:
                    raise IllegalStepError(
                        N_("groups: die {index} is in two groups (each die belongs to one group)"), index=index
                    )
                used |= bit
                total += faces[index]
            if not MIN_SUM <= total <= MAX_SUM:
                raise IllegalStepError(
                    N_("groups: group {group} sums to {total}; a group must sum to {low}–{high}"),
                    group=list(group),
                    total=total,
                    low=MIN_SUM,
                    high=MAX_SUM,
                )
            totals.append(total)
        return totals

    def _act(self, player: int, row: int) -> None:
        """One group's effect on row index `row`."""
        if self._chips_left[row] == 0:
            if self._events is not None:
                self._events.append({"kind": "no_effect", "player": player, "row": ROWS[row], "reason": "closed"})
            return
        pieces = self._pieces
        at_index = player * _WIDTH + row
        at = pieces[at_index]
        if at is None:
            if self._supply[player] == 0:
                if self._events is not None:
                    self._events.append({"kind": "no_effect", "player": player, "row": ROWS[row], "reason": "no_piece"})
                return
            self._supply[player] -= 1
            pieces[at_index] = 0
            if self._events is not None:
                self._events.append({"kind": "place", "player": player, "row": ROWS[row], "to": 0})
            return
        last = _LAST_FIELD[row]
        if at < last:
            pieces[at_index] = at + 1
            if self._events is not None:
                self._events.append({"kind": "move", "player": player, "row": ROWS[row], "from": at, "to": at + 1})
            if at + 1 < last:
                return
            ousted = self._x_holders[row]
            if ousted is not None:
                pieces[ousted * _WIDTH + row] = None
                self._supply[ousted] += 1
                if self._events is not None:
                    self._events.append({"kind": "oust", "player": ousted, "row": ROWS[row], "by": player})
            self._x_holders[row] = player
        self._take_chip(player, row)

    def _take_chip(self, player: int, row: int) -> None:
        self._chips_left[row] -= 1
        start = player * _WIDTH
        self._chip_counts[start + row] += 1
        if self._events is not None:
            self._events.append({"kind": "chip", "player": player, "row": ROWS[row], "left": self._chips_left[row]})
        if self._chips_left[row] == 0:
            self._close(row)
        sets = min(self._chip_counts[start : start + _WIDTH])
        tiles = self._bonus[player]
        keep = 1 if self.last_tile_choice else 0  # version 2: the last tile is the player's choice
        while sets > len(tiles) and len(self._tiles_left) > keep:
            tile, self._tiles_left = self._tiles_left[0], self._tiles_left[1:]
            tiles += (tile,)
            self._bonus = self._bonus[:player] + (tiles,) + self._bonus[player + 1 :]
            if self._events is not None:
                self._events.append({"kind": "bonus", "player": player, "tile": tile})
            if not self._tiles_left:
                self._trigger_end("bonus")
        if keep and sets > len(tiles) and self._tiles_left:
            # Entitled to the last tile: asked when the turn's groups are done (again in every
            # later turn in which this player takes a chip and is still entitled).
            self._asking = True

    def _choose_bonus(self, take: bool) -> None:
        """Take or decline the last bonus tile, then the turn ends."""
        if not self._asking:
            raise IllegalStepError(N_("bonus: no bonus tile is offered now"))
        player = self._current
        tile = self._tiles_left[0]
        if take:
            self._tiles_left = ()
            self._bonus = self._bonus[:player] + (self._bonus[player] + (tile,),) + self._bonus[player + 1 :]
            if self._events is not None:
                self._events.append({"kind": "bonus", "player": player, "tile": tile})
            self._trigger_end("bonus")
        elif self._events is not None:
            self._events.append({"kind": "bonus_declined", "player": player, "tile": tile})
        self._asking = False
        self._end_turn()

    def _close(self, row: int) -> None:
        """The stack is empty: the row closes and every piece in it leaves the game for good."""
        gone = []
        lost = list(self._lost)
        for owner in range(len(self.players)):
            if self._pieces[owner * _WIDTH + row] is not None:
                self._pieces[owner * _WIDTH + row] = None
                lost[owner] += 1
                gone.append(owner)
        self._lost = tuple(lost)
        self._x_holders[row] = None
        self._closed += 1
        if self._events is not None:
            self._events.append({"kind": "close", "row": ROWS[row], "lost": gone})
        if self._closed >= STACKS_TO_END:
            self._trigger_end("stacks")

    def _trigger_end(self, reason: str) -> None:
        if not self._end_triggered:
            self._end_triggered = True
            if self._events is not None:
                self._events.append({"kind": "end_triggered", "reason": reason})

    def _end_groups(self) -> None:
        """The turn's groups are played: the turn ends, unless the last tile is offered."""
        if self._asking:
            self._faces = None
            self._ones_turned = False
            if self._events is not None:
                self._events.append({"kind": "bonus_offer", "player": self._current, "tile": self._tiles_left[0]})
            return
        self._end_turn()

    def _end_turn(self) -> None:
        self._faces = None
        self._ones_turned = False
        if self._current == len(self.players) - 1:
            if self._end_triggered:
                self._over = True
                if self._events is not None:
                    self._events.append({"kind": "game_over", "winners": winners_of(self.scores)})
                return
            self._current = 0
            self._round += 1
        else:
            self._current += 1
        if self._events is not None:
            self._events.append({"kind": "turn", "player": self._current, "round": self._round})


def outcomes(game_or_faces: LevelX | Sequence[int]) -> list[Outcome]:
    """The distinct outcomes of the legal groupings: same sums (as a multiset) = same outcome.

    Ordered by number of groups (most first), then by the ascending sums lexicographically, so
    "none" comes last. Each carries the first grouping of `legal_decisions` order giving it.
    A game with no grouping pending (roll pending, or over) has none.

        >>> [o.label for o in outcomes((2, 3, 5, 6))][:3]
        ['5+5+6', '5+5', '5+6']
    """
    if isinstance(game_or_faces, LevelX):
        faces = game_or_faces.faces
        if faces is None or game_or_faces.is_over():
            return []
    else:
        faces = tuple(game_or_faces)
        if len(faces) != DICE_COUNT or any(type(f) is not int or f not in FACES for f in faces):
            raise IllegalStepError(
                N_("outcomes: LEVEL X needs {n} faces 1–6, not {faces}"), n=DICE_COUNT, faces=list(faces)
            )
    sums, bad = _sums_for(faces)
    found: dict[tuple[int, ...], Groups] = {}
    for groups, masks, needs in _GROUPINGS:
        if not needs & bad:
            found.setdefault(tuple(sorted(sums[mask] for mask in masks)), groups)
    ordered = sorted(found, key=lambda key: (-len(key), key))
    return [Outcome("+".join(map(str, key)) or "none", key, found[key]) for key in ordered]


__all__ = [
    "BONUS_TILES",
    "Bonus",
    "CHIPS",
    "DICE_COUNT",
    "FIELDS",
    "PIECES",
    "ROWS",
    "Groups",
    "LevelX",
    "Outcome",
    "TurnOnes",
    "outcomes",
]
