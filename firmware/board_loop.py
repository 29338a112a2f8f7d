"""The board: hardware, the one event loop and the application, wired together.

Input threads (gpiozero callbacks) only put `RawEdge`s on the loop's queue, and agents (bots
thinking in the board's own thinking process, firmware.thinker) only put their `AgentAnswer`s
there. The loop thread
debounces the edges (`ButtonTracker`), hands button events and answers to the app, fires the
app's timers (animations, the bots' pace), and after each of those renders: the LED frame and
the OLED image are pure functions of the app's state, and the drivers push only what changed.
Idle, the loop is blocked on its queue; the only timers left are the multi-colour LED cycle and
the idle show.

    >>> board = Board(open_hardware(config, "mock"), EventLoop(FakeClock()))   # doctest: +SKIP
"""

from __future__ import annotations

import logging
import math
import signal
from typing import Any

from firmware.agents import AgentAnswer, Agents, Runner, Worker
from firmware.debug import DebugRequest
from firmware.errors import HardwareError, text_of
from firmware.hardware.buttons import ButtonEvent, ButtonTracker, RawEdge
from firmware.hardware.config import named_files
from firmware.hardware.sound import Sound
from firmware.loop import EventLoop, FakeClock, Stop, Timer
from firmware.thinker import ThinkerProcess
from firmware.ui.app import BoardApp
from firmware.ui.colours import PLAYER_COLOURS, duty, led_level, use_palette
from firmware.ui.cues import CueWatcher

log = logging.getLogger("xtraboard.board")
ATTRACT_STEP_S = 0.12
CODE_GAP_S = 5.0  # the operator's code: a longer pause in the idle show wakes the board, counting nothing
ENTRY_HOLD_S = 10.0  # OK + BACK held this long on the main menu: code entry
ENTRY_IDLE_S = 30.0  # code entry closes after this long without a press, counting nothing


def open_gate(config: Any, journal: Any, now: float) -> Any:
    """The operator's code and its lockout (firmware.operator_code), or None: no code file, no
    operator mode. A code file that cannot be read is logged and leaves operator mode off."""
    from firmware.errors import ConfigError
    from firmware.operator_code import CodeGate, read_code_file

    operator = getattr(config, "operator", None)
    if operator is None:
        return None
    try:
        code = read_code_file(operator.code_file)
    except ConfigError as exc:
        log.error("operator mode is off: %s", exc)
        return None
    return CodeGate(code, journal, now) if code is not None else None


