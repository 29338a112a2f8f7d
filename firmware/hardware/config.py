"""The board as data: `hardware/board.toml` loaded into frozen dataclasses and validated.

Cell names (the only way code refers to an LED):
    track.0 … track.21        EXXTRA track: start, spaces 1–20, finish
    ladder.0 … ladder.5       EXXTRA dice ladder rungs
    grid.R.F                  LEVEL X field F (0 = first, last = X) of row R (5–10)
    dice.D.P                  pip P (0–6: top-left, top-right, mid-left, centre, mid-right,
                              bottom-left, bottom-right) of die D (0–4)
    seat.0 … seat.5           the players' seats (colour, whose turn)
"""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path

BUTTON_NAMES = ("roll", "ok", "back", "left", "right")
GRID_ROWS = {5: 4, 6: 4, 7: 3, 8: 3, 9: 2, 10: 2}
PIPS_PER_DIE = 7
DICE_COUNT = 5
SEAT_COUNT = 6


def cell_names() -> list[str]:
    """Every logical cell the board must map, in a stable order."""
    names = [f"track.{i}" for i in range(22)] + [f"ladder.{r}" for r in range(6)]
    names += [f"grid.{row}.{f}" for row, n in GRID_ROWS.items() for f in range(n)]
    names += [f"dice.{d}.{p}" for d in range(DICE_COUNT) for p in range(PIPS_PER_DIE)]
    names += [f"seat.{s}" for s in range(SEAT_COUNT)]
    return names


@dataclass(frozen=True)
class ButtonsConfig:
    pins: dict[str, int]  # BCM pin per name in BUTTON_NAMES
    tilt: int | None = None  # optional tilt/shake switch; rolls like ROLL
    pull_up: bool = True
    debounce_ms: float = 20.0
    hold_s: float = 1.0  # long press (BACK: menu)


@dataclass(frozen=True)
class Cell:
    leds: tuple[int, ...]  # LED indices on the chain (one or more)
    x: float  # physical position on the board, millimetres from the top-left corner
    y: float


@dataclass(frozen=True)
class LedsConfig:
    driver: str  # "pwm" (GPIO18) or "spi" (GPIO10)
    pin: int
    count: int
    order: str  # "GRB" for WS2812B
    brightness: float  # 0.0–1.0
    budget_amps: float  # the firmware scales frames down to stay under this
    ma_per_channel: float  # current of one colour channel at full value (WS2812B: ~20 mA)
    cells: dict[str, Cell] = field(default_factory=dict)


@dataclass(frozen=True)
class DisplayConfig:
    driver: str  # a luma.oled device class name, e.g. "ssd1306", "sh1106"
    interface: str  # "i2c" or "spi"
    port: int  # I2C bus / SPI port
    address: int  # I2C address, e.g. 0x3C
    width: int
    height: int
    rotate: int  # 0–3, luma's quarter turns


@dataclass(frozen=True)
class BoardConfig:
    path: Path
    name: str
    size_mm: tuple[float, float]  # board outline, for drawings and the simulator
    buttons: ButtonsConfig
    leds: LedsConfig
    display: DisplayConfig
    button_positions: dict[str, tuple[float, float]] = field(default_factory=dict)  # mm, for drawings
    display_position: tuple[float, float] = (0.0, 0.0)  # mm, top-left of the OLED


def default_board_path() -> Path:
    """`hardware/board.toml` of this checkout."""
    return Path(__file__).resolve().parents[2] / "hardware" / "board.toml"


def load_board(path: Path | str | None = None) -> BoardConfig:
    """Load and validate a board description; ConfigError names the file, key and expectation."""
    raise NotImplementedError("being written")  # placeholder until the loader lands
