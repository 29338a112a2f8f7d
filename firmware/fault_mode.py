"""A board whose buttons cannot be read: it stays up, says why, and tries again less and less often.

Without GPIO access (no lgpio, the user not in the gpio group, not a Pi, /dev/gpiochip0 not there
yet) the board cannot be played. Exiting would make systemd start it again every RestartSec
(3 s) for ever: the same line in the journal each time, a Pi Zero re-importing its libraries,
and a dark board. Instead `FaultBoard` keeps the process up in a clear fault state:

- the journal gets the reason ONCE (and again only if it changes), then one line when it is gone;
- `systemctl status` shows it: READY with STATUS="fault: …", and the watchdog is fed;
- the display, if it answers, shows what is wrong; the LEDs, if they answer, blink a code
  (BLINKS red flashes, a pause, again);
- GPIO is tried again after RETRY_FIRST_S, then twice as long each time, at most RETRY_MAX_S
  apart; when it answers, `run` returns True and the board starts in the same process.

    >>> list(itertools.islice(retry_delays(), 9))
    [3.0, 6.0, 12.0, 24.0, 48.0, 96.0, 192.0, 300.0, 300.0]
"""

from __future__ import annotations

import itertools
import logging
from collections.abc import Callable, Iterator
from typing import TYPE_CHECKING

from firmware import i18n
from firmware.errors import N_, HardwareError, Text, text_of
from firmware.i18n import tr
from firmware.loop import EventLoop, Stop, Timer
from firmware.ui.draw import Canvas

if TYPE_CHECKING:
    from firmware.hardware.board import Outputs
    from firmware.service import SystemdNotifier

log = logging.getLogger("xtraboard.fault")

RETRY_FIRST_S = 3.0
RETRY_MAX_S = 300.0
BLINKS = 2  # the blink code of "the buttons cannot be read"
BLINK_ON_S, BLINK_OFF_S, BLINK_PAUSE_S = 0.3, 0.3, 1.5
RED = (255, 0, 0)

TITLE = Text(N_("Board fault"))
NO_BUTTONS = Text(N_("The buttons cannot be read. Trying again; staff: see the service log."))


def fault_screen(size: tuple[int, int], language: str) -> Canvas:
    """What the display shows while the buttons cannot be read, in `language`."""
    canvas = Canvas(size)
    with i18n.speaking(language):
        canvas.title(tr(TITLE))
        canvas.block(canvas.lines - 1, tr(NO_BUTTONS), rows=canvas.lines - 1)
    return canvas


def retry_delays() -> Iterator[float]:
    """Seconds before each new try: RETRY_FIRST_S, doubling, at most RETRY_MAX_S."""
    delay = RETRY_FIRST_S
    while True:
        yield delay
        delay = min(delay * 2, RETRY_MAX_S)


def blink_steps() -> list[tuple[bool, float]]:
    """One round of the blink code: (lit, how long), BLINKS flashes then the pause.

    >>> [lit for lit, _ in blink_steps()]
    [True, False, True, False]
    """
    steps: list[tuple[bool, float]] = []
    for flash in range(BLINKS):
        steps += [(True, BLINK_ON_S), (False, BLINK_PAUSE_S if flash == BLINKS - 1 else BLINK_OFF_S)]
    return steps


