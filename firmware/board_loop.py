"""The board: hardware, the one event loop and the application, wired together.

Input threads (gpiozero callbacks) only put `RawEdge`s on the loop's queue, and agents (bots
thinking in the board's own thinking process, firmware.thinker) only put their `AgentAnswer`s
there. The loop thread
debounces the edges (`ButtonTracker`), hands button events and answers to the app (or to the
idle show, firmware.ui.attract, or to the operator's code entry, firmware.ui.operator_menu), fires
the app's timers (animations, the bots' pace), and after each of those renders: the LED frame
and the OLED image are pure functions of the app's state and the `Look` they are given
(firmware.ui.look: palette, language, clock), and the drivers push only what changed.
Idle, the loop is blocked on its queue; the only timers left are the multi-colour LED cycle and
the idle show.

    >>> board = Board(open_hardware(config, "mock"), EventLoop(FakeClock()))   # doctest: +SKIP
"""

from __future__ import annotations

import argparse
import logging
import signal
from collections.abc import Callable, Mapping
from typing import TYPE_CHECKING

from firmware.agents import AgentAnswer, Agents, Runner, Worker
from firmware.debug import DebugRequest
from firmware.errors import HardwareError, text_of
from firmware.hardware.board import BoardHardware
from firmware.hardware.buttons import ButtonEvent, ButtonTracker, RawEdge
from firmware.hardware.config import BoardConfig, named_files
from firmware.hardware.leds import CellColours
from firmware.hardware.sound import Sound
from firmware.loop import EventLoop, FakeClock, Stop, Timer
from firmware.thinker import ThinkerProcess
from firmware.ui.app import BoardApp
from firmware.ui.attract import AttractShow, attract_frame
from firmware.ui.colours import duty, led_level, painting
from firmware.ui.cues import CueWatcher
from firmware.ui.look import Look, frame_of, image_of
from firmware.ui.operator_menu import CodeEntry, CodeEntryScreen

if TYPE_CHECKING:
    from PIL import Image

    from firmware.dice import DiceSource
    from firmware.fleet import FleetPublisher
    from firmware.journal import Journal
    from firmware.operator_code import CodeGate
    from firmware.service import SystemdNotifier

log = logging.getLogger("xtraboard.board")


def open_gate(config: BoardConfig, journal: Journal | None, now: float) -> CodeGate | None:
    """The operator's code and its lockout (firmware.operator_code), or None: no code file, no
    operator mode. A code file that cannot be read is logged and leaves operator mode off."""
    from firmware.errors import ConfigError
    from firmware.operator_code import CodeGate, read_code_file

    if config.operator is None:
        return None
    try:
        code = read_code_file(config.operator.code_file)
    except ConfigError as exc:
        log.error("operator mode is off: %s", exc)
        return None
    return CodeGate(code, journal, now) if code is not None else None


