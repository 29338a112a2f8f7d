"""The protocol every rules engine offers; bots, the board's loop and records use only this.

A game is a record: its players plus the list of steps applied so far (`history`). A step is
either a `Roll` (a chance outcome, chosen by a dice source outside the engine) or one of the
game's own decision types. Every step is a small frozen value that converts to and from the
JSON of a game record (see docs/records.md).

    >>> from firmware.games import new_game
    >>> from firmware.dice import SeededDice
    >>> game = new_game("exxtra", ["Alex", "Beatrice", "Carl"])
    >>> game.pending()
    Pending(kind='roll', player=0)
    >>> game.roll(SeededDice(1))                    # doctest: +SKIP
    >>> game.apply(game.legal_decisions()[0])       # doctest: +SKIP

Engines are pure: no I/O, no clock and no randomness of their own.

Search bots apply, undo and copy many times per decision, so none of these replays: `apply`
pushes a small undo record (what the step is about to change) onto a stack, `undo` pops it,
`copy` copies the state itself.
"""

from __future__ import annotations

from abc import ABC, abstractmethod
from copy import deepcopy
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from functools import cache, lru_cache
from itertools import product
from typing import Any, ClassVar, Literal, NotRequired, Protocol, Self, TypedDict

from firmware.dice import DiceSource, Face
from firmware.errors import N_, IllegalStepError, RecordError, Text

# The record format this firmware writes, and every version it reads (docs/records.md):
# version 2 added LEVEL X's choice of the last bonus tile; version 1 records replay as before.
RECORD_VERSION = 2
RECORD_VERSIONS = (1, 2)

ROLL: Literal["roll"] = "roll"
DECISION: Literal["decision"] = "decision"
OVER: Literal["over"] = "over"


class DiceBlock(TypedDict):
    """A record's dice block (docs/dice.md): the commitment, and the seed once the game is over."""

    scheme: str
    commit: str
    word: NotRequired[str]
    physical: NotRequired[bool]
    seed: NotRequired[str]


class RecordHeader(TypedDict):
    """A game record without its steps and result, as the journal keeps it (docs/records.md)."""

    format: str
    version: int
    game: str
    players: list[dict[str, object]]  # `Player.to_json` each
    dice: NotRequired[DiceBlock]


class GameRecord(RecordHeader):
    """A game record as the board writes it (docs/records.md); `records.header_of` checks one read."""

    steps: list[dict[str, object]]  # each step's `to_json`, with the table's marks
    result: NotRequired[dict[str, Any]]  # Any: shaped per game (docs/records.md), read by its keys
    notes: NotRequired[list[str]]


@dataclass(frozen=True)
class Player:
    """A seat: its name, the bot level playing it (None for a person), EXTRA!'s children option."""

    name: str
    bot: str | None = None
    kids: bool = False

    def to_json(self) -> dict[str, object]:
        data: dict[str, object] = {"name": self.name}
        if self.bot is not None:
            data["bot"] = self.bot
        if self.kids:
            data["kids"] = True
        return data

    @classmethod
    def from_json(cls, data: object) -> Player:
        if not isinstance(data, Mapping) or not isinstance(data.get("name"), str):
            raise RecordError(Text(N_("a player must be an object with a string 'name', not {data!r}"), data=data))
        bot, kids = data.get("bot"), data.get("kids", False)
        if bot is not None and not isinstance(bot, str):
            raise RecordError(
                Text(N_("player {name!r}: 'bot' must be a level name, not {bot!r}"), name=data["name"], bot=bot)
            )
        if not isinstance(kids, bool):
            raise RecordError(
                Text(N_("player {name!r}: 'kids' must be true or false, not {kids!r}"), name=data["name"], kids=kids)
            )
        name: str = data["name"]
        return cls(name, bot, kids)


@dataclass(frozen=True)
class Pending:
    """What the game waits for: a `roll` (pressed by `player`), a `decision` by `player`, or
    nothing because it is `over` (player None)."""

    kind: Literal["roll", "decision", "over"]
    player: int | None = None


Dice = tuple[tuple[Face, ...], ...]  # the faces of each die of a roll


