"""The scenario format: a TOML file of scripted button presses, dice and expectations
(docs/scenarios.md), parsed and validated into `Scenario`, `Step` and `Expectation`.

    >>> load_scenario("tests/scenarios/menu.toml").name   # doctest: +SKIP
    'menu'

The whole file is parsed and validated before anything runs; `ScenarioError` names the file,
the step and the key at fault. A scenario runs (`sim.scenario.runner`) against any board that
offers the small `BoardDriver` protocol — the simulator's `SimBoard` in CI, a real board on the
bench through another driver.
"""

from __future__ import annotations

import json
import re
import tomllib
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from functools import partial
from pathlib import Path
from typing import Any, Protocol, runtime_checkable

from firmware.errors import ConfigError
from firmware.games.registry import games
from firmware.games.registry import board_layout
from firmware.hardware.config import BUTTON_NAMES, cell_names
from firmware.input_files import NotRegularFile, TooLarge, read_regular_file
from firmware.ui.colours import PLAYER_COLOURS
from firmware.state_reader import StateError, parse_path

DEFAULT_SEED = 0  # scenarios are reproducible unless they script every roll themselves
COLOUR_NAMES: dict[str, tuple[int, int, int]] = dict(PLAYER_COLOURS) | {"off": (0, 0, 0)}

ACTIONS: dict[str, frozenset[str]] = {  # each step's one action key, and the keys it may add
    "press": frozenset(),
    "release": frozenset(),
    "tap": frozenset({"times"}),
    "hold": frozenset({"seconds", "times"}),
    "bounce": frozenset({"edges", "times"}),
    "dice": frozenset(),
    "wait": frozenset(),
    "settle": frozenset(),
    "expect": frozenset(),
    "mash": frozenset({"seed", "buttons"}),
}
HEADER_KEYS = ("name", "description", "seed", "board", "dice", "secret", "step")
EXPECT_KINDS: dict[str, frozenset[str]] = {  # an expectation's main key, and the keys it may add
    "led": frozenset({"colour"}),
    "text": frozenset(),
    "image_sha": frozenset(),
    "state": frozenset({"equals", "none"}),
    "menu": frozenset(),
    "replays": frozenset(),
}
_STEP_HEADER = re.compile(r"^\s*\[\[\s*step\s*\]\]\s*(#.*)?$")


class ScenarioError(ConfigError):
    """A scenario file that cannot be run: not TOML, or a key, type, button or cell is wrong."""


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
    # The board's own sealed dice, unseeded as on a real board, with this secret in place of a
    # fresh one (the seal's page comes before the first roll; the seal and the rolls are the same
    # every run); None: seeded (`seed`) or scripted dice.
    secret: str | None = None

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


MAX_SCENARIO_BYTES = 4_000_000  # a scenario is a few kilobytes, a recorded session some hundred


def load_scenario(path: str | Path) -> Scenario:
    """Read and validate a scenario file; ScenarioError names the file, step, line and key."""
    path = Path(path)
    try:
        # Bounded, a regular file only: a FIFO would block the run for ever, /dev/zero never ends.
        text = read_regular_file(path, MAX_SCENARIO_BYTES).decode("utf-8")
    except NotRegularFile as exc:
        raise ScenarioError(f"{path}: not a regular file ({exc.kind}); expected a scenario (TOML)") from None
    except TooLarge:
        raise ScenarioError(f"{path}: larger than {MAX_SCENARIO_BYTES} bytes; expected a scenario (TOML)") from None
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
    secret = data.get("secret")
    if secret is not None:
        if not isinstance(secret, str) or not secret.strip():
            raise ScenarioError(f"{path}: key 'secret': expected the dice's secret as text, got {_show(secret)}")
        for other in ("seed", "dice"):
            if other in data:
                raise ScenarioError(
                    f"{path}: key 'secret': the board's own sealed dice are unseeded and not scripted;"
                    f" drop '{other}' or 'secret'"
                )
    raw_steps = data.get("step")
    if not isinstance(raw_steps, list) or not raw_steps or not all(isinstance(s, dict) for s in raw_steps):
        raise ScenarioError(f"{path}: key 'step': expected one or more [[step]] tables, got {_show(raw_steps)}")
    lines = _step_lines(text, raw_steps)
    steps = tuple(_parse_step(_StepReader(path, i + 1, lines[i], raw)) for i, raw in enumerate(raw_steps))
    if not dice:
        for step in steps:
            if step.action == "dice":
                raise _StepReader(path, step.number, lines[step.number - 1], {"dice": True}).fail(
                    "dice", 'dice steps need dice = "scripted" in the header (else the seed rolls the dice)'
                )
    board_path = (path.parent / board) if board is not None else None
    return Scenario(path, name, description, seed, board_path, dice == "scripted", steps, secret)


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
        raise reader.fail(
            actions[1], f"a step does one thing, and this one already has '{actions[0]}'; make it a step of its own"
        )
    action = actions[0]
    for key in data:
        if key != action and key not in ACTIONS[action]:
            allowed = ", ".join(sorted(ACTIONS[action])) or "no other keys"
            raise reader.fail(key, f"not allowed with '{action}' (it takes {allowed})")
    value = data[action]
    make = partial(Step, number=reader.number, line=reader.line, action=action)
    times = reader.integer("times", 1, 1000) if "times" in data else 1
    if action in ("press", "release", "tap", "hold", "bounce"):
        button = reader.button(action, value)
        seconds = reader.seconds("seconds", data["seconds"], 60.0) if "seconds" in data else None
        edges = reader.integer("edges", 1, 100) if "edges" in data else 6
        return make(button=button, times=times, seconds=seconds, edges=edges)
    if action == "wait":
        return make(seconds=reader.seconds(action, value))
    if action == "settle":
        if value is not True:
            raise reader.fail(action, f"expected true (wait until nothing moves by itself), got {_show(value)}")
        return make()
    if action == "dice":
        return make(rolls=_parse_rolls(reader, value))
    if action == "mash":
        count = reader.integer("mash", 1, 100_000)
        seed = data.get("seed", 0)
        if isinstance(seed, bool) or not isinstance(seed, (int, str)):
            raise reader.fail("seed", f"expected a whole number or a string, got {_show(seed)}")
        buttons = data.get("buttons", list(BUTTON_NAMES))
        if not isinstance(buttons, list) or not buttons:
            raise reader.fail("buttons", f"expected a list of button names, got {_show(buttons)}")
        names = tuple(reader.button("buttons", b) for b in buttons)
        return make(count=count, seed=seed, buttons=names)
    tables = value if isinstance(value, list) else [value]
    if not tables or not all(isinstance(t, dict) for t in tables):
        raise reader.fail(
            action, f'expected a table such as {{ text = "press ROLL" }} (or a list of them), got {_show(value)}'
        )
    return make(expectations=tuple(_parse_expectation(reader, t) for t in tables))


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
        if key not in EXPECT_KINDS and not any(key in options for options in EXPECT_KINDS.values()):
            raise reader.fail(f"expect.{key}", f"unknown key; an expectation is one of {', '.join(EXPECT_KINDS)}")
    if len(kinds) != 1:
        raise reader.fail(
            "expect", f"an expectation names exactly one of {', '.join(EXPECT_KINDS)}, got {', '.join(kinds) or 'none'}"
        )
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
            cells = ", ".join(group.pattern() for group in board_layout())  # the games' and the board's own
            raise reader.fail("expect.led", f"unknown LED cell {_show(value)}; cells are {cells}")
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
    if isinstance(value, list) and len(value) == 3 and all(type(c) is int and 0 <= c <= 255 for c in value):
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
