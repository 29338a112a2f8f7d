"""The OLED: the real luma ssd1306 driver over a recording I2C bus, bytes on the wire."""

from __future__ import annotations

import random
from dataclasses import replace

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from luma.core.device import dummy
import luma.oled.device
from luma.core.interface.serial import i2c
from luma.core.render import canvas
from PIL import Image, ImageDraw

from firmware.errors import ConfigError, HardwareError
from firmware.hardware.display import NIGHT_CONTRAST, Display, changed_span, make_luma_device, page_bytes
from sim.bench.buses import RecordingI2CBus
from tests.hardware_fixtures import default_board

# luma's drivers call Image.getdata(), deprecated in Pillow 13 (removed in 14): theirs, not ours.
pytestmark = pytest.mark.filterwarnings("ignore:Image.Image.getdata is deprecated:DeprecationWarning")

FULL_FRAME_BYTES = 7 + 32 * 33  # one command write, 1,024 data bytes in 32-byte blocks


def ssd1306(rotate: int = 0, present: tuple[int, ...] = (0x3C,), driver: str = "ssd1306"):
    cfg = replace(default_board().display, rotate=rotate, driver=driver)
    bus = RecordingI2CBus(present)
    return make_luma_device(cfg, serial=i2c(bus=bus, address=cfg.address)), bus


def luma_ssd1306(width: int = 128, height: int = 64):
    """luma's own ssd1306, unchanged: what our bytes are compared with."""
    bus = RecordingI2CBus()
    return luma.oled.device.ssd1306(i2c(bus=bus, address=0x3C), width=width, height=height), bus


def blank() -> Image.Image:
    return Image.new("1", (128, 64))


class Gddram:
    """The controller's display RAM, rebuilt from recorded bytes (horizontal addressing mode)."""

    def __init__(self, width: int = 128, pages: int = 8) -> None:
        self.ram = [bytearray(width) for _ in range(pages)]
        self.columns, self.pages = (0, width - 1), (0, pages - 1)

    def replay(self, bus: RecordingI2CBus) -> None:
        for _, control, data in bus.writes:
            if control == 0x40:
                self._write(data)
            elif data[:1] == [0x21] and len(data) >= 6 and data[3] == 0x22:
                self.columns, self.pages = (data[1], data[2]), (data[4], data[5])
                self.col, self.page = data[1], data[4]

    def _write(self, data: list[int]) -> None:
        for byte in data:
            self.ram[self.page][self.col] = byte
            self.col += 1
            if self.col > self.columns[1]:
                self.col = self.columns[0]
                self.page = self.page + 1 if self.page < self.pages[1] else self.pages[0]


def test_initialisation_bytes_are_the_ssd1306_sequence() -> None:
    _, bus = ssd1306()
    assert bus.commands() == [
        [
            0xAE,
            0xD5,
            0x80,
            0xA8,
            0x3F,
            0xD3,
            0x00,
            0x40,
            0x8D,
            0x14,
            0x20,
            0x00,  # horizontal addressing
            0xA1,
            0xC8,
            0xDA,
            0x12,
            0xD9,
            0xF1,
            0xDB,
            0x40,
            0xA4,
            0xA6,
        ],
        [0x81, 0xCF],  # contrast
        [0x21, 0, 127, 0x22, 0, 7],  # luma clears the whole RAM ...
        [0xAF],  # ... and switches the display on
    ]
    assert bus.data() == bytes(1024)


def test_first_frame_is_sent_in_full_like_luma_does() -> None:
    device, bus = ssd1306()
    image = blank()
    ImageDraw.Draw(image).text((0, 0), "EXXTRA", fill=1)
    bus.clear()
    assert Display(device).show(image)
    assert bus.byte_count() == FULL_FRAME_BYTES
    theirs, their_bus = luma_ssd1306()
    their_bus.clear()
    theirs.display(image)  # luma's own full frame: the same bytes
    assert bus.writes == their_bus.writes


def test_one_pixel_change_sends_one_page_one_column() -> None:
    device, bus = ssd1306()
    display = Display(device)
    image = blank()
    display.show(image)
    image.putpixel((10, 20), 1)
    bus.clear()
    assert display.show(image)
    assert bus.writes == [(0x3C, 0x00, [0x21, 10, 10, 0x22, 2, 2]), (0x3C, 0x40, [1 << 4])]
    assert bus.byte_count() == 9


