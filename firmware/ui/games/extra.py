"""EXTRA! on the board: every player's sheet on the OLED, the shared roll on the dice LEDs.

While a player decides, their own sheet fills the display: rows 2–12 (penalty wall, then the
factor boxes 0 1 2 3 5 7, the row score at the right), the three EXTRA columns at the far right
and the running total; the option under the cursor is previewed on the sheet. ROLL flips
through everyone's sheet, LEFT/RIGHT come back to the decider's.

    >>> layout = sheet_layout(128, 64)
    >>> layout.pitch, layout.row_box(11, 0)       # 4-px boxes every 5 px; row 11's first box
    (5, (29, 53, 32, 56))
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from firmware.games.base import DECISION, ROLL
from firmware.games.extra import COLUMN_SIZES, FACTORS, ROW_SIZES, SUMS, WALLS, Choice, Sheet, row_score
from firmware.ui.animation import Frame
from firmware.ui.colours import OFF, PIP, Colour, dim
from firmware.ui.draw import Canvas, tiny_width
from firmware.ui.play import PIPS
from firmware.ui.screen import Option

if TYPE_CHECKING:
    from firmware.games.extra import Extra
    from firmware.ui.intents import App
    from firmware.ui.play import PlayScreen
    from firmware.ui.session import GameSession

RULES = """\
One roll counts for all. Keep one die as EXTRA die, pair the other four and cross the next box \
of each pair's sum (rows 2-12; a full row takes none).
EXTRA: at most 3 numbers, one per column (7, 8, 9 boxes); the die crosses its column. Owning 3: \
take one if rolled, else free ride (no EXTRA die).
A column's last box ends your game.
Row: none 0, wall only -200, else points x last factor. Best total wins.
Child: new numbers get no cross."""

COLUMN_NAMES = "ABC"
MAX_WALL = max(WALLS.values())
HEADER = 8  # px above the sheet: one line of the 3x5 font with room for an inverted die

# Box styles on the drawn sheet.
EMPTY, WALL, CROSSED, PREVIEW, END = "empty", "wall", "crossed", "preview", "end"


# --- options ---------------------------------------------------------------------------------
def effect(sheet: Sheet, faces: tuple[int, ...], choice: Choice) -> tuple[Any, ...]:
    """What `choice` does to `sheet`: (extra face, column of a new number, sums crossed).

    Choices with the same effect leave the same sheet (a full row takes no cross), so the board
    offers one of them."""
    face = None if choice.extra is None else faces[choice.extra]
    column = choice.column if face is not None and sheet.column_of(face) is None else None
    return face, column, tuple(sorted(crossed_sums(sheet, [faces[a] + faces[b] for a, b in choice.pairs])))


def same_choice(session: GameSession, value: Any, step: Any) -> bool:
    """Whether the option `value` plays `step` (a hint): the board offers one choice per effect."""
    game = session.game
    if not isinstance(value, Choice) or not isinstance(step, Choice):
        return False
    sheet = game.sheets[game.undecided[0]]  # type: ignore[attr-defined]
    faces = game.faces or ()  # type: ignore[attr-defined]
    return effect(sheet, faces, value) == effect(sheet, faces, step)


def crossed_sums(sheet: Sheet, sums: list[int]) -> list[int]:
    """Those of `sums` that get a cross, in order (a full row takes none)."""
    added: Counter[int] = Counter()
    crossed = []
    for total in sums:
        if sheet.crosses_in(total) + added[total] < ROW_SIZES[total]:
            added[total] += 1
            crossed.append(total)
    return crossed


def label(sheet: Sheet, faces: tuple[int, ...], choice: Choice) -> str:
    """How a player says it: "4+6 x3", "4+6 x3>B" (new number into column B), "free: 7+9";
    a sum whose row is full (no cross) in brackets: "(4)+6 x3"."""
    sums = sorted(faces[a] + faces[b] for a, b in choice.pairs)
    crossed = Counter(crossed_sums(sheet, sums))
    parts = []
    for total in sums:
        if crossed[total]:
            crossed[total] -= 1
            parts.append(str(total))
        else:
            parts.append(f"({total})")
    pairs = "+".join(parts)
    if choice.extra is None:
        return f"free: {pairs}"
    face = faces[choice.extra]
    new = f">{COLUMN_NAMES[choice.column]}" if sheet.column_of(face) is None and choice.column is not None else ""
    return f"{pairs} x{face}{new}"


def options(app: App, session: GameSession) -> list[Option]:
    """One option per distinct effect, ordered by extra face, then sums, then column."""
    game: Extra = session.game  # type: ignore[assignment]
    sheet = game.sheets[game.undecided[0]]
    faces = game.faces or ()
    chosen: dict[tuple[Any, ...], Choice] = {}
    for choice in game.legal_decisions():
        chosen.setdefault(effect(sheet, faces, choice), choice)

    def order(item: tuple[tuple[Any, ...], Choice]) -> tuple[Any, ...]:
        (face, column, _), choice = item
        sums = sorted(faces[a] + faces[b] for a, b in choice.pairs)
        return (face or 0, sums, -1 if column is None else column)

    return [Option(label(sheet, faces, choice), choice) for _, choice in sorted(chosen.items(), key=order)]


# --- the sheet's geometry --------------------------------------------------------------------
@dataclass(frozen=True)
class SheetLayout:
    """Where everything of a sheet goes on a display of `width` × `height` (boxes are squares of
    `pitch - 1` pixels; EXTRA boxes are one pixel wider so their numbers centre)."""

    width: int
    height: int
    pitch: int
    top: int
    label_right: int
    wall_x: int
    factor_x: int
    score_right: int
    columns_x: tuple[int, ...]
    columns_top: int

    @property
    def box(self) -> int:
        return self.pitch - 1

    @property
    def text(self) -> bool:
        """Whether rows are tall enough for the 3×5 font (labels, scores, numbers)."""
        return self.pitch >= 5

    def row_y(self, total: int) -> int:
        return self.top + (total - 2) * self.pitch

    def row_box(self, total: int, index: int) -> tuple[int, int, int, int]:
        """Box `index` (0 = leftmost wall box) of row `total`; walls are right-aligned so the
        factor columns line up as on the paper sheet."""
        wall = WALLS[total]
        x = (self.wall_x + (MAX_WALL - wall + index) * self.pitch if index < wall
             else self.factor_x + (index - wall) * self.pitch)
        y = self.row_y(total)
        return x, y, x + self.box - 1, y + self.box - 1

    def column_box(self, column: int, index: int) -> tuple[int, int, int, int]:
        x = self.columns_x[column]
        y = self.columns_top + index * self.pitch
        return x, y, x + self.pitch - 1, y + self.box - 1

    @property
    def total_xy(self) -> tuple[int, int]:
        """Top-right corner of the total (right-aligned): below the EXTRA columns, level with
        row 12."""
        return self.columns_x[-1] + self.pitch - 1, min(self.row_y(12), self.height - 5)


def sheet_layout(width: int, height: int) -> SheetLayout:
    """The largest square boxes that fit both ways (5 px on a 128×64 display), the sheet centred
    across. The EXTRA columns start on the header line (their numbers beside the header) so
    their boxes line up with the rows; the total sits below them, level with row 12."""
    label_w = tiny_width("12") + 2
    score_w = 4 + tiny_width("-200")  # a row pointer, then the score
    fixed = label_w + 2 + 2 + score_w + 4
    by_width = (width - fixed) // (MAX_WALL + len(FACTORS) + len(COLUMN_SIZES))
    by_height = (height - HEADER) // len(SUMS)
    pitch = max(2, min(by_width, by_height))
    text = pitch >= 5
    natural = fixed + (MAX_WALL + len(FACTORS)) * pitch + len(COLUMN_SIZES) * (pitch + 1) - 1
    natural += min(max(0, width - natural), 12)  # air between the scores and the EXTRA table
    left = max(0, (width - natural) // 2)
    top = HEADER if text else height - len(SUMS) * pitch
    label_right = left + label_w - 2 if text else left - 1
    wall_x = label_right + 2
    factor_x = wall_x + MAX_WALL * pitch + 2
    score_right = factor_x + len(FACTORS) * pitch + 1 + score_w
    right = min(width - 1, left + natural - 1)
    columns_x = tuple(right - (len(COLUMN_SIZES) - c) * (pitch + 1) + 2 for c in range(len(COLUMN_SIZES)))
    return SheetLayout(width, height, pitch, top, label_right, wall_x, factor_x, score_right, columns_x, top)


# --- drawing -----------------------------------------------------------------------------------
@dataclass(frozen=True)
class SheetMarks:
    """Boxes drawn as a cross-to-be (PREVIEW): those the option under the cursor would cross, or
    (`made`) the last ones crossed, which the animation blinks."""

    rows: Counter[int] = field(default_factory=Counter)  # sum -> how many boxes
    column: int | None = None  # the EXTRA column getting (or that got) a number or a box
    made: bool = False
    number: int | None = None  # a new EXTRA number written in `column`
    cross: bool = True  # False: the new number is written without a cross (child seat)

    def row_range(self, total: int, crosses: int) -> range:
        count = self.rows[total]
        return range(crosses - count, crosses) if self.made else range(crosses, crosses + count)

    def column_index(self, crosses: int) -> int | None:
        if not self.cross:
            return None
        return crosses - 1 if self.made else crosses


def draw_box(canvas: Canvas, box: tuple[int, int, int, int], style: str) -> None:
    x0, y0, x1, y1 = box
    draw = canvas.draw
    if x1 - x0 < 2:  # tiny boxes: a lit pixel is a cross
        if style in (CROSSED, PREVIEW):
            draw.rectangle(box, fill=1)
        elif style != WALL:
            draw.point((x0, y0), fill=1)
        return
    if style == CROSSED:
        draw.rectangle(box, fill=1)
    elif style == EMPTY:
        draw.rectangle(box, outline=1)
    elif style == WALL:  # a penalty box: a dot (crossing it still scores -200)
        draw.rectangle(((x0 + x1) // 2, (y0 + y1) // 2, (x0 + x1 + 1) // 2, (y0 + y1 + 1) // 2), fill=1)
    elif style == END:  # the light-blue end box: an outline with a bar inside
        draw.rectangle(box, outline=1)
        draw.line((x0 + 2, (y0 + y1) // 2, x1 - 2, (y0 + y1 + 1) // 2), fill=1)
    elif style == PREVIEW:  # the cross to be made: an X
        draw.line((x0, y0, x1, y1), fill=1)
        draw.line((x0, y1, x1, y0), fill=1)


def tiny_label(canvas: Canvas, x: int, y: int, text: str, inverse: bool = False, tall: bool = False) -> None:
    """3×5 text; `inverse`: black on a white bar one pixel wider (`tall`: and higher)."""
    if inverse:
        canvas.draw.rectangle((x - 1, y - tall, x + tiny_width(text), y + 4 + tall), fill=1)
    canvas.tiny(x, y, text, fill=0 if inverse else 1)


def draw_sheet(canvas: Canvas, sheet: Sheet, marks: SheetMarks | None = None) -> SheetLayout:
    """The whole sheet below (and, for the EXTRA numbers, beside) the header; returns the layout
    used. `marks` boxes are drawn as crosses-to-be; a marked row gets a pointer and shows its
    score with them, a marked EXTRA column its number inverted."""
    layout = sheet_layout(canvas.width, canvas.height)
    marks = marks or SheetMarks()
    for total in SUMS:
        crosses = sheet.crosses_in(total)
        y = layout.row_y(total)
        marked = marks.row_range(total, crosses)
        if layout.text:
            text = str(total)
            canvas.tiny(layout.label_right - tiny_width(text) + 1, y, text)
            after = max(crosses, marked.stop)
            if after:  # a marked row shows its score with the marked crosses, behind a pointer
                score = str(row_score(total, after))
                canvas.tiny(layout.score_right - tiny_width(score) + 1, y, score)
            if marked:
                x = layout.factor_x + len(FACTORS) * layout.pitch + 1
                canvas.draw.polygon(((x, y + 2), (x + 2, y), (x + 2, y + 4)), fill=1)
        for index in range(ROW_SIZES[total]):
            style = (PREVIEW if index in marked else CROSSED if index < crosses
                     else WALL if index < WALLS[total] else EMPTY)
            draw_box(canvas, layout.row_box(total, index), style)
    for column, size in enumerate(COLUMN_SIZES):
        number = sheet.numbers[column]
        count = sheet.column_crosses[column]
        marked = column == marks.column
        if layout.text:
            shown = marks.number if marked and marks.number is not None else number
            text = COLUMN_NAMES[column] if shown is None else str(shown)
            tiny_label(canvas, layout.columns_x[column] + (layout.pitch - 3) // 2, layout.top - HEADER + 1, text,
                       inverse=marked, tall=True)
        for index in range(size):
            style = (PREVIEW if marked and index == marks.column_index(count)
                     else CROSSED if index < count else END if index == size - 1 else EMPTY)
            draw_box(canvas, layout.column_box(column, index), style)
    text = str(sheet.total)
    right, y = layout.total_xy
    if layout.text:
        canvas.draw.line((layout.columns_x[0], y - 2, right, y - 2), fill=1)
    canvas.draw.rectangle((right - tiny_width(text) - 1, y - 1, right, canvas.height - 1), fill=0)
    canvas.tiny(right - tiny_width(text) + 1, y, text)
    return layout


def marks_for(game: Extra, player: int, choice: Choice) -> SheetMarks:
    """The boxes `choice` would cross on `player`'s sheet (and the number it would write)."""
    sheet = game.sheets[player]
    faces = game.faces or ()
    crossed = crossed_sums(sheet, [faces[a] + faces[b] for a, b in choice.pairs])
    if choice.extra is None:
        return SheetMarks(Counter(crossed))
    face = faces[choice.extra]
    owned = sheet.column_of(face)
    if owned is not None:
        return SheetMarks(Counter(crossed), owned)
    return SheetMarks(Counter(crossed), choice.column, number=face, cross=not game.players[player].kids)


