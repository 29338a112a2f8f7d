"""The one loop: input threads only `post()` events; one thread applies them, fires timers and
renders. Idle means blocked on the queue until the next timer, never polling.

    >>> loop = EventLoop(clock=FakeClock())
    >>> loop.call_later(0.5, lambda: print("tick"))
    <Timer at 0.5>
    >>> loop.clock.advance(1.0); _ = loop.run_pending(print)
    tick
"""

from __future__ import annotations

import heapq
import itertools
import queue
import time
from collections.abc import Callable

Clock = Callable[[], float]


class FakeClock:
    """A clock that only moves when told to (tests, headless scenarios, replays)."""

    def __init__(self, start: float = 0.0) -> None:
        self.now = start

    def __call__(self) -> float:
        return self.now

    def advance(self, seconds: float) -> float:
        self.now += seconds
        return self.now


class Timer:
    """A handle to a scheduled callback; `cancel()` is idempotent."""

    __slots__ = ("deadline", "callback", "cancelled")

    def __init__(self, deadline: float, callback: Callable[[], None]) -> None:
        self.deadline = deadline
        self.callback = callback
        self.cancelled = False

    def cancel(self) -> None:
        self.cancelled = True

    def __repr__(self) -> str:
        return f"<Timer at {self.deadline:g}>"


class Stop:
    """Post this to end `run()`."""


class EventLoop:
    def __init__(self, clock: Clock = time.monotonic, events: queue.SimpleQueue[object] | None = None) -> None:
        self.clock = clock
        self._queue: queue.SimpleQueue[object] = events if events is not None else queue.SimpleQueue()
        self._timers: list[tuple[float, int, Timer]] = []
        self._order = itertools.count()

    # --- any thread ----------------------------------------------------------------------
    def post(self, event: object) -> None:
        """Queue an event for the loop thread (safe from gpiozero's callback threads)."""
        self._queue.put(event)

    # --- loop thread ---------------------------------------------------------------------
    def call_at(self, deadline: float, callback: Callable[[], None]) -> Timer:
        timer = Timer(deadline, callback)
        heapq.heappush(self._timers, (deadline, next(self._order), timer))
        return timer

    def call_later(self, delay: float, callback: Callable[[], None]) -> Timer:
        return self.call_at(self.clock() + delay, callback)

    def clear_timers(self) -> None:
        """Drop every scheduled timer (a board starting over on the same loop)."""
        self._timers.clear()

    def next_deadline(self) -> float | None:
        while self._timers and self._timers[0][2].cancelled:
            heapq.heappop(self._timers)
        return self._timers[0][0] if self._timers else None

    def _fire_due(self) -> bool:
        fired = False
        while (deadline := self.next_deadline()) is not None and deadline <= self.clock():
            _, _, timer = heapq.heappop(self._timers)
            timer.callback()
            fired = True
        return fired

    def run_pending(self, handle: Callable[[object], None]) -> int:
        """Handle every queued event and due timer without blocking; returns how many ran."""
        count = 0
        while True:
            if self._fire_due():
                count += 1
                continue
            try:
                event = self._queue.get_nowait()
            except queue.Empty:
                return count
            if isinstance(event, Stop):
                return count
            handle(event)
            count += 1

    def run(self, handle: Callable[[object], None], on_idle: Callable[[], None] | None = None) -> None:
        """Block for events and timers until a `Stop` arrives."""
        while True:
            self._fire_due()
            deadline = self.next_deadline()
            timeout = None if deadline is None else max(0.0, deadline - self.clock())
            try:
                event = self._queue.get(timeout=timeout)
            except queue.Empty:
                continue
            if isinstance(event, Stop):
                return
            handle(event)
            if on_idle is not None and self._queue.empty():
                on_idle()
