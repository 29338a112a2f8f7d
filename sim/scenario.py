"""Scenarios: scripted button presses, dice and expectations in TOML (docs/scenarios.md), run
against any board that offers the small `BoardDriver` protocol — the simulator's `SimBoard`
in CI, a real board on the bench through another driver.

    >>> scenario = load_scenario("tests/scenarios/menu.toml")         # doctest: +SKIP
    >>> run_scenario(scenario, SimBoard(seed=scenario.seed)).passed   # doctest: +SKIP
    True

The whole file is parsed and validated before anything runs; `ScenarioError` names the file,
the step and the key at fault.
"""

from __future__ import annotations

import json
import random
import re
import sys
import tomllib
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, fields, is_dataclass
from pathlib import Path
from typing import Any, Protocol, TextIO, runtime_checkable

from firmware.errors import ConfigError, XtraboardError
from firmware.games.registry import games
from firmware.hardware.config import BUTTON_NAMES, cell_names
from firmware.ui.colours import PLAYER_COLOURS

TAP_S = 0.06  # a short press: longer than the debounce window, far shorter than a hold
BOUNCE_GAP_S = 0.002  # between the edges of a noisy contact
SETTLE_POLL_S = 0.05
SETTLE_LIMIT_S = 600.0
DEFAULT_SEED = 0  # scenarios are reproducible unless they script every roll themselves
COLOUR_NAMES: dict[str, tuple[int, int, int]] = dict(PLAYER_COLOURS) | {"off": (0, 0, 0)}

ACTIONS: dict[str, frozenset[str]] = {  # each step's one action key, and the keys it may add
    "press": frozenset(), "release": frozenset(), "tap": frozenset({"times"}),
    "hold": frozenset({"seconds", "times"}), "bounce": frozenset({"edges", "times"}),
    "dice": frozenset(), "wait": frozenset(), "settle": frozenset(), "expect": frozenset(),
    "mash": frozenset({"seed", "buttons"}),
}
HEADER_KEYS = ("name", "description", "seed", "board", "dice", "step")
EXPECT_KINDS: dict[str, frozenset[str]] = {  # an expectation's main key, and the keys it may add
    "led": frozenset({"colour"}), "text": frozenset(), "image_sha": frozenset(),
    "state": frozenset({"equals", "none"}), "menu": frozenset(), "replays": frozenset(),
}
_NAME = re.compile(r"[A-Za-z_][A-Za-z0-9_]*")
_PATH_PART = re.compile(r"\.([A-Za-z_][A-Za-z0-9_]*)|\[(-?\d+)\]")
_STEP_HEADER = re.compile(r"^\s*\[\[\s*step\s*\]\]\s*(#.*)?$")


class ScenarioError(ConfigError):
    """A scenario file that cannot be run: not TOML, or a key, type, button or cell is wrong."""


class StateError(XtraboardError, LookupError):
    """A state path that does not lead anywhere on this board (no game, no such attribute)."""


@runtime_checkable
class BoardDriver(Protocol):
    """What a scenario needs of a board: its buttons, time, and what it shows.

    `state(path)` reads the engine's and the UI's state (see `read_state`); `queue_dice(faces)`
    makes `faces` the next roll of the board's electronic dice. A driver may also offer
    `settle()`; without it the runner waits while `state("busy")` is true.
    """

    def press(self, name: str) -> None: ...
    def release(self, name: str) -> None: ...
    def wait(self, seconds: float) -> None: ...
    def led(self, cell: str) -> tuple[int, int, int]: ...
    def screen_text(self) -> list[str]: ...
    def image_checksum(self) -> str: ...
    def state(self, path: str) -> Any: ...
    def queue_dice(self, faces: Sequence[Any]) -> None: ...


# --- the parsed scenario ----------------------------------------------------------------------

