"""No `getattr`/`hasattr` probes an object whose type firmware declares: a member the code
needs is declared on its class or protocol, so mypy and a reader can follow it. What remains is
honest reflection, listed here per file with how many calls and why; a new call fails until it
is listed, a removed one until its entry shrinks."""

from __future__ import annotations

import ast
from pathlib import Path

FIRMWARE = Path(__file__).resolve().parent.parent / "firmware"

REFLECTION: dict[str, tuple[int, str]] = {
    "cli.py": (1, "the guarded stream proxy forwards every other attribute to the stream it wraps"),
    "debug.py": (1, "socket.AF_UNIX: a module attribute some platforms lack"),
    "records.py": (1, "sys.stdin may be a text stream put in its place, without `buffer`"),
    "xdp/client.py": (1, "an engine's stderr pipe: a raw stream has no `read1`"),
    "ui/gameview.py": (1, "a game's view found by name in the module `import_module` loaded"),
    "ui/settings.py": (4, "a settings dataclass's fields walked by name"),
    "hardware/config.py": (1, "a config dataclass's fields walked by name"),
    "journal/storage.py": (2, "sqlite3 errors carry `sqlite_errorcode` from Python 3.11 on"),
    "errors.py": (1, "an exception's `text`, where a library's exception has one"),
    "hardware/board.py": (1, "the board pin module's D<n> names, looked up by number"),
    "hardware/display.py": (2, "luma's driver classes by name; a luma device's `contrast_level` (untyped)"),
    "hardware/leds.py": (1, "the NeoPixel driver's `deinit`: not every version has one (untyped)"),
    "input_files.py": (1, "os.O_CLOEXEC: a module attribute some platforms lack"),
    "fleet/publisher.py": (2, "`reason` (URLError) or `strerror` (OSError) of a network error"),
    "state_reader.py": (5, "the state reader walks any path of any value by design (a debug tool)"),
    "games/registry.py": (2, "a game's SPEC and a named target found in modules `import_module` loaded"),
}


def reflection_calls() -> dict[str, int]:
    """How many getattr/hasattr calls each module of firmware makes, by path under firmware/."""
    found: dict[str, int] = {}
    for path in sorted(FIRMWARE.rglob("*.py")):
        tree = ast.parse(path.read_text(encoding="utf-8"), str(path))
        count = sum(
            isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and node.func.id in ("getattr", "hasattr")
            for node in ast.walk(tree)
        )
        if count:
            found[path.relative_to(FIRMWARE).as_posix()] = count
    return found


def test_the_scan_sees_a_call():
    tree = ast.parse("x = getattr(o, 'a', None)")
    assert any(isinstance(n, ast.Call) and getattr(n.func, "id", "") == "getattr" for n in ast.walk(tree))
    assert reflection_calls()["state_reader.py"] >= 1


def test_only_the_listed_reflection_remains():
    assert reflection_calls() == {path: count for path, (count, _) in REFLECTION.items()}


def test_every_entry_says_why():
    assert all(len(reason) > 20 for _, reason in REFLECTION.values())
