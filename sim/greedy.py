"""The greedy baseline: one simple, fixed policy per game that the arena measures the levels against.

Not a level players pick: each game names its own in `SPEC.baseline` (the built-in games' are
`firmware/games/<game>/greedy.py`, built exactly as issue 22 defines them), so that figures
against it can be compared with figures of bots written elsewhere from the same definition.
Each policy has the bots' signature `policy(game, decisions, rng) -> decision`.
"""

from __future__ import annotations

import random

from firmware.games.base import Decision, Game
from firmware.games.registry import find_game, games

NAME = "greedy"


def game_names() -> tuple[str, ...]:
    """The registered games that have a greedy baseline."""
    return tuple(spec.name for spec in games() if spec.baseline is not None)


def choose(game: Game, rng: random.Random) -> Decision:
    """Greedy's decision for the pending decision of `game`; refuses a game it has no policy for."""
    policy = find_game(game.name).baseline_policy()
    if policy is None:
        raise ValueError(f"the greedy baseline has no policy for {game.name!r} (it plays {', '.join(game_names())})")
    decisions = game.legal_decisions()
    if not decisions:
        raise ValueError("no decision is pending")
    choice = policy(game, decisions, rng)
    if choice not in decisions:
        raise AssertionError(f"greedy chose an illegal decision {choice!r}")
    return choice
