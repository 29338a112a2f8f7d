"""The board drawn from `hardware/` onto a pygame Surface: outline, LED cells at their physical
positions in the colours the chain shows, the OLED in its frame, the five buttons.

Works without a window (any SDL video driver, or none): only pygame's Surface, draw and font.

    >>> renderer = BoardRenderer(load_board(), scale=3.0)          # doctest: +SKIP
    >>> surface = renderer.render(snapshot(sim_board))              # doctest: +SKIP

Positions are millimetres in board.toml; `scale` is pixels per millimetre. The LED colours come
from the pixel buffer (what a real chain would show: brightness and current budget applied),
lifted by `lit_colour` so that a dimmed chain still reads well on a monitor.
"""

from __future__ import annotations

import math
import os
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from typing import Any

from firmware.games.layout import CellGroup
from firmware.hardware.config import BUTTON_NAMES, BoardConfig
from firmware.i18n import _

Colour = tuple[int, int, int]
Point = tuple[float, float]

DEFAULT_SCALE = 3.0  # px per mm: the OLED's pixels come out 3 px wide, 1 mm on the board
MARGIN_MM = 10.0  # desk around the board
FOOTER_MM = 8.0  # the strip under the board for a help line
LED_LIFT = 0.35  # LEDs look far brighter than their duty cycle; a monitor needs the help

DESK: Colour = (17, 18, 22)
BOARD_TOP: Colour = (34, 41, 56)
BOARD_BOTTOM: Colour = (25, 30, 42)
BOARD_EDGE: Colour = (72, 84, 108)
TILE: Colour = (45, 54, 73)
TILE_EDGE: Colour = (66, 78, 102)
PATH: Colour = (39, 47, 64)
INK: Colour = (138, 152, 180)  # printed labels
INK_FAINT: Colour = (96, 108, 134)
ACCENT: Colour = (196, 160, 88)  # brass: ladder rails, start/finish
X_INK: Colour = (200, 70, 70)
LED_OFF: Colour = (30, 33, 40)
LED_OFF_RIM: Colour = (62, 68, 82)
DIE_BODY: Colour = (20, 23, 30)
DIE_EDGE: Colour = (84, 92, 112)
OLED_ON: Colour = (205, 232, 255)
OLED_OFF: Colour = (7, 9, 14)
BEZEL: Colour = (10, 11, 14)
PCB: Colour = (24, 58, 112)

BUTTON_CAPS: dict[str, Colour] = {  # arcade button colours
    "roll": (206, 40, 44),
    "ok": (38, 160, 74),
    "back": (222, 176, 32),
    "left": (52, 112, 206),
    "right": (52, 112, 206),
}
BUTTON_LABELS = {"roll": "ROLL", "ok": "OK", "back": "BACK", "left": "◄", "right": "►"}
BUTTON_RADIUS_MM = {"roll": 10.5}  # ROLL is the big one
BUTTON_RADIUS_DEFAULT_MM = 9.0
BUTTON_RING_MM = 1.6

# The shapes a game's cells are laid out in (firmware.games.layout): tile sizes and label places.
PATH_TILE_MM = 26.0
ROW_TILE_MM = 20.0
SEAT_LED_MM = 5.0
OTHER_LED_MM = 5.0  # a cell of no declared group (a board built in code)


@dataclass
class BoardView:
    """What the board shows at one moment: LED colours (as the chain shows them), the OLED
    image, and which buttons are held down."""

    leds: dict[str, Colour] = field(default_factory=dict)  # cell → RGB after brightness
    image: Any = None  # the display's PIL image, or None (no display)
    pressed: frozenset[str] = frozenset()


def snapshot(sim_board: Any) -> BoardView:
    """Read a SimBoard's outputs: the pixel buffer, the display's last image, the button pins."""
    hardware = sim_board.hardware
    return BoardView(
        leds=cell_colours(sim_board.config, hardware.leds.pixels if hardware.leds is not None else None),
        image=sim_board.image(),
        pressed=pressed_buttons(sim_board.config, sim_board.pins),
    )


