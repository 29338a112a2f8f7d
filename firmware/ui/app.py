"""The board's application: a stack of screens, the game session, animations and bots.

It is driven only by `button()` and by the callbacks it gave to `schedule`; the board loop
(firmware/board_loop.py) renders `image()` and `frame()` after each of them.

    >>> from firmware.loop import EventLoop, FakeClock
    >>> loop = EventLoop(FakeClock())
    >>> app = BoardApp(schedule=loop.call_later)
    >>> type(app.screen).__name__
    'MainMenu'
"""

from __future__ import annotations

import random
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

from PIL import Image

from firmware.errors import IllegalStepError
from firmware.ui.colours import DIM, PLAYER_COLOURS
from firmware.ui.draw import Canvas, wrap
from firmware.ui.screen import Screen
from firmware.ui.session import GameSession
from firmware.ui.settings import Settings

Schedule = Callable[[float, Callable[[], None]], Any]  # (delay, callback) -> timer with cancel()
NOTE_S = 4.0  # how long a note stays on the display: long enough to read two short lines
Overlay = dict[str, Any]


@dataclass
class Frame:
    """One frame of an animation: how long it shows, LED cells it overrides, a caption."""

    seconds: float
    leds: Overlay
    caption: str = ""


class Animation:
    def __init__(self, frames: Sequence[Frame], then: Callable[[], None]) -> None:
        self.frames = list(frames)
        self.index = 0
        self.then = then
        self.timer: Any = None

    @property
    def current(self) -> Frame:
        return self.frames[self.index]


