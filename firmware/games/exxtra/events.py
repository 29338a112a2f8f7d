"""What an EXXTRA step did: the events of `Exxtra.events`, one TypedDict per kind
(docs/rules/exxtra.md). At run time they are plain dicts, as records and the display read them."""

from __future__ import annotations

from typing import Literal, TypedDict

# How a counter moved: an X after the first roll, doubles, or dice coming back from a rung.
Cause = Literal["x", "double", "rung"]


class RollEvent(TypedDict):
    kind: Literal["roll"]
    player: int
    faces: tuple[str, str]
    combination: str | None  # None: an X after the turn's first roll, no combination
    first: bool


class RerollEvent(TypedDict):
    kind: Literal["reroll"]
    player: int


class InvalidEvent(TypedDict):
    kind: Literal["invalid"]
    player: int
    xs: int


# "from" is a keyword: the functional form.
MoveEvent = TypedDict("MoveEvent", {"kind": Literal["move"], "player": int, "from": int, "to": int, "cause": Cause})


class PlaceEvent(TypedDict):
    kind: Literal["place"]
    player: int
    rung: int
    combination: str


class RemoveEvent(TypedDict):
    kind: Literal["remove"]
    player: int
    rung: int
    combination: str
    by: int


class WinEvent(TypedDict):
    kind: Literal["win"]
    player: int


class TurnEvent(TypedDict):
    kind: Literal["turn"]
    player: int


class ReturnEvent(TypedDict):
    kind: Literal["return"]
    player: int
    rung: int
    combination: str


ExxtraEvent = (
    RollEvent | RerollEvent | InvalidEvent | MoveEvent | PlaceEvent | RemoveEvent | WinEvent | TurnEvent | ReturnEvent
)
