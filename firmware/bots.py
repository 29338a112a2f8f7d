"""Bots: the policy of a seat's level for the pending decision, found through the game registry.

    >>> from firmware.games import new_game, Roll
    >>> import random
    >>> game = new_game("exxtra", ["A", "B", "C"]); game.apply(Roll(("7", "6")))
    >>> choose(game, random.Random(1))
    Place(rung=5)

Each game's levels live in its package, `firmware/games/<game>/bots.py` (docs/bots.md); its
"easy" is good enough to play a table through (demo mode) and to lose to attentive people.
"""

from __future__ import annotations

import random
from typing import Any

from firmware.games import Game, find_game


def choose(game: Game, rng: random.Random, level: str | None = None) -> Any:
    """The decision of the bot at `level` for the pending decision of `game`; always one of its
    legal decisions. Each game's registry entry names its levels. Without `level`: the level
    kept in the deciding seat (`Player.bot`), else the game's easiest."""
    decisions = game.legal_decisions()
    if not decisions:
        raise ValueError("no decision is pending")
    spec = find_game(game.name)
    if level is None:
        player = game.pending().player  # a decision is pending: whose
        seat = game.players[player].bot if player is not None else None
        level = seat if seat in spec.levels else spec.levels[0]
    policy = spec.policy(level)
    choice = policy(game, decisions, rng)
    return choice if choice in decisions else rng.choice(decisions)
