"""Loop figures: edge-to-push latency, idle CPU, peak memory, and bus bytes of a cursor move.

Everything runs the real firmware loop on simulated adapters: gpiozero MockFactory pins, a
PixelBuf in memory, and the REAL luma driver of the display over a recording I2C or SPI bus (so
the display figures count the bytes that would cross the wire): the default board's, then each
display profile's in hardware/boards/ (`PROFILE_bus_bytes_…` figures).
"""

from __future__ import annotations

import argparse
import os
import resource
import statistics
import threading
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

from firmware.board_loop import Board
from firmware.hardware.board import open_hardware
from firmware.hardware.config import default_board_path, load_board
from firmware.loop import EventLoop, FakeClock, Stop
from sim.bench.buses import recording_serial
from sim.timing import TAP_S


def _board(
    clock: Any, loop: EventLoop, path: Path | None = None, think_apart: bool | None = None
) -> tuple[Board, Any, dict[str, Any]]:
    config = load_board(path)
    serial, bus = recording_serial(config.display)
    hardware = open_hardware(config, "mock", emit=loop.post, clock=clock, serial=serial)
    board = Board(hardware, loop, think_apart=think_apart)
    pins = {name: hardware.pin_factory.pin(pin) for name, pin in config.buttons.pins.items()}
    return board, bus, pins


def edge_to_push(samples_wanted: int = 400) -> dict[str, float]:
    """Seat setup, ROLL = next colour: each press changes a seat LED and the display. ROLL acts
    when let go (a long ROLL is the legend): timed from the pin's rising edge to both pushes done
    (the loop thread's work)."""
    clock = time.monotonic
    loop = EventLoop(clock)
    board, _, pins = _board(clock, loop)
    board.render()
    for button in ("ok", "ok"):  # play the menu's first game → its first seat count → the first seat screen
        _tap(board, loop, pins[button])
    samples = []
    for _ in range(samples_wanted):
        pins["roll"].drive_low()
        loop.run_pending(board.handle)
        time.sleep(TAP_S / 2)  # past the debounce window, yet short: real time
        loop.run_pending(board.handle)
        before = dict(board.pushes)
        start = time.perf_counter()
        pins["roll"].drive_high()
        loop.run_pending(board.handle)
        elapsed = time.perf_counter() - start
        if board.pushes["leds"] > before["leds"] and board.pushes["display"] > before["display"]:
            samples.append(elapsed * 1000.0)
        time.sleep(TAP_S / 2)
        loop.run_pending(board.handle)
    samples.sort()
    return {
        "edge_to_push_p50_ms": statistics.median(samples),
        "edge_to_push_p99_ms": samples[int(len(samples) * 0.99) - 1],
        "edge_to_push_samples": len(samples),
    }


def edge_to_push_while_a_bot_thinks(samples_wanted: int = 400) -> dict[str, float]:
    """The in-game menu while the board's thinking process searches without pause (the slowest
    strong bot, one position after another, as a long think would): each RIGHT moves the
    cursor; timed from the pin's edge to the display push. The board's loop shares nothing with
    the search but the machine's cores."""
    from firmware.games.registry import games
    from firmware.table import Seat, Table
    from firmware.thinker import ThinkerProcess, Thought

    clock = time.monotonic
    loop = EventLoop(clock)
    board, _, pins = _board(clock, loop, think_apart=True)
    runner = board.agents.runner
    if not isinstance(runner, ThinkerProcess):
        raise RuntimeError("the board does not think in its own process")
    table, strongest = _longest_think(Table, Seat, games())
    board.app.start_session(table)
    board.app.open_menu()
    board.render()
    done = threading.Event()
    thoughts = [0]

    def again(_reply: Any = None) -> None:  # keeps the process searching until the presses end
        if not done.is_set():
            thoughts[0] += 1
            runner.think(Thought("decide", strongest, table.game.copy(), table.bot_rng()), again)

    again()
    busy_from = _cpu_seconds(runner.pid)
    samples = []
    try:
        for _ in range(samples_wanted):
            before = board.pushes["display"]
            start = time.perf_counter()
            pins["right"].drive_low()
            loop.run_pending(board.handle)
            elapsed = time.perf_counter() - start
            if board.pushes["display"] > before:
                samples.append(elapsed * 1000.0)
            time.sleep(0.03)  # past the debounce window
            pins["right"].drive_high()
            loop.run_pending(board.handle)
            time.sleep(0.03)
            loop.run_pending(board.handle)
        busy = _cpu_seconds(runner.pid) - busy_from
    finally:
        done.set()
        board.close()
    samples.sort()
    return {
        "edge_to_push_thinking_p50_ms": statistics.median(samples),
        "edge_to_push_thinking_p99_ms": samples[int(len(samples) * 0.99) - 1],
        "edge_to_push_thinking_samples": len(samples),
        "thinking_process_cpu_seconds_meanwhile": busy,
        "thinking_process_decisions_meanwhile": thoughts[0],
    }