def draw_header(canvas: Canvas, left: str, dice: tuple[int, ...] | None, extra: int | None,
                right: str, limit: int, short: str = "") -> None:
    """One line of the 3×5 font left of x `limit`: who, the dice (the extra die inverted), what
    (`short` instead when `right` does not fit). The name gives way first: `right` is the
    option being chosen."""
    dice_w = 6 * len(dice) + 3 if dice else 0
    name = left[:8]

    def fits(text: str) -> bool:  # the header's last pixel stays left of `limit`
        return 4 * len(name) + 3 + dice_w + 3 + tiny_width(text) <= limit

    if short and not fits(right):
        right = short
    if not fits(right):
        name = name[: max(1, (limit - dice_w - 6 - tiny_width(right)) // 4)]
    x = canvas.tiny(0, 1, name) + 3
    if dice:
        for index, face in enumerate(dice):
            tiny_label(canvas, x, 1, str(face), inverse=index == extra, tall=True)
            x += 6
        x += 3
    if right:
        canvas.tiny(x + 3, 1, right[: max(0, (limit - x - 2) // 4)])


@dataclass
class SheetFrame(Frame):
    """An animation frame that also shows `player`'s sheet with `marks` and a header text."""

    player: int = 0
    marks: SheetMarks | None = None
    header: str = ""


def draw(canvas: Canvas, app: App, session: GameSession, play: PlayScreen) -> None:
    """The sheet of the player deciding (or animated, or flipped to), under a header line."""
    game: Extra = session.game  # type: ignore[assignment]
    names = [p.name for p in game.players]
    limit = sheet_layout(canvas.width, canvas.height).columns_x[0] - 3
    current = app.animation.current if app.animation is not None else None
    if isinstance(current, SheetFrame):
        draw_header(canvas, names[current.player], game.faces, None, current.header, limit)
        draw_sheet(canvas, game.sheets[current.player], current.marks)
        return
    pending = game.pending()
    if pending.kind not in (ROLL, DECISION) or pending.player is None:
        canvas.title("Game over")
        return
    home = pending.player
    shown = play.view if play.view is not None else home
    sheet = game.sheets[shown]
    if shown != home:  # flipping through the sheets
        state = "ended" if sheet.ended else "done" if pending.kind == DECISION and shown not in game.undecided else ""
        dice = game.faces if pending.kind == DECISION else None
        draw_header(canvas, names[shown], dice, None, f"{state} {shown + 1}/{len(names)}".strip(), limit)
        draw_sheet(canvas, sheet)
    elif pending.kind == ROLL:
        waits = app.bot_waits_for()  # a bot's physical dice: a person rolls them; "step" pace: OK
        waiting = ("OK: roll" if waits == "ok" else "press ROLL" if waits == "roll"
                   else "rolls..." if session.pending_bot() or app.animation is not None else "press ROLL")
        draw_header(canvas, names[shown], None, None, waiting, limit)
        draw_sheet(canvas, sheet)
    elif play.choice is None:  # a bot decides
        waiting = "OK: play" if app.bot_waits_for() == "ok" else "plays..."
        draw_header(canvas, names[shown], game.faces, None, waiting, limit)
        draw_sheet(canvas, sheet)
    else:
        option = play.choice.current
        choice: Choice = option.value
        draw_header(canvas, names[shown], game.faces, choice.extra, f"{option.label} {play.choice.position()}",
                    limit, option.label)
        draw_sheet(canvas, sheet, marks_for(game, shown, choice))


# --- LEDs --------------------------------------------------------------------------------------
def die_cells(die: int, face: int, colour: Colour, frame: dict[str, Any]) -> None:
    for pip in PIPS[face]:
        frame[f"dice.{die}.{pip}"] = colour


def scene(app: App, session: GameSession, frame: dict[str, Any]) -> None:
    """Dice: the roll being decided (the extra die of the option under the cursor in the
    decider's colour). Seats: the decider blinks, the roller (while a roll is pending) alternates
    with white, ended players dim."""
    game: Extra = session.game  # type: ignore[assignment]
    pending = game.pending()
    for player in range(len(game.players)):
        colour = app.colour_of(player)
        frame[f"seat.{player}"] = dim(colour) if game.sheets[player].ended else colour
    if pending.kind == ROLL and pending.player is not None:
        frame[f"seat.{pending.player}"] = [app.colour_of(pending.player), PIP]
        return
    if pending.kind != DECISION or pending.player is None or game.faces is None:
        return
    decider = pending.player
    frame[f"seat.{decider}"] = [app.colour_of(decider), OFF]
    for die, face in enumerate(game.faces):
        die_cells(die, face, PIP, frame)
    play = app.play_screen()
    if play is not None and play.choice is not None:
        choice = play.choice.current.value
        if isinstance(choice, Choice) and choice.extra is not None:
            die_cells(choice.extra, game.faces[choice.extra], app.colour_of(decider), frame)


def animation(app: App, session: GameSession, events: list[dict[str, Any]]) -> list[Frame]:
    """A decision: its new crosses blink on the player's sheet (cross-to-be, crossed) while the
    dice show the extra die in the player's colour; when a player's game ends their seat flashes."""
    game: Extra = session.game  # type: ignore[assignment]
    made = [e for e in events if e["kind"] in ("extra", "free_ride", "cross", "row_full")]
    if not made:
        return []  # a roll: the tumble has shown it
    player = made[0]["player"]
    colour = app.colour_of(player)
    pairs = sorted((e for e in made if e["kind"] in ("cross", "row_full")), key=lambda e: e["sum"])
    sums = "+".join(str(e["sum"]) if e["kind"] == "cross" else f"({e['sum']})" for e in pairs)
    leds: dict[str, Any] = {f"dice.{d}.{p}": OFF for d in range(5) for p in range(7)}
    for die, face in enumerate(game.faces or ()):
        die_cells(die, face, PIP, leds)
    leds[f"seat.{player}"] = colour
    header, column = f"free: {sums}", None
    for event in made:
        if event["kind"] == "extra":
            header = f"{sums} x{event['face']}"
            die_cells(event["die"], event["face"], colour, leds)
            column = event["column"] if event["crossed"] else None
    marks = SheetMarks(Counter(e["sum"] for e in made if e["kind"] == "cross"), column, made=True)
    frames: list[Frame] = [SheetFrame(0.2, leds, "", player, shown, header)
                           for shown in (marks, None, marks, None)]
    if any(e["kind"] == "ended" for e in events):
        frames += [SheetFrame(0.3, leds | {f"seat.{player}": lit}, "", player, None, "game ends")
                   for lit in (OFF, colour, OFF, colour)]
    return frames


def on_roll(app: App, session: GameSession, play: PlayScreen) -> None:
    """ROLL while a decision is pending: the next player's sheet (all of them, ended ones too);
    back at the decider's own sheet after a full round."""
    game: Extra = session.game  # type: ignore[assignment]
    pending = game.pending()
    if pending.player is None or len(game.players) < 2:
        return
    shown = play.view if play.view is not None else pending.player
    following = (shown + 1) % len(game.players)
    play.view = None if following == pending.player else following


# --- the result ----------------------------------------------------------------------------------
def result_lines(session: GameSession) -> list[str]:
    """Who won, then every total, best first (`*` marks winners; beyond four players two to a
    line, names cut to four letters)."""
    game: Extra = session.game  # type: ignore[assignment]
    result = game.result() or {"scores": [s.total for s in game.sheets], "winners": []}
    scores, winners = result["scores"], result["winners"]
    names = [p.name for p in game.players]
    if len(names) == 1:
        lines = [f"{names[0]}: {scores[0]}", "Won!" if winners else "Lost (below 0)"]
        if winners and is_solo_record(session):
            lines.append("New solo record!")
        return lines
    if len(winners) == 1:
        lines = [f"{names[winners[0]]} wins!"]
    else:
        lines = [" & ".join(names[w] for w in winners) + " share"]
    ranked = sorted(range(len(names)), key=lambda p: (-scores[p], p))
    if len(names) <= 4:
        return lines + [f"{'*' if p in winners else ' '}{names[p][:8]} {scores[p]}" for p in ranked]
    # two to a line, within 21 characters: "Fritz -2200 Anna -1010" would not fit
    entries = [f"{names[p][:4]} {scores[p]}" for p in ranked]
    return lines + [f"{a:<10} {b}".rstrip() for a, b in zip(entries[::2], entries[1::2] + [""])]


def is_solo_record(session: GameSession) -> bool:
    """Whether this finished solo game is the board's best solo total (the journal's)."""
    journal, game_id = session.journal, session.journal_id
    if journal is None or game_id is None:
        return False
    best = journal.solo_best(kids=session.game.players[0].kids)
    return best is not None and best.game_id == game_id
