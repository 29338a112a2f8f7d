"""The play screen every game shares, physical-dice entry, the tumble and the result screen.

What is particular to a game (its options, drawing, LED scene, animations) lives in its view,
`firmware/games/<game>/screens.py`, a `firmware.ui.gameview.GameView`.
"""

from __future__ import annotations

from dataclasses import dataclass
from collections.abc import Callable, Sequence
from typing import TYPE_CHECKING, Generic, TypeVar

from firmware.dice import Face
from firmware.games import Roll
from firmware.games.base import Step
from firmware.i18n import N_, _, pgettext
from firmware.ui.animation import Frame
from firmware.ui.colours import OFF, LedFrame
from firmware.ui.draw import CHAR_WIDTH, LINE_HEIGHT, Canvas, clip
from firmware.ui.gameview import GameView, Records, ResultPage, game_view
from firmware.ui.intents import Hinted, table_in_play
from firmware.ui.names import colour_initial
from firmware.ui.pips import PIPS as PIPS  # the games' screens find the pips here too
from firmware.ui.pips import pip_cells as pip_cells
from firmware.ui.review import review_pages
from firmware.ui.screen import Choice, Screen, TextScreen
from firmware.table import Seat, Table

if TYPE_CHECKING:
    from firmware.ui.intents import App

FaceT = TypeVar("FaceT", bound=Face)  # what an entry screen's faces are: LEVEL X turns ones into numbers
HINT = "<> OK"  # a help line's short form where its words do not fit: the buttons' own names


@dataclass(frozen=True)
class Open:
    """An option that opens a sub-screen (e.g. turning LEVEL X ones) instead of being a step."""

    screen: Callable[[App], Screen]


