"""Pictures of the simulated board: the whole board (LEDs, OLED, buttons) as a PNG.

    >>> save_screenshot(SimBoard(seed=1), Path("menu.png"))        # doctest: +SKIP
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
