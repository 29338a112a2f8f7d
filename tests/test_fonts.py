"""The OLED fonts: every printable Latin-1 character (and the extras the screens use) has its
own glyph in every font, and the small font draws exactly as Pillow's bitmap font did."""

from __future__ import annotations

import random

import pytest
from PIL import Image, ImageChops, ImageDraw, ImageFont

from firmware.errors import ConfigError
from firmware.ui.draw import Canvas, problems, size_class
from firmware.ui.fonts import FONT_NAMES, covers, font, parse

LATIN1 = [chr(c) for c in list(range(0x21, 0x7F)) + list(range(0xA0, 0x100)) if chr(c).isprintable()]
EXTRAS = "←→↑↓–‘’‚“”„…•€✓▶◀▲▼"


@pytest.mark.parametrize("name", FONT_NAMES)
def test_every_latin1_character_has_its_own_glyph(name: str) -> None:
    face = font(name)
    seen: dict[bytes, str] = {}
    for char in LATIN1 + list(EXTRAS):
        assert char in face.glyphs, f"{name}: no glyph for {char!r}"
        glyph = face.glyphs[char]
        assert glyph.ink is not None and glyph.image is not None, f"{name}: {char!r} is blank"
        key = repr(glyph.ink).encode() + glyph.image.tobytes()
        if char in LATIN1:  # extras may share a shape (‚ is a comma, – a long hyphen)
            assert key not in seen, f"{name}: {char!r} looks like {seen[key]!r}"
            seen[key] = char
    assert covers(name, "Würfel ÄÖÜ ß éèàçêô ← →")


@pytest.mark.parametrize("name", FONT_NAMES)
def test_glyphs_stay_in_their_cell_and_line(name: str) -> None:
    face = font(name)
    width, height = face.cell
    for char in LATIN1:
        x0, y0, x1, y1 = face.glyphs[char].ink  # type: ignore[misc]
        assert -1 <= x0 and x1 <= width and 0 <= y0 and y1 < height, (name, char)
    assert face.line_height <= height


def _reaches_past_the_line(pillow: ImageFont.ImageFont, char: str) -> bool:
    """True if Pillow's courB08 draws `char` with ink on its cell's first or last row."""
    image = Image.new("1", (18, 11))
    ImageDraw.Draw(image).text((0, 0), f" {char} ", font=pillow, fill=1)
    box = image.getbbox()
    return box is not None and (box[1] == 0 or box[3] == 11)


def test_the_small_font_draws_as_pillows_bitmap_font_did() -> None:
    """The screens look as before the fonts moved here, but for the glyphs reshaped so that
    lines 10 px apart never touch (descenders, accented capitals: scripts/make_fonts.py)."""
    pillow = ImageFont.load_default_imagefont()
    kept = [c for c in LATIN1 if c != "\xa0" and not _reaches_past_the_line(pillow, c)]
    assert len(kept) > len(LATIN1) - 45  # the few reshaped ones only
    rng = random.Random(7)
    for _ in range(300):
        text = "".join(rng.choice(kept + [" "]) for _ in range(rng.randint(1, 21)))
        old, new = Image.new("1", (140, 16)), Image.new("1", (140, 16))
        ImageDraw.Draw(old).text((3, 2), text, font=pillow, fill=1)
        font("small").draw(new, 3, 3, text, 1)
        assert ImageChops.difference(old, new).getbbox() is None, text


def test_small_font_lines_a_pitch_apart_never_touch() -> None:
    """Every glyph's ink stays on rows 1-9 of the small font's cell: lines 10 px apart keep a
    clear row between a descender and the next line's accent, and an accent on the top line
    stays on the panel (issue 14: "0,5 A" over "réels" in French, the pseudo-locale's
    accented capitals)."""
    face = font("small")
    for char, glyph in face.glyphs.items():
        if glyph.ink is not None:
            assert 1 <= glyph.ink[1] and glyph.ink[3] <= face.line_height - 1, (char, glyph.ink)
    canvas = Canvas((128, 64))
    canvas.line(0, "ÉÀÎÔÜÇ éàîôüç")
    canvas.line(1, "gjpqy,; ÉÀÎÔÜ ýÿ")
    canvas.line(2, "áéíóú àèìòù âêîôû")
    canvas.line(3, "[Çölöür···: ýgj;,]")
    canvas.line(4, "ÉÁÍÓÚÝ ÀÈÌÒÙ ÂÊÎÔÛ")
    assert problems(canvas) == []


