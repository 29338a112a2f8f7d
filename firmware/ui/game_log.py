"""The whole game's log: every step of the game back to the first, in the log form of the
game's words, by round, what concerned the viewing player marked "!" and said to them; a
takeback's line where it happened ("Took back: Red placed 31 on rung 5").

The steps are replayed from the game's history (what the journal's record holds), so the log
is the same after a power cut and a resume, and on the review pages of a finished game.
`GameLogScreen` browses it: LEFT/RIGHT (and ROLL) page back and forth, one round or part of one
a page (an item is never split), it opens on the latest; OK or BACK close it.

    >>> from firmware.games.exxtra.rules import Exxtra
    >>> from firmware.games.base import Roll
    >>> game = Exxtra(["Red", "Blue", "Green"])
    >>> game.apply(Roll(("3", "1")))
    >>> [(step.at, step.round) for step in replayed(game)]
    [(1, 1)]
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING

from firmware.games import words_of
from firmware.games.base import Event, Game
from firmware.i18n import N_, _
from firmware.ui.draw import Canvas, wrap
from firmware.ui.gameview import ResultPage, game_view
from firmware.ui.screen import Screen
from firmware.ui.takeback import TakenBack

if TYPE_CHECKING:
    from firmware.table import Table
    from firmware.ui.intents import App

# Translators: a takeback as the display and the game's log say it: "Took back: Red placed 31 on rung 5".
TOOK_BACK = N_("Took back: {move}")
MARK = "! "  # before a line that concerns the viewing player (as in the round log)


@dataclass(frozen=True)
class Replayed:
    """One step of a game as replayed: the history length after it, its round (None: the game
    has none), its events, who made it (an event's "player", compared only)."""

    at: int
    round: int | None
    events: list[Event]
    mover: object


@dataclass(frozen=True)
class LogLine:
    """A line of the game's log: its round, its text, whether it concerns the viewer."""

    round: int | None
    text: str
    concerns: bool = False


def replayed(game: Game) -> list[Replayed]:
    """Every step of `game` replayed from its start, with its events and round."""
    twin = type(game).for_record(game.players, game.record_version)
    view = game_view(game.name)
    out = []
    for step in game.history:
        twin.apply(step)
        events = list(twin.events)
        out.append(
            Replayed(len(twin.history), view.round_of(twin), events, events[0].get("player") if events else None)
        )
    return out


def took_back(names: Sequence[str], game_name: str, taken: TakenBack) -> str | None:
    """A takeback's line in the active language, None when the game words nothing."""
    said = words_of(game_name).said(names, taken.events)
    return None if said is None else _(TOOK_BACK).format(move=said.log)


def log_lines(table: Table, viewer: int | None, takebacks: Sequence[TakenBack] = ()) -> list[LogLine]:
    """The whole game's log, oldest first: every step the game words (plain rolls too), a
    takeback's line after the step it went back to; a step that concerns `viewer` (a seat, or
    None) said to them and marked."""
    game = table.game
    names = table.names
    words = words_of(game.name)
    steps = replayed(game)
    lines: list[LogLine] = []
    # A takeback's line follows the step it went back to; one that went back to a point past
    # where the game now stands (a later takeback went further) at the end, in the order of play.
    pending = sorted(takebacks, key=lambda taken: min(taken.at, len(game.history)))

    def back_to(length: int) -> None:
        while pending and min(pending[0].at, len(game.history)) <= length:
            taken = pending.pop(0)
            text = took_back(names, game.name, taken)
            if text is not None:
                lines.append(LogLine(taken.round, text))

    back_to(0)
    for step in steps:
        said_to = words.said_to(names, step.events, viewer) if viewer is not None and step.mover != viewer else None
        if said_to is not None:
            lines.append(LogLine(step.round, MARK + said_to.log, True))
        else:
            said = words.said(names, step.events)
            if said is not None:
                lines.append(LogLine(step.round, said.log))
        back_to(step.at)
    return lines


def viewer_of(table: Table) -> int | None:
    """Whom the log is said to: the person asked now (a bot, or nobody: None)."""
    player = table.game.pending().player
    if player is None or table.over or table.pending_bot():
        return None
    return player


def round_title(round_: int | None) -> str:
    if round_ is None:
        # Translators: the title of the game's log for a game without rounds.
        return _("Game log")
    # Translators: the title of a page of the game's log: the round it shows.
    return _("Round {n}").format(n=round_)


class GameLogScreen(Screen):
    """The game's log as pages: a round a page (more where it does not fit), never an item
    split; it opens on the latest page. LEFT/RIGHT/ROLL page, OK or BACK close."""

    def __init__(self, table: Table, takebacks: Sequence[TakenBack] = (), viewer: int | None = None) -> None:
        self.table = table
        self.takebacks = list(takebacks)
        self.viewer = viewer
        self.page: int | None = None  # None: the latest page (until a press moves it)
        self.count = 1  # pages as drawn last

    def lines(self) -> list[LogLine]:
        return log_lines(self.table, self.viewer, self.takebacks)

    def pages(self, columns: int, rows: int) -> list[tuple[int | None, list[str]]]:
        """The pages for `rows` text lines of `columns`: a round's items wrapped, as many to a
        page as fit whole (an item longer than a page alone, clipped by its page)."""
        out: list[tuple[int | None, list[str]]] = []
        current: list[str] = []
        current_round: int | None = None
        started = False
        for line in self.lines():
            wrapped = wrap(line.text, columns) or [""]
            if started and (line.round != current_round or len(current) + len(wrapped) > rows):
                out.append((current_round, current))
                current = []
            current_round, started = line.round, True
            current.extend(wrapped)
        if started:
            out.append((current_round, current))
        return out

    def press(self, app: App, button: str) -> bool:
        if button in ("ok", "back"):
            app.pop()
            return True
        if button in ("left", "right", "roll"):
            page = self.count - 1 if self.page is None else self.page
            moved = max(0, min(self.count - 1, page + (-1 if button == "left" else 1)))
            self.page = moved
            return moved != page
        return False

    def draw(self, canvas: Canvas) -> None:
        pages = self.pages(canvas.columns, max(1, canvas.lines - 1))
        self.count = max(1, len(pages))
        if not pages:
            canvas.title(_("Game log"))
            # Translators: the game's log before the first step.
            canvas.line(1, _("Nothing yet"))
            return
        index = self.count - 1 if self.page is None else min(self.page, self.count - 1)
        round_, texts = pages[index]
        canvas.title(round_title(round_), f"{index + 1}/{self.count}")
        for row, text in enumerate(texts[: canvas.lines - 1], start=1):
            canvas.line(row, text)


def log_page(app: App, table: Table) -> list[ResultPage]:
    """The review's entry to the game's log: a page saying how to read it; OK there opens it
    (from the first page: the game as it went)."""
    if not table.game.history:
        return []

    def draw(canvas: Canvas, position: str) -> None:
        canvas.title(_("Game log"), position)
        # Translators: the review page that opens the whole game's log; OK there opens it.
        for row, text in enumerate(wrap(_("Every step of the game, round by round. OK: read"), canvas.columns), 1):
            if row < canvas.lines:
                canvas.line(row, text)

    def ok(app: App) -> bool:
        screen = GameLogScreen(table, app.help.takebacks(table))
        screen.page = 0
        app.push(screen)
        return True

    return [ResultPage("game log", draw, ok)]
