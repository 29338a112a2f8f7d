"""The players' colours and the board's fixed signal colours (RGB, full scale; the LED chain
applies brightness and the current budget)."""

from __future__ import annotations

Colour = tuple[int, int, int]

PLAYER_COLOURS: dict[str, Colour] = {
    "red": (255, 0, 0),
    "blue": (0, 60, 255),
    "green": (0, 200, 0),
    "yellow": (255, 180, 0),
    "purple": (170, 0, 255),
    "orange": (255, 80, 0),
    "cyan": (0, 200, 200),
    "white": (200, 200, 200),
}
DEFAULT_ORDER = ("red", "blue", "green", "yellow", "purple", "orange")

OFF: Colour = (0, 0, 0)
PIP: Colour = (255, 255, 255)
X_RED: Colour = (255, 0, 0)
DIM: Colour = (24, 24, 24)
X_FIELD: Colour = (60, 60, 60)
CLOSED: Colour = (40, 0, 0)


def dim(colour: Colour, factor: float = 0.25) -> Colour:
    return (int(colour[0] * factor), int(colour[1] * factor), int(colour[2] * factor))
