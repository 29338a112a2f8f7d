"""The players' colours and the board's fixed signal colours (RGB, full scale; the LED chain
applies brightness, gamma and the current budget), and the colour science that checks them.

The seat colours follow Okabe & Ito's colour-universal-design set ("Color Universal Design",
2002/2008), retuned for LEDs: a NeoPixel's byte is proportional to its light (PWM), so a frame
is *linear* RGB, and what a screen shows as a mid grey is a much brighter LED. Closed rows, X
fields and the dice's pips are white or grey (no hue), so they never share a hue with a piece.

Colour names stay the journal's keys ("red", "blue", …); every name starts with its own letter,
the letter the OLED shows where a seat is named by colour.

Checks (tests/test_colours.py): `simulate(colour, kind)` applies Machado, Oliveira & Fernandes
(2009), "A Physiologically-based Model for Simulation of Color Vision Deficiency", IEEE TVCG
15(6), severity 1.0 matrices in linear RGB; `delta_e` is CIEDE2000 (Sharma, Wu & Dalal 2005)
between CIELAB colours (D65, sRGB primaries as the LEDs' approximation).

>>> palette("default")["red"] != palette("contrast")["red"]
True
>>> round(delta_e((255, 0, 0), (255, 0, 0)), 3)
0.0
"""

from __future__ import annotations

import math
from collections.abc import Iterator, Mapping
from contextlib import contextmanager
from contextvars import ContextVar

from firmware.hardware.leds import GAMMA  # light ∝ level ** GAMMA: even steps in level look even

Colour = tuple[int, int, int]
LedFrame = dict[str, Colour | list[Colour]]  # LED cell name → its colour, or colours it blinks through

# The default palette: Okabe–Ito hues at LED values, lightness spread so that each pair stays
# apart for protan, deutan and tritan eyes too (tests/test_colours.py states the minimum).
PALETTES: dict[str, dict[str, Colour]] = {
    "default": {
        "red": (210, 0, 10),  # Okabe–Ito vermillion, moved off orange
        "blue": (30, 95, 255),  # blue
        "green": (60, 95, 50),  # bluish green, darker: apart from yellow and orange for red-green eyes
        "yellow": (225, 160, 95),  # yellow
        "purple": (110, 0, 145),  # reddish purple, bluer: apart from red for red-green eyes
        "orange": (215, 70, 0),  # orange
        "cyan": (45, 200, 255),  # sky blue
        "white": (140, 135, 130),  # a mid white: apart from the dice's pips (full white)
    },
    # High contrast: saturated primaries and secondaries, for bright rooms and normal vision.
    "contrast": {
        "red": (255, 0, 0),
        "blue": (0, 0, 255),
        "green": (0, 255, 0),
        "yellow": (255, 255, 0),
        "purple": (255, 0, 255),
        "orange": (255, 80, 0),
        "cyan": (0, 255, 255),
        "white": (255, 255, 255),
    },
}
PALETTE_NAMES = tuple(PALETTES)
DEFAULT_ORDER = ("red", "blue", "green", "yellow", "purple", "orange")

OFF: Colour = (0, 0, 0)
PIP: Colour = (255, 255, 255)
X_RED: Colour = (255, 0, 0)
DIM: Colour = (24, 24, 24)
X_FIELD: Colour = (60, 60, 60)
CLOSED: Colour = (22, 22, 22)  # a closed row: a faint white, no piece's hue


def palette(name: str) -> dict[str, Colour]:
    """The seat colours of palette `name` ("default" or "contrast")."""
    try:
        return dict(PALETTES[name])
    except KeyError:
        raise ValueError(f"colours: no palette {name!r}; expected one of {', '.join(PALETTE_NAMES)}") from None


_painting: ContextVar[str] = ContextVar("xtraboard_palette", default="default")


class SeatColours(Mapping[str, Colour]):
    """The seat colours of the palette being drawn in (`painting`; "default" outside one), by
    name in the order the menus offer them: what every screen and scene reads."""

    def __getitem__(self, name: str) -> Colour:
        return PALETTES[_painting.get()][name]

    def __iter__(self) -> Iterator[str]:
        return iter(PALETTES["default"])

    def __len__(self) -> int:
        return len(PALETTES["default"])