@dataclass(frozen=True)
class Expectation:
    """One check: `kind` is led, text, image_sha, state, menu or replays."""

    kind: str
    target: Any = None  # the cell, text, checksum, state path or menu label
    value: Any = None  # led: the colours accepted; state: the value expected (None = none)

    def describe(self) -> str:
        if self.kind == "led":
            shown = " or ".join(str(c) for c in self.value)
            return f"led {self.target} showing {shown}"
        if self.kind == "state":
            return f"state {self.target} == {'none' if self.value is None else _show(self.value)}"
        if self.kind == "text":
            return f"text {_show(self.target)} on the display"
        if self.kind == "menu":
            return f"menu option {_show(self.target)} under the cursor"
        if self.kind == "replays":
            return "the game's record to replay to the same game"
        return f"image_sha {self.target}"


@dataclass(frozen=True)
class Step:
    number: int  # from 1, as the file lists them
    line: int | None  # of the step's action key in the file
    action: str  # a key of ACTIONS
    button: str | None = None
    times: int = 1
    seconds: float | None = None  # hold: how long; wait: how long
    edges: int = 6  # bounce
    rolls: tuple[tuple[Any, ...], ...] = ()  # dice
    expectations: tuple[Expectation, ...] = ()  # expect
    count: int = 0  # mash: how many actions
    seed: int | str = 0  # mash
    buttons: tuple[str, ...] = BUTTON_NAMES  # mash

    @property
    def where(self) -> str:
        return f"step {self.number}" + (f" (line {self.line})" if self.line is not None else "")


@dataclass(frozen=True)
class Scenario:
    path: Path
    name: str
    description: str
    seed: int | str = DEFAULT_SEED
    board: Path | None = None
    scripted_dice: bool = False
    steps: tuple[Step, ...] = ()

    @property
    def expectation_count(self) -> int:
        return sum(len(step.expectations) for step in self.steps)


# --- parsing ----------------------------------------------------------------------------------

class _StepReader:
    """Reads one step's keys; `fail` builds the error naming the file, step, line and key."""

    def __init__(self, path: Path, number: int, lines: Mapping[str, int], data: Mapping[str, Any]) -> None:
        self.path, self.number, self.lines, self.data = path, number, lines, data
        action = next((k for k in data if k in ACTIONS), None)
        self.line = lines.get(action or "", lines.get(""))  # the action key's line, else the header's

    def fail(self, key: str, problem: str) -> ScenarioError:
        line = self.lines.get(key.partition(".")[0], self.line)
        where = f"step {self.number}" + (f" (line {line})" if line is not None else "")
        return ScenarioError(f"{self.path}: {where}: key '{key}': {problem}")

    def button(self, key: str, value: Any) -> str:
        if not isinstance(value, str):
            raise self.fail(key, f"expected a button name ({', '.join(BUTTON_NAMES)}), got {_show(value)}")
        if value not in BUTTON_NAMES:
            raise self.fail(key, f"unknown button {value!r}; the board has {', '.join(BUTTON_NAMES)}")
        return value

    def integer(self, key: str, low: int, high: int) -> int:
        value = self.data[key]
        if type(value) is not int or not low <= value <= high:
            raise self.fail(key, f"expected a whole number from {low} to {high}, got {_show(value)}")
        return value

    def seconds(self, key: str, value: Any, high: float = 3600.0) -> float:
        if isinstance(value, bool) or not isinstance(value, (int, float)) or not 0 <= value <= high:
            raise self.fail(key, f"expected seconds from 0 to {high:g}, got {_show(value)}")
        return float(value)


def load_scenario(path: str | Path) -> Scenario:
    """Read and validate a scenario file; ScenarioError names the file, step, line and key."""
    path = Path(path)
    try:
        text = path.read_text(encoding="utf-8")
    except OSError as exc:
        raise ScenarioError(f"{path}: cannot read the scenario: {exc.strerror or exc}") from exc
    except UnicodeDecodeError as exc:
        raise ScenarioError(f"{path}: not UTF-8 text ({exc.reason} at byte {exc.start}); expected a TOML file") from exc
    return parse_scenario(text, path)


