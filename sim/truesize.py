"""The OLED at its physical size on your screen, beside the zoomed view: how big the text really
is on the board.

The panel's size comes from the board description (`[display] size_mm`, the active area); the
screen's pixels per inch from SDL (`SDL_GetDisplayDPI`, through the SDL library pygame loaded),
from `--dpi` when given (measure: a ruler against the drawn frame), else DEFAULT_DPI. Operating
systems often report a nominal DPI, so `--dpi` is the one to trust.

    >>> true_size_px((55.01, 27.49), 96.0)
    (208, 104)
"""

from __future__ import annotations

import ctypes
import glob
import os
from pathlib import Path
from typing import Any

DEFAULT_DPI = 96.0  # the common desktop default (Windows, X11 without a setting)
MM_PER_INCH = 25.4
LABEL_PX = 18  # the caption line under each view
GAP_PX = 16
BACKGROUND = (24, 26, 30)
CAPTION = (200, 204, 210)


def true_size_px(size_mm: tuple[float, float], dpi: float) -> tuple[int, int]:
    """How many screen pixels `size_mm` covers at `dpi` pixels per inch."""
    if not dpi > 0:
        raise ValueError(f"true size: dpi must be > 0, got {dpi}")
    return max(1, round(size_mm[0] / MM_PER_INCH * dpi)), max(1, round(size_mm[1] / MM_PER_INCH * dpi))


def screen_dpi(override: float | None = None) -> tuple[float, str]:
    """The screen's horizontal pixels per inch and where it came from ("--dpi", "SDL", "default")."""
    if override is not None:
        if not 20 <= override <= 1000:
            raise ValueError(f"--dpi must be from 20 to 1000, got {override:g}")
        return float(override), "--dpi"
    dpi = _sdl_dpi()
    return (dpi, "SDL") if dpi is not None else (DEFAULT_DPI, "default")


def _sdl_dpi() -> float | None:
    """SDL_GetDisplayDPI of the first display, if SDL's video is up and knows it."""
    try:
        import pygame

        if not pygame.display.get_init():
            return None
        library = _sdl_library(Path(pygame.__file__).parent)
        if library is None:
            return None
        sdl = ctypes.CDLL(library)  # the copy pygame loaded: same process, same video state
        diagonal, horizontal, vertical = ctypes.c_float(), ctypes.c_float(), ctypes.c_float()
        if sdl.SDL_GetDisplayDPI(0, ctypes.byref(diagonal), ctypes.byref(horizontal), ctypes.byref(vertical)) != 0:
            return None  # e.g. the dummy driver: no display to ask
        return float(horizontal.value) if 20 <= horizontal.value <= 1000 else None
    except (OSError, AttributeError, ImportError):
        return None


def _sdl_library(package: Path) -> str | None:
    patterns = [
        str(package.parent / "pygame.libs" / "libSDL2-2*.so*"),
        str(package / ".dylibs" / "libSDL2-2*.dylib"),
        str(package / "SDL2.dll"),
        str(package.parent / "pygame.libs" / "SDL2*.dll"),
    ]
    found = [path for pattern in patterns for path in sorted(glob.glob(pattern))]
    return found[0] if found else os.environ.get("PYSDL2_DLL_PATH") or None


def oled_rgb(image: Any, size: tuple[int, int]) -> Any:
    """The display's image as the panel looks (blue-white on black), scaled to `size` pixels:
    pixel blocks when enlarged, averaged when shrunk (a true-size panel is often finer than the
    screen)."""
    from PIL import Image

    from sim.render import OLED_OFF, OLED_ON

    grey = image.convert("L")
    rgb = Image.merge(
        "RGB", [grey.point(lambda v, lo=lo, hi=hi: lo + (hi - lo) * v // 255) for lo, hi in zip(OLED_OFF, OLED_ON)]
    )
    enlarge = size[0] >= image.width
    return rgb.resize(size, Image.Resampling.NEAREST if enlarge else Image.Resampling.BOX)


def side_by_side(image: Any, size_mm: tuple[float, float], dpi: float, zoom: int = 4, dpi_source: str = "") -> Any:
    """One picture: the display zoomed (`zoom` screen pixels per panel pixel) and, beside it, at
    its physical size for `dpi`, each captioned."""
    from PIL import Image, ImageDraw

    zoomed_size = (image.width * zoom, image.height * zoom)
    true_size = true_size_px(size_mm, dpi)
    width = zoomed_size[0] + GAP_PX * 3 + max(true_size[0], 320)  # room for the caption
    height = GAP_PX * 2 + max(zoomed_size[1], true_size[1]) + LABEL_PX
    picture = Image.new("RGB", (width, height), BACKGROUND)
    picture.paste(oled_rgb(image, zoomed_size), (GAP_PX, GAP_PX))
    right = GAP_PX * 2 + zoomed_size[0]
    picture.paste(oled_rgb(image, true_size), (right, GAP_PX))
    draw = ImageDraw.Draw(picture)
    y = GAP_PX + max(zoomed_size[1], true_size[1]) + 4
    draw.text((GAP_PX, y), f"zoom: {zoom} px per display pixel", fill=CAPTION)
    source = f", {dpi_source}" if dpi_source else ""
    draw.text((right, y), f"true size: {size_mm[0]:g} x {size_mm[1]:g} mm at {dpi:g} dpi{source}", fill=CAPTION)
    return picture
