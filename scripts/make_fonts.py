"""Regenerate the glyph sheets in firmware/ui/fonts/ (small.txt, large.txt).

The sheets are the fonts' source of truth and are edited by hand afterwards if need be; this
script records where their glyphs came from (firmware/ui/fonts/LICENSES.md states the licences):

- small: Pillow's built-in bitmap font (X11 Adobe "courB08", Latin-1), cell 6×11, reshaped so
  its ink stays on rows 1–9 (`fit_pitch`: lines 10 px apart never touch), plus the extra glyphs
  below drawn by hand for this project (arrows, dashes, quotes, ...).
- tiny: luma.core's TINY_FONT (3×5, MIT) for digits, capitals and punctuation, cell 4×5; its
  lower case is not used (at the panel's 2 mm a 3×5 "a" and "e" read as "à" and "ė", "s" as
  "f"): a lower-case letter is drawn as its capital, and the accented letters of German and
  French are a three-row letter under a one-row accent (TINY_FONT has none).
- large: DejaVu Sans Mono Bold rasterised once at 12 px, one bit per pixel with the font's
  hinting, cell 8×15, Latin-1 plus the same extras. Needs the TTF (Debian: fonts-dejavu-core).

    python scripts/make_fonts.py [/path/to/DejaVuSansMono-Bold.ttf]
"""

from __future__ import annotations

import sys
from pathlib import Path

from PIL import Image, ImageDraw, ImageFont

OUT = Path(__file__).resolve().parent.parent / "firmware" / "ui" / "fonts"
DEJAVU = "/usr/share/fonts/truetype/dejavu/DejaVuSansMono-Bold.ttf"
EXTRAS = "←→↑↓–—‘’‚“”„…•−€✓▶◀▲▼"
LATIN1 = [chr(c) for c in list(range(0x20, 0x7F)) + list(range(0xA0, 0x100))]

# The small font's extras, 6×11 like courB08 (caps on rows 3–8, baseline row 8, ink on rows 1–9).
SMALL_EXTRAS = {
    "←": ["", "", "", "", "..#", ".#", "#####", ".#", "..#"],
    "→": ["", "", "", "", "..#", "...#", "#####", "...#", "..#"],
    "↑": ["", "", "", "..#", ".###", "#.#.#", "..#", "..#", "..#"],
    "↓": ["", "", "", "..#", "..#", "..#", "#.#.#", ".###", "..#"],
    "–": ["", "", "", "", "", "######"],
    "—": ["", "", "", "", "", "######", "", "", "", "", ""],
    "‘": ["", "", "...#", "..#", "..##"],
    "’": ["", "", "..##", "..#", ".#"],
    "‚": ["", "", "", "", "", "", "", "", "..##", ".#"],
    "“": ["", "", ".#..#", "#..#", "##.##"],
    "”": ["", "", "##.##", ".#..#", "#..#"],
    "„": ["", "", "", "", "", "", "", "", "##.##", "#..#"],
    "…": ["", "", "", "", "", "", "", "", "#.#.#"],
    "•": ["", "", "", "", ".###", ".###", ".###"],
    "−": ["", "", "", "", "", "", "#####"],
    "€": ["", "", "", "..###", ".#", "####", ".#", "####", "..###"],
    "✓": ["", "", "", ".....#", "....##", "#..##", "####", ".##", ".#"],
    "▶": ["", "", "", "", "#", "##", "###", "##", "#"],
    "◀": ["", "", "", "", "..#", ".##", "###", ".##", "..#"],
    "▲": ["", "", "", "", "", "..#", ".###", "#####"],
    "▼": ["", "", "", "", "", "#####", ".###", "..#"],
}

# The accented capital O, a row shorter (see fit_pitch), a column wider than the o (rows 4–8).
SHORT_WIDE_O = ["..####..", ".##..##.", ".##..##.", ".##..##.", "..####.."]

# DejaVu's arrows and check mark are faint at 12 px: the large font's are drawn by hand (caps on
# rows 3–11).
LARGE_EXTRAS = {
    "←": ["", "", "", "", "", "..#", ".##", "#######", ".##", "..#"],
    "→": ["", "", "", "", "", "....#", "....##", "#######", "....##", "....#"],
    "↑": ["", "", "", "...#", "..###", ".#####", "##.#.##", "...#", "...#", "...#", "...#", "...#"],
    "↓": ["", "", "", "...#", "...#", "...#", "...#", "...#", "##.#.##", ".#####", "..###", "...#"],
    "✓": ["", "", "", "", "......##", ".....##", "#...##", "##.##", ".###", "..#"],
}


def rows_of(image: Image.Image, width: int, height: int) -> list[str]:
    return ["".join("#" if image.getpixel((x, y)) else "." for x in range(width)) for y in range(height)]


