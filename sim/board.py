"""A whole board in software: the real firmware loop on MockFactory pins, a PixelBuf in memory
and luma's dummy display, with a fake clock for headless runs or the wall clock for the window.

    >>> board = SimBoard(seed=1)
    >>> board.tap("ok")                      # "Play EXXTRA"
    >>> board.screen_text()[0]
    'EXXTRA'

Everything here acts through the board's inputs (button pins, the clock) and reads its outputs
(LED colours, the display's image and text): the same verbs can drive a real board on the bench.
"""

from __future__ import annotations

import hashlib
import queue
import time
from pathlib import Path
from typing import Any

from firmware.agents import AgentAnswer
from firmware.board_loop import Board
from firmware.hardware.board import open_hardware
from firmware.hardware.config import BUTTON_NAMES, load_board
from firmware.loop import EventLoop, FakeClock
from firmware.state_reader import read_state, state_roots
from firmware.ui.app import BoardApp
from sim.timing import BOUNCE_GAP_S, SETTLE_LIMIT_S, SETTLE_POLL_S, TAP_S, hold_press_s

AGENT_WAIT_S = 30.0  # real seconds a fake-clock board waits for a thinking agent's answer


class ScaledClock:
    """The wall clock running `speed` times faster."""

    def __init__(self, speed: float) -> None:
        self.speed = speed
        self._start = time.monotonic()

    def __call__(self) -> float:
        return self._start + (time.monotonic() - self._start) * self.speed


