"""The lesson runner: "Learn <game>" in the game's Play menu plays the game's lesson
(`firmware.games.lesson.Lesson`, kept in its package and named by its registry entry).

The learner has seat 0 and plays with the buttons as in any game; bots play the other seats at
their level; the dice come from the lesson's script (then from its seed). After every step the
runner asks the lesson which of its notes apply now for the first time and shows each as a
page over the game (`LessonPage`): OK reads on and, on the last page, dismisses it; the bots
wait while it is shown. A long BACK opens the in-game menu, whose "Leave lesson" goes back to the
Play menu at any time. A lesson is not journaled: it is never resumed, and never counts in the
records or the high scores.

    >>> from firmware.loop import EventLoop, FakeClock
    >>> from firmware.ui.app import BoardApp
    >>> app = BoardApp(schedule=EventLoop(FakeClock()).call_later)
    >>> start_lesson(app, "exxtra")
    >>> type(app.screen).__name__, app.lesson.log[0][0]
    ('LessonPage', 'goal')
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import TYPE_CHECKING

from firmware.games.base import Step
from firmware.games.lesson import Lesson, LessonDice, Note
from firmware.games.registry import find_game
from firmware.i18n import N_, _
from firmware.table import Seat, Table
from firmware.ui.colours import DEFAULT_ORDER
from firmware.ui.draw import Canvas, font, text_pages
from firmware.ui.names import default_name
from firmware.ui.screen import Screen

if TYPE_CHECKING:
    from firmware.ui.intents import App

LESSON = "lesson"  # the table's mode (meta "mode"): what the menus and the result check


def has_lesson(game: str) -> bool:
    return find_game(game).lesson is not None


def lesson_label(game: str) -> str:
    # Translators: the Play menu's entry that starts a game's lesson, "Learn EXXTRA".
    return _("Learn {game}").format(game=find_game(game).title)


@dataclass
class LessonRun:
    """The lesson being played: which notes were shown (`log`: key and the game's step count
    when it came, in order), and the ones due but not shown yet (several can apply at once)."""

    game: str
    lesson: Lesson
    log: list[tuple[str, int]] = field(default_factory=list)
    queue: list[Note] = field(default_factory=list)
    checked: tuple[int, Step | None] | None = None  # the position whose notes were looked for last

    @property
    def shown(self) -> set[str]:
        return {key for key, _steps in self.log}

    def showing(self, app: App) -> bool:
        """A lesson page, or the result, is on the screen stack already."""
        from firmware.ui.play import ResultScreen

        return any(isinstance(screen, (LessonPage, ResultScreen)) for screen in app.stack)

    def check(self, app: App) -> bool:
        """Show the notes that apply now (once per position); True while a page is up."""
        session = app.session
        if session is None:
            return False
        history = session.game.history
        position = (len(history), history[-1] if history else None)
        if position != self.checked:
            self.checked = position
            events = session.game.events if history else []
            for note in self.lesson.due(session.game, events, self.shown | {n.key for n in self.queue}):
                self.queue.append(note)
        if isinstance(app.screen, LessonPage):
            return True
        if not self.queue:
            return False
        note = self.queue.pop(0)
        self.log.append((note.key, len(history)))
        app.push(LessonPage(note))
        return True


class LessonPage(Screen):
    """One explanation over the game: its title and short text, a display's page at a time.
    OK (or RIGHT/ROLL) turns to the next page, OK on the last dismisses it; LEFT turns back.
    The game waits under it (the bots too); a long BACK opens the in-game menu."""

    in_game = False

    def __init__(self, note: Note) -> None:
        self.note = note
        self.page = 0
        self.pages = 1  # known once drawn

    @property
    def title(self) -> str:  # type: ignore[override]  # Screen.title is a class attribute; read-only here
        return _(self.note.title)

    def text(self) -> str:
        return _(self.note.text)

    @staticmethod
    def pitch(canvas: Canvas) -> int:
        """Pixels from one text line to the next: a pixel more than the body's lines on a tall
        panel, whose large font's accents and descenders would otherwise touch."""
        return canvas.line_height + (1 if canvas.size_class == "tall" else 0)

    def layout(self, canvas: Canvas) -> list[list[str]]:
        """The text in pages of the lines between the title and the help line, by sentence."""
        room = canvas.height - font("small").line_height - canvas.line_height
        rows = max(1, room // self.pitch(canvas))
        return text_pages(self.text(), canvas.columns, rows)

    def press(self, app: App, button: str) -> bool:
        if button == "ok" and self.page + 1 >= self.pages:
            dismissed(app, self)
            return True
        if button in ("ok", "right", "roll"):
            moved = self.page + 1 < self.pages
            self.page = min(self.page + 1, self.pages - 1)
            return moved
        if button == "left":
            moved = self.page > 0
            self.page = max(0, self.page - 1)
            return moved
        return False

    def draw(self, canvas: Canvas) -> None:
        pages = self.layout(canvas)
        self.pages = len(pages)
        self.page = min(self.page, self.pages - 1)
        canvas.title(self.title, f"{self.page + 1}/{self.pages}" if self.pages > 1 else "")
        pitch = self.pitch(canvas)
        for row, text in enumerate(pages[self.page]):
            canvas.text(0, canvas.line_height + row * pitch, text, font=canvas.body.name)
        last = self.page + 1 >= self.pages
        # Translators: a lesson page's help line: OK goes on to the game (or to the next page).
        canvas.footer([(_("OK: play on") if last else _("OK: read on"), "OK")])


def dismissed(app: App, page: LessonPage) -> None:
    """The page was read: the next note due, or the game goes on (the bots' pace starts)."""
    if page in app.stack:
        app.stack.remove(page)
        app.changed()
    run = app.lesson
    if run is None or not run.check(app):
        app.advance()


def start_lesson(app: App, game: str) -> None:
    """A new lesson of `game`: the learner on seat 0 (the first colour), the lesson's bots on
    the next ones; not journaled (never resumed, never in the records)."""
    lesson = find_game(game).lesson_script()
    if not isinstance(lesson, Lesson):
        raise ValueError(f"{game} has no lesson (its SPEC names none)")
    colours = DEFAULT_ORDER[: len(lesson.bots) + 1]
    seats = [Seat(default_name(colours[0]), colours[0])] + [
        Seat(default_name(colour), colour, level) for colour, level in zip(colours[1:], lesson.bots)
    ]
    session = Table.start(game, seats, seed=f"lesson:{lesson.seed}", meta={"mode": LESSON, "dice": "scripted"})
    session.dice = LessonDice(lesson.rolls, lesson.seed)
    app.lesson = LessonRun(game, lesson)
    app.start_session(session)


def leave_lesson(app: App) -> None:
    """Leave the lesson where it stands: back to the game's Play menu."""
    app.abandon()


LEAVE = N_("Leave lesson")
