"""`xtraboard sim`: the board in a pygame window, running the same firmware loop in real time.

Keys and mouse only change MockFactory pin levels (down = contact closed, up = open), so the
firmware's own debounce and long-press logic decide what a press means, as on the board:
holding Backspace for a second opens the menu.

    R roll · Enter OK · Backspace back (hold: menu) · Left/Right arrows · Esc or close: quit
    click a drawn button (hold the mouse button to hold it)

`--true-size` adds a panel right of the board with the OLED at its physical size (the board
description's mm, the screen's DPI from SDL or `--dpi`; see sim.truesize).

Each frame the window handles pygame's events, lets the firmware run what is due
(`run_pending`: queued edges and due timers, never a poll of its own), draws the board and
waits for the next frame (30 fps).
"""

from __future__ import annotations

import argparse
import math
import os
import sys
from pathlib import Path
from typing import Any

from firmware.hardware.config import BoardConfig
from firmware.i18n import _
from firmware.loop import FakeClock
from sim.render import DESK, FOOTER_MM, MARGIN_MM, BoardRenderer, snapshot
from sim.truesize import CAPTION, GAP_PX, LABEL_PX, oled_rgb, screen_dpi, true_size_px

FPS = 30
FOOTER = "R roll  ·  Enter OK  ·  Backspace back (hold: menu)  ·  Left/Right arrows  ·  click the buttons  ·  Esc quit"
MIN_SCALE = 0.5
MAX_SCALE = 3.0


def key_buttons() -> dict[int, str]:
    """pygame key code → board button."""
    import pygame

    return {
        pygame.K_r: "roll",
        pygame.K_RETURN: "ok",
        pygame.K_KP_ENTER: "ok",
        pygame.K_BACKSPACE: "back",
        pygame.K_LEFT: "left",
        pygame.K_RIGHT: "right",
    }


def fit_scale(config: BoardConfig, size: tuple[float, float]) -> float:
    """The largest scale (px/mm, at most MAX_SCALE) at which the board and its help line fit `size`."""
    width_mm = config.size_mm[0] + 2 * MARGIN_MM
    height_mm = config.size_mm[1] + 2 * MARGIN_MM + FOOTER_MM
    return max(MIN_SCALE, min(MAX_SCALE, size[0] / width_mm, size[1] / height_mm))


