"""Feedback and help on the display: what the last move did, "not now" for a press that cannot
act, a one-line legend of the buttons (a long ROLL toggles it), the "hold BACK: menu" tip until
the in-game menu was first opened.

Where: the explanation covers the top line of the play screen from the move until the next
move, or until a press (the person deciding gets the whole screen back); the legend covers the
bottom line; at a person's roll prompt the tip takes that line until it was once followed; the
cue ("not now") sits at the bottom right for CUE_S. A resumed game gets its explanation and
round log back (`rebuild`, from the record's steps); a takeback's line is kept for the game's log
(`firmware.ui.game_log`).

The app (firmware/ui/app.py) owns one `Help` and calls it from `button()`, `step()` and
`image()`; everything here is state of the loop thread, like the app's.

    >>> from firmware.ui.draw import Canvas
    >>> help = Help(journal=None)
    >>> help.legend_for(None)
    ''
"""

from __future__ import annotations

import json
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING

from firmware.games import words_of
from firmware.games.base import Event, Events, Game, Step
from firmware.games.words import Said
from firmware.i18n import N_, _
from firmware.ui.draw import Box, Canvas, abbreviate, clip, wrap
from firmware.ui.game_log import replayed, took_back
from firmware.ui.takeback import TakenBack
from firmware.ui.gameview import game_view

if TYPE_CHECKING:
    from firmware.journal.protocol import SettingsStore
    from firmware.pace import Schedule, Timer
    from firmware.table import Table
    from firmware.ui.intents import App, ScreenLike

CUE_S = 1.0  # "not now" shows this long: enough to see, gone before the next try
# Translators: a press that cannot act now; shown for a second at the bottom right
NOT_NOW = N_("not now")
# Translators: at the roll prompt until the in-game menu was used once; 21 columns
TIP = N_("ROLL  hold BACK: menu")  # at the roll prompt: what to press now, and where the menu is
TIP_KEY = "tip_menu_seen"  # in the journal's settings: the tip was followed once, never shown again


