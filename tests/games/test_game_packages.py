"""Each built-in game is a package `firmware/games/<game>/` whose `SPEC` (in `__init__.py`) and
rules engine (`rules.py`) never import display code: reading a record, replaying it or running
an engine (`xtraboard engine`, selfplay) must not load the screens, pygame or the fonts."""

from __future__ import annotations

import ast
import subprocess
import sys
from pathlib import Path

import pytest

from firmware.games.registry import BUILTIN

ROOT = Path(__file__).resolve().parents[2]
DISPLAY = ("firmware.ui", "pygame", "luma", "PIL")


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
