"""LEVEL X on the board: the choices of a turn, the play screen, the grid LEDs and animations.

Choices of a turn (only legal ones, one per distinct effect):
- with two or more ones showing (lucky loser, once a turn): "Turn ones..." first — it opens
  `TurnOnesScreen`, where LEFT/RIGHT set each new face and OK goes on — followed by the
  outcomes, which keep the ones as rolled;
- the outcomes: what the groups do, labelled by their sums ("5+6", "10", "5+5") or "pass".
  Two groupings with the same sums are one choice (`firmware.games.levelx.rules.outcomes`), and so
  are outcomes that leave the game in the same state (a group on a closed row does nothing:
  with row 5 closed "5+6" is offered as "6"); the label is the one with the fewest groups.
  Order: most groups first, then by ascending sums, "pass" last (LEFT from the first option
  wraps to it).
- when the groups left the player entitled to the last bonus tile: "Take tile 6" (taking ends
  the game at the end of the round) or "Leave tile 6" (the game goes on).

ROLL while a decision is pending (or while bots play) flips to the score table and back.

Layouts per display size class: 128×32 puts the dice in the title line; 128×64 and 256×64 show
the dice, chips left per row, the option and what it does, the scores and the tiles; 128×128
adds the score table below. The result pages: standings, the final grid (pieces, X fields,
closed rows, chips left) and the chips and tiles of every player. Where a seat is shown by its
colour initial it is a white box, never next to a digit it could be read as.
"""

from __future__ import annotations

from collections.abc import Collection, Sequence
from typing import TYPE_CHECKING

from firmware.games.levelx.cells import GRID
from firmware.games.levelx.rules import FIELDS, ROWS, Bonus, Groups, LevelX, Outcome, TurnOnes, outcomes
from firmware.games.levelx import text
from firmware.i18n import N_, _, pgettext
from firmware.ui.kit import (
    CHAR_WIDTH,
    CLOSED,
    DIM,
    LINE_HEIGHT,
    OFF,
    PIP,
    PIPS,
    PLAYER_COLOURS,
    ROW_PITCH,
    X_FIELD,
    App,
    Canvas,
    Colour,
    Events,
    FaceEntryScreen,
    Frame,
    GameView,
    LedFrame,
    Open,
    Option,
    PlaySurface,
    Records,
    ResultPage,
    Standing,
    abbreviate,
    clip,
    colour_name,
    is_default_name,
    page_title,
    pip_cells,
    ranked_page,
    seat_tag,
    table_in_play,
    tiny_width,
    wrap,
)

if TYPE_CHECKING:
    from firmware.games.base import Event, Game, Step
    from firmware.table import Table


DIE = 12  # OLED die size in pixels (pips 2×2)
DIE_GAP = 3
WHITE: Colour = (255, 255, 255)
RED: Colour = (255, 0, 0)
TURN_ONES = N_("Turn ones...")


# --- choices -------------------------------------------------------------------------------
def distinct_outcomes(game: LevelX) -> list[Outcome]:
    """`outcomes(game)` less those with the same effect as another (kept: fewest groups)."""
    kept: dict[tuple[object, ...], Outcome] = {}
    for outcome in outcomes(game):
        key = _state_key(_after(game, outcome.groups))
        if key not in kept or len(outcome.sums) < len(kept[key].sums):
            kept[key] = outcome
    return sorted(kept.values(), key=lambda o: (-len(o.sums), o.sums))


def _state_key(game: LevelX) -> tuple[object, ...]:
    return (
        game.pieces,
        game.x_holders,
        game.chips_left,
        game.chip_counts,
        game.bonus,
        game.tiles_left,
        game.supply,
        game.lost,
        game.end_triggered,
        game.pending(),
    )


def _after(game: LevelX, step: Step) -> LevelX:
    twin = game.copy()
    twin.apply(step)
    return twin


def effect_text(game: LevelX, groups: Groups, columns: int, names: Sequence[str] | None = None) -> str:
    """What `groups` does, in the longest of the words' wordings that fits `columns` characters
    (`firmware.games.levelx.text.LevelXWords.option`). `names`: the seats' names as shown
    (`Table.names`), else as the game keeps them."""
    label = text.WORDS.option(names or [p.name for p in game.players], game, groups)
    return fitted(label.details if label is not None else (), columns)


