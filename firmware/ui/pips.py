"""The pip LEDs of the board's dice: which pips show a face, and a face lit into an LED frame
(the play screen, the games' screens, the Key moments)."""

from __future__ import annotations

from collections.abc import Iterable

from firmware.dice import Face
from firmware.ui.colours import PIP, X_RED, Colour, LedFrame

# Pip LEDs of a die: 0 top-left, 1 top-right, 2 mid-left, 3 centre, 4 mid-right, 5 bottom-left,
# 6 bottom-right. EXXTRA's 7 lights all seven; its X is a red cross.
PIPS: dict[Face, tuple[int, ...]] = {
    1: (3,),
    2: (0, 6),
    3: (0, 3, 6),
    4: (0, 1, 5, 6),
    5: (0, 1, 3, 5, 6),
    6: (0, 1, 2, 4, 5, 6),
    7: (0, 1, 2, 3, 4, 5, 6),
    "X": (0, 1, 3, 5, 6),
}


def pip_cells(faces: Iterable[Face], frame: LedFrame, colour: Colour = PIP) -> None:
    """Light the pip LEDs of dice 0.. for `faces` (ints or EXXTRA's strings)."""
    for die, face in enumerate(faces):
        key = int(face) if isinstance(face, str) and face.isdigit() else face
        for pip in PIPS.get(key, ()):
            frame[f"dice.{die}.{pip}"] = X_RED if key == "X" else colour