def parse_scenario(text: str, path: Path) -> Scenario:
    try:
        data = tomllib.loads(text)
    except tomllib.TOMLDecodeError as exc:
        raise ScenarioError(f"{path}: not valid TOML: {exc}") from exc
    except RecursionError as exc:  # tomllib recurses once per level of nesting
        raise ScenarioError(f"{path}: arrays or tables nested too deeply; expected a scenario (TOML)") from exc
    for key in data:
        if key not in HEADER_KEYS:
            raise ScenarioError(f"{path}: key '{key}': unknown header key; expected {', '.join(HEADER_KEYS)}")
    name = _header_text(path, data, "name", required=True)
    description = _header_text(path, data, "description", required=True)
    seed = data.get("seed", DEFAULT_SEED)
    if isinstance(seed, bool) or not isinstance(seed, (int, str)):
        raise ScenarioError(f"{path}: key 'seed': expected a whole number or a string, got {_show(seed)}")
    board = _header_text(path, data, "board", required=False)
    dice = data.get("dice")
    if dice is not None and dice != "scripted":
        raise ScenarioError(f"{path}: key 'dice': the only dice mode to name is \"scripted\", got {_show(dice)}")
    raw_steps = data.get("step")
    if not isinstance(raw_steps, list) or not raw_steps or not all(isinstance(s, dict) for s in raw_steps):
        raise ScenarioError(f"{path}: key 'step': expected one or more [[step]] tables, got {_show(raw_steps)}")
    lines = _step_lines(text, raw_steps)
    steps = tuple(_parse_step(_StepReader(path, i + 1, lines[i], raw)) for i, raw in enumerate(raw_steps))
    if not dice:
        for step in steps:
            if step.action == "dice":
                raise _StepReader(path, step.number, lines[step.number - 1], {"dice": True}).fail(
                    "dice", 'dice steps need dice = "scripted" in the header (else the seed rolls the dice)')
    board_path = (path.parent / board) if board is not None else None
    return Scenario(path, name, description, seed, board_path, dice == "scripted", steps)


def _header_text(path: Path, data: Mapping[str, Any], key: str, *, required: bool) -> Any:
    value = data.get(key)
    if value is None and not required:
        return None
    if not isinstance(value, str) or not value.strip():
        raise ScenarioError(f"{path}: key '{key}': expected a non-empty string, got {_show(value)}")
    return value


def _step_lines(text: str, raw_steps: list[dict[str, Any]]) -> list[dict[str, int]]:
    """Per step, the line of its [[step]] header (key "") and of each of its keys, when the file
    uses [[step]] headers; empty for steps written some other way."""
    lines = text.splitlines()
    headers = [i for i, line in enumerate(lines) if _STEP_HEADER.match(line)]
    if len(headers) != len(raw_steps):
        return [{} for _ in raw_steps]
    result: list[dict[str, int]] = []
    for n, start in enumerate(headers):
        end = headers[n + 1] if n + 1 < len(headers) else len(lines)
        found = {"": start + 1}
        for key in raw_steps[n]:
            pattern = re.compile(rf"^\s*{re.escape(key)}\s*=")
            line = next((i for i in range(start + 1, end) if pattern.match(lines[i])), None)
            if line is not None:
                found[key] = line + 1
        result.append(found)
    return result


