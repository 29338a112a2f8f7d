"""Key moments: at the end of a game, each person's three costliest decisions, judged by the
strong bot's evaluator (`firmware.coach`): the position (the dice, lit on the board's dice too),
what was played, what the strong bot plays there and what the difference cost, in the game's unit.

The result screen offers them as a page of its review ("Key moments", `key_moment_pages` in
`firmware.ui.review.REVIEW`); OK there opens them, one moment a page.
The decisions are rated one at a time where the bots think (`firmware.thinker`, a "rate"
thought), never on the loop thread: the next is asked only when the last is in, so a rematch's
bots wait for one rating at most, and the analysis stops when the table moves on.

`describe_decision` and `shown_dice` word a decision and a position for `xtraboard analyse` too:
a decision in the log form of the game's words (`firmware.games.words`), never its record.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from typing import TYPE_CHECKING

from firmware import i18n
from firmware.agents import CoachAnswer
from firmware.coach import Rating, key_moments, people, position_at
from firmware.dice import Face
from firmware.games import Game, find_game, words_of
from firmware.games.words import numbered
from firmware.i18n import _, fixed
from firmware.thinker import Reply, Thought
from firmware.ui.colours import LedFrame
from firmware.ui.draw import Canvas, text_pages, wrap
from firmware.ui.gameview import ResultPage
from firmware.ui.pips import pip_cells
from firmware.ui.screen import Screen

if TYPE_CHECKING:
    from firmware.games.base import Step
    from firmware.table import Table
    from firmware.ui.intents import App

KEY_MOMENTS = "Key moments"  # the result page's name (tests and scenarios find it; its title is translated)


def shown_dice(game: Game) -> tuple[Face, ...]:
    """The dice the deciding player sees (`Game.shown_faces`)."""
    return game.shown_faces()


def describe_decision(game: Game, step: Step) -> str:
    """What `step` does in `game`'s position, in one line of the active language: the log form
    of the game's words (a game that words nothing: which of the legal decisions it is)."""
    said = words_of(game.name).decision(game, step)
    return said.log if said is not None else numbered(game, step)


def describe_both(game: Game, step: Step, other: Step) -> tuple[str, str]:
    """`describe_decision` of two steps, told apart by the dice they leave where the board
    words them alike (LEVEL X's turned ones); alike in words and dice, they do the same."""
    first, second = describe_decision(game, step), describe_decision(game, other)
    if first != second or step == other:
        return first, second
    after = []
    for move in (step, other):
        twin = game.copy()
        twin.apply(move)
        after.append(" ".join(str(face) for face in shown_dice(twin)))
    if after[0] != after[1]:
        # Translators: two moves the board words alike, told apart by the dice they leave: "Red turns one 1, dice 4 6 1 4".
        told = _("{move}, dice {dice}")
        return told.format(move=first, dice=after[0]), told.format(move=second, dice=after[1])
    return first, second


def unit_of(game: Game) -> str:
    """The game's unit in the active language ("pts", "spaces")."""
    return _(find_game(game.name).unit)


def moment_text(game: Game, past: Game, rating: Rating) -> str:
    """One key moment as lines of text: the position, what was played, what the strong bot
    plays there, and what the difference cost (`Rating.strong_loss`)."""
    unit = unit_of(game)
    dice = " ".join(str(face) for face in shown_dice(past))
    name = game.players[rating.player].name
    # Translators: Key moments: a person's decision, counted from 1, and the dice they decided on.
    lines = [_("{name}, decision {n}: dice {dice}").format(name=name, n=rating.turn + 1, dice=dice)]
    played, strong = describe_both(past, rating.played, rating.strong)
    # Translators: Key moments: what the person played (a move as the board words it).
    lines.append(_("played: {move}").format(move=played))
    # Translators: Key moments: what the strong bot plays in that position (a move as the board words it).
    lines.append(_("the strong bot plays: {move}").format(move=strong))
    # Translators: Key moments: how much the decision cost against the strong bot's move, and the expected final outcomes of both, in the game's unit ("pts", "spaces").
    lines.append(
        _("cost {loss} {unit} (exp. {value} vs {best})").format(
            loss=fixed(rating.strong_loss), unit=unit, value=fixed(rating.value), best=fixed(rating.strong_value)
        )
    )
    return "\n".join(lines)


