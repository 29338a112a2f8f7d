"""What a LEVEL X step did: the events of `LevelX.events`, one TypedDict per kind
(docs/rules/levelx.md). At run time they are plain dicts, as records and the display read them."""

from __future__ import annotations

from typing import Literal, TypedDict


class RollEvent(TypedDict):
    kind: Literal["roll"]
    player: int
    faces: list[int]


class TurnOnesEvent(TypedDict):
    kind: Literal["turn_ones"]
    player: int
    dice: list[int]  # the dice turned (indices)
    faces: list[int]  # the faces after turning


class GroupEvent(TypedDict):
    kind: Literal["group"]
    player: int
    dice: list[int]
    row: int


class NoEffectEvent(TypedDict):
    kind: Literal["no_effect"]
    player: int
    row: int
    reason: Literal["closed", "no_piece"]


class PlaceEvent(TypedDict):
    kind: Literal["place"]
    player: int
    row: int
    to: int


# "from" is a keyword: the functional form.
MoveEvent = TypedDict("MoveEvent", {"kind": Literal["move"], "player": int, "row": int, "from": int, "to": int})


class OustEvent(TypedDict):
    kind: Literal["oust"]
    player: int
    row: int
    by: int


class ChipEvent(TypedDict):
    kind: Literal["chip"]
    player: int
    row: int
    left: int


class BonusEvent(TypedDict):
    kind: Literal["bonus", "bonus_declined", "bonus_offer"]
    player: int
    tile: int


class CloseEvent(TypedDict):
    kind: Literal["close"]
    row: int
    lost: list[int]


class EndTriggeredEvent(TypedDict):
    kind: Literal["end_triggered"]
    reason: str


class GameOverEvent(TypedDict):
    kind: Literal["game_over"]
    winners: list[int]


class TurnEvent(TypedDict):
    kind: Literal["turn"]
    player: int
    round: int


LevelXEvent = (
    RollEvent
    | TurnOnesEvent
    | GroupEvent
    | NoEffectEvent
    | PlaceEvent
    | MoveEvent
    | OustEvent
    | ChipEvent
    | BonusEvent
    | CloseEvent
    | EndTriggeredEvent
    | GameOverEvent
    | TurnEvent
)