PLAYER_COLOURS: Mapping[str, Colour] = SeatColours()


@contextmanager
def painting(name: str) -> Iterator[None]:
    """Inside the block, in this context only (a render's, an event's), PLAYER_COLOURS are
    palette `name`'s.

    >>> with painting("contrast"): PLAYER_COLOURS["blue"]
    (0, 0, 255)
    >>> PLAYER_COLOURS["blue"]
    (30, 95, 255)
    """
    palette(name)  # ValueError for a palette there is not
    token = _painting.set(name)
    try:
        yield
    finally:
        _painting.reset(token)


def initial(name: str) -> str:
    """The letter that names colour `name` on the OLED: "R" for red.

    >>> initial("purple")
    'P'
    """
    return name[:1].upper()


def dim(colour: Colour, factor: float = 0.25) -> Colour:
    return (int(colour[0] * factor), int(colour[1] * factor), int(colour[2] * factor))


# --- light: perceived level → LED duty ------------------------------------------------------
NIGHT_LEVEL = 0.25  # night mode: the lowest brightness step, whatever the setting


def duty(level: float) -> float:
    """The PixelBuf brightness (share of full light) that looks like `level` (0–1) of full.

    >>> round(duty(0.5), 3), duty(1.0)
    (0.218, 1.0)
    """
    if not 0.0 <= level <= 1.0:
        raise ValueError(f"colours: brightness level must be 0–1, got {level}")
    return float(level**GAMMA)


def led_level(brightness: float, cap: float = 1.0, night: bool = False) -> float:
    """The perceived level the LEDs show: the players' setting, never above the operator's cap,
    and at most NIGHT_LEVEL at night."""
    return min(brightness, cap, NIGHT_LEVEL if night else 1.0)


# --- colour science: what an eye sees, and how far apart ----------------------------------------
# Machado et al. 2009, severity 1.0 (dichromacy), for linear RGB.
CVD_MATRICES: dict[str, tuple[tuple[float, float, float], ...]] = {
    "protanopia": ((0.152286, 1.052583, -0.204868), (0.114503, 0.786281, 0.099216), (-0.003882, -0.048116, 1.051998)),
    "deuteranopia": ((0.367322, 0.860646, -0.227968), (0.280085, 0.672501, 0.047413), (-0.011820, 0.042940, 0.968881)),
    "tritanopia": ((1.255528, -0.076749, -0.178779), (-0.078411, 0.930809, 0.147602), (0.004733, 0.691367, 0.303900)),
}
VISIONS = ("normal", *CVD_MATRICES)

LinearRgb = tuple[float, float, float]


def linear(colour: Colour) -> LinearRgb:
    """An LED colour as linear light, 0–1 per channel (the byte is a PWM duty)."""
    return (colour[0] / 255.0, colour[1] / 255.0, colour[2] / 255.0)


def simulate(rgb: LinearRgb, vision: str) -> LinearRgb:
    """Linear RGB as seen with `vision` (one of VISIONS), clipped to 0–1."""
    if vision == "normal":
        return rgb
    try:
        matrix = CVD_MATRICES[vision]
    except KeyError:
        raise ValueError(f"colours: no vision {vision!r}; expected one of {', '.join(VISIONS)}") from None
    r, g, b = (min(1.0, max(0.0, sum(m * c for m, c in zip(row, rgb)))) for row in matrix)
    return (r, g, b)


def lab(rgb: LinearRgb) -> tuple[float, float, float]:
    """CIELAB (D65) of linear sRGB."""
    r, g, b = rgb
    x = (0.4124 * r + 0.3576 * g + 0.1805 * b) / 0.95047
    y = 0.2126 * r + 0.7152 * g + 0.0722 * b
    z = (0.0193 * r + 0.1192 * g + 0.9505 * b) / 1.08883

    def f(t: float) -> float:
        return t ** (1 / 3) if t > (6 / 29) ** 3 else t / (3 * (6 / 29) ** 2) + 4 / 29

    fx, fy, fz = f(x), f(y), f(z)
    return 116 * fy - 16, 500 * (fx - fy), 200 * (fy - fz)


