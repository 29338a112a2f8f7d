"""The board's application: a stack of screens, the table being played, animations, and the
seats' agents. Screens turn presses into intents (firmware/ui/intents.py); the app hands them
to the table (firmware/table.py).

It is driven only by `button()`, by agents' answers (`answer()`, which the board loop hands on
from its queue) and by the callbacks it gave to `schedule`; the board loop
(firmware/board_loop.py) renders `image()` and `frame()` after each of them. The turns —
asking the seats' agents, the bots' pace, checking and applying their answers — are the turn
runner's (firmware.turns.board.TurnRunner); the app keeps the screens, the input and the shows.

    >>> from firmware.loop import EventLoop, FakeClock
    >>> loop = EventLoop(FakeClock())
    >>> app = BoardApp(schedule=loop.call_later)
    >>> type(app.screen).__name__
    'MainMenu'
"""

from __future__ import annotations

import logging
import random
from collections.abc import Callable, Mapping, Sequence
from dataclasses import replace
from typing import Any

from PIL import Image

from firmware import i18n
from firmware.agents import AgentAnswer, Agents, HintAnswer, Inline, Token, legal_step
from firmware.dice import DiceSource
from firmware.errors import Text, text_of
from firmware.games.base import Step
from firmware.i18n import N_, _, tr
from firmware.pace import Schedule
from firmware.table import Seat, Table
from firmware.thinker import Reply, Thought
from firmware.turns.board import TurnRunner
from firmware.ui.animation import Animation, Frame, Overlay
from firmware.ui.colours import DEFAULT_ORDER, DIM, PLAYER_COLOURS, LedFrame
from firmware.ui.cues import cue
from firmware.ui.draw import Canvas, banner, caption, takeback_bar
from firmware.hardware.buttons import ButtonEvent
from firmware.hardware.sound import Sound
from firmware.journal.protocol import BoardJournal
from firmware.ui.gameview import game_view
from firmware.ui.help import Help
from firmware.ui.intents import Coach, LessonRunning, ScreenLike
from firmware.ui.menus import GameMenu, MainMenu, SeatCountScreen
from firmware.ui.notes import NOTE_S, Notes
from firmware.ui.play import DiceEntryScreen, PlayScreen, ResultScreen, tumble_frames
from firmware.ui.seal import WordScreen, draw_seal_bar, seal_bar
from firmware.ui.settings import CHOICES, OperatorSettings, Settings, spoken
from firmware.ui.table_memory import TableMemory

__all__ = ["NOTE_S", "Animation", "BoardApp", "Frame", "Overlay", "Schedule"]

log = logging.getLogger("xtraboard.app")


STUCK_S = 60.0  # a button down a minute is jammed, not held: the bots stop waiting for it
# Buttons that act on their release, so that holding them can mean something else instead:
# a long BACK opens the in-game menu, a long ROLL shows the legend (and neither takes back or rolls).
RELEASED = ("back", "roll")