def _parse_step(reader: _StepReader) -> Step:
    data = reader.data
    actions = [k for k in data if k in ACTIONS]
    for key in data:
        if key not in ACTIONS and not any(key in ACTIONS[a] for a in ACTIONS):
            raise reader.fail(key, f"unknown key; a step is one of {', '.join(ACTIONS)}")
    if not actions:
        raise reader.fail(next(iter(data), "?"), f"a step needs one of {', '.join(ACTIONS)}")
    if len(actions) > 1:
        raise reader.fail(actions[1], f"a step does one thing, and this one already has '{actions[0]}'; "
                                      "make it a step of its own")
    action = actions[0]
    for key in data:
        if key != action and key not in ACTIONS[action]:
            allowed = ", ".join(sorted(ACTIONS[action])) or "no other keys"
            raise reader.fail(key, f"not allowed with '{action}' (it takes {allowed})")
    value = data[action]
    base = {"number": reader.number, "line": reader.line, "action": action}
    times = reader.integer("times", 1, 1000) if "times" in data else 1
    if action in ("press", "release", "tap", "hold", "bounce"):
        button = reader.button(action, value)
        seconds = reader.seconds("seconds", data["seconds"], 60.0) if "seconds" in data else None
        edges = reader.integer("edges", 1, 100) if "edges" in data else 6
        return Step(**base, button=button, times=times, seconds=seconds, edges=edges)
    if action == "wait":
        return Step(**base, seconds=reader.seconds(action, value))
    if action == "settle":
        if value is not True:
            raise reader.fail(action, f"expected true (wait until nothing moves by itself), got {_show(value)}")
        return Step(**base)
    if action == "dice":
        return Step(**base, rolls=_parse_rolls(reader, value))
    if action == "mash":
        count = reader.integer("mash", 1, 100_000)
        seed = data.get("seed", 0)
        if isinstance(seed, bool) or not isinstance(seed, (int, str)):
            raise reader.fail("seed", f"expected a whole number or a string, got {_show(seed)}")
        buttons = data.get("buttons", list(BUTTON_NAMES))
        if not isinstance(buttons, list) or not buttons:
            raise reader.fail("buttons", f"expected a list of button names, got {_show(buttons)}")
        names = tuple(reader.button("buttons", b) for b in buttons)
        return Step(**base, count=count, seed=seed, buttons=names)
    tables = value if isinstance(value, list) else [value]
    if not tables or not all(isinstance(t, dict) for t in tables):
        raise reader.fail(action, f"expected a table such as {{ text = \"press ROLL\" }} (or a list of them), "
                                  f"got {_show(value)}")
    return Step(**base, expectations=tuple(_parse_expectation(reader, t) for t in tables))


def _parse_rolls(reader: _StepReader, value: Any) -> tuple[tuple[Any, ...], ...]:
    if not isinstance(value, list) or not value:
        raise reader.fail("dice", f"expected a list of rolls such as [[1, 2, 2, 3, 5]], got {_show(value)}")
    rolls = []
    for n, roll in enumerate(value):
        sizes, faces = roll_shapes()
        if not isinstance(roll, list) or len(roll) not in sizes:
            shown = _either([f"{size} ({', '.join(titles)})" for size, titles in sorted(sizes.items())])
            raise reader.fail("dice", f"roll {n + 1} must list {shown} faces, got {_show(roll)}")
        for face in roll:
            if type(face) not in (int, str) or str(face) not in faces:
                raise reader.fail("dice", f"roll {n + 1}: {_show(face)} is no die face ({', '.join(sorted(faces))})")
        rolls.append(tuple(roll))
    return tuple(rolls)


def _either(items: list[str]) -> str:
    return " or ".join([", ".join(items[:-1]), items[-1]]) if len(items) > 1 else "".join(items)


def roll_shapes() -> tuple[dict[int, list[str]], set[str]]:
    """Each registered game's roll size (with the games rolling that many dice) and every die
    face any game knows, as text (scenarios may write EXXTRA's "7" as 7)."""
    sizes: dict[int, list[str]] = {}
    faces: set[str] = set()
    for spec in games():
        sizes.setdefault(len(spec.dice), []).append(spec.title)
        faces.update(str(face) for die in spec.dice for face in die)
    return sizes, faces