def _longest_think(table_type: Any, seat_type: Any, specs: Any) -> tuple[Any, str]:
    """Of the games for two, the position (a strongest bot to decide after the first roll) whose
    decision costs the most CPU time: a long think, not thousands of short ones whose replies
    would keep the board's own thread busy instead."""
    import random

    from firmware.bots import choose

    slowest, found = -1.0, None
    for spec in specs:
        if 2 not in spec.players:
            continue
        strongest = spec.levels[-1]
        table = table_type.start(spec.name, [seat_type("Red", "red", bot=strongest), seat_type("Blue", "blue")], seed=5)
        table.apply(table.draw_roll())  # Red (the bot) decides next
        choose(table.game.copy(), random.Random(1), strongest)  # first-use costs (tables) aside
        start = time.process_time()
        choose(table.game.copy(), random.Random(1), strongest)
        cost = time.process_time() - start
        if cost > slowest:
            slowest, found = cost, (table, strongest)
    if found is None:
        raise RuntimeError("no game seats two players")
    return found


def _cpu_seconds(pid: int | None) -> float:
    """User and system CPU seconds of process `pid` so far (0 when it is gone)."""
    if pid is None:
        return 0.0
    try:
        fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    except OSError:
        return 0.0
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def _pss_mb(pid: int | None) -> float:
    """Proportional set size of process `pid` in MB (shared pages split among their users)."""
    if pid is None:
        return 0.0
    try:
        text = Path(f"/proc/{pid}/smaps_rollup").read_text()
    except OSError:
        return 0.0
    return next((int(line.split()[1]) / 1024.0 for line in text.splitlines() if line.startswith("Pss:")), 0.0)


def _tap(board: Board, loop: EventLoop, pin: Any) -> None:
    pin.drive_low()
    loop.run_pending(board.handle)
    time.sleep(TAP_S / 2)
    pin.drive_high()
    loop.run_pending(board.handle)
    time.sleep(TAP_S / 2)
    loop.run_pending(board.handle)


def idle_cpu(seconds: float) -> dict[str, float]:
    """The loop thread serving the main menu with nobody touching it."""
    loop = EventLoop(time.monotonic)
    board, _, _ = _board(time.monotonic, loop, think_apart=True)
    runner = board.agents.runner
    ready = threading.Event()
    runner.submit(ready.set)  # its thinking process is ready (start-up is not idling)
    ready.wait(60)
    thread = threading.Thread(target=board.run, daemon=True)
    thread.start()
    time.sleep(0.5)  # start-up rendering is not idling
    pid = getattr(runner, "pid", None)
    cpu_start, child_start, wall_start = time.process_time(), _cpu_seconds(pid), time.monotonic()
    time.sleep(seconds)
    cpu = time.process_time() - cpu_start
    child = _cpu_seconds(pid) - child_start
    wall = time.monotonic() - wall_start
    loop.post(Stop())
    thread.join(5)
    board.close()
    return {
        "idle_cpu_percent": 100.0 * cpu / wall,
        "idle_cpu_percent_thinking_process": 100.0 * child / wall,
        "idle_cpu_percent_both": 100.0 * (cpu + child) / wall,
        "idle_seconds": wall,
    }


def _bus_bytes(path: Any = None) -> tuple[int, int, int]:
    """Bus bytes of a whole frame, of one RIGHT press on the main menu, and of the same frame
    sent to the driver again (past Display's own check: the driver must send nothing)."""
    clock = FakeClock(10.0)
    loop = EventLoop(clock)
    board, bus, pins = _board(clock, loop, path) if path is not None else _board(clock, loop)
    display = board.hardware.display
    assert display is not None  # _board opens one on the recording bus
    bus.clear()
    display.invalidate()
    board.render()
    full = bus.byte_count()
    bus.clear()
    pins["right"].drive_low()
    loop.run_pending(board.handle)
    move = bus.byte_count()
    bus.clear()
    assert display.image is not None and display.device is not None  # drawn by the render above
    display.device.display(display.image.copy())
    return full, move, bus.byte_count()


def cursor_move_bytes() -> dict[str, float]:
    """I2C bytes for one RIGHT press on the main menu, against a full frame."""
    full, move, _ = _bus_bytes()
    return {
        "i2c_bytes_full_frame": full,
        "i2c_bytes_cursor_move": move,
        "i2c_cursor_move_percent_of_full": 100.0 * move / full,
    }


def profile_bytes() -> dict[str, float]:
    """The same per display profile (hardware/boards/*.toml), with the unchanged frame's bytes."""
    figures: dict[str, float] = {}
    for path in sorted((default_board_path().parent / "boards").glob("*.toml")):
        full, move, unchanged = _bus_bytes(path)
        name = path.stem
        figures |= {
            f"{name}_bus_bytes_full_frame": full,
            f"{name}_bus_bytes_cursor_move": move,
            f"{name}_cursor_move_percent_of_full": 100.0 * move / full,
            f"{name}_bus_bytes_unchanged_frame": unchanged,
        }
    return figures


