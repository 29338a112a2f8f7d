"""The engine side of the xtraboard decision protocol (XDP): the board's bots behind a line
protocol on stdin/stdout, in the spirit of UCI (docs/engine-protocol.md).

    >>> engine = EngineServer()
    >>> engine.handle("isready")
    ['readyok']
    >>> engine.handle("position {\\"format\\": \\"xtraboard-record\\", \\"version\\": 1, \\"game\\": \\"exxtra\\","
    ...               " \\"players\\": [{\\"name\\": \\"A\\"}, {\\"name\\": \\"B\\"}, {\\"name\\": \\"C\\"}],"
    ...               " \\"steps\\": [{\\"roll\\": [\\"7\\", \\"6\\"]}]}")
    []
    >>> engine.handle("go")[-1]
    'bestmove {"do":"place","rung":5}'

Each command line gets its answer lines at once; nothing is printed on its own. Answers to a
plain `go` are reproducible: the bot's randomness comes from the `Seed` option and the position
alone. `go movetime MS` gives the bot a `Deadline` MS − `MARGIN_MS` after the `go`: EXTRA!'s
strong searches until then (so its answer depends on the machine's speed), the other levels
answer as they always do. The first `isready` (else the first `position`) loads everything a
`go` needs (each game's bots of every level decide once on a seeded opening: their modules, the
strong EXTRA! bot's learnt tables), so the first `go` costs what a later one does.
"""

from __future__ import annotations

import hashlib
import json
import logging
import random
import time
from collections.abc import Callable

from firmware import __version__
from firmware.bots import Deadline, choose
from firmware.dice import SeededDice
from firmware.errors import XtraboardError
from firmware.games import Game, find_game, new_game
from firmware.games.base import OVER
from firmware.games.registry import games
from firmware.records import parse_record_text, replay_record
from firmware.turns import dice_roll, roll_to_decision

LEVELS = ("easy", "medium", "strong")
DEFAULT_LEVEL = "strong"
SEED_MAX = 2**31 - 1
MARGIN_MS = 2.0  # of a `go movetime`, kept for answering (the bot's deadline is this much earlier)


class EngineServer:
    """One engine conversation: feed it lines with `handle`, write what it returns."""

    def __init__(self, clock: Callable[[], float] = time.perf_counter) -> None:
        self.level = DEFAULT_LEVEL
        self.seed = 0
        self.game: Game | None = None
        self.position_error: str | None = "no position given"
        self.finished = False
        self._record_key = ""
        self._clock = clock
        self._ready = False  # everything a `go` needs is loaded (the first `isready` does it)
        self._unreported: list[str] = []  # what failed meanwhile, not yet reported

    def handle(self, line: str) -> list[str]:
        """The answer lines to one command line (empty for commands that answer nothing)."""
        words = line.strip().split(maxsplit=1)
        if not words:
            return []
        command, rest = words[0], words[1] if len(words) > 1 else ""
        handler = {
            "xdp": self._hello,
            "isready": self._isready,
            "setoption": self._set_option,
            "position": self._position,
            "go": self._go,
            "quit": self._quit,
        }.get(command)
        if handler is None:
            return [f"info string unknown command {command}"]
        return handler(rest)

    # --- commands ---------------------------------------------------------------------------
    def _hello(self, _: str) -> list[str]:
        return [
            f"id name xtraboard {__version__}",
            f"option name Level type combo default {DEFAULT_LEVEL} " + " ".join(f"var {v}" for v in LEVELS),
            f"option name Seed type spin default 0 min 0 max {SEED_MAX}",
            "xdpok",
        ]

    def _isready(self, _: str) -> list[str]:
        self._load()
        return self._problems() + ["readyok"]

    def _load(self) -> None:
        """Load everything a `go` needs, once (the first `isready`, else the first `position`)."""
        if not self._ready:
            self._unreported = _warm_up()
            self._ready = True

    def _problems(self) -> list[str]:
        """What failed while loading, as `info string error` lines, reported once."""
        problems, self._unreported = self._unreported, []
        return [f"info string error {problem}" for problem in problems]

    def _set_option(self, rest: str) -> list[str]:
        name, value = _option(rest)
        if name is None:
            return [f"info string error setoption needs 'name <Name> value <value>', not {rest!r}"]
        if name.lower() == "level":
            if value not in LEVELS:
                return [f"info string error Level must be one of {', '.join(LEVELS)}, not {value!r}"]
            self.level = value
        elif name.lower() == "seed":
            if value is None or not value.isdigit() or int(value) > SEED_MAX:
                return [f"info string error Seed must be a whole number from 0 to {SEED_MAX}, not {value!r}"]
            self.seed = int(value)
        else:
            return [f"info string error unknown option {name!r}"]
        return []

    def _position(self, rest: str) -> list[str]:
        """Replay the record; a bad one is remembered and reported at the next `go`. Before any
        `isready`, load what it would first, so that no `go` pays for it (its movetime kept)."""
        self._load()
        self.game, self.position_error = None, None
        try:
            record = parse_record_text(rest, "the position")
            if "result" in record:
                raise XtraboardError("a position is a record without 'result'")
            self.game = replay_record(record)
            self._record_key = json.dumps(record, sort_keys=True, separators=(",", ":"))
        except (XtraboardError, ValueError, RecursionError) as exc:
            self.position_error = " ".join(str(exc).split()) or type(exc).__name__
        return []

    def _go(self, rest: str) -> list[str]:
        start = self._clock()
        limit = _movetime(rest)
        if isinstance(limit, str):
            return [f"info string error {limit}", "bestmove none"]
        game = self.game
        if game is None:
            return [f"info string error {self.position_error}", "bestmove none"]
        if not game.legal_decisions():
            return [f"info string error no decision is pending ({game.pending().kind})", "bestmove none"]
        spec = find_game(game.name)
        level = self.level if self.level in spec.levels else spec.levels[-1]
        deadline = None if limit is None else Deadline(start + max(0.0, limit - MARGIN_MS) / 1000.0, self._clock)
        step = choose(game.copy(), self._rng(), level, deadline)
        elapsed_ms = (self._clock() - start) * 1000.0
        info = self._problems() + [f"info level {level} player {game.pending().player} time {elapsed_ms:.0f}"]
        if level != self.level:
            info.insert(0, f"info string {spec.title} has no level {self.level}; playing {level}")
        return info + ["bestmove " + json.dumps(step.to_json(), separators=(",", ":"))]

    def _quit(self, _: str) -> list[str]:
        self.finished = True
        return []

    def _rng(self) -> random.Random:
        """The same position and Seed give the same answer, whatever came before."""
        digest = hashlib.sha256(f"{self.seed}:{self.level}:{self._record_key}".encode()).hexdigest()
        return random.Random(digest)


