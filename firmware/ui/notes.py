"""Notes: one short text at a time in a banner over the display, each for NOTE_S seconds and in
turn. A note never takes input or stops anything; a press hides it and still does its job.

    >>> from firmware.loop import EventLoop, FakeClock
    >>> loop = EventLoop(FakeClock())
    >>> notes = Notes(loop.call_later, lambda: None)
    >>> notes.show("first"); notes.show("second"); notes.current
    'first'
    >>> _ = loop.clock.advance(NOTE_S); _ = loop.run_pending(print); notes.current
    'second'
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from firmware.pace import Schedule, Timer

NOTE_S = 4.0  # how long a note stays on the display: long enough to read two short lines


class Notes:
    def __init__(self, schedule: Schedule, changed: Callable[[], None]) -> None:
        self.schedule = schedule
        self.changed = changed  # the display must be drawn again
        self.current: str | None = None  # the note on the display now
        self._waiting: list[str] = []
        self._timer: Timer | None = None

    def show(self, text: str) -> None:
        """Show `text` for NOTE_S seconds, after the notes before it."""
        self._waiting.append(text)
        if self.current is None:
            self._next()

    def dismiss(self) -> None:
        """Hide the note on the display now (the next one, if any, takes its place)."""
        if self._timer is not None:
            self._timer.cancel()
        self._next()

    def _next(self) -> None:
        self._timer = None
        self.current = self._waiting.pop(0) if self._waiting else None
        if self.current is not None:
            self._timer = self.schedule(NOTE_S, self._next)
        self.changed()