def fitted(details: Sequence[str], columns: int) -> str:
    """The longest of `details` (longest first) that fits `columns` characters; where none fits,
    the shortest cut to stems (a deliberate abbreviation; the rows stay whole)."""
    if len(details) == 1:  # one wording: a long language's words cut to stems (deliberate)
        return abbreviate(details[0], columns)
    fitting = next((detail for detail in details if len(detail) <= columns), None)
    if fitting is not None or not details:
        return fitting or ""
    abbreviated = abbreviate(details[-1], columns)
    return abbreviated if not abbreviated.endswith("~") else clip(details[-1], columns)


def _option(names: Sequence[str], game: LevelX, decision: Groups | Bonus) -> Option:
    """`decision` as the words offer it, with what it does in its longest wording."""
    label = text.WORDS.option(names, game, decision)
    return Option(label.text, decision, label.detail) if label is not None else Option(str(decision), decision)


def _option_text(names: Sequence[str], game: LevelX, decision: Groups) -> str:
    return _option(names, game, decision).label


# --- the lucky loser sub-screen ------------------------------------------------------------
class TurnOnesScreen(FaceEntryScreen[int]):
    """Lucky loser: LEFT/RIGHT set the new face of each turned one, OK goes on; after the last
    one the TurnOnes step is applied. BACK returns to the previous die (or cancels). After a
    hint to turn ones the faces start as it said, and its words stay on the screen."""

    title = N_("Turn ones")

    def __init__(self, app: App) -> None:
        game = table_in_play(app).game_as(LevelX)
        self.game = game
        self.faces = tuple(game.faces or ())
        self.dice = [i for i, face in enumerate(self.faces) if face == 1][:-1]  # the last 1 stays
        play = app.play_screen()
        hinted = play.hinted if play is not None else None
        step = hinted.step if hinted is not None else None
        fits = isinstance(step, TurnOnes) and len(step.faces) == len(self.dice)
        self.hint = hinted.text if hinted is not None and fits else None
        start = list(step.faces) if isinstance(step, TurnOnes) and fits else [1] * len(self.dice)
        # Where the hint does not fit, its move is left out: the dice above show its faces.
        self.short_hint = self.hint.replace(text.WORDS.hint(game, step, ""), "") if self.hint and step else None
        super().__init__([range(1, 7)] * len(self.dice), start, lambda a, new: a.step(TurnOnes(tuple(new))))

    @property
    def new(self) -> list[int]:
        """The new faces chosen so far, one per turned die."""
        return self.values

    def shown(self) -> list[int]:
        faces = list(self.faces)
        for die, face in zip(self.dice, self.new):
            faces[die] = face
        return faces

    def draw(self, canvas: Canvas) -> None:
        title, number, count = _(self.title), self.index + 1, len(self.dice)
        note = _("die {number}/{count}").format(number=number, count=count)
        canvas.title(title, note if len(title) + len(note) + 1 <= canvas.columns else f"{number}/{count}")
        faces = self.shown()
        current = self.dice[self.index]
        if canvas.lines >= 5:
            y = LINE_HEIGHT + 2
            _dice_row(canvas, y, faces, inverse={current})
            cx = current * (DIE + DIE_GAP) + DIE // 2
            canvas.draw.polygon([(cx - 3, y + DIE + 4), (cx + 3, y + DIE + 4), (cx, y + DIE + 1)], fill=1)
            turned = _turned(self.game, self.new)
            names = [p.name for p in turned.players]
            labels = [_option_text(names, turned, o.groups) for o in distinct_outcomes(turned)]
            # Translators: LEVEL X: the options the turned dice would give, "then: 5+6  10  pass".
            then = clip(_("then: {options}").format(options="  ".join(labels)), _small(canvas))
            kept = self.faces.index(1, max(self.dice) + 1)
            top = y + DIE + 6
            room = (canvas.height - LINE_HEIGHT - top) // LINE_HEIGHT  # under the dice, above the help line
            lines = [then, _("die {number} stays 1").format(number=kept + 1)][:room]
            hint = wrap(self.hint, _small(canvas)) if self.hint else []
            if len(hint) > room and self.short_hint:
                hint = wrap(self.short_hint, _small(canvas))
            if hint and len(lines) + len(hint) > room:  # the hint asked for comes first
                lines = lines[: max(0, room - len(hint))]
                if len(hint) > room > 0:  # what does not fit runs on in its last line, cut
                    hint = [*hint[: room - 1], " ".join(hint[room - 1 :])]
            for row, line in enumerate([*lines, *hint][:room]):
                canvas.text(0, top + row * LINE_HEIGHT, clip(line, _small(canvas)))
        else:
            canvas.line(1, " ".join(f"[{f}]" if i == current else f" {f} " for i, f in enumerate(faces)))
            if self.hint and canvas.lines >= 4:
                canvas.line(2, clip(self.hint, canvas.columns))
        last = self.index + 1 == len(self.dice)
        canvas.line(canvas.lines - 1, _("<> face  OK done") if last else _("<> face  OK next"))

    def scene(self, app: App, frame: LedFrame) -> None:
        for key in [k for k in frame if k.startswith("dice.")]:
            del frame[key]
        pip_cells(self.shown(), frame)
        for pip in PIPS[self.new[self.index]]:
            frame[f"dice.{self.dice[self.index]}.{pip}"] = [PIP, OFF]


