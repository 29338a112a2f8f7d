"""The wire decoders: streams recorded from the real drivers (adafruit's neopixel_spi on a
recording SPI bus, luma's ssd1306/sh1106 on a recording I2C bus) decode back byte for byte."""

from __future__ import annotations

import random
from dataclasses import replace

import luma.oled.device
import neopixel_spi
import pytest
from luma.core.interface.serial import i2c
from PIL import Image, ImageDraw

from firmware.hardware.display import Display, make_luma_device, page_bytes
from firmware.hardware.leds import from_config, memory_pixels
from sim.bench.buses import RecordingI2CBus
from sim.hil.wire import (
    WireError,
    cells_from_pixels,
    decode_i2c,
    decode_ws2812_spi,
    on_the_wire,
    pixels_from_bytes,
    ram_for,
    split_frames,
)
from tests.hardware_fixtures import default_board

pytestmark = pytest.mark.filterwarnings("ignore:Image.Image.getdata is deprecated:DeprecationWarning")


class RecordingSPI:
    """A busio.SPI-like bus (what adafruit_bus_device's SPIDevice locks, configures and writes)."""

    def __init__(self) -> None:
        self.writes: list[bytes] = []
        self.baudrate: int | None = None

    def try_lock(self) -> bool:
        return True

    def unlock(self) -> None:
        pass

    def configure(self, *, baudrate: int, polarity: int = 0, phase: int = 0, bits: int = 8) -> None:
        self.baudrate = baudrate

    def write(self, buffer: bytes, start: int = 0, end: int | None = None) -> None:
        self.writes.append(bytes(buffer[start:end]))


def random_frame(rng: random.Random, cells: list[str]) -> dict[str, tuple[int, int, int]]:
    return {
        name: (rng.randrange(256), rng.randrange(256), rng.randrange(256))
        for name in rng.sample(cells, rng.randrange(len(cells)))
    }


def test_the_led_frame_decodes_from_neopixel_spi_byte_for_byte() -> None:
    board = default_board()
    cfg = board.leds
    spi = RecordingSPI()
    chain = from_config(
        cfg,
        neopixel_spi.NeoPixel_SPI(spi, cfg.count, brightness=cfg.brightness, auto_write=False, pixel_order=cfg.order),
    )
    memory = from_config(cfg, memory_pixels(cfg))
    rng = random.Random(15)
    for n in range(20):
        frame = random_frame(rng, list(cfg.cells))
        assert chain.show(frame, t=0.0) and memory.show(frame, t=0.0)
        assert spi.baudrate == 6_400_000
        decoded = decode_ws2812_spi(spi.writes[-1])
        assert decoded == memory.pixels.last, f"frame {n}"  # what PixelBuf transmitted
        wire = cells_from_pixels(pixels_from_bytes(decoded, cfg.order), cfg.cells)
        if chain.estimate_ma(list(frame.values())) <= chain.budget_ma:  # no budget dimming
            assert wire == {c: on_the_wire(frame.get(c, (0, 0, 0)), cfg.brightness) for c in cfg.cells}


def test_a_capture_of_several_frames_splits_at_the_resets() -> None:
    cfg = default_board().leds
    spi = RecordingSPI()
    pixels = neopixel_spi.NeoPixel_SPI(spi, cfg.count, brightness=1.0, auto_write=False, pixel_order="GRB")
    pixels[0] = (255, 0, 0)
    pixels.show()
    pixels[1] = (0, 0, 7)
    pixels.show()
    frames = split_frames(b"".join(spi.writes))
    assert [pixels_from_bytes(f)[:2] for f in frames] == [[(255, 0, 0), (0, 0, 0)], [(255, 0, 0), (0, 0, 7)]]


@pytest.mark.parametrize(
    "stream, message",
    [
        (bytes([0xC0] * 7), "not a multiple of 8"),
        (bytes([0xC0] * 7 + [0xAA]), "0xAA, no WS2812 bit pattern"),
        (bytes([0xFF] * 8), "0xFF"),
    ],
)
def test_a_capture_that_is_no_ws2812_stream_is_refused(stream: bytes, message: str) -> None:
    with pytest.raises(WireError, match=message):
        decode_ws2812_spi(stream)


def test_cells_whose_leds_disagree_are_a_miswired_chain() -> None:
    cfg = default_board().leds
    name, cell = next((n, c) for n, c in cfg.cells.items() if len(c.leds) > 1)
    pixels = [(0, 0, 0)] * cfg.count
    pixels[cell.leds[0]] = (1, 2, 3)
    with pytest.raises(WireError, match=f"cell {name}"):
        cells_from_pixels(pixels, cfg.cells)


def drawings(count: int, size: tuple[int, int] = (128, 64)) -> list[Image.Image]:
    rng = random.Random(1506)
    images = []
    for _ in range(count):
        image = Image.new("1", size)
        draw = ImageDraw.Draw(image)
        for _ in range(rng.randrange(1, 6)):
            x, y = rng.randrange(size[0]), rng.randrange(size[1])
            draw.rectangle((x, y, x + rng.randrange(40), y + rng.randrange(20)), fill=255)
        draw.text((rng.randrange(60), rng.randrange(40)), "ROLL", fill=255)
        images.append(image)
    return images


def test_the_change_only_ssd1306_decodes_to_each_frame_shown() -> None:
    cfg = default_board().display
    bus = RecordingI2CBus()
    display = Display(make_luma_device(cfg, serial=i2c(bus=bus, address=cfg.address)))
    ram = ram_for(cfg.driver, cfg.width, cfg.height, address=cfg.address)
    seen = 0
    for image in drawings(12):
        display.show(image)
        for address, control, data in bus.writes[seen:]:
            ram.write(address, bytes([control, *data]))
        seen = len(bus.writes)
        assert ram.image().tobytes() == image.tobytes()
        assert ram.page_bytes() == page_bytes(image)


@pytest.mark.parametrize("driver, size", [("ssd1306", (128, 64)), ("ssd1306", (128, 32)), ("sh1106", (128, 64))])
def test_lumas_own_drivers_decode_to_the_frame(driver: str, size: tuple[int, int]) -> None:
    bus = RecordingI2CBus()
    device = getattr(luma.oled.device, driver)(i2c(bus=bus, address=0x3C), width=size[0], height=size[1])
    for image in drawings(4, size):
        device.display(image)
        writes = [(address, bytes([control, *data])) for address, control, data in bus.writes]
        assert decode_i2c(writes, driver, *size).tobytes() == image.tobytes()


def test_a_rotated_display_decodes_to_the_device_frame() -> None:
    cfg = replace(default_board().display, rotate=2)
    bus = RecordingI2CBus()
    device = make_luma_device(cfg, serial=i2c(bus=bus, address=cfg.address))
    image = drawings(1)[0]
    device.display(image)
    writes = [(address, bytes([control, *data])) for address, control, data in bus.writes]
    assert decode_i2c(writes).tobytes() == device.preprocess(image).tobytes()


def test_writes_to_other_addresses_are_ignored_and_bad_control_bytes_refused() -> None:
    ram = ram_for("ssd1306")
    ram.write(0x3D, bytes([0x40, 0xFF]))
    assert ram.page_bytes()[0][0] == 0
    with pytest.raises(WireError, match="0x01 at byte 0 is no SSD1306 control byte"):
        ram.write(0x3C, bytes([0x01, 0xFF]))
    with pytest.raises(WireError, match="no I2C decoder for display driver 'ssd1351'"):
        ram_for("ssd1351")
