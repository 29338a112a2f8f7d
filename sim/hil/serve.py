"""`xtraboard sim --headless --debug-port PORT`: a simulated board in a process of its own,
serving the debug service (`firmware.debug`) on loopback until SIGTERM or SIGINT.

Its clock is fake by default: board time moves only when the bench asks (`wait SECONDS`), so a
scenario run through the service sees exactly what it sees in-process, as fast. With `--speed X`
the board runs on the wall clock (X times faster), as a real board does.

    xtraboard sim --headless --debug-port 7777 &
    xtraboard hil run --target 127.0.0.1:7777 --buttons virtual tests/scenarios/*.toml
"""

from __future__ import annotations

import signal
import sys
import threading
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

from firmware.board_loop import Board
from firmware.debug import BenchDice, BoardTarget, DebugService
from firmware.dice import CommittedDice
from firmware.hardware.config import DebugConfig
from firmware.i18n import _
from firmware.loop import FakeClock, Stop
from sim.board import SimBoard

START_S = 1000.0  # where a fake-clocked SimBoard's clock starts (as SimBoard's own)
TICK_S = 0.005  # a sped-up clock: how often the loop wakes to fire its timers (real seconds)


class ServedBoard:
    """A SimBoard that the debug service drives, and that `seed N` starts over as after power-on
    (a fresh app on the same pins, LEDs and display; the fake clock back at its start)."""

    def __init__(
        self,
        *,
        board_file: Path | None = None,
        seed: int | str = 0,
        speed: float | None = None,
        state_dir: Path | None = None,
        kiosk: bool = False,
    ) -> None:
        self.kiosk = kiosk  # as `xtraboard run --kiosk`: guests' settings locked, the saved game resumed
        self.sim = SimBoard(board_file=board_file, seed=seed, speed=speed, state_dir=state_dir, kiosk=kiosk)
        self.fake = isinstance(self.sim.clock, FakeClock)
        self.target = BoardTarget(
            lambda: self.sim.board,
            buttons=self.sim,
            restart=self.restart,
            wait=self.sim.wait if self.fake else None,
            clock="fake" if self.fake else "real",
            speed=self.sim.speed,
        )
        self.restart(seed)

    def restart(self, seed: int | str) -> None:
        """Start over with `seed` (loop thread): every button open, no timers, a new app."""
        sim = self.sim
        for name in sim.pins:
            pin = sim.pins[name]
            (pin.drive_high if sim.config.buttons.pull_up else pin.drive_low)()
        sim.loop.clear_timers()
        if self.fake:
            sim.clock.now = START_S
        dice = BenchDice(CommittedDice(str(seed)))  # the rolls a seeded game makes without the bench
        sim.dice = dice
        sim.board = Board(sim.hardware, sim.loop, journal=sim.journal, seed=seed, dice=dice, kiosk=self.kiosk)
        if self.kiosk:
            sim.board.app.resume()
        self.target.use_dice(dice)
        sim.board.watchers.append(self.target.watch)
        sim.board.render()

    def handle(self, event: Any) -> None:
        self.sim.board.handle(event)


def serve(
    port: int,
    *,
    host: str = "127.0.0.1",
    board_file: Path | None = None,
    seed: int | str = 0,
    speed: float | None = None,
    state_dir: Path | None = None,
    ready: Any = None,
    kiosk: bool = False,
) -> int:
    """Serve until stopped; prints `debug service listening on tcp HOST:PORT` once ready."""
    served = ServedBoard(board_file=board_file, seed=seed, speed=speed, state_dir=state_dir, kiosk=kiosk)
    loop = served.sim.loop
    service = DebugService(DebugConfig(enabled=True, host=host, port=port), served.target, loop.post)
    stop = threading.Event()
    if threading.current_thread() is threading.main_thread():
        for sig in (signal.SIGTERM, signal.SIGINT):
            signal.signal(sig, lambda *_: loop.post(Stop()))
    ticker = None
    if not served.fake and served.sim.speed != 1.0:
        # EventLoop.run sleeps until the next timer in board seconds; a sped-up clock needs waking.
        def tick() -> None:
            while not stop.wait(TICK_S):
                loop.post(None)

        ticker = threading.Thread(target=tick, name="xtraboard-tick", daemon=True)
        ticker.start()
    try:
        for where in service.start():
            print(f"debug service listening on {where}", flush=True)
        if ready is not None:
            ready(service)
        loop.run(served.handle)
    finally:
        stop.set()
        service.close()
        served.sim.close()
    return 0


@contextmanager
def serving_in_background(
    *, seed: int | str = 0, speed: float | None = None, host: str = "127.0.0.1", board_file: Path | None = None
) -> Iterator[tuple[ServedBoard, DebugService]]:
    """A served board whose loop runs on a thread of its own, listening on a free loopback port
    (`service.port`) until the block ends (tests)."""
    served = ServedBoard(board_file=board_file, seed=seed, speed=speed)
    loop = served.sim.loop
    service = DebugService(DebugConfig(enabled=True, host=host, port=0), served.target, loop.post)
    thread = threading.Thread(target=loop.run, args=(served.handle,), name="xtraboard-served", daemon=True)
    thread.start()
    try:
        service.start()
        yield served, service
    finally:
        service.close()
        loop.post(Stop())
        thread.join(timeout=10)
        served.sim.close()


def run_served(args: Any) -> int:
    """`xtraboard sim --headless --debug-port PORT` (from sim.app)."""
    try:
        return serve(
            args.debug_port,
            board_file=args.board,
            seed=args.seed if args.seed is not None else 0,
            speed=args.speed,
            state_dir=args.state_dir,
            kiosk=bool(getattr(args, "kiosk", False)),
        )
    except OSError as exc:
        print(
            "xtraboard sim: "
            + _("cannot serve the debug service on port {port}: {error}").format(
                port=args.debug_port, error=exc.strerror or exc
            ),
            file=sys.stderr,
        )
        return 2
