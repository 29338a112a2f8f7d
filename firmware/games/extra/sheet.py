"""The EXTRA! sheet on the OLED: the whole sheet in a layout per size class, and the focus view.

Size classes: small (128×64) shows the whole sheet as one block of eleven rows on a 5-px pitch
with a purpose-made 3×4 digit font, so that row scores never touch their neighbours; wide
(256×64) splits the rows into two blocks side by side (2–7, 8–12) on a 9-px pitch with the 3×5
font; tall (128×128) has one block on a 9-px pitch and room for the option below. Every layout
has the factor values above the factor boxes, the EXTRA numbers above their columns and the
running total. On small displays the focus view (`draw_focus`) shows only what the option under
the cursor touches, large.

    >>> layout = sheet_layout(128, 64)
    >>> layout.size_class, layout.py, layout.row_box(11, 0)   # 4-px boxes every 5 px
    ('small', 5, (33, 51, 36, 54))
    >>> sheet_layout(256, 64).size_class, sheet_layout(128, 128).size_class
    ('wide', 'tall')
"""

from __future__ import annotations

from contextlib import nullcontext

from collections import Counter
from dataclasses import dataclass, field

from firmware.games.extra.rules import COLUMN_SIZES, FACTORS, ROW_SIZES, SUMS, WALLS, Sheet, row_score
from firmware.games.extra.text import COLUMN_NAMES, FREE_RIDE, part_text, part_words
from firmware.i18n import _, pgettext
from firmware.ui.kit import CHAR_WIDTH, Canvas, tiny_width

MAX_WALL = max(WALLS.values())

# Box styles on the drawn sheet.
EMPTY, WALL, CROSSED, PREVIEW, END = "empty", "wall", "crossed", "preview", "end"

# A 3×4 font for the small sheet: each glyph is four rows of three bits (bit 2 = left).
MICRO: dict[str, tuple[int, int, int, int]] = {
    "0": (0b111, 0b101, 0b101, 0b111),
    "1": (0b010, 0b110, 0b010, 0b111),
    "2": (0b110, 0b001, 0b010, 0b111),
    "3": (0b111, 0b011, 0b001, 0b111),
    "4": (0b101, 0b101, 0b111, 0b001),
    "5": (0b111, 0b110, 0b001, 0b110),
    "6": (0b100, 0b111, 0b101, 0b111),
    "7": (0b111, 0b001, 0b010, 0b010),
    "8": (0b111, 0b111, 0b101, 0b111),
    "9": (0b111, 0b101, 0b111, 0b001),
    "-": (0b000, 0b111, 0b000, 0b000),
    "+": (0b010, 0b111, 0b010, 0b000),
    "A": (0b010, 0b101, 0b111, 0b101),
    "B": (0b110, 0b111, 0b101, 0b110),
    "C": (0b111, 0b100, 0b100, 0b111),
    " ": (0, 0, 0, 0),
}


def micro(canvas: Canvas, x: int, y: int, text: str, fill: int = 1) -> int:
    """Draw `text` in the 3×4 font (digits, - + A B C); returns the x after it."""
    canvas.texts.append(text)
    for char in text:
        for dy, bits in enumerate(MICRO.get(char, MICRO[" "])):
            for dx in range(3):
                if bits >> (2 - dx) & 1:
                    canvas.draw.point((x + dx, y + dy), fill=fill)
        x += 4
    return x


@dataclass(frozen=True)
class Font:
    """A small font of the sheet: its glyph height and how it draws."""

    name: str  # "micro" (3×4) or "tiny" (3×5)
    height: int

    def width(self, text: str) -> int:
        return tiny_width(text)

    def write(self, canvas: Canvas, x: int, y: int, text: str, fill: int = 1) -> int:
        if self.name == "micro":
            return micro(canvas, x, y, text, fill)
        return canvas.tiny(x, y, text, fill)


MICRO_FONT, TINY_FONT = Font("micro", 4), Font("tiny", 5)


@dataclass(frozen=True)
class Block:
    """Rows `sums` drawn one under another from x `left`."""

    sums: tuple[int, ...]
    left: int
    label_right: int
    wall_x: int
    factor_x: int
    score_right: int