class PlayScreen(Screen):
    in_game = True

    def __init__(self, app: App) -> None:
        self.app = app
        session = table_in_play(app)
        self.ui: GameView = game_view(session.game.name)
        self.title = session.game.title
        self.choice: Choice | None = None
        self.view: int | None = None  # whose sheet is shown, when flipping through (EXTRA!)
        self.position: tuple[int, Step | None] | None = None  # the game position the screens above belong to
        self.hinted: Hinted | None = None  # the hint for this position, if one was asked

    @property
    def session(self) -> Table:
        return table_in_play(self.app)

    def refresh(self, app: App) -> None:
        """New options for the pending human decision (only legal ones), or none; screens
        opened from an earlier position (dice entry, turning ones) close: an undo or a step
        took that position away, and what they would enter no longer fits."""
        session = self.session
        history = session.game.history
        position = (len(history), history[-1] if history else None)
        if position != self.position:
            self.position = position
            self.hinted = None
            drop_screens_above(app, self)
        pending = session.game.pending()
        self.view = None
        if pending.kind == "decision" and not session.pending_bot():
            self.choice = self.ui.choice(self.ui.options(app, session))  # a game may choose in stages
        else:
            self.choice = None

    def relabel(self, app: App) -> None:
        """The open decision's options in the language now active: the same options (the
        cursor and a staged choice's stage stay), their labels read again."""
        if self.choice is None:
            return
        options = self.ui.options(app, self.session)
        if [o.value for o in options] == [o.value for o in self.choice.options]:
            self.choice.options = options

    def press(self, app: App, button: str) -> bool:
        session = self.session
        if button == "back":  # a short BACK takes back the last decision of a person...
            # ...unless the game's view uses it (a stage back)
            if session is None or not self.ui.on_back(app, session, self):
                app.takeback()  # it takes back, or says why it cannot
            return session is not None
        if session is None or session.over or session.pending_bot():
            waits = app.bot_waits_for()
            if button == "roll" and waits == "roll":
                app.roll()  # physical dice: a person rolls the bot's dice and keys them in
            elif button == "ok" and waits == "ok":
                app.bot_go()  # the "step" pace: one bot move per OK
            elif button == "roll" and session is not None and not session.over:
                return self._game_roll(app, session)  # e.g. flip sheets while bots play
            else:
                return False
            return True
        if button == "roll":
            if not session.awaiting_roll:
                return self._game_roll(app, session)
            app.roll()
            return True
        if button in ("left", "right") and self.choice is None and session.awaiting_roll:
            return open_round_log(app, session)
        if button in ("left", "right") and self.choice is not None:
            index, view = self.choice.index, self.view
            self.choice.move(button)
            self.view = None
            return self.choice.index != index or view is not None
        if button == "ok" and self.choice is not None:
            if self.choice.pick():
                value = self.choice.current.value
                if isinstance(value, Open):
                    app.push(value.screen(app))
                else:
                    app.step(value)
            return True  # picked, or the next stage of a choice made in stages
        return False

    def _game_roll(self, app: App, session: Table) -> bool:
        """ROLL that is not a roll: the game's own use of it (its screens' `on_roll`); used when
        it changed what this screen shows or did anything through the app."""
        before = (self.view, app.version)
        self.ui.on_roll(app, session, self)
        return (self.view, app.version) != before

    def point_at(self, step: Step, text: str = "") -> bool:
        """Move the cursor to the option that plays `step` (a hint, said as `text`): the option
        holding it, else one the game's view says does the same (`same_choice`); a screen that
        option opens starts on `step` (`hinted`). False if none does."""
        if self.choice is None:
            return False
        for test in (lambda value: value == step, lambda value: self.ui.same_choice(self.session, value, step)):
            for index, option in enumerate(self.choice.options):
                if test(option.value):
                    self.choice.jump(index)
                    self.view = None
                    self.hinted = Hinted(step, text)
                    return True
        return False

    def draw(self, canvas: Canvas) -> None:
        self.ui.draw(canvas, self.app, self.session, self)

    def prompt(self) -> str:
        """The bottom line: what the board waits for."""
        session = self.session
        pending = session.game.pending()
        name = session.name(pending.player) if pending.player is not None else ""
        if pending.kind == "over":
            return _("Game over")
        if session.pending_bot():
            waits = self.app.bot_waits_for()
            if waits == "roll":
                # Translators: a bot's physical dice: a person rolls them and presses ROLL.
                return _("Roll for {name}: ROLL").format(name=name)
            return (
                _("{name} (bot): OK to play").format(name=name)
                if waits == "ok"
                else _("{name} (bot) plays...").format(name=name)
            )
        if pending.kind == "roll":
            return _("{name}: press ROLL").format(name=name)
        return ""


def open_round_log(app: App, session: Table) -> bool:
    """Push the round log (what happened since the asked player's last move, what concerns them
    first; EXTRA!: everyone's choices on the latest roll) as a text page; False when it is empty."""
    log = app.help.round_log_text(session)
    if not log:
        return False
    if game_view(session.game.name).log_by_round:
        # Translators: the title of EXTRA!'s round log: every player's choice on the latest roll.
        title = _("This roll")
    else:
        # Translators: the title of the round log: every move since the player's last one.
        title = _("Since your turn")
    app.push(TextScreen(title, log))
    return True


def drop_screens_above(app: App, play: PlayScreen) -> None:
    """Close the in-game screens stacked above `play` (they enter something for one position);
    notes and menus stay."""
    if play not in app.stack:
        return
    above = app.stack.index(play) + 1
    kept = [s for s in app.stack[above:] if not s.in_game]
    if len(kept) != len(app.stack) - above:
        app.stack[above:] = kept
        app.changed()


