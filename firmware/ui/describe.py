"""One line saying what a step did, from the engine's events, in the active language (worded
when shown: the language may change meanwhile).

The board shows it after every move (by a bot, an engine or the previous person) until the
next decision, so nobody has to watch the LEDs to know what happened. Each game words its own
events (`GameView.describe`, in `firmware/games/<game>/text.py` for the built-in ones); the
helpers here are what those wordings share.

    >>> describe("exxtra", ["Blue", "Red", "Green"], [
    ...     {"kind": "place", "player": 0, "rung": 5, "combination": "62"},
    ...     {"kind": "remove", "player": 1, "rung": 4, "combination": "51", "by": 0},
    ...     {"kind": "turn", "player": 1}])
    'Blue: 62 on rung 5, kicks Red'
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from firmware.games.base import Event
from firmware.ui.gameview import Events, game_view


def describe(game: str, names: Sequence[str], events: Events) -> str | None:
    """What `events` (one step's of game `game`) say, in one short line; None when there is
    nothing to tell (a plain roll: the dice show it)."""
    if not events:
        return None
    return game_view(game).describe(list(names), list(events))


def name_of(names: Sequence[str], player: Any) -> str:
    """Seat `player`'s name, "?" for anything that is not a seat."""
    return names[player] if isinstance(player, int) and 0 <= player < len(names) else "?"


def kinds(events: Events, kind: str) -> list[Event]:
    """The events of `kind`, in order."""
    return [event for event in events if event.get("kind") == kind]


def joined(words: list[str]) -> str:
    """Parts of a description, comma-separated."""
    return ", ".join(words)
