"""The simulator's true-size OLED: physical size from the board description, DPI from --dpi,
SDL or the default, the window's panel and the side-by-side picture."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

os.environ.setdefault("SDL_VIDEODRIVER", "dummy")
os.environ.setdefault("PYGAME_HIDE_SUPPORT_PROMPT", "1")

import pygame  # noqa: E402

from sim.board import SimBoard  # noqa: E402
from sim.render import OLED_ON  # noqa: E402
from sim.screenshot import save_true_size_image  # noqa: E402
from sim.truesize import DEFAULT_DPI, GAP_PX, LABEL_PX, screen_dpi, side_by_side, true_size_px  # noqa: E402
from sim.window import SimWindow  # noqa: E402


def test_physical_size_follows_the_mm_and_the_dpi() -> None:
    assert true_size_px((55.01, 27.49), 96.0) == (208, 104)  # the default 2.42″ panel
    assert true_size_px((25.4, 12.7), 200.0) == (200, 100)
    with pytest.raises(ValueError, match="dpi must be > 0"):
        true_size_px((10.0, 10.0), 0.0)


def test_dpi_comes_from_the_flag_else_sdl_else_the_default() -> None:
    assert screen_dpi(140.0) == (140.0, "--dpi")
    with pytest.raises(ValueError, match="--dpi must be from 20 to 1000"):
        screen_dpi(5.0)
    pygame.display.init()
    try:
        assert screen_dpi() == (DEFAULT_DPI, "default")  # the dummy driver knows no display to ask
    finally:
        pygame.display.quit()


def test_the_window_shows_the_oled_at_true_size_beside_the_board() -> None:
    board = SimBoard(seed=1)
    window = SimWindow(board, scale=1.0, true_size=True, dpi=127.0)
    try:
        window.run(2)
        size = true_size_px(board.config.display.size_mm, 127.0)  # 55.01 mm at 5 px/mm
        assert size == (275, 137)
        assert window.surface.get_size() == (window.renderer.size[0] + size[0] + 2 * GAP_PX, window.renderer.size[1])
        left, top = window.renderer.size[0] + GAP_PX, GAP_PX + LABEL_PX
        panel = window.surface.subsurface((left, top, *size))
        lit = sum(panel.get_at((x, y))[:3] == OLED_ON for x in range(size[0]) for y in range(size[1]))
        assert lit > 200  # the menu's text, drawn in the panel at its physical size
    finally:
        window.close()
        board.close()


def test_the_side_by_side_picture_has_the_zoom_and_the_true_size(tmp_path: Path) -> None:
    board = SimBoard(seed=1)
    try:
        path = save_true_size_image(board, tmp_path / "oled.png", dpi=96.0, zoom=3)
        image = board.image()
    finally:
        board.close()
    from PIL import Image

    picture = Image.open(path)
    assert picture.height == 2 * GAP_PX + 64 * 3 + LABEL_PX
    assert picture.width == 128 * 3 + 3 * GAP_PX + 320
    again = side_by_side(image, (55.01, 27.49), 96.0, zoom=3)
    assert again.tobytes() == picture.convert("RGB").tobytes()  # the same every time