class BoardApp:
    def __init__(self, *, schedule: Schedule, settings: Settings | None = None, journal: Any = None,
                 kiosk: bool = False, seed: int | str | None = None, dice: Any = None,
                 problems: Sequence[str] = ()) -> None:
        from firmware.ui.menus import MainMenu

        self.schedule = schedule
        self.journal = journal
        reset: list[str] = []
        self.settings = settings or Settings.load(journal, reset)
        self.kiosk = kiosk
        self.seed = seed  # reproducible dice and bots for new games (demo, tests), else None
        self.dice = dice  # a dice source every game rolls with instead (scripted scenarios), or None
        self.problems = list(problems)
        self.note: str | None = None  # the note on the display now (a banner over the screen)
        self._notes: list[str] = []  # notes waiting their turn
        self._note_timer: Any = None
        self._journal_notes = 0  # how many of the journal's notes were taken over
        self.session: GameSession | None = None
        self.animation: Animation | None = None
        self.cosmetic = random.Random(0)  # tumbling faces only; never decides anything
        self._bot_timer: Any = None
        self.texts: list[str] = []  # the text on the last image drawn
        self.version = 0  # bumped on every change; the loop re-renders when it moves
        self.stack: list[Screen] = [MainMenu(self)]
        self.on_game_over: Callable[[GameSession], None] | None = None
        for problem in self.problems:  # missing parts the board plays on without
            self.show_note(problem)
        if reset:  # said once: the defaults are kept in place of what could not be used
            self.report("settings reset: " + ", ".join(reset))
            self.settings.save(journal)
        self._check_journal()

    # --- the screen stack --------------------------------------------------------------------
    @property
    def screen(self) -> Screen:
        return self.stack[-1]

    @property
    def busy(self) -> bool:
        """The board moves by itself: an animation runs, or a bot is about to move."""
        session = self.session
        return self.animation is not None or (session is not None and not session.over and session.pending_bot())

    def push(self, screen: Screen) -> None:
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

    def report(self, problem: str) -> None:
        """Say on the display what went wrong and keep it in `problems` (Records lists them)."""
        self.problems.append(problem)
        self.show_note(problem)

    def _check_journal(self) -> None:
        """Storage that became read-only or full, or damage the journal set aside: tell the
        players once; play goes on."""
        problem = getattr(self.journal, "problem", None)
        if problem and problem not in self.problems:
            self.report(problem)
        notes = getattr(self.journal, "notes", [])
        for note in notes[self._journal_notes:]:
            self.report(note)
        self._journal_notes = len(notes)

    # --- notes: a banner that gets out of the way ----------------------------------------------
    def show_note(self, text: str) -> None:
        """Show `text` over the bottom of the display for NOTE_S seconds (after the notes
        before it). It never takes input or stops anything: bots, demos and the idle show go
        on, and a press both hides it and does what it always does."""
        self._notes.append(text)
        if self.note is None:
            self._next_note()

    def _next_note(self) -> None:
        self._note_timer = None
        self.note = self._notes.pop(0) if self._notes else None
        if self.note is not None:
            self._note_timer = self.schedule(NOTE_S, self._next_note)
        self.changed()

    def dismiss_note(self) -> None:
        """Hide the note on the display now (the next one, if any, takes its place)."""
        if self._note_timer is not None:
            self._note_timer.cancel()
        self._next_note()

    # --- input --------------------------------------------------------------------------------
    def button(self, event: Any) -> None:
        """A debounced button event: press / release (short or after a hold) / hold."""
        name, kind = event.name, event.kind
        if self.note is not None and kind == "press":
            self.dismiss_note()  # seen; the press still does its job below
        if self.animation is not None:
            if kind == "press":
                self.finish_animation()  # a press skips the show; it does nothing else
            return
        if kind == "hold" and name == "back":
            self.open_menu()
        elif kind == "press" and name != "back":
            self.screen.press(self, name)
        elif kind == "release" and name == "back" and not getattr(event, "held", False):
            self.screen.press(self, "back")
        else:
            return
        self.changed()

    def open_menu(self) -> None:
        """A long BACK. In a game it opens the in-game menu, or closes it (with whatever was
        opened from it) back to the game: a game is left only by finishing or abandoning it,
        never stranded behind the main menu. After the game's end it closes the game."""
        from firmware.ui.menus import GameMenu

        session = self.session
        if session is not None and not session.over:
            menu = next((i for i, s in enumerate(self.stack) if isinstance(s, GameMenu)), None)
            if menu is None:
                self.push(GameMenu(self))
            else:
                del self.stack[menu:]
                self.advance()  # as "Back to game": the bots play on
        elif session is not None:
            self.end_session()
            self.stack[0].refresh(self)
        elif len(self.stack) > 1:
            self.home()

    # --- games --------------------------------------------------------------------------------
    def start_session(self, session: GameSession) -> None:
        from firmware.ui.play import PlayScreen

        if self.dice is not None:
            session.dice = self.dice
        self.session = session
        del self.stack[1:]
        self.push(PlayScreen(self))
        self.advance()

    def end_session(self) -> None:
        self.cancel_bot()
        self.session = None
        self.home()

    def step(self, step: Any) -> None:
        """Apply a decision or roll through the session (journal first), animate, go on."""
        from firmware.ui.games import game_ui

        session = self.session
        if session is None:
            return
        try:
            session.apply(step)
        except IllegalStepError as exc:  # never offered, but a scenario or bug could try
            self.report(str(exc))
            return
        play = self.play_screen()
        if play is not None:
            play.choice = None  # the options were for the position before this step
        frames = game_ui(session.game.name).animation(self, session, session.game.events)
        self.animate(frames, self.advance)

    def roll(self) -> None:
        """The ROLL button: tumble, then reveal (electronic dice), or key in physical dice."""
        from firmware.ui.play import DiceEntryScreen, tumble_frames

        session = self.session
        if session is None or not session.awaiting_roll:
            return
        if self.settings.dice_mode == "physical" and not session.pending_bot():
            self.push(DiceEntryScreen(self))
            return
        roll = session.draw_roll()
        self.animate(tumble_frames(self, session, roll), lambda: self.step(roll))

    def advance(self) -> None:
        """After a step: the result screen, a bot's move, or the next prompt."""
        from firmware.ui.play import ResultScreen

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
            if not isinstance(self.screen, ResultScreen):
                self.push(ResultScreen(self))
            return
        if session.pending_bot():
            self.cancel_bot()
            self._bot_timer = self.schedule(self.settings.bot_delay_s, self.bot_move)

    def bot_move(self) -> None:
        from firmware.bots import choose

        self._bot_timer = None
        session = self.session
        if session is None or session.over or not session.pending_bot() or self.animation is not None:
            return
        if not self.screen.in_game:  # the in-game menu is open: the bots wait
            self._bot_timer = self.schedule(self.settings.bot_delay_s, self.bot_move)
            return
        if session.awaiting_roll:
            self.roll()
        else:
            self.step(choose(session.game, session.bot_rng()))

    def cancel_bot(self) -> None:
        if self._bot_timer is not None:
            self._bot_timer.cancel()
            self._bot_timer = None

    def play_screen(self) -> Any:
        from firmware.ui.play import PlayScreen

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
    def image(self, size: tuple[int, int]) -> Image.Image:
        canvas = Canvas(size)
        self.screen.draw(canvas)
        if self.animation is not None and self.animation.current.caption:
            caption = self.animation.current.caption
            y = canvas.height - 11
            canvas.draw.rectangle((0, y, canvas.width - 1, canvas.height - 1), fill=0)
            canvas.line((canvas.height - 10) // 10, caption, inverse=True)
        if self.note is not None:
            lines = wrap(self.note, canvas.columns)[: max(1, canvas.lines - 2)]
            for row, text in enumerate(lines, start=canvas.lines - len(lines)):
                canvas.line(row, text, inverse=True)
        self.texts = canvas.texts
        return canvas.image

    def frame(self) -> dict[str, Any]:
        """Colour (or colours, shown in turn) per LED cell; absent cells are off."""
        from firmware.ui.games import game_ui

        frame: dict[str, Any] = {}
        if self.session is not None:
            game_ui(self.session.game.name).scene(self, self.session, frame)
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