@dataclass(frozen=True)
class SheetLayout:
    """Where everything of a sheet goes on a display of `width` × `height`: boxes every `px`
    across, rows every `py` down, in one or two `blocks`; `font` None when rows are too low for
    text (tiny displays)."""

    width: int
    height: int
    size_class: str
    px: int
    py: int
    top: int
    font: Font | None
    blocks: tuple[Block, ...]
    columns_x: tuple[int, ...]
    column_pitch: int
    total_xy: tuple[int, int]  # top-right corner of the total (right-aligned)
    below: int  # first y below the sheet (the option line on tall displays)
    box_w: int = field(init=False)
    box_h: int = field(init=False)

    def __post_init__(self) -> None:
        object.__setattr__(self, "box_w", self.px - 1)
        object.__setattr__(self, "box_h", max(1, min(self.py - 1, self.px + 1)))

    @property
    def text(self) -> bool:
        return self.font is not None

    def block_of(self, total: int) -> Block:
        return next(block for block in self.blocks if total in block.sums)

    def row_y(self, total: int) -> int:
        """Top of row `total`'s boxes."""
        return self.top + self.block_of(total).sums.index(total) * self.py

    def text_y(self, total: int) -> int:
        """Top of row `total`'s label and score, centred on its boxes."""
        height = self.font.height if self.font else 0
        return self.row_y(total) + (self.box_h - height + 1) // 2

    def score_right(self, total: int) -> int:
        return self.block_of(total).score_right

    def row_box(self, total: int, index: int) -> tuple[int, int, int, int]:
        """Box `index` (0 = leftmost wall box) of row `total`; walls are right-aligned so the
        factor boxes line up as on the paper sheet."""
        block, wall = self.block_of(total), WALLS[total]
        x = (
            block.wall_x + (MAX_WALL - wall + index) * self.px
            if index < wall
            else block.factor_x + (index - wall) * self.px
        )
        y = self.row_y(total)
        return x, y, x + self.box_w - 1, y + self.box_h - 1

    def column_box(self, column: int, index: int) -> tuple[int, int, int, int]:
        x = self.columns_x[column]
        y = self.top + index * self.column_pitch
        return x, y, x + self.px - 1, y + min(self.box_h, self.column_pitch - 1) - 1


def size_class(width: int, height: int) -> str:
    """small (128×64 and the like), wide (256×64: two blocks of rows) or tall (128×128)."""
    if height >= 96:
        return "tall"
    return "wide" if width >= 192 else "small"


