"""Every display profile: luma's own driver on a recording bus, our change-only subclass, bytes on the wire.

Each profile's first frame is byte for byte what luma's plain driver sends for a full frame; a
change sends only its window; an unchanged frame sends nothing; and whatever changes, the
controller's RAM (rebuilt from the recorded bytes) ends up holding the last frame.
"""

from __future__ import annotations

import random
from dataclasses import replace
from pathlib import Path

import luma.core.framebuffer
import luma.oled.device
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from PIL import Image, ImageDraw

from firmware.hardware.board import open_hardware
from firmware.hardware.config import DisplayConfig, default_board_path, load_board
from firmware.hardware.display import (
    CHANGE_ONLY,
    ChangeOnly,
    Display,
    changed_boxes,
    luma_mode,
)
from sim.bench.buses import RecordingI2CBus, RecordingSPIBus, recording_serial

# luma's drivers call Image.getdata(), deprecated in Pillow 13 (removed in 14): theirs, not ours.
pytestmark = pytest.mark.filterwarnings("ignore:Image.Image.getdata is deprecated:DeprecationWarning")

BOARDS = sorted((default_board_path().parent / "boards").glob("*.toml"))
Bus = RecordingI2CBus | RecordingSPIBus


def profile(name: str) -> DisplayConfig:
    return load_board(default_board_path().parent / "boards" / f"{name}.toml").display


def ours(cfg: DisplayConfig) -> tuple[Display, Bus]:
    serial, bus = recording_serial(cfg)
    return Display(open_hardware(replace(load_board(), display=cfg), "mock", serial=serial).display.device), bus


def theirs(cfg: DisplayConfig) -> tuple[object, Bus]:
    """luma's plain driver for the profile, sending whole frames."""
    serial, bus = recording_serial(cfg)
    cls = getattr(luma.oled.device, cfg.driver)
    options = {}
    if issubclass(cls, luma.oled.device.greyscale.greyscale_device):
        options = {"mode": luma_mode(cfg), "framebuffer": luma.core.framebuffer.full_frame()}
    return cls(serial, width=cfg.width, height=cfg.height, rotate=cfg.rotate, **options), bus


def writes(bus: Bus) -> list:
    return list(bus.writes)


def sample(size: tuple[int, int], seed: int = 1) -> Image.Image:
    """Text and boxes in white and (for greyscale panels) a grey."""
    image = Image.new("L", size)
    draw = ImageDraw.Draw(image)
    draw.text((2, 2), "EXTRA! 210", fill=255)
    rng = random.Random(seed)
    for _ in range(5):
        x, y = rng.randrange(size[0] - 20), rng.randrange(size[1] - 10)
        draw.rectangle((x, y, x + rng.randrange(20), y + rng.randrange(10)), outline=rng.choice((255, 120)))
    return image


def for_panel(image: Image.Image, device: object) -> Image.Image:
    return image.convert(device.mode)  # type: ignore[attr-defined]


@pytest.mark.parametrize("board", BOARDS, ids=lambda path: path.stem)
def test_each_profile_is_luma_s_own_device_and_its_first_frame_is_luma_s(board: Path) -> None:
    cfg = load_board(board).display
    display, bus = ours(cfg)
    plain, their_bus = theirs(cfg)
    device = display.device
    assert isinstance(device, getattr(luma.oled.device, cfg.driver)) and isinstance(device, ChangeOnly)
    assert display.paged and type(device) is CHANGE_ONLY[cfg.driver]
    assert device.mode == ("RGB" if cfg.mode == "L" else "1")
    assert writes(bus) == writes(their_bus)  # the same initialisation
    image = for_panel(sample(display.size), device)
    bus.clear()
    their_bus.clear()
    assert display.show(image)
    plain.display(image)  # type: ignore[attr-defined]
    assert writes(bus) == writes(their_bus) and bus.byte_count() > 1000
    bus.clear()
    assert not display.show(image.copy()) and bus.writes == []
    device.display(image)  # luma's API directly: nothing changed, nothing sent
    assert bus.writes == []