class Help:
    """The help layer's state: the explanation, the cue, the legend, the tip."""

    def __init__(self, journal: SettingsStore | None) -> None:
        self.journal = journal
        self._explained: tuple[str, list[str], list[Event]] | None = None  # the move to explain
        self._explained_at = 0  # the history length the explanation belongs to
        self.hidden = False  # a press hid the explanation (until the next move)
        self._mover: object = None  # who made the explained move (an event's "player", compared only)
        # The round log: every explained step of this game as (history length after it, game,
        # its round, events, who made it); a takeback drops what it took back.
        self._log: list[tuple[int, str, int | None, list[Event], object]] = []
        self._takebacks: list[TakenBack] = []  # this game's takebacks, for the game's log
        self.cue: str | None = None
        self._cue_screen: object = None  # the screen that refused (compared only)
        self._cue_timer: Timer | None = None
        self.legend = False  # the legend line is shown (a long ROLL toggles it)
        seen = journal.get_setting(TIP_KEY, False) if journal is not None else False
        self.tip_seen = seen is True

    # --- gestures -------------------------------------------------------------------------
    def menu_used(self) -> None:
        """The in-game menu was opened with a long BACK: the tip has done its job, for good."""
        if not self.tip_seen:
            self.tip_seen = True
            if self.journal is not None:
                self.journal.set_setting(TIP_KEY, True)

    def toggle_legend(self) -> None:
        self.legend = not self.legend

    # --- the "not now" cue -------------------------------------------------------------------
    def not_now(self, schedule: Schedule, changed: Callable[[], None], screen: object = None) -> None:
        """Show "not now" for CUE_S (a repeated refusal keeps it up; it never queues) on
        `screen`, the one that refused: another screen taking its place ends it."""
        if self._cue_timer is not None:
            self._cue_timer.cancel()
        self.cue = _(NOT_NOW)
        self._cue_screen = screen

        def gone() -> None:
            self._cue_timer = None
            self.cue = None
            changed()

        self._cue_timer = schedule(CUE_S, gone)

    # --- explanations ------------------------------------------------------------------------
    def stepped(self, session: Table) -> None:
        """After a step: word its events; a step the game does not show (a plain roll) keeps
        the last move's line (it stays until the next decision)."""
        game = session.game
        names, events = session.names, list(game.events)
        said = words_of(game.name).said(names, events)
        if said is not None and said.shown:
            self._explained = (game.name, names, events)
            self._explained_at = len(game.history)
            self._mover = game.events[0].get("player")
            self.hidden = False
            self._log = [entry for entry in self._log if entry[0] < len(game.history)]
            round_ = game_view(game.name).round_of(game)
            self._log.append((len(game.history), game.name, round_, events, self._mover))

    def rebuild(self, session: Table) -> None:
        """The round log and the explanation line of a game resumed where it stood (after a
        power cut) or whose taken-back steps were played again (redo): its steps replayed from
        the record, as `stepped` kept them while it was played (a press before does not hide
        the line again)."""
        game = session.game
        words = words_of(game.name)
        self._log = []
        self._takebacks = kept_takebacks(session)
        for step in replayed(game):
            said = words.said(session.names, step.events)
            if said is not None and said.shown:
                self._explained = (game.name, session.names, step.events)
                self._explained_at, self._mover = step.at, step.mover
                self.hidden = False  # (the press that resumed came before the line was back)
                self._log.append((step.at, game.name, step.round, step.events, step.mover))

    @staticmethod
    def taken_back(game: Game, step: Step) -> dict[str, object]:
        """What the game's log keeps of `step`, a person's decision just taken back from `game`
        (as it now stands), as JSON: the table journals it with the shorter game (`Table.undo`'s
        note), so a resumed game's log has it too."""
        twin = game.copy()
        twin.apply(step)
        return {
            "at": len(game.history),
            "round": game_view(twin.name).round_of(twin),
            "events": json.loads(json.dumps(list(twin.events))),  # as the journal gives it back
        }

    def took_back(self, session: Table) -> str | None:
        """The takeback just made (the last of the table's, `Table.undo` with `taken_back`): kept
        for the game's log; its line, "Took back: Red placed 31 on rung 5" (None when the game
        words nothing)."""
        self._takebacks = kept_takebacks(session)
        if not self._takebacks:
            return None
        return took_back(session.names, session.game.name, self._takebacks[-1])

    def takebacks(self, session: Table | None) -> list[TakenBack]:
        """This game's takebacks, oldest first (also after a power cut: the journal keeps them
        with the game's meta)."""
        return list(self._takebacks) if session is not None else []

    def round_log(self, session: Table | None) -> list[tuple[str, bool]]:
        """The round log, a line each (the log form of the game's words, concerns): what
        concerns the player asked now first, said to them ("Blue 76 → rung 4: kicked your 50"),
        then every other move since their own last one, oldest first (EXTRA!: everyone's
        choices on the latest roll)."""
        return [(said.log, concerns) for said, concerns in self._round_said(session)]

    def _round_said(self, session: Table | None) -> list[tuple[Said, bool]]:
        """The round log's moves in words (`round_log`)."""
        if session is None:
            return []
        game = session.game
        length = len(game.history)
        self._log = [entry for entry in self._log if entry[0] <= length]
        player = game.pending().player
        view = game_view(game.name)
        if view.log_by_round:
            latest = self._log[-1][2] if self._log else None
            entries = [entry for entry in self._log if entry[2] == latest]
        else:
            start = max((i + 1 for i, entry in enumerate(self._log) if entry[4] == player), default=0)
            entries = self._log[start:]
        names = session.names
        words = words_of(game.name)
        yours: list[tuple[Said, bool]] = []
        others: list[tuple[Said, bool]] = []
        for _at, _name, _round, events, mover in entries:
            said = words.said_to(names, events, player) if player is not None and mover != player else None
            if said is not None:
                yours.append((said, True))
                continue
            said = words.said(names, events)
            if said is not None and said.shown:
                others.append((said, False))
        return yours + others

    def round_log_text(self, session: Table | None) -> str:
        """The round log as a page's text: a line per move, "!" before one that concerns you."""
        return "\n".join(("! " if concerns else "") + line for line, concerns in self.round_log(session))

    @property
    def explanation(self) -> str | None:
        """What the last move did, in the active language (None before the first move)."""
        return self._short(*self._explained) if self._explained is not None else None

    @staticmethod
    def _short(game: str, names: Sequence[str], events: Events) -> str | None:
        said = words_of(game).said(names, events)
        return said.short if said is not None else None

    def shown_explanation(self, session: Table | None) -> str | None:
        """The explanation if it still belongs to this game's position (an undo took it back
        otherwise) and is news to whoever acts now (a person who made the move and goes on —
        turned ones, rolled a double — knows it), else None. Taken from the round log: what
        concerns the person asked comes first, said to them."""
        if session is None or self._explained is None:
            return None
        if len(session.game.history) < self._explained_at:
            self._explained = None
        if self.hidden or (session.game.pending().player == self._mover and not session.pending_bot()):
            return None
        if not session.pending_bot():  # a move that concerns the person asked comes first
            mine = [said.short for said, concerns in self._round_said(session) if concerns]
            if mine:
                return "! " + mine[0]
        if self._explained is None:
            return None
        game, _names, events = self._explained
        return self._short(game, session.names, events)

    def pressed(self) -> bool:
        """A press: the explanation was read; the screen is the player's again. True if that
        hid it."""
        hid = not self.hidden and self._explained is not None
        self.hidden = True
        return hid

    def forget(self) -> None:
        """A game ended or started: nothing to explain yet."""
        self._explained = None
        self._explained_at = 0
        self._log = []
        self._takebacks = []

    # --- drawing -----------------------------------------------------------------------------
    @staticmethod
    def legend_for(screen: ScreenLike | None, app: App | None = None) -> str:
        from firmware.ui.legend import legend

        return legend(screen, app) if screen is not None else ""

    def draw(self, canvas: Canvas, app: App) -> None:
        """Over the screen: the explanation (play screen, top line), the tip (in a game, until
        used), the legend (bottom line) and the cue (bottom right)."""
        screen = app.screen
        in_play = app.session is not None and screen is app.play_screen()
        explanation = self.shown_explanation(app.session) if in_play else None
        if explanation is not None and app.animation is None:
            banner(canvas, explanation)
        session = app.session
        prompt = (
            in_play
            and session is not None
            and app.animation is None
            and session.awaiting_roll
            and not session.over
            and not session.pending_bot()
        )
        tip = prompt and not self.tip_seen and not self.legend
        bar = self.legend_for(screen, app) if self.legend else _(TIP) if prompt and not self.tip_seen else None
        row = _lowest_free(canvas)
        if tip and bar is not None and not _sheet_from_the_top(canvas):
            # The tip is not asked for: it takes a band the screen leaves empty, never a line
            # it uses (EXXTRA's track, LEVEL X's tiles), and waits for a screen with one.
            _tip(canvas, bar)
            bar = None
        if bar is not None and in_play and _sheet_from_the_top(canvas):
            # A sheet from edge to edge (EXTRA!): its rows and total stay in view, the bar goes
            # into its header, right of the name and status, in the 3×5 font. The explanation
            # has the header first: the tip waits for it to go (the legend, asked for by a long
            # ROLL, comes after a press, which hid it).
            if not self.legend and explanation is not None and app.animation is None:
                bar = None
            else:
                if canvas.spare is not None:
                    _spare_tiny(canvas, bar, one_line=True)
                else:
                    _header_tiny(canvas, bar, _asks(canvas), one_line=True)
                bar = None
        if bar is not None:
            bottom_bar(canvas, bar, 0, row)
        if self.cue is not None and self._cue_screen not in (None, screen):
            self.cue = None  # the refusal was another screen's: stale here
        if self.cue is not None:
            text = f" {self.cue} "
            bottom_bar(canvas, text, canvas.width - _width(canvas, text), row)


