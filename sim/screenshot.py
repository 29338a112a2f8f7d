"""Pictures of the simulated board: the whole board (LEDs, OLED, buttons) as a PNG, or the
display's own pixels 1:1.

    >>> save_screenshot(SimBoard(seed=1), Path("menu.png"))        # doctest: +SKIP
    >>> save_display_image(SimBoard(seed=1), Path("oled.png"))     # doctest: +SKIP
"""

from __future__ import annotations

import os
from pathlib import Path
from typing import Any

from sim.render import DEFAULT_SCALE, BoardRenderer, snapshot


def use_dummy_video_if_headless() -> None:
    """Without a display (CI, ssh), let SDL use its dummy video driver instead of failing."""
    if not (os.environ.get("DISPLAY") or os.environ.get("WAYLAND_DISPLAY")) and os.name != "nt":
        os.environ.setdefault("SDL_VIDEODRIVER", "dummy")
    os.environ.setdefault("PYGAME_HIDE_SUPPORT_PROMPT", "1")


def render_board(board: Any, scale: float = DEFAULT_SCALE) -> Any:
    """A pygame Surface of the SimBoard as it looks now."""
    use_dummy_video_if_headless()
    return BoardRenderer(board.config, scale).render(snapshot(board))


def save_screenshot(board: Any, path: Path | str, scale: float = DEFAULT_SCALE) -> Path:
    """Write the SimBoard's picture to `path` (PNG); returns the path."""
    use_dummy_video_if_headless()
    import pygame

    target = Path(path)
    if target.parent and not target.parent.is_dir():
        raise OSError(f"screenshot: the folder {target.parent} does not exist")
    pygame.image.save(render_board(board, scale), str(target))
    return target


def save_display_image(board: Any, path: Path | str) -> Path:
    """Write what the SimBoard's display shows, one PNG pixel per panel pixel (the profile's
    width × height; mode "1" or, on greyscale panels, 8-bit grey); returns the path."""
    from PIL import Image

    target = Path(path)
    if target.parent and not target.parent.is_dir():
        raise OSError(f"display image: the folder {target.parent} does not exist")
    display = board.hardware.display
    if display is None:
        raise OSError("display image: the board has no display")
    image = display.image if display.image is not None else Image.new(display.device.mode, display.size)
    (image if image.mode == "1" else image.convert("L")).save(target, format="PNG")
    return target


def save_true_size_image(board: Any, path: Path | str, dpi: float, zoom: int = 4) -> Path:
    """Write the display zoomed beside its physical size at `dpi` (sim.truesize), as PNG."""
    from sim.truesize import side_by_side

    target = Path(path)
    if target.parent and not target.parent.is_dir():
        raise OSError(f"true-size image: the folder {target.parent} does not exist")
    image = board.image()
    if image is None:
        raise OSError("true-size image: the board has no display")
    side_by_side(image, board.config.display.size_mm, dpi, zoom).save(target)
    return target