def sheet_layout(width: int, height: int) -> SheetLayout:
    """The layout of the display's size class, boxes as large as fit (see the module doc)."""
    kind = size_class(width, height)
    blocks = ((2, 3, 4, 5, 6, 7), (8, 9, 10, 11, 12)) if kind == "wide" else (tuple(SUMS),)
    rows = max(len(b) for b in blocks)
    option_h = 22 if kind == "tall" else 0  # two lines of the 6×11 font for the option
    py = (height - 6 - option_h) // rows
    font = TINY_FONT if py >= 7 else MICRO_FONT if py >= 5 else None
    top = font.height + 2 if font is not None else 0
    py = max(2, min(9, (height - top - option_h) // rows))
    label_w = tiny_width("12") + 2 if font else 0
    score_w = tiny_width("-200") if font else 0
    # per block: label, 2 px, walls, 2 px, factors, 2 px, score; then 2 px, the EXTRA columns
    fixed = len(blocks) * (label_w + 3 + 2 + 2 + score_w) + 3 * (len(blocks) - 1) + 2 + 3
    px = max(2, min(py, (width - fixed) // (len(blocks) * (MAX_WALL + len(FACTORS)) + len(COLUMN_SIZES))))
    block_w = label_w + 3 + (MAX_WALL + len(FACTORS)) * px + 2 + 2 + score_w
    natural = len(blocks) * block_w + 3 * (len(blocks) - 1) + 2 + len(COLUMN_SIZES) * (px + 1)
    air = max(0, width - natural)
    gap = min(air // (len(blocks) + 1), 10)  # between the scores and what follows
    left = max(0, (width - natural - gap * len(blocks)) // 2)
    made = []
    x = left
    for sums in blocks:
        label_right = x + label_w - 2 if font else x - 1
        wall_x = label_right + 3
        factor_x = wall_x + MAX_WALL * px + 2
        score_right = factor_x + len(FACTORS) * px + 1 + score_w
        made.append(Block(sums, x, label_right, wall_x, factor_x, score_right))
        x = score_right + 3 + gap
    columns_x = tuple(x + c * (px + 1) for c in range(len(COLUMN_SIZES)))
    right = columns_x[-1] + px - 1
    text_h = font.height if font else 5
    if kind == "wide":  # the total in block two's free row slot
        column_pitch = max(2, min(py, (height - top) // max(COLUMN_SIZES)))
        total_xy = (made[-1].score_right, top + len(blocks[-1]) * py + 1)
    else:
        bottom = top + rows * py
        column_pitch = max(2, min(py, (bottom - top - text_h - 3) // max(COLUMN_SIZES)))
        total_xy = (right, min(bottom - text_h, height - text_h))
    return SheetLayout(
        width, height, kind, px, py, top, font, tuple(made), columns_x, column_pitch, total_xy, top + rows * py
    )


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


def inverted(canvas: Canvas, font: Font, x: int, y: int, text: str) -> None:
    """Black `text` on a white bar one pixel larger all round."""
    canvas.draw.rectangle((x - 1, y - 1, x + font.width(text), y + font.height), fill=1)
    font.write(canvas, x, y, text, fill=0)


def draw_sheet(canvas: Canvas, sheet: Sheet, marks: SheetMarks | None = None, name: str = "") -> SheetLayout:
    """The whole sheet (with `name` in the header when there is room); returns the layout used.
    `marks` boxes are drawn as crosses-to-be; a marked row shows its score with them, inverted,
    a marked EXTRA column its number inverted."""
    layout = sheet_layout(canvas.width, canvas.height)
    marks = marks or SheetMarks()
    font = layout.font
    if font is not None:
        for block in layout.blocks:  # the factor values above the factor boxes
            for index, factor in enumerate(FACTORS):
                x = block.factor_x + index * layout.px + (layout.box_w - 3) // 2
                font.write(canvas, x, 0, str(factor))
        if name:
            first = layout.blocks[0]
            room = (first.factor_x - 2) // 4  # as header_room: 4n - 1 px, 2 px clear of the factors
            with canvas.asking():  # whose sheet, and (on the play screen) what they are asked
                canvas.tiny(0, 0, name[: max(0, room)])
    for block in layout.blocks[1:]:  # a rule between blocks: their scores and labels stay apart
        x = block.left - 2 - (block.left - layout.blocks[0].score_right - 3) // 2
        canvas.draw.line((x, layout.top, x, layout.below - 2), fill=1)
    for total in SUMS:
        crosses = sheet.crosses_in(total)
        marked = marks.row_range(total, crosses)
        if font is not None:
            y = layout.text_y(total)
            block = layout.block_of(total)
            text = str(total)
            font.write(canvas, block.label_right - font.width(text) + 1, y, text)
            after = max(crosses, marked.stop)
            if after:  # a marked row shows its score with the marked crosses, inverted
                score = str(row_score(total, after))
                x = block.score_right - font.width(score) + 1
                if marked:
                    inverted(canvas, font, x, y, score)
                else:
                    font.write(canvas, x, y, score)
        for index in range(ROW_SIZES[total]):
            style = (
                PREVIEW if index in marked else CROSSED if index < crosses else WALL if index < WALLS[total] else EMPTY
            )
            draw_box(canvas, layout.row_box(total, index), style)
    for column, size in enumerate(COLUMN_SIZES):
        number = sheet.numbers[column]
        count = sheet.column_crosses[column]
        marked_column = column == marks.column
        if font is not None:
            shown = marks.number if marked_column and marks.number is not None else number
            text = COLUMN_NAMES[column] if shown is None else str(shown)
            x = layout.columns_x[column] + (layout.px - 3) // 2
            if marked_column:
                inverted(canvas, font, x, 0, text)
            else:
                font.write(canvas, x, 0, text)
        for index in range(size):
            style = (
                PREVIEW
                if marked_column and index == marks.column_index(count)
                else CROSSED
                if index < count
                else END
                if index == size - 1
                else EMPTY
            )
            draw_box(canvas, layout.column_box(column, index), style)
    text = str(sheet.total)
    right, y = layout.total_xy
    total_font = font or TINY_FONT
    width = total_font.width(text)
    canvas.draw.rectangle((right - width - 1, y - 2, right, min(canvas.height - 1, y + total_font.height)), fill=0)
    if font is not None:  # a rule above the total, as under a sum
        canvas.draw.line((right - max(width, 3 * layout.px) + 1, y - 2, right, y - 2), fill=1)
    total_font.write(canvas, right - width + 1, y, text)
    if layout.size_class == "wide" and font is not None:
        # Block two's free row slot, left of the total: the help layer's place (its header holds
        # the factor and column labels, which a banner there would cover).
        last = layout.blocks[-1]
        top = layout.row_y(last.sums[-1]) + layout.box_h + 1
        rule_left = right - max(width, 3 * layout.px) + 1
        canvas.spare = (last.left, top, min(right - width - 1, rule_left) - 3, canvas.height - 1)
    return layout


# --- the focus view ------------------------------------------------------------------------------
FOCUS_LINE = 12  # px per line of the focus view: the 6×11 font and boxes 7 px high


@dataclass(frozen=True)
class FocusGeometry:
    """Where the focus view puts a row of boxes: label right edge, first box, pitch, score."""

    label_right: int
    wall_x: int
    px: int
    score_right: int

    def box(self, line_y: int, index: int, wall: int) -> tuple[int, int, int, int]:
        """Box `index` of a row with `wall` wall boxes (walls right-aligned as on the sheet)."""
        x = self.wall_x + (MAX_WALL - wall + index) * self.px + (2 if index >= wall else 0)
        return x, line_y + 2, x + self.px - 2, line_y + 8


def focus_geometry(width: int) -> FocusGeometry:
    score_w = 4 * CHAR_WIDTH  # "+260", "-200"
    label_w = 2 * CHAR_WIDTH
    px = max(3, (width - label_w - 2 - 2 - 3 - score_w) // (MAX_WALL + len(FACTORS)))
    return FocusGeometry(label_w - 1, label_w + 2, px, width - 1)


def draw_focus(
    canvas: Canvas, sheet: Sheet, marks: SheetMarks, parts: list[str], stage: int | None, right: str, who: str = ""
) -> None:
    """What the option under the cursor touches, large: line 0 the option's parts (the one
    LEFT/RIGHT change now inverted) and `right` (e.g. "2/3"); then each row it crosses with its
    crosses before (filled) and to be made (X) and the row's score change; the EXTRA column
    getting a number or a cross; the total before and after, beside `who` (whose sheet it is,
    the player deciding) where that fits, else under the rows.

    `marks.made`: the crosses are already on `sheet` (the animation of a decision)."""

    def width(texts: list[str]) -> int:
        return sum(len(t) + 1 for t in texts if t) * CHAR_WIDTH + len(right) * CHAR_WIDTH

    marks_only = [part_text(part) for part in parts]
    # the part being chosen in plain words ("column B") where the line has room for them
    worded = [part_words(part) if index == stage else text for index, (part, text) in enumerate(zip(parts, marks_only))]
    parts = worded if width(worded) <= canvas.width else marks_only
    if width(parts) > canvas.width:  # "free ride (10)+(12) 1/4" would run into its position
        parts = [part_text(FREE_RIDE, short=True) if part == part_text(FREE_RIDE) else part for part in parts]
    if width(parts) > canvas.width:
        right = ""
    x = 0
    for index, part in enumerate(parts):
        if not part:
            continue
        part_width = len(part) * CHAR_WIDTH
        if index == stage:
            canvas.draw.rectangle((x, 0, x + part_width + 1, FOCUS_LINE - 2), fill=1)
        with canvas.asking():  # what the player is asked
            canvas.text(x + 1, 1, part, fill=0 if index == stage else 1)
        x += part_width + CHAR_WIDTH
    if right:
        canvas.text(canvas.width - len(right) * CHAR_WIDTH, 1, right)
    geometry = focus_geometry(canvas.width)
    line = 1
    before_total = after_total = sheet.total
    rows = sorted(total for total in marks.rows if marks.rows[total])
    for total in rows:
        y = line * FOCUS_LINE
        crosses = sheet.crosses_in(total)
        marked = marks.row_range(total, crosses)
        before, after = (marked.start, crosses) if marks.made else (crosses, marked.stop)
        change = row_score(total, after) - row_score(total, before)
        if marks.made:
            before_total -= change
        else:
            after_total += change
        text = str(total)
        canvas.text(geometry.label_right - len(text) * CHAR_WIDTH + 1, y + 1, text)
        for index in range(ROW_SIZES[total]):
            style = (
                PREVIEW if index in marked else CROSSED if index < crosses else WALL if index < WALLS[total] else EMPTY
            )
            draw_box(canvas, geometry.box(y, index, WALLS[total]), style)
        score = f"{change:+d}" if change else "0"
        canvas.text(geometry.score_right - len(score) * CHAR_WIDTH + 1, y + 1, score)
        line += 1
    if not rows:
        canvas.text(0, line * FOCUS_LINE + 1, _("no row takes a cross"))
        line += 1
    if marks.column is not None:
        y = line * FOCUS_LINE
        column = marks.column
        count = sheet.column_crosses[column]
        number = marks.number if marks.number is not None else sheet.numbers[column]
        head = f"{COLUMN_NAMES[column]}{number if number is not None else ''}"
        canvas.text(0, y + 1, head)
        index_marked = marks.column_index(count)
        left = len(head) * CHAR_WIDTH + 3
        pitch = min(geometry.px, (canvas.width - left - 3 * CHAR_WIDTH) // COLUMN_SIZES[column])
        for index in range(COLUMN_SIZES[column]):
            style = (
                PREVIEW
                if index == index_marked
                else CROSSED
                if index < count
                else END
                if index == COLUMN_SIZES[column] - 1
                else EMPTY
            )
            x0 = left + index * pitch
            draw_box(canvas, (x0, y + 2, x0 + pitch - 2, y + 8), style)
        # Translators: EXTRA!: right of a column's boxes: its last box gets the cross; at most 3 letters.
        note = (
            pgettext("EXTRA! column", "end")
            if index_marked == COLUMN_SIZES[column] - 1
            # Translators: EXTRA!: right of a column's boxes: a new number goes in; at most 3 letters.
            else pgettext("EXTRA! column", "new")
            if marks.number is not None and not marks.cross
            else ""
        )
        if note:
            canvas.text(canvas.width - len(note) * CHAR_WIDTH, y + 1, note)
        line += 1
    y = max(line * FOCUS_LINE, canvas.height - FOCUS_LINE)
    totals = f"{before_total} > {after_total}"
    # Translators: EXTRA!: the sheet's total before and after the option, "total  120 > 180".
    word = _("total")
    if (len(word) + len(totals) + 1) * CHAR_WIDTH > canvas.width:  # "-1000 > -1400": the numbers first
        totals = f"{before_total}>{after_total}"
    if who and (len(who) + len(totals) + 1) * CHAR_WIDTH <= canvas.width:
        word = who  # whose total: the player deciding
    elif who and (line + 1) * FOCUS_LINE <= y:  # a line of its own above the totals
        with canvas.asking():
            canvas.text(0, line * FOCUS_LINE + 1, who)
    elif who:  # no line to spare: the whole name and the total after the option
        word, totals = who, str(after_total)
    if (len(word) + len(totals) + 1) * CHAR_WIDTH <= canvas.width:
        with canvas.asking() if word == who else nullcontext():
            canvas.text(0, y + 1, word)
    canvas.text(canvas.width - len(totals) * CHAR_WIDTH, y + 1, totals)
