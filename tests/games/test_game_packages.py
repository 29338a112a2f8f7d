"""Each built-in game is a package `firmware/games/<game>/` whose `SPEC` (in `__init__.py`) and
rules engine (`rules.py`) never import display code: reading a record, replaying it or running
an engine (`xtraboard engine`, selfplay) must not load the screens, pygame or the fonts. What a
game's screens use of the display comes from one module, `firmware.ui.kit`, and no view reads
the journal (what it needs of the records comes in as arguments)."""

from __future__ import annotations

import ast
import subprocess
import sys
from pathlib import Path

import pytest

from firmware.games.registry import BUILTIN
from firmware.ui import kit

ROOT = Path(__file__).resolve().parents[2]
DISPLAY = ("firmware.ui", "pygame", "luma", "PIL")
KIT = "firmware.ui.kit"
GAME_MODULES = sorted((ROOT / "firmware" / "games").rglob("*.py"))


def imported_modules(path: Path) -> set[str]:
    """Every module an import statement of `path` names (inside functions too)."""
    found = set()
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Import):
            found.update(alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom) and node.module:
            found.add(node.module)
    return found


def is_display(module: str) -> bool:
    return any(module == d or module.startswith(d + ".") for d in DISPLAY)


@pytest.mark.parametrize("package", BUILTIN)
def test_each_game_is_a_package_with_its_rules_screens_and_bots(package: str) -> None:
    folder = ROOT.joinpath(*package.split("."))
    assert {"__init__.py", "rules.py", "screens.py", "bots.py"} <= {p.name for p in folder.iterdir()}


@pytest.mark.parametrize("package", BUILTIN)
@pytest.mark.parametrize("module", ["__init__.py", "rules.py"])
def test_spec_and_rules_import_nothing_from_the_display(package: str, module: str) -> None:
    path = ROOT.joinpath(*package.split("."), module)
    assert not sorted(filter(is_display, imported_modules(path))), f"{path} imports display code"


def test_importing_every_game_loads_no_display_module() -> None:
    """In a fresh interpreter: the packages and their engines load, and nothing of the display."""
    code = (
        "import importlib, sys\n"
        f"for package in {list(BUILTIN)!r}:\n"
        "    importlib.import_module(package + '.rules'); importlib.import_module(package).SPEC\n"
        "print('\\n'.join(sorted(sys.modules)))"
    )
    loaded = subprocess.run([sys.executable, "-c", code], cwd=ROOT, capture_output=True, text=True, check=True)
    modules = loaded.stdout.split()
    assert all(f"{package}.rules" in modules for package in BUILTIN)
    assert not [m for m in modules if is_display(m)]


def imported_names(path: Path, module: str) -> set[str]:
    """The names `path` imports from `module` (`from module import a, b as c`: a and b)."""
    tree = ast.parse(path.read_text(encoding="utf-8"))
    return {
        alias.name
        for node in ast.walk(tree)
        if isinstance(node, ast.ImportFrom) and node.module == module
        for alias in node.names
    }


def test_games_take_the_display_from_the_kit_alone() -> None:
    """Every import statement of every module under firmware/games/ and of the example plug-ins
    (TYPE_CHECKING and function bodies too) names no module of firmware.ui but the kit."""
    assert "firmware.ui.kit" in imported_modules(ROOT / "firmware" / "games" / "extra" / "screens.py")
    outside = {
        str(path.relative_to(ROOT)): sorted(m for m in imported_modules(path) if is_display(m) and m != KIT)
        for path in [*GAME_MODULES, *sorted((ROOT / "examples").rglob("*.py"))]
    }
    assert {path: modules for path, modules in outside.items() if modules} == {}


def test_the_kit_holds_what_the_games_use_and_nothing_more() -> None:
    used = set().union(*(imported_names(path, KIT) for path in GAME_MODULES))
    assert sorted(set(kit.__all__) - used) == []
    assert sorted(used - set(kit.__all__)) == []


def test_no_game_module_reads_the_journal() -> None:
    """A view is given what the records say (`firmware.ui.gameview.Records`); it never reaches
    for the table's journal or imports it."""
    reads = {}
    for path in GAME_MODULES:
        tree = ast.parse(path.read_text(encoding="utf-8"))
        found = sorted(
            {node.attr for node in ast.walk(tree) if isinstance(node, ast.Attribute) and "journal" in node.attr}
            | {m for m in imported_modules(path) if m.startswith("firmware.journal")}
        )
        if found:
            reads[str(path.relative_to(ROOT))] = found
    assert reads == {}