def peak_memory() -> dict[str, float]:
    """Peak RSS after a bots-only game of each kind through the whole loop."""
    from sim.app import start_demo
    from sim.board import SimBoard

    from firmware.games.registry import games

    for spec in games():
        board = SimBoard(seed=1)
        start_demo(board, spec.name, spec.benchmark_players)
        board.settle()
        board.close()
    return {"peak_rss_mb": resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024.0}


def thinking_pss() -> dict[str, float]:
    """The peak of both processes' PSS added up during a game of two seats played by the
    strongest bot (thinking in the board's process), for every game that seats two: the largest."""
    from sim.board import SimBoard

    from firmware.games.registry import games
    from firmware.table import Seat, Table

    peak = [0.0, 0.0, 0.0]
    for spec in games():
        if 2 not in spec.players:
            continue
        board = SimBoard(seed=1, think_apart=True)
        runner = board.board.agents.runner
        done = threading.Event()

        def sample(done: threading.Event = done, runner: object = runner) -> None:
            while not done.is_set():
                board_mb, thinker_mb = _pss_mb(os.getpid()), _pss_mb(getattr(runner, "pid", None))
                peak[:] = [max(peak[0], board_mb), max(peak[1], thinker_mb), max(peak[2], board_mb + thinker_mb)]
                time.sleep(0.02)

        sampler = threading.Thread(target=sample, daemon=True)
        sampler.start()
        try:
            level = spec.levels[-1]
            table = Table.start(spec.name, [Seat("A", "red", bot=level), Seat("B", "blue", bot=level)], seed=2)
            board.app.start_session(table)
            board.settle(600.0)
            if not table.over:
                raise RuntimeError(f"the {spec.title} game did not end")
        finally:
            done.set()
            sampler.join(5)
            board.close()
    return {"peak_pss_mb_board": peak[0], "peak_pss_mb_thinking_process": peak[1], "peak_pss_mb_both": peak[2]}


def thinker_restart() -> dict[str, float]:
    """From the thinking process killed (SIGKILL) to the answer of the question it was asked
    again, in a new process that loaded every level first: what a crash costs the table."""
    import random
    import signal

    from firmware.games import new_game
    from firmware.games.registry import games
    from firmware.thinker import ThinkerProcess, Thought

    runner = ThinkerProcess()
    got = threading.Event()
    try:
        runner.submit(got.set)
        got.wait(60)
        spec = games()[0]
        game = new_game(spec.name, [f"P{n}" for n in range(spec.players[0])])
        game.apply(game_roll(game))
        got.clear()
        start = time.perf_counter()
        os.kill(runner.pid or 0, signal.SIGKILL)
        runner.think(Thought("decide", spec.levels[0], game, random.Random(1)), lambda reply: got.set())
        if not got.wait(60):
            raise RuntimeError("no answer after the restart")
        restart = time.perf_counter() - start
    finally:
        runner.close()
    return {"thinker_restart_ms": 1000.0 * restart, "thinker_ready_ms": 1000.0 * runner.ready_s[-1]}


def game_roll(game: Any) -> Any:
    from firmware.games import Roll

    return Roll(tuple(die[0] for die in game.dice()))


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument(
        "--idle-seconds", type=float, default=60.0, help="how long to measure the idle CPU (default 60)"
    )
    parser.add_argument(
        "--samples", type=int, default=400, help="button presses timed for the edge-to-push figures (default 400)"
    )
    parser.add_argument(
        "--instructions",
        action="store_true",
        help="instead: count instructions with callgrind (cursor move, a step with its "
        "animation, start to READY); slow",
    )


def run(args: argparse.Namespace) -> Iterator[tuple[str, float]]:
    if args.instructions:
        from sim.bench.instructions import loop_figures

        yield from loop_figures()
        return
    # Memory first: the latency benches below run bots in this process (to find the longest
    # think), which would count their imports (numpy for EXTRA!) as the board's own.
    pss = thinking_pss()
    memory = peak_memory()
    idle = edge_to_push(args.samples)
    thinking = edge_to_push_while_a_bot_thinks(args.samples)
    yield from idle.items()
    yield from thinking.items()
    # The goal (docs/performance.md): a bot's thinking adds at most 20 % + 0.3 ms to the p99.
    yield "edge_to_push_thinking_goal_p99_ms", 1.2 * idle["edge_to_push_p99_ms"] + 0.3
    yield from cursor_move_bytes().items()
    yield from profile_bytes().items()
    yield from memory.items()
    yield from pss.items()
    yield from thinker_restart().items()
    yield from idle_cpu(args.idle_seconds).items()
