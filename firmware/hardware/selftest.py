"""The self-test: light each LED segment, draw on the display, ask for each button in turn.

Time passes only through the edge source (`wait(timeout)`) and the hardware's clock, so a test
can script it: drive MockFactory pins when asked to wait, advance a fake clock otherwise.

>>> hardware = open_hardware(config, "mock")  # doctest: +SKIP
>>> report = run_selftest(hardware, QueueEdges(hardware.edges), button_timeout_s=10)  # doctest: +SKIP
>>> report.ok  # doctest: +SKIP
"""

from __future__ import annotations

import queue
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Protocol

from PIL import Image, ImageDraw

from firmware.errors import HardwareError, text_of
from firmware.games.layout import CellGroup
from firmware.hardware.board import Hardware
from firmware.hardware.buttons import TILT, ButtonEvent, ButtonTracker, RawEdge
from firmware.i18n import _, decimal, ngettext, tr


def segments(layout: tuple[CellGroup, ...]) -> list[tuple[str, CellGroup]]:
    """The LED segments lit one after another: a group of cells each (the games declare theirs),
    the seats first (where everyone sits), then in the order the board maps them."""
    ordered = sorted(layout, key=lambda group: group.shape != "seats")
    return [(group.title.lower(), group) for group in ordered]


LINE_PX = 11  # the default bitmap font's line height


class EdgeSource(Protocol):
    def wait(self, timeout: float) -> RawEdge | None:
        """The next raw edge, or None once `timeout` seconds passed without one."""


class QueueEdges:
    """Edges from a queue (`Hardware.edges`), blocking up to the timeout: never polling."""

    def __init__(self, edges: queue.SimpleQueue[object]) -> None:
        self._edges = edges

    def wait(self, timeout: float) -> RawEdge | None:
        try:
            edge = self._edges.get(timeout=max(timeout, 0.0))
        except queue.Empty:
            return None
        assert isinstance(edge, RawEdge), edge  # no loop runs during the self-test: only the buttons post
        return edge


@dataclass(frozen=True)
class SelftestReport:
    """What the self-test saw; `ok` when every button was pressed when asked for."""

    seen: tuple[str, ...]
    missed: tuple[str, ...]
    segments: tuple[tuple[str, int], ...] = ()  # (segment, LEDs lit)
    display: str = ""  # the display shown on, "" if none
    stray: tuple[tuple[str, str], ...] = ()  # (asked for, pressed instead): swapped wires?
    stuck: tuple[str, ...] = ()  # pressed before the test began: wiring or pull_up?
    problems: tuple[str, ...] = ()
    sound: str = ""  # the buzzer played on, "" if none

    @property
    def ok(self) -> bool:
        return not self.missed

    def lines(self) -> list[str]:
        """A short human-readable summary."""
        lines = [_("warning: {problem}").format(problem=tr(problem)) for problem in self.problems]
        if self.segments:
            lit = ", ".join(f"{name} {count}" for name, count in self.segments)
            # Translators: the self-test's summary; {lit} is "seats 5, track 40, ..." (LED segments, not translated).
            lines.append(_("LEDs lit: {lit}").format(lit=lit))
        else:
            lines.append(_("LEDs: none (no LED chain)"))
        lines.append(_("display: {display}").format(display=self.display) if self.display else _("display: none"))
        lines.append(_("buzzer: {sound}").format(sound=self.sound) if self.sound else _("buzzer: none"))
        lines.append(_("buttons seen: {buttons}").format(buttons=", ".join(map(label, self.seen)) or _("none")))
        if self.missed:
            lines.append(_("buttons NOT seen: {buttons}").format(buttons=", ".join(map(label, self.missed))))
        for asked, got in self.stray:
            lines.append(_("asked for {asked}, got {got}: swapped wires?").format(asked=label(asked), got=label(got)))
        for name in self.stuck:
            lines.append(
                _("{button} read as pressed before the test: check its wiring and buttons.pull_up").format(
                    button=label(name)
                )
            )
        lines.append(_("self-test passed") if self.ok else _("self-test FAILED"))
        return lines


