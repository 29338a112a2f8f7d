"""The end-of-game review: the pages the result screen shows after the game's own (standings,
final board) and before "Rematch" / "Menu".

`REVIEW` is the list of what makes them, each `(app, table) -> list[ResultPage]` (`app` the
board as screens see it, `firmware.ui.intents.App`), in the order the pages come; a new kind of
page is one more entry (`add_review`). The board's own:

- `figure_pages`: the game's figures (`firmware.games.figures`, named by its `GameSpec.figures`),
  one page per player and figure page, the player's name as the title; a game without figures
  has none;
- `record_pages`: per seat, the person's best score of the game, marked when this game set it,
  and where this game's score stands in the board's high-score list (a race: the wins on this
  board instead); guests (a seat named by its colour) and bots are said to be so. Only with a
  journal (the board's records);
- `log_page` (`firmware.ui.game_log`): "Game log", OK there reads every step of the game from
  the first, round by round;
- `key_moment_pages` (`firmware.ui.moments`): "Key moments", each person's costliest
  decisions by the strong bot's evaluator; none when no person played.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING

from firmware.errors import IllegalStepError, RecordError
from firmware.games.figures import FigurePage, figures_of
from firmware.games.registry import find_game
from firmware.i18n import _, pgettext
from firmware.ui.draw import CHAR_WIDTH, LINE_HEIGHT, Canvas, abbreviate
from firmware.ui.gameview import ResultPage
from firmware.ui.game_log import log_page
from firmware.ui.moments import key_moment_pages
from firmware.ui.names import colour_initial, is_default_name

if TYPE_CHECKING:
    from firmware.games.base import Player
    from firmware.table import Table
    from firmware.ui.intents import App

ReviewPages = Callable[["App", "Table"], list[ResultPage]]
NEW = "*"  # marks a personal best this game set


def review_pages(app: App, table: Table) -> list[ResultPage]:
    """Every review page of the finished game at `table`, in `REVIEW`'s order."""
    return [page for pages in REVIEW for page in pages(app, table)]


def add_review(pages: ReviewPages) -> ReviewPages:
    """Add a kind of review page (after those there); returns it (usable as a decorator)."""
    if pages not in REVIEW:
        REVIEW.append(pages)
    return pages


# --- the game's figures ----------------------------------------------------------------------
def figure_pages(app: App, table: Table) -> list[ResultPage]:
    """Per player (seat order), one page per figure page of the game: "figures 0 seat 2"."""
    try:
        pages = figures_of(table.record())
    except (RecordError, IllegalStepError):  # a table's record replays; a broken one only loses its figures
        return []
    names = [p.name for p in table.game.players]
    out = []
    for seat, name in enumerate(names):
        for index, page in enumerate(pages):

            def draw(
                canvas: Canvas, position: str, page: FigurePage = page, seat: int = seat, name: str = name
            ) -> None:
                draw_figures(canvas, page, seat, name, position)

            out.append(ResultPage(f"figures {index} seat {seat}", draw))
    return out


def draw_figures(canvas: Canvas, page: FigurePage, seat: int, name: str, position: str) -> None:
    """`seat`'s figures of `page` under the title "Name: Page" (or the name alone where the two
    do not fit beside `position`): each a label and its value, right-aligned, on its line or,
    where the two do not fit one, on the line below; else in as many columns as the lines need.
    The same for every seat (laid out for the widest values); the small font where the body font
    cannot hold them; a label abbreviated where even that cannot, never a value."""
    heading = _(page.title)
    titles = [_("{name}: {page}").format(name=name, page=heading), name]
    page_title(canvas, titles, position)
    # A label with no words ("12:", a row's sum) is no text to translate.
    entries = [(_(f.label) if any(c.isalpha() for c in f.label) else f.label, f.values[seat]) for f in page.figures]
    widest = [(label, max(figure.values, key=len)) for (label, _v), figure in zip(entries, page.figures)]
    top, height = canvas.line_height, canvas.height - canvas.line_height
    for font in dict.fromkeys([canvas.body.name, "small"]):
        face = canvas.font(font)
        # One column, a value that cannot stand beside its label on the line below it.
        room = canvas.width // face.advance
        below = [len(label) + 1 + len(value) > room for label, value in widest]
        pitch = next(
            (p for p in (face.line_height, face.line_height - 1) if (len(widest) + sum(below)) * p <= height), 0
        )
        if pitch and all(max(len(label), len(value)) <= room for label, value in widest):
            y = top
            for (label, value), wrapped in zip(entries, below):
                canvas.text(0, y, label, font=face.name)
                y += pitch if wrapped else 0
                canvas.text(canvas.width - face.width(value), y, value, font=face.name, critical=True)
                y += pitch
            return
        layout = _layout(canvas.width, height, face.line_height, face.advance, widest)
        if layout is not None:
            break
    if layout is None:  # not even in the small font: labels abbreviated to their columns
        layout = _layout(canvas.width, height, face.line_height, face.advance, widest, squeeze=True)
    assert layout is not None  # `squeeze` always gives one
    columns, rows, pitch = layout
    width = canvas.width // columns
    advance = face.advance
    for index, (label, value) in enumerate(entries):
        column, row = divmod(index, rows)
        x, y = column * width, top + row * pitch
        gap = advance if column < columns - 1 else 0
        value_x = (column + 1) * width - gap - len(value) * advance
        room = (value_x - x) // advance - 1
        canvas.text(x, y, abbreviate(label, room), font=face.name)
        canvas.text(value_x, y, value, font=face.name, critical=True)