def cell_colours(config: BoardConfig, pixels: Any) -> dict[str, Colour]:
    """Each cell's colour as pushed to the chain (a cell of several LEDs: its brightest one)."""
    if pixels is None:
        return {name: (0, 0, 0) for name in config.leds.cells}
    shown = pixels.shown()
    return {name: max((shown[i] for i in cell.leds), key=sum) for name, cell in config.leds.cells.items()}


def pressed_buttons(config: BoardConfig, pins: Mapping[str, Any]) -> frozenset[str]:
    """Buttons whose contact is closed: pin low with pull-ups (high with pull-downs)."""
    closed = 0 if config.buttons.pull_up else 1
    return frozenset(name for name, pin in pins.items() if int(bool(pin.state)) == closed)


def lit_colour(colour: Colour) -> Colour:
    """The colour drawn for an LED showing `colour`: its brightest channel lifted along a power
    curve, the others scaled with it (the hue stays); black stays black."""
    peak = max(colour)
    if peak == 0:
        return (0, 0, 0)
    factor = 255 * (peak / 255) ** LED_LIFT / peak
    return tuple(min(255, round(c * factor)) for c in colour)


def _init_fonts() -> None:
    os.environ.setdefault("PYGAME_HIDE_SUPPORT_PROMPT", "1")
    import pygame

    if not pygame.font.get_init():
        pygame.font.init()


