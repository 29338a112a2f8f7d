"""The LED chain: a colour-per-cell frame mapped onto a PixelBuf, within a current budget.

`neopixel.NeoPixel` is a `PixelBuf`; off the Pi `MemoryPixels` takes its place.

>>> pixels = MemoryPixels(2, brightness=1.0)
>>> leds = LedChain({"seat.0": Cell((1,), 0, 0)}, pixels, budget_amps=1.0, ma_per_channel=20)
>>> leds.show({"seat.0": (255, 0, 0)}, t=0.0), pixels.last.hex()  # GRB
(True, '00000000ff00')
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from itertools import chain
from typing import Union, cast

from adafruit_pixelbuf import PixelBuf

from firmware.errors import N_, ConfigError, Text
from firmware.hardware.config import Cell, LedsConfig

Colour = tuple[int, int, int]  # RGB, 0–255 each
CellColours = Union[Colour, Sequence[Colour]]
OFF: Colour = (0, 0, 0)
GAMMA = 2.2  # light ∝ level ** GAMMA looks even to the eye (firmware.ui.colours.duty is the same curve)


class MemoryPixels(PixelBuf):
    """A PixelBuf that keeps the bytes of its last push instead of sending them (simulator, tests)."""

    def __init__(self, size: int, *, byteorder: str = "GRB", brightness: float = 1.0) -> None:
        super().__init__(size, byteorder=byteorder, brightness=brightness, auto_write=False)
        self.last = bytes(size * self.bpp)  # what the chain would show now
        self.pushes = 0

    def _transmit(self, buffer: bytearray) -> None:
        self.last = bytes(buffer)
        self.pushes += 1

    def shown(self) -> list[Colour]:
        """The last pushed colour of every LED, as RGB (brightness and budget applied)."""
        bpp = self.bpp
        order = self.parse_byteorder(self.byteorder)[1]
        return [
            (self.last[i + order[0]], self.last[i + order[1]], self.last[i + order[2]])
            for i in range(0, len(self) * bpp, bpp)
        ]


class LedChain:
    """Shows frames (cell name → colour, or colours shown in turn) on a PixelBuf.

    Cells missing from a frame are off. The estimated current (after brightness) is kept under
    `budget_amps` by scaling the whole frame down. The chain is pushed only when its bytes change.
    """

    def __init__(
        self,
        cells: Mapping[str, Cell],
        pixels: PixelBuf,
        budget_amps: float,
        ma_per_channel: float,
        cycle_s: float = 0.5,
    ) -> None:
        if cycle_s <= 0:
            raise ValueError(f"leds: cycle_s must be > 0, got {cycle_s}")
        if budget_amps <= 0 or ma_per_channel <= 0:
            raise ConfigError(
                f"leds: budget_amps and ma_per_channel must be > 0, got {budget_amps} A, {ma_per_channel} mA"
            )
        count = len(pixels)
        for name, cell in cells.items():
            bad = [i for i in cell.leds if not 0 <= i < count]
            if bad:
                raise ConfigError(
                    Text(
                        N_("leds: cell {cell!r} uses LED index {index}, but the chain has {count} LEDs"),
                        cell=name,
                        index=bad[0],
                        count=count,
                    )
                )
        self.cells = dict(cells)
        self.pixels = pixels
        self.budget_ma = budget_amps * 1000.0
        self.ma_per_channel = ma_per_channel
        self.cycle_s = cycle_s
        self._indices = {name: cell.leds for name, cell in cells.items()}
        self._shown: list[Colour] | None = None  # per LED, as last written (before brightness)
        self._shown_bytes: bytes | None = None  # RGB per LED after brightness
        self._table: tuple[float, bytes] = (1.0, bytes(range(256)))
        self._cut = 1.0
        self.scale = 1.0  # the last frame's light per unit of its colours: brightness × budget cut

    @property
    def brightness(self) -> float:
        """The chain's brightness (0.0–1.0), applied by the PixelBuf."""
        return float(self.pixels.brightness)

    @brightness.setter
    def brightness(self, value: float) -> None:
        self.pixels.brightness = value

    @property
    def level(self) -> float:
        """The brightness as the eye sees it (0.0–1.0): `brightness` is `level ** GAMMA`, so
        even steps in level look like even steps in light."""
        return float(self.brightness ** (1 / GAMMA))

    @level.setter
    def level(self, value: float) -> None:
        if not 0.0 <= value <= 1.0:
            raise ValueError(f"leds: level must be 0–1, got {value}")
        self.brightness = value**GAMMA

    def show(self, frame: Mapping[str, CellColours], t: float) -> bool:
        """Show `frame` as it looks at time `t`; returns whether the chain was pushed."""
        wanted = [OFF] * len(self.pixels)
        indices = self._indices
        for name, value in frame.items():
            leds = indices.get(name)
            if leds is None:
                raise ValueError(f"leds: unknown cell {name!r} in the frame (not in board.toml's cells)")
            colour = self._colour_at(name, value, t)
            for index in leds:
                wanted[index] = colour
        brightness = self.brightness
        scaled = self._within_budget(wanted, brightness)
        self.scale = brightness * self._cut
        # The bytes PixelBuf sends: value × brightness, truncated (a lookup table, for speed).
        shown = bytes(chain.from_iterable(scaled)).translate(self._dimming(brightness))
        if shown == self._shown_bytes:
            return False
        previous = self._shown
        for index, colour in enumerate(scaled):
            if previous is None or previous[index] != colour:
                self.pixels[index] = colour
        self.pixels.show()
        self._shown = scaled
        self._shown_bytes = shown
        return True

    def next_change(self, frame: Mapping[str, CellColours], t: float) -> float | None:
        """When a cell showing several colours in turn next changes, or None (a still frame)."""
        for value in frame.values():
            if not _is_colour(value) and len({tuple(c) for c in cast(Sequence[Colour], value)}) > 1:  # several colours
                return (int(t / self.cycle_s) + 1) * self.cycle_s
        return None

    def estimate_ma(self, colours: Sequence[Colour], brightness: float | None = None) -> float:
        """Estimated chain current for these colours (after brightness), in milliamps."""
        level = self.brightness if brightness is None else brightness
        total = sum(sum(colour) for colour in colours)
        return total * level / 255.0 * self.ma_per_channel

    def off(self) -> bool:
        """Turn every LED off."""
        return self.show({}, 0.0)

    def close(self) -> None:
        """Turn the chain off and release it (NeoPixel's `deinit`); safe to call twice."""
        if self.pixels is None:
            return
        self.off()
        deinit = getattr(self.pixels, "deinit", None)  # an untyped driver; older versions have none
        if deinit is not None:
            deinit()
        self.pixels = None

    def _colour_at(self, name: str, value: CellColours, t: float) -> Colour:
        if not value:
            return OFF
        if isinstance(value[0], int):
            return _checked(name, value)
        colours = value if isinstance(value, Sequence) else list(value)
        return _checked(name, colours[int(t / self.cycle_s) % len(colours)])

    def _dimming(self, brightness: float) -> bytes:
        if self._table[0] != brightness:
            self._table = (brightness, bytes(int(v * brightness) for v in range(256)))
        return self._table[1]

    def _within_budget(self, colours: list[Colour], brightness: float) -> list[Colour]:
        estimate = self.estimate_ma(colours, brightness)
        self._cut = 1.0
        if estimate <= self.budget_ma:
            return colours
        scale = self._cut = self.budget_ma / estimate
        return [(int(r * scale), int(g * scale), int(b * scale)) for r, g, b in colours]