class FaultBoard:
    """The board while its buttons cannot be read (see the module's docstring).

    `try_buttons` is what may fail: it raises HardwareError while GPIO is missing. `loop` gives
    the timers (and a Stop from SIGTERM ends `run`); `outputs` are the parts that did open."""

    def __init__(
        self,
        reason: HardwareError,
        try_buttons: Callable[[], object],
        loop: EventLoop,
        outputs: Outputs,
        *,
        language: str = "en",
        say: Callable[[str], None] | None = None,
    ) -> None:
        self.reason = text_of(reason)  # a Text: said in the board's language where it is shown
        self.try_buttons = try_buttons
        self.loop = loop
        self.outputs = outputs
        self.language = language
        self.say = say or log.error
        self.tries = 1  # the try that failed before this board was made
        self.recovered = False
        self._delays = retry_delays()
        self._steps = itertools.cycle(blink_steps())
        self._timers: dict[str, Timer] = {}  # the next blink, retry and watchdog ping

    def status(self) -> str:
        """The one line for `systemctl status`."""
        return f"fault: {self.reason}"

    def start(self) -> None:
        """Say why once, show it, blink, and arm the first retry (the outputs' own problems are
        the caller's to say)."""
        self.say(
            Text(
                N_(
                    "{reason}; the board waits for GPIO, trying again in {delay} s, "
                    "then less and less often (at most every {most} s)"
                ),
                reason=self.reason,
                delay=int(RETRY_FIRST_S),
                most=int(RETRY_MAX_S),
            )
        )
        self._draw()
        self._blink()
        self._arm_retry()

    def run(self, notifier: SystemdNotifier | None = None) -> bool:
        """Serve until GPIO answers (True) or a Stop arrives (False)."""
        self.start()
        if notifier is not None:
            notifier.ready(self.status())
            interval = notifier.watchdog_interval()
            if interval:

                def ping() -> None:
                    notifier.watchdog()
                    self._timers["ping"] = self.loop.call_later(interval, ping)

                ping()
        self.loop.run(lambda event: None)
        self.close()
        if notifier is not None and self.recovered:
            notifier.notify("STATUS=")  # the fault is over: the board's own READY follows
        return self.recovered

    def retry(self) -> None:
        """One more try at the buttons; on success the loop stops with `recovered` set."""
        self.tries += 1
        try:
            self.try_buttons()
        except HardwareError as error:
            if str(error) != self.reason:  # a new reason is news; the same one was said already
                self.reason = text_of(error)
                self.say(self.reason)
            self._arm_retry()
            return
        self.recovered = True
        self.say(Text(N_("buttons: GPIO answers after {tries} tries; starting the board"), tries=self.tries))
        self.loop.post(Stop())

    def close(self) -> None:
        """Stop the timers and turn the LEDs off; the outputs stay open (the board takes them
        over, or the caller closes them)."""
        for timer in self._timers.values():
            timer.cancel()
        self._timers.clear()
        if self.outputs.leds is not None:
            self.outputs.leds.off()

    # --- what a café sees -------------------------------------------------------------------
    def _draw(self) -> None:
        display = self.outputs.display
        if display is None:
            return
        try:
            display.show(fault_screen(display.canvas_size, self.language).image)
        except HardwareError as error:  # the display went away too: say so once, blink on
            self.say(str(error))
            self.outputs.display = None

    def _blink(self) -> None:
        leds = self.outputs.leds
        if leds is None:
            return
        lit, hold = next(self._steps)
        frame = {cell: RED for cell in leds.cells} if lit else {}
        leds.show(frame, self.loop.clock())
        self._timers["blink"] = self.loop.call_later(hold, self._blink)

    def _arm_retry(self) -> None:
        self._timers["retry"] = self.loop.call_later(next(self._delays), self.retry)


def wait_for_gpio(reason: HardwareError, outputs: Outputs, *, language: str, say: Callable[[str], None]) -> bool:
    """`xtraboard run` without GPIO: the fault state under systemd until GPIO answers (True) or
    SIGTERM/SIGINT (False)."""
    import signal
    import time

    from firmware.hardware.board import open_gpio
    from firmware.service import SystemdNotifier

    loop = EventLoop(time.monotonic)
    for sig in (signal.SIGTERM, signal.SIGINT):
        signal.signal(sig, lambda *_: loop.post(Stop()))
    board = FaultBoard(reason, open_gpio, loop, outputs, language=language, say=say)
    with SystemdNotifier() as notifier:
        return board.run(notifier)
