"""What a screen may see of the board app, and the intents it may send it.

Screens (firmware/ui/screen.py, menus.py, play.py, games/*) only turn button presses into these
intents; the app (firmware/ui/app.py, which implements `App`) hands game moves to the table.
Nothing here imports a screen or the app, so no module of firmware/ui imports one that imports
it back.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, Protocol

from firmware.table import Seat, Table
from firmware.ui.animation import Animation
from firmware.ui.draw import Canvas
from firmware.ui.choice import Choice
from firmware.ui.colours import LedFrame
from firmware.ui.settings import OperatorSettings, Settings

if TYPE_CHECKING:
    from firmware.agents import Agents
    from firmware.games.base import Step
    from firmware.hardware.sound import Sound
    from firmware.journal.protocol import BoardJournal
    from firmware.ui.takeback import TakenBack
    from firmware.ui.table_memory import TableMemory


class ScreenLike(Protocol):
    """A screen as the app sees it (firmware.ui.screen.Screen and its subclasses)."""

    in_game: bool

    @property
    def title(self) -> str: ...  # read-only: a class attribute, or a property of the screen's state

    def press(self, app: App, button: str) -> bool: ...

    def draw(self, canvas: Canvas) -> None: ...

    def scene(self, app: App, frame: LedFrame) -> None: ...

    @property
    def choice(self) -> Choice | None: ...  # the options the cursor is on, if the screen offers some

    def refresh(self, app: App) -> None: ...

    def relabel(self, app: App) -> None: ...


@dataclass(frozen=True)
class Hinted:
    """The hint given for the play screen's position: its step and what the board said of it."""

    step: Step
    text: str


class PlaySurface(ScreenLike, Protocol):
    """What a view sees of the play screen it draws on (firmware.ui.play.PlayScreen)."""

    choice: Choice | None  # the pending person's decision, None while a bot or a roll is due
    view: int | None  # whose sheet/scores are shown when flipping through; None: the usual
    hinted: Hinted | None  # the hint asked for this position: a screen its option opens starts there

    def prompt(self) -> str: ...


class Coach(Protocol):
    """The analysis of a finished game (firmware.ui.moments.KeyMoments): the app waits while it runs."""

    @property
    def busy(self) -> bool: ...


class LessonRunning(Protocol):
    """The lesson being played (firmware.ui.lesson_runner.LessonRun), as the app asks it."""

    @property
    def game(self) -> str: ...

    def showing(self, app: App) -> bool: ...

    def check(self, app: App) -> bool: ...


class RoundLog(Protocol):
    """The help layer's round log (firmware.ui.help.Help): the moves since the asked player's last,
    and the takebacks of the game (for its whole log)."""

    def round_log(self, session: Table | None) -> list[tuple[str, bool]]: ...

    def round_log_text(self, session: Table | None) -> str: ...

    def takebacks(self, session: Table | None) -> list[TakenBack]: ...


class App(Protocol):
    """The board app as screens see it: state to draw, and the intents they may send."""

    # --- read access (and `settings`, which the settings menu replaces) ------------------------
    session: Table | None  # the table being played, if any
    settings: Settings
    operator: OperatorSettings  # the café's settings (firmware/ui/operator_menu.py replaces it)
    kiosk: bool  # guests' settings are locked
    tables: TableMemory  # the names entered and the last table (firmware/ui/table_memory.py)
    default_language: str  # the board description's language (what "board default" means)
    language: str  # the language the board speaks now (its frames are drawn in it)
    journal: BoardJournal | None  # the board's records; None on a board that keeps none
    problems: list[str]  # every note shown since the board started
    sound: Sound | None  # the board's voice (firmware.ui.cues plays on it), None without a buzzer
    fleet_status: Callable[[], Mapping[str, object]] | None  # the fleet's counters, for the audits
    seed: int | str | None
    animation: Animation | None
    version: int  # moves on every change the app makes (a screen's press used it if it moved)
    cosmetic: random.Random  # tumbling faces only; never decides anything
    agents: Agents  # `engines` names the board's external engines
    coach: Coach | None  # the Key moments of the finished game, or None
    lesson: LessonRunning | None  # the lesson being played, or None

    @property
    def help(self) -> RoundLog: ...

    stack: list[ScreenLike]  # bottom (the main menu) first; in-game screens may close those above them

    @property
    def screen(self) -> ScreenLike: ...

    def play_screen(self) -> PlaySurface | None: ...

    def colour_of(self, player: int) -> tuple[int, int, int]: ...

    # --- intents: screens -------------------------------------------------------------------
    def push(self, screen: ScreenLike) -> None: ...

    def pop(self) -> None: ...

    def home(self) -> None: ...

    def changed(self) -> None: ...

    def report(self, problem: str) -> None: ...

    def show_note(self, text: str) -> None: ...

    # --- intents: the game ------------------------------------------------------------------
    def start_game(self, game: str, seats: list[Seat], mode: str, rematch: bool = False) -> None: ...

    def resume(self) -> None: ...

    def discard_saved(self) -> None: ...

    def start_session(self, session: Table) -> None: ...

    def set_word(self, word: str | None) -> None: ...

    def end_session(self) -> None: ...

    def roll(self) -> None: ...

    def step(self, step: Step, keyed: bool = False) -> None: ...

    def undo(self) -> bool: ...

    def takeback(self) -> None: ...

    def redo(self) -> bool: ...

    def bot_waits_for(self) -> str | None: ...

    def bot_go(self) -> None: ...

    def choices(self, name: str) -> tuple[Any, ...]: ...  # Any: as settings.CHOICES

    def abandon(self) -> None: ...

    def advance(self) -> None: ...


def table_in_play(app: App) -> Table:
    """The table being played: the screens that ask for it are open only while there is one."""
    if app.session is None:
        raise RuntimeError("no table is being played")
    return app.session
