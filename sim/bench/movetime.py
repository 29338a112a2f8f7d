"""Answer time against `go movetime MS`, through a real `xtraboard engine` process.

For each game and each movetime, one engine process (`python -m firmware engine`, strongest
level) is started and made ready (`xdp`, `isready`: what the bots load first is loaded then);
it is then given a seeded set of positions along easy-bot games, the same for every movetime.
Each `position` is followed by an `isready`, so that replaying the record is done before the
clock starts; the time is the wall-clock time from writing `go movetime MS` to reading its
`bestmove` line, the first `go` of the process included. Per game and movetime: p50, p99 and
the largest answer time, and the p99 of the time past MS (the goal: at most 10 ms), and how many
answers differ from the same engine's answer with no movetime; and the CPU time of the same
`go`s to an engine in this process (p50, p99, largest): the search's own share, which the
machine's load does not move.

Wall-clock times on a shared machine move with its load (a process waiting for a core misses
any deadline): these are benchmark figures, for docs/performance.md, not test assertions.
`--nice -10` (as root) runs the engines ahead of the other work, to see the search's own timing.
"""

from __future__ import annotations

import json
import os
import random
import subprocess
import sys
import time
from collections.abc import Iterator, Sequence
from typing import IO, Any

from firmware.bots import choose
from firmware.games.base import Decision
from firmware.games import Game, Roll, new_game
from firmware.games.registry import find_game
from firmware.turns import play_out
from firmware.xdp.server import EngineServer


def positions(name: str, count: int, seed: int) -> list[dict[str, Any]]:
    """`count` seeded positions (records without result) along easy-bot games of `name`."""
    spec = find_game(name)
    players = spec.bench_players or min(4, spec.players[-1])
    found: list[dict[str, Any]] = []
    rng = random.Random(seed)

    def decide(game: Game) -> Decision:  # one position in three or so is kept, before its decision
        if rng.random() < 0.3:
            found.append({k: v for k, v in game.to_record().items() if k != "result"})
        return choose(game, rng, spec.levels[0])

    def roll(game: Game) -> Roll:
        return Roll(tuple(rng.choice(die) for die in game.dice()))

    while len(found) < count:
        game = new_game(name, [f"P{n}" for n in range(players)])
        play_out(game, roll, [decide] * players, stop=lambda _: len(found) >= count)
    return found


class Engine:
    """`xtraboard engine` as a subprocess, spoken to line by line."""

    def __init__(self, nice: int = 0) -> None:
        self.process = subprocess.Popen(
            [sys.executable, "-m", "firmware", "engine"],
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            text=True,
            bufsize=1,
            preexec_fn=(lambda: os.nice(nice) and None) if nice else None,  # noqa: PLW1509 - no threads here
        )
        self.ask("xdp", "xdpok")
        self.ask("isready", "readyok")

    def send(self, line: str) -> None:
        stdin: IO[str] | None = self.process.stdin
        assert stdin is not None
        stdin.write(line + "\n")
        stdin.flush()

    def until(self, prefix: str) -> str:
        stdout: IO[str] | None = self.process.stdout
        assert stdout is not None
        while True:
            line = stdout.readline()
            if not line:
                raise RuntimeError(f"the engine ended before answering {prefix!r}")
            if line.startswith(prefix):
                return line.strip()

    def ask(self, line: str, prefix: str) -> str:
        self.send(line)
        return self.until(prefix)

    def go(self, record: dict[str, Any], movetime: int | None) -> tuple[float, str]:
        """(seconds from `go` to `bestmove`, the bestmove line)."""
        self.send("position " + json.dumps(record, separators=(",", ":")))
        self.ask("isready", "readyok")
        start = time.perf_counter()
        answer = self.ask("go" if movetime is None else f"go movetime {movetime}", "bestmove")
        return time.perf_counter() - start, answer

    def close(self) -> None:
        self.send("quit")
        self.process.wait(10)


def _cpu_times(records: list[dict[str, Any]], movetime: int) -> list[float]:
    """The CPU time (ms) of each `go movetime` to an engine in this process: what the search
    itself spends, whatever the machine's load."""
    engine = EngineServer()
    engine.handle("isready")
    times = []
    for record in records:
        engine.handle("position " + json.dumps(record, separators=(",", ":")))
        start = time.process_time()
        engine.handle(f"go movetime {movetime}")
        times.append((time.process_time() - start) * 1000.0)
    return times


def _quantile(values: Sequence[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(len(ordered) * q))]


def answer_times(
    names: list[str], count: int, seed: int, movetimes: list[int], nice: int = 0
) -> Iterator[tuple[str, float]]:
    """Per game and movetime: answer-time p50/p99/max (ms), p99 past the movetime (ms), and the
    answers that differ from the answer with no movetime. The engines run at niceness `nice`
    (below 0 needs root: on a loaded machine, their time is then the search's rather than the
    wait for a core)."""
    for name in names:
        records = positions(name, count, seed)
        engine = Engine(nice)
        plain = []
        try:
            times = []
            for record in records:
                elapsed, answer = engine.go(record, None)
                times.append(elapsed * 1000.0)
                plain.append(answer)
        finally:
            engine.close()
        yield f"{name}_no_movetime_answer_ms_p50", _quantile(times, 0.5)
        yield f"{name}_no_movetime_answer_ms_p99", _quantile(times, 0.99)
        for movetime in movetimes:
            engine = Engine(nice)
            try:
                times, answers = [], []
                for record in records:
                    elapsed, answer = engine.go(record, movetime)
                    times.append(elapsed * 1000.0)
                    answers.append(answer)
            finally:
                engine.close()
            label = f"{name}_movetime_{movetime}"
            cpu = _cpu_times(records, movetime)
            yield f"{label}_cpu_ms_p50", _quantile(cpu, 0.5)
            yield f"{label}_cpu_ms_p99", _quantile(cpu, 0.99)
            yield f"{label}_cpu_ms_max", max(cpu)
            yield f"{label}_answer_ms_p50", _quantile(times, 0.5)
            yield f"{label}_answer_ms_p99", _quantile(times, 0.99)
            yield f"{label}_answer_ms_max", max(times)
            yield f"{label}_over_ms_p99", max(0.0, _quantile(times, 0.99) - movetime)
            yield f"{label}_answers_changed", float(sum(a != b for a, b in zip(answers, plain)))
        yield f"{name}_positions", float(len(records))