def test_sh1106_one_pixel_is_one_page_one_column() -> None:
    display, bus = ours(profile("sh1106"))
    image = Image.new("1", (128, 64))
    display.show(image)
    image.putpixel((10, 20), 1)
    bus.clear()
    display.show(image)
    # Page 2, column 12 (the panel starts at RAM column 2): low nibble 0x0C, high nibble 0x10.
    assert bus.writes == [(0x3C, 0x00, [0xB2, 0x0C, 0x10]), (0x3C, 0x40, [1 << 4])]


def test_sh1106_columns_above_15_use_the_high_nibble() -> None:
    display, bus = ours(profile("sh1106"))
    image = Image.new("1", (128, 64))
    display.show(image)
    image.putpixel((100, 63), 1)
    image.putpixel((101, 63), 1)
    bus.clear()
    display.show(image)
    assert bus.writes == [(0x3C, 0x00, [0xB7, (102 & 0x0F), 0x10 | (102 >> 4)]), (0x3C, 0x40, [0x80, 0x80])]


def test_ssd1322_one_pixel_is_one_column_address_of_four_pixels() -> None:
    display, bus = ours(profile("ssd1322"))
    image = Image.new("RGB", (256, 64))
    display.show(image)
    image.putpixel((10, 20), (255, 255, 255))
    bus.clear()
    display.show(image)
    # The 256 pixels sit at RAM pixel 112 on (luma's column offset); pixels 8–11 are column 30.
    assert bus.writes == [(0, [0x15]), (1, [30, 30]), (0, [0x75]), (1, [20, 20]), (0, [0x5C]), (1, [0x00, 0xF0])]


def test_ssd1322_grey_is_a_nibble_of_its_level() -> None:
    display, bus = ours(profile("ssd1322"))
    image = Image.new("L", (256, 64))
    display.show(image)
    image.putpixel((0, 0), 136)  # (136 * 1024) >> 14 = 8 of 15: luma's RGB → 4-bit grey
    bus.clear()
    display.show(image)
    assert bus.writes[-1] == (1, [0x80, 0x00])  # after the window commands (their arguments go as data)


def test_ssd1327_one_pixel_is_one_byte() -> None:
    display, bus = ours(profile("ssd1327"))
    image = Image.new("RGB", (128, 128))
    display.show(image)
    image.putpixel((11, 100), (255, 255, 255))
    bus.clear()
    display.show(image)
    # Columns are bytes of 2 pixels (pixel 11 = column 5, the high nibble per luma's nibble order).
    assert bus.writes == [(0x3D, 0x00, [0x15, 5, 5, 0x75, 100, 100]), (0x3D, 0x40, [0xF0])]


