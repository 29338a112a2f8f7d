"""OLED drawing: a Canvas of the panel's real size, its size class, the bitmap fonts
(firmware/ui/fonts/), and a record of every text drawn (its box, for the fit test).

Size classes: "small" = 128×64, "wide" = 256×64, "tall" = 128×128; other panels get the nearest
(`size_class`). Each class has a body font: `Canvas.line`, `title`, `lines`, `columns` and
`line_height` use it, so a screen written with them adapts; `Canvas.text(x, y, ...)` places text
by pixels, in the small font unless told (LINE_HEIGHT, CHAR_WIDTH are its metrics). Greyscale panels may show secondary text
in grey (`secondary=True`; lit on 1-bit panels).

>>> canvas = Canvas((128, 128))
>>> canvas.size_class, canvas.line_height, canvas.lines, canvas.columns
('tall', 15, 8, 16)
>>> canvas.title("Settings"); canvas.line(1, "Sound: on")
>>> [box.text for box in canvas.boxes], problems(canvas)
(['Settings', 'Sound: on'], [])
"""

from __future__ import annotations

import re
from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass
from functools import lru_cache

from PIL import Image, ImageChops, ImageDraw, ImageFilter

from firmware.ui.fonts import BitmapFont, font as load_font

# The small font's metrics: screens that place text by pixels on 128×64 use them.
LINE_HEIGHT = 10  # the small font's line pitch
CHAR_WIDTH = 6  # the small font's advance

SIZE_CLASSES = {"small": (128, 64), "wide": (256, 64), "tall": (128, 128)}
BODY_FONT = {"small": "small", "wide": "small", "tall": "large"}
GREY = 96  # secondary text on a greyscale panel (of 255)
CLIP_MARK = "~"

Box = tuple[int, int, int, int]  # (x0, y0, x1, y1), inclusive


def size_class(size: tuple[int, int]) -> str:
    """The layout class for a panel of `size`: "tall" from 96 rows, else "wide" from 192 columns,
    else "small" (also for panels smaller than 128×64).

    >>> size_class((128, 64)), size_class((256, 64)), size_class((128, 128)), size_class((96, 16))
    ('small', 'wide', 'tall', 'small')
    """
    width, height = size
    if height >= 96:
        return "tall"
    return "wide" if width >= 192 else "small"


def font(name: str = "small") -> BitmapFont:
    """A bitmap font by name ("small", "large")."""
    return load_font(name)


@dataclass
class TextBox:
    """One text drawn: `box` = what its lit pixels cover (None if blank), `region` = where it was
    meant to stay, `clipped` = shortened with "~", `critical` = a title or number (clipping it is
    a failure), `hidden` = drawn over later (a banner covered it)."""

    text: str
    box: Box | None
    region: Box
    font: str
    clipped: bool = False
    critical: bool = False
    hidden: bool = False
    ask: bool = False  # part of who is asked and what (drawn in `Canvas.asking`): nothing may cover it
    ink: tuple[int, int, Image.Image] | None = None  # (x, y, mask): its lit pixels, for `touching`


