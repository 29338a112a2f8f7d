"""No game's cells, their sizes or their names appear in code outside the game's own package:
the games declare the cells they light (`GameSpec.cells`) and everything else — the config check,
the simulator, the self-test, the attract mode, the scenario format, the wiring docs — reads the
declarations. A new game that lights cells of its own is its folder and its board description.

What counts, in every `.py` file under `firmware/` and `sim/` (tests are left out), for each group
a game declares (the board's own dice and seats are the board's, not a game's):
- a string literal (f-strings too) that is the group's name or starts with it and a dot
  (`"track"`, `"grid.5.0"`, `f"ladder.{rung}"`, `startswith("track.")`);
- a name in the code made of the group's name and other words (`GRID_ROWS`, `_draw_track`);
  the bare word alone is left out: EXTRA!'s search keeps a `grid` of its own;
- a size: `range(N)` with N the group's cell count, or a literal sequence or dict of the
  group's row numbers or field counts (`{5: 4, 6: 4, ...}`, `(4, 4, 3, 3, 2, 2)`); a count up to
  a dozen (the ladder's six rungs, as many as the seats) is too common to tell.
Comments and docstrings do not count (prose may mention the games' boards).
"""

from __future__ import annotations

import ast
import io
import re
import tokenize
from dataclasses import dataclass
from pathlib import Path

import pytest

from tests.support import docstring_lines
from firmware.games.layout import CellGroup
from firmware.games.registry import GameSpec, games

ROOT = Path(__file__).resolve().parent.parent
COMMON_COUNT = 12  # range(6) or range(10) in code is anything; range(22) is the track


@dataclass(frozen=True)
class Owned:
    group: CellGroup
    package: Path  # the folder allowed to name it

    @property
    def sizes(self) -> set[tuple[int, ...]]:
        if self.group.rows:
            return {tuple(r for r, _ in self.group.rows), tuple(f for _, f in self.group.rows)}
        return set()


def owned_groups(specs: list[GameSpec]) -> list[Owned]:
    found = []
    for spec in specs:
        package = Path(*spec.engine.__module__.split(".")[:-1])
        found += [Owned(group, ROOT / package) for group in spec.cells]
    return found


def _ints(node: ast.AST) -> tuple[int, ...] | None:
    if isinstance(node, (ast.Tuple, ast.List)) and all(
        isinstance(e, ast.Constant) and type(e.value) is int for e in node.elts
    ):
        return tuple(e.value for e in node.elts)  # type: ignore[attr-defined]
    return None


def mentions(path: Path, owned: list[Owned]) -> list[str]:
    """`file:line: group: what` for each mention of a game's cells in `path`'s code."""
    source = path.read_text(encoding="utf-8")
    tree = ast.parse(source)
    skip = docstring_lines(tree)
    shown = path.relative_to(ROOT) if path.is_relative_to(ROOT) else path.name
    found = []
    for item in owned:
        name = re.escape(item.group.name)
        text = re.compile(rf"^[rbuf]*(['\"]{{1,3}}){name}(\1|\.)", re.IGNORECASE)
        word = re.compile(rf"^(?!{name}$)(?:\w*_)?{name}(?:_\w*)?$", re.IGNORECASE)
        for token in tokenize.generate_tokens(io.StringIO(source).readline):
            if token.start[0] in skip:
                continue
            if (token.type == tokenize.STRING and text.search(token.string)) or (
                token.type == tokenize.NAME and word.search(token.string)
            ):
                found.append(f"{shown}:{token.start[0]}: {item.group.name}: {token.string[:60]}")
        for node in ast.walk(tree):
            size = None
            if (
                isinstance(node, ast.Call)
                and isinstance(node.func, ast.Name)
                and node.func.id == "range"
                and len(node.args) == 1
                and isinstance(node.args[0], ast.Constant)
                and node.args[0].value == item.group.count
                and item.group.count > COMMON_COUNT
            ):
                size = f"range({item.group.count})"
            elif _ints(node) in item.sizes:
                size = str(_ints(node))
            elif isinstance(node, ast.Dict) and _ints(ast.Tuple(elts=list(node.keys))) in item.sizes:  # type: ignore[arg-type]
                size = "a dict of its rows"
            if size is not None:
                found.append(f"{shown}:{node.lineno}: {item.group.name}: {size}")  # type: ignore[attr-defined]
    return found


def test_code_outside_a_game_package_names_none_of_its_cells() -> None:
    owned = owned_groups(games())
    assert {item.group.name for item in owned} >= {"track", "ladder", "grid"}  # the check has something to find
    found = []
    for path in sorted(p for top in ("firmware", "sim") for p in (ROOT / top).rglob("*.py")):
        found += mentions(path, [item for item in owned if not path.is_relative_to(item.package)])
    assert found == []


def test_the_check_sees_strings_names_and_sizes(tmp_path: Path) -> None:
    owned = owned_groups(games())
    sample = tmp_path / "sample.py"
    sample.write_text(
        '"""The track and the grid: prose."""\n'
        "# a comment on the ladder\n"
        "GRID_ROWS = {5: 4, 6: 4, 7: 3, 8: 3, 9: 2, 10: 2}\n"
        'names = [f"track.{i}" for i in range(22)]\n'
        'lit = name.startswith("ladder.")\n'
        'kind = "grid"\n'
        "fields = (4, 4, 3, 3, 2, 2)\n"
        "gridlines = grid = 3  # a word of its own, and the bare word: not the group\n"
        "for seat in range(6): pass  # the seats' count, the ladder's too\n",
        encoding="utf-8",
    )
    found = sorted(line.split(": ", 1)[1] for line in mentions(sample, owned))
    assert found == sorted(
        [
            "grid: GRID_ROWS",
            "grid: a dict of its rows",
            'track: f"track.{i}"',
            "track: range(22)",
            'ladder: "ladder."',
            'grid: "grid"',
            "grid: (4, 4, 3, 3, 2, 2)",
        ]
    )


def test_two_games_declaring_one_group_differently_are_refused(monkeypatch: pytest.MonkeyPatch) -> None:
    from dataclasses import replace

    from examples.climb import SPEC
    from examples.climb.rules import Climb
    from firmware.errors import ConfigError
    from firmware.games.layout import DICE
    from firmware.games.registry import GAMES_ENV, board_layout, register_game, unregister_game
    from firmware.hardware.config import load_board

    class Rival(Climb):
        name, title = "rival", "Rival"

    monkeypatch.setenv(GAMES_ENV, "")
    grid = CellGroup("grid", "rows", rows=((1, 2),))  # LEVEL X's name, another shape
    register_game(replace(SPEC, engine=Rival, cells=(grid,)))
    try:
        with pytest.raises(ConfigError, match="Rival declares cells 'grid' unlike LEVEL X's"):
            board_layout()
        with pytest.raises(ConfigError, match=r"board.toml: cells: Rival declares cells 'grid' unlike LEVEL X's"):
            load_board()
        register_game(replace(SPEC, engine=Rival, cells=(replace(DICE, led_mm=3.0),)))
        with pytest.raises(ConfigError, match="Rival declares cells 'dice', the board's own"):
            board_layout()
    finally:
        unregister_game("rival")
    assert "rival" not in [g.name for g in board_layout()]