def small_glyphs() -> dict[str, list[str]]:
    font = ImageFont.load_default_imagefont()
    glyphs = {}
    for char in LATIN1:
        # Between spaces: some glyphs reach one column into the cell before (Pillow clips that
        # column for a text's first character; BitmapFont.draw does the same), ® one after.
        image = Image.new("1", (18, 11), 0)
        ImageDraw.Draw(image).text((0, 0), f" {char} ", font=font, fill=1)
        glyphs[char] = rows_of(image.crop((5, 0, 13, 11)), 8, 11)
    glyphs = {char: fit_pitch(rows) for char, rows in glyphs.items()}
    for char in "ÒÓÔÕ":  # a row shorter, courB08's O is its o: these get a wider O
        glyphs[char] = glyphs[char][:4] + SHORT_WIDE_O + glyphs[char][9:]
    glyphs["\xad"] = glyphs["-"]  # a soft hyphen shows as a hyphen where a line breaks
    for char, art in SMALL_EXTRAS.items():
        glyphs[char] = ["." + row.ljust(7, ".")[:7] for row in (art + [""] * 11)[:11]]
    return glyphs


def fit_pitch(rows: list[str]) -> list[str]:
    """A courB08 glyph reshaped to keep its ink on rows 1–9 of the 11-row cell, so lines 10 px
    apart never touch (rows 9 and 10 of a line lie over rows 0 and 1 of the next; the fit test
    wants a clear row between a descender and the next line's accent) and an accent on the top
    line stays on the panel:

    - a descender (ink on row 10) loses one row: the first of two equal rows from row 3 down (a
      stem or bowl row: g p q y j ;), else the row before the tail's last (, ç ¸);
    - an accented capital (ink on row 0) keeps its two-row accent and loses one body row (the
      one most like the row above it, the lowest of equals): it stands a row shorter (rows 4–8),
      its accent on rows 1–2 as on the lowercase letters.
    """
    blank = "." * len(rows[0])
    if "#" in rows[10]:
        cut = next((r for r in range(3, 10) if rows[r] == rows[r + 1]), 9)
        rows = rows[:cut] + rows[cut + 1 :] + [blank]
    if "#" in rows[0]:

        def unlike(r: int) -> tuple[int, float]:
            return sum(a != b for a, b in zip(rows[r], rows[r - 1])), -r

        cut = min(range(4, 8), key=unlike)
        rows = [blank] + rows[:cut] + rows[cut + 1 :]
    return rows


# The tiny font's accented letters: the accent on row 0, a clear row, the letter three rows high
# (rows 2–4, a lower-case letter's height): an accent touching a five-row capital would read as
# part of it (Ü as U).
SHORT_CAPITALS = {
    "A": [".#.", "###", "#.#"],
    "E": ["###", "##.", "###"],
    "I": [".#.", ".#.", ".#."],
    "O": ["###", "#.#", "###"],
    "U": ["#.#", "#.#", "###"],
    "N": ["##.", "#.#", "#.#"],
    "Y": ["#.#", ".#.", ".#."],
}
ACCENTS = {"grave": "#..", "acute": "..#", "circumflex": ".#.", "diaeresis": "#.#", "tilde": ".##", "ring": ".#."}
TINY_ACCENTED = {
    "À": ("A", "grave"), "Á": ("A", "acute"), "Â": ("A", "circumflex"), "Ä": ("A", "diaeresis"),
    "Ã": ("A", "tilde"), "Å": ("A", "ring"),
    "È": ("E", "grave"), "É": ("E", "acute"), "Ê": ("E", "circumflex"), "Ë": ("E", "diaeresis"),
    "Ì": ("I", "grave"), "Í": ("I", "acute"), "Î": ("I", "circumflex"), "Ï": ("I", "diaeresis"),
    "Ò": ("O", "grave"), "Ó": ("O", "acute"), "Ô": ("O", "circumflex"), "Ö": ("O", "diaeresis"),
    "Õ": ("O", "tilde"),
    "Ù": ("U", "grave"), "Ú": ("U", "acute"), "Û": ("U", "circumflex"), "Ü": ("U", "diaeresis"),
    "Ñ": ("N", "tilde"), "Ý": ("Y", "acute"), "Ÿ": ("Y", "diaeresis"),
}  # fmt: skip
TINY_EXTRAS = {
    "Ç": [".##", "#..", "#..", ".##", ".#."],
    "ß": [".#.", "#.#", "##.", "#.#", "##."],
    "Œ": ["###", "##.", "###", "#..", "###"],
    "Æ": [".##", "##.", "###", "#.#", "#.#"],
    "·": ["", "", ".#."],
    "…": ["", "", "", "", "#.#"],
    "×": ["", "#.#", ".#.", "#.#"],
    "°": [".#.", "#.#", ".#."],
}
TINY_SAME = {"→": ">", "←": "<", "»": ">", "«": "<", "–": "-", "—": "-", "−": "-", "‘": "'", "’": "'", "‚": ",",
             "“": '"', "”": '"', "„": '"', "\xa0": " ", "\xad": "-"}  # fmt: skip