def ciede2000(lab1: tuple[float, float, float], lab2: tuple[float, float, float]) -> float:
    """CIEDE2000 colour difference (kL = kC = kH = 1), after Sharma, Wu & Dalal (2005)."""
    l1, a1, b1 = lab1
    l2, a2, b2 = lab2
    c_mean = (math.hypot(a1, b1) + math.hypot(a2, b2)) / 2
    g = 0.5 * (1 - math.sqrt(c_mean**7 / (c_mean**7 + 25**7)))
    a1p, a2p = a1 * (1 + g), a2 * (1 + g)
    c1p, c2p = math.hypot(a1p, b1), math.hypot(a2p, b2)
    h1p = math.degrees(math.atan2(b1, a1p)) % 360 if c1p else 0.0
    h2p = math.degrees(math.atan2(b2, a2p)) % 360 if c2p else 0.0
    dl, dc = l2 - l1, c2p - c1p
    if c1p * c2p == 0:
        dh = 0.0
    elif abs(h2p - h1p) <= 180:
        dh = h2p - h1p
    else:
        dh = h2p - h1p - 360 if h2p > h1p else h2p - h1p + 360
    dhh = 2 * math.sqrt(c1p * c2p) * math.sin(math.radians(dh / 2))
    l_mean, cp_mean = (l1 + l2) / 2, (c1p + c2p) / 2
    if c1p * c2p == 0:
        h_mean = h1p + h2p
    elif abs(h1p - h2p) <= 180:
        h_mean = (h1p + h2p) / 2
    else:
        h_mean = (h1p + h2p + 360) / 2 if h1p + h2p < 360 else (h1p + h2p - 360) / 2
    t = (
        1
        - 0.17 * math.cos(math.radians(h_mean - 30))
        + 0.24 * math.cos(math.radians(2 * h_mean))
        + 0.32 * math.cos(math.radians(3 * h_mean + 6))
        - 0.20 * math.cos(math.radians(4 * h_mean - 63))
    )
    sl = 1 + 0.015 * (l_mean - 50) ** 2 / math.sqrt(20 + (l_mean - 50) ** 2)
    sc = 1 + 0.045 * cp_mean
    sh = 1 + 0.015 * cp_mean * t
    rt = (
        -2
        * math.sqrt(cp_mean**7 / (cp_mean**7 + 25**7))
        * math.sin(math.radians(60 * math.exp(-(((h_mean - 275) / 25) ** 2))))
    )
    return math.sqrt((dl / sl) ** 2 + (dc / sc) ** 2 + (dhh / sh) ** 2 + rt * (dc / sc) * (dhh / sh))


def delta_e(first: Colour | LinearRgb, second: Colour | LinearRgb, vision: str = "normal") -> float:
    """How far apart two LED colours look (CIEDE2000) to an eye with `vision`. Integer triples
    are LED bytes (0–255); float triples are linear light (0–1)."""

    def as_linear(colour: Colour | LinearRgb) -> LinearRgb:
        r, g, b = colour
        if isinstance(r, int) and isinstance(g, int) and isinstance(b, int):
            return linear((r, g, b))
        return (float(r), float(g), float(b))

    return ciede2000(lab(simulate(as_linear(first), vision)), lab(simulate(as_linear(second), vision)))


def chroma(colour: Colour) -> float:
    """CIELAB chroma of an LED colour: 0 for greys, 25 and more for a clear hue."""
    _, a, b = lab(linear(colour))
    return math.hypot(a, b)


def closest_pair(colours: Mapping[str, Colour], vision: str) -> tuple[float, str, str]:
    """The two named colours that look most alike to `vision`, and their distance."""
    names = list(colours)
    pairs = [(delta_e(colours[a], colours[b], vision), a, b) for i, a in enumerate(names) for b in names[i + 1 :]]
    return min(pairs)