def _turned(game: LevelX, new: Sequence[int]) -> LevelX:
    return _after(game, TurnOnes(tuple(new)))


# --- the play screen -----------------------------------------------------------------------
def _small(canvas: Canvas) -> int:
    """How many characters of the small font (what these lines are drawn in) fit the width."""
    return canvas.width // CHAR_WIDTH


def _who(session: Table, player: int) -> str:
    name = session.name(player)
    colour = session.colours[player]
    return name if is_default_name(name, colour) else f"{name} ({colour_name(colour)})"


def _dice_row(canvas: Canvas, y: int, faces: Sequence[int] | None, inverse: Collection[int] = ()) -> int:
    """Four dice from the left at height `y`; returns the x after them."""
    x = 0
    for die in range(4):
        face = faces[die] if faces is not None else None
        _draw_die(canvas, x, y, face, die in inverse)
        x += DIE + DIE_GAP
    return x - DIE_GAP


def _draw_die(canvas: Canvas, x: int, y: int, face: int | None, inverse: bool) -> None:
    box = (x, y, x + DIE - 1, y + DIE - 1)
    if face is None:  # not rolled yet: a dotted outline
        for i in range(0, DIE, 2):
            for px, py in ((x + i, y), (x + i, y + DIE - 1), (x, y + i), (x + DIE - 1, y + i)):
                canvas.draw.point((px, py), fill=1)
        return
    canvas.draw.rounded_rectangle(box, radius=2, outline=1, fill=1 if inverse else 0)
    spots = {0: (2, 2), 1: (8, 2), 2: (2, 5), 3: (5, 5), 4: (8, 5), 5: (2, 8), 6: (8, 8)}
    for pip in PIPS[face]:
        px, py = spots[pip]
        canvas.draw.rectangle((x + px, y + py, x + px + 1, y + py + 1), fill=0 if inverse else 1)