@pytest.mark.parametrize("name", ["ssd1322", "ssd1327"])
def test_two_changed_lines_are_two_windows_not_the_box_around_them(name: str) -> None:
    display, bus = ours(profile(name))
    width, height = display.size
    image = Image.new("L", (width, height))
    ImageDraw.Draw(image).text((0, 10), ">Play", fill=255)
    ImageDraw.Draw(image).text((0, 40), " Rules", fill=255)
    display.show(image)
    moved = Image.new("L", (width, height))
    ImageDraw.Draw(moved).text((0, 10), " Play", fill=255)
    ImageDraw.Draw(moved).text((0, 40), ">Rules", fill=255)
    bus.clear()
    display.show(moved)
    rows = [box[1:4:2] for box in changed_boxes(image, moved)]
    assert len(rows) == 2 and rows[0][1] <= 25 and rows[1][0] >= 40  # nothing between the lines
    assert bus.byte_count() < 0.05 * (width * height // 2)


def test_changed_boxes_cover_whole_pixels_of_any_mode() -> None:
    old = Image.new("RGB", (16, 4))
    new = old.copy()
    new.putpixel((5, 1), (0, 0, 1))  # only the last byte of pixel 5 differs
    new.putpixel((9, 2), (1, 0, 0))  # only the first byte of pixel 9
    assert changed_boxes(old, new) == [(5, 1, 10, 3)]
    mono = Image.new("1", (16, 4))
    changed = mono.copy()
    changed.putpixel((12, 3), 1)
    assert changed_boxes(mono, changed) == [(8, 3, 16, 4)]  # a byte of 8 pixels
    assert changed_boxes(mono, mono.copy()) == []


def test_screens_draw_at_the_panels_size_and_a_smaller_image_shows_centred() -> None:
    display, _ = ours(profile("ssd1327"))
    assert display.size == (128, 128) and display.canvas_size == (128, 128)
    screen = Image.new("1", (128, 64), 1)
    display.show(screen)
    assert display.image.size == (128, 128) and display.image.mode == "RGB"
    assert display.image.getbbox() == (0, 32, 128, 96)


class Ram:
    """A controller's display RAM rebuilt from the recorded bytes, per family."""

    def __init__(self, cfg: DisplayConfig) -> None:
        self.driver = cfg.driver
        self.ram: dict[tuple[int, int], int] = {}
        self.window = (0, 0, 0, 0)  # first column, last column, first row/page, last row/page
        self.at = (0, 0)  # column, row/page

    def replay(self, bus: Bus) -> None:
        if isinstance(bus, RecordingI2CBus):
            for _, control, data in bus.writes:
                (self.data if control == 0x40 else self.command)(data)
        else:  # the SSD1322 over SPI: a command byte, its arguments as data, then RAM data after 0x5C
            pending: list[int] = []
            for level, data in bus.writes:
                if level == 0:
                    pending = list(data)
                elif pending and pending[0] in (0x15, 0x75):
                    self.command(pending + list(data))
                    pending = []
                else:
                    self.data(data)

    def command(self, data: list[int]) -> None:
        if self.driver == "sh1106":
            if data and 0xB0 <= data[0] <= 0xBF and len(data) == 3:
                column = (data[1] & 0x0F) | (data[2] & 0x0F) << 4
                self.at = (column, data[0] - 0xB0)
                self.window = (0, 131, 0, 15)  # page addressing: columns run on, no wrap to a window
            return
        i = 0
        while i < len(data):  # commands with their arguments, in order
            if data[i] == 0x15 and i + 2 < len(data):
                self.window = (data[i + 1], data[i + 2], *self.window[2:])
                i += 3
            elif data[i] == 0x75 and i + 2 < len(data):
                self.window = (*self.window[:2], data[i + 1], data[i + 2])
                i += 3
            else:
                i += 1
        self.at = (self.window[0], self.window[2])

    def data(self, data: list[int]) -> None:
        per_column = 2 if self.driver == "ssd1322" else 1  # SSD1322: a column address is 4 pixels, 2 bytes
        column, row = self.at
        byte_in_column = 0
        for value in data:
            self.ram[(column * per_column + byte_in_column, row)] = value
            byte_in_column += 1
            if byte_in_column == per_column:
                byte_in_column = 0
                column += 1
                if column > self.window[1]:
                    column, row = self.window[0], row + 1 if row < self.window[3] else self.window[2]
        self.at = (column, row)


@settings(max_examples=15, deadline=None)
@given(seed=st.integers(0, 2**32 - 1), name=st.sampled_from(["sh1106", "ssd1322", "ssd1327"]))
def test_the_controller_ram_always_holds_the_last_frame(seed: int, name: str) -> None:
    cfg = profile(name)
    display, bus = ours(cfg)
    rng = random.Random(seed)
    image = Image.new("L", display.size)
    for _ in range(5):
        draw = ImageDraw.Draw(image)
        for _ in range(rng.randrange(0, 4)):
            x, y = rng.randrange(display.size[0]), rng.randrange(display.size[1])
            draw.rectangle((x, y, x + rng.randrange(30), y + rng.randrange(12)), fill=rng.choice((0, 60, 255)))
        display.show(image)
    ram = Ram(cfg)
    ram.replay(bus)
    plain, their_bus = theirs(cfg)
    their_bus.clear()
    plain.display(for_panel(image, plain))  # type: ignore[attr-defined]
    expected = Ram(cfg)
    expected.replay(their_bus)
    assert {k: v for k, v in ram.ram.items() if k in expected.ram} == expected.ram
