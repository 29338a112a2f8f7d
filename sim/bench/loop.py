"""Loop figures: edge-to-push latency, idle CPU, peak memory, and bus bytes of a cursor move.

Everything runs the real firmware loop on simulated adapters: gpiozero MockFactory pins, a
PixelBuf in memory, and the REAL luma driver of the display over a recording I2C or SPI bus (so
the display figures count the bytes that would cross the wire): the default board's, then each
display profile's in hardware/boards/ (`PROFILE_bus_bytes_…` figures).
"""

from __future__ import annotations

import argparse
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


def _board(clock: Any, loop: EventLoop, path: Path | None = None) -> tuple[Board, Any, dict[str, Any]]:
    config = load_board(path)
    serial, bus = recording_serial(config.display)
    hardware = open_hardware(config, "mock", emit=loop.post, clock=clock, serial=serial)
    board = Board(hardware, loop)
    pins = {name: hardware.pin_factory.pin(pin) for name, pin in config.buttons.pins.items()}
    return board, bus, pins


def edge_to_push(samples_wanted: int = 400) -> dict[str, float]:
    """Seat setup, ROLL = next colour: each press changes a seat LED and the display. Timed from
    the pin's falling edge to both pushes done (the loop thread's work)."""
    clock = time.monotonic
    loop = EventLoop(clock)
    board, _, pins = _board(clock, loop)
    board.render()
    for button in ("ok", "ok"):  # play the menu's first game → its first seat count → the first seat screen
        _tap(board, loop, pins[button])
    samples = []
    for _ in range(samples_wanted):
        before = dict(board.pushes)
        start = time.perf_counter()
        pins["roll"].drive_low()
        loop.run_pending(board.handle)
        elapsed = time.perf_counter() - start
        if board.pushes["leds"] > before["leds"] and board.pushes["display"] > before["display"]:
            samples.append(elapsed * 1000.0)
        time.sleep(TAP_S / 2)  # past the debounce window, yet short: real time
        pins["roll"].drive_high()
        loop.run_pending(board.handle)
        time.sleep(TAP_S / 2)
        loop.run_pending(board.handle)
    samples.sort()
    return {
        "edge_to_push_p50_ms": statistics.median(samples),
        "edge_to_push_p99_ms": samples[int(len(samples) * 0.99) - 1],
        "edge_to_push_samples": len(samples),
    }


def edge_to_push_while_a_bot_thinks(samples_wanted: int = 400) -> dict[str, float]:
    """The in-game menu while a bot thinks hard on the worker thread (its policy busy until the
    end): each RIGHT moves the cursor; timed from the pin's edge to the display push."""
    from firmware.agents import Agents
    from firmware.bots import choose
    from firmware.games.registry import games
    from firmware.table import Seat, Table

    clock = time.monotonic
    loop = EventLoop(clock)
    board, _, pins = _board(clock, loop)
    done = threading.Event()

    def thinking(game: Any, rng: Any) -> Any:
        while not done.is_set():  # pure-Python work, contending for the GIL as real thinking does
            choose(game.copy(), rng)
        return choose(game, rng)

    board.agents = board.app.agents = Agents(loop.post, policy=thinking)
    game = next(spec.name for spec in games() if 3 in spec.players)  # the menu's first game for three
    table = Table.start(game, [Seat("Red", "red", bot="easy"), Seat("Blue", "blue"), Seat("Green", "green")])
    table.apply(table.draw_roll())  # Red (the bot) decides next
    board.app.start_session(table)
    board.app.open_menu()
    board.render()
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
        if not board.app.thinking:
            raise RuntimeError("the bot stopped thinking before the presses were timed")
    finally:
        done.set()
        board.close()
    samples.sort()
    return {
        "edge_to_push_thinking_p50_ms": statistics.median(samples),
        "edge_to_push_thinking_p99_ms": samples[int(len(samples) * 0.99) - 1],
        "edge_to_push_thinking_samples": len(samples),
    }


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
    board, _, _ = _board(time.monotonic, loop)
    thread = threading.Thread(target=board.run, daemon=True)
    thread.start()
    time.sleep(0.5)  # start-up rendering is not idling
    cpu_start, wall_start = time.process_time(), time.monotonic()
    time.sleep(seconds)
    cpu = time.process_time() - cpu_start
    wall = time.monotonic() - wall_start
    loop.post(Stop())
    thread.join(5)
    return {"idle_cpu_percent": 100.0 * cpu / wall, "idle_seconds": wall}


def _bus_bytes(path: Any = None) -> tuple[int, int, int]:
    """Bus bytes of a whole frame, of one RIGHT press on the main menu, and of the same frame
    sent to the driver again (past Display's own check: the driver must send nothing)."""
    clock = FakeClock(10.0)
    loop = EventLoop(clock)
    board, bus, pins = _board(clock, loop, path) if path is not None else _board(clock, loop)
    display = board.hardware.display
    bus.clear()
    display.invalidate()
    board.render()
    full = bus.byte_count()
    bus.clear()
    pins["right"].drive_low()
    loop.run_pending(board.handle)
    move = bus.byte_count()
    bus.clear()
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


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument(
        "--idle-seconds", type=float, default=30.0, help="how long to measure the idle CPU (default 30)"
    )
    parser.add_argument(
        "--samples", type=int, default=400, help="button presses timed for the edge-to-push figures (default 400)"
    )


def run(args: argparse.Namespace) -> Iterator[tuple[str, float]]:
    yield from edge_to_push(args.samples).items()
    yield from edge_to_push_while_a_bot_thinks(args.samples).items()
    yield from cursor_move_bytes().items()
    yield from profile_bytes().items()
    yield from peak_memory().items()
    yield from idle_cpu(args.idle_seconds).items()
