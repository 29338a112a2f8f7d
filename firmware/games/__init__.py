"""The rules engines behind one protocol (`firmware.games.base.Game`), found through the game
registry (`firmware.games.registry`)."""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING

from firmware.games.base import DECISION, OVER, ROLL, Game, Pending, Player, Roll
from firmware.games.registry import find_game, game_names

if TYPE_CHECKING:
    from firmware.games.words import Words


def game_class(name: str) -> type[Game]:
    """The engine class for a record's `game` name (RecordError, a ValueError, if unknown)."""
    return find_game(name).engine


def new_game(name: str, players: Sequence[Player | str]) -> Game:
    """A new game of `name` for `players` (names or Player values), player 0 to start."""
    return game_class(name)(players)


def words_of(name: str) -> Words:
    """How game `name` says what a step did (its registry entry's `words`, loaded on first use)."""
    return find_game(name).wording


__all__ = [
    "DECISION",
    "OVER",
    "ROLL",
    "Game",
    "Pending",
    "Player",
    "Roll",
    "find_game",
    "game_class",
    "game_names",
    "new_game",
    "words_of",
]
