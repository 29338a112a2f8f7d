"""What an EXTRA! step did: the events of `Extra.events`, one TypedDict per kind
(docs/rules/extra.md). At run time they are plain dicts, as records and the display read them."""

from __future__ import annotations

from typing import Literal, TypedDict


class RollEvent(TypedDict):
    kind: Literal["roll"]
    player: int  # the roller
    faces: tuple[int, ...]


class ExtraDieEvent(TypedDict):
    kind: Literal["extra"]
    player: int
    die: int
    face: int
    column: int
    new: bool  # a new EXTRA number written in the column
    crossed: bool  # a box of the column crossed


class FreeRideEvent(TypedDict):
    kind: Literal["free_ride"]
    player: int


class CrossEvent(TypedDict):
    kind: Literal["cross"]
    player: int
    sum: int
    box: int  # index from the left


class RowFullEvent(TypedDict):
    kind: Literal["row_full"]
    player: int
    sum: int


class EndedEvent(TypedDict):
    kind: Literal["ended"]
    player: int
    column: int


class GameOverEvent(TypedDict):
    kind: Literal["game_over"]
    winners: list[int]


ExtraEvent = RollEvent | ExtraDieEvent | FreeRideEvent | CrossEvent | RowFullEvent | EndedEvent | GameOverEvent
