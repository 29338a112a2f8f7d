"""The bots' pace: a bot's move waits a moment (longer after a person's step, so it can be taken
back), never while a person holds a button or has a menu open. `BotPace` keeps where that wait
stands, as one explicit state, the answer that waits for it, and how much of the chance to take
back is left while a bot's roll draws near (the takeback bar); the board's turn runner
(`firmware.turns.board.TurnRunner`) decides when to arm it and what a bot's move does.

    >>> from firmware.loop import EventLoop, FakeClock
    >>> loop = EventLoop(FakeClock())
    >>> pace = BotPace(loop.call_later)
    >>> pace.start(0.5, lambda: print("the bot moves")); pace.state
    <PaceState.RUNNING: 'running'>
    >>> _ = loop.clock.advance(1.0); _ = loop.run_pending(print)
    the bot moves
"""

from __future__ import annotations

from collections.abc import Callable
from enum import Enum
from typing import Protocol

from firmware.agents import Token
from firmware.games.base import Step


class Timer(Protocol):
    """What `schedule` hands back: a pending callback that can be called off."""

    def cancel(self) -> None: ...


Schedule = Callable[[float, Callable[[], None]], Timer]  # the loop's call_later: (delay, callback) -> timer
TICK_S = 0.1  # the takeback bar drains in steps this long (only while a bot's roll draws near)


class PaceState(Enum):
    IDLE = "idle"  # no pace runs: a release or a closed menu may arm one
    RUNNING = "running"  # the pace's timer runs (the bot thinks meanwhile)
    DUE = "due"  # the pace is over and the bot still thinks: it moves when its answer comes
    DUE_ASKED = "due-asked"  # the same, asked by OK at the "step" pace: a held button does not stop it


class BotPace:
    """Where the pending bot's pace stands, and the bot's answer kept until the pace is over."""

    def __init__(self, schedule: Schedule) -> None:
        self.schedule = schedule
        self.state = PaceState.IDLE
        self.after_bot = False  # the last step was a bot's: the next bot waits the shorter pace
        self._timer: Timer | None = None
        self._answer: tuple[Token, Step] | None = None  # the move kept for its position
        self._drain: list[float] | None = None  # [left, total] seconds until a bot's roll ends the takeback
        self._drain_timer: Timer | None = None
        self._drained: Callable[[], None] = lambda: None

    @property
    def idle(self) -> bool:
        return self.state is PaceState.IDLE

    @property
    def due(self) -> bool:
        """The pace is over and the move waits only for the answer."""
        return self.state in (PaceState.DUE, PaceState.DUE_ASKED)

    def start(self, delay: float, then: Callable[[], None], *, drain: Callable[[], None] | None = None) -> None:
        """Wait `delay` seconds, then `then()` (the bot's move). With `drain` (a bot's roll that
        ends the chance to take back): that chance drains over the wait, `drain()` after each tick."""
        self.cancel()
        self.state = PaceState.RUNNING
        self._timer = self.schedule(delay, then)
        if drain is not None:
            self._drain = [delay, delay]
            self._drained = drain
            self._drain_timer = self.schedule(TICK_S, self._drain_tick)

    def _drain_tick(self) -> None:
        drain = self._drain
        if drain is None:
            return
        drain[0] = max(0.0, drain[0] - TICK_S)
        self._drained()
        self._drain_timer = self.schedule(TICK_S, self._drain_tick) if drain[0] > 0 else None

    def window(self) -> float:
        """The share of the chance to take back that is left: 1.0 unless a bot's roll draws near."""
        if self._drain is None:
            return 1.0
        return self._drain[0] / self._drain[1] if self._drain[1] > 0 else 0.0

    def stop_drain(self) -> None:
        """It waits for a person again: so does the chance to take back."""
        self._drain = None
        if self._drain_timer is not None:
            self._drain_timer.cancel()
            self._drain_timer = None

    def over(self) -> None:
        """The pace ended (its timer fired, or the answer came to a due pace): nothing waits."""
        self._timer = None
        self.state = PaceState.IDLE

    def wait_for_answer(self, asked: bool) -> None:
        """The pace is over but the bot has not answered: it moves as soon as it does."""
        self.state = PaceState.DUE_ASKED if asked else PaceState.DUE

    def cancel(self) -> None:
        self.state = PaceState.IDLE
        self.stop_drain()
        if self._timer is not None:
            self._timer.cancel()
            self._timer = None

    # --- the answer, kept until the pace is over ---------------------------------------------------
    def keep(self, token: Token, step: Step) -> None:
        self._answer = (token, step)

    def has_answer(self, token: Token) -> bool:
        return self._answer is not None and self._answer[0] == token

    def take(self, token: Token) -> Step | None:
        """The move kept for position `token` (and it is no longer kept), or None."""
        kept = self._answer
        if kept is None or kept[0] != token:
            return None
        self._answer = None
        return kept[1]

    def forget(self) -> None:
        self._answer = None