@dataclass(frozen=True)
class Asked:
    """A "who is asked" text as drawn: what its lit pixels cover, and its font."""

    box: Box
    font: str


def kept_takebacks(session: Table) -> list[TakenBack]:
    """The table's takebacks as its meta keeps them (`Help.taken_back`), oldest first; an entry
    a damaged meta garbled is left out."""
    kept = session.meta.get("takebacks")
    out = []
    for entry in kept if isinstance(kept, list) else []:
        if not isinstance(entry, dict):
            continue
        at, round_, events = entry.get("at"), entry.get("round"), entry.get("events")
        if isinstance(at, int) and (round_ is None or isinstance(round_, int)) and isinstance(events, list):
            out.append(TakenBack(at, round_, [e for e in events if isinstance(e, dict)]))
    return out


def _asks(canvas: Canvas) -> list[Asked]:
    return [Asked(text.box, text.font) for text in canvas.asks() if text.box is not None]


def _lowest_free(canvas: Canvas) -> int | None:
    """The lowest text line no "who is asked" text touches, or None when that is the last line
    (the bars' usual place)."""
    rows = canvas.free_rows()
    if not rows or rows[-1] == canvas.lines - 1:
        return None
    return rows[-1]


def _tip(canvas: Canvas, text: str) -> None:
    """`text` in a white bar on the lowest text line where nothing is drawn, else at the right
    end of the lowest line that leaves room for it (a wide panel), else on the lowest band
    where nothing is drawn, a pixel clear of what is, in the small font; nowhere if none is free. Never in the 3×5 font: 5 px high it cannot be read at a small panel's true
    size (0.9 mm on a 0.96″ one), so LEVEL X on 128×64 and EXXTRA on 128×128 show no tip (the
    legend, a long ROLL, and the lessons say where the menu is)."""
    pitch = _line_height(canvas)
    for row in reversed(range(1, canvas.lines)):
        if (
            len(text) <= canvas.columns
            and canvas.image.crop((0, row * pitch, canvas.width, (row + 1) * pitch)).getbbox() is None
        ):
            bottom_bar(canvas, text, 0, row)
            return
    width = canvas.measure(text) + 2
    for row in reversed(range(1, canvas.lines)):  # the right end of a line, on a wide panel
        x = canvas.width - width
        if x > 0 and canvas.image.crop((x - 2, row * pitch, canvas.width, (row + 1) * pitch)).getbbox() is None:
            _cover(canvas, (x, row * pitch, canvas.width - 1, (row + 1) * pitch - 1))
            canvas.text(x + 1, row * pitch + 1, text, fill=0, font=canvas.body.name)
            return
    small = canvas.font("small").line_height + 1
    if canvas.measure(text, "small") < canvas.width and (top := _lowest_blank(canvas, small)) is not None:
        _cover(canvas, (0, top, canvas.width - 1, top + small - 1))
        canvas.text(1, top + 1, text, fill=0)


