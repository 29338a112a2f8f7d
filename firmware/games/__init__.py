"""The three rules engines behind one protocol (`firmware.games.base.Game`)."""

from __future__ import annotations

from collections.abc import Sequence
from importlib import import_module

from firmware.games.base import DECISION, OVER, ROLL, Game, Pending, Player, Roll

GAME_NAMES = ("exxtra", "levelx", "extra")
_CLASSES = {"exxtra": "Exxtra", "levelx": "LevelX", "extra": "Extra"}


def game_class(name: str) -> type[Game]:
    """The engine class for a record's `game` name."""
    if name not in _CLASSES:
        raise ValueError(f"unknown game {name!r}: expected one of {', '.join(GAME_NAMES)}")
    return getattr(import_module(f"firmware.games.{name}"), _CLASSES[name])


def new_game(name: str, players: Sequence[Player | str]) -> Game:
    """A new game of `name` for `players` (names or Player values), player 0 to start."""
    return game_class(name)(players)


__all__ = ["DECISION", "GAME_NAMES", "OVER", "ROLL", "Game", "Pending", "Player", "Roll", "game_class", "new_game"]
