"""Buttons: gpiozero inputs that only report raw edges, and the loop's debounce/long-press logic.

The split follows the one-loop rule: gpiozero calls back on its own threads, so `ButtonInputs`
only hands `RawEdge`s to `emit` (a queue's `put`); the loop thread owns a `ButtonTracker`,
feeds it the edges and calls `advance()` at `next_deadline()`.

>>> tracker = ButtonTracker(["ok"], debounce_ms=20, hold_s=1.0)
>>> tracker.edge("ok", True, 10.0)
[ButtonEvent(name='ok', kind='press', held=False)]
"""

from __future__ import annotations

import time
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass
from typing import Literal, Protocol

from firmware.errors import N_, HardwareError, Text
from firmware.hardware.config import BUTTON_NAMES, ButtonsConfig

EventKind = Literal["press", "release", "hold", "repeat", "chord"]
TILT = "tilt"  # the tilt switch's own input name; its events are reported as "roll"
# A held LEFT/RIGHT repeats: first after REPEAT_DELAY_S (a tap never reaches it), then every
# REPEAT_EVERY_S (about 7 steps a second: fast through a long list, still easy to stop on time).
REPEAT_DELAY_S = 0.4
REPEAT_EVERY_S = 0.15
REPEATING = ("left", "right")  # and pressed together they make a "chord" (the hint)


@dataclass(frozen=True)
class RawEdge:
    """A level change as the pin saw it (bounces included); `t` from the injected clock."""

    name: str
    pressed: bool
    t: float


@dataclass(frozen=True)
class ButtonEvent:
    """A debounced button event; `held` marks the release that ends a long press."""

    name: str
    kind: EventKind
    held: bool = False


@dataclass
class _Channel:
    reported_as: str
    accepted: bool = False  # the debounced level
    raw: bool = False  # the last level the pin reported
    window_end: float | None = None  # bounces are ignored until then
    hold_at: float | None = None  # when the current press becomes a hold
    repeats: bool = False  # a held press repeats (LEFT/RIGHT)
    repeat_at: float | None = None  # when the current press next repeats


class ButtonTracker:
    """Debounce and long-press detection, pure: the caller supplies every time stamp.

    The leading edge is accepted at once (latency), further edges are ignored for `debounce_ms`;
    if the raw level differs from the accepted one when that window ends, the change is emitted
    then (and opens a new window). A press held for `hold_s` emits one "hold"; a held input of
    `repeating` also emits "repeat" after `repeat_s[0]`, then every `repeat_s[1]`, until released;
    pressing a second one of `repeating` while another is down emits "chord" instead of "press"
    (and stops their repeats).
    `aliases` maps an input to the name its events carry (the tilt switch rolls).
    """

    def __init__(
        self,
        names: Iterable[str],
        *,
        debounce_ms: float,
        hold_s: float,
        aliases: Mapping[str, str] | None = None,
        repeating: Iterable[str] = (),
        repeat_s: tuple[float, float] = (REPEAT_DELAY_S, REPEAT_EVERY_S),
    ) -> None:
        if debounce_ms < 0 or hold_s <= 0:
            raise ValueError(f"buttons: debounce_ms must be >= 0 and hold_s > 0, got {debounce_ms}, {hold_s}")
        if min(repeat_s) <= 0:
            raise ValueError(f"buttons: repeat delay and interval must be > 0, got {repeat_s}")
        aliases = dict(aliases or {})
        self._debounce = debounce_ms / 1000.0
        self._hold = hold_s
        self._repeat = repeat_s
        repeating = set(repeating)
        self._channels = {name: _Channel(aliases.get(name, name), repeats=name in repeating) for name in names}
        unknown = set(aliases) - set(self._channels)
        if unknown:
            raise ValueError(f"buttons: aliases for unknown inputs {sorted(unknown)}")

    @classmethod
    def from_config(cls, config: ButtonsConfig) -> ButtonTracker:
        """A tracker for every configured button, plus the tilt switch (as "roll") if fitted."""
        names = [name for name in BUTTON_NAMES if name in config.pins]
        aliases: dict[str, str] = {}
        if config.tilt is not None:
            names.append(TILT)
            aliases[TILT] = "roll"
        return cls(
            names,
            debounce_ms=config.debounce_ms,
            hold_s=config.hold_s,
            aliases=aliases,
            repeating=[name for name in REPEATING if name in names],
        )

    @property
    def names(self) -> tuple[str, ...]:
        """The input names this tracker accepts edges for."""
        return tuple(self._channels)

    def is_pressed(self, name: str) -> bool:
        """The debounced level of one input."""
        return self._channel(name).accepted

    def edge(self, name: str, pressed: bool, t: float) -> list[ButtonEvent]:
        """Feed one raw edge; returns the events it causes (overdue deadlines first)."""
        channel = self._channel(name)
        events = self.advance(t)
        channel.raw = pressed
        if channel.window_end is not None and t < channel.window_end:
            return events  # a bounce: judged when the window ends
        channel.window_end = None
        if pressed != channel.accepted:
            events.append(self._accept(channel, pressed, t))
        return events

    def next_deadline(self) -> float | None:
        """The earliest time `advance()` has something to do, or None (idle: block)."""
        times = [when for when, _, _ in self._due_items()]
        return min(times) if times else None

    def advance(self, t: float) -> list[ButtonEvent]:
        """Emit whatever is due by `t`, in time order."""
        events: list[ButtonEvent] = []
        while True:
            due = [item for item in self._due_items() if item[0] <= t]
            if not due:
                return events
            when, kind, channel = min(due, key=lambda item: item[0])
            if kind == "hold":
                channel.hold_at = None
                events.append(ButtonEvent(channel.reported_as, "hold"))
            elif kind == "repeat":
                channel.repeat_at = when + self._repeat[1]
                events.append(ButtonEvent(channel.reported_as, "repeat"))
            else:
                channel.window_end = None
                if channel.raw != channel.accepted:
                    events.append(self._accept(channel, channel.raw, when))

    def _due_items(self) -> list[tuple[float, str, _Channel]]:
        items: list[tuple[float, str, _Channel]] = []
        for channel in self._channels.values():
            # A window whose raw level agrees with the accepted one needs no wake-up.
            if channel.window_end is not None and channel.raw != channel.accepted:
                items.append((channel.window_end, "window", channel))
            if channel.hold_at is not None:
                items.append((channel.hold_at, "hold", channel))
            if channel.repeat_at is not None:
                items.append((channel.repeat_at, "repeat", channel))
        return items

    def _accept(self, channel: _Channel, pressed: bool, t: float) -> ButtonEvent:
        channel.accepted = pressed
        channel.window_end = t + self._debounce
        if pressed:
            channel.hold_at = t + self._hold
            channel.repeat_at = t + self._repeat[0] if channel.repeats else None
            others = [c for c in self._channels.values() if c.repeats and c.accepted and c is not channel]
            if channel.repeats and others:
                for chorded in (channel, *others):
                    chorded.repeat_at = None
                return ButtonEvent(channel.reported_as, "chord")
            return ButtonEvent(channel.reported_as, "press")
        held = channel.hold_at is None  # the hold fired (or was consumed) during this press
        channel.hold_at = None
        channel.repeat_at = None
        return ButtonEvent(channel.reported_as, "release", held=held)

    def _channel(self, name: str) -> _Channel:
        try:
            return self._channels[name]
        except KeyError:
            raise ValueError(f"buttons: unknown input {name!r}; known: {sorted(self._channels)}") from None


