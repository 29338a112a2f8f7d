"""High die's bot: one level, `easy`, which keeps a 4 or better."""

from __future__ import annotations

import random
from typing import Any

from examples.highdie.rules import Again, HighDie, Keep


def easy(game: HighDie, decisions: list[Any], rng: random.Random) -> Any:
    """Keep a 4, 5 or 6 (or when rolling again is no longer allowed); else roll again."""
    return Keep() if (game.face or 0) >= 4 or Again() not in decisions else Again()


def hint_reason(game: HighDie, decision: Any) -> str:
    """Why `easy` decides so, in a few words (the board's hint)."""
    return f"{game.face} is {'good' if isinstance(decision, Keep) else 'low'}: keep 4 or more"
