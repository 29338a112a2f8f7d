"""The cells LEVEL X lights: its grid, one row per sum (5–10), the X field last in each row."""

from __future__ import annotations

from firmware.games.layout import CellGroup
from firmware.games.levelx.rules import FIELDS, ROWS

GRID = CellGroup("grid", "rows", rows=tuple(zip(ROWS, FIELDS)), led_mm=5.0, colour=(0, 255, 80), last_mark="X")