@dataclass(frozen=True)
class Roll:
    """A chance step: one face per die, in the order of `Game.dice()`."""

    # Each engine reads its own dice' faces as their type (str or int), which `apply` checked
    # against its `dice()` before the engine sees them.
    faces: tuple[Any, ...]  # Any: str or int faces, per game (see above)

    def to_json(self) -> dict[str, object]:
        return {"roll": list(self.faces)}


class Decision(Protocol):
    """What every game's decisions are: small frozen values that write themselves as a record's
    step. Each game has its own decision types; a game's `Step` is the union of them and `Roll`."""

    def to_json(self) -> dict[str, object]: ...


# A step of any game: what `Game.apply` takes and `history` holds.
Step = Roll | Decision
# What a step did, one mapping per event, with a string "kind" (each game's own TypedDicts
# in games/<game>/events.py). The values' types depend on the game and the kind, so a reader
# narrows by them; the engines build theirs as those TypedDicts.
Event = Mapping[str, Any]  # Any: per game and kind (see above)
Events = Sequence[Event]  # one step's events, in order


@cache
def pending_values(count: int) -> tuple[tuple[Pending, ...], tuple[Pending, ...]]:
    """`Pending` roll and decision values for seats 0..count-1: immutable, so every game of
    `count` players shares them (built once, not on every new game)."""
    return tuple(Pending(ROLL, p) for p in range(count)), tuple(Pending(DECISION, p) for p in range(count))


@lru_cache(maxsize=256)
def _seat(name: str) -> Player:
    """The seat of a person called `name`: immutable, so games share it (benches and arenas
    make many games)."""
    return Player(name)


@cache
def _roll_set(dice: Dice) -> frozenset[tuple[Face, ...]]:
    """Every roll `dice` can show: one membership test checks a roll's faces."""
    return frozenset(product(*dice))


# What the protocol itself keeps on a game; the rest of __dict__ is the game's own state.
_PROTOCOL_STATE = frozenset(
    {"players", "history", "_actors", "_undo_stack", "_dice_seen", "_rolls_seen", "record_version"}
)


