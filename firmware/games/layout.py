"""The cells a game lights, declared by the game: their names, how many, and how the simulator
lays them out. The board description maps each declared cell to LED indices and a position;
the config check, the simulator, the self-test, the attract mode and the scenario format all read
these declarations (`firmware.games.registry.board_layout()`), so that none of them knows a game.

A game declares its groups in its spec (`GameSpec(cells=(CellGroup(...), ...))`); the board's own
groups, which every game and the menus use, are `BOARD_CELLS`: the five dice and the six seats.

    >>> STEPS = CellGroup("steps", "path", count=3, ends=("IN", "OUT"))
    >>> STEPS.names(), STEPS.cell(2), STEPS.pattern()
    (['steps.0', 'steps.1', 'steps.2'], 'steps.2', 'steps.0–2')
    >>> CellGroup("grid", "rows", rows=((5, 2), (6, 1))).names()
    ['grid.5.0', 'grid.5.1', 'grid.6.0']
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from firmware.i18n import _

Colour = tuple[int, int, int]

# How the simulator lays a group out (sim/render.py draws each shape):
#   "path"    a track of tiles in cell order, the first and last labelled with `ends`
#   "rungs"   rungs of a ladder between two rails, each numbered
#   "rows"    rows of tiles, each row numbered, `last_mark` printed on each row's last tile
#   "dice"    rows of pips, each row a die drawn around them
#   "seats"   single LEDs by the board's edge, each labelled with its seat number
SHAPES = ("path", "rungs", "rows", "dice", "seats")
_NAME = re.compile(r"[a-z][a-z0-9_]{0,23}")


@dataclass(frozen=True)
class CellGroup:
    """One group of cells: `NAME.0` … `NAME.{count-1}`, or `NAME.ROW.FIELD` for `rows` given as
    (row number, fields in it) pairs. `name` is also what the self-test and the wiring docs call
    the group, `label` what the simulated board prints beside it (default: the name in capitals).
    `led_mm` is the radius of an LED's window in the simulator, `colour` the self-test's."""

    name: str
    shape: str
    count: int = 0
    rows: tuple[tuple[int, int], ...] = ()
    label: str | None = None
    led_mm: float = 5.0
    colour: Colour = (255, 255, 255)
    ends: tuple[str, str] | None = None  # path: the first and last tile's labels
    last_mark: str = ""  # rows: printed on every row's last tile

    def __post_init__(self) -> None:
        if not _NAME.fullmatch(self.name):
            raise ValueError(f"cell group {self.name!r}: expected a lower-case name (letters, digits, _)")
        if self.shape not in SHAPES:
            raise ValueError(f"cell group {self.name!r}: shape {self.shape!r}, expected one of {', '.join(SHAPES)}")
        if bool(self.rows) == (self.count > 0) or (self.shape in ("rows", "dice")) != bool(self.rows):
            raise ValueError(f"cell group {self.name!r}: expected count for a {self.shape}, rows for rows and dice")
        if any(fields < 1 for _row, fields in self.rows) or len({row for row, _ in self.rows}) != len(self.rows):
            raise ValueError(f"cell group {self.name!r}: expected distinct rows of at least one field each")

    @property
    def title(self) -> str:
        return self.name.upper() if self.label is None else self.label

    def cell(self, *index: object) -> str:
        """The name of one cell: `cell(3)` is "NAME.3", `cell(row, field)` is "NAME.ROW.FIELD"."""
        return ".".join((self.name, *map(str, index)))

    def names(self) -> list[str]:
        if self.rows:
            return [self.cell(row, field) for row, fields in self.rows for field in range(fields)]
        return [self.cell(i) for i in range(self.count)]

    def owns(self, cell: str) -> bool:
        return cell.partition(".")[0] == self.name

    def pattern(self) -> str:
        """The group's names, short, for error messages: "track.0–21", "dice.0–4.0–6",
        "grid.ROW.FIELD (rows 5–10 with 4, 4, 3, 3, 2, 2 fields)"."""
        if not self.rows:
            return f"{self.name}.0–{self.count - 1}"
        numbers = [row for row, _ in self.rows]
        sizes = {fields for _, fields in self.rows}
        if numbers == list(range(len(numbers))) and len(sizes) == 1:
            return f"{self.name}.0–{len(numbers) - 1}.0–{sizes.pop() - 1}"
        return _("{name}.ROW.FIELD (rows {rows} with {fields} fields)").format(
            name=self.name,
            rows=f"{numbers[0]}–{numbers[-1]}",
            fields=", ".join(str(fields) for _, fields in self.rows),
        )


# The board's own cells: every game rolls on the five dice (seven pips each: top-left, top-right,
# mid-left, centre, mid-right, bottom-left, bottom-right) and the menus light the six seats.
DICE = CellGroup("dice", "dice", rows=tuple((die, 7) for die in range(5)), led_mm=2.7, colour=(255, 0, 160))
SEATS = CellGroup("seat", "seats", count=6, label="SEATS", colour=(255, 255, 255))
BOARD_CELLS: tuple[CellGroup, ...] = (DICE, SEATS)
