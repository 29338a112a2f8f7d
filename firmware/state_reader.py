"""Reading a running board's state: a read-only path into the engine's and the UI's public
state, as scenarios (`expect = { state = ... }`), `SimBoard.state` and the board's debug
service (`firmware.debug`) use it.

    >>> parse_path("game.sheets[0].total")
    ['game', 'sheets', 0, 'total']

Only attributes and indexes are followed, never methods, and names starting with "_" are
refused; what comes back is plain data (`plain`), compared with `same`.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Mapping
from dataclasses import fields, is_dataclass
from typing import TYPE_CHECKING

from firmware.errors import XtraboardError

if TYPE_CHECKING:
    from firmware.games.base import Game
    from firmware.ui.app import BoardApp

_NAME = re.compile(r"[A-Za-z_][A-Za-z0-9_]*")
_PATH_PART = re.compile(r"\.([A-Za-z_][A-Za-z0-9_]*)|\[(-?\d+)\]")


class StateError(XtraboardError, LookupError):
    """A state path that does not lead anywhere on this board (no game, no such attribute)."""


def parse_path(path: str) -> list[str | int]:
    """`positions[1]` → ["positions", 1]; `game.sheets[0].total` → ["game", "sheets", 0, "total"].
    Names starting with "_" are private and refused."""
    head = _NAME.match(path)
    if head is None:
        raise StateError(f"state path {path!r} must start with a name (e.g. game.positions[1])")
    parts: list[str | int] = [head.group()]
    at = head.end()
    while at < len(path):
        part = _PATH_PART.match(path, at)
        if part is None:
            raise StateError(f"state path {path!r}: cannot read {path[at:]!r}; use .name or [index]")
        parts.append(part.group(1) if part.group(1) is not None else int(part.group(2)))
        at = part.end()
    private = next((p for p in parts if isinstance(p, str) and p.startswith("_")), None)
    if private is not None:
        raise StateError(f"state path {path!r}: {private!r} is private")
    return parts


def state_roots(app: BoardApp) -> dict[str, Callable[[], object]]:
    """What a state path may start with on a running board app (each read only when asked)."""

    def game() -> Game | None:
        session = app.session
        return session.game if session is not None else None

    def menu() -> object:
        choice = app.screen.choice
        return choice.current.label if choice is not None else None

    def of_game(read: Callable[[Game], object]) -> Callable[[], object]:
        def reader() -> object:
            found = game()
            return read(found) if found is not None else None

        return reader

    def over() -> bool:
        session = app.session
        return session is not None and session.over

    return {
        "game": game,
        "pending": of_game(lambda found: found.pending()),
        "result": of_game(lambda found: found.result()),
        "record": of_game(lambda found: found.to_record()),
        "over": over,
        "screen": lambda: type(app.screen).__name__,
        "menu": menu,
        "busy": lambda: app.busy,
        "problems": lambda: list(app.problems),
        "settings": lambda: app.settings,
        "explanation": lambda: app.help.explanation,  # what the last move did (firmware/ui/help.py)
    }


def read_state(roots: Mapping[str, Callable[[], object]], path: str) -> object:
    """Follow `path` from one of `roots` (a name that is no root is read on `game`), reading
    attributes and indexes only: nothing is called but the roots. Returns plain data
    (lists, dicts, strings, numbers, booleans, None)."""
    parts = parse_path(path)
    if parts[0] not in roots:
        parts.insert(0, "game")
    value = roots[str(parts[0])]()
    walked = str(parts[0])
    for part in parts[1:]:
        if value is None:
            raise StateError(f"{walked} is nothing" + (" (no game on the board)" if walked == "game" else ""))
        value = _step_into(value, part, walked)
        walked += f"[{part}]" if isinstance(part, int) else f".{part}"
    return plain(value)


def _step_into(value: object, part: str | int, walked: str) -> object:
    if isinstance(part, int):
        if isinstance(value, Mapping):
            for key in (part, str(part)):
                if key in value:
                    return value[key]
            raise StateError(f"{walked} has no key {part}")
        try:
            return _item(value, part)
        except (IndexError, TypeError, KeyError):
            raise StateError(f"{walked} has no item [{part}]") from None
    if part.startswith("_"):
        raise StateError(f"{part!r} is private")
    if isinstance(value, Mapping) and part in value:
        return value[part]
    if not hasattr(value, part):
        raise StateError(f"{walked} ({type(value).__name__}) has no {part!r}")
    found = getattr(value, part)
    if callable(found) and not isinstance(found, type):
        raise StateError(f"{walked}.{part} is a method; a state path reads attributes only")
    return found


def _item(value: object, index: int) -> object:
    """`value[index]`; TypeError when `value` has no items (as indexing it would raise)."""
    getitem = getattr(type(value), "__getitem__", None)
    if getitem is None:
        raise TypeError(f"{type(value).__name__!r} object is not subscriptable")
    return getitem(value, index)


def plain(value: object) -> object:
    """State as data a scenario can compare: tuples → lists, steps → their record JSON,
    dataclasses → tables, mapping keys → strings."""
    if value is None or isinstance(value, (bool, int, float, str)):
        return value
    to_json = getattr(value, "to_json", None)
    if callable(to_json):
        return plain(to_json())
    if is_dataclass(value) and not isinstance(value, type):
        return {f.name: plain(getattr(value, f.name)) for f in fields(value)}
    if isinstance(value, Mapping):
        return {str(k): plain(v) for k, v in value.items()}
    if isinstance(value, (set, frozenset)):
        return sorted((plain(v) for v in value), key=repr)
    if isinstance(value, (list, tuple)):
        return [plain(v) for v in value]
    return repr(value)


def same(actual: object, expected: object) -> bool:
    """Equality that keeps booleans apart from numbers (true ≠ 1)."""
    if isinstance(actual, bool) or isinstance(expected, bool):
        return type(actual) is type(expected) and actual == expected
    if isinstance(actual, list) and isinstance(expected, list):
        return len(actual) == len(expected) and all(same(a, e) for a, e in zip(actual, expected))
    if isinstance(actual, dict) and isinstance(expected, dict):
        return actual.keys() == expected.keys() and all(same(actual[k], expected[k]) for k in actual)
    return bool(actual == expected)
