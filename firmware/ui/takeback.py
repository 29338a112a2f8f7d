"""What a takeback took back, kept for the game's log (firmware/ui/game_log.py) and the round
log (firmware/ui/help.py); in a module of its own so that the app's protocol can name it
without importing the screens."""

from __future__ import annotations

from dataclasses import dataclass

from firmware.games.base import Event


@dataclass(frozen=True)
class TakenBack:
    """A takeback: the history length it went back to, the round there, and the decision taken
    back with its events (worded when shown: the language may change meanwhile)."""

    at: int
    round: int | None
    events: list[Event]