class BoardApp:
    def __init__(
        self,
        *,
        schedule: Schedule,
        settings: Settings | None = None,
        journal: BoardJournal | None = None,
        kiosk: bool = False,
        seed: int | str | None = None,
        dice: DiceSource | None = None,
        problems: Sequence[str] = (),
        agents: Agents | None = None,
        language: str | None = None,
        default_language: str = "en",
        led_budget_max: float | None = None,
        dice_secret: str | None = None,
    ) -> None:
        self.schedule = schedule
        self.journal = journal
        self.led_budget_max = led_budget_max  # the board's LED current limit: the menu offers no more
        reset: list[str] = []
        self.settings = settings or Settings.load(journal, reset)
        self.kiosk = kiosk  # guests' settings are locked; the operator menu sets them
        self.operator = OperatorSettings.load(journal)  # brightness cap, games offered, ...
        self.tables = TableMemory(journal, lambda: not self.kiosk or self.operator.keep_names)
        # `language` (--lang) wins at start; the settings menus switch it live (firmware/i18n.py).
        self.default_language = default_language  # the board description's `language`
        self.language = language or spoken(self.settings, self.operator, default_language)
        i18n.use(self.language)  # what is worded between frames; a frame is drawn in `language`
        self.fleet_status: Callable[[], Mapping[str, object]] | None = None  # the fleet's counters, for the audits
        self.seed = seed  # reproducible dice and bots for new games (demo, tests), else None
        self.rematches = 0  # rematches begun: each one's dice differ (`start_game`)
        # An unseeded game's dice secret instead of a fresh one (a scenario's `secret`), or None.
        self.dice_secret = dice_secret
        self.dice = dice  # a dice source every game rolls with instead (scripted scenarios), or None
        self.problems = list(problems)
        self.version = 0  # bumped on every change; the loop re-renders when it moves
        self.notes = Notes(schedule, self.changed)  # a banner over the screen, one at a time
        self._journal_notes = 0  # how many of the journal's notes were taken over
        self.session: Table | None = None
        self.lesson: LessonRunning | None = None  # the lesson being played (firmware.ui.lesson_runner.LessonRun)
        self.sound: Sound | None = None  # the board's voice, set by the board loop (cues play on it)
        # Who decides for each seat. Without a loop to post answers to (screens tested alone),
        # bots think inline and their answers are handled at once.
        self.agents = agents if agents is not None else Agents(self.answer, Inline())
        self.animation: Animation | None = None
        self.cosmetic = random.Random(0)  # tumbling faces only; never decides anything
        self.turns = TurnRunner(self, schedule)  # asks the agents, paces the bots, applies steps
        self._held: set[str] = set()  # buttons down now: no bot acts while a person holds one
        self._presses = 0  # presses so far, and each button's last: a stuck check is for one press
        self._press_of: dict[str, int] = {}
        self._swallowed: set[str] = set()  # a press that skipped an animation: its release does nothing
        self._hinting: Token | None = None  # a hint asked for this position and not in yet
        self.coach: Coach | None = None  # the finished game's Key moments, being analysed or done
        self.texts: list[str] = []  # the text on the last image drawn
        self.stack: list[ScreenLike] = [MainMenu(self)]
        self.help = Help(journal)  # explanations, "not now", the legend, the menu tip
        self.on_game_over: Callable[[Table], None] | None = None
        for problem in self.problems:  # missing parts the board plays on without
            self.show_note(problem)
        budget = self.choices("led_budget_amps")
        if self.settings.led_budget_amps not in budget:  # kept on a board that allowed more: shown as used
            self.settings = replace(self.settings, led_budget_amps=budget[-1])
        if reset:  # said once: the defaults are kept in place of what could not be used
            # Translators: a note; {names} lists settings by their keys ("volume, dice_mode").
            self.report(Text(N_("settings reset: {names}"), names=", ".join(reset)))
            self.settings.save(journal)
        self._check_journal()

    # --- the screen stack --------------------------------------------------------------------
    @property
    def screen(self) -> ScreenLike:
        return self.stack[-1]

    def push(self, screen: ScreenLike) -> None:
        self.stack.append(screen)
        self.changed()

    def pop(self) -> None:
        if len(self.stack) > 1:
            self.stack.pop()
        self.changed()

    def home(self) -> None:
        """Back to the main menu."""
        del self.stack[1:]
        self.changed()

    def changed(self) -> None:
        self.version += 1

    def choices(self, name: str) -> tuple[Any, ...]:  # Any: as settings.CHOICES
        """The values the menus offer for setting `name` on this board: no LED budget above
        the board's own (hardware/board.toml `budget_amps`), no brightness above the operator's cap."""
        values = CHOICES[name]
        if name == "led_budget_amps" and self.led_budget_max is not None:
            values = tuple(v for v in values if v <= self.led_budget_max) or values[:1]
        if name == "brightness":  # the operator's cap: a guest is never offered more light than it allows
            values = tuple(v for v in values if v <= self.operator.brightness_cap) or values[:1]
        return values

    def report(self, problem: str) -> None:
        """Say on the display what went wrong and keep it in `problems` (Records lists them)."""
        self.problems.append(problem)
        self.show_note(problem)

    def _check_journal(self) -> None:
        """Storage that became read-only or full, or damage the journal set aside: tell the
        players once; play goes on."""
        if self.journal is None:
            return
        problem = self.journal.problem
        if problem and problem not in self.problems:
            self.report(problem)
        notes = self.journal.notes
        for note in notes[self._journal_notes :]:
            self.report(note)
        self._journal_notes = len(notes)

    # --- notes: a banner that gets out of the way ----------------------------------------------
    @property
    def note(self) -> str | None:
        """The note on the display now, or None."""
        return self.notes.current

    def show_note(self, text: str) -> None:
        """Show `text` over the bottom of the display for NOTE_S seconds (after the notes
        before it). It never takes input or stops anything: bots, demos and the idle show go
        on, and a press both hides it and does what it always does."""
        self.notes.show(text)

    def dismiss_note(self) -> None:
        """Hide the note on the display now (the next one, if any, takes its place)."""
        self.notes.dismiss()

    # --- input --------------------------------------------------------------------------------
    def button(self, event: ButtonEvent) -> None:
        """A debounced button event: press / release (short or after a hold) / hold. While a
        button is down no bot acts (its pace goes on: mashing does not stop the bots, holding
        does); a bot whose pace ended meanwhile waits its pace again from the last release."""
        name, kind = event.name, event.kind
        if kind == "press":
            self._held.add(name)
            self._presses += 1
            self._press_of[name] = press = self._presses
            self.schedule(STUCK_S, lambda: self._stuck(name, press))
        try:
            self._button(name, kind, event.held)
        finally:
            if kind == "release":
                self._held.discard(name)
                self._arm_when_free()

    def let_go(self, name: str) -> None:
        """A release the board kept for itself (the operator's gestures): the button is up, so
        no bot waits for it any more."""
        self._held.discard(name)
        self._arm_when_free()

    def _arm_when_free(self) -> None:
        """No button is down any more: a bot that waited for that (no pace running) is armed."""
        if not self._held and self.turns.pace.idle:
            self.turns.arm()

    def _stuck(self, name: str, press: int) -> None:
        """A button still down STUCK_S after this press (and no press since): a jammed key or a
        shorted wire, not a person — the bots stop waiting for it, and the board says so."""
        if name in self._held and self._press_of.get(name) == press:
            self._held.discard(name)
            self.report(Text(N_("Button {name} seems stuck"), name=name.upper()))
            self._arm_when_free()

    def _button(self, name: str, kind: str, held: bool) -> None:
        if self.note is not None and kind == "press":
            self.dismiss_note()  # seen; the press still does its job below
        if kind == "press" and self.help.pressed():
            self.changed()  # the last move's line was read: the screen is the player's again
        if kind == "release" and name in self._swallowed:
            self._swallowed.discard(name)
            if not held:
                return  # the press skipped an animation: a short BACK does nothing more
        if self.animation is not None:
            if kind == "press":
                self._swallowed.add(name)
                self.finish_animation()  # a press skips the show; it does nothing else
            elif kind == "hold" and name == "back":
                while self.animation is not None:  # a long BACK is never lost to a show
                    self.finish_animation()
                self.open_menu()
            return
        if kind == "chord":  # LEFT and RIGHT pressed together: the hint (its answer comes later)
            self.ask_hint()
            if self._hinting is None:
                self.help.not_now(self.schedule, self.changed, self.screen)
        elif kind == "hold" and name == "back":
            self._answered(self.open_menu())
            self.help.menu_used()
        elif kind == "hold" and name == "roll":
            self.help.toggle_legend()  # and its release does nothing: asking what ROLL does never rolls
        elif kind in ("press", "repeat") and name not in RELEASED:
            self._answered(self.screen.press(self, name))
        elif kind == "release" and name in RELEASED and not held:
            self._answered(self.screen.press(self, name))
        else:
            return
        self.changed()

    def _answered(self, used: bool) -> None:
        """A press the screen (or the menu) did not use: say "not now"."""
        if not used:
            self.help.not_now(self.schedule, self.changed, self.screen)
            cue(self, "refused")  # the buzzer's short low note, where a board has one

    def open_operator(self) -> None:
        """The operator menu (the board loop calls this when the operator's code was typed)."""
        from firmware.ui.operator_menu import OperatorMenu

        self.push(OperatorMenu())

    def open_menu(self) -> bool:
        """A long BACK. In a game it opens the in-game menu, or closes it (with whatever was
        opened from it) back to the game: a game is left only by finishing or abandoning it,
        never stranded behind the main menu. After the game's end it closes the game. False
        when there was nothing to open or close (the main menu)."""
        session = self.session
        if session is not None and not session.over:
            menu = next((i for i, s in enumerate(self.stack) if isinstance(s, GameMenu)), None)
            if menu is None:
                self.push(GameMenu(self))
            else:
                del self.stack[menu:]
                self.advance()  # as "Back to game": the bots play on
        elif session is not None:
            self.end_session()  # (it refreshes the main menu)
        elif len(self.stack) > 1:
            self.home()
        else:
            return False
        return True

    # --- games --------------------------------------------------------------------------------
    @property
    def thinking(self) -> bool:
        """An agent (or the hint) was asked and has not answered yet."""
        return self.turns.thinking or self._hinting is not None or (self.coach is not None and self.coach.busy)

    @property
    def busy(self) -> bool:
        """Something moves by itself: an animation runs, a bot is about to move or an agent is
        thinking (the one definition the board's idle show, the simulator and scenarios use)."""
        return self.animation is not None or self.thinking or self.turns.moves_by_itself()

    def in_game(self) -> bool:
        """The game's screen is shown (a menu over it holds the bots up)."""
        return self.screen.in_game

    def holding(self) -> bool:
        """A button is down: no bot acts until it is let go."""
        return bool(self._held)

    def animating(self) -> bool:
        return self.animation is not None

    def bot_waits_for(self) -> str | None:
        """What the pending bot waits for from a person, if anything: "roll" (physical dice:
        a person rolls for it and keys them in) or "ok" (the "step" pace); None when it acts
        by itself (or no bot is pending)."""
        return self.turns.waits_for()

    def physical_dice(self) -> bool:
        """The game on the board is played with physical dice: as its record says (a resumed
        game keeps its dice), else (scripted dice, a table made without the menus) as the
        settings say."""
        session = self.session
        dice = session.meta.get("dice") if session is not None else None
        return (dice if dice in ("electronic", "physical") else self.settings.dice_mode) == "physical"

    def bot_go(self) -> None:
        """OK at the "step" pace: the pending bot plays its next step (its roll and decision)."""
        if self.bot_waits_for() == "ok" and self.animation is None:
            self.turns.act(asked=True)

    def start_game(self, game: str, seats: list[Seat], mode: str, rematch: bool = False) -> None:
        """A new table from the setup menus (or the demo), journaled from its first step. A
        `rematch` on a seeded board (the simulator's --seed, tests) rolls new dice: its seed is
        the board's and the rematch's number (still reproducible)."""
        if mode == "lesson":  # "Rematch" after a lesson: the lesson again (never a journaled game)
            from firmware.ui.lesson_runner import start_lesson

            start_lesson(self, game)
            return
        # A demo has nobody to key in dice: it rolls electronically whatever the setting.
        dice = "scripted" if self.dice is not None else "electronic" if mode == "demo" else self.settings.dice_mode
        seed, secret = self.seed, self.dice_secret if self.seed is None else None
        if rematch and (seed is not None or secret is not None):
            self.rematches += 1
            seed = f"{seed}/rematch {self.rematches}" if seed is not None else None
            secret = f"{secret}/rematch {self.rematches}" if secret is not None else None
        session = Table.start(
            game, seats, seed=seed, journal=self.journal, meta={"mode": mode, "dice": dice}, secret=secret
        )
        self.start_session(session)

    def set_word(self, word: str | None) -> None:
        """The table's word for the dice (None: skipped), from the seal screen: the rolls follow
        it from the first one on (docs/dice.md); then the game goes on."""
        session = self.session
        if session is not None and session.rolls_made() == 0:
            session.set_word(word)
            log.info("table's word for game %s: %s", session.journal_id, word if word is not None else "(skipped)")
        self.changed()
        self.advance()

    def resume(self) -> None:
        """The journal's unfinished game, exactly where it stood."""
        journal = self.journal
        stored = journal.unfinished() if journal is not None else None
        if journal is None or stored is None:
            return
        try:
            session = Table.restore(stored, journal, DEFAULT_ORDER, PLAYER_COLOURS)
        except ValueError as exc:  # a record that no longer replays: keep it, say so, start fresh
            journal.abandon(stored.id)
            self.report(
                Text(
                    N_("saved game {id} does not replay and was set aside: {reason}"), id=stored.id, reason=text_of(exc)
                )
            )
            return
        self.start_session(session)
        self.help.rebuild(session)  # what happened comes back with the game: its line, its logs
        self.changed()

    def discard_saved(self) -> None:
        """Set the journal's unfinished game aside (asked first: the main menu's question)."""
        journal = self.journal
        stored = journal.unfinished() if journal is not None else None
        if journal is not None and stored is not None:
            journal.abandon(stored.id)
        main = self.stack[0]
        if isinstance(main, MainMenu):
            main.refresh(self)

    def start_session(self, session: Table) -> None:
        if session.meta.get("mode") != "lesson":
            self.lesson = None  # (a lesson's dice are its script's)
            if self.dice is not None:
                session.dice = self.dice
        self._close_agents()
        session.agents = [self.agents.for_player(player) for player in session.game.players]
        self.session = session
        self.help.forget()
        self.turns.seated()  # an engine this board does not know: said at once
        del self.stack[1:]
        self.push(PlayScreen(self))
        if session.asks_word():  # the seal, and the word if the setting offers it (bots wait)
            self.push(WordScreen(self, ask=self.settings.dice_word == "ask"))
        self.turns.pace.after_bot = False
        self.advance()

    def end_session(self) -> None:
        self.turns.cancel()
        self.turns.pace.forget()
        self._close_agents()
        self.session = None
        lesson, self.lesson = self.lesson, None
        self.home()
        main = self.stack[0]
        if isinstance(main, MainMenu):
            main.refresh(self)  # a game was finished or abandoned meanwhile
        if lesson is not None:  # a lesson is left to the game's Play menu, where it was chosen
            self.push(SeatCountScreen(lesson.game, demo=False))

    def undo(self) -> bool:
        """Take back the last decision of a person (with the bots' steps after it) when the
        house rule allows (Settings → Takeback), and go on from there; also at the game's end."""
        session = self.session
        if session is None or self.animation is not None:
            return False
        if not session.undo(whole_game=self.settings.takeback == "game", note=self.help.taken_back):
            return False
        said = self.help.took_back(session)
        if said is not None:
            self.show_note(said)
        self._after_takeback()
        return True

    def takeback(self) -> None:
        """A short BACK in a game: `undo`, or say why nothing was taken back."""
        if self.session is None or self.undo():
            return
        self.show_note(
            Text(N_("Nothing to take back"))
            if self.settings.takeback == "game"
            else Text(N_("Nothing to take back since the last roll"))
        )

    def redo(self) -> bool:
        """Play the taken-back steps again, identical (until a new step is made)."""
        session = self.session
        if session is None or self.animation is not None or not session.redo():
            return False
        self.help.rebuild(session)  # the steps played again are in the round log again
        self._after_takeback()
        return True

    def _after_takeback(self) -> None:
        self.turns.reset()  # a person just acted: the bots leave a moment before going on
        if isinstance(self.screen, ResultScreen):  # taken back at the end: the game goes on
            self.stack.remove(self.screen)
        self.advance()

    def abandon(self) -> None:
        if self.session is not None:
            self.session.abandon()
        self.end_session()

    def step(self, step: Step, keyed: bool = False) -> None:
        """Apply a decision or roll through the turn runner (the table journals it first),
        animate, go on; `keyed`: a roll a person keyed in (physical dice), so marked in the record."""
        session = self.session
        if session is None or not self.turns.apply(step, keyed=keyed):
            return
        self.help.stepped(session)
        play = self.play_screen()
        if play is not None:
            play.choice = None  # the options were for the position before this step
        frames = game_view(session.game.name).animation(self, session, session.game.events)
        self.animate(frames, self.advance)

    def roll(self) -> None:
        """The ROLL button: tumble, then reveal (electronic dice), or key in physical dice."""
        session = self.session
        if session is None or not session.awaiting_roll:
            return
        if self.physical_dice() and session.kept_roll() is None:
            self.push(DiceEntryScreen(self))  # bots' dice too: a person rolls them and keys them in
            return
        roll = session.draw_roll()
        self.animate(tumble_frames(self, session, roll), lambda: self.step(roll))

    def advance(self) -> None:
        """After a step: the result screen, a bot's move, or the next prompt."""
        session = self.session
        if session is None:
            return
        self.changed()
        self._check_journal()
        play = self.play_screen()
        if play is not None:
            play.refresh(self)
        if session.over:
            if self.on_game_over is not None:
                self.on_game_over(session)
            if not isinstance(self.screen, ResultScreen) and not (
                self.lesson is not None and self.lesson.showing(self)
            ):
                self.push(ResultScreen(self))
            if self.lesson is not None:
                self.lesson.check(self)  # the lesson's last words, over the result
            return
        if self.lesson is not None:
            self.lesson.check(self)  # a rule that applies for the first time: its page (the bots wait)
        self.turns.arm()

    def takeback_window(self) -> float | None:
        """While a step can be taken back (a short BACK): the share of the chance left — 1.0
        while it waits for a person, less as a bot's roll draws near (under the "this roll"
        house rule that roll ends it) — else None. The play screen shows it as a bar."""
        session = self.session
        if session is None or self.animation is not None:
            return None
        if session.undo_target(whole_game=self.settings.takeback == "game") is None:
            return None
        return self.turns.pace.window()

    def answer(self, answer: AgentAnswer) -> None:
        """An agent's answer, on the loop thread (the board loop hands it on): the turn runner's."""
        self.turns.answer(answer)

    def _close_agents(self) -> None:
        self.turns.close_agents()

    # --- hints ---------------------------------------------------------------------------------
    def ask_hint(self) -> None:
        """LEFT and RIGHT pressed together while a person decides: ask the strong bot (off the
        loop thread) what it would do; `_hinted` moves the cursor there and says why."""
        session, play = self.session, self.play_screen()
        if (
            session is None
            or play is None
            or self.screen is not play
            or play.choice is None
            or session.pending_bot()
            or self._hinting == session.token
        ):
            return
        token = session.token
        post = self.agents.post
        self._hinting = token

        asked = session.game.copy()  # the hint is checked against the position it was asked for

        def hinted(reply: Reply) -> None:
            step = legal_step(asked, reply.step)
            post(HintAnswer(token, step, reply.error, note=reply.note, reason=reply.reason))

        thought = Thought("hint", None, session.game.copy(), session.bot_rng(), i18n.language())
        self.agents.runner.think(thought, hinted)

    def hinted(self, answer: HintAnswer) -> None:
        """The hint's answer (the turn runner hands it on): the cursor moves there, and why."""
        if answer.token == self._hinting:
            self._hinting = None
        session, play = self.session, self.play_screen()
        if session is None or play is None or answer.token != session.token:
            return  # the position moved on meanwhile: the hint no longer fits
        if answer.error is not None:
            self.report(_("no hint: {error}").format(error=answer.error))
        elif answer.step is not None:
            said = _("Hint: {reason}").format(reason=answer.reason)
            if play.point_at(answer.step, said):
                self.show_note(said)
        self.changed()

    def play_screen(self) -> PlayScreen | None:
        return next((s for s in self.stack if isinstance(s, PlayScreen)), None)

    # --- animations ---------------------------------------------------------------------------
    def animate(self, frames: Sequence[Frame], then: Callable[[], None]) -> None:
        if not frames:
            then()
            return
        self.animation = Animation(frames, then)
        self.changed()
        self.animation.timer = self.schedule(frames[0].seconds, self._next_frame)

    def _next_frame(self) -> None:
        animation = self.animation
        if animation is None:
            return
        animation.index += 1
        if animation.index >= len(animation.frames):
            self.finish_animation()
            return
        self.changed()
        animation.timer = self.schedule(animation.current.seconds, self._next_frame)

    def finish_animation(self) -> None:
        animation, self.animation = self.animation, None
        if animation is None:
            return
        if animation.timer is not None:
            animation.timer.cancel()
        self.changed()
        animation.then()

    # --- rendering (pure functions of the state above) ---------------------------------------
    def image(self, size: tuple[int, int], mode: str = "1") -> Image.Image:
        """The display image: the screen, an animation's caption, a note (greys in mode "L")."""
        return self.canvas(size).result(mode)

    def canvas(self, size: tuple[int, int]) -> Canvas:
        """The display drawn on a Canvas of `size`, with the boxes of its texts (the fit test)."""
        canvas = Canvas(size)
        self.screen.draw(canvas)
        self.help.draw(canvas, self)
        if self.animation is not None and self.animation.current.caption:
            caption(canvas, self.animation.current.caption)
        if self.note is not None:
            banner(canvas, tr(self.note))
        elif self.animation is None and isinstance(self.screen, PlayScreen) and (seal := seal_bar(self)) is not None:
            draw_seal_bar(canvas, seal)  # in view until the first roll, where it covers nothing
        window = self.takeback_window() if self.screen is self.play_screen() else None
        if window is not None:
            takeback_bar(canvas, window)
        self.texts = canvas.texts
        return canvas

    def frame(self) -> LedFrame:
        """Colour (or colours, shown in turn) per LED cell; absent cells are off."""
        frame: LedFrame = {}
        if self.session is not None:
            game_view(self.session.game.name).scene(self, self.session, frame)
            for seat, colour in enumerate(self.session.colours):
                frame.setdefault(f"seat.{seat}", PLAYER_COLOURS[colour])
        else:
            for seat in range(6):
                frame[f"seat.{seat}"] = DIM
        for screen in self.stack:
            screen.scene(self, frame)
        if self.animation is not None:
            frame.update(self.animation.current.leds)
        return frame

    def colour_of(self, player: int) -> tuple[int, int, int]:
        return PLAYER_COLOURS[self.session.colours[player]] if self.session else DIM