def _parse_expectation(reader: _StepReader, table: Mapping[str, Any]) -> Expectation:
    kinds = [k for k in table if k in EXPECT_KINDS]
    for key in table:
        if key not in EXPECT_KINDS and not any(key in extra for extra in EXPECT_KINDS.values()):
            raise reader.fail(f"expect.{key}", f"unknown key; an expectation is one of {', '.join(EXPECT_KINDS)}")
    if len(kinds) != 1:
        raise reader.fail("expect", f"an expectation names exactly one of {', '.join(EXPECT_KINDS)}, "
                                    f"got {', '.join(kinds) or 'none'}")
    kind = kinds[0]
    for key in table:
        if key != kind and key not in EXPECT_KINDS[kind]:
            raise reader.fail(f"expect.{key}", f"not allowed with '{kind}'")
    value = table[kind]
    if kind == "replays":
        if value is not True:
            raise reader.fail("expect.replays", f"expected true, got {_show(value)}")
        return Expectation(kind)
    if kind == "led":
        if not isinstance(value, str) or value not in set(cell_names()):
            raise reader.fail("expect.led", f"unknown LED cell {_show(value)}; cells are track.0-21, ladder.0-5, "
                                            "grid.ROW.FIELD, dice.DIE.PIP, seat.0-5")
        if "colour" not in table:
            raise reader.fail("expect.colour", "an led expectation needs colour = [r, g, b] (or a colour name)")
        return Expectation(kind, value, _parse_colours(reader, table["colour"]))
    if not isinstance(value, str) or not value:
        raise reader.fail(f"expect.{kind}", f"expected a non-empty string, got {_show(value)}")
    if kind == "image_sha" and not re.fullmatch(r"[0-9a-f]{16}", value):
        raise reader.fail("expect.image_sha", f"expected 16 lower-case hex digits, got {value!r}")
    if kind == "state":
        try:
            parse_path(value)
        except StateError as exc:
            raise reader.fail("expect.state", str(exc)) from exc
        has_equals, has_none = "equals" in table, "none" in table
        if has_equals == has_none:
            raise reader.fail("expect.state", "a state expectation needs either equals = VALUE or none = true")
        if has_none:
            if table["none"] is not True:
                raise reader.fail("expect.none", f"expected true, got {_show(table['none'])}")
            return Expectation(kind, value, None)
        _check_toml_value(reader, table["equals"])
        return Expectation(kind, value, table["equals"])
    return Expectation(kind, value)


def _parse_colours(reader: _StepReader, value: Any) -> tuple[tuple[int, int, int], ...]:
    """One colour, or a list of colours the cell may show (a multi-colour cell, in turn)."""
    many = isinstance(value, list) and value and all(isinstance(v, (list, str)) for v in value)
    return tuple(_parse_colour(reader, v) for v in value) if many else (_parse_colour(reader, value),)


def _parse_colour(reader: _StepReader, value: Any) -> tuple[int, int, int]:
    if isinstance(value, str):
        if value not in COLOUR_NAMES:
            raise reader.fail("expect.colour", f"unknown colour {value!r}; names are {', '.join(COLOUR_NAMES)}")
        return COLOUR_NAMES[value]
    if (isinstance(value, list) and len(value) == 3
            and all(type(c) is int and 0 <= c <= 255 for c in value)):
        return (value[0], value[1], value[2])
    raise reader.fail("expect.colour", f"expected [r, g, b] with 0-255 each, or a colour name, got {_show(value)}")


def _check_toml_value(reader: _StepReader, value: Any) -> None:
    """Dates and times are TOML values no board state ever holds."""
    if isinstance(value, list):
        for item in value:
            _check_toml_value(reader, item)
    elif isinstance(value, dict):
        for item in value.values():
            _check_toml_value(reader, item)
    elif not isinstance(value, (str, int, float, bool)):
        raise reader.fail("expect.equals", f"expected a string, number, boolean, array or table, got {_show(value)}")


def _show(value: Any) -> str:
    """A value as the scenario file would write it, for messages."""
    if value is None:
        return "nothing"
    if isinstance(value, bool):
        return str(value).lower()
    if isinstance(value, str):
        return json.dumps(value, ensure_ascii=False)
    if isinstance(value, (list, tuple)):
        return "[" + ", ".join(_show(v) for v in value) + "]"
    if isinstance(value, dict):
        return "{ " + ", ".join(f"{k} = {_show(v)}" for k, v in value.items()) + " }"
    return str(value)


# --- reading state: a read-only path into the engine's and the UI's public state ------------

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