def label(name: str) -> str:
    """How a button is named to people: ROLL, OK, …, the tilt switch."""
    return _("the tilt switch") if name == TILT else name.upper()


def run_selftest(
    hardware: Hardware,
    source: EdgeSource,
    *,
    button_timeout_s: float = 10.0,
    step_s: float = 1.0,
    say: Callable[[str], None] = lambda line: None,
) -> SelftestReport:
    """Run the self-test on `hardware`; `say` gets progress lines as they happen."""
    return _Selftest(hardware, source, step_s, say).run(button_timeout_s)


@dataclass
class _Selftest:
    hardware: Hardware
    source: EdgeSource
    step_s: float
    say: Callable[[str], None]
    problems: list[str] = field(default_factory=list)
    stray: list[tuple[str, str]] = field(default_factory=list)

    def __post_init__(self) -> None:
        cfg = self.hardware.config.buttons
        # No aliases: the tilt switch is asked for on its own, not as ROLL.
        self.tracker = ButtonTracker(self.hardware.buttons.names, debounce_ms=cfg.debounce_ms, hold_s=cfg.hold_s)
        self.display = self.hardware.display

    def run(self, button_timeout_s: float) -> SelftestReport:
        self.problems = list(self.hardware.problems)
        for problem in self.problems:
            self.say(_("warning: {problem}").format(problem=tr(problem)))
        stuck = tuple(name for name, pressed in self.hardware.buttons.pressed().items() if pressed)
        segments = self._leds()
        shown_on = self._display_pattern()
        sound = self._buzzer()
        seen, missed = self._buttons(button_timeout_s)
        report = SelftestReport(
            seen=tuple(seen),
            missed=tuple(missed),
            segments=segments,
            display=shown_on,
            stray=tuple(self.stray),
            stuck=stuck,
            problems=tuple(self.problems),
            sound=sound,
        )
        missing = ", ".join("TILT" if n == TILT else n.upper() for n in missed)
        self._show(
            [_("Self-test passed") if report.ok else _("Self-test FAILED")]
            + ([_("Missing: {buttons}").format(buttons=missing)] if missed else [])
        )
        return report

    # --- parts ----------------------------------------------------------------------------------
    def _leds(self) -> tuple[tuple[str, int], ...]:
        leds = self.hardware.leds
        if leds is None:
            self.say(_("LEDs: none to test"))
            return ()
        config = self.hardware.config
        cells = config.leds.cells
        lit: list[tuple[str, int]] = []
        for name, group in segments(config.layout):
            frame = {cell: group.colour for cell in cells if group.owns(cell)}
            count = sum(len(cells[cell].leds) for cell in frame)
            self._show([_("LED test"), _("{segment}: {count} LEDs").format(segment=name, count=count)])
            leds.show(frame, self.hardware.clock())
            self.say(
                _("LEDs: {segment} lit ({cells} cells, {count} LEDs)").format(
                    segment=name, cells=len(frame), count=count
                )
            )
            lit.append((name, count))
            self._wait(None, self.step_s)
        every = {cell: (255, 255, 255) for cell in cells}
        self._show([_("LED test"), _("all LEDs (within budget)")])
        leds.show(every, self.hardware.clock())
        self.say(_("LEDs: all lit (dimmed to the current budget)"))
        self._wait(None, self.step_s)
        leds.off()
        return tuple(lit)

    def _buzzer(self) -> str:
        """Every cue once, note by note (listen: five short tunes, low buzzes in the middle)."""
        buzzer, cfg = self.hardware.buzzer, self.hardware.config.buzzer
        if buzzer is None or cfg is None:
            self.say(_("buzzer: none to test"))
            return ""
        from firmware.ui.cues import TUNES

        self._show([_("Sound test"), _("buzzer on GPIO{pin}").format(pin=cfg.pin)])
        for name, tune in TUNES.items():
            self.say(_("buzzer: cue {cue}").format(cue=name))
            for note, seconds in tune:
                if note is None:
                    buzzer.stop()
                else:
                    buzzer.play(note)  # full volume (50 % duty): the loudest it gets
                self._wait(None, seconds)
            buzzer.stop()
            self._wait(None, 0.2)
        return ngettext("GPIO{pin}, {n} cue played", "GPIO{pin}, {n} cues played", len(TUNES)).format(
            pin=cfg.pin, n=len(TUNES)
        )

    def _display_pattern(self) -> str:
        if self.display is None:
            self.say(_("display: none to test"))
            return ""
        info = self.hardware.display_info
        width, height = self.display.size
        image = Image.new("1", (width, height))
        draw = ImageDraw.Draw(image)
        draw.rectangle((0, 0, width - 1, height - 1), outline=1)
        draw.line((0, 0, width - 1, height - 1), fill=1)
        draw.line((0, height - 1, width - 1, 0), fill=1)
        for x in range(width - 24, width - 4, 4):  # a checker block: every pixel pitch visible
            for y in range(4, 24, 4):
                if (x + y) // 4 % 2:
                    draw.rectangle((x, y, x + 3, y + 3), fill=1)
        words = info.split(" on ", 1)
        for row, text in enumerate(words):
            draw.rectangle((2, 26 + row * LINE_PX, width - 3, 26 + row * LINE_PX + LINE_PX - 1), fill=0)
            draw.text((3, 26 + row * LINE_PX), text, fill=1)
        self._push(image)
        self.say(_("display: test pattern on {display}").format(display=info))
        self._wait(None, self.step_s)
        return info if self.display is not None else ""

    def _buttons(self, timeout_s: float) -> tuple[list[str], list[str]]:
        seen: list[str] = []
        missed: list[str] = []
        names = self.hardware.buttons.names
        for number, name in enumerate(names, start=1):
            ask = _("Tilt the board") if name == TILT else _("Press {button}").format(button=name.upper())
            self._show(
                [
                    _("Button test {number}/{count}").format(number=number, count=len(names)),
                    ask,
                    f"({decimal(timeout_s)} s)",
                ]
            )
            self.say(_("buttons: {ask} …").format(ask=ask))
            if self._wait(name, timeout_s):
                seen.append(name)
                self.say(_("buttons: {button} seen").format(button=label(name)))
            else:
                missed.append(name)
                self.say(
                    _("buttons: {button} NOT seen within {seconds} s").format(
                        button=label(name), seconds=decimal(timeout_s)
                    )
                )
        return seen, missed

    # --- time and input -------------------------------------------------------------------------
    def _wait(self, wanted: str | None, seconds: float) -> bool:
        """Feed edges to the tracker for `seconds`; True as soon as `wanted` is pressed."""
        clock = self.hardware.clock
        deadline = clock() + seconds
        while True:
            now = clock()
            if self._pressed(wanted, self.tracker.advance(now)):
                return True
            if now >= deadline:
                return False
            due = self.tracker.next_deadline()
            until = deadline if due is None else min(deadline, due)
            edge = self.source.wait(max(until - now, 0.0))
            if edge is not None and self._pressed(wanted, self.tracker.edge(edge.name, edge.pressed, edge.t)):
                return True

    def _pressed(self, wanted: str | None, events: list[ButtonEvent]) -> bool:
        for event in events:
            if event.kind != "press":
                continue
            if event.name == wanted:
                return True
            if wanted is not None:
                self.stray.append((wanted, event.name))
        return False

    # --- the display ----------------------------------------------------------------------------
    def _show(self, lines: list[str]) -> None:
        if self.display is None:
            return
        image = Image.new("1", self.display.size)
        draw = ImageDraw.Draw(image)
        for row, text in enumerate(lines):
            draw.text((2, 2 + row * (LINE_PX + 2)), text, fill=1)
        self._push(image)

    def _push(self, image: Image.Image) -> None:
        if self.display is None:
            return
        try:
            self.display.show(image)
        except HardwareError as error:  # the display went away: note it, test the rest
            self.problems.append(text_of(error))
            self.say(_("warning: {problem}").format(problem=tr(error)))
            self.display = None