class Board:
    """Dispatch and timers: queued events to the app (or to the idle show, or to code entry),
    the debounce and the app's timers, and after each of those a render."""

    def __init__(
        self,
        hardware: BoardHardware,
        loop: EventLoop,
        *,
        journal: Journal | None = None,
        kiosk: bool = False,
        seed: int | str | None = None,
        dice: DiceSource | None = None,
        fleet: FleetPublisher | None = None,
        language: str | None = None,
        think_apart: bool | None = None,
        dice_secret: str | None = None,
    ) -> None:
        self.hardware = hardware
        self.loop = loop
        self.clock = loop.clock
        config = hardware.config
        self.tracker = ButtonTracker.from_config(config.buttons)
        # Bots and hints think in the board's thinking process, started now and kept (`think_apart`;
        # by default on a real clock); on a fake clock (tests, headless scenarios) on a worker
        # thread, deterministic and with no process per board. Engines each ask on a thread of
        # their own, and run in a box that cannot read the board description, any file it names
        # (the operator's code, the MQTT password, …) or the journal (dice seeds), wherever they
        # are, nor reach the debug socket (attach_debug hides it). Answers come as events.
        if think_apart is None:
            think_apart = not isinstance(loop.clock, FakeClock)
        runner: Runner = ThinkerProcess() if think_apart else Worker()
        if isinstance(runner, ThinkerProcess):
            runner.start()
        state_dir = journal.state_dir if journal is not None else None
        hidden = [*named_files(config), *([state_dir] if state_dir else [])]
        self.agents = Agents(loop.post, runner, engines=config.engines, hidden=hidden)
        self.journal = journal
        self._kiosk, self._seed, self._dice, self._language = kiosk, seed, dice, language  # each new app's
        self._dice_secret = dice_secret  # (the simulator's scenarios only: see BoardApp)
        self._app_generation = 0  # a factory reset makes a new app: the old one's timers do nothing
        self.fleet = fleet  # the café's MQTT report, or None
        self.sound = Sound(hardware.buzzer, loop.call_later)  # logs only, without a buzzer
        self.app = self._new_app()
        self.show = AttractShow(loop.call_later, loop.call_at, self.render)
        self.pushes = {"leds": 0, "display": 0}
        self._drawn: tuple[int, str, str] | None = None  # the app's version and the look last drawn
        self._frame: Mapping[str, CellColours] = {}
        self._image: Image.Image | None = None
        self._tracker_timer: Timer | None = None
        self._cycle_timer: Timer | None = None
        self._idle_timer: Timer | None = None
        self._swallow: set[str] = set()  # buttons whose release (and hold) the board keeps for itself
        gate = open_gate(config, journal, self.clock())  # the operator's code, or None
        self.code = CodeEntry(gate, self, self._swallow) if gate is not None else None
        self._fleet_seen: tuple[int, bool] | None = None
        self.watchers: list[
            Callable[[object], None]
        ] = []  # see each event before it is handled (the debug service's log)
        self.cues = CueWatcher()
        self._arm_idle()

    def _new_app(self) -> BoardApp:
        config = self.hardware.config
        app = BoardApp(
            schedule=self.schedule,
            problems=self.hardware.problems,
            agents=self.agents,
            journal=self.journal,
            default_language=config.language,
            led_budget_max=config.leds.budget_amps,
            kiosk=self._kiosk,
            seed=self._seed,
            dice=self._dice,
            language=self._language,
            dice_secret=self._dice_secret,
        )
        app.sound = self.sound  # for cue(app, "refused")
        app.fleet_status = self.fleet.status if self.fleet is not None else None
        return app

    @property
    def gate(self) -> CodeGate | None:
        """The operator's code and its lockout, or None: no operator mode."""
        return self.code.gate if self.code is not None else None

    @property
    def entry(self) -> CodeEntryScreen | None:
        """The code entry screen while it is open (OK + BACK held, OK at power-up)."""
        return self.code.screen if self.code is not None else None

    @property
    def attract_phase(self) -> int | None:
        """The idle show's step, None when not showing."""
        return self.show.phase

    def factory_reset(self) -> int | None:
        """The board as at its first power-on, for a test bench before each scenario (the debug
        service's `reset`): no game waiting to be resumed (the unfinished one is set aside:
        abandoned, still in the journal), every setting at its default (the guests' and the
        operator's, the kept players' names, the menu tip), a new app on the main menu with its
        cursor on the first entry, no note, no idle show, no tune. Finished games and high scores
        stay: they are the board's history and steer no menu; so do the operator code's wrong
        codes and a lock in force (`clear_settings` keeps them, in the journal as in `gate`): a
        bench must not lift a lockout, now or after a restart. Returns the id of the game set
        aside, or None. The dice are the caller's (the debug service puts its own back)."""
        journal = self.journal
        waiting = journal.unfinished() if journal is not None else None
        if waiting is not None and journal is not None:
            journal.abandon(waiting.id)
        if journal is not None:
            journal.clear_settings()
        self.app._close_agents()  # an external engine of the old game's seats
        self.sound.stop()
        self._app_generation += 1
        self.app = self._new_app()
        self.cues = CueWatcher()
        # No idle show, no code entry or code half typed (the operator's lockout stays: it is not
        # the bench's to lift); a button held now keeps its release to the board as before.
        self.show.stop()
        if self.code is not None:
            self.code.reset()
        self._drawn = None
        self._arm_idle()
        self.render()
        return waiting.id if waiting is not None else None

    # --- what code entry and the idle show ask of the board ----------------------------------
    def call_later(self, delay: float, callback: Callable[[], None]) -> Timer:
        return self.loop.call_later(delay, callback)

    def is_pressed(self, name: str) -> bool:
        return self.tracker.is_pressed(name)

    # --- timers the app asks for: run, then render ---------------------------------------------
    def schedule(self, delay: float, callback: Callable[[], None]) -> Timer:
        generation = self._app_generation

        def fire() -> None:
            if generation != self._app_generation:
                return  # the app that asked was replaced by a factory reset
            with painting(self.app.settings.palette):  # an animation made now is in the board's colours
                callback()
            self.render()

        return self.loop.call_later(delay, fire)

    # --- input ------------------------------------------------------------------------------
    def handle(self, event: object) -> None:
        """One queued event (the loop calls this on its own thread)."""
        for watch in self.watchers:
            watch(event)
        with painting(self.app.settings.palette):  # an animation made now is in the board's colours
            if isinstance(event, DebugRequest):  # the bench's debug service (firmware.debug), off by default
                event.run()
            elif isinstance(event, RawEdge):
                self._deliver(self.tracker.edge(event.name, event.pressed, event.t))
                self._arm_tracker()
            elif isinstance(event, ButtonEvent):  # already debounced (scenarios, tests)
                self._deliver([event])
            elif isinstance(event, AgentAnswer):
                self.app.answer(event)
        self.render()

    def _deliver(self, events: list[ButtonEvent]) -> None:
        code = self.code
        for event in events:
            if self.show.showing:
                if event.kind == "press":
                    self._show_press(event.name)
                continue
            if code is not None and code.screen is not None:
                code.event(event)
                continue
            if event.kind == "release" and event.name in ("ok", "back") and code is not None:
                code.chord_let_go()
            if event.kind == "press":
                self._swallow.discard(event.name)
                if code is not None and code.chord_starts(event.name):
                    continue
            elif event.name in self._swallow:
                if event.kind == "release":
                    self._swallow.discard(event.name)
                    self.app.let_go(event.name)
                continue
            self.app.button(event)
        if events:
            self._arm_idle()

    def _arm_tracker(self) -> None:
        deadline = self.tracker.next_deadline()
        if deadline is None:
            return
        if self._tracker_timer is not None:
            if self._tracker_timer.deadline <= deadline and not self._tracker_timer.cancelled:
                return
            self._tracker_timer.cancel()
        self._tracker_timer = self.loop.call_at(deadline, self._tracker_due)

    def _tracker_due(self) -> None:
        self._tracker_timer = None
        with painting(self.app.settings.palette):
            self._deliver(self.tracker.advance(self.clock()))
        self._arm_tracker()
        self.render()

    # --- the idle show (kiosk attract) -----------------------------------------------------
    def _arm_idle(self) -> None:
        if self._idle_timer is not None:
            self._idle_timer.cancel()
            self._idle_timer = None
        timeout = self.app.settings.idle_timeout_s
        if timeout and not self.show.showing:
            self._idle_timer = self.loop.call_later(timeout, self._start_show)

    def _start_show(self) -> None:
        self._idle_timer = None
        if self.app.busy or self.entry is not None:
            self._arm_idle()  # bots are playing (demo): that is show enough
            return
        self.show.start()
        app = self.app
        forgot = app.tables.new_group()  # the next people at the board never see this group's names
        if not app.tables.keeps() and app.session is None and len(app.stack) > 1:
            # Nor a half-done setup (seats and names chosen, a name half typed, no game yet): the
            # board wakes on the main menu, unless the operator keeps names (or at home).
            app.home()
            forgot = True
        if forgot:
            app.stack[0].refresh(app)  # nor "Same table again" with them

    def _show_press(self, name: str) -> None:
        """A press during the idle show: it does nothing else, nor its release (a short BACK
        takes back). Without an operator code it wakes the board; with one, code entry counts it."""
        self._swallow.add(name)
        if self.code is None:
            self.stop_show()
        else:
            self.code.show_press(name)

    def stop_show(self) -> None:
        """The board wakes from the idle show, where it was."""
        self.show.stop()
        if self.code is not None:
            self.code.show_stopped()
        self._drawn = None
        self._arm_idle()

    def power_up(self) -> None:
        """The board is ready: OK held down since power-up opens code entry."""
        if self.code is not None and self.hardware.buttons.pressed().get("ok"):
            self.code.open()
            self.render()

    # --- output -----------------------------------------------------------------------------
    def look(self) -> Look:
        """What the app's settings ask the frame to be drawn with, now."""
        return Look.of(self.app, self.clock())

    def render(self) -> None:
        """Push the app's state to the LEDs and the display if it changed."""
        hw, app, look = self.hardware, self.app, self.look()
        drawn = (app.version, look.palette, look.language)
        if self.show.phase is not None:
            self._frame = attract_frame(hw.config, self.show.phase, look.palette)
        elif self._drawn != drawn:
            self._frame = frame_of(app, look)
        if self._drawn != drawn and hw.display is not None:
            self._image = image_of(app, look, hw.display.canvas_size, hw.display.mode)
        if self._drawn is None or self._drawn[0] != app.version:
            self.cues.watch(app)  # roll, choice, turn, end: tunes on the loop's timers
        self._drawn = drawn
        self._push(look.now)

    def _push(self, now: float) -> None:
        """Show the frame and the image drawn last; the drivers send only what changed."""
        hw, frame = self.hardware, self._frame
        if hw.leds is not None:
            self._apply_led_settings()
            if hw.leds.show(frame, now):
                self.pushes["leds"] += 1
            self._arm_cycle(hw.leds.next_change(frame, now))
        if hw.display is not None:
            self._apply_display_settings()
        if hw.display is not None and self._image is not None:
            try:
                if hw.display.show(self._image):
                    self.pushes["display"] += 1
            except HardwareError as exc:  # a loose cable mid-game: say so once, play on with LEDs
                log.error("%s", exc)
                hw.problems.append(text_of(exc))  # a Text: the display's note in the board's language
                hw.display = None
        if self.fleet is not None:
            self._report_to_fleet(self.fleet)

    def _report_to_fleet(self, fleet: FleetPublisher) -> None:
        """Hand the table's state to the fleet publisher when it changed (it never blocks)."""
        from firmware.fleet import table_state

        seen = (self.app.version, self.show.showing)
        if seen != self._fleet_seen:
            self._fleet_seen = seen
            fleet.update(table_state(self.app, attract=seen[1]))

    def _apply_led_settings(self) -> None:
        leds, settings = self.hardware.leds, self.app.settings
        if leds is None:
            return
        level = led_level(settings.brightness, self.app.operator.brightness_cap, settings.night)
        if leds.brightness != duty(level):
            leds.level = level  # gamma: even steps look even, and the cap bounds every step
        budget = min(settings.led_budget_amps, self.hardware.config.leds.budget_amps) * 1000.0
        leds.budget_ma = budget

    def _apply_display_settings(self) -> None:
        display = self.hardware.display
        if display is None:
            return
        try:
            display.dim(self.app.settings.night)  # night mode dims the OLED too
        except HardwareError as exc:  # a loose cable: the frame push below reports it
            log.error("%s", exc)

    def _arm_cycle(self, when: float | None) -> None:
        """One timer for the next multi-colour cell change (no polling)."""
        if self._cycle_timer is not None:
            if when is not None and self._cycle_timer.deadline == when and not self._cycle_timer.cancelled:
                return
            self._cycle_timer.cancel()
            self._cycle_timer = None
        if when is not None and not self.show.showing:
            self._cycle_timer = self.loop.call_at(when, self._cycle_due)

    def _cycle_due(self) -> None:
        self._cycle_timer = None
        self.render()

    def fast_forward(self, end: float) -> None:
        """Move the timers that only animate (the idle show's steps, the multi-colour cells'
        changes) to their last firing at or before `end`, leaving out the frames in between.

        For a fake clock jumping far ahead (a scenario's `wait = 3600`): the show's phase and the
        cells' colours at `end` come out as if every step had run, without rendering about eight
        frames a second of time nobody watches. A real clock never calls this."""
        self.show.fast_forward(end)
        cycle, leds = self._cycle_timer, self.hardware.leds
        if cycle is not None and not cycle.cancelled and leds is not None:
            last_change = int(end / leds.cycle_s) * leds.cycle_s  # changes fall on whole cycles
            if last_change > cycle.deadline:
                cycle.cancel()
                self._cycle_timer = self.loop.call_at(last_change, self._cycle_due)

    # --- running ------------------------------------------------------------------------------
    def run(self, notifier: SystemdNotifier | None = None) -> None:
        """Render once, then serve events until a Stop (SIGTERM/SIGINT post one)."""
        self.power_up()
        self.render()
        if notifier is not None:
            notifier.ready()
            interval = notifier.watchdog_interval()
            if interval:

                def ping() -> None:
                    notifier.watchdog()  # proves the loop thread is alive, not just the process
                    self.loop.call_later(interval, ping)

                ping()
        self.loop.run(self.handle)
        if notifier is not None:
            notifier.stopping()

    def close(self) -> None:
        """Stop the agents' thinking process (or worker thread) and any tune (the hardware and journal are closed by their owners)."""
        self.agents.close()
        self.sound.stop()


