"""The cells EXXTRA lights: the track from start (0) to finish, and the dice ladder's rungs."""

from __future__ import annotations

from firmware.games.exxtra.rules import FINISH, TOP_RUNG
from firmware.games.layout import CellGroup

TRACK = CellGroup("track", "path", count=FINISH + 1, led_mm=5.5, colour=(255, 120, 0), ends=("START", "FINISH"))
LADDER = CellGroup("ladder", "rungs", count=TOP_RUNG + 1, led_mm=5.5, colour=(0, 160, 255))