class SimWindow:
    """A window showing `board` and turning keys and clicks into pin changes.

    With a realtime board the firmware sees the wall clock; with a FakeClock board (tests)
    each frame advances the clock by one frame's time, so runs are exactly repeatable.
    """

    def __init__(
        self,
        board: Any,
        *,
        scale: float | None = None,
        fps: int = FPS,
        true_size: bool = False,
        dpi: float | None = None,
    ) -> None:
        os.environ.setdefault("PYGAME_HIDE_SUPPORT_PROMPT", "1")
        import pygame

        if fps <= 0:
            raise ValueError(f"window: fps must be > 0, got {fps}")
        pygame.display.init()
        pygame.font.init()
        self.board = board
        self.fps = fps
        self.keys = key_buttons()
        if scale is None:
            desktop = (pygame.display.get_desktop_sizes() or [(1280, 800)])[0]
            scale = math.floor(fit_scale(board.config, (desktop[0] * 0.92, desktop[1] * 0.85)) * 4) / 4
        self.renderer = BoardRenderer(board.config, scale, footer=FOOTER)
        # --true-size: the OLED at its physical size in a panel right of the board (sim.truesize)
        self.dpi, self.dpi_source = screen_dpi(dpi)
        self.true_size = true_size_px(board.config.display.size_mm, self.dpi) if true_size else None
        self.surface = pygame.display.set_mode(self.window_size(), pygame.RESIZABLE)
        pygame.display.set_caption(_("xtraboard simulator — {board}").format(board=board.config.name))
        self.offset = (0, 0)
        self.clock = pygame.time.Clock()
        self.frames = 0
        self.running = True
        self._holders: dict[str, set[str]] = {}  # button → what holds it down ("key:13", "mouse")
        self._mouse_button: str | None = None
        self._canvas: Any = None
        self._true: tuple[Any, Any] | None = None  # (image drawn, its true-size surface)

    def window_size(self) -> tuple[int, int]:
        """The board, and the true-size panel beside it when on."""
        width, height = self.renderer.size
        if self.true_size is None:
            return width, height
        return width + self.panel_width(), max(height, self.true_size[1] + 3 * GAP_PX + 2 * LABEL_PX)

    def panel_width(self) -> int:
        return 0 if self.true_size is None else self.true_size[0] + 2 * GAP_PX

    # --- input ------------------------------------------------------------------------------
    def handle(self, event: Any) -> None:
        """One pygame event."""
        import pygame

        if event.type == pygame.QUIT:
            self.running = False
        elif event.type == pygame.KEYDOWN:
            if event.key == pygame.K_ESCAPE:
                self.running = False
            elif event.key in self.keys:
                self._hold(self.keys[event.key], f"key:{event.key}")
        elif event.type == pygame.KEYUP and event.key in self.keys:
            self._let_go(self.keys[event.key], f"key:{event.key}")
        elif event.type == pygame.MOUSEBUTTONDOWN and event.button == 1:
            name = self.renderer.button_at((event.pos[0] - self.offset[0], event.pos[1] - self.offset[1]))
            if name is not None:
                self._mouse_button = name
                self._hold(name, "mouse")
        elif event.type == pygame.MOUSEBUTTONUP and event.button == 1 and self._mouse_button is not None:
            self._let_go(self._mouse_button, "mouse")  # wherever the pointer is now
            self._mouse_button = None
        elif event.type == pygame.WINDOWFOCUSLOST:
            self.release_all()  # the key-up events will go to another window
        elif event.type == pygame.VIDEORESIZE:
            self.resize((event.w, event.h))

    def _hold(self, name: str, holder: str) -> None:
        holders = self._holders.setdefault(name, set())
        if not holders:
            self.board.press(name)
        holders.add(holder)

    def _let_go(self, name: str, holder: str) -> None:
        holders = self._holders.get(name, set())
        if holder not in holders:
            return
        holders.discard(holder)
        if not holders:
            self.board.release(name)

    def release_all(self) -> None:
        for name, holders in self._holders.items():
            if holders:
                holders.clear()
                self.board.release(name)
        self._mouse_button = None

    def resize(self, size: tuple[int, int]) -> None:
        """Redraw at the scale that fits the new window size, centred."""
        import pygame

        scale = fit_scale(self.board.config, (size[0] - self.panel_width(), size[1]))
        if abs(scale - self.renderer.scale) > 1e-3:
            self.renderer = BoardRenderer(self.board.config, scale, footer=FOOTER)
        self.surface = pygame.display.get_surface()
        width, height = self.surface.get_size()
        wanted = self.window_size()
        self.offset = (max(0, (width - wanted[0]) // 2), max(0, (height - wanted[1]) // 2))

    # --- frames -------------------------------------------------------------------------------
    def advance(self) -> None:
        """Let the firmware run what is due now (a fake clock first moves on by one frame)."""
        if isinstance(self.board.clock, FakeClock):
            self.board.wait(1 / self.fps)
        else:
            self.board.run_pending()

    def draw(self) -> None:
        import pygame

        if self._canvas is None or self._canvas.get_size() != self.renderer.size:
            self._canvas = pygame.Surface(self.renderer.size)
        self.renderer.draw(self._canvas, snapshot(self.board))
        self.surface.fill(DESK)
        self.surface.blit(self._canvas, self.offset)
        if self.true_size is not None:
            self._draw_true_size(self.true_size)
        pygame.display.flip()

    def _draw_true_size(self, size: tuple[int, int]) -> None:
        """The display at its physical size (never scaled with the window), captioned."""
        import pygame

        image = self.board.image()
        left = self.offset[0] + self.renderer.size[0] + GAP_PX
        top = self.offset[1] + GAP_PX
        font = pygame.font.Font(None, LABEL_PX)
        self.surface.blit(font.render(_("true size"), True, CAPTION), (left, top))
        top += LABEL_PX
        if image is not None:
            if self._true is None or self._true[0] is not image:
                rgb = oled_rgb(image, size)
                self._true = (image, pygame.image.frombytes(rgb.tobytes(), rgb.size, "RGB"))
            self.surface.blit(self._true[1], (left, top))
        pygame.draw.rect(self.surface, CAPTION, (left - 1, top - 1, size[0] + 2, size[1] + 2), 1)
        note = f"{self.dpi:g} dpi ({self.dpi_source})"
        self.surface.blit(font.render(note, True, CAPTION), (left, top + size[1] + GAP_PX // 2))

    def step(self) -> None:
        """One frame: events, firmware, picture."""
        import pygame

        for event in pygame.event.get():
            self.handle(event)
        if not self.running:
            return
        self.advance()
        self.draw()
        self.frames += 1

    def run(self, frames: int | None = None) -> None:
        """Frames at `fps` until closed (or after `frames` frames)."""
        while self.running and (frames is None or self.frames < frames):
            self.step()
            if self.running and (frames is None or self.frames < frames):
                self.clock.tick(self.fps)

    def close(self) -> None:
        import pygame

        self.release_all()
        pygame.display.quit()


def run_window(args: argparse.Namespace) -> int:
    """`xtraboard sim` without --headless: the window; --frames N quits after N frames."""
    os.environ.setdefault("PYGAME_HIDE_SUPPORT_PROMPT", "1")
    import pygame

    from sim.board import SimBoard

    frames = getattr(args, "frames", None)
    if frames is not None and frames < 1:
        print("xtraboard sim: " + _("--frames must be at least 1, got {frames}").format(frames=frames), file=sys.stderr)
        return 2
    board = SimBoard(
        board_file=args.board,
        seed=args.seed,
        state_dir=args.state_dir,
        kiosk=args.kiosk,
        realtime=True,
        language=getattr(args, "lang", None),
    )
    window = None
    try:
        if args.kiosk:
            from firmware.ui.menus import resume

            resume(board.app)  # as `xtraboard run --kiosk`: straight back into the unfinished game
            board.board.render()
        try:
            window = SimWindow(board, true_size=getattr(args, "true_size", False), dpi=getattr(args, "dpi", None))
        except pygame.error as exc:
            print(
                "xtraboard sim: "
                + _(
                    "cannot open a window ({error}); on a machine without a display use "
                    "--headless, or SDL_VIDEODRIVER=dummy with --frames N"
                ).format(error=exc),
                file=sys.stderr,
            )
            return 2
        window.run(frames)
        screenshot: Path | None = getattr(args, "screenshot", None)
        if screenshot is not None:
            from sim.screenshot import save_screenshot

            window.release_all()
            save_screenshot(board, screenshot)
        return 0
    finally:
        if window is not None:
            window.close()
        board.close()