def _warm_up() -> list[str]:
    """Let every level of every game decide once on a seeded opening position, so that what
    they load on first use (modules, tables, caches) is loaded now. What failed or was logged as
    an error meanwhile (a bot that falls back, say), one line each."""
    problems: list[str] = []
    heard = _Collect()
    logging.getLogger().addHandler(heard)
    try:
        _decide_once(problems)
    finally:
        logging.getLogger().removeHandler(heard)
    return [" ".join(message.split()) for message in heard.messages + problems]


class _Collect(logging.Handler):
    def __init__(self) -> None:
        super().__init__(logging.ERROR)
        self.messages: list[str] = []

    def emit(self, record: logging.LogRecord) -> None:
        self.messages.append(record.getMessage())


def _decide_once(problems: list[str]) -> None:
    """Each level of each game decides on the game's first decision of a seeded opening."""
    for spec in games():
        game = new_game(spec.name, [f"P{n}" for n in range(spec.players.start)])
        roll_to_decision(game, dice_roll(SeededDice("xdp-warm-up")))
        if game.pending().kind == OVER:
            continue
        for level in spec.levels:
            try:
                choose(game.copy(), random.Random(0), level)
            except Exception as exc:  # noqa: BLE001 - any bot failure is reported, not fatal
                problems.append(f"{spec.title} {level}: {type(exc).__name__}: {exc}")


def _option(rest: str) -> tuple[str | None, str | None]:
    """'name Level value medium' → ('Level', 'medium'); names may hold spaces, as in UCI."""
    words = rest.split()
    if not words or words[0] != "name":
        return None, None
    if "value" in words:
        cut = words.index("value")
        return " ".join(words[1:cut]) or None, " ".join(words[cut + 1 :]) or None
    return " ".join(words[1:]) or None, None


def _movetime(rest: str) -> float | None | str:
    """The `go` arguments: None, a time budget in ms, or an error text."""
    words = rest.split()
    if not words:
        return None
    if len(words) == 2 and words[0] == "movetime" and words[1].isdigit():
        return float(words[1])
    return f"go takes nothing or 'movetime MS', not {rest!r}"
