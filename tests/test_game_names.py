"""Code outside a game's own package names no game: a new game is its folder plus one line of
`firmware/games/registry.py` (`BUILTIN`), and nothing else has to learn about it.

What counts, in every `.py` file under `firmware/` and `sim/` (tests are left out: they play the
real games by name on purpose):
- a name in the code (a variable, function, attribute, import) that is a game's name or starts
  or ends with it joined by "_" (`levelx_rows`, `import firmware.games.levelx`);
- a string literal that is a game's name (`"levelx"`), or holds its title (case as written,
  "EXTRA!") or its package's module path (`"firmware.games.extra.bots:strong"`), the strings
  the catalogs translate included (help texts say "solo record", not "EXTRA! solo record").

What does not count: comments and docstrings (prose and doctest examples that show a real game),
and the game's own package `firmware/games/<game>/`. `firmware/games/registry.py` may name the
built-in packages in `BUILTIN`, its one line per game, and nothing else.
"""

from __future__ import annotations

import ast
import io
import re
import tokenize
from pathlib import Path

from tests.support import docstring_lines
from firmware.games.registry import games

ROOT = Path(__file__).resolve().parent.parent
REGISTRY = ROOT / "firmware" / "games" / "registry.py"


def _builtin_lines(tree: ast.AST) -> set[int]:
    """The lines of the registry's `BUILTIN = (...)` assignment."""
    for node in ast.walk(tree):
        targets = (
            node.targets if isinstance(node, ast.Assign) else [node.target] if isinstance(node, ast.AnnAssign) else []
        )
        if any(isinstance(t, ast.Name) and t.id == "BUILTIN" for t in targets):
            return set(range(node.lineno, (node.end_lineno or node.lineno) + 1))
    return set()


def game_words() -> dict[str, tuple[re.Pattern[str], re.Pattern[str]]]:
    """Per built-in game: the pattern of a name in code, and of its mention in a string."""
    found = {}
    for spec in games():
        name = re.escape(spec.name)
        package = re.escape(spec.engine.__module__.rpartition(".")[0])
        code = re.compile(rf"^(?:{name}|{name}_\w*|\w*_{name})$", re.IGNORECASE)
        text = re.compile(rf"^[rbuf]*(['\"]){name}\1$|(?<!\w){re.escape(spec.title)}(?!\w)|{package}")
        found[spec.name] = (code, text)
    return found


def mentions(path: Path, words: dict[str, tuple[re.Pattern[str], re.Pattern[str]]]) -> list[str]:
    """`file:line: game: token` for each mention of a game in `path`'s code."""
    source = path.read_text(encoding="utf-8")
    tree = ast.parse(source)
    skip = docstring_lines(tree) | (_builtin_lines(tree) if path == REGISTRY else set())
    shown = path.relative_to(ROOT) if path.is_relative_to(ROOT) else path.name
    found = []
    for token in tokenize.generate_tokens(io.StringIO(source).readline):
        if token.type not in (tokenize.NAME, tokenize.STRING) or token.start[0] in skip:
            continue
        for game, (code, text) in words.items():
            pattern = code if token.type == tokenize.NAME else text
            if pattern.search(token.string):
                found.append(f"{shown}:{token.start[0]}: {game}: {token.string[:60]}")
    return found


def outside_its_package(path: Path, game: str) -> bool:
    return not path.is_relative_to(ROOT / "firmware" / "games" / game)


def test_code_outside_a_game_package_names_no_game() -> None:
    words = game_words()
    found = []
    for path in sorted(p for top in ("firmware", "sim") for p in (ROOT / top).rglob("*.py")):
        owner = next((g for g in words if not outside_its_package(path, g)), None)
        others = {g: w for g, w in words.items() if g != owner}
        found += mentions(path, others)
    assert found == []


def test_the_check_sees_names_strings_and_module_paths(tmp_path: Path) -> None:
    words = game_words()
    sample = tmp_path / "sample.py"
    sample.write_text(
        '"""About EXXTRA and levelx: prose."""\n'
        "# a comment on extra\n"
        "import firmware.games.levelx\n"
        'levelx_rows = {"exxtra": 1}\n'
        'title = _("EXTRA! solo")\n'
        'extra_ok = "extra dice"\n',
        encoding="utf-8",
    )
    found = [line.split(": ", 1)[1] for line in mentions(sample, words)]
    assert found == [
        "levelx: levelx",
        "levelx: levelx_rows",
        'exxtra: "exxtra"',
        'extra: "EXTRA! solo"',
        "extra: extra_ok",
    ]
