"""Hints: what the built-in strong bot would do for the pending decision, and why in a few
words (docs/board.md: LEFT and RIGHT together while deciding). Each game's strong policy module may
offer `explain(game, decision) -> str`; without one the hint says only "strong bot's choice".

    >>> import random
    >>> from firmware.games import new_game, Roll
    >>> game = new_game("exxtra", ["A", "B", "C"]); game.apply(Roll(("7", "6")))
    >>> hint(game, random.Random(1))
    (Place(rung=5), 'rung 5: 93% safe, exp. +4.6 spaces')
"""

from __future__ import annotations

import random
import sys
from typing import Any

from firmware.bots import choose
from firmware.games import Game, find_game
from firmware.i18n import _

HINT_LEVEL = "strong"  # a hint is the strong bot's choice


def hint(game: Game, rng: random.Random) -> tuple[Any, str]:
    """The strong bot's decision for `game`'s pending decision and the reason it gives."""
    decision = choose(game, rng, HINT_LEVEL)
    policy = find_game(game.name).policy(HINT_LEVEL)
    explain = getattr(sys.modules.get(policy.__module__), "explain", None)
    return decision, explain(game, decision) if explain is not None else _("strong bot's choice")
