"""Budgets counted in instructions (valgrind's callgrind), not seconds: a count does not depend on
the load of a shared machine, and docs/performance.md turns it into Pi Zero 2 W time.

A region's count is the difference between two runs of the same script that differ only by N
repetitions of it (`per_repetition`): start-up, imports, the board's set-up and the region's
first-use costs cancel out. Where a figure
wants one count per case (a bot's decision over a seeded set of positions, for p50/p99) one run
marks the cases: callgrind dumps its counters each time the script calls `os.getppid()`
(`--dump-before=os_getppid*`), and each case's count is what ran between two marks.

Callgrind is about 50 times slower than Python alone: `xtraboard bench loop --instructions` and
`bench bots --instructions` take minutes.
"""

from __future__ import annotations

import os
import re
import shutil
import subprocess
import sys
import tempfile
import textwrap
from collections.abc import Iterator
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
MARK = "os_getppid*"  # the C function of os.getppid(): each call is a mark (a dump)


def callgrind(script: str) -> list[int]:
    """Run `script` in a fresh Python under callgrind; the instructions of each stretch between
    marks (and before the first and after the last), in order."""
    return _callgrind(script)[0]


def _callgrind(script: str) -> tuple[list[int], str]:
    """`callgrind`'s counts, and what the script printed."""
    if shutil.which("valgrind") is None:
        raise RuntimeError("valgrind is not installed: the instruction counts need its callgrind tool")
    with tempfile.TemporaryDirectory(prefix="xtraboard-callgrind-") as folder:
        out = Path(folder) / "callgrind.out"
        env = dict(os.environ, PYTHONPATH=os.pathsep.join(p for p in (str(ROOT), os.environ.get("PYTHONPATH")) if p))
        done = subprocess.run(
            [
                "valgrind",
                "--tool=callgrind",
                f"--callgrind-out-file={out}",
                f"--dump-before={MARK}",
                sys.executable,
                "-c",
                textwrap.dedent(script),
            ],
            env=env,
            capture_output=True,
            text=True,
        )
        if done.returncode != 0:
            raise RuntimeError(f"the counted script failed: {done.stderr.strip().splitlines()[-1:]}")
        parts = sorted(Path(folder).glob("callgrind.out.*"), key=lambda p: int(p.suffix[1:]))
        return [_total(p) for p in [*parts, out]], done.stdout


def _total(path: Path) -> int:
    match = re.search(r"^totals: (\d+)", path.read_text(), re.M)
    if match is None:
        raise RuntimeError(f"no totals in {path.name}")
    return int(match.group(1))


def per_repetition(script: str, n: int) -> float:
    """Instructions of one repetition of the region `script` repeats N_REPEAT times: the runs
    with n and with 2n repetitions, their difference over n (both runs have done the region n
    times already, so first-use costs — fonts, caches — are in both and cancel out). A script
    whose repetitions differ in size prints `units K` at its end (K units of work done, such as
    presses), and the difference is then over the units the second run did more."""
    once, said_once = _callgrind(script.replace("N_REPEAT", str(n)))
    twice, said_twice = _callgrind(script.replace("N_REPEAT", str(2 * n)))
    units = _units(said_twice) - _units(said_once) if "units" in said_once else n
    return (sum(twice) - sum(once)) / units


def _units(printed: str) -> int:
    match = re.search(r"^units (\d+)$", printed, re.M)
    if match is None:
        raise RuntimeError(f"the counted script printed no `units K` line: {printed[-200:]!r}")
    return int(match.group(1))


BOARD = """
    import os
    from firmware.board_loop import Board
    from firmware.hardware.board import open_hardware
    from firmware.hardware.config import load_board
    from firmware.loop import EventLoop, FakeClock
    from firmware.table import Seat, Table

    clock = FakeClock(10.0)
    loop = EventLoop(clock)
    config = load_board()
    hardware = open_hardware(config, "mock", emit=loop.post, clock=clock)
    board = Board(hardware, loop, think_apart=False)
    pins = {name: hardware.pin_factory.pin(pin) for name, pin in config.buttons.pins.items()}
    board.render()

    def tap(name):
        pins[name].drive_low(); loop.run_pending(board.handle)
        clock.advance(0.05); loop.run_pending(board.handle)
        pins[name].drive_high(); loop.run_pending(board.handle)
        clock.advance(0.05); loop.run_pending(board.handle)
"""