def _draw_rows(canvas: Canvas, x: int, y: int, game: LevelX) -> None:
    """Chips left under each row number (tiny font); a closed row's number is inverse."""
    col = min(16 if canvas.width < 256 else 24, max(10, (canvas.width - x) // len(ROWS)))  # wide: spread out
    for index, (row, left) in enumerate(zip(ROWS, game.chips_left)):
        cx = x + index * col
        if cx + col - 1 > canvas.width:
            break
        label, count = str(row), str(left) if left else "-"
        if not left:
            canvas.draw.rectangle((cx, y - 1, cx + col - 2, y + 5), fill=1)
        canvas.tiny(cx + (col - tiny_width(label)) // 2, y, label, fill=0 if not left else 1)
        canvas.tiny(cx + (col - tiny_width(count)) // 2, y + 6, count)


def _option_bar(canvas: Canvas, y: int, label: str, position: str) -> None:
    """The option in a white bar: "<  label  2/5 >"; a label too long for that goes whole as
    "<label>" over the bar's width (LEFT/RIGHT still cycle, the position gives way)."""
    canvas.draw.rectangle((0, y, canvas.width - 1, y + LINE_HEIGHT - 1), fill=1)
    if len(label) > _small(canvas) - 4 - len(position) - 1:
        text = f"<{label}>" if len(label) + 2 <= _small(canvas) else label
        canvas.text(0, y, clip(text, _small(canvas)), fill=0)
        return
    canvas.text(2, y, "<", fill=0)
    canvas.text(canvas.width - CHAR_WIDTH - 1, y, ">", fill=0)
    room = _small(canvas) - 4 - len(position) - 1
    text = clip(label, room)
    canvas.text(CHAR_WIDTH + 6, y, text, fill=0)
    canvas.text(canvas.width - (len(position) + 2) * CHAR_WIDTH, y, position, fill=0)


def _score_texts(session: Table) -> list[str]:
    """Each player's score as chips + tiles: "23+15", or "12" without tiles."""
    game = session.game_as(LevelX)
    return [
        f"{score - sum(tiles)}+{sum(tiles)}" if tiles else str(score) for score, tiles in zip(game.scores, game.bonus)
    ]


def _scores_line(session: Table, columns: int) -> str | None:
    """Each player's score, chips + tiles, by name as long as it fits: "Red 23+15  Blue 12",
    "Red 23+15 Blue 12"; None when it does not (then `_draw_scores_line` uses seat tags)."""
    names = session.names
    scores = _score_texts(session)
    candidates = [
        "  ".join(f"{n} {s}" for n, s in zip(names, scores)),
        " ".join(f"{n} {s}" for n, s in zip(names, scores)),
    ]
    return next((text for text in candidates if len(text) <= columns), None)


def _draw_scores_line(canvas: Canvas, y: int, session: Table) -> None:
    """The scores line at y: by name when it fits, else seat tag and score spread over the width."""
    text = _scores_line(session, _small(canvas))
    if text is not None:
        canvas.text(0, y, text)
        return
    scores = _score_texts(session)
    slot = canvas.width // len(scores)
    for player, score in enumerate(scores):
        x = seat_tag(canvas, player * slot, y, session.colours[player]) + 1
        canvas.text(x, y, clip(score, (slot - (x - player * slot)) // CHAR_WIDTH))


def _footer(game: LevelX) -> str:
    if game.end_triggered:
        return _("Last round!")
    tiles = " ".join(map(str, game.tiles_left))
    # Translators: LEVEL X: the bonus tiles still to take, "tiles 15 12 9 6".
    return _("tiles {tiles}").format(tiles=tiles) if tiles else _("no tiles left")


def _last_turn(session: Table) -> str:
    """What the previous player did, under the roll prompt ("Blue played 7+9")."""
    return text.WORDS.last_turn(session.names, session.game.events)


def _draw_scores(canvas: Canvas, session: Table, title: str = N_("Scores"), right: str | None = None) -> None:
    """The score table: each player's chips per row, tiles and total; then the tiles left
    (`right` replaces the round number: the result page gives its page number)."""
    game = session.game_as(LevelX)
    page_title(canvas, _(title), _("round {n}").format(n=game.round_number) if right is None else right)
    y = _score_table(canvas, session, canvas.line_height + 1, canvas.height)
    left = " ".join(map(str, game.tiles_left)) or pgettext("tiles", "none")
    footer = _footer(game) if not game.is_over() else _("tiles left: {tiles}").format(tiles=left)
    if len(footer) > _small(canvas) and game.is_over():
        footer = _("tiles {tiles}").format(tiles=left)  # the shorter wording of the play screen
    if y + LINE_HEIGHT <= canvas.height + 1:  # the small font's ink is rows 1-9 of its line: 9 rows
        canvas.text(0, canvas.height - LINE_HEIGHT + 1, clip(footer, _small(canvas)))


def _score_table(canvas: Canvas, session: Table, y: int, bottom: int) -> int:
    """Row numbers (tiny), then a line per player from `y` down to `bottom`: name, chips per
    row, tiles (T) and points (PTS); returns the y after the last line drawn."""
    game = session.game_as(LevelX)
    total_w = 3 * CHAR_WIDTH
    # Whole names where they all fit beside the narrowest columns, else every seat's colour tag
    # (the standings page gives each tag its name): a name is never cut to "Gree" or "Yell".
    room = (canvas.width - 11 * len(ROWS) - 2 * CHAR_WIDTH - total_w - 4 - 2) // CHAR_WIDTH
    longest = max(len(name) for name in session.names)
    tags = longest > room
    name_w = CHAR_WIDTH + 3 if tags else max(4, longest) * CHAR_WIDTH + 2
    # The columns as wide as beside a 4-letter name column: the tags' spare room is left free.
    col = min(18, max(11, (canvas.width - max(name_w, 4 * CHAR_WIDTH + 2) - 2 * CHAR_WIDTH - total_w - 4) // len(ROWS)))
    x_tiles = name_w + len(ROWS) * col + 1
    for index, row in enumerate(ROWS):
        canvas.tiny(name_w + index * col + (col - tiny_width(str(row))) // 2, y, str(row))
    canvas.tiny(x_tiles + (2 * CHAR_WIDTH - tiny_width("T")) // 2, y, "T")
    # Translators: the points column's tiny heading: at most 3 capitals A-Z (the tiny font has no others).
    points = pgettext("tiny heading", "PTS")
    canvas.tiny(canvas.width - tiny_width(points), y, points)
    # Lines a full pitch apart, so a name's descender never touches an accent of the next name;
    # the digits (rows 2-8 of a line) keep a row clear of the header, the names (no header over
    # them) stand a row higher: four players and the footer still fit 64 rows.
    y += 5
    for player in range(len(game.players)):
        if y + LINE_HEIGHT > bottom + 1:
            break
        if tags:
            seat_tag(canvas, 0, y - 1, session.colours[player])
        else:
            canvas.text(0, y - 1, session.name(player))
        for index, count in enumerate(game.chip_counts[player]):
            _number(canvas, name_w + index * col, y, col, count)
        _number(canvas, x_tiles, y, 2 * CHAR_WIDTH, sum(game.bonus[player]))
        total = str(game.scores[player])
        canvas.text(canvas.width - len(total) * CHAR_WIDTH, y, total)
        y += LINE_HEIGHT
    return y - 1  # the names' next line


def _number(canvas: Canvas, x: int, y: int, width: int, value: int) -> None:
    """A number centred in a column; zero as a small dot, so the counts stand out."""
    if value:
        canvas.text(x + (width - len(str(value)) * CHAR_WIDTH) // 2, y, str(value))
    else:
        canvas.draw.rectangle((x + width // 2 - 1, y + 4, x + width // 2, y + 5), fill=1)


def _headline(session: Table) -> str:
    game = session.game_as(LevelX)
    best = max(game.scores)
    winners = [session.name(p) for p, s in enumerate(game.scores) if s == best]
    return (
        _("Winner: {name}").format(name=winners[0])
        if len(winners) == 1
        else _("Shared: {names}").format(names=", ".join(winners))
    )


def _ranking(session: Table) -> list[tuple[int, int]]:
    """(player, rank) by score, best first; equal scores share a rank."""
    scores = session.game_as(LevelX).scores
    order = sorted(range(len(scores)), key=lambda p: -scores[p])
    return [(p, 1 + sum(s > scores[p] for s in scores)) for p in order]


def _grid_page(canvas: Canvas, session: Table, position: str) -> None:
    """The final grid, a row of fields per sum (5 at the top, the X fields in one column): the
    pieces as seat tags, a closed row struck through; the chips left at the right."""
    game = session.game_as(LevelX)
    page_title(canvas, _("Final grid"), position)
    pitch = max(ROW_PITCH, min(2 * LINE_HEIGHT, (canvas.height - canvas.line_height) // len(ROWS)))
    label_w = 2 * CHAR_WIDTH + 2
    left_w = 3 * CHAR_WIDTH
    field_w = (canvas.width - label_w - left_w) // max(FIELDS)
    for index, (row, fields) in enumerate(zip(ROWS, FIELDS)):
        y = canvas.line_height + index * pitch
        closed = row in game.closed_rows
        canvas.text(label_w - 2 - len(str(row)) * CHAR_WIDTH, y, str(row))
        first = label_w + (max(FIELDS) - fields) * field_w  # the X fields in one column
        for field in range(fields):
            x = first + field * field_w
            if field == fields - 1:  # the X field
                canvas.draw.rectangle((x, y, x + field_w - 2, y + ROW_PITCH), outline=1)
            else:
                canvas.draw.point((x + field_w // 2, y + ROW_PITCH // 2 + 1), fill=1)
            here = [p for p, rows in enumerate(game.pieces) if rows[index] == field]
            tx = x + 2
            for player in here:
                if tx + CHAR_WIDTH + 1 > x + field_w - 2:
                    break
                tx = seat_tag(canvas, tx, y, session.colours[player]) + 1
        left = game.chips_left[index]
        text = "-" if closed else str(left)
        canvas.text(canvas.width - len(text) * CHAR_WIDTH, y, text)
        if closed:
            end = first + fields * field_w - 2
            canvas.draw.line((first, y + ROW_PITCH // 2, end, y + ROW_PITCH // 2), fill=1)


# --- LEDs ----------------------------------------------------------------------------------
def grid_cells(
    pieces: Sequence[Sequence[int | None]], closed: Sequence[int], colours: Sequence[Colour], *, with_off: bool = False
) -> LedFrame:
    """The grid: pieces in their players' colours (a list when several share a field), empty
    X fields dim, closed rows dim red; `with_off` also lists empty fields as OFF."""
    cells: LedFrame = {}
    for index, (row, fields) in enumerate(zip(ROWS, FIELDS)):
        for field in range(fields):
            name = GRID.cell(row, field)
            here = [colours[p] for p, rows in enumerate(pieces) if rows[index] == field]
            if row in closed:
                cells[name] = CLOSED
            elif here:
                cells[name] = here[0] if len(here) == 1 else here
            elif field == fields - 1:
                cells[name] = X_FIELD
            elif with_off:
                cells[name] = OFF
    return cells


def _preview(app: App, game: LevelX, colours: Sequence[Colour], frame: LedFrame) -> None:
    """Blink the fields the option under the cursor would move the player's pieces to."""
    play = app.play_screen()
    choice = None if play is None else play.choice
    if choice is None or app.screen is not play or app.animation is not None:
        return  # (while a step is shown, the choice still belongs to the position before it)
    value = choice.current.value
    if not isinstance(value, Groups):
        return
    mine = colours[game.current_player]
    for event in _after(game, value).events:
        if event["kind"] in ("place", "move") or (event["kind"] == "chip" and event["player"] == game.current_player):
            row = event["row"]
            field = event.get("to", FIELDS[ROWS.index(row)] - 1)
            name = GRID.cell(row, field)
            there = frame.get(name, OFF)
            others = [c for c in (there if isinstance(there, list) else [there]) if c != mine]
            frame[name] = [mine, *(others or [OFF])]


def _dice_leds(faces: Sequence[int], bright: set[int]) -> LedFrame:
    leds: LedFrame = {f"dice.{d}.{p}": OFF for d in range(len(faces)) for p in range(7)}
    for die, face in enumerate(faces):
        for pip in PIPS[face]:
            leds[f"dice.{die}.{pip}"] = PIP if die in bright else DIM
    return leds


def _turn_ones_frames(session: Table, event: Event) -> list[Frame]:
    faces = event["faces"]
    before = [1 if d in event["dice"] else f for d, f in enumerate(faces)]
    turned = set(event["dice"])
    caption = text.WORDS.caption(session.names, event, [event])
    return [
        Frame(0.2, _dice_leds(shown, turned | set(range(4))), caption)
        for _blink in range(2)
        for shown in (before, faces)
    ]


def _groups_frames(session: Table, events: Events) -> list[Frame]:
    """Frames over the whole grid, rebuilt from the position before the step event by event
    (the scene underneath already shows the position after it)."""
    game = session.game_as(LevelX)
    before = game.copy()
    before.undo()
    faces = list(before.faces or (1, 1, 1, 1))
    colours = [PLAYER_COLOURS[c] for c in session.colours]
    pieces = [list(rows) for rows in before.pieces]
    closed = list(before.closed_rows)
    names = session.names
    mover = before.current_player
    # (the choice of the last tile comes after the turn's dice are done: they stay dark)
    dice = (
        _dice_leds(faces, set())
        if before.faces is not None
        else {f"dice.{d}.{pip}": OFF for d in range(len(faces)) for pip in range(7)}
    )
    seats = {f"seat.{mover}": [colours[mover], OFF]}
    frames: list[Frame] = []

    def show(seconds: float, caption: str, cells: LedFrame | None = None) -> None:
        leds = grid_cells(pieces, closed, colours, with_off=True) | dice | seats | (cells or {})
        frames.append(Frame(seconds, leds, caption))

    for event in events:
        kind, row = event["kind"], event.get("row")
        index = ROWS.index(row) if row is not None else 0
        x_cell = GRID.cell(row, FIELDS[index] - 1)
        caption = text.WORDS.caption(names, event, events, before)
        if kind == "group":
            dice = _dice_leds(faces, set(event["dice"]))
            show(0.3, caption)
        elif kind == "place":
            pieces[event["player"]][index] = 0
            show(0.15, caption, {GRID.cell(row, 0): WHITE})
            show(0.25, caption)
        elif kind == "move":
            pieces[event["player"]][index] = event["to"]
            show(0.3, caption)
        elif kind == "oust":
            for _blink in range(2):
                show(0.15, caption, {x_cell: colours[event["player"]]})
                show(0.15, caption, {x_cell: OFF})
            pieces[event["player"]][index] = None
        elif kind == "chip":
            show(0.2, caption, {x_cell: WHITE})
            show(0.2, caption)
        elif kind == "close":
            lit: LedFrame = {GRID.cell(row, f): RED for f in range(FIELDS[index])}
            unlit: LedFrame = dict.fromkeys(lit, OFF)
            for cells in (lit, unlit, lit):
                show(0.2, caption, cells)
            for rows in pieces:
                rows[index] = None
            closed.append(event["row"])
            show(0.2, caption)
        elif kind == "bonus":
            seat = f"seat.{event['player']}"
            show(0.2, caption, {seat: WHITE})
            show(0.2, caption, {seat: colours[event["player"]]})
        elif kind in ("bonus_offer", "bonus_declined", "end_triggered", "game_over"):
            show(0.4, caption)
        elif kind == "no_effect":
            show(0.3, caption)
    if not frames:  # a pass
        show(0.3, text.WORDS.caption(names, None, events, before))
    return frames


# --- the view: what the board asks of LEVEL X (firmware.ui.gameview.GameView) -------------------
class LevelXView(GameView):
    """LEVEL X's screens, LEDs, words and rules page."""

    rules = text.RULES

    def options(self, app: App, session: Table) -> list[Option]:
        """The pending decision's choices: "Turn ones..." (when allowed), then the outcomes; or
        take / decline the last bonus tile."""
        game = session.game_as(LevelX)
        names = session.names
        if game.bonus_pending:
            return [_option(names, game, Bonus(take)) for take in (True, False)]
        choices = [Option(_option_text(names, game, o.groups), o.groups) for o in distinct_outcomes(game)]
        if game.ones_to_turn:
            # Translators: LEVEL X: under "Turn ones...": how many dice showing 1 may be turned.
            ones = {1: _("one 1 to any face"), 2: _("two 1s to any face"), 3: _("three 1s to any face")}[
                game.ones_to_turn
            ]
            choices.insert(0, Option(_(TURN_ONES), Open(TurnOnesScreen), ones))
        return choices

    def draw(self, canvas: Canvas, app: App, session: Table, play: PlaySurface) -> None:
        game = session.game_as(LevelX)
        if play.view is not None:
            _draw_scores(canvas, session)
            return
        choice = play.choice if app.animation is None else None  # stale while a step is shown
        current = choice.current if choice is not None else None
        used = {d for g in current.value.groups for d in g} if current and isinstance(current.value, Groups) else set()
        who = _who(session, game.current_player)
        if canvas.lines >= 5 or game.faces is None:
            right = _("round {n}").format(n=game.round_number)
            if len(who) + 1 + len(right) > canvas.columns:
                # Translators: LEVEL X: "round 3" where the title has no room for it; one letter and the number.
                right = _("R{n}").format(n=game.round_number)
        else:  # a short display: the dice as digits in the title line
            right = " ".join(map(str, game.faces))
        room = _small(canvas)  # Canvas.title falls back to the small font
        with canvas.asking():  # who acts (a prompt below names them again) ...
            canvas.title(clip(who, room - len(right) - 1), right)
        band = top = canvas.line_height  # under the title, in the panel's body font
        if canvas.lines >= 5:
            right_of_dice = _dice_row(canvas, top + 1, game.faces, inverse=used) + 3
            _draw_rows(canvas, right_of_dice, top + 2, game)
            band = top + DIE + 2
        # The option bar (or what the board waits for), then what the option does.
        if choice is not None and current is not None:
            with canvas.asking():  # ... and what they are asked
                _option_bar(canvas, band, current.label, choice.position())
            if isinstance(current.value, Groups):
                detail = effect_text(game, current.value, _small(canvas), session.names)
            else:  # what the option opens, explained: a long language's words cut to stems (deliberate)
                detail = abbreviate(current.detail, _small(canvas))
        else:
            prompt = wrap(play.prompt() or "", _small(canvas))
            detail = _last_turn(session)
            if len(prompt) > 1 and band + 2 * LINE_HEIGHT <= canvas.height:  # a long prompt takes the next line
                detail = prompt[1] if len(prompt) == 2 else " ".join(prompt[1:])
            with canvas.asking():
                canvas.text(0, band, clip(prompt[0], _small(canvas)))
        if band + 2 * LINE_HEIGHT <= canvas.height:
            canvas.text(0, band + LINE_HEIGHT, clip(detail, _small(canvas)))
        keeps = game.ones_to_turn and current is not None and isinstance(current.value, Groups)
        footer = _("(keeps the ones)") if keeps else _footer(game)
        if canvas.size_class == "tall":  # the score table under the option, the footer at the bottom
            _score_table(canvas, session, band + 2 * LINE_HEIGHT + 2, canvas.height - LINE_HEIGHT)
            canvas.text(0, canvas.height - LINE_HEIGHT, clip(footer, _small(canvas)))
        elif band + 4 * LINE_HEIGHT <= canvas.height:
            _draw_scores_line(canvas, band + 2 * LINE_HEIGHT, session)
            canvas.text(0, band + 3 * LINE_HEIGHT, clip(footer, _small(canvas)))

    def result_lines(self, session: Table, records: Records) -> list[str]:
        """Who won, then each player by score, chips + tiles: "1 Red      23+15=38"."""
        game = session.game_as(LevelX)
        lines = [_headline(session)]
        for player, rank in _ranking(session):
            tiles = sum(game.bonus[player])
            parts = f"{game.scores[player] - tiles}+{tiles}=" if tiles else ""
            lines.append(f"{rank} {session.name(player):<8} {parts}{game.scores[player]}")
        return lines

    def scene(self, app: App, session: Table, frame: LedFrame) -> None:
        game = session.game_as(LevelX)
        colours = [PLAYER_COLOURS[c] for c in session.colours]
        frame.update(grid_cells(game.pieces, game.closed_rows, colours))
        if game.faces is not None:
            pip_cells(game.faces, frame)
        if game.is_over():
            for player in range(len(game.players)):
                if game.scores[player] == max(game.scores):
                    frame[f"seat.{player}"] = [colours[player], OFF]
            return
        player = game.current_player
        frame[f"seat.{player}"] = [colours[player], OFF]
        _preview(app, game, colours, frame)

    def animation(self, app: App, session: Table, events: Events) -> list[Frame]:
        """The last step shown on the LEDs: turned ones flip, each group's dice light, its piece
        enters or steps on, an ousted piece flashes out, a chip flashes on X, a closing row flashes."""
        kinds = {e["kind"] for e in events}
        if "turn_ones" in kinds:
            return _turn_ones_frames(session, next(e for e in events if e["kind"] == "turn_ones"))
        if "group" not in kinds and not kinds & {"turn", "game_over"}:
            return []  # a roll: the tumble already showed it
        return _groups_frames(session, events)

    def on_roll(self, app: App, session: Table, play: PlaySurface) -> None:
        """ROLL flips between the play screen and the score table."""
        play.view = None if play.view is not None else 0
        app.changed()

    def result_pages(self, session: Table, records: Records) -> list[ResultPage]:
        """The standings (points as chips + tiles = total), the final grid and the chips table."""
        game = session.game_as(LevelX)
        standings = []
        for player, rank in _ranking(session):
            tiles = sum(game.bonus[player])
            score = (
                f"{game.scores[player] - tiles}+{tiles}={game.scores[player]}" if tiles else str(game.scores[player])
            )
            standings.append(
                Standing(rank, session.colours[player], session.name(player), score, short=str(game.scores[player]))
            )
        return [
            ranked_page((_("{game}: result").format(game=game.title), game.title), _headline(session), standings),
            ResultPage("grid", lambda canvas, position: _grid_page(canvas, session, position)),
            ResultPage("chips", lambda canvas, position: _draw_scores(canvas, session, N_("Chips & tiles"), position)),
        ]

    def legend(self) -> str:
        return _(text.LEGEND)

    def same_choice(self, session: Table, value: object, step: Step) -> bool:
        """Whether the option `value` plays `step` (a hint): turning ones opens their screen; an
        outcome offered stands for every grouping that leaves the same position."""
        if isinstance(step, TurnOnes):
            return isinstance(value, Open)
        if not isinstance(value, Groups) or isinstance(step, Bonus):
            return False  # an option that opens a screen, or a tile
        game = session.game_as(LevelX)
        return _state_key(_after(game, value)) == _state_key(_after(game, step))

    def round_of(self, game: Game) -> int | None:
        return game.round_number if isinstance(game, LevelX) else None


VIEW = LevelXView()
