"""Hints: what the built-in strong bot would do for the pending decision, and why in a few
words (docs/board.md: LEFT and RIGHT together while deciding). A game's registry entry may name
its `hint` reason, `(game, decision) -> str`; without one the hint says only "strong bot's choice".

    >>> import random
    >>> from firmware.games import new_game, Roll
    >>> game = new_game("exxtra", ["A", "B", "C"]); game.apply(Roll(("7", "6")))
    >>> decision, reason = hint(game, random.Random(1)); decision, reason.startswith("rung 5: 91% safe, expect to end near space ")
    (Place(rung=5), True)

The figure (here the space on the track the player is expected to end the game on) is the
game's evaluator's calibrated estimate (`firmware.coach.estimate`, docs/bots.md "Calibration"),
the one `xtraboard analyse` and the board's Key moments judge decisions by.
"""

from __future__ import annotations

import random

from firmware.bots import choose
from firmware.games import Game, find_game, words_of
from firmware.games.base import Decision
from firmware.i18n import _


def hint(game: Game, rng: random.Random) -> tuple[Decision, str]:
    """The strong bot's decision for `game`'s pending decision and the reason it gives, after
    the decision's name (the game's words: `Words.hint`)."""
    spec = find_game(game.name)
    decision = choose(game, rng, spec.levels[-1])
    reason = spec.hint_reason
    if reason is None:
        return decision, _("strong bot's choice")
    return decision, words_of(game.name).hint(game, decision, reason(game, decision))