def from_config(leds_cfg: LedsConfig, pixels: PixelBuf, cycle_s: float = 0.5) -> LedChain:
    """The chain described by board.toml's [leds], on `pixels` (NeoPixel or MemoryPixels)."""
    if len(pixels) < leds_cfg.count:
        raise ConfigError(
            Text(N_("leds: count is {count} but the pixel buffer holds {held}"), count=leds_cfg.count, held=len(pixels))
        )
    return LedChain(leds_cfg.cells, pixels, leds_cfg.budget_amps, leds_cfg.ma_per_channel, cycle_s)


def memory_pixels(leds_cfg: LedsConfig) -> MemoryPixels:
    """A MemoryPixels sized, ordered and dimmed as board.toml's [leds] says."""
    return MemoryPixels(leds_cfg.count, byteorder=leds_cfg.order, brightness=leds_cfg.brightness)


def _is_colour(value: Sequence[object]) -> bool:
    return len(value) == 3 and all(isinstance(channel, int) for channel in value)


def _checked(name: str, colour: object) -> Colour:
    if type(colour) is not tuple:
        colour = tuple(colour) if isinstance(colour, Sequence) else colour
    if type(colour) is tuple and len(colour) == 3:
        r, g, b = colour
        if type(r) is int and type(g) is int and type(b) is int and 0 <= r <= 255 and 0 <= g <= 255 and 0 <= b <= 255:
            return colour
    raise ValueError(f"leds: cell {name!r} has colour {colour!r}; expected (r, g, b) with 0–255 each")