class FaceEntryScreen(Screen, Generic[FaceT]):
    """Set one face per entry: LEFT/RIGHT cycle the current entry's `choices`, OK goes on and,
    after the last entry, calls `finish(app, values)`; BACK returns to the previous entry (or
    cancels). Physical dice and LEVEL X's turned ones are both entered this way."""

    in_game = True

    def __init__(
        self, choices: Sequence[Sequence[FaceT]], values: list[FaceT], finish: Callable[[App, list[FaceT]], None]
    ) -> None:
        self.choices = choices
        self.values = values
        self.finish = finish
        self.index = 0

    def press(self, app: App, button: str) -> bool:
        if button in ("left", "right"):
            faces = list(self.choices[self.index])
            step = 1 if button == "right" else -1
            face = self.values[self.index]
            self.values[self.index] = faces[(faces.index(face) + step) % len(faces)]
            return self.values[self.index] != face
        if button == "ok":
            if self.index + 1 < len(self.values):
                self.index += 1
            else:
                app.pop()
                self.finish(app, list(self.values))
            return True
        if button == "back":
            if self.index:
                self.index -= 1
            else:
                app.pop()
            return True
        return False


class DiceEntryScreen(FaceEntryScreen[Face]):
    """Physical dice: the players key in the faces they rolled, die by die."""

    title = N_("Enter dice")

    def __init__(self, app: App) -> None:
        dice = table_in_play(app).game.dice()
        super().__init__(dice, [faces[0] for faces in dice], lambda a, faces: a.step(Roll(tuple(faces)), keyed=True))

    def draw(self, canvas: Canvas) -> None:
        title, number, count = _(self.title), self.index + 1, len(self.values)
        # Translators: the title's position note, "die 2/5"; short (it becomes "2/5" where the title needs room).
        note = _("die {number}/{count}").format(number=number, count=count)
        if len(title) + len(note) + 1 > canvas.columns:
            note = f"{number}/{count}"
        canvas.title(title, note)
        shown = "  ".join(f"[{f}]" if i == self.index else f" {f} " for i, f in enumerate(self.values))
        # Translators: the help line; "<>" are the LEFT/RIGHT buttons, OK the button's name.
        bottom = canvas.footer([(_("<> face  OK next"), HINT)])
        # The faces as large as the room between title and help allows (a headline number).
        canvas.fit((0, canvas.line_height + 1, canvas.width - 1, bottom - 2), shown, align="center", critical=True)

    def scene(self, app: App, frame: LedFrame) -> None:
        for key in [k for k in frame if k.startswith("dice.")]:
            del frame[key]
        pip_cells(self.values[: self.index + 1], frame)


def seat_tag(canvas: Canvas, x: int, y: int, colour: str) -> int:
    """A seat's colour initial (in the active language) as a white box with a black letter at
    text row `y` (pixels), so B, O and G never read as the digits 8, 0 and 6 next to them;
    returns the x after the box.
    """
    canvas.draw.rectangle((x, y + 1, x + CHAR_WIDTH, y + LINE_HEIGHT - 2), fill=1)
    canvas.text(x + 1, y, colour_initial(colour), fill=0)
    return x + CHAR_WIDTH + 1


def standings_page(title: str, lines: Sequence[str]) -> ResultPage:
    """The default first page: `lines` (a game's `result_lines`) under `title`; lines that do
    not fit one column go into two."""

    def draw(canvas: Canvas, position: str) -> None:
        canvas.title(title, position)
        rows = canvas.lines - 1
        if len(lines) <= rows:
            for row, text in enumerate(lines, start=1):
                canvas.line(row, text)
            return
        canvas.line(1, lines[0])
        rest, rows = lines[1:], rows - 1
        half = (canvas.columns - 1) // 2
        for index, text in enumerate(rest[: 2 * rows]):
            column, row = divmod(index, rows)
            canvas.text(column * (half + 1) * CHAR_WIDTH, 2 * canvas.line_height + row * LINE_HEIGHT, clip(text, half))

    return ResultPage("standings", draw)


@dataclass(frozen=True)
class Standing:
    """One player on the standings page: rank (1 = best), colour name, player name, score."""

    rank: int
    colour: str
    name: str
    score: str
    short: str = ""  # the score's short form ("38" for "23+15=38"), shown where the name needs the room


ROW_PITCH = LINE_HEIGHT - 1  # rows of text with no descender touching the next row's box