CURSOR = (
    BOARD
    + """
    for _ in range(N_REPEAT):  # RIGHT on the main menu: the cursor moves, the display is pushed
        tap("right")
"""
)

STEP = (
    BOARD
    + """
    from firmware.games.registry import games

    game = next(spec.name for spec in games() if 3 in spec.players)  # the menu's first game for three
    table = Table.start(game, [Seat("A", "red"), Seat("B", "blue"), Seat("C", "green")], seed=1)
    board.app.start_session(table)
    board.render()

    def settle():
        while board.app.animation is not None:
            clock.advance(board.app.animation.current.seconds); loop.run_pending(board.handle)

    presses = 0
    for _ in range(N_REPEAT):  # a person's turn: ROLL, then OK on the offered decision(s)
        tap("roll"); settle()
        presses += 1
        while not table.awaiting_roll and not table.over:
            tap("ok"); settle()
            presses += 1
    print("units", presses)  # turns differ with the dice: counted per press, not per turn
"""
)

READY = """
    import os
    from firmware.board_loop import Board
    from firmware.hardware.board import open_hardware
    from firmware.hardware.config import load_board
    from firmware.loop import EventLoop

    loop = EventLoop()
    config = load_board()
    hardware = open_hardware(config, "mock", emit=loop.post, clock=loop.clock)
    board = Board(hardware, loop)  # starts its thinking process (counted apart: THINKER_READY)
    board.render()  # what `run` does before it says READY
    os.getppid()  # READY
    board.close()
"""

THINKER_READY = """
    import os
    from firmware.thinker import warm_up

    warm_up()  # what the thinking process does before it says "ready"
    os.getppid()
"""


def loop_figures() -> Iterator[tuple[str, float]]:
    """Edge-to-push of a cursor move and of a step with its animation, and start-to-READY."""
    yield "instructions_cursor_move", per_repetition(CURSOR, 10)
    # A turn of EXXTRA is two steps or more, each a press with its animation's frames pushed:
    # the ROLL (the dice tumble) and OK on each offered decision (a re-roll, the climb).
    yield "instructions_step_with_animation", per_repetition(STEP, 4)
    yield "instructions_start_to_ready", float(callgrind(READY)[0])
    yield "instructions_thinker_start_to_ready", float(callgrind(THINKER_READY)[0])


DECISIONS = """
    import os, random
    from firmware.bots import choose
    from firmware.games import Roll, new_game
    from firmware.games.registry import find_game
    from firmware.turns import play_out

    spec = find_game(GAME)
    level = spec.levels[-1]
    positions = []
    rng = random.Random(SEED)

    def decide(game):  # seeded positions along easy-bot games, each a pending decision
        if rng.random() < 0.3:
            positions.append((game.copy(), random.Random(rng.random())))
        return choose(game, rng, spec.levels[0])

    def roll(game):
        return Roll(tuple(rng.choice(die) for die in game.dice()))

    while len(positions) < COUNT:
        game = new_game(GAME, [f"P{n}" for n in range(PLAYERS)])
        play_out(game, roll, [decide] * PLAYERS, stop=lambda _: len(positions) >= COUNT)
    choose(positions[0][0].copy(), random.Random(0), level)  # first use: tables loaded, not counted
    for game, seed in positions:
        os.getppid()
        choose(game, seed, level)
    os.getppid()
"""


def decision_figures(names: list[str], count: int, seed: int) -> Iterator[tuple[str, float]]:
    """The strongest level's decision with no movetime, per game: p50 and p99 over `count`
    seeded positions (each counted alone between two marks)."""
    from firmware.games.registry import find_game

    for name in names:
        spec = find_game(name)
        players = spec.bench_players or min(4, spec.players[-1])
        script = (
            DECISIONS.replace("GAME", repr(name))
            .replace("COUNT", str(count))
            .replace("SEED", str(seed))
            .replace("PLAYERS", str(players))
        )
        counts = sorted(callgrind(script)[1:-1])
        level = spec.levels[-1]
        yield f"{name}_{level}_decision_minstr_p50", counts[len(counts) // 2] / 1e6
        yield f"{name}_{level}_decision_minstr_p99", counts[min(len(counts) - 1, int(len(counts) * 0.99))] / 1e6
        yield f"{name}_{level}_decisions_counted", float(len(counts))