def state_roots(app: Any) -> dict[str, Callable[[], Any]]:
    """What a state path may start with on a running board app (each read only when asked)."""
    def session() -> Any:
        return app.session

    def game() -> Any:
        return session().game if session() is not None else None

    def menu() -> Any:
        choice = getattr(app.screen, "choice", None)
        return choice.current.label if choice is not None else None

    return {
        "game": game,
        "pending": lambda: game().pending() if game() is not None else None,
        "result": lambda: game().result() if game() is not None else None,
        "record": lambda: game().to_record() if game() is not None else None,
        "over": lambda: session() is not None and session().over,
        "screen": lambda: type(app.screen).__name__,
        "menu": menu,
        "busy": lambda: app.animation is not None or (session() is not None and not session().over
                                                      and session().pending_bot()),
        "problems": lambda: list(app.problems),
        "settings": lambda: app.settings,
    }


def read_state(roots: Mapping[str, Callable[[], Any]], path: str) -> Any:
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


def _step_into(value: Any, part: str | int, walked: str) -> Any:
    if isinstance(part, int):
        if isinstance(value, Mapping):
            for key in (part, str(part)):
                if key in value:
                    return value[key]
            raise StateError(f"{walked} has no key {part}")
        try:
            return value[part]
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


def plain(value: Any) -> Any:
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


def same(actual: Any, expected: Any) -> bool:
    """Equality that keeps booleans apart from numbers (true ≠ 1)."""
    if isinstance(actual, bool) or isinstance(expected, bool):
        return type(actual) is type(expected) and actual == expected
    if isinstance(actual, list) and isinstance(expected, list):
        return len(actual) == len(expected) and all(same(a, e) for a, e in zip(actual, expected))
    if isinstance(actual, dict) and isinstance(expected, dict):
        return actual.keys() == expected.keys() and all(same(actual[k], expected[k]) for k in actual)
    return actual == expected


# --- scripted dice ------------------------------------------------------------------------------

class ScenarioDice:
    """The rolls a scenario's `dice` steps queued, in order. Faces are matched to the dice asked
    for: EXXTRA's faces are strings, so 7 and "7" both fit its die A."""

    def __init__(self) -> None:
        self._rolls: list[tuple[Any, ...]] = []

    def push(self, faces: Sequence[Any]) -> None:
        self._rolls.append(tuple(faces))

    @property
    def left(self) -> int:
        return len(self._rolls)

    def roll(self, dice: Sequence[Sequence[Any]]) -> tuple[Any, ...]:
        if not self._rolls:
            raise LookupError("the scenario's scripted dice have no roll left; add a dice step before this roll")
        faces = self._rolls.pop(0)
        fitted = tuple(_fit(face, die) for face, die in zip(faces, dice))
        if len(faces) != len(dice) or any(f not in d for f, d in zip(fitted, dice)):
            raise ValueError(f"scripted roll {list(faces)} does not fit the dice asked for: "
                             f"{[list(d) for d in dice]}")
        return fitted


def _fit(face: Any, die: Sequence[Any]) -> Any:
    if face in die:
        return face
    if isinstance(face, int) and str(face) in die:
        return str(face)
    if isinstance(face, str) and face.isdigit() and int(face) in die:
        return int(face)
    return face


# --- running --------------------------------------------------------------------------------------

@dataclass
class ScenarioResult:
    name: str
    steps: int = 0  # steps run
    expectations: int = 0  # expectations checked
    failure: str | None = None  # "step N (line L): expected …, got …"

    @property
    def passed(self) -> bool:
        return self.failure is None

    def summary(self) -> str:
        verdict = "passed" if self.passed else "failed"
        return f"scenario {self.name}: {self.steps} steps, {self.expectations} expectations, {verdict}"


class StepFailed(Exception):
    """An expectation that did not hold; the message is `expected …, got …`."""


