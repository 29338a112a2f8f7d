"""The OLED's bitmap fonts: glyph sheets in this folder (small.txt, large.txt), Latin-1 plus the
few extra characters the screens use (arrows, dashes, quotes, ...). LICENSES.md says where each
font comes from and under which licence it ships.

>>> small = font("small")
>>> small.width("Würfel"), small.line_height
(36, 10)
>>> font("large").width("Würfel")
48
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path

from PIL import Image, ImageDraw

from firmware.errors import ConfigError

FONT_NAMES = ("small", "large")
TINY = "tiny"  # the 3×5 font (cell 4×5): capitals, digits, the accented letters of de and fr
FOLDER = Path(__file__).parent
MISSING = "?"  # drawn for a character the font has no glyph for (never an exception mid-game)


@dataclass(frozen=True)
class Glyph:
    """One character: the box its lit pixels cover ((x0, y0, x1, y1), inclusive, relative to its
    cell's top-left; x0 may be negative where it reaches into the cell before), and those pixels
    (mode "1", the box's size). Blank glyphs (a space) have neither."""

    ink: tuple[int, int, int, int] | None
    image: Image.Image | None


@dataclass(frozen=True, eq=False)
class BitmapFont:
    """A monospaced bitmap font: every glyph a `cell` of pixels, `advance` apart.

    `top` is where the cell's first row sits relative to the y a text is drawn at (the small
    font's cell starts one row above it; its ink stays on rows 1-9, so lines 10 px apart keep
    a clear row between them), `line_height` the pitch of text lines. A glyph's
    box replaces what the glyph before drew there, and nothing is drawn left of where a text
    starts: Pillow draws its bitmap fonts so, and the small font is Pillow's former default.
    """

    name: str
    cell: tuple[int, int]
    line_height: int
    top: int
    baseline: int
    glyphs: dict[str, Glyph]

    @property
    def advance(self) -> int:
        return self.cell[0]

    def glyph(self, char: str) -> Glyph:
        return self.glyphs.get(char) or self.glyphs[MISSING]

    def width(self, text: str) -> int:
        """The pixels `text` advances (monospaced: characters × cell width)."""
        return len(text) * self.advance

    def mask(self, text: str) -> Image.Image:
        """`text` as a mode "1" mask, `width(text)` × the cell's height."""
        return _mask(self, text)

    def ink_box(self, x: int, y: int, text: str) -> tuple[int, int, int, int] | None:
        """The box (inclusive) the lit pixels of `text` drawn at (x, y) cover; None if blank."""
        box = self.mask(text).getbbox()
        if box is None:
            return None
        return x + box[0], y + self.top + box[1], x + box[2] - 1, y + self.top + box[3] - 1

    def draw(self, image: Image.Image, x: int, y: int, text: str, fill: int) -> None:
        """Draw `text` with its first cell's top-left at (x, y + top), lit pixels in `fill`."""
        if text:
            image.paste(fill, (x, y + self.top), self.mask(text))


@lru_cache(maxsize=1024)
def _mask(font: BitmapFont, text: str) -> Image.Image:
    mask = Image.new("1", (max(1, font.width(text)), font.cell[1]), 0)
    for i, char in enumerate(text):
        glyph = font.glyph(char)
        if glyph.ink is not None and glyph.image is not None:
            mask.paste(glyph.image, (i * font.advance + glyph.ink[0], glyph.ink[1]))
    return mask


def covers(font_name: str, text: str) -> bool:
    """True if every character of `text` has its own glyph in the font."""
    glyphs = font(font_name).glyphs
    return all(char in glyphs for char in text)


@lru_cache(maxsize=None)
def font(name: str) -> BitmapFont:
    """The font called `name` ("small", "large" or "tiny"), read once from its glyph sheet."""
    if name not in (*FONT_NAMES, TINY):
        raise ConfigError(f"font: no font {name!r}; there are {', '.join(FONT_NAMES)}")
    return parse(name, (FOLDER / f"{name}.txt").read_text(encoding="utf-8"))


def parse(name: str, sheet: str) -> BitmapFont:
    """Read a glyph sheet (the format scripts/make_fonts.py writes; see its header)."""
    header: dict[str, list[int]] = {}
    rows: dict[str, list[str]] = {}
    current: list[str] | None = None
    for line in sheet.splitlines():
        if not line.strip():
            current = None  # a blank line ends a glyph's rows
            continue
        if current is None and line.startswith("#"):
            continue  # a comment (inside a glyph, '#' is a lit pixel)
        if line.startswith("glyph U+"):
            current = rows.setdefault(chr(int(line.split()[1][2:], 16)), [])
        elif current is not None:
            current.append(line)
        else:
            key, *values = line.split()
            if key != "name":
                header[key] = [int(v) for v in values]
    advance, height = header["cell"]
    bleed, bleed_right = header.get("bleed", [0, 0])
    width = bleed + advance + bleed_right
    glyphs = {}
    for char, art in rows.items():
        if len(art) != height or any(len(row) != width for row in art):
            raise ConfigError(f"font {name}: glyph U+{ord(char):04X} is not {width}×{height} pixels")
        mask = Image.new("1", (width, height), 0)
        draw = ImageDraw.Draw(mask)
        for y, row in enumerate(art):
            for x, pixel in enumerate(row):
                if pixel == "#":
                    draw.point((x, y), fill=1)
        box = mask.getbbox()
        glyphs[char] = (
            Glyph(None, None)
            if box is None
            else Glyph((box[0] - bleed, box[1], box[2] - 1 - bleed, box[3] - 1), mask.crop(box))
        )
    if MISSING not in glyphs:
        raise ConfigError(f"font {name}: no glyph for {MISSING!r}")
    return BitmapFont(name, (advance, height), header["line"][0], header["top"][0], header["baseline"][0], glyphs)
