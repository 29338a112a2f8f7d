"""EXXTRA (Reiner Knizia, 3–6 players): roll two dice, push your luck, claim a rung of the ladder.

The rules, and the decisions the engine made where they are silent, are in docs/rules/exxtra.md.

    >>> game = Exxtra(["Alex", "Beatrice", "Carl"])
    >>> game.apply(Roll(("7", "X")))          # first roll of the turn: X counts 0
    >>> game.current_combination
    '70'
    >>> game.legal_decisions()[:3]
    [Reroll(), Place(rung=0), Place(rung=1)]
    >>> game.apply(Place(5))
    >>> game.ladder[5], game.current_player
    ((LadderPair(player=0, combination='70'),), 1)
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any, ClassVar, NamedTuple, cast

from firmware.errors import N_, IllegalStepError, RecordError, Text
from firmware.games.base import OVER, Game, Pending, Roll, Step, parse_roll, pending_values
from firmware.dice import Face
from firmware.games.exxtra.events import Cause, ExxtraEvent

DIE_A: tuple[str, ...] = ("1", "2", "3", "4", "7", "X")
DIE_B: tuple[str, ...] = ("1", "2", "3", "5", "6", "X")
FINISH = 21
TOP_RUNG = 5


@dataclass(frozen=True, slots=True)
class Reroll:
    """Roll again instead of accepting the current (valid) combination."""

    def to_json(self) -> dict[str, object]:
        return {"do": "reroll"}


@dataclass(frozen=True, slots=True)
class Place:
    """Accept the current combination and put the dice on `rung` (0–5)."""

    rung: int

    def to_json(self) -> dict[str, object]:
        return {"do": "place", "rung": self.rung}


Decision = Reroll | Place  # what an EXXTRA player decides on a roll
ExxtraStep = Roll | Decision  # an EXXTRA step (`Exxtra.parse_step`)


class LadderPair(NamedTuple):
    """A pair of dice lying on the ladder: whose it is and the combination it shows."""

    player: int
    combination: str


def _face_value(face: str) -> int:
    return 0 if face == "X" else int(face)


def _check_faces(faces: Sequence[str]) -> None:
    if len(faces) != 2:
        raise IllegalStepError(N_("an EXXTRA roll is 2 dice (die A, die B), not {n}"), n=len(faces))
    for label, face, die in (("A", faces[0], DIE_A), ("B", faces[1], DIE_B)):
        if face not in die:
            raise IllegalStepError(
                N_("die {die} has no face {face!r} (faces: {faces})"), die=label, face=face, faces=list(die)
            )


def combination(faces: Sequence[str], first_roll: bool) -> str | None:
    """The combination two faces make, higher face first; None when the roll is invalid
    (an X on a later roll of the turn). On the first roll X counts 0.

    >>> combination(("7", "X"), True), combination(("2", "6"), False), combination(("X", "1"), False)
    ('70', '62', None)
    """
    _check_faces(faces)
    value = _value_of(faces[0], faces[1], bool(first_roll))
    return None if value < 0 else _combination_text(value)


def combination_value(combo: str) -> int:
    """A combination as a number that orders like the rules compare (higher face, then lower):
    "71" → 71 > "64" → 64; "00" → 0."""
    if len(combo) != 2 or not combo.isdigit() or combo[0] < combo[1]:
        raise IllegalStepError(N_("{combo!r} is not a combination (two digits, higher first)"), combo=combo)
    return int(combo)


def _compute_value(a: str, b: str, first_roll: bool) -> int:
    if not first_roll and (a == "X" or b == "X"):
        return -1
    va, vb = _face_value(a), _face_value(b)
    return va * 10 + vb if va >= vb else vb * 10 + va


# Every roll's value on a first and on a later roll, and every value's text: table look-ups
# on the hot path.
_VALUES: dict[tuple[str, str, bool], int] = {
    (a, b, first): _compute_value(a, b, first) for a in DIE_A for b in DIE_B for first in (True, False)
}
_TEXTS: tuple[str, ...] = tuple(f"{value // 10}{value % 10}" for value in range(100))


# The same per roll (die A's face, die B's face), for the engine's fast `apply`: (value on a
# later roll, value on the first roll), indexed by `first_roll` as 0 or 1.
_ROLL_VALUES: dict[tuple[str, str], tuple[int, int]] = {
    (a, b): (_compute_value(a, b, False), _compute_value(a, b, True)) for a in DIE_A for b in DIE_B
}
# The same, but -1 where the roll does more than set the roll being decided on (an X after
# the first roll, or doubles): the fast `apply`'s common case in one look-up.
_PLAIN_VALUES: dict[tuple[str, str], tuple[int, int]] = {
    faces: (-1, -1) if faces[0] == faces[1] else values for faces, values in _ROLL_VALUES.items()
}


def _value_of(a: str, b: str, first_roll: bool) -> int:
    """Combination as high*10+low, or -1 if an X makes it invalid."""
    return _VALUES[a, b, first_roll]


def _combination_text(value: int) -> str:
    return _TEXTS[value]


# `legal_decisions` per ladder (the owners of rungs 0–5 as a tuple), filled as ladders occur.
_LEGAL: dict[tuple[int, ...], tuple[Decision, ...]] = {}


class Exxtra(Game):
    """The EXXTRA rules engine.

    Public read-only state (the UI draws from these and never re-derives a rule):
    - `current_player`: whose turn it is (the winner once the game is over).
    - `positions`: each player's counter, 0 (start) to 21 (finish).
    - `ladder`: 6 tuples of `LadderPair(player, combination)`, index = rung; rung 0 holds any
      number of pairs (in the order they were placed), rungs 1–5 none or one.
    - `rung_of`: per player, the rung their dice lie on, or None (dice in hand).
    - `current_roll` / `current_combination`: the valid roll awaiting a decision (faces as rolled,
      die A then die B) and its combination ("70"); None when no decision is pending.
    - `first_roll`: the pending roll, or the roll being decided on, is the turn's first (X = 0).
    - `rolls_this_turn`: rolls made so far in the current turn.
    - `winner`: the player who reached the finish, or None.
    - `events`: what the last applied step did, in order (see docs/rules/exxtra.md), e.g.
      `{"kind": "move", "player": 0, "from": 3, "to": 7, "cause": "rung"}`.
    - `would_remove(rung)`: the pairs placing the current combination on `rung` would remove.
    """

    name: ClassVar[str] = "exxtra"
    title: ClassVar[str] = "EXXTRA"
    min_players: ClassVar[int] = 3
    max_players: ClassVar[int] = 6
    _actors: list[int | None]  # every step's actor is kept (the fast `apply` appends to it)

    _DICE: ClassVar[tuple[tuple[str, ...], ...]] = (DIE_A, DIE_B)
    _OVER: ClassVar[Pending] = Pending(OVER)
    _REROLL: ClassVar[Reroll] = Reroll()
    _PLACES: ClassVar[tuple[Place, ...]] = tuple(Place(r) for r in range(TOP_RUNG + 1))

    # --- set-up and protocol -------------------------------------------------------------
    def _setup(self) -> None:
        count = len(self.players)
        self._positions: list[int] = [0] * count
        self._rung_of: list[int] = [-1] * count  # -1: dice in hand
        self._placed_value: list[int] = [0] * count  # combination of the pair on the ladder
        self._owner: list[int] = [-1] * (TOP_RUNG + 1)  # rungs 1–5; index 0 unused
        self._zero: list[int] = []  # players on rung 0, in placement order
        self._current = 0
        self._rolls = 0
        self._faces: tuple[str, str] | None = None
        self._value = -1
        self._winner: int | None = None
        self._events: list[ExxtraEvent] | None = []  # None: not built yet (see Game.events)
        # Pending values are immutable: shared, pending() is called on every step
        self._to_roll, self._to_decide = pending_values(count)

    def _snapshot(self, step: Step) -> tuple[object, ...]:
        if isinstance(step, Reroll):  # a reroll changes only the roll being decided on
            return (self._faces, self._value, self._events)
        if isinstance(step, Roll):  # faces already checked: a valid roll without doubles
            a, b = step.faces  # changes only the roll and the roll count
            if a != b and _value_of(a, b, self._rolls == 0) >= 0:
                return (self._faces, self._value, self._events, self._rolls)
        return self._full_record()

    def _full_record(self) -> tuple[object, ...]:
        return (
            self._faces,
            self._value,
            self._events,
            tuple(self._positions),
            tuple(self._rung_of),
            tuple(self._placed_value),
            tuple(self._owner),
            tuple(self._zero),
            self._current,
            self._rolls,
            self._winner,
        )

    def _restore(self, record: Any) -> None:  # Any: one of `_snapshot`'s tuples (see there)
        self._faces, self._value, self._events = record[0], record[1], record[2]
        if len(record) == 4:
            self._rolls = record[3]
        elif len(record) == 5:  # the fast `apply`'s record of a place: undo it step by step
            self._rolls = record[3]
            player, rung, owner, value, back, index, position = record[4]
            self._current, self._winner = player, None  # a place is applied only before a win
            following = player + 1 if player + 1 < len(self._positions) else 0
            self._positions[following] = position
            zero = self._zero
            if back == 0:
                zero.insert(index, following)
            if rung == 0:  # the placed pair came last on rung 0 (after the return above)
                zero.pop()
            self._owner = list(owner)
            rung_of = self._rung_of
            rung_of[player] = -1  # the turn's player holds their dice
            rung_of[following] = back
            for higher in range(1, TOP_RUNG + 1):  # pairs placing removed, and the returned one
                other = owner[higher]
                if other >= 0:
                    rung_of[other] = higher
            self._placed_value[player] = value
        elif len(record) > 4:
            (self._positions, self._rung_of, self._placed_value, self._owner, self._zero) = (
                list(record[3]),
                list(record[4]),
                list(record[5]),
                list(record[6]),
                list(record[7]),
            )
            self._current, self._rolls, self._winner = record[8], record[9], record[10]

    def _copy_into(self, twin: Exxtra) -> None:
        twin._positions = self._positions.copy()
        twin._rung_of = self._rung_of.copy()
        twin._placed_value = self._placed_value.copy()
        twin._owner = self._owner.copy()
        twin._zero = self._zero.copy()
        if self._events is not None:
            twin._events = self._events.copy()

    def apply(self, step: Step) -> None:
        """`Game.apply` with its one fast path: any roll of known faces, a reroll and placing
        on a free rung, checked as the plain path checks them, go to the same rules
        (`_apply_roll`, `_apply_place`) with the events unbuilt (`Game.events` builds them when
        read) and a leaner undo record; anything else, and every refused step, takes the plain
        path."""
        kind = type(step)
        faces = self._faces
        if self._winner is not None:
            pass
        elif kind is Roll:
            if faces is None:
                rolled = cast(Roll, step).faces
                try:
                    plain = _PLAIN_VALUES.get(rolled)
                except TypeError:  # unhashable faces: the plain path names the bad one
                    plain = None
                if plain is not None:
                    rolls = self._rolls
                    value = plain[rolls == 0]
                    if value >= 0:  # no doubles, no X: only the roll changes
                        self._undo_stack.append((faces, self._value, self._events, rolls))
                        self._events = None
                        self._rolls = rolls + 1  # `_apply_roll`'s common case: the roll is decided on
                        self._faces = rolled
                        self._value = value
                    else:
                        a, b = rolled
                        self._undo_stack.append(self._full_record())
                        self._events = None
                        self._apply_roll(a, b, _ROLL_VALUES[a, b][rolls == 0])
                    self.history.append(step)
                    self._actors.append(None)
                    return
        elif faces is not None:
            if kind is Place:
                rung = cast(Place, step).rung
                owner = self._owner
                if type(rung) is int and 0 <= rung <= TOP_RUNG and (rung == 0 or owner[rung] < 0):
                    player, value = self._current, self._value
                    positions, rung_of, values, zero = self._positions, self._rung_of, self._placed_value, self._zero
                    following = player + 1 if player + 1 < len(positions) else 0
                    back = rung_of[following]
                    index = zero.index(following) if back == 0 else -1
                    # What placing can change besides the ladder (see _restore): the player's
                    # old combination, and the next player's dice coming back (rung, place on
                    # rung 0, position before moving up).
                    self._undo_stack.append(
                        (
                            faces,
                            value,
                            self._events,
                            self._rolls,
                            (player, rung, tuple(owner), values[player], back, index, positions[following]),
                        )
                    )
                    self._events = None
                    self._apply_place(rung)  # the rules, as on the plain path, without events
                    self.history.append(step)
                    self._actors.append(player)
                    return
            elif kind is Reroll:
                self._undo_stack.append((faces, self._value, self._events))
                self._events = None
                self._reroll()
                self.history.append(step)
                self._actors.append(self._current)
                return
        Game.apply(self, step)

    def pending(self) -> Pending:
        if self._winner is not None:
            return self._OVER
        return (self._to_decide if self._faces is not None else self._to_roll)[self._current]

    def dice(self) -> tuple[tuple[str, ...], ...]:
        return self._DICE

    def legal_decisions(self) -> list[Decision]:
        """[Reroll(), Place(0), then Place(r) for each empty rung 1..5 ascending]; [] unless a
        decision is pending."""
        if self._faces is None or self._winner is not None:
            return []
        owner = tuple(self._owner)
        decisions = _LEGAL.get(owner)
        if decisions is None:  # at most 7**5 ladders (who is on rungs 1–5): built as they come
            places = self._PLACES
            decisions = _LEGAL[owner] = (self._REROLL, places[0]) + tuple(
                places[r] for r in range(1, TOP_RUNG + 1) if owner[r] < 0
            )
        return list(decisions)

    def result(self) -> dict[str, Any] | None:  # Any: as `Game.result`
        if self._winner is None:
            return None
        return {"positions": list(self._positions), "winners": [self._winner]}

    @classmethod
    def parse_step(cls, data: object) -> ExxtraStep:
        if not isinstance(data, Mapping):
            raise RecordError(Text(N_("an EXXTRA step must be an object, not {data!r}"), data=data))
        if "roll" in data:
            if "do" in data:
                raise RecordError(Text(N_("an EXXTRA step has either 'roll' or 'do', not both")))
            return parse_roll(data, 2, str)
        action = data.get("do")
        if action == "reroll":
            if "rung" in data:
                raise RecordError(Text(N_("'rung' belongs to a place step, not to a reroll")))
            return cls._REROLL
        if action == "place":
            rung = data.get("rung")
            if type(rung) is not int or not 0 <= rung <= TOP_RUNG:
                raise RecordError(Text(N_("'rung' must be an integer 0–{top}, not {rung!r}"), top=TOP_RUNG, rung=rung))
            return cls._PLACES[rung]
        raise RecordError(
            Text(N_("an EXXTRA step needs 'roll' or 'do' ('reroll' or 'place'), not {data!r}"), data=dict(data))
        )

    def _apply(self, step: Step) -> None:
        # The plain path: every step builds its events (the fast `apply` leaves them to later).
        if isinstance(step, Roll):
            a, b = step.faces
            self._events = []
            self._apply_roll(a, b, _value_of(a, b, self._rolls == 0))
        elif isinstance(step, Reroll):
            self._events = [{"kind": "reroll", "player": self._current}]
            self._reroll()
        elif isinstance(step, Place):
            self._check_place(step.rung)
            self._events = []
            self._apply_place(step.rung)
        else:
            raise IllegalStepError(N_("{step!r} is not an EXXTRA step (a roll, reroll or place)"), step=step)

    # --- public state --------------------------------------------------------------------
    @property
    def current_player(self) -> int:
        return self._current

    @property
    def positions(self) -> tuple[int, ...]:
        return tuple(self._positions)

    @property
    def ladder(self) -> tuple[tuple[LadderPair, ...], ...]:
        values = self._placed_value
        rungs = [tuple(LadderPair(p, _combination_text(values[p])) for p in self._zero)]
        for rung in range(1, TOP_RUNG + 1):
            p = self._owner[rung]
            rungs.append((LadderPair(p, _combination_text(values[p])),) if p >= 0 else ())
        return tuple(rungs)

    @property
    def rung_of(self) -> tuple[int | None, ...]:
        return tuple(None if r < 0 else r for r in self._rung_of)

    @property
    def current_roll(self) -> tuple[str, str] | None:
        return self._faces

    def shown_faces(self) -> tuple[Face, ...]:
        """The roll being decided on, else the last roll's faces."""
        return self._faces if self._faces is not None else super().shown_faces()

    @property
    def current_combination(self) -> str | None:
        return None if self._faces is None else _combination_text(self._value)

    @property
    def first_roll(self) -> bool:
        return self._rolls == (1 if self._faces is not None else 0)

    @property
    def rolls_this_turn(self) -> int:
        return self._rolls

    @property
    def winner(self) -> int | None:
        return self._winner

    def would_remove(self, rung: int) -> tuple[LadderPair, ...]:
        """Pairs (on rungs above `rung`) that placing the current combination there would remove;
        () when no decision is pending."""
        if self._faces is None:
            return ()
        values = self._placed_value
        return tuple(
            LadderPair(p, _combination_text(values[p]))
            for r in range(max(rung, 0) + 1, TOP_RUNG + 1)
            if (p := self._owner[r]) >= 0 and values[p] <= self._value
        )

    # --- the rules -----------------------------------------------------------------------
    # Each rule appends its events to `self._events` when that is a list (the plain path) and
    # builds none when it is None (the fast `apply`): one implementation of the rules for both.
    def _apply_roll(self, a: str, b: str, value: int) -> None:
        player = self._current
        first = self._rolls == 0
        self._rolls += 1
        events = self._events
        if events is not None:
            events.append(
                {
                    "kind": "roll",
                    "player": player,
                    "faces": (a, b),
                    "combination": None if value < 0 else _combination_text(value),
                    "first": first,
                }
            )
        if value < 0:  # an X after the first roll: back one space per X, turn over
            xs = (a == "X") + (b == "X")
            before = self._positions[player]
            after = max(0, before - xs)
            self._positions[player] = after
            if events is not None:
                events.append({"kind": "invalid", "player": player, "xs": xs})
                events.append({"kind": "move", "player": player, "from": before, "to": after, "cause": "x"})
            self._next_turn()
            return
        self._faces = (a, b)
        self._value = value
        if a == b and a != "X":  # doubles 1-1, 2-2, 3-3 (the only ones the dice allow)
            self._advance(player, int(a), "double")

    def _reroll(self) -> None:
        """The roll being decided on is given up: the same player rolls again."""
        self._faces = None
        self._value = -1

    def _check_place(self, rung: object) -> None:
        if type(rung) is not int or not 0 <= rung <= TOP_RUNG:
            raise IllegalStepError(N_("placing: rung must be 0–{top}, not {rung!r}"), top=TOP_RUNG, rung=rung)
        owner = self._owner
        if rung > 0 and owner[rung] >= 0:
            raise IllegalStepError(
                N_("placing: rung {rung} is taken by player {player}; rungs 1–5 hold one pair (rung 0 any number)"),
                rung=rung,
                player=owner[rung],
            )

    def _apply_place(self, rung: int) -> None:
        """Place the current combination on `rung` (already checked by `_check_place`)."""
        owner = self._owner
        player, value = self._current, self._value
        events = self._events
        if events is not None:
            events.append({"kind": "place", "player": player, "rung": rung, "combination": _combination_text(value)})
        values, rung_of = self._placed_value, self._rung_of
        above = owner[rung + 1 :]
        for higher in range(rung + 1, TOP_RUNG + 1) if above and max(above) >= 0 else ():
            other = owner[higher]
            if other >= 0 and values[other] <= value:  # equal or lower on a higher rung goes back
                owner[higher] = -1
                rung_of[other] = -1
                if events is not None:
                    events.append(
                        {
                            "kind": "remove",
                            "player": other,
                            "rung": higher,
                            "combination": _combination_text(values[other]),
                            "by": player,
                        }
                    )
        rung_of[player] = rung
        values[player] = value
        if rung == 0:
            self._zero.append(player)
        else:
            owner[rung] = player
        self._next_turn()

    def _advance(self, player: int, spaces: int, cause: Cause) -> None:
        before = self._positions[player]
        after = min(FINISH, before + spaces)
        self._positions[player] = after
        events = self._events
        if events is not None:
            events.append({"kind": "move", "player": player, "from": before, "to": after, "cause": cause})
        if after == FINISH:
            self._winner = player
            self._faces = None
            self._value = -1
            if events is not None:
                events.append({"kind": "win", "player": player})

    def _next_turn(self) -> None:
        """Pass the turn on; a player whose dice lie on rung r moves r and takes them back."""
        player = self._current + 1
        if player == len(self._positions):
            player = 0
        self._current = player
        self._rolls = 0
        self._faces = None
        self._value = -1
        events = self._events
        if events is not None:
            events.append({"kind": "turn", "player": player})
        rung = self._rung_of[player]
        if rung < 0:
            return
        self._rung_of[player] = -1
        if rung == 0:
            self._zero.remove(player)
        else:
            self._owner[rung] = -1
        if events is not None:
            events.append(
                {
                    "kind": "return",
                    "player": player,
                    "rung": rung,
                    "combination": _combination_text(self._placed_value[player]),
                }
            )
        if rung > 0:
            self._advance(player, rung, "rung")