def tiny_glyphs() -> dict[str, list[str]]:
    from luma.core.legacy.font import TINY_FONT

    def rows(char: str) -> list[str]:
        columns = TINY_FONT[ord(char)][:3]
        return ["".join("#" if column >> (y + 1) & 1 else "." for column in columns) for y in range(5)]

    glyphs = {chr(c): rows(chr(c)) for c in range(0x20, 0x7F) if not chr(c).islower()}
    for capital, (base, accent) in TINY_ACCENTED.items():
        glyphs[capital] = [ACCENTS[accent], "...", *SHORT_CAPITALS[base]]
    glyphs.update({char: (art + [""] * 5)[:5] for char, art in TINY_EXTRAS.items()})
    glyphs.update({char: glyphs[same] for char, same in TINY_SAME.items()})
    for char in list(glyphs):  # lower case: its capital's glyph (ß has none but its own)
        lower = char.lower()
        if lower != char and len(lower) == 1:
            glyphs[lower] = glyphs[char]
    glyphs["ÿ"] = glyphs["Ÿ"]
    return {char: [row.ljust(4, ".")[:4] for row in art] for char, art in glyphs.items()}


def large_glyphs(path: str) -> dict[str, list[str]]:
    font = ImageFont.truetype(path, 12)
    glyphs = {}
    for char in LATIN1 + list(EXTRAS):
        image = Image.new("1", (12, 15), 0)
        draw = ImageDraw.Draw(image)
        draw.fontmode = "1"  # hinted, one bit per pixel: no grey fringes to threshold away
        draw.text((1, 0), char, font=font, fill=1)  # at 12 px the tallest accent lands on row 0
        box = image.getbbox()
        shift = 1 if box is None or box[0] >= 1 else 0  # Ø and æ reach one column further left
        glyphs[char] = rows_of(image.crop((shift, 0, shift + 8, 15)), 8, 15)
    glyphs["\xad"] = glyphs["-"]
    for char, art in LARGE_EXTRAS.items():
        glyphs[char] = [row.ljust(8, ".")[:8] for row in (art + [""] * 15)[:15]]
    return glyphs


def write(
    name: str,
    cell: tuple[int, int],
    bleed: tuple[int, int],
    line: int,
    top: int,
    baseline: int,
    source: str,
    glyphs: dict[str, list[str]],
) -> None:
    lines = [
        f"# xtraboard bitmap font {name!r}: {source}",
        "# Licence: firmware/ui/fonts/LICENSES.md. Regenerate with scripts/make_fonts.py, or edit by hand:",
        "# one block per glyph, '#' = lit pixel, cell rows from the top. `cell` = advance × rows,",
        "# `bleed` = extra columns left and right of the cell (over the characters beside it),",
        "# `top` = the first row's offset from the y a text is drawn at.",
        f"name {name}",
        f"cell {cell[0]} {cell[1]}",
        f"bleed {bleed[0]} {bleed[1]}",
        f"line {line}",
        f"top {top}",
        f"baseline {baseline}",
        "",
    ]
    for char in sorted(glyphs):
        shown = char if char.isprintable() and char != " " else ""
        lines.append(f"glyph U+{ord(char):04X} {shown}".rstrip())
        lines += glyphs[char]
        lines.append("")
    (OUT / f"{name}.txt").write_text("\n".join(lines), encoding="utf-8")


def main() -> None:
    write(
        "small",
        (6, 11),
        (1, 1),
        10,
        -1,
        8,
        "Pillow's built-in courB08 (X11 Adobe Courier Bold 8), reshaped for 10-px lines, + hand-drawn extras",
        small_glyphs(),
    )
    write(
        "tiny",
        (4, 5),
        (0, 0),
        6,
        0,
        4,
        "luma.core's TINY_FONT (3×5) capitals, digits, punctuation; lower case as capitals, accents added",
        tiny_glyphs(),
    )
    write(
        "large",
        (8, 15),
        (0, 0),
        15,
        0,
        11,
        "DejaVu Sans Mono Bold at 12 px, 1 bit per pixel",
        large_glyphs(sys.argv[1] if len(sys.argv) > 1 else DEJAVU),
    )


if __name__ == "__main__":
    main()
