"""Climb's bot: one level, `easy`, which climbs on a 3 or better."""

from __future__ import annotations

import random
from typing import Any

from examples.climb.rules import Again, Climb, Up


def easy(game: Climb, decisions: list[Any], rng: random.Random) -> Any:
    """Climb on a 3 or more (or when rolling again is no longer allowed); else roll again."""
    return Up() if (game.face or 0) >= 3 or Again() not in decisions else Again()


def hint_reason(game: Climb, decision: Any) -> str:
    """Why `easy` decides so, in a few words (the board's hint)."""
    return f"{game.face} is {'good' if isinstance(decision, Up) else 'low'}: climb on 3 or more"