class SimBoard:
    def __init__(
        self,
        *,
        board_file: str | Path | None = None,
        seed: int | str | None = None,
        state_dir: str | Path | None = None,
        kiosk: bool = False,
        realtime: bool = False,
        dice: Any = None,
        speed: float | None = None,
        language: str | None = None,
        think_apart: bool | None = None,
        dice_secret: str | None = None,
    ) -> None:
        # The fake clock jumps from timer to timer (instant); the wall clock, optionally sped up
        # `speed` times, lets real time pass (the window, watching a demo, power-cut tests).
        self.speed = speed or 1.0
        if speed is not None:
            realtime = True
        self.clock: Any = (
            FakeClock(1000.0) if not realtime else (time.monotonic if self.speed == 1.0 else ScaledClock(self.speed))
        )
        self.agent_wait_s = AGENT_WAIT_S  # 0: fake time goes on while agents think (tests of that)
        self.events: queue.SimpleQueue[Any] = queue.SimpleQueue()
        self.loop = EventLoop(self.clock, events=self.events)
        self.config = load_board(board_file)
        self.lock = None
        if state_dir is not None:
            from firmware.paths import StateLock

            self.lock = StateLock(Path(state_dir))  # StateDirInUse: another board plays on it
        self.hardware = open_hardware(self.config, "mock", emit=self.loop.post, clock=self.clock)
        self.journal = None
        if state_dir is not None:
            from firmware.journal import Journal

            self.journal = Journal(Path(state_dir))
        self.dice = dice  # a DiceSource every game on this board rolls with (scenarios), or None
        from firmware.fleet import open_fleet

        # A board description with [fleet] reports to that broker, as the board would.
        self.fleet = open_fleet(self.config)
        self._board_args = {
            "kiosk": kiosk,
            "seed": seed,
            "dice": dice,
            "language": language,
            "think_apart": think_apart,
            "dice_secret": dice_secret,
        }
        self.board = Board(self.hardware, self.loop, journal=self.journal, fleet=self.fleet, **self._board_args)
        self.pins = {name: self.hardware.pin_factory.pin(pin) for name, pin in self.config.buttons.pins.items()}
        self.board.render()

    def power_cycle(self) -> None:
        """The board starts again, as after power-up, on the same pins, LEDs, display and journal:
        a button held down meanwhile is still down when it is ready (`Board.power_up`)."""
        self.board.close()
        self.loop.clear_timers()
        self.board = Board(self.hardware, self.loop, journal=self.journal, fleet=self.fleet, **self._board_args)
        self.board.power_up()
        self.board.render()
        self.run_pending()

    @property
    def app(self) -> BoardApp:
        return self.board.app

    # --- inputs ---------------------------------------------------------------------------
    def press(self, name: str) -> None:
        """Close a button's contact (the pin goes low with pull-ups, high with pull-downs)."""
        self._drive(name, closed=True)

    def release(self, name: str) -> None:
        self._drive(name, closed=False)

    def _drive(self, name: str, closed: bool) -> None:
        pin = self._pin(name)
        (pin.drive_low if closed == self.config.buttons.pull_up else pin.drive_high)()
        self.run_pending()

    def tap(self, name: str, seconds: float = TAP_S) -> None:
        """Press, hold for `seconds`, release, and let the debounce window pass."""
        self.press(name)
        self.wait(seconds)
        self.release(name)
        self.wait(seconds)

    def hold(self, name: str, seconds: float | None = None) -> None:
        """A long press (BACK: the menu)."""
        self.tap(name, seconds if seconds is not None else hold_press_s(self.config.buttons.hold_s))

    def bounce(self, name: str, edges: int = 6, gap_s: float = BOUNCE_GAP_S) -> None:
        """A noisy contact: `edges` level changes `gap_s` apart, ending pressed, then released."""
        for i in range(edges):
            self._drive(name, closed=i % 2 == 0)
            self.wait(gap_s)
        self._drive(name, closed=True)
        self.wait(TAP_S)
        self.release(name)
        self.wait(TAP_S)

    def _pin(self, name: str) -> Any:
        if name not in self.pins:
            raise ValueError(f"no button {name!r}; the board has {', '.join(BUTTON_NAMES)}")
        return self.pins[name]

    # --- time ---------------------------------------------------------------------------------
    def run_pending(self) -> None:
        self.loop.run_pending(self.board.handle)
        if isinstance(self.clock, FakeClock):
            self._await_agents()

    def _await_agents(self) -> None:
        """Fake time stands still while an agent thinks (on its real thread): wait, in real
        time and bounded, for its answer, so a run sees the same sequence however long the
        thinking takes. Anything else posted meanwhile (a Stop, a debug request) is queued
        again after it."""
        end = time.monotonic() + self.agent_wait_s
        later: list[Any] = []
        try:
            while self.app.thinking and (left := end - time.monotonic()) > 0:
                try:
                    event = self.events.get(timeout=left)
                except queue.Empty:
                    return
                if not isinstance(event, AgentAnswer):
                    later.append(event)
                    continue
                self.board.handle(event)
                self.loop.run_pending(self.board.handle)
        finally:
            for event in later:
                self.events.put(event)

    def wait(self, seconds: float) -> None:
        """Let `seconds` pass, firing every timer due on the way (instant with the fake clock)."""
        if not isinstance(self.clock, FakeClock):
            end = self.clock() + seconds
            while (left := end - self.clock()) > 0:
                time.sleep(min(left / self.speed, 0.005))
                self.run_pending()
            self.run_pending()  # timers due now fire even when no time was asked to pass
            return
        end = self.clock.now + seconds
        self.run_pending()
        self.board.fast_forward(end)  # an hour of idle show is one frame, not 30,000
        while (deadline := self.loop.next_deadline()) is not None and deadline <= end:
            self.clock.now = max(self.clock.now, deadline)
            self.run_pending()
            self.board.fast_forward(end)  # the show may have started on the way
        self.clock.now = end
        self.run_pending()

    def busy(self) -> bool:
        """An animation runs, a bot is about to move or an agent is thinking (the app's `busy`)."""
        return self.app.busy

    def settle(self, limit_s: float = SETTLE_LIMIT_S) -> None:
        """Wait until nothing moves by itself any more (animations done, bots waiting on people)."""
        waited = 0.0
        self.wait(0)
        while self.busy() and waited < limit_s:
            deadline = self.loop.next_deadline()
            step = SETTLE_POLL_S if deadline is None else max(0.0, deadline - self.clock())
            self.wait(step)
            waited += step

    # --- outputs --------------------------------------------------------------------------
    def led(self, cell: str) -> tuple[int, int, int]:
        """The colour the cell shows now (before brightness; a multi-colour cell's current one)."""
        if cell not in self.config.leds.cells:
            raise ValueError(f"no LED cell {cell!r} in {self.config.path}")
        value = self.board._frame.get(cell, (0, 0, 0))
        if isinstance(value, tuple):
            return value
        leds = self.hardware.leds  # colours shown in turn; without a chain, no colour takes turns
        return value[int(self.clock() / leds.cycle_s) % len(value)] if leds is not None else value[0]

    def image(self) -> Any:
        display = self.hardware.display
        return display.image if display is not None and display.image is not None else None

    def screen_text(self) -> list[str]:
        return list(self.app.texts)

    def image_checksum(self) -> str:
        image = self.image()
        return hashlib.sha256(image.tobytes()).hexdigest()[:16] if image is not None else ""

    # --- scenario hooks (sim.scenario's BoardDriver) -----------------------------------------
    def queue_dice(self, faces: Any) -> None:
        """Make `faces` the next roll of the electronic dice (needs a scripted `dice` source)."""
        push = getattr(self.dice, "push", None)
        if push is None:
            raise ValueError("queue_dice needs SimBoard(dice=...) with a scripted source (ScriptedDice)")
        push(faces)

    def state(self, path: str) -> Any:
        """A read-only path into the game's and the UI's state, e.g. "positions[1]", "pending.kind"."""
        return read_state(state_roots(self.app), path)

    def close(self) -> None:
        if self.fleet is not None:
            self.fleet.close()
        self.board.close()
        self.hardware.close()
        if self.journal is not None:
            self.journal.close()
        if self.lock is not None:
            self.lock.release()