def page_title(canvas: Canvas, titles: str | Sequence[str], position: str) -> None:
    """The first of `titles` that fits beside `position` (a page's "2/5"); if none does, the
    first alone: a longer language gives way to the page count, never cuts the title short."""
    titles = [titles] if isinstance(titles, str) else list(titles)
    room = canvas.width // canvas.font("small").advance  # Canvas.title falls back to the small font
    fitting = next((t for t in titles if len(t) + len(position) + 1 <= room), None)
    canvas.title(fitting, position) if fitting is not None else canvas.title(titles[0])


def ranked_page(title: str | Sequence[str], headline: str, standings: Sequence[Standing]) -> ResultPage:
    """Standings as rows "1 [R] Red      21", every player on one page: under `title` and the
    `headline` while the lines fit, else the headline as the title and rows a pixel closer, else
    in columns; a tie's headline too long for its place says how many share first instead (the
    ranks say who); a name that does not fit beside its score gets the score's short form (the
    total: the breakdown is on the game's own pages); a hint line at the bottom when there is
    room."""

    tied = sum(standing.rank == 1 for standing in standings)
    # Translators: a result's headline where the winners' names do not fit: "3 tie for first".
    headlines = [headline, _("{count} tie for first").format(count=tied)] if tied > 1 else [headline]

    def draw(canvas: Canvas, position: str) -> None:
        count = len(standings)
        below = canvas.height - 2 * canvas.line_height  # under the title and the headline
        if count * LINE_HEIGHT <= below:
            page_title(canvas, title, position)
            canvas.line(1, next((h for h in headlines if canvas.fits(h)), headlines[-1]))
            top, pitch, rows = 2 * canvas.line_height, LINE_HEIGHT, count
            if (count + 1) * LINE_HEIGHT <= below:
                # Translators: the result's help line; "<>" are the LEFT/RIGHT buttons.
                canvas.footer([(_("<> pages  OK next"), HINT)])
        else:
            room = canvas.columns - len(position) - 1
            canvas.title(clip(next((h for h in headlines if len(h) <= room), headlines[-1]), room), position)
            top, pitch = canvas.line_height, ROW_PITCH
            rows = max(1, (canvas.height - top) // pitch)
        columns = -(-count // rows)
        rows = -(-count // columns)
        width = canvas.width // columns
        for index, standing in enumerate(standings):
            column, row = divmod(index, rows)
            x, y = column * width, top + row * pitch
            canvas.text(x, y, str(standing.rank))
            x = seat_tag(canvas, x + CHAR_WIDTH + 1, y, standing.colour) + 2
            gap = CHAR_WIDTH if column < columns - 1 else 0  # between the columns
            score = standing.score
            score_x = (column + 1) * width - gap - len(score) * CHAR_WIDTH
            room = (score_x - x) // CHAR_WIDTH - 1
            if room < len(standing.name) and standing.short:  # a name is never cut: the score is shortened
                score = standing.short
                score_x = (column + 1) * width - gap - len(score) * CHAR_WIDTH
                room = (score_x - x) // CHAR_WIDTH - 1
            if room > 0:
                canvas.text(x, y, clip(standing.name, room))
            canvas.text(score_x, y, score)

    return ResultPage("standings", draw)


REMATCH, MENU = "Rematch", "Menu"


def records_of(session: Table) -> Records:
    """What the journal says of finished `session` for its view: whether a one-player game set
    the board's best solo total (None of it without a journal)."""
    journal, game_id = session.journal, session.journal_id
    if journal is None or game_id is None or len(session.game.players) != 1:
        return Records()
    best = journal.solo_best(kids=session.game.players[0].kids, game=session.game.name)
    return Records(solo_record=best is not None and best.game_id == game_id)


class ResultScreen(Screen):
    """The end of a game, as pages: the standings, the game's own pages (`result_pages` of its
    view: final track, grid, sheets), the review's (`firmware.ui.review.REVIEW`: the players'
    figures, personal bests, the high-score place) and last the choice "Rematch" / "Menu". LEFT/RIGHT
    (and ROLL) flip through them and wrap; OK on a page jumps to the choice, OK on the choice
    does it ("Menu", or a long BACK, closes the game); a short BACK takes back the decision that
    ended it (when the house rule allows; the game goes on). Rematch starts the same game with
    the same seats and mode, a new game in the journal."""

    in_game = False

    def __init__(self, app: App) -> None:
        self.app = app
        session = table_in_play(app)
        view = game_view(session.game.name)
        self.title = _("{game}: result").format(game=session.game.title)
        records = records_of(session)
        self.lines = view.result_lines(session, records)
        pages = view.result_pages(session, records) or [standings_page(self.title, self.lines)]
        self.pages: list[ResultPage] = [
            *pages,
            *review_pages(app, session),
            ResultPage(REMATCH, self._draw_choice),
            ResultPage(MENU, self._draw_choice),
        ]
        self.index = 0
        self.game = session.game.name
        self.seats = [Seat(p.name, colour, p.bot, p.kids) for p, colour in zip(session.game.players, session.colours)]
        self.mode = str(session.meta.get("mode", "play"))

    @property
    def page(self) -> ResultPage:
        return self.pages[self.index]

    def press(self, app: App, button: str) -> bool:
        choices = len(self.pages) - 2  # index of "Rematch"
        ok = self.page.ok
        if button == "ok" and ok is not None:
            return ok(app)
        if button in ("left", "right", "roll"):
            step = -1 if button == "left" else 1
            index, self.index = self.index, (self.index + step) % len(self.pages)
            return self.index != index
        if button == "ok" and self.index < choices:
            self.index = choices
        elif button == "ok" and self.page.name == REMATCH:
            app.start_game(self.game, list(self.seats), self.mode, rematch=True)
        elif button == "ok":
            app.end_session()
        elif button == "back":
            app.takeback()
        return True

    def draw(self, canvas: Canvas) -> None:
        # "Rematch" and "Menu" are one page, "What next?", its cursor on one of them
        choices = len(self.pages) - 2
        self.page.draw(canvas, f"{min(self.index, choices) + 1}/{choices + 1}")

    def _draw_choice(self, canvas: Canvas, position: str) -> None:
        canvas.title(_("What next?"), position)
        # The pages' names stay English (tests and scenarios find them); their labels are translated.
        labels = {REMATCH: _("Rematch"), MENU: pgettext("result", "Menu")}
        # Translators: on a wide display beside "Rematch: " and "Menu: ".
        details = {REMATCH: _("same seats, new game"), MENU: _("back to the main menu")}
        if self.mode == "lesson":  # (firmware/ui/lesson_runner.py) Rematch plays the lesson again
            # Translators: on a wide display beside "Rematch: " and "Menu: " after a lesson.
            details = {REMATCH: _("the lesson again"), MENU: _("back to the Play menu")}
        rows = [1, 2] if canvas.lines < 5 else [2, 3]
        for row, name in zip(rows, (REMATCH, MENU)):
            selected = name == self.page.name
            text = _("{choice}: {detail}").format(choice=labels[name], detail=details[name])
            if canvas.columns < 30 or len(text) + 2 > canvas.columns:  # the detail only where it fits whole
                text = labels[name]
            canvas.line(row, ("> " if selected else "  ") + text, inverse=selected)
        if canvas.lines >= 5:
            hint = _("<> choose  OK do it")
            canvas.line(canvas.lines - 1, hint if canvas.fits(hint) else HINT)


def tumble_frames(app: App, session: Table, roll: Roll) -> list[Frame]:
    """The dice tumbling on the pip LEDs before the real faces show (cosmetic randomness)."""
    dice = session.game.dice()
    frames = []
    for _frame in range(6):
        leds: LedFrame = {f"dice.{d}.{p}": OFF for d in range(5) for p in range(7)}
        pip_cells([app.cosmetic.choice(list(faces)) for faces in dice], leds)
        frames.append(Frame(0.08, leds, _("Rolling...")))
    return frames
