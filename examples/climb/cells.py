"""The cells Climb lights besides the board's dice and seats: its stairs, step 0 (the foot) to the
top, where each player's piece shows in their colour. `board.toml` beside this file maps them."""

from __future__ import annotations

from examples.climb.rules import TOP
from firmware.games.layout import CellGroup

STAIRS = CellGroup("stairs", "path", count=TOP + 1, led_mm=5.0, colour=(255, 220, 0), ends=("FOOT", "TOP"))
