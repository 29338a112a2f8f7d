"""OLED drawing helpers: a 1-bit PIL image, the bitmap font, and a tiny 3×5 font for sheets.

The layout adapts to the configured display size: `Canvas.lines` is how many text lines fit.
"""

from __future__ import annotations

from collections.abc import Sequence
from functools import lru_cache

from PIL import Image, ImageDraw, ImageFont

LINE_HEIGHT = 10  # the bitmap font's cap height plus one pixel of leading
CHAR_WIDTH = 6


@lru_cache(maxsize=1)
def font() -> ImageFont.ImageFont:
    """Pillow's built-in 6×11 bitmap font: crisp on a 1-bit OLED, no font file to ship."""
    return ImageFont.load_default_imagefont()


class Canvas:
    """A fresh black image of the display's size, with text-line helpers."""

    def __init__(self, size: tuple[int, int]) -> None:
        self.image = Image.new("1", size, 0)
        self.draw = ImageDraw.Draw(self.image)
        self.width, self.height = size
        self.texts: list[str] = []  # what was written, for scenario expectations on the display

    @property
    def lines(self) -> int:
        return self.height // LINE_HEIGHT

    @property
    def columns(self) -> int:
        return self.width // CHAR_WIDTH

    def text(self, x: int, y: int, text: str, fill: int = 1) -> None:
        self.texts.append(text)
        self.draw.text((x, y - 1), text, font=font(), fill=fill)

    def line(self, row: int, text: str, *, inverse: bool = False, align: str = "left") -> None:
        """Text on line `row` (0 = top), clipped to the width; `inverse` = white bar, black text."""
        text = clip(text, self.columns)
        y = row * LINE_HEIGHT
        x = {"left": 0, "center": (self.width - len(text) * CHAR_WIDTH) // 2,
             "right": self.width - len(text) * CHAR_WIDTH}[align]
        if inverse:
            self.draw.rectangle((0, y, self.width - 1, y + LINE_HEIGHT - 1), fill=1)
        self.text(x, y, text, fill=0 if inverse else 1)

    def title(self, text: str, right: str = "") -> None:
        """The top line, underlined, with an optional right-aligned note."""
        self.line(0, text)
        if right:
            self.line(0, right, align="right")
        self.draw.line((0, LINE_HEIGHT - 1, self.width - 1, LINE_HEIGHT - 1), fill=1)

    def tiny(self, x: int, y: int, text: str, fill: int = 1) -> int:
        """Draw with the 3×5 font; returns the x after the text."""
        self.texts.append(text)
        for char in text:
            for dx, column in enumerate(tiny_glyph(char)):
                for dy in range(5):
                    if column >> (dy + 1) & 1:  # TINY_FONT rows are bits 1-5
                        self.draw.point((x + dx, y + dy), fill=fill)
            x += 4
        return x


@lru_cache(maxsize=128)
def tiny_glyph(char: str) -> Sequence[int]:
    """Column bitmaps (bit 0 = top row) of luma's TINY_FONT."""
    from luma.core.legacy.font import TINY_FONT

    return tuple(TINY_FONT[ord(char)][:3]) if ord(char) < 256 else (0, 0, 0)


def tiny_width(text: str) -> int:
    return 4 * len(text) - 1 if text else 0


def clip(text: str, width: int) -> str:
    return text if len(text) <= width else text[: max(0, width - 1)] + "~"


def wrap(text: str, width: int) -> list[str]:
    """Greedy word wrap to `width` characters (paragraphs split on newlines)."""
    out: list[str] = []
    for paragraph in text.split("\n"):
        line = ""
        for word in paragraph.split():
            if line and len(line) + 1 + len(word) > width:
                out.append(line)
                line = word
            else:
                line = f"{line} {word}" if line else word
        out.append(line)
    return out