def run_board(hardware: BoardHardware, args: argparse.Namespace) -> int:
    """`xtraboard run`: the board on its hardware until stopped (`args`: firmware.commands.run's)."""
    from firmware.journal import Journal
    from firmware.paths import StateLock, default_state_dir
    from firmware.service import SystemdNotifier

    loop = EventLoop(hardware.clock, events=hardware.edges)
    state_dir = args.state_dir or default_state_dir()
    lock = StateLock(state_dir)  # StateDirInUse: another board plays on this journal
    journal = Journal(state_dir)
    kiosk = bool(args.kiosk)
    from firmware.fleet import open_fleet

    fleet = open_fleet(hardware.config)  # None unless the board description has [fleet]
    board = Board(hardware, loop, journal=journal, kiosk=kiosk, fleet=fleet, language=args.lang)
    if kiosk:
        board.app.resume()  # a café board comes back by itself, exactly where it stood
    for sig in (signal.SIGTERM, signal.SIGINT):
        signal.signal(sig, lambda *_: loop.post(Stop()))
    from firmware.debug import attach_debug

    debug = attach_debug(board, args.debug_port, args.debug_socket)
    try:
        board.run(SystemdNotifier())
    finally:
        if fleet is not None:
            fleet.close()
        if debug is not None:
            debug.close()
        board.close()
        hardware.close()
        journal.close()
        lock.release()
    return 0
