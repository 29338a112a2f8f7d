"""The game flow moved to `firmware.table` (free of UI); these names stay importable here."""

from __future__ import annotations

from firmware.table import GameSession, Seat, Table, dice_for
from firmware.ui.colours import DEFAULT_ORDER

__all__ = ["GameSession", "Seat", "Table", "default_colours", "dice_for"]


def default_colours(count: int) -> list[str]:
    return list(DEFAULT_ORDER[:count])