class Game(ABC):
    """Base of the three rules engines. Subclasses set the class constants and implement the
    abstract methods; `apply` here checks the phase (roll or decision) and the dice faces, the
    subclass checks its own rules in `_apply` *before* changing anything.

    What a search bot uses besides `pending`, `dice`, `legal_decisions` and `apply`:
    - `undo()` takes back the last step from an undo stack (no replay; cost independent of the
      game's length), so apply/undo walks a tree of positions like python-chess's push/pop.
    - `copy()` copies the state directly (no replay); the twin has the same history and can
      undo as far back as the original.
    - `actor(index)`: the player who made history step `index`, None for a roll.

    A subclass may keep its undo stack cheap through three hooks (the defaults deep-copy the
    game's own state, which is right for any game but slower): `_snapshot(step)` (called just
    before `_apply`, returns an immutable record of everything that step may change),
    `_restore(record)` and `_copy_into(twin)` (give the twin its own mutable containers).
    """

    name: ClassVar[str]
    title: ClassVar[str]
    min_players: ClassVar[int]
    max_players: ClassVar[int]
    # What the last step did; None while a fast `apply` left it unbuilt (see `events`).
    # Each engine sets it in `_setup`.
    _events: Sequence[Event] | None

    def __init__(self, players: Sequence[Player | str]) -> None:
        seats = tuple([_seat(p) if type(p) is str else p if isinstance(p, Player) else Player(p) for p in players])
        if not self.min_players <= len(seats) <= self.max_players:
            raise IllegalStepError(
                N_("{game} is for {low} to {high} players, not {n}"),
                game=self.title,
                low=self.min_players,
                high=self.max_players,
                n=len(seats),
            )
        self.players: tuple[Player, ...] = seats
        self.history: list[Step] = []
        # who made each history step (None for rolls); None itself in an engine whose steps
        # name their player (it overrides `actor`): one list fewer to keep per step
        self._actors: list[int | None] | None = []
        self._undo_stack: list[object] = []  # one _snapshot record per history step
        self._dice_seen: Dice | None = None  # the last dice() a roll was checked against...
        self._rolls_seen: frozenset[tuple[Face, ...]] = frozenset()  # ...and every roll they allow
        self.record_version = RECORD_VERSION  # the record version whose rules this game plays
        self._setup()

    # --- what each game implements -------------------------------------------------------
    @abstractmethod
    def _setup(self) -> None:
        """Set the starting position (called by __init__)."""

    # The three hooks below work for any game as they are (a deep copy of the game's own
    # state); the built-in engines override them with cheaper, step-specific records.
    # Undo records are opaque to the protocol: each engine's `_restore` reads only what its
    # own `_snapshot` wrote (tuples of its state, shaped per kind of step): that shape is the
    # engine's private business and varies per record.
    def _snapshot(self, step: Step) -> Any:  # Any: an undo record (see above)
        """A record from which `_restore` puts back whatever applying `step` (a roll or
        decision that passed the phase checks) may change, events included."""
        return deepcopy(self._own_state())

    def _restore(self, record: Any) -> None:  # Any: an undo record (see above)
        """Put back the state a `_snapshot` record saved."""
        self.__dict__.update(deepcopy(record))

    def _copy_into(self, twin: Self) -> None:
        """Give `twin` (a shallow copy of this game) its own copies of the mutable state."""
        twin.__dict__.update(deepcopy(self._own_state()))

    def _own_state(self) -> dict[str, object]:
        return {k: v for k, v in self.__dict__.items() if k not in _PROTOCOL_STATE}

    @abstractmethod
    def pending(self) -> Pending:
        """A roll, whose decision, or over."""

    @abstractmethod
    def dice(self) -> Dice:
        """The faces of each die of the pending roll."""

    @abstractmethod
    def legal_decisions(self) -> Sequence[Decision]:
        """Every decision allowed now (empty unless a decision is pending)."""

    @abstractmethod
    def _apply(self, step: Step) -> None:
        """Apply a roll or decision; raise IllegalStepError naming the rule before any change."""

    @abstractmethod
    def result(self) -> dict[str, Any] | None:  # Any: a record's JSON, shaped per game
        """The final result in the shape of docs/records.md, or None while the game goes on."""

    @classmethod
    def for_record(cls, players: Sequence[Player | str], version: int) -> Game:
        """A new game under the rules of record `version` (one of RECORD_VERSIONS), written back
        with that version. A game whose rules changed between versions overrides this."""
        game = cls(players)
        game.record_version = version
        return game

    @classmethod
    @abstractmethod
    def parse_step(cls, data: object) -> Step:
        """A step from its record JSON; RecordError if it is not one of this game's steps."""

    # --- the shared protocol -------------------------------------------------------------
    def apply(self, step: Step) -> None:
        """Apply one step; an illegal one raises IllegalStepError and changes nothing."""
        pending = self.pending()
        kind = pending.kind
        if kind == OVER:
            raise IllegalStepError(N_("the game is over: no more steps"))
        actor: int | None = None
        if isinstance(step, Roll):
            if kind != ROLL:
                raise IllegalStepError(N_("player {player} has a decision to make; no roll now"), player=pending.player)
            dice = self.dice()
            if dice is not self._dice_seen:  # engines return constant dice: hash them once
                self._dice_seen, self._rolls_seen = dice, _roll_set(dice)
            try:
                known = step.faces in self._rolls_seen
            except TypeError:  # unhashable faces: the check below names the bad one
                known = False
            if not known:
                self._check_roll(step, dice)
        elif kind == ROLL:
            raise IllegalStepError(N_("the dice must be rolled first"))
        else:
            actor = pending.player
        record = self._snapshot(step)
        self._apply(step)
        self._undo_stack.append(record)
        self.history.append(step)
        if self._actors is not None:
            self._actors.append(actor)

    @staticmethod
    def _check_roll(step: Roll, dice: Dice) -> None:
        """Raise IllegalStepError naming the first die whose face `step` cannot show."""
        if len(step.faces) != len(dice):
            raise IllegalStepError(N_("a roll here is {want} dice, not {got}"), want=len(dice), got=len(step.faces))
        for i, (face, faces) in enumerate(zip(step.faces, dice)):
            if face not in faces:
                raise IllegalStepError(
                    N_("die {die} has no face {face!r} (faces: {faces})"), die=i, face=face, faces=list(faces)
                )

    def apply_json(self, data: object) -> Step:
        """Parse one record step and apply it; returns the step."""
        step = self.parse_step(data)
        self.apply(step)
        return step

    def roll(self, source: DiceSource) -> Roll:
        """Ask `source` for the pending roll and apply it."""
        step = Roll(tuple(source.roll(self.dice())))
        self.apply(step)
        return step

    def is_over(self) -> bool:
        return self.pending().kind == OVER

    def shown_faces(self) -> tuple[Face, ...]:
        """The dice the deciding player sees: the last roll's faces (() before any). A game
        whose dice change after the roll (turned ones) or go back to the hand overrides it."""
        rolls = [step for step in self.history if isinstance(step, Roll)]
        return rolls[-1].faces if rolls else ()

    def undo(self) -> Step:
        """Take back the last step (of any kind) and return it; restored from the undo stack."""
        if not self.history:
            raise IllegalStepError(N_("nothing to undo: no step has been played"))
        self._restore(self._undo_stack.pop())
        if self._actors is not None:
            self._actors.pop()
        return self.history.pop()

    def copy(self) -> Self:
        """An independent game with the same players, history and state (copied, not replayed)."""
        twin = object.__new__(type(self))
        twin.__dict__.update(self.__dict__)
        twin.history = list(self.history)
        twin._actors = None if self._actors is None else list(self._actors)
        twin._undo_stack = list(self._undo_stack)  # records are immutable: sharing them is safe
        self._copy_into(twin)
        return twin

    @property
    def events(self) -> Sequence[Event]:
        """What the last applied step did (each game documents its events); [] before any.

        An engine's fast `apply` may leave them unbuilt (`_events` None) since search bots
        never read them: the first read builds them by applying that step again, through the
        plain path, to a copy taken back one step, so the UI reads the same events either way.
        """
        events = self._events
        if events is None:
            twin = self.copy()
            Game.apply(twin, twin.undo())
            events = self._events = twin.events  # built: the plain path applied that step
        return events

    @events.setter
    def events(self, value: Sequence[Event]) -> None:
        self._events = value

    def actor(self, index: int) -> int | None:
        """Who made history step `index` (negative counts from the end): the deciding player,
        or None for a roll. IndexError when there is no such step.

            >>> from firmware.games import new_game
            >>> game = new_game("exxtra", ["Alex", "Beatrice", "Carl"])
            >>> game.apply(Roll(("7", "X"))); game.apply(game.legal_decisions()[1])
            >>> game.actor(0), game.actor(1)
            (None, 0)
        """
        actors = self._actors
        if actors is None:  # an engine whose steps name their player keeps none
            raise NotImplementedError(f"{type(self).__name__} keeps no actors: it must override actor()")
        return actors[index]

    def to_record(self) -> GameRecord:
        """This game as a record (docs/records.md), with its result once it is over."""
        record: GameRecord = {
            "format": "xtraboard-record",
            "version": self.record_version,
            "game": self.name,
            "players": [p.to_json() for p in self.players],
            "steps": [s.to_json() for s in self.history],
        }
        result = self.result()
        if result is not None:
            record["result"] = result
        return record

    def __repr__(self) -> str:
        return f"<{type(self).__name__} players={len(self.players)} steps={len(self.history)} pending={self.pending()}>"


def parse_roll(data: object, size: int, kind: type[Face]) -> Roll:
    """A `{"roll": [...]}` step of `size` faces of type `kind` (str or int); RecordError otherwise."""
    faces = data.get("roll") if isinstance(data, Mapping) else None
    if not isinstance(faces, list) or len(faces) != size:
        raise RecordError(Text(N_("'roll' must be a list of {size} faces, not {faces!r}"), size=size, faces=faces))
    for face in faces:
        if type(face) is not kind:
            raise RecordError(
                Text(
                    N_("roll face {face!r} must be a string")
                    if kind is str
                    else N_("roll face {face!r} must be an integer"),
                    face=face,
                )
            )
    return Roll(tuple(faces))


def winners_of(scores: Sequence[int]) -> list[int]:
    """Indices of every player with the best score (equal best scores share the win)."""
    best = max(scores)
    return [i for i, s in enumerate(scores) if s == best]