@dataclass
class Runner:
    """Runs steps on a driver, composing taps, holds, bounces and mashing from press, release
    and wait — so a bench driver needs only those."""

    driver: BoardDriver
    hold_s: float = 1.0  # the board's long-press time (buttons.hold_s)
    checked: int = 0

    def run_step(self, step: Step) -> None:
        action, d = step.action, self.driver
        if action == "press":
            d.press(step.button)
        elif action == "release":
            d.release(step.button)
        elif action in ("tap", "hold", "bounce"):
            for _ in range(step.times):
                if action == "tap":
                    self.tap(step.button)
                elif action == "hold":
                    self.tap(step.button, step.seconds if step.seconds is not None else self.hold_s + 0.1)
                else:
                    self.bounce(step.button, step.edges)
        elif action == "wait":
            d.wait(step.seconds or 0.0)
        elif action == "settle":
            self.settle()
        elif action == "dice":
            for roll in step.rolls:
                d.queue_dice(roll)
        elif action == "expect":
            for expectation in step.expectations:
                self.check(expectation)
        elif action == "mash":
            self.mash(step)

    # --- composed inputs ----------------------------------------------------------------------
    def tap(self, button: str, seconds: float = TAP_S) -> None:
        self.driver.press(button)
        self.driver.wait(seconds)
        self.driver.release(button)
        self.driver.wait(TAP_S)

    def bounce(self, button: str, edges: int) -> None:
        """A noisy contact: `edges` level changes a few milliseconds apart, then a clean tap."""
        for i in range(edges):
            (self.driver.press if i % 2 == 0 else self.driver.release)(button)
            self.driver.wait(BOUNCE_GAP_S)
        self.tap(button)

    def settle(self) -> None:
        settle = getattr(self.driver, "settle", None)
        if callable(settle):
            settle()
            return
        waited = 0.0
        while self.driver.state("busy") and waited < SETTLE_LIMIT_S:
            self.driver.wait(SETTLE_POLL_S)
            waited += SETTLE_POLL_S

    # --- expectations ---------------------------------------------------------------------------
    def check(self, expectation: Expectation) -> None:
        self.checked += 1
        got = self.observe(expectation)
        if got is not None:
            raise StepFailed(f"expected {expectation.describe()}, got {got}")

    def observe(self, e: Expectation) -> str | None:
        """None when the expectation holds, else what the board showed instead."""
        d = self.driver
        if e.kind == "led":
            colour = tuple(d.led(e.target))
            return None if colour in e.value else str(colour)
        if e.kind == "text":
            texts = d.screen_text()
            return None if any(e.target in line for line in texts) else " | ".join(map(_show, texts)) or "a blank display"
        if e.kind == "image_sha":
            checksum = d.image_checksum()
            return None if checksum == e.target else checksum or "no image"
        if e.kind == "menu":
            label = d.state("menu")
            if label == e.target:
                return None
            return _show(label) if label is not None else f"no menu on {d.state('screen')}"
        if e.kind == "replays":
            return replay_problem(d.state("record"))
        try:
            value = d.state(e.target)
        except StateError as exc:
            return str(exc)
        if e.value is None:
            return None if value is None else _show(value)
        return None if same(value, e.value) else _show(value)

    # --- bad input ------------------------------------------------------------------------------
    def mash(self, step: Step) -> None:
        """`step.count` random taps, bounces, holds, chords and pauses (seeded); after each one
        the board must not have refused a step and its game's record must still replay."""
        rng = random.Random(f"xtraboard-mash:{step.seed}")
        problems = len(self.driver.state("problems"))
        for n in range(1, step.count + 1):
            what, act = self.mash_action(rng, step.buttons)
            try:
                act()
            except Exception as exc:  # the finding: say which action broke the board
                raise StepFailed(f"no exception during mash action {n} ({what}), "
                                 f"got {type(exc).__name__}: {exc}") from exc
            now = self.driver.state("problems")
            if len(now) > problems:
                raise StepFailed(f"no refused step during mash action {n} ({what}), got {_show(now[problems:])}")
            trouble = replay_problem(self.driver.state("record"), required=False)
            if trouble is not None:
                raise StepFailed(f"the game's record to replay after mash action {n} ({what}), got {trouble}")

    def mash_action(self, rng: random.Random, buttons: Sequence[str]) -> tuple[str, Callable[[], None]]:
        """One random action: what it is, and doing it."""
        d = self.driver
        button = rng.choice(buttons)
        kind = rng.random()
        if kind < 0.4:
            seconds = rng.uniform(0.001, 0.2)  # some taps shorter than the debounce window
            return f"tap {button}", lambda: self.tap(button, seconds)
        if kind < 0.55:
            edges = rng.randint(2, 9)
            return f"bounce {button}", lambda: self.bounce(button, edges)
        if kind < 0.65:
            seconds = self.hold_s + rng.uniform(0.05, 1.0)
            return f"hold {button}", lambda: self.tap(button, seconds)
        if kind < 0.75:
            other, gap, overlap = rng.choice(buttons), rng.uniform(0.0, 0.1), rng.uniform(0.0, 0.3)

            def chord() -> None:
                d.press(button)
                d.wait(gap)
                d.press(other)
                d.wait(overlap)
                d.release(button)
                d.release(other)
                d.wait(TAP_S)

            return f"chord {button}+{other}", chord
        pause = rng.choice((0.0, 0.05, 0.15, 0.4, 1.0))  # lands mid-animation, or lets a bot move
        return f"wait {pause:g}", lambda: d.wait(pause)