class KeyMoments:
    """The analysis of a finished table's game for its Key moments: rated decision by decision
    off the loop thread, as long as the table stays where it was (a takeback or a new game stops it)."""

    def __init__(self, app: App, session: Table) -> None:
        self.app = app
        self.session = session
        self.token = session.token
        game = session.game
        self.people = people(game)
        self.todo = [i for i in range(len(game.history)) if game.actor(i) in self.people]
        self.ratings: list[Rating] = []
        self.error: str | None = None
        self._past = type(game).for_record(game.players, game.record_version)
        self._waiting = self._asking = self._again = False

    @classmethod
    def start_for(cls, app: App, session: Table) -> KeyMoments | None:
        """Start the analysis of `session`'s finished game (kept as `app.coach`); None when there
        is nothing to analyse (no person played, or the game has no evaluator)."""
        game = session.game
        if find_game(game.name).evaluator is None or not people(game) or not session.over:
            return None
        moments = cls(app, session)
        app.coach = moments
        moments._ask()
        return moments

    @property
    def done(self) -> bool:
        return self.error is not None or len(self.ratings) == len(self.todo)

    @property
    def busy(self) -> bool:
        """Still rating, for the table it was asked for."""
        return not self.done and self._current()

    def _current(self) -> bool:
        return self.app.session is self.session and self.session.token == self.token

    def _ask(self) -> None:
        """Ask for the next rating (one at a time; an inline answer comes back in here: looped)."""
        if self._asking:
            self._again = True
            return
        self._asking = True
        try:
            while True:
                self._again = False
                if self.done or self._waiting or not self._current():
                    return
                index = self.todo[len(self.ratings)]
                history = self.session.game.history
                while len(self._past.history) < index:
                    self._past.apply(history[len(self._past.history)])
                self._waiting = True
                self._think(index)
                if not self._again:
                    return
        finally:
            self._asking = False

    def _think(self, index: int) -> None:
        """Ask where the bots think for the rating of history step `index` (the position is `_past`)."""
        post, token = self.app.agents.post, self.token

        def answer(reply: Reply) -> None:
            post(CoachAnswer(token, error=reply.error, note=reply.note, deliver=self._deliver, rating=reply.step))

        step = self.session.game.history[index]
        thought = Thought("rate", None, self._past.copy(), random.Random(index), i18n.language(), step=step)
        self.app.agents.runner.think(thought, answer)

    def _deliver(self, answer: CoachAnswer) -> None:
        """A rating is in (on the loop thread): keep it, ask the next."""
        self._waiting = False
        if not self._current():
            return
        if answer.error is not None:
            self.error = answer.error
        elif isinstance(answer.rating, Rating):
            self.ratings.append(answer.rating)
        else:
            self.error = f"not a rating: {answer.rating!r:.40}"
        self.app.changed()
        self._ask()

    # --- what the board shows -----------------------------------------------------------------
    def moments(self) -> list[Moment]:
        """Each person's key moments (costliest first) as (text, dice); a person without a
        costly decision gets one text saying so (no dice)."""
        game = self.session.game
        chosen = key_moments(self.ratings, against_strong=True)
        out: list[Moment] = []
        for seat in self.people:
            ratings = chosen.get(seat, [])
            if not ratings:
                name = game.players[seat].name
                # Translators: Key moments: the person made no decision that cost anything worth telling.
                out.append((_("{name}: no costly decision. Well played!").format(name=name), ()))
            for rating in ratings:
                past = position_at(game, rating.index)
                out.append((moment_text(game, past, rating), shown_dice(past)))
        return out

    def page(self) -> ResultPage:
        """The result screen's page: what Key moments are, how far the analysis is; OK opens them."""

        def draw(canvas: Canvas, position: str) -> None:
            canvas.title(_("Key moments"), position)
            if self.error is not None:
                # Translators: Key moments: the analysis failed; {error} says why (English, technical).
                text = _("no analysis: {error}").format(error=self.error)
                footer = ""
            elif not self.done:
                # Translators: Key moments: the decisions are being judged; {done} of {total} so far.
                text = _("The strong bot judges every decision: {done}/{total}").format(
                    done=len(self.ratings), total=len(self.todo)
                )
                footer = ""
            else:
                # Translators: Key moments: what the page offers.
                text = _("Each person's three costliest decisions, and what the strong bot plays.")
                # Translators: the Key moments page's help line: OK opens them.
                footer = _("OK show")
            room = canvas.lines - 1 - (1 if footer else 0)
            for row, line in enumerate(wrap(text, canvas.columns)[:room], start=1):
                canvas.line(row, line)
            if footer:
                canvas.footer([footer])

        return ResultPage(KEY_MOMENTS, draw, ok=self.open)

    def open(self, app: App) -> bool:
        """OK on the page: the moments, once the analysis is done."""
        if not self.done or self.error is not None:
            return False
        app.push(MomentsScreen(self.moments()))
        return True


def key_moment_pages(app: App, table: Table) -> list[ResultPage]:
    """The review's "Key moments" page (`firmware.ui.review.REVIEW`), the analysis started;
    none when there is nothing to analyse."""
    moments = KeyMoments.start_for(app, table)
    return [] if moments is None else [moments.page()]


Moment = tuple[str, tuple[Face, ...]]  # a key moment's text, and the dice it was decided on


class MomentsScreen(Screen):
    """The key moments, one a page (a long one over several): LEFT/RIGHT (and ROLL) flip, OK or
    BACK close. The moment's dice light on the board's dice."""

    def __init__(self, moments: Sequence[Moment]) -> None:
        self.moments = list(moments)
        self.title = _("Key moments")
        self.page = 0
        self.count = 1  # pages, as laid out when last drawn
        self.shown = 0  # the moment on the page drawn last

    def pages(self, columns: int, lines: int) -> list[tuple[int, list[str]]]:
        """(moment, lines) per page of `lines` lines of `columns` characters: each moment starts
        a page, and a long one goes on over the next by its items (`text_pages`)."""
        out: list[tuple[int, list[str]]] = []
        for number, (text, _dice) in enumerate(self.moments):
            out += [(number, page) for page in text_pages(text, columns, lines)]
        return out or [(0, [])]

    def press(self, app: App, button: str) -> bool:
        if button in ("ok", "back"):
            app.pop()
            return True
        if button in ("left", "right", "roll"):
            index, self.page = self.page, (self.page + (-1 if button == "left" else 1)) % self.count
            return self.page != index
        return False

    def draw(self, canvas: Canvas) -> None:
        pages = self.pages(canvas.columns, canvas.lines - 1)
        self.count = len(pages)
        self.page = min(self.page, self.count - 1)
        number, lines = pages[self.page]
        canvas.title(self.title, f"{self.page + 1}/{self.count}")
        for row, line in enumerate(lines, start=1):
            canvas.line(row, line)
        self.shown = number

    def scene(self, app: App, frame: LedFrame) -> None:
        dice = self.moments[self.shown][1] if self.moments else ()
        if dice:
            for key in [k for k in frame if k.startswith("dice.")]:
                del frame[key]
            pip_cells(dice, frame)