class InputPin(Protocol):
    """What `ButtonInputs` uses of gpiozero's DigitalInputDevice (gpiozero ships no type hints)."""

    when_activated: Callable[[], None] | None
    when_deactivated: Callable[[], None] | None

    @property
    def is_active(self) -> bool: ...

    def close(self) -> None: ...


class ButtonInputs:
    """One gpiozero input per configured pin (and the tilt switch); callbacks only `emit`.

    The inputs are `DigitalInputDevice`s, gpiozero `Button` without its `HoldMixin`: holds are
    ours (`ButtonTracker`), and `Button`'s hold thread wakes every 0.1 s and makes `close()` wait
    for it (up to `hold_time` while pressed). `when_activated` is what `Button` calls `when_pressed`.

    >>> from gpiozero.pins.mock import MockFactory  # doctest: +SKIP
    >>> with ButtonInputs(cfg, queue.put, pin_factory=MockFactory()) as inputs: ...  # doctest: +SKIP
    """

    def __init__(
        self,
        config: ButtonsConfig,
        emit: Callable[[RawEdge], None],
        *,
        pin_factory: object,
        clock: Callable[[], float] = time.monotonic,
    ) -> None:
        from gpiozero import DigitalInputDevice

        self.config = config
        self._emit = emit
        self._clock = clock
        self._buttons: dict[str, InputPin] = {}
        wanted = [(name, config.pins[name]) for name in BUTTON_NAMES if name in config.pins]
        if config.tilt is not None:
            wanted.append((TILT, config.tilt))
        try:
            for name, pin in wanted:
                try:
                    button: InputPin = DigitalInputDevice(
                        pin, pull_up=config.pull_up, bounce_time=None, pin_factory=pin_factory
                    )
                except Exception as error:  # gpiozero raises many kinds; all mean "this pin failed"
                    raise HardwareError(
                        Text(
                            N_(
                                "button {button} on GPIO{pin}: {error} "
                                "(check the pin number in board.toml and that no other program uses it)"
                            ),
                            button=name.upper(),
                            pin=pin,
                            error=str(error) or type(error).__name__,
                        )
                    ) from error
                button.when_activated = self._callback(name, True)
                button.when_deactivated = self._callback(name, False)
                self._buttons[name] = button
        except BaseException:
            self.close()
            raise

    @property
    def names(self) -> tuple[str, ...]:
        """The inputs opened, in a stable order ("tilt" last if fitted)."""
        return tuple(self._buttons)

    def pressed(self) -> dict[str, bool]:
        """The current raw level of every input (e.g. to spot a button stuck at start-up)."""
        return {name: bool(button.is_active) for name, button in self._buttons.items()}

    def close(self) -> None:
        """Release the pins; safe to call twice."""
        buttons, self._buttons = self._buttons, {}
        for button in buttons.values():
            button.when_activated = None
            button.when_deactivated = None
            button.close()

    def __enter__(self) -> ButtonInputs:
        return self

    def __exit__(self, *exc_info: object) -> None:
        self.close()

    def _callback(self, name: str, pressed: bool) -> Callable[[], None]:
        # Runs on a gpiozero thread: read the clock and hand the edge over, nothing else.
        def callback() -> None:
            self._emit(RawEdge(name, pressed, self._clock()))

        return callback