def test_unknown_characters_draw_as_a_question_mark() -> None:
    canvas, expected = Canvas((128, 64)), Canvas((128, 64))
    canvas.text(0, 0, "a\u4e2db")
    expected.text(0, 0, "a?b")
    assert canvas.image.tobytes() == expected.image.tobytes()


def test_a_damaged_sheet_is_refused_with_the_glyph_named() -> None:
    with pytest.raises(ConfigError, match="U\\+0041 is not 2×2"):
        parse("bad", "cell 2 2\nline 2\ntop 0\nbaseline 1\n\nglyph U+003F ?\n##\n##\n\nglyph U+0041 A\n#\n")
    with pytest.raises(ConfigError, match="no font 'huge'"):
        font("huge")


@pytest.mark.parametrize(
    "size,expected",
    [
        ((128, 64), "small"),
        ((128, 32), "small"),
        ((96, 16), "small"),
        ((256, 64), "wide"),
        ((128, 128), "tall"),
        ((256, 128), "tall"),
        ((1, 1), "small"),
    ],
)
def test_every_size_gets_a_class(size: tuple[int, int], expected: str) -> None:
    assert size_class(size) == expected
    Canvas(size).title("Any size")  # draws without an error, whatever the panel


def _tiny_rows(char: str) -> list[str]:
    from firmware.ui.draw import tiny_glyph

    columns = tiny_glyph(char)
    return ["".join("#" if column >> (y + 1) & 1 else "." for column in columns) for y in range(5)]


def test_the_tiny_fonts_lower_case_reads_as_its_letter_at_2_mm() -> None:
    """At the 2.42-inch panel's 2 mm a 3×5 lower case is guesswork (luma's "a" and "e" carry a
    dot on top and read as "à" and "ė", its "s" as "f"): a lower-case letter is drawn as its
    capital, which 3×5 pixels draw unmistakably."""
    for lower in "abcdefghijklmnopqrstuvwxyz":
        assert _tiny_rows(lower) == _tiny_rows(lower.upper()), lower
    letters = {char: tuple(_tiny_rows(char)) for char in "ABCDEFGHIJKLMNOPQRSTUVWXYZ"}
    assert len(set(letters.values())) == len(letters)  # no two capitals alike
    for char, rows in letters.items():  # nothing on the top row that stands apart from the letter
        top = [x for x, pixel in enumerate(rows[0]) if pixel == "#"]
        below = [x for x, pixel in enumerate(rows[1]) if pixel == "#"]
        assert not top or any(abs(a - b) <= 1 for a in top for b in below), char


def test_the_tiny_font_draws_the_accents_of_german_and_french() -> None:
    """Ü, é, à, ç ... have their own glyphs (the banner names "Grün", says "pièce"): the letter
    under its accent with a clear row between, never the bare letter, never blank."""
    base = {"ä": "a", "ö": "o", "ü": "u", "é": "e", "è": "e", "ê": "e", "ë": "e", "à": "a", "â": "a"}
    base |= {"î": "i", "ï": "i", "ô": "o", "ù": "u", "û": "u", "ÿ": "y", "ç": "c"}
    for char, plain in base.items():
        rows = _tiny_rows(char)
        assert any("#" in row for row in rows), f"{char!r} is blank"
        assert rows != _tiny_rows(plain), f"{char!r} looks like {plain!r}"
        assert rows == _tiny_rows(char.upper()), char
        if char != "ç":
            assert "#" in rows[0] and rows[1] == "...", f"{char!r}: the accent touches the letter"
    glyphs = [tuple(_tiny_rows(char)) for char in base]
    assert len(set(glyphs)) == len(glyphs)
    assert _tiny_rows("ß") not in (_tiny_rows("B"), _tiny_rows("?"))