class Canvas:
    """A fresh black image of the display's size, with text-line helpers and text boxes."""

    def __init__(self, size: tuple[int, int]) -> None:
        self.image = Image.new("1", size, 0)
        self.draw = ImageDraw.Draw(self.image)
        self.width, self.height = size
        self.size_class = size_class(size)
        self.body = load_font(BODY_FONT[self.size_class])
        self.texts: list[str] = []  # what was written, for scenario expectations on the display
        self.boxes: list[TextBox] = []
        self._grey: Image.Image | None = None  # secondary text's pixels, grey on greyscale panels
        self._asking = 0  # inside `asking()`: the texts drawn say who is asked and what
        # Room the screen leaves empty for the help layer's texts (the explanation, the tip, the
        # legend) where its top line is no place for them: EXTRA!'s wide sheet, whose header
        # holds the column labels. None: the help layer finds its own place.
        self.spare: Box | None = None

    # --- metrics -------------------------------------------------------------------------------
    @property
    def line_height(self) -> int:
        return self.body.line_height

    @property
    def lines(self) -> int:
        return self.height // self.line_height

    @property
    def columns(self) -> int:
        return self.width // self.body.advance

    def font(self, name: str | None = None) -> BitmapFont:
        """The named font ("small", "large"), or the body font of this canvas's size class."""
        return self.body if name is None else load_font(name)

    def measure(self, text: str, font: str | None = None) -> int:
        """The width of `text` in pixels in the named (or the body) font."""
        return self.font(font).width(text)

    def columns_in(self, width: int, font: str | None = None) -> int:
        """How many characters of the named (or the body) font fit in `width` pixels."""
        return max(0, width // self.font(font).advance)

    @contextmanager
    def asking(self) -> Iterator[None]:
        """The texts drawn inside say who is asked and what ("Red: press ROLL", a decider's name
        and option): banners, legends and notes keep clear of them (`asks`), the fit test checks."""
        self._asking += 1
        try:
            yield
        finally:
            self._asking -= 1

    def asks(self) -> list[TextBox]:
        return [box for box in self.boxes if box.ask and box.box is not None]

    def free_rows(self) -> list[int]:
        """The body font's text lines no `asks` text touches (where a banner may go)."""
        pitch = self.line_height
        boxes = [box.box for box in self.asks() if box.box is not None]
        taken = {
            row
            for top, bottom in ((b[1], b[3]) for b in boxes)
            for row in range(self.lines)
            if top <= (row + 1) * pitch - 1 and row * pitch <= bottom
        }
        return [row for row in range(self.lines) if row not in taken]

    # --- drawing -------------------------------------------------------------------------------
    def text(
        self,
        x: int,
        y: int,
        text: str,
        fill: int = 1,
        *,
        font: str = "small",
        region: Box | None = None,
        critical: bool = False,
        secondary: bool = False,
    ) -> TextBox:
        """Draw `text` with its line's top at y in the named font (the small one unless told:
        screens placing text by pixels use LINE_HEIGHT and CHAR_WIDTH); records its box.
        `region` = where it must stay (default: the canvas), `critical` = a title or number that
        must never be clipped, `secondary` = grey on greyscale panels."""
        face = self.font(font)
        self.texts.append(text)
        face.draw(self.image, x, y, text, fill)
        if secondary and fill:
            if self._grey is None:
                self._grey = Image.new("1", self.image.size, 0)
            face.draw(self._grey, x, y, text, 1)
        record = TextBox(
            text,
            face.ink_box(x, y, text),
            region or (0, 0, self.width - 1, self.height - 1),
            face.name,
            clipped=text.endswith(CLIP_MARK) and len(text) > 1,
            critical=critical or is_number(text.removesuffix(CLIP_MARK)),
            ink=(x, y + face.top, face.mask(text)),
            ask=self._asking > 0,
        )
        self.boxes.append(record)
        return record

    def line(
        self,
        row: int,
        text: str,
        *,
        inverse: bool = False,
        align: str = "left",
        critical: bool = False,
        secondary: bool = False,
    ) -> None:
        """Text on line `row` (0 = top); `inverse` = white bar, black text. Too long for the body
        font, it takes the small one on the same baseline (the tall panel's large font); clipped
        to the width only if even that is too narrow.

        >>> canvas = Canvas((128, 128))
        >>> canvas.line(7, "tiles left: 15 12 9"); canvas.boxes[0].font, canvas.boxes[0].clipped
        ('small', False)
        """
        face = self.body
        if len(text) > self.columns and face.name != "small":
            face = load_font("small")
        shown = clip(text, self.width // face.advance)
        self._line(row, shown, inverse, align, critical, secondary, shown != text, face.name)

    def block(self, last: int, text: str, *, rows: int = 2, inverse: bool = False) -> int:
        """`text` on line `last`, or word-wrapped onto the lines above it too (at most `rows`,
        over what was drawn there) where one line cannot hold it: a long prompt or option stays
        whole. Returns the first line used.

        >>> canvas = Canvas((128, 64))
        >>> canvas.block(5, "Roll for Green: press ROLL"), [box.text for box in canvas.boxes]
        (4, ['Roll for Green: press', 'ROLL'])
        """
        lines = self.wrapped(text, rows)
        first = last - len(lines) + 1
        if len(lines) > 1:
            self.cover((0, first * self.line_height, self.width - 1, (last + 1) * self.line_height - 1))
        for row, line in enumerate(lines, start=first):
            self.line(row, line, inverse=inverse)
        return first

    def wrapped(self, text: str, rows: int = 2) -> list[str]:
        """The lines `block` draws `text` on: one if it fits, else word-wrapped to the body
        font's width (the small font's if that needs more than `rows` lines), at most `rows`."""
        lines = [text] if self.fits(text) else wrap(text, self.columns)
        if len(lines) > rows and self.body.name != "small":
            lines = wrap(text, self.width // load_font("small").advance)  # `line` takes the small font
        if len(lines) > rows:
            lines = lines[: rows - 1] + [" ".join(lines[rows - 1 :])]  # clipped: a failure the fit test shows
        return lines

    def fits(self, text: str, font: str | None = None) -> bool:
        """True if `text` fits the canvas's width in one line: the body font, else the small one
        (what `line` falls back to)."""
        return self.measure(text, font) <= self.width or font is None and self.measure(text, "small") <= self.width

    def _line(
        self,
        row: int,
        text: str,
        inverse: bool,
        align: str,
        critical: bool,
        secondary: bool,
        clipped: bool,
        font: str | None = None,
    ) -> None:
        y = row * self.line_height
        face = self.font(font)
        width = face.width(text)
        x = {"left": 0, "center": (self.width - width) // 2, "right": self.width - width}[align]
        if inverse:
            self.cover((0, y, self.width - 1, y + self.line_height - 1), fill=1)
        region = (0, y + self.body.top, self.width - 1, y + self.body.top + self.body.cell[1] - 1)
        dy = self.body.baseline - face.baseline + self.body.top - face.top  # baselines level
        record = self.text(
            x,
            y + dy,
            text,
            fill=0 if inverse else 1,
            font=face.name,
            region=region,
            critical=critical,
            secondary=secondary,
        )
        record.clipped = record.clipped or clipped

    def title(self, text: str, right: str = "") -> None:
        """The top line, underlined, with an optional right-aligned note (in grey on greyscale
        panels). Where the body font is large and they do not fit, they are drawn in the small
        font; then the title is abbreviated beside the note (`abbreviate`: words cut to stems,
        a deliberate fit), clipped with "~" only if even that does not fit.

        >>> canvas = Canvas((128, 64))
        >>> canvas.title("Operator settings and games", "2/5"); canvas.boxes[0].text
        'Op. set. and gam.'
        """
        face = self.body
        if face.width(f"{text} {right}".strip()) > self.width:
            face = load_font("small")
        columns = self.width // face.advance
        shown = abbreviate(text, columns - (len(right) + 1 if right else 0))
        y = (self.line_height - face.line_height) // 2
        region = (0, y + face.top, self.width - 1, y + face.top + face.cell[1] - 1)
        record = self.text(0, y, shown, font=face.name, region=region, critical=True)
        record.clipped = shown.endswith(CLIP_MARK) and not text.endswith(CLIP_MARK)
        if right:
            self.text(self.width - face.width(right), y, right, font=face.name, region=region, secondary=True)
        self.draw.line((0, self.line_height - 1, self.width - 1, self.line_height - 1), fill=1)

    def footer(self, lines: Sequence[str | Sequence[str]]) -> int:
        """Help lines at the bottom in the small font (grey on greyscale panels); returns the y
        they start at (what is above is the screen's). A line may be given as alternatives,
        longest first: the first that fits is shown (e.g. the help, then its "<> OK" form).

        >>> Canvas((128, 64)).footer([("<> choose an option  OK do it", "<> OK")])
        54
        """
        face = load_font("small")
        y = self.height - len(lines) * face.line_height
        for index, given in enumerate(lines):
            forms = [given] if isinstance(given, str) else list(given)
            text = next((t for t in forms if face.width(t) <= self.width), forms[-1])
            top = y + index * face.line_height
            shown = clip(text, self.width // face.advance)
            record = self.text(
                0,
                top,
                shown,
                font=face.name,
                secondary=True,
                region=(0, top + face.top, self.width - 1, top + face.top + face.cell[1] - 1),
            )
            record.clipped = record.clipped or shown != text
        return y

    def tiny(self, x: int, y: int, text: str, fill: int = 1) -> int:
        """Draw with the 3×5 font; returns the x after the text."""
        self.texts.append(text)
        start = x
        mask = Image.new("1", (max(1, tiny_width(text)), 5), 0)
        for index, char in enumerate(text):
            for dx, column in enumerate(tiny_glyph(char)):
                for dy in range(5):
                    if column >> (dy + 1) & 1:  # TINY_FONT rows are bits 1-5
                        self.draw.point((x + dx, y + dy), fill=fill)
                        mask.putpixel((index * 4 + dx, dy), 1)
            x += 4
        if text:
            self.boxes.append(
                TextBox(
                    text,
                    (start, y, start + tiny_width(text) - 1, y + 4),
                    (0, 0, self.width - 1, self.height - 1),
                    "tiny",
                    clipped=text.endswith(CLIP_MARK) and len(text) > 1,
                    critical=is_number(text),
                    ink=(start, y, mask),
                    ask=self._asking > 0,
                )
            )
        return x

    def fit(
        self,
        box: Box,
        text: str,
        *,
        fonts: Sequence[str] = ("large", "small"),
        align: str = "left",
        fill: int = 1,
        critical: bool = False,
        secondary: bool = False,
    ) -> TextBox:
        """Draw `text` inside `box` (x0, y0, x1, y1): in the first of `fonts` it fits in whole,
        else abbreviated in the last, else clipped with "~" (recorded as clipped). Vertically
        centred in the box.

        >>> canvas = Canvas((128, 64))
        >>> canvas.fit((0, 0, 127, 20), "Abandon game?").font
        'large'
        >>> canvas.fit((0, 30, 47, 45), "Operator settings").text
        'Op. set.'
        """
        x0, y0, x1, y1 = box
        width = x1 - x0 + 1
        candidates = [load_font(name) for name in fonts]
        fitting = [f for f in candidates if f.line_height <= y1 - y0 + 1] or candidates[-1:]
        face = next((f for f in fitting if f.width(text) <= width), fitting[-1])
        shown = text if face.width(text) <= width else abbreviate(text, width // face.advance)
        clipped = shown.endswith(CLIP_MARK) and not text.endswith(CLIP_MARK)
        offset = {"left": 0, "center": (width - face.width(shown)) // 2, "right": width - face.width(shown)}[align]
        y = y0 + max(0, (y1 - y0 + 1 - face.line_height) // 2) - min(0, face.top)
        record = self.text(
            x0 + offset, y, shown, fill, font=face.name, region=box, critical=critical, secondary=secondary
        )
        record.clipped = clipped
        return record

    def cover(self, box: Box, fill: int = 0) -> None:
        """Fill `box` (a banner, a bar), hiding the texts drawn there before."""
        self.draw.rectangle(box, fill=fill)
        if self._grey is not None:
            self._grey.paste(0, box)
        for record in self.boxes:
            if record.box is not None and _touch(record.box, box, gap=0):
                record.hidden = True

    def result(self, mode: str = "1") -> Image.Image:
        """The finished image in `mode`: "1", or "L" with secondary text in grey."""
        if mode == "1":
            return self.image
        image = self.image.convert("L")
        if self._grey is not None:
            lit = Image.new("1", self.image.size, 0)
            lit.paste(self.image, mask=self._grey)  # grey only where the text still shows
            image.paste(GREY, mask=lit)
        return image if mode == "L" else image.convert(mode)


def caption(canvas: Canvas, text: str) -> None:
    """An animation's caption: the bottom line, inverse, over whatever the screen drew there;
    a caption too long for it takes the lines above too (word-wrapped, at most all but the title)."""
    last = (canvas.height - canvas.line_height) // canvas.line_height
    canvas.cover((0, max(0, canvas.height - canvas.line_height - 1), canvas.width - 1, canvas.height - 1))
    canvas.block(last, text, rows=max(1, canvas.lines - 1), inverse=True)


def banner(canvas: Canvas, note: str) -> None:
    """A note over the bottom of the screen: inverse lines, word-wrapped, at most all lines but
    the title's and one more (the rest is clipped: notes are short)."""
    lines = wrap(note, canvas.columns)
    room = max(1, canvas.lines - 2)
    if len(lines) > room:
        lines = lines[: room - 1] + [clip(" ".join(lines[room - 1 :]), canvas.columns)]
    # Never over the lines that say who is asked and what: on the lowest rows free of them, in
    # order (a long note on a small display goes on above and below the option it explains).
    free = [row for row in canvas.free_rows() if row > 0] or [canvas.lines - 1]
    if len(lines) > len(free):
        lines = lines[: len(free) - 1] + [clip(" ".join(lines[len(free) - 1 :]), canvas.columns)]
    for row, text in zip(free[len(free) - len(lines) :], lines):
        canvas.line(row, text, inverse=True)


def takeback_bar(canvas: Canvas, share: float) -> None:
    """A step can still be taken back: a line along the bottom edge (the top edge where the
    screen draws on the bottom one), its length the `share` of the chance left (it drains while
    a bot's roll draws near). Never over what the screen drew: a screen that uses both edges
    (EXTRA!'s whole sheet) shows it on the first empty pixel row under its header line (the 3×5
    header's, or a title's), as an underline that drains. Inverted over a white bar (the
    legend, a note)."""
    length = round(share * canvas.width)
    if length <= 0:
        return
    header = range(5, min(canvas.height // 4, canvas.line_height + 2))
    for y in (canvas.height - 1, 0, *header):
        row = canvas.image.crop((0, y, canvas.width, y + 1))
        if row.getextrema() == (1, 1) or row.getbbox() is None:  # all lit (a white bar) or all dark
            if y in header and canvas.image.crop((0, 0, canvas.width, y)).getbbox() is None:
                continue  # nothing above it: not a header's underline
            for x in range(length):
                canvas.image.putpixel((x, y), 0 if canvas.image.getpixel((x, y)) else 1)
            return


@lru_cache(maxsize=256)
def tiny_glyph(char: str) -> Sequence[int]:
    """Column bitmaps (bit 1 = top row, as luma's TINY_FONT) of the 3×5 font
    (firmware/ui/fonts/tiny.txt: a lower-case letter drawn as its capital, readable at 2 mm);
    a character it lacks as "?"."""
    face = load_font("tiny")
    glyph = face.glyph(char)
    if glyph.ink is None or glyph.image is None:
        return (0, 0, 0)
    x0, y0 = glyph.ink[0], glyph.ink[1]
    columns = [0, 0, 0]
    for x in range(glyph.image.width):
        for y in range(glyph.image.height):
            if glyph.image.getpixel((x, y)) and 0 <= x0 + x < 3:
                columns[x0 + x] |= 1 << (y0 + y + 1)
    return tuple(columns)


def tiny_width(text: str) -> int:
    return 4 * len(text) - 1 if text else 0


def clip(text: str, width: int) -> str:
    return text if len(text) <= width else text[: max(0, width - 1)] + CLIP_MARK


def abbreviate(text: str, width: int) -> str:
    """`text` in at most `width` characters: long words cut to stems with "." (longest first),
    else clipped with "~". The pseudo-locale's stretch ("·") counts as letters of its word: it
    stands for a longer language's letters.

    >>> abbreviate("Reset all settings?", 12)
    'Re. all se.?'
    >>> abbreviate("[Gámés··· öfféréd····]", 17)
    '[Gámés··· öffé.]'
    """
    if len(text) <= width:
        return text
    original = re.split(r"((?:[^\w·]|_)+)", text)
    words = list(original)
    for stem in (4, 3, 2, 1):
        for index in sorted(range(len(words)), key=lambda i: -len(original[i])):
            word = original[index]
            if len(word) > stem + 1 and word.replace("·", "").isalpha():
                words[index] = word[:stem] + "."
                if len("".join(words)) <= width:
                    return "".join(words)
    return clip("".join(words), width)


_BREAKS = re.compile(r"[ \t]+")


def wrap(text: str, width: int) -> list[str]:
    """Greedy word wrap to `width` characters (paragraphs split on newlines). Only ASCII spaces
    and tabs break a line: a no-break space holds French "5\u00a0000" or "Rouge\u00a0:" together.
    A paragraph never ends on a lone word of one or two characters (a number left alone, "4"):
    the word before it comes down too.

    >>> wrap("dés : 5\u00a0000", 6)
    ['dés :', '5\xa0000']
    >>> wrap("Rouge pose 31 sur le barreau 4", 28)
    ['Rouge pose 31 sur le', 'barreau 4']
    """
    out: list[str] = []
    for paragraph in text.split("\n"):
        lines: list[str] = []
        line = ""
        for word in _BREAKS.split(paragraph.strip(" \t")):
            if line and len(line) + 1 + len(word) > width:
                lines.append(line)
                line = word
            else:
                line = f"{line} {word}" if line else word
        lines.append(line)
        if len(lines) > 1 and len(lines[-1]) <= 2 and " " in lines[-2]:
            rest, last = lines[-2].rsplit(" ", 1)
            if len(last) + 1 + len(lines[-1]) <= width:
                lines[-2:] = [rest, f"{last} {lines[-1]}"]
        out.extend(lines)
    return out


# A sentence ends at ".", "!", "?" or "…" before a space and a capital (or an opening mark): "exp. 17.0"
# and "7.5 pts" go on. A clause ends at ",", ";" or ":" before a space.
_SENTENCE_END = re.compile(r"(?<=[.!?…])[ \t]+(?=[A-ZÀ-ÖØ-Þ«\"(])")
_CLAUSE_END = re.compile(r"(?<=[,;:])[ \t]+")


def sentences(text: str) -> list[str]:
    """The sentences of one paragraph, in order.

    >>> sentences("One roll counts. Press OK, then ROLL. exp. 17.0 stays")
    ['One roll counts.', 'Press OK, then ROLL. exp. 17.0 stays']
    """
    return [part for part in _SENTENCE_END.split(text.strip(" \t")) if part]


def text_pages(text: str, width: int, rows: int) -> list[list[str]]:
    """`text` wrapped to `width` characters in pages of at most `rows` lines, broken only between
    its items (its lines: each starts a line) and between sentences: a page takes as many whole
    sentences as fit. A sentence longer than a page goes over pages by its clauses (after a
    comma, semicolon or colon); only a clause longer than a page alone is spread evenly over as
    few pages as it needs.

    >>> text_pages("Red: 33 on rung 3.\\ncost 0.6 spaces", 12, 2)
    [['Red: 33 on', 'rung 3.'], ['cost 0.6', 'spaces']]
    >>> text_pages("An X ends your turn: back one space. Roll again.", 21, 2)
    [['An X ends your turn:', 'back one space.'], ['Roll again.']]
    """
    pages: list[list[str]] = []
    page: list[str] = []  # the paragraphs of the page being filled

    def fits(paragraphs: list[str]) -> bool:
        return len(wrap("\n".join(paragraphs), width)) <= rows

    for item in text.split("\n"):
        pieces = [piece for sentence in sentences(item) for piece in _pieces(sentence, width, rows)]
        for number, piece in enumerate(pieces or [""]):
            grown = [*page[:-1], f"{page[-1]} {piece}"] if page and number else [*page, piece]
            if fits(grown):
                page = grown
                continue
            if page:
                pages.append(wrap("\n".join(page), width))
            page = [piece]
            if not fits(page):
                lines = wrap(piece, width)
                count = -(-len(lines) // rows)
                size = -(-len(lines) // count)
                chunks = [lines[i : i + size] for i in range(0, len(lines), size)]
                pages += chunks[:-1]
                page = [" ".join(chunks[-1])]  # the last lines take what follows, if it fits
    if page:
        pages.append(wrap("\n".join(page), width))
    return pages or [[]]


def _pieces(sentence: str, width: int, rows: int) -> list[str]:
    """Where a page may end in `sentence`: after it, or, longer than a page, after its clauses."""
    if len(wrap(sentence, width)) <= rows:
        return [sentence]
    return [clause for clause in _CLAUSE_END.split(sentence) if clause]


_NUMBER = re.compile(r"[+\-−]?\d[\d.,:/%]*")


def is_number(text: str) -> bool:
    """A score, count or position ("12", "3/7", "-5"): clipping one is a failure."""
    return bool(_NUMBER.fullmatch(text.strip()))


# --- the fit checks ----------------------------------------------------------------------------
def _touch(a: Box, b: Box, gap: int = 1) -> bool:
    """True if the boxes overlap or are less than `gap` pixels apart (1 = they may not touch)."""
    return a[0] <= b[2] + gap and b[0] <= a[2] + gap and a[1] <= b[3] + gap and b[1] <= a[3] + gap


def outside(canvas: Canvas) -> list[TextBox]:
    """Texts whose pixels leave the canvas or the region they were drawn for."""
    return [
        r
        for r in canvas.boxes
        if r.box is not None
        and not r.hidden
        and not (
            max(0, r.region[0]) <= r.box[0]
            and r.box[2] <= min(canvas.width - 1, r.region[2])
            and max(0, r.region[1]) <= r.box[1]
            and r.box[3] <= min(canvas.height - 1, r.region[3])
        )
    ]


def overlapping(canvas: Canvas) -> list[tuple[TextBox, TextBox]]:
    """Pairs of shown texts that overlap or touch: their boxes are less than a pixel apart and so
    are some of their lit pixels (a descender above an accent of another line, far to its side,
    leaves a gap; one right above it does not)."""
    shown = [(r, r.box) for r in canvas.boxes if r.box is not None and not r.hidden]
    return [
        (a, b)
        for i, (a, box_a) in enumerate(shown)
        for b, box_b in shown[i + 1 :]
        if _touch(box_a, box_b) and _pixels_touch(a, b)
    ]


def _pixels_touch(a: TextBox, b: TextBox) -> bool:
    """True if a lit pixel of `a` is within one pixel (diagonals too) of a lit pixel of `b`."""
    if a.ink is None or b.ink is None or a.box is None or b.box is None:
        return True  # nothing to look closer at: the boxes decide
    x0, y0 = min(a.box[0], b.box[0]) - 1, min(a.box[1], b.box[1]) - 1
    size = (max(a.box[2], b.box[2]) + 2 - x0, max(a.box[3], b.box[3]) + 2 - y0)
    layers = []
    for x, y, mask in (a.ink, b.ink):
        layer = Image.new("L", size, 0)
        layer.paste(255, (x - x0, y - y0), mask)
        layers.append(layer)
    near = layers[0].filter(ImageFilter.MaxFilter(3))  # a's pixels grown by one
    return ImageChops.multiply(near, layers[1]).getbbox() is not None


def clipped(canvas: Canvas) -> list[TextBox]:
    """Shown texts shortened with "~" to fit: a failure (see `problems`)."""
    return [r for r in canvas.boxes if r.clipped and not r.hidden]


def problems(canvas: Canvas) -> list[str]:
    """One line per failure: text outside its box, touching texts, a text clipped with "~"."""
    out = [f"outside: {r.text!r} at {r.box} (region {r.region})" for r in outside(canvas)]
    out += [f"touching: {a.text!r} {a.box} and {b.text!r} {b.box}" for a, b in overlapping(canvas)]
    out += [f"clipped: {r.text!r}" + (" (a title or number)" if r.critical else "") for r in clipped(canvas)]
    return out