def replay_problem(record: Any, *, required: bool = True) -> str | None:
    """None when `record` replays to a game with the same record, else what went wrong."""
    from firmware.records import replay_record

    if record is None:
        return "no game on the board" if required else None
    try:
        replayed = replay_record(record).to_record()
    except ValueError as exc:
        return f"{type(exc).__name__}: {exc}"
    if replayed.get("steps") != record.get("steps") or replayed.get("result") != record.get("result"):
        return "a replay that differs from the game"
    return None


def run_scenario(scenario: Scenario, driver: BoardDriver, *, hold_s: float = 1.0,
                 out: TextIO | None = None) -> ScenarioResult:
    """Run every step in order; stop at the first failed expectation (or an exception from the
    board), print `FAIL step N (line L): …` and the summary line."""
    out = out if out is not None else sys.stdout
    runner = Runner(driver, hold_s)
    result = ScenarioResult(scenario.name)
    for step in scenario.steps:
        result.steps += 1
        try:
            runner.run_step(step)
        except StepFailed as exc:
            result.failure = f"{step.where}: {exc}"
        except Exception as exc:  # the board (or a driver) broke: that is the finding
            result.failure = f"{step.where}: {step.action} made the board raise {type(exc).__name__}: {exc}"
        result.expectations = runner.checked
        if result.failure is not None:
            print(f"FAIL {result.failure}", file=out)
            break
    print(result.summary(), file=out)
    return result


def run_scenario_file(path: str | Path, *, board_file: str | Path | None = None,
                      screenshot: str | Path | None = None, state_dir: str | Path | None = None,
                      out: TextIO | None = None) -> int:
    """`xtraboard sim --headless --scenario FILE`: 0 passed, 1 failed, 2 invalid file.
    `board_file` (the command line's --board) wins over the scenario's `board`."""
    from firmware.hardware.config import load_board
    from sim.board import SimBoard

    out = out if out is not None else sys.stdout
    try:
        scenario = load_scenario(path)
        board_path = board_file if board_file is not None else scenario.board
        hold_s = load_board(board_path).buttons.hold_s
    except ConfigError as exc:
        print(f"xtraboard sim: {exc}", file=sys.stderr)
        return 2
    dice = ScenarioDice() if scenario.scripted_dice else None
    board = SimBoard(board_file=board_path, seed=scenario.seed, state_dir=state_dir, dice=dice)
    try:
        result = run_scenario(scenario, board, hold_s=hold_s, out=out)
        if screenshot is not None:
            from sim.screenshot import save_screenshot

            save_screenshot(board, Path(screenshot))
    finally:
        board.close()
    return 0 if result.passed else 1

