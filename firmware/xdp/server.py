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

Each command line gets its answer lines at once; nothing is printed on its own. Answers are
reproducible: the bot's randomness comes from the `Seed` option and the position alone.
"""

from __future__ import annotations

import hashlib
import json
import random
import time
from collections.abc import Callable

from firmware import __version__
from firmware.bots import choose
from firmware.errors import XtraboardError
from firmware.games import Game, find_game
from firmware.records import parse_record_text, replay_record

LEVELS = ("easy", "medium", "strong")
DEFAULT_LEVEL = "strong"
SEED_MAX = 2**31 - 1


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

    def handle(self, line: str) -> list[str]:
        """The answer lines to one command line (empty for commands that answer nothing)."""
        words = line.strip().split(maxsplit=1)
        if not words:
            return []
        command, rest = words[0], words[1] if len(words) > 1 else ""
        handler = {
            "xdp": self._hello,
            "isready": lambda _: ["readyok"],
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
        """Replay the record; a bad one is remembered and reported at the next `go`."""
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
        start = self._clock()
        step = choose(game.copy(), self._rng(), level)
        elapsed_ms = (self._clock() - start) * 1000.0
        info = [f"info level {level} player {game.pending().player} time {elapsed_ms:.0f}"]
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