def test_identical_frame_sends_nothing() -> None:
    device, bus = ssd1306()
    display = Display(device)
    image = blank()
    ImageDraw.Draw(image).rectangle((5, 5, 50, 30), outline=1)
    display.show(image)
    bus.clear()
    assert not display.show(image.copy())
    assert bus.writes == []


def menu(cursor: int, seats: int) -> Image.Image:
    image = blank()
    draw = ImageDraw.Draw(image)
    draw.text((0, 0), "EXXTRA", fill=1)
    for row, label in enumerate(["Play", f"Seats: {seats}", "Bots: 1", "Rules"]):
        draw.text((0, 14 + row * 12), (">" if row == cursor else " ") + label, fill=1)
    return image


def test_menu_cursor_change_sends_well_under_a_quarter_frame() -> None:
    device, bus = ssd1306()
    display = Display(device)
    display.show(menu(cursor=0, seats=3))
    bus.clear()
    assert display.show(menu(cursor=1, seats=4))  # cursor moves one line, a digit changes
    assert 0 < bus.byte_count() < 0.25 * FULL_FRAME_BYTES
    assert {data[4] for data in bus.commands()} <= {1, 2, 3, 4}  # only the menu's text pages


@settings(max_examples=25, deadline=None)
@given(seed=st.integers(0, 2**32 - 1), rotate=st.sampled_from([0, 2]))
def test_display_ram_always_matches_the_last_frame(seed: int, rotate: int) -> None:
    """Whatever changes, the controller ends up holding exactly the last frame."""
    rng = random.Random(seed)
    device, bus = ssd1306(rotate=rotate)
    display = Display(device)
    ram = Gddram()
    image = blank()
    for _ in range(6):
        draw = ImageDraw.Draw(image)
        for _ in range(rng.randrange(0, 4)):
            x, y = rng.randrange(128), rng.randrange(64)
            draw.rectangle((x, y, x + rng.randrange(20), y + rng.randrange(12)), fill=rng.randrange(2))
        display.show(image)
    ram.replay(bus)
    assert [bytes(page) for page in ram.ram] == page_bytes(device.preprocess(image))


def test_page_bytes_match_luma() -> None:
    device, bus = luma_ssd1306()
    image = menu(2, 5)
    bus.clear()
    device.display(image)
    assert b"".join(page_bytes(image)) == bus.data()


def test_the_device_is_luma_s_own_class_sending_only_changes_through_its_api() -> None:
    """luma's own drawing API (canvas → display()) gets the page diff too: a dot is one byte."""
    device, bus = ssd1306()
    assert isinstance(device, luma.oled.device.ssd1306)
    with canvas(device) as draw:
        draw.point((10, 20), fill=1)
    bus.clear()
    with canvas(device) as draw:
        draw.point((10, 20), fill=1)
    assert bus.writes == []  # an identical frame sends nothing
    with canvas(device) as draw:
        draw.point((11, 20), fill=1)
    assert bus.writes == [(0x3C, 0x00, [0x21, 10, 11, 0x22, 2, 2]), (0x3C, 0x40, [0, 1 << 4])]


def test_a_narrow_panel_s_windows_start_at_its_first_ram_column() -> None:
    """64×48 panels sit at RAM columns 32-95: luma's full frame and our partial ones agree."""
    cfg = replace(default_board().display, driver="ssd1306", width=64, height=48)
    bus = RecordingI2CBus()
    display = Display(make_luma_device(cfg, serial=i2c(bus=bus, address=cfg.address)))
    theirs, their_bus = luma_ssd1306(64, 48)
    image = Image.new("1", (64, 48))
    bus.clear()
    their_bus.clear()
    display.show(image)
    theirs.display(image)
    assert bus.writes == their_bus.writes
    image.putpixel((0, 47), 1)
    bus.clear()
    display.show(image)
    assert bus.writes == [(0x3C, 0x00, [0x21, 32, 32, 0x22, 5, 5]), (0x3C, 0x40, [1 << 7])]