class BoardRenderer:
    """Draws one board description at one scale; the static parts are drawn once and cached."""

    def __init__(self, config: BoardConfig, scale: float = DEFAULT_SCALE, *, footer: str = "") -> None:
        if not scale > 0:
            raise ValueError(f"render: scale must be > 0 px/mm, got {scale}")
        _init_fonts()
        self.config = config
        self.scale = scale
        self.footer = footer  # a line of help under the board (the window's keys)
        width_mm, height_mm = config.size_mm
        self.size = (
            self.px(width_mm + 2 * MARGIN_MM),
            self.px(height_mm + 2 * MARGIN_MM + (FOOTER_MM if footer else 0)),
        )
        self._fonts: dict[tuple[int, bool], Any] = {}
        self._glows: dict[tuple[Colour, int], Any] = {}
        self._oled: tuple[bytes, Any] | None = None
        self._static: Any = None
        self._groups = {group.name: group for group in config.layout}

    # --- geometry ---------------------------------------------------------------------------
    def px(self, mm: float) -> int:
        return round(mm * self.scale)

    def at(self, point: Point) -> tuple[int, int]:
        """Pixel position of a board point (mm from the board's top-left corner)."""
        return self.px(point[0] + MARGIN_MM), self.px(point[1] + MARGIN_MM)

    def cell_centre(self, name: str) -> tuple[int, int]:
        cell = self.config.leds.cells[name]
        return self.at((cell.x, cell.y))

    def led_radius(self, name: str) -> int:
        group = self._groups.get(name.partition(".")[0])
        base = OTHER_LED_MM if group is None else group.led_mm
        leds = len(self.config.leds.cells[name].leds)
        return self.px(base * (1.25 if leds > 1 else 1.0))  # two LEDs under one bigger window (start, finish)

    def button_radius(self, name: str) -> int:
        return self.px(BUTTON_RADIUS_MM.get(name, BUTTON_RADIUS_DEFAULT_MM))

    def button_at(self, pos: tuple[int, int]) -> str | None:
        """The button drawn under a pixel position (with a little slack), or None."""
        for name in BUTTON_NAMES:
            if name not in self.config.button_positions:
                continue
            x, y = self.at(self.config.button_positions[name])
            if math.hypot(pos[0] - x, pos[1] - y) <= self.button_radius(name) + self.px(2):
                return name
        return None

    def oled_rect(self) -> Any:
        """Where the OLED's pixels are drawn: one display pixel per millimetre of board, within the
        128 × 64 mm the board keeps for it (a larger panel's pixels are drawn smaller)."""
        import pygame

        display = self.config.display
        width, height = (display.height, display.width) if display.rotate % 2 else (display.width, display.height)
        fit = min(1.0, 128 / width, 64 / height)
        x, y = self.at(self.config.display_position)
        return pygame.Rect(x, y, self.px(width * fit), self.px(height * fit))

    # --- drawing ------------------------------------------------------------------------------
    def render(self, view: BoardView) -> Any:
        """A new Surface of `size` showing the board."""
        import pygame

        surface = pygame.Surface(self.size)
        self.draw(surface, view)
        return surface

    def draw(self, target: Any, view: BoardView) -> None:
        """Draw the board onto `target`, a Surface of at least `size`."""
        target.blit(self._static_layer(), (0, 0))
        for name in self.config.leds.cells:
            self._draw_led(target, name, view.leds.get(name, (0, 0, 0)))
        self._draw_oled(target, view.image)
        for name in BUTTON_NAMES:
            if name in self.config.button_positions:
                self._draw_button(target, name, name in view.pressed)

    # --- the static layer: board, tiles, labels -------------------------------------------------
    def _static_layer(self) -> Any:
        if self._static is None:
            import pygame

            layer = pygame.Surface(self.size)
            layer.fill(DESK)
            self._draw_outline(layer)
            shapes = {
                "path": self._draw_path,
                "rungs": self._draw_rungs,
                "rows": self._draw_rows,
                "dice": self._draw_dice,
                "seats": self._draw_seats,
            }
            for group in self.config.layout:  # in the order the games declare them, the board's last
                shapes[group.shape](layer, group)
            self._draw_oled_frame(layer)
            self._draw_button_labels(layer)
            self._draw_wordmark(layer)
            for name in self.config.leds.cells:
                self._draw_socket(layer, name)
            if self.footer:
                self._text(layer, self.footer, (self.size[0] // 2, self.size[1] - self.px(6)), 3.6, INK_FAINT)
            self._static = layer
        return self._static

    def _draw_outline(self, layer: Any) -> None:
        import pygame

        width_mm, height_mm = self.config.size_mm
        rect = pygame.Rect(self.at((0, 0)), (self.px(width_mm), self.px(height_mm)))
        radius = self.px(min(12.0, width_mm / 8, height_mm / 8))
        shadow = rect.move(self.px(1.2), self.px(2.0))
        pygame.draw.rect(layer, (8, 8, 10), shadow, border_radius=radius)
        # A vertical gradient, clipped to the rounded outline through a mask surface.
        board = pygame.Surface(rect.size, pygame.SRCALPHA)
        for row in range(rect.height):
            t = row / max(1, rect.height - 1)
            colour = tuple(round(a + (b - a) * t) for a, b in zip(BOARD_TOP, BOARD_BOTTOM))
            pygame.draw.line(board, colour, (0, row), (rect.width, row))
        mask = pygame.Surface(rect.size, pygame.SRCALPHA)
        pygame.draw.rect(mask, (255, 255, 255, 255), mask.get_rect(), border_radius=radius)
        board.blit(mask, (0, 0), special_flags=pygame.BLEND_RGBA_MIN)
        layer.blit(board, rect.topleft)
        pygame.draw.rect(layer, BOARD_EDGE, rect, width=max(1, self.px(0.8)), border_radius=radius)
        inner = rect.inflate(-self.px(5), -self.px(5))
        pygame.draw.rect(layer, (44, 52, 70), inner, width=1, border_radius=max(0, radius - self.px(2.5)))
        for cx, cy in ((6, 6), (width_mm - 6, 6), (6, height_mm - 6), (width_mm - 6, height_mm - 6)):
            self._screw(layer, self.at((cx, cy)))

    def _screw(self, layer: Any, centre: tuple[int, int]) -> None:
        import pygame

        r = self.px(2.2)
        _disc(layer, (92, 98, 112), centre, r)
        pygame.draw.circle(layer, (52, 56, 66), centre, r, width=max(1, self.px(0.4)))
        d = round(r * 0.6)
        pygame.draw.line(
            layer, (48, 52, 60), (centre[0] - d, centre[1] - d), (centre[0] + d, centre[1] + d), max(1, self.px(0.5))
        )

    def _cells(self, group: CellGroup) -> list[tuple[str, Point]]:
        return [(name, (c.x, c.y)) for name, c in self.config.leds.cells.items() if group.owns(name)]

    def _bounds(self, points: Iterable[Point]) -> tuple[float, float, float, float]:
        xs, ys = zip(*points)
        return min(xs), min(ys), max(xs), max(ys)

    def _group_label(self, layer: Any, text: str, points: list[Point], above_mm: float) -> None:
        left, top, right, _ = self._bounds(points)
        self._text(layer, text, self.at(((left + right) / 2, top - above_mm)), 4.2, INK, bold=True, spacing=0.9)

    def _draw_path(self, layer: Any, group: CellGroup) -> None:
        """Tiles joined in cell order; the first and last labelled with the group's `ends`."""
        import pygame

        cells = sorted(self._cells(group), key=lambda item: int(item[0].split(".")[1]))
        if not cells:
            return
        points = [self.at(p) for _, p in cells]
        if len(points) > 1:
            pygame.draw.lines(layer, PATH, False, points, self.px(12))
            for pixel in points:
                _disc(layer, PATH, pixel, self.px(6))
        last = len(cells) - 1
        half = PATH_TILE_MM / 2
        for index, (_name, point) in enumerate(cells):
            end = index in (0, last) and group.ends is not None
            size = self.px(PATH_TILE_MM)
            rect = pygame.Rect(0, 0, size, size)
            rect.center = self.at(point)
            pygame.draw.rect(layer, TILE, rect, border_radius=self.px(4))
            pygame.draw.rect(
                layer, ACCENT if end else TILE_EDGE, rect, width=max(1, self.px(0.6)), border_radius=self.px(4)
            )
            label = group.ends[min(index, 1)] if group.ends is not None and end else str(index)
            self._text(
                layer,
                label,
                self.at((point[0], point[1] + half - 3.4)),
                2.6 if end else 3.0,
                ACCENT if end else INK_FAINT,
                bold=end,
            )
        self._group_label(layer, group.title, [p for _, p in cells], PATH_TILE_MM / 2 + 5.0)

    def _draw_rungs(self, layer: Any, group: CellGroup) -> None:
        """Rungs between two rails, each numbered."""
        import pygame

        cells = sorted(self._cells(group), key=lambda item: int(item[0].split(".")[1]))
        if not cells:
            return
        left, top, right, bottom = self._bounds(p for _, p in cells)
        rail = 9.0
        vertical = bottom - top >= right - left
        width = max(1, self.px(1.4))
        if vertical:
            for dx in (-rail, rail):
                pygame.draw.line(layer, ACCENT, self.at((left + dx, top - 8)), self.at((left + dx, bottom + 8)), width)
        else:
            for dy in (-rail, rail):
                pygame.draw.line(layer, ACCENT, self.at((left - 8, top + dy)), self.at((right + 8, top + dy)), width)
        for name, (x, y) in cells:
            rung = name.split(".")[1]
            ends = ((x - rail, y), (x + rail, y)) if vertical else ((x, y - rail), (x, y + rail))
            pygame.draw.line(layer, (120, 100, 60), self.at(ends[0]), self.at(ends[1]), max(1, self.px(1.0)))
            where = (x + rail + 4.5, y) if vertical else (x, y + rail + 4.5)
            self._text(layer, rung, self.at(where), 3.2, INK_FAINT, bold=True)
        self._group_label(layer, group.title, [p for _, p in cells], 16.0)

    def _draw_rows(self, layer: Any, group: CellGroup) -> None:
        """Rows of tiles, each numbered; the group's `last_mark` on each row's last tile."""
        import pygame

        cells = self._cells(group)
        if not cells:
            return
        rows: dict[int, list[tuple[int, Point]]] = {}
        for name, point in cells:
            _, row_text, field_text = name.split(".")
            rows.setdefault(int(row_text), []).append((int(field_text), point))
        size = self.px(ROW_TILE_MM)
        for row, fields in sorted(rows.items()):
            fields.sort()
            last = fields[-1][0]
            for fieldno, point in fields:
                rect = pygame.Rect(0, 0, size, size)
                rect.center = self.at(point)
                marked = fieldno == last and bool(group.last_mark)
                pygame.draw.rect(layer, TILE, rect, border_radius=self.px(3))
                pygame.draw.rect(
                    layer, X_INK if marked else TILE_EDGE, rect, width=max(1, self.px(0.6)), border_radius=self.px(3)
                )
                if marked:
                    self._text(
                        layer,
                        group.last_mark,
                        self.at((point[0] + ROW_TILE_MM / 2 - 3.0, point[1] - ROW_TILE_MM / 2 + 3.2)),
                        3.0,
                        X_INK,
                        bold=True,
                    )
            first = min(fields, key=lambda item: item[1][0])[1]
            self._text(
                layer, str(row), self.at((first[0] - ROW_TILE_MM / 2 - 5.0, first[1])), 3.6, INK_FAINT, bold=True
            )
        self._group_label(layer, group.title, [p for _, p in cells], ROW_TILE_MM / 2 + 6.0)

    def _draw_dice(self, layer: Any, group: CellGroup) -> None:
        """A die's body around each row of pips."""
        import pygame

        cells = self._cells(group)
        if not cells:
            return
        dice: dict[str, list[Point]] = {}
        for name, point in cells:
            dice.setdefault(name.split(".")[1], []).append(point)
        pad = 7.0
        for points in dice.values():
            left, top, right, bottom = self._bounds(points)
            rect = pygame.Rect(
                self.at((left - pad, top - pad)), (self.px(right - left + 2 * pad), self.px(bottom - top + 2 * pad))
            )
            pygame.draw.rect(layer, (10, 12, 16), rect.move(self.px(0.6), self.px(1.0)), border_radius=self.px(4.5))
            pygame.draw.rect(layer, DIE_BODY, rect, border_radius=self.px(4.5))
            pygame.draw.rect(layer, DIE_EDGE, rect, width=max(1, self.px(0.6)), border_radius=self.px(4.5))
        self._group_label(layer, group.title, [p for _, p in cells], pad + 5.0)

    def _draw_seats(self, layer: Any, group: CellGroup) -> None:
        """Each LED by the board's edge labelled with its seat number."""
        width_mm, height_mm = self.config.size_mm
        for name, (x, y) in self._cells(group):
            seat = int(name.split(".")[1]) + 1
            distances = {"top": y, "bottom": height_mm - y, "left": x, "right": width_mm - x}
            edge = min(distances, key=distances.__getitem__)
            # Along the top and bottom edges: beside the LED; along the sides: above it.
            where = (x + SEAT_LED_MM + 11.0, y) if edge in ("top", "bottom") else (x, y - SEAT_LED_MM - 5.5)
            self._text(layer, f"SEAT {seat}", self.at(where), 3.0, INK, bold=True)

    def _draw_oled_frame(self, layer: Any) -> None:
        import pygame

        screen = self.oled_rect()
        module = screen.inflate(self.px(5), self.px(5))
        pygame.draw.rect(layer, (10, 12, 16), module.move(self.px(0.6), self.px(1.0)), border_radius=self.px(2.5))
        pygame.draw.rect(layer, PCB, module, border_radius=self.px(2.5))
        glass = screen.inflate(self.px(2.4), self.px(2.4))
        pygame.draw.rect(layer, BEZEL, glass, border_radius=self.px(1.2))
        pygame.draw.rect(layer, (50, 56, 70), glass, width=1, border_radius=self.px(1.2))
        for corner in (module.topleft, module.topright, module.bottomleft, module.bottomright):
            inset = (
                corner[0] + (self.px(1.3) if corner[0] == module.left else -self.px(1.3)),
                corner[1] + (self.px(1.3) if corner[1] == module.top else -self.px(1.3)),
            )
            _disc(layer, (200, 190, 150), inset, self.px(0.8))
            _disc(layer, DESK, inset, max(1, self.px(0.4)))

    def _draw_button_labels(self, layer: Any) -> None:
        import pygame

        for name in BUTTON_NAMES:
            if name not in self.config.button_positions:
                continue
            x, y = self.config.button_positions[name]
            radius_mm = BUTTON_RADIUS_MM.get(name, BUTTON_RADIUS_DEFAULT_MM)
            centre = self.at((x, y))
            ring = self.px(radius_mm + BUTTON_RING_MM)
            _disc(layer, (12, 13, 17), centre, ring)  # the bezel ring's hole
            pygame.draw.circle(layer, (70, 76, 90), centre, ring, width=max(1, self.px(0.7)))
            label_at = self.at((x, y + radius_mm + 6.5))
            if name in ("left", "right"):
                self._arrow(layer, label_at, self.px(3.2), name, INK)
            else:
                self._text(layer, BUTTON_LABELS[name], label_at, 3.6, INK, bold=True, spacing=0.5)

    def _draw_wordmark(self, layer: Any) -> None:
        width_mm, height_mm = self.config.size_mm
        self._text(
            layer,
            "xtraboard",
            self.at((width_mm * 0.16, height_mm - 36.0)),
            7.0,
            (58, 68, 90),
            bold=True,
            spacing=0.3,
            anchor="left",
        )

    def _draw_socket(self, layer: Any, name: str) -> None:

        centre = self.cell_centre(name)
        radius = self.led_radius(name)
        _disc(layer, (16, 18, 24), centre, radius + max(1, self.px(1.0)))

    # --- live parts ----------------------------------------------------------------------------
    def _draw_led(self, surface: Any, name: str, colour: Colour) -> None:
        import pygame

        centre = self.cell_centre(name)
        radius = self.led_radius(name)
        if not any(colour):
            _disc(surface, LED_OFF, centre, radius)
            pygame.draw.circle(surface, LED_OFF_RIM, centre, radius, width=max(1, self.px(0.5)))
            return
        shown = lit_colour(colour)
        glow = self._glow(shown, radius)
        surface.blit(glow, glow.get_rect(center=centre), special_flags=pygame.BLEND_RGB_ADD)
        # Brighter in the middle, like a diffuser lit from below; the centre is exactly `shown`.
        _disc(surface, tuple(round(c * 0.8) for c in shown), centre, radius)
        _disc(surface, shown, centre, max(1, round(radius * 0.72)))
        # A small highlight up-left, clear of the centre (tests sample the centre's colour).
        spot = (centre[0] - radius // 2, centre[1] - radius // 2)
        highlight = tuple(min(255, c + (255 - c) // 2) for c in shown)
        _disc(surface, highlight, spot, max(1, radius // 4))

    def _glow(self, colour: Colour, radius: int) -> Any:
        """A soft halo around a lit LED (cached per colour and size)."""
        import pygame

        key = (colour, radius)
        glow = self._glows.get(key)
        if glow is None:
            if len(self._glows) > 512:
                self._glows.clear()
            reach = radius * 3
            glow = pygame.Surface((2 * reach, 2 * reach))
            steps = 12
            for step in range(steps):
                r = reach - step * (reach - radius) / steps
                t = 1 - (r - radius) / (reach - radius)
                level = 0.42 * t * t
                pygame.draw.circle(glow, tuple(round(c * level) for c in colour), (reach, reach), round(r))
            self._glows[key] = glow
        return glow

    def _draw_oled(self, surface: Any, image: Any) -> None:
        import pygame

        rect = self.oled_rect()
        if image is None:
            pygame.draw.rect(surface, OLED_OFF, rect)
            self._text(surface, _("no display"), rect.center, 4.0, (90, 40, 40), bold=True)
            return
        data = image.tobytes()
        key = bytes([image.width & 0xFF, image.height & 0xFF]) + data
        if self._oled is None or self._oled[0] != key:
            self._oled = (key, self._oled_surface(image, rect.size))
        surface.blit(self._oled[1], rect.topleft)

    def _oled_surface(self, image: Any, size: tuple[int, int]) -> Any:
        import pygame
        from PIL import Image

        grey = image.convert("L")
        channels = [grey.point(lambda v, lo=lo, hi=hi: lo + (hi - lo) * v // 255) for lo, hi in zip(OLED_OFF, OLED_ON)]
        rgb = Image.merge("RGB", channels)
        small = pygame.image.frombytes(rgb.tobytes(), rgb.size, "RGB")
        big = pygame.transform.scale(small, size)
        cell = size[0] / image.width
        if cell >= 3:  # the gaps between a real OLED's pixels
            gaps = pygame.Surface(size, pygame.SRCALPHA)
            for col in range(1, image.width):
                x = round(col * cell)
                pygame.draw.line(gaps, (0, 0, 0, 48), (x, 0), (x, size[1]))
            for row in range(1, image.height):
                y = round(row * size[1] / image.height)
                pygame.draw.line(gaps, (0, 0, 0, 48), (0, y), (size[0], y))
            big.blit(gaps, (0, 0))
        return big

    def _draw_button(self, surface: Any, name: str, pressed: bool) -> None:
        import pygame

        centre = self.at(self.config.button_positions[name])
        radius = self.button_radius(name)
        cap = BUTTON_CAPS[name]
        drop = self.px(0.5 if pressed else 1.6)
        _disc(surface, tuple(c // 3 for c in cap), (centre[0], centre[1] + self.px(1.6)), radius)
        top = (centre[0], centre[1] + self.px(1.6) - drop)
        face = tuple(round(c * 0.72) for c in cap) if pressed else cap
        _disc(surface, face, top, radius)
        inner = tuple(min(255, round(c * (0.85 if pressed else 1.12) + 10)) for c in cap)
        _disc(surface, inner, top, round(radius * 0.78))
        if not pressed:
            shine = (top[0] - radius // 3, top[1] - radius // 3)
            _disc(surface, tuple(min(255, c + (255 - c) * 2 // 3) for c in cap), shine, max(1, radius // 6))
        else:
            pygame.draw.circle(surface, (250, 250, 250), top, radius + self.px(1.4), width=max(1, self.px(0.6)))

    # --- text and glyphs ---------------------------------------------------------------------
    def _font(self, size_mm: float, bold: bool) -> Any:
        import pygame

        key = (max(6, round(size_mm * self.scale * 1.45)), bold)
        font = self._fonts.get(key)
        if font is None:
            font = pygame.font.Font(None, key[0])
            font.set_bold(bold and key[0] < 24)  # the default font is bold already; small sizes want more
            self._fonts[key] = font
        return font

    def _text(
        self,
        surface: Any,
        text: str,
        at: tuple[int, int],
        size_mm: float,
        colour: Colour,
        *,
        bold: bool = False,
        spacing: float = 0.0,
        anchor: str = "center",
    ) -> None:
        """Text centred (or left-aligned) on `at`; `spacing` adds mm between letters."""
        font = self._font(size_mm, bold)
        glyphs = [font.render(char, True, colour) for char in text] if spacing else [font.render(text, True, colour)]
        gap = self.px(spacing)
        width = sum(g.get_width() for g in glyphs) + gap * (len(glyphs) - 1)
        x = at[0] - width // 2 if anchor == "center" else at[0]
        y = at[1] - font.get_ascent() // 2 - font.get_descent() // 2 - 1
        for glyph in glyphs:
            surface.blit(glyph, (x, y))
            x += glyph.get_width() + gap

    def _arrow(self, surface: Any, centre: tuple[int, int], size: int, direction: str, colour: Colour) -> None:
        import pygame

        x, y = centre
        sign = -1 if direction == "left" else 1
        points = [(x + sign * size, y), (x - sign * size * 0.7, y - size), (x - sign * size * 0.7, y + size)]
        pygame.draw.polygon(surface, colour, points)


def _disc(surface: Any, colour: tuple[int, ...], centre: tuple[int, int], radius: int) -> None:
    """A filled circle with an anti-aliased edge."""
    import pygame
    import pygame.gfxdraw

    pygame.draw.circle(surface, colour, centre, radius)
    if radius > 1:
        pygame.gfxdraw.aacircle(surface, round(centre[0]), round(centre[1]), radius, colour)
