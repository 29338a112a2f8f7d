"""The optional piezo buzzer: short tunes played note by note on the loop's timers, never blocking.

gpiozero's `TonalBuzzer` sets the pin's PWM frequency to each note; the next note (or the end)
is a timer on the event loop, so a tune never sleeps on the loop thread. Without a buzzer
(none in the board description, or the simulator) the same `Sound` only logs and remembers
the cues, so the simulator and tests see them too.

"Volume" on a piezo is the PWM duty cycle: a square wave at 50 % duty gives the loudest tone,
a few per cent a much softer one of the same pitch (less energy per cycle).

>>> from firmware.loop import EventLoop, FakeClock
>>> loop = EventLoop(FakeClock())
>>> sound = Sound(None, loop.call_later)
>>> sound.play("roll", (("C6", 0.03), ("E6", 0.03)), volume=0.5)
>>> list(sound.played)
['roll']
"""

from __future__ import annotations

import collections
import logging
from collections.abc import Callable, Sequence
from typing import TYPE_CHECKING, Protocol

from firmware.errors import N_, HardwareError, Text

if TYPE_CHECKING:
    from firmware.hardware.config import BuzzerConfig

log = logging.getLogger("xtraboard.sound")
Note = tuple[str | None, float]  # (note name such as "A5", or None for a rest; seconds)


class Cancellable(Protocol):
    def cancel(self) -> None: ...


class Duty(Protocol):
    value: float


class Buzzer(Protocol):
    """What `Sound` uses of gpiozero's TonalBuzzer (gpiozero ships no type hints)."""

    @property
    def closed(self) -> bool: ...

    @property
    def value(self) -> object: ...  # None while silent

    @property
    def pwm_device(self) -> Duty: ...

    def play(self, tone: str) -> None: ...

    def stop(self) -> None: ...

    def close(self) -> None: ...


Schedule = Callable[[float, Callable[[], None]], Cancellable]  # the loop's call_later: (delay, callback) -> timer
PLAYED_KEPT = 100  # cues `Sound.played` remembers


class Sound:
    """Plays one tune at a time on `buzzer` (a TonalBuzzer, or None: log only); a new tune cuts
    the one playing short."""

    def __init__(self, buzzer: Buzzer | None, schedule: Schedule) -> None:
        self.buzzer = buzzer
        self.schedule = schedule
        # the last cues started, in order (the simulator and tests read it); bounded, as a board
        # plays for months
        self.played: collections.deque[str] = collections.deque(maxlen=PLAYED_KEPT)
        self.notes = 0  # notes started on the buzzer
        self._timer: Cancellable | None = None
        self._tune: list[Note] = []
        self._volume = 0.0

    @property
    def playing(self) -> bool:
        return self._timer is not None

    def play(self, name: str, tune: Sequence[Note], volume: float) -> None:
        """Start `tune` (called `name` in the log) at `volume` (PWM duty, 0–0.5); returns at once."""
        if not 0.0 < volume <= 0.5:
            raise ValueError(f"sound: volume is the PWM duty, above 0 and at most 0.5; got {volume}")
        self.stop()
        self.played.append(name)
        log.info("cue %s", name)
        if self.buzzer is None:
            return
        self._tune, self._volume = list(tune), volume
        self._next()

    def stop(self) -> None:
        """Silence now and forget the rest of the tune."""
        if self._timer is not None:
            self._timer.cancel()
            self._timer = None
        self._tune = []
        if self.buzzer is not None and not self.buzzer.closed and self.buzzer.value is not None:
            self.buzzer.stop()

    def _next(self) -> None:
        self._timer = None
        buzzer = self.buzzer
        if buzzer is None:  # closed: `close` stopped the tune first
            return
        if not self._tune:
            buzzer.stop()
            return
        note, seconds = self._tune.pop(0)
        if note is None:
            buzzer.stop()
        else:
            buzzer.play(note)
            buzzer.pwm_device.value = self._volume  # TonalBuzzer plays at 50 %: the volume is the duty
            self.notes += 1
        self._timer = self.schedule(seconds, self._next)

    def close(self) -> None:
        """Silence the buzzer and release its pin; safe to call twice."""
        self.stop()
        if self.buzzer is not None:
            self.buzzer.close()
            self.buzzer = None


def open_buzzer(cfg: BuzzerConfig | None, pin_factory: object, problems: list[str]) -> Buzzer | None:
    """The TonalBuzzer of board.toml's `[buzzer]` on `pin_factory`, or None (no section, or a pin
    without PWM: noted in `problems`, the board plays on silently)."""
    if cfg is None:
        return None
    from gpiozero import TonalBuzzer
    from gpiozero.tones import Tone

    try:
        buzzer: Buzzer = TonalBuzzer(cfg.pin, mid_tone=Tone(cfg.mid_tone), octaves=cfg.octaves, pin_factory=pin_factory)
        return buzzer
    except Exception as error:  # no PWM on the pin, pin busy: sound is optional
        problems.append(
            Text(
                N_("buzzer: GPIO{pin} could not play tones ({error}); playing without sound"),
                pin=cfg.pin,
                error=str(error) or type(error).__name__,
            )
        )
        return None


def check_tune(tune: Sequence[Note], cfg: BuzzerConfig) -> None:
    """HardwareError unless every note of `tune` is within the buzzer's range (`[buzzer]`)."""
    from gpiozero.tones import Tone

    mid = Tone(cfg.mid_tone)
    low, high = mid.down(12 * cfg.octaves), mid.up(12 * cfg.octaves)
    for note, _ in tune:
        if note is not None and not low.frequency <= Tone(note).frequency <= high.frequency:
            raise HardwareError(f"sound: note {note} is outside the buzzer's range {low.note}–{high.note}")