def _layout(
    width: int, height: int, line: int, advance: int, entries: Sequence[tuple[str, str]], squeeze: bool = False
) -> tuple[int, int, int] | None:
    """(columns, rows, pitch) holding every entry whole ("label value" with a space between,
    a gap between columns), lines a pixel closer if that saves a column; None if none does
    (unless `squeeze`: the fewest columns whose values fit, labels to be abbreviated; on a
    panel smaller than any profile, whatever the lines allow)."""
    count = len(entries)
    found: tuple[int, int, int] | None = None
    for pitch in (line, line - 1):
        rows = max(1, height // pitch)
        columns = -(-count // rows)
        room = width // columns // advance - (1 if columns > 1 else 0)
        longest = max((len(label) + 1 + len(value) for label, value in entries), default=0)
        fits = longest <= room or squeeze and max(len(v) for _l, v in entries) + 2 <= room
        if fits and (found is None or columns < found[0]):  # a pixel closer only to save a column
            found = columns, -(-count // columns), pitch
    if found is not None:
        return found
    return (columns, -(-count // columns), line - 1) if squeeze else None  # a panel too small: drawn clipped


def page_title(canvas: Canvas, titles: Sequence[str], position: str) -> None:
    """The first of `titles` that fits beside `position` in the small font, else the first alone
    (as `firmware.ui.play.page_title`, which imports this module's screen)."""
    room = canvas.width // canvas.font("small").advance
    fitting = next((t for t in titles if len(t) + len(position) + 1 <= room), None)
    canvas.title(fitting, position) if fitting is not None else canvas.title(titles[0])


# --- personal bests and the high-score list ----------------------------------------------------
@dataclass(frozen=True)
class SeatRow:
    """One seat on a records page: its colour's initial, name, and what the page says of it."""

    colour: str
    name: str
    value: str


def record_pages(app: App, table: Table) -> list[ResultPage]:
    """ "bests" (each person's best score, `NEW` when this game set it) and "place" (where each
    seat's score stands in the board's list) for a game with high scores; "wins" (each person's
    wins on this board) for a race. None without the board's records (no journal)."""
    journal, game_id = table.journal, table.journal_id
    if journal is None or game_id is None or not table.over:
        return []
    spec = find_game(table.game.name)
    players = table.game.players
    kinds = [_kind(player, colour) for player, colour in zip(players, table.colours)]
    if all(p.bot is not None for p in players):
        return []  # bots keep no records
    if not spec.ranking.high_scores:
        wins = dict(journal.wins(spec.name, limit=10**6))
        rows = [
            SeatRow(colour, p.name, kind or str(wins.get(p.name, 0)))
            for p, colour, kind in zip(players, table.colours, kinds)
        ]
        # Translators: a page of the review: each person's games won on this board.
        return [_seat_page("wins", [_("Wins on this board"), _("Wins")], [], rows)]
    bests, new = [], False
    for p, colour, kind in zip(players, table.colours, kinds):
        kids = bool(p.kids) and spec.ranking.kids_table
        best = None if kind else journal.personal_best(spec.name, p.name, kids=kids)
        mark = NEW if best is not None and best.game_id == game_id else ""
        new = new or bool(mark)
        bests.append(SeatRow(colour, p.name, kind or ("-" if best is None else f"{best.score}{mark}")))
    places = []
    for seat, (p, colour, kind) in enumerate(zip(players, table.colours, kinds)):
        place = None if p.bot is not None else journal.place(game_id, seat)
        places.append(SeatRow(colour, p.name, kind if p.bot is not None else "-" if place is None else f"#{place}"))
    # Translators: the note under the personal bests; "*" marks a best set in the game just played.
    note = [_("* set in this game")] if new else []
    return [
        _seat_page("bests", [_("Personal bests"), _("Bests")], note, bests),
        # Translators: a page of the review: where each score of this game stands in the board's list.
        _seat_page("place", [_("High-score place"), _("Place")], [_("in the board's list")], places),
    ]


def _kind(player: Player, colour: str) -> str:
    """ "bot" or "guest" for a seat with no personal records, "" for a person."""
    if player.bot is not None:
        return pgettext("review", "bot")
    if is_default_name(player.name, colour):
        return pgettext("review", "guest")
    return ""


def _seat_page(name: str, titles: Sequence[str], notes: Sequence[str], rows: Sequence[SeatRow]) -> ResultPage:
    """Rows "[R] Name     value" under the first title that fits, a pixel closer where the
    seats need it, the notes below where there is room; names are never cut (at most ten
    letters, values a few characters)."""

    def draw(canvas: Canvas, position: str) -> None:
        page_title(canvas, titles, position)
        top, pitch = canvas.line_height, LINE_HEIGHT
        if top + len(rows) * pitch > canvas.height:
            pitch -= 1
        for index, row in enumerate(rows):
            y = top + index * pitch
            x = _seat_tag(canvas, 0, y, row.colour) + 2
            canvas.text(x, y, row.name)
            canvas.text(canvas.width - len(row.value) * CHAR_WIDTH, y, row.value, critical=True)
        y = top + len(rows) * pitch
        for note in notes:
            if y + LINE_HEIGHT > canvas.height or not canvas.fits(note, "small"):
                break
            canvas.text(0, y, note, secondary=True)
            y += LINE_HEIGHT

    return ResultPage(name, draw)


def _seat_tag(canvas: Canvas, x: int, y: int, colour: str) -> int:
    """A seat's colour initial as a white box with a black letter (as the standings show it)."""
    canvas.draw.rectangle((x, y + 1, x + CHAR_WIDTH, y + LINE_HEIGHT - 2), fill=1)
    canvas.text(x + 1, y, colour_initial(colour), fill=0)
    return x + CHAR_WIDTH + 1


REVIEW: list[ReviewPages] = [figure_pages, record_pages, log_page, key_moment_pages]