@pytest.mark.parametrize("driver", ["ssd1305", "ssd1309", "ssd1315", "ssd1316"])
def test_the_ssd1306_family_sends_only_changes(driver: str) -> None:
    height = 32 if driver in ("ssd1305", "ssd1316") else 64
    cfg = replace(default_board().display, driver=driver, height=height)
    bus = RecordingI2CBus()
    device = make_luma_device(cfg, serial=i2c(bus=bus, address=cfg.address))
    display = Display(device)
    assert display.paged and isinstance(device, getattr(luma.oled.device, driver))
    image = Image.new("1", (128, height))
    display.show(image)
    image.putpixel((10, 9), 1)
    bus.clear()
    display.show(image)
    assert bus.byte_count() == 9


def test_changed_span() -> None:
    assert changed_span(b"abcd", b"abcd") is None
    assert changed_span(b"abcd", b"aXcY") == (1, 3)


def test_other_devices_fall_back_to_luma_display() -> None:
    device = dummy(width=128, height=64, mode="1")
    display = Display(device)
    image = menu(0, 3)
    assert display.show(image)
    assert device.image.tobytes() == image.tobytes()
    assert not display.show(image)


def test_rgb_images_are_converted_and_wrong_sizes_refused() -> None:
    device, bus = ssd1306()
    display = Display(device)
    assert display.show(Image.new("RGB", (128, 64), "white"))
    assert display.image.mode == "1"
    with pytest.raises(ValueError, match="image is 256×32, the display is 128×64"):
        display.show(Image.new("1", (256, 32)))


def test_nothing_at_the_address_is_a_clear_hardware_error() -> None:
    with pytest.raises(HardwareError) as caught:
        ssd1306(present=(0x3D,))
    message = str(caught.value)
    for part in ("I2C bus 1", "0x3C", "i2cdetect -y 1", "wiring", "display.address"):
        assert part in message


def test_missing_bus_is_a_clear_hardware_error() -> None:
    # This machine has no /dev/i2c-1: luma's own smbus2 interface cannot open it.
    with pytest.raises(HardwareError, match=r"display: /dev/i2c-1 does not exist, so I2C is not enabled"):
        make_luma_device(default_board().display)


def test_unknown_driver_and_unsupported_size_are_config_errors() -> None:
    cfg = replace(default_board().display, driver="ssd1306")
    with pytest.raises(ConfigError, match="driver 'ssd9999' is not a luma.oled device"):
        make_luma_device(replace(cfg, driver="ssd9999"), serial=i2c(bus=RecordingI2CBus(), address=0x3C))
    with pytest.raises(ConfigError, match="ssd1306 does not support 100×40"):
        make_luma_device(replace(cfg, width=100, height=40), serial=i2c(bus=RecordingI2CBus(), address=0x3C))


def test_a_bus_error_mid_game_is_reported_and_the_next_frame_is_sent_in_full() -> None:
    device, bus = ssd1306()
    display = Display(device)
    display.show(blank())
    bus.present = ()
    with pytest.raises(HardwareError, match="display: sending a frame failed"):
        display.show(menu(0, 3))
    bus.present = (0x3C,)
    bus.clear()
    assert display.show(menu(0, 3))
    assert bus.byte_count() == FULL_FRAME_BYTES


def test_close_blanks_and_is_idempotent() -> None:
    device, bus = ssd1306()
    display = Display(device)
    display.show(menu(0, 3))
    bus.clear()
    display.close()
    display.close()
    assert [0xAE] in bus.commands()  # display off
    assert bus.data() == bytes(1024)  # a whole blank frame, as luma's cleanup sends it


@pytest.mark.parametrize(("driver", "day"), [("ssd1306", 0xCF), ("ssd1309", 0xCF), ("sh1106", 0x7F)])
def test_night_mode_lowers_the_contrast_once_and_restores_the_family_s_own_level(driver: str, day: int) -> None:
    device, bus = ssd1306(driver=driver)
    display = Display(device)
    bus.clear()
    display.dim(True)
    display.dim(True)  # no change: nothing sent
    assert bus.commands() == [[0x81, NIGHT_CONTRAST]]
    bus.clear()
    display.dim(False)
    assert bus.commands() == [[0x81, day]]