def _lowest_blank(canvas: Canvas, pitch: int) -> int | None:
    """The top of the lowest band `pitch` high where nothing is drawn, a pixel clear above and
    below (None if there is none)."""
    for top in range(canvas.height - pitch - 1, 0, -1):
        if canvas.image.crop((0, top - 1, canvas.width, top + pitch + 1)).getbbox() is None:
            return top
    return None


def banner(canvas: Canvas, text: str) -> None:
    """`text` in a white bar over the title line: in the display's font if it fits, else in the
    3×5 font (half as many characters again), else word-wrapped onto the title line and the
    line under it in the display's font. A screen without a title line (EXTRA!'s whole sheet
    from its top edge) gets only the 3×5 bar, 7 px high, over its header (two such lines, 13 px,
    for a text too long for one). Where the title says who is asked and what, the bar goes on
    the first lines below it instead (a sheet's header: the 3×5 bar just under it): the player
    to act is never hidden."""
    pitch = _line_height(canvas)
    asks = _asks(canvas)
    underline = canvas.image.crop((0, pitch - 1, canvas.width, pitch)).getextrema()[0] != 0
    if any(box.box[1] < pitch for box in asks):
        _banner_below(canvas, text, asks)
        return
    if underline and len(text) <= canvas.columns:
        canvas.line(0, text, inverse=True)
        return
    fits = (canvas.width - 2) // 4 + 1
    lines = wrap(text, canvas.columns)
    if len(text) > fits and underline and len(lines) <= 2:
        for row, line in enumerate(lines):
            canvas.line(row, line, inverse=True)
        _clean_below(canvas, len(lines) * pitch, pitch)
        return
    small = canvas.font("small")
    if underline and small.line_height <= pitch:
        # The 6×11 font on the title line and the one under it, where the display's is larger
        # (a 128×128 panel's 16 columns): far easier to read at arm's length than the 3×5 one.
        columns = canvas.width // small.advance
        lines = wrap(text, columns)
        if len(lines) <= 2:
            _cover(canvas, (0, 0, canvas.width - 1, len(lines) * pitch - 1))
            for row, line in enumerate(lines):
                canvas.text(1, row * pitch + (pitch - small.line_height) // 2, line, fill=0, font="small")
            _clean_below(canvas, len(lines) * pitch, pitch)
            return
    tiny = _never_dropped([text] if len(text) <= fits else wrap(text, fits), 2, fits)
    bottom = pitch - 2 if underline and len(tiny) == 1 else 6 * len(tiny)
    _cover(canvas, (0, 0, canvas.width - 1, bottom))
    for index, line in enumerate(tiny):
        canvas.tiny(1, 1 + 6 * index, clip(line, fits), fill=0)
    if bottom >= pitch - 1:  # two lines reach into the line under the title: cut it off clean
        _clean_below(canvas, bottom + 1, pitch)


def _clean_below(canvas: Canvas, top: int, pitch: int) -> None:
    """A drawing or text cut by a banner ending at `top` (LEVEL X's dice, a half line) is cut
    off clean below it, not left peeking: up to half a line further down."""
    y = top
    while y < min(canvas.height, top + pitch // 2) and canvas.image.crop((0, y, canvas.width, y + 1)).getbbox():
        y += 1
    if y > top:
        canvas.cover((0, top, canvas.width - 1, y - 1))


def _never_dropped(lines: list[str], most: int, width: int) -> list[str]:
    """At most `most` lines; what does not fit goes onto the last, clipped with "~" (so the fit
    test sees it), never silently left out."""
    if len(lines) <= most:
        return lines
    return lines[: most - 1] + [clip(" ".join(lines[most - 1 :]), width)]


def _banner_below(canvas: Canvas, text: str, asks: list[Asked]) -> None:
    """The explanation under the "who is asked" texts at the top: on the first free lines in
    the display's font where it fits two of them, else in the 3×5 font right under them (over
    a drawing under a line of text, EXTRA!'s focus view: on a band it leaves empty)."""
    free = canvas.free_rows()
    lines = wrap(text, canvas.columns)
    top_free = [row for row in free if row > 0]
    titled = underline_of(canvas)  # a screen of text lines (else a sheet from the top edge)
    if (
        titled
        and len(lines) <= 2
        and len(top_free) >= len(lines)
        and top_free[: len(lines)] == list(range(top_free[0], top_free[0] + len(lines)))
    ):
        for row, line in zip(top_free, lines):
            canvas.line(row, line, inverse=True)
        return
    if not titled and not _sheet_from_the_top(canvas):
        # A line of text on top of a drawing (EXTRA!'s focus view: the rows the option
        # crosses): the 3×5 font on a band the drawing leaves empty, else not at all (the
        # round log has it); never over the rows.
        fits = (canvas.width - 2) // 4 + 1
        tiny = wrap(text, fits)
        band = 6 * len(tiny) + 1
        if len(tiny) <= 2 and (top := _lowest_blank(canvas, band)) is not None:
            _cover(canvas, (0, top, canvas.width - 1, top + band - 1))
            for index, line in enumerate(tiny):
                canvas.tiny(1, top + 1 + 6 * index, line, fill=0)
        return
    if titled:  # a title line: the 3×5 font right under it
        y = max(box.box[3] for box in asks if box.box[1] < _line_height(canvas)) + 2
        fits = (canvas.width - 2) // 4 + 1
        # (two lines, a third for a long language, until the next press)
        tiny = _never_dropped([text] if len(text) <= fits else wrap(text, fits), 3, fits)
        # Down to the next text, so a drawing cut by the bar (LEVEL X's dice) does not peek out.
        below = [box.box[1] for box in canvas.boxes if box.box is not None and not box.hidden and box.box[1] > y]
        bottom = max(y + 6 * len(tiny), min(below, default=y + 6 * len(tiny) + 2) - 2)
        _cover(canvas, (0, y, canvas.width - 1, bottom))
        for index, line in enumerate(tiny):
            canvas.tiny(1, y + 1 + 6 * index, clip(line, fits), fill=0)
        return
    # A sheet from the top edge (EXTRA!): in the room it leaves for it (the wide sheet's free
    # slot: its header holds the column labels, never covered; a line too long for the slot is
    # not shown, the round log has it), else right of its header's name and status, in the 3×5
    # font, one line or (over the top rows' right end, until the next press) two.
    if canvas.spare is not None:
        _spare_tiny(canvas, text)
    else:
        _header_tiny(canvas, text, asks)


def _spare_tiny(canvas: Canvas, text: str, one_line: bool = False) -> bool:
    """`text` in the 3×5 font in the room the screen left for it (`Canvas.spare`), wrapped to
    as many lines as it holds (`one_line`: the legend or the tip, its words abbreviated to one);
    False, drawing nothing, where there is no such room or the text does not fit it."""
    if canvas.spare is None:
        return False
    x0, y0, x1, y1 = canvas.spare
    fits = (x1 - x0 - 1) // 4  # n letters are 4n - 1 pixels wide, from x0 + 1
    rows = (y1 - y0 + 1) // 6
    if fits < 4 or rows < 1:
        return False
    if one_line:
        if len(text) > fits:  # the legend's double spaces first: one is enough in capitals
            text = " ".join(part for part in text.split(" ") if part)
        lines = [text if len(text) <= fits else abbreviate(text, fits)]
    else:
        lines = wrap(text, fits)
    if len(lines) > rows or any(len(line) > fits for line in lines):
        return False
    bottom = y0 + 6 * len(lines) - 1
    _cover(canvas, (x0, y0, x1, bottom))
    for index, line in enumerate(lines):
        canvas.tiny(x0 + 1, y0 + 1 + 6 * index, line, fill=0)
    return True


def _sheet_from_the_top(canvas: Canvas) -> bool:
    """A screen without a title line whose top says who is asked (EXTRA!'s whole sheet)."""
    return not underline_of(canvas) and any(
        box.box[1] < _line_height(canvas) and box.font == "tiny" for box in _asks(canvas)
    )


def _header_tiny(canvas: Canvas, text: str, asks: list[Asked], line: int = 0, one_line: bool = False) -> None:
    """`text` in the 3×5 font right of the "who is asked" texts at the top, from tiny line
    `line` (0 or 1); nothing where there is no room at all. An explanation takes two lines (a
    third for a long language), over the top rows' right end until the next press; a
    `one_line` text (the legend, the tip) stays on the header line, its words abbreviated."""
    x = max(box.box[2] for box in asks if box.box[1] < _line_height(canvas)) + 4
    fits = (canvas.width - x - 1) // 4  # n letters are 4n - 1 pixels wide, from x + 1
    if fits < 4:
        return  # no room at all: the round log has it
    if one_line:
        if len(text) > fits:  # the legend's double spaces first: one is enough in capitals
            text = " ".join(part for part in text.split(" ") if part)
        tiny = [text if len(text) <= fits else abbreviate(text, fits)]
    else:
        tiny = _never_dropped([text] if len(text) <= fits else wrap(text, fits), 3 - line, fits)
    top = 6 * line
    _cover(canvas, (x, top, canvas.width - 1, top + 6 * len(tiny) - 1))
    for index, part in enumerate(tiny):
        canvas.tiny(x + 1, top + 1 + 6 * index, clip(part, fits), fill=0)


def underline_of(canvas: Canvas) -> bool:
    """The screen has a title line (underlined)."""
    pitch = _line_height(canvas)
    return canvas.image.crop((0, pitch - 1, canvas.width, pitch)).getextrema()[0] != 0


def bottom_bar(canvas: Canvas, text: str | Sequence[str], x: int, row: int | None = None) -> None:
    """`text` in a white bar from `x` to the right edge, over the screen's bottom text line:
    the last whole line, or flush with the bottom when the screen draws below that (LEVEL X
    keeps its own line spacing), so no half line peeks out; or on line `row` (when the bottom
    line says who is asked and what). Lines given as a sequence (the dice seal) stay as they
    are, ending on that line: in the body font, or all in the small one if a line needs it."""
    pitch = _line_height(canvas)
    y = (canvas.lines - 1) * pitch
    if row is not None:
        y = row * pitch
    elif canvas.image.crop((0, y + pitch, canvas.width, canvas.height)).getbbox() is not None:
        y = canvas.height - pitch
    if not isinstance(text, str):
        _bar_lines(canvas, list(text), x, y)
        return
    if len(text) <= canvas.columns_in(canvas.width - x):
        _cover(canvas, (x, y, canvas.width - 1, y + pitch - 1))
        canvas.text(x, y + 1, text, fill=0)
        return
    # Too long for the body font: the small font (the tall panel's large font holds 16
    # characters), and a text longer still takes the line above as well.
    small = canvas.font("small")
    lines = wrap(text, canvas.columns_in(canvas.width - x, "small"))
    top = y - (len(lines) - 1) * pitch
    _cover(canvas, (x, top, canvas.width - 1, y + pitch - 1))
    for row, line in enumerate(lines):
        canvas.text(x, top + row * pitch + (pitch - small.line_height) // 2, line, fill=0, font="small")


def _bar_lines(canvas: Canvas, lines: list[str], x: int, y: int) -> None:
    """`lines` as they are in a white bar from `x`, the last on the text line at `y`."""
    pitch = _line_height(canvas)
    face = canvas.body if all(canvas.measure(line) <= canvas.width - x for line in lines) else canvas.font("small")
    top = y - (len(lines) - 1) * pitch
    _cover(canvas, (x, top, canvas.width - 1, y + pitch - 1))
    for row, line in enumerate(lines):
        canvas.text(x, top + row * pitch + (pitch - face.line_height) // 2, line, fill=0, font=face.name)


# The canvas's metrics (fonts per display size) and covering.
def _line_height(canvas: Canvas) -> int:
    return canvas.line_height


def _width(canvas: Canvas, text: str) -> int:
    return canvas.measure(text)


def _cover(canvas: Canvas, box: tuple[int, int, int, int]) -> None:
    """A white bar over `box` (the canvas also marks the texts under it hidden)."""
    canvas.cover(box, fill=1)