class Board:
    def __init__(
        self,
        hardware: Any,
        loop: EventLoop,
        *,
        journal: Any = None,
        kiosk: bool = False,
        seed: int | str | None = None,
        dice: Any = None,
        fleet: Any = None,
        language: str | None = None,
        think_apart: bool | None = None,
    ) -> None:
        self.hardware = hardware
        self.loop = loop
        self.clock = loop.clock
        self.tracker = ButtonTracker.from_config(hardware.config.buttons)
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
        config = hardware.config
        state_dir = getattr(journal, "state_dir", None)
        hidden = [*named_files(config), *([state_dir] if state_dir else [])]
        self.agents = Agents(loop.post, runner, engines=getattr(hardware.config, "engines", ()), hidden=hidden)
        self._app_args = {"journal": journal, "kiosk": kiosk, "seed": seed, "dice": dice, "language": language}
        self._app_generation = 0  # a factory reset makes a new app: the old one's timers do nothing
        self.app = self._new_app()
        self.attract_phase: int | None = None  # the idle show's step, None when not showing
        self.pushes = {"leds": 0, "display": 0}
        self._rendered: int | None = None
        self._frame: dict[str, Any] = {}
        self._image: Any = None
        self._tracker_timer: Timer | None = None
        self._cycle_timer: Timer | None = None
        self._idle_timer: Timer | None = None
        self._attract_timer: Timer | None = None
        self.fleet = fleet  # firmware.fleet.FleetPublisher (the café's MQTT report), or None
        self.app.fleet_status = fleet.status if fleet is not None else None
        self.gate = open_gate(hardware.config, journal, self.clock())  # the operator's code, or None
        self._typed: list[str] = []  # presses typed so far during the idle show or in code entry
        self.entry: Any = None  # the code entry screen while it is open (OK + BACK held, OK at power-up)
        self._code_timer: Timer | None = None  # the pause that ends a code typed half-way
        self._entry_chord: Timer | None = None  # OK + BACK held on the main menu
        self._swallow: set[str] = set()  # buttons whose release (and hold) the board keeps for itself
        self._fleet_seen: tuple[int, bool] | None = None
        self.watchers: list[Any] = []  # see each event before it is handled (the debug service's log)
        self.sound = Sound(getattr(hardware, "buzzer", None), loop.call_later)  # logs only, without a buzzer
        self.app.sound = self.sound  # for cue(app, "refused")
        self.cues = CueWatcher()
        self._arm_idle()

    def _new_app(self) -> BoardApp:
        hardware = self.hardware
        return BoardApp(
            schedule=self.schedule,
            problems=hardware.problems,
            agents=self.agents,
            default_language=getattr(hardware.config, "language", "en"),
            led_budget_max=getattr(getattr(hardware.config, "leds", None), "budget_amps", None),
            **self._app_args,
        )

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
        journal = self._app_args["journal"]
        waiting = journal.unfinished() if journal is not None else None
        if waiting is not None:
            journal.abandon(waiting.id)
        if journal is not None:
            journal.clear_settings()
        self.app._close_agents()  # an external engine of the old game's seats
        self.sound.stop()
        self._app_generation += 1
        self.app = self._new_app()
        self.app.fleet_status = self.fleet.status if self.fleet is not None else None
        self.app.sound = self.sound
        self.cues = CueWatcher()
        # No idle show, no code entry or code half typed (the operator's lockout stays: it is not
        # the bench's to lift); a button held now keeps its release to the board as before.
        for timer in (self._attract_timer, self._code_timer, self._entry_chord):
            if timer is not None:
                timer.cancel()
        self._code_timer = self._entry_chord = None
        self.entry, self._typed = None, []
        self.attract_phase = None
        self._rendered = None
        self._arm_idle()
        self.render()
        return waiting.id if waiting is not None else None

    # --- timers the app asks for: run, then render ---------------------------------------------
    def schedule(self, delay: float, callback: Any) -> Timer:
        generation = self._app_generation

        def fire() -> None:
            if generation != self._app_generation:
                return  # the app that asked was replaced by a factory reset
            callback()
            self.render()

        return self.loop.call_later(delay, fire)

    # --- input ------------------------------------------------------------------------------
    def handle(self, event: Any) -> None:
        """One queued event (the loop calls this on its own thread)."""
        for watch in self.watchers:
            watch(event)
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
        for event in events:
            if self.attract_phase is not None:
                if event.kind == "press":
                    self._attract_press(event.name)
                continue
            if self.entry is not None:
                self._entry_event(event)
                continue
            if event.kind == "release" and event.name in ("ok", "back") and self._entry_chord is not None:
                self._entry_chord.cancel()  # let go before the 10 s: nothing
                self._entry_chord = None
            if event.kind == "press":
                self._swallow.discard(event.name)
                if self._entry_chord_starts(event.name):
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
        self._deliver(self.tracker.advance(self.clock()))
        self._arm_tracker()
        self.render()

    # --- the idle show (kiosk attract) -----------------------------------------------------
    def _arm_idle(self) -> None:
        if self._idle_timer is not None:
            self._idle_timer.cancel()
            self._idle_timer = None
        timeout = self.app.settings.idle_timeout_s
        if timeout and self.attract_phase is None:
            self._idle_timer = self.loop.call_later(timeout, self._start_attract)

    def _start_attract(self) -> None:
        self._idle_timer = None
        if self.app.busy or self.entry is not None:
            self._arm_idle()  # bots are playing (demo): that is show enough
            return
        self.attract_phase = 0
        self._typed = []
        self._attract_step()

    def _attract_step(self) -> None:
        if self.attract_phase is None:
            return
        self.attract_phase += 1
        self.render()
        self._attract_timer = self.loop.call_later(ATTRACT_STEP_S, self._attract_step)

    def _attract_press(self, name: str) -> None:
        """A press during the idle show. Without an operator code it wakes the board and does
        nothing else. With one, every press keeps the show going, whatever the button, until a
        whole code's length has been typed: then the board opens the operator menu or wakes,
        so no single press tells whether it was right. A pause of CODE_GAP_S wakes it too."""
        self._swallow.add(name)  # the press does nothing else, nor its release (a short BACK takes back)
        gate = self.gate
        if gate is None:
            self._stop_attract()
            return
        self._typed.append(name)
        self._arm_code_timer(CODE_GAP_S, self._code_pause)
        if len(self._typed) < gate.length:
            return
        typed, self._typed = self._typed, []
        self._stop_attract()
        self._code_typed(typed)

    def _code_pause(self) -> None:
        """A code typed half-way, then a pause: the board wakes, counting nothing."""
        self._code_timer = None
        self._stop_attract()
        self.render()

    def _code_typed(self, typed: list[str], *, say_wrong: bool = False) -> None:
        """A whole code typed (idle show or code entry): the operator menu, or nothing but a
        note when code entry is locked (a wrong code only wakes the board, counted and logged)."""
        from firmware.i18n import _

        now = self.clock()
        result = self.gate.attempt(typed, now)
        if result == "open":
            self.app.open_operator()
        elif result == "locked" or self.gate.locked_for(now) > 0:
            self._say_locked(now)
        elif say_wrong:
            self.app.show_note(_("Wrong code"))

    def _say_locked(self, now: float) -> None:
        from firmware.i18n import _

        minutes = max(1, math.ceil(self.gate.locked_for(now) / 60))
        self.app.show_note(_("Code entry locked: {minutes} min").format(minutes=minutes))

    def _arm_code_timer(self, delay: float, callback: Any) -> None:
        if self._code_timer is not None:
            self._code_timer.cancel()
        self._code_timer = self.loop.call_later(delay, callback)

    def _stop_attract(self) -> None:
        self.attract_phase = None
        if self._attract_timer is not None:
            self._attract_timer.cancel()
        if self._code_timer is not None and self.entry is None:
            self._code_timer.cancel()
            self._code_timer = None
        self._typed = []
        self._rendered = None
        self._arm_idle()

    # --- code entry: OK + BACK held on the main menu, or OK held at power-up ----------------------
    def _entry_chord_starts(self, name: str) -> bool:
        """OK pressed while BACK is down, or BACK while OK is down, with no game in play: the
        press does nothing (it is the start of the gesture) and ENTRY_HOLD_S later, if both are
        still down, code entry opens. No setting removes this way in."""
        other = {"ok": "back", "back": "ok"}.get(name)
        if other is None or self.gate is None or self.app.session is not None or not self.tracker.is_pressed(other):
            return False
        self._swallow.update((name, other))  # neither acts on its own now (BACK's hold, its release)
        if self._entry_chord is not None:
            self._entry_chord.cancel()
        self._entry_chord = self.loop.call_later(ENTRY_HOLD_S, self._entry_chord_held)
        return True

    def _entry_chord_held(self) -> None:
        self._entry_chord = None
        if self.tracker.is_pressed("ok") and self.tracker.is_pressed("back") and self.app.session is None:
            self._swallow.update(("ok", "back"))  # their releases (and BACK's hold) do nothing
            self.app.home()
            self.open_code_entry()
        self.render()

    def power_up(self) -> None:
        """The board is ready: OK held down since power-up opens code entry."""
        buttons = getattr(self.hardware, "buttons", None)
        if self.gate is not None and buttons is not None and buttons.pressed().get("ok"):
            self.open_code_entry()
            self.render()

    def open_code_entry(self) -> None:
        """The code entry screen: every press is one of the code's, until its length."""
        now = self.clock()
        if self.gate is None:
            return
        if self.gate.locked_for(now) > 0:
            self._say_locked(now)
            return
        from firmware.ui.operator import CodeEntryScreen

        self.entry = CodeEntryScreen(self.gate.length)
        self._typed = []
        self.app.push(self.entry)
        self._arm_code_timer(ENTRY_IDLE_S, self._close_code_entry)

    def _entry_event(self, event: ButtonEvent) -> None:
        if event.kind == "release":
            self._swallow.discard(event.name)
            self.app.let_go(event.name)
        if event.kind != "press":
            return
        self._typed.append(event.name)
        self._swallow.add(event.name)
        self.entry.typed = len(self._typed)
        self.app.changed()
        self._arm_code_timer(ENTRY_IDLE_S, self._close_code_entry)
        if len(self._typed) >= self.gate.length:
            typed = self._typed
            self._close_code_entry()
            self._code_typed(typed, say_wrong=True)

    def _close_code_entry(self) -> None:
        if self._code_timer is not None:
            self._code_timer.cancel()
            self._code_timer = None
        entry, self.entry, self._typed = self.entry, None, []
        if entry is not None and entry in self.app.stack:
            self.app.stack.remove(entry)
            self.app.changed()
        self.render()

    def attract_frame(self) -> dict[str, Any]:
        """A colour wave running along every path, ladder (rungs) and the seats, rows of tiles pulsing
        (whichever game declared them); the dice stay dark."""
        phase = self.attract_phase or 0
        palette = list(PLAYER_COLOURS.values())[:6]
        config = self.hardware.config
        shapes = {group.name: group.shape for group in config.layout}
        frame: dict[str, Any] = {}
        for name in config.leds.cells:
            group, _, rest = name.partition(".")
            index = sum(int(part) for part in rest.split("."))
            shape = shapes.get(group)
            if shape in ("path", "rungs", "seats"):
                frame[name] = palette[(index + phase) // 3 % len(palette)]
            elif shape == "rows":
                level = 0.5 + 0.5 * math.sin((phase + index) / 4)
                frame[name] = tuple(int(c * level) for c in palette[(phase // 20) % len(palette)])
        return frame

    # --- output -----------------------------------------------------------------------------
    def render(self) -> None:
        """Push the app's state to the LEDs and the display if it changed."""
        hw, app, now = self.hardware, self.app, self.clock()
        use_palette(app.settings.palette)  # the seat colours the frame below is drawn in
        if self.attract_phase is not None:
            frame = self.attract_frame()
        elif self._rendered != app.version:
            frame = app.frame()
        else:
            frame = self._frame
        if self._rendered != app.version and hw.display is not None:
            self._image = app.image(hw.display.canvas_size, hw.display.mode)
        if self._rendered != app.version:
            self.cues.watch(app)  # roll, choice, turn, end: tunes on the loop's timers
        self._rendered = app.version
        self._frame = frame
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
            self._report_to_fleet()

    def _report_to_fleet(self) -> None:
        """Hand the table's state to the fleet publisher when it changed (it never blocks)."""
        from firmware.fleet import table_state

        seen = (self.app.version, self.attract_phase is not None)
        if seen != self._fleet_seen:
            self._fleet_seen = seen
            self.fleet.update(table_state(self.app, attract=seen[1]))

    def _apply_led_settings(self) -> None:
        leds, settings = self.hardware.leds, self.app.settings
        level = led_level(settings.brightness, self.app.operator.brightness_cap, settings.night)
        if leds.brightness != duty(level):
            leds.level = level  # gamma: even steps look even, and the cap bounds every step
        budget = min(settings.led_budget_amps, self.hardware.config.leds.budget_amps) * 1000.0
        leds.budget_ma = budget

    def _apply_display_settings(self) -> None:
        try:
            self.hardware.display.dim(self.app.settings.night)  # night mode dims the OLED too
        except HardwareError as exc:  # a loose cable: the frame push below reports it
            log.error("%s", exc)

    def _arm_cycle(self, when: float | None) -> None:
        """One timer for the next multi-colour cell change (no polling)."""
        if self._cycle_timer is not None:
            if when is not None and self._cycle_timer.deadline == when and not self._cycle_timer.cancelled:
                return
            self._cycle_timer.cancel()
            self._cycle_timer = None
        if when is not None and self.attract_phase is None:
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
        timer = self._attract_timer
        if self.attract_phase is not None and timer is not None and not timer.cancelled:
            skipped = int((end - timer.deadline) // ATTRACT_STEP_S)
            if skipped > 0:
                timer.cancel()
                self.attract_phase += skipped
                self._attract_timer = self.loop.call_at(timer.deadline + skipped * ATTRACT_STEP_S, self._attract_step)
        cycle, leds = self._cycle_timer, self.hardware.leds
        if cycle is not None and not cycle.cancelled and leds is not None:
            last_change = int(end / leds.cycle_s) * leds.cycle_s  # changes fall on whole cycles
            if last_change > cycle.deadline:
                cycle.cancel()
                self._cycle_timer = self.loop.call_at(last_change, self._cycle_due)

    # --- running ------------------------------------------------------------------------------
    def run(self, notifier: Any = None) -> None:
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


def run_board(hardware: Any, args: Any) -> int:
    """`xtraboard run`: the board on its hardware until stopped."""
    from firmware.journal import Journal
    from firmware.paths import StateLock, default_state_dir
    from firmware.service import SystemdNotifier

    loop = EventLoop(hardware.clock, events=hardware.edges)
    state_dir = getattr(args, "state_dir", None) or default_state_dir()
    lock = StateLock(state_dir)  # StateDirInUse: another board plays on this journal
    journal = Journal(state_dir)
    kiosk = bool(getattr(args, "kiosk", False))
    from firmware.fleet import open_fleet

    fleet = open_fleet(hardware.config)  # None unless the board description has [fleet]
    board = Board(hardware, loop, journal=journal, kiosk=kiosk, fleet=fleet, language=getattr(args, "lang", None))
    if kiosk:
        board.app.resume()  # a café board comes back by itself, exactly where it stood
    for sig in (signal.SIGTERM, signal.SIGINT):
        signal.signal(sig, lambda *_: loop.post(Stop()))
    from firmware.debug import attach_debug

    debug = attach_debug(board, getattr(args, "debug_port", None), getattr(args, "debug_socket", None))
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
