"""The Pi's own code path, in process, on a stood-in Pi (tests/pi_fakes).

The production constructors run as on the Pi — luma's `i2c(port=…, address=…)` and `spi(port=…,
device=…, gpio_DC=…, gpio_RST=…)` from `make_luma_device`, `neopixel_spi` on `board.SPI()`,
gpiozero's own choice of pin factory, the buzzer's PWM — and each test reads what reached the
stood-in smbus2, spidev, RPi.GPIO and busio. What was sent is checked against what the same luma
driver sends on the recording buses the rest of the suite uses (sim/bench/buses.py), and a
monochrome frame is decoded back to its image with the bench's wire decoder (sim/hil/wire.py).
"""

from __future__ import annotations

import random
import sys
from collections.abc import Iterator
from dataclasses import replace

import gpiozero.pins.local
import pytest
from gpiozero import Device
from gpiozero.pins.mock import MockFactory, MockPWMPin
from PIL import Image, ImageDraw

from firmware.errors import HardwareError
from firmware.hardware.board import _pi_pin_factory, open_hardware
from firmware.hardware.config import BoardConfig, DisplayConfig, default_board_path, load_board
from firmware.hardware.display import Display, luma_mode, make_luma_device
from firmware.hardware.sound import Sound, open_buzzer
from firmware.i18n import tr
from firmware.loop import EventLoop, FakeClock
from sim.bench.buses import RecordingI2CBus, RecordingSPIBus, recording_serial
from sim.hil.wire import decode_i2c, decode_ws2812_spi, on_the_wire, pixels_from_bytes
from tests.pi_fakes import FakePi, GreyscaleRam, NotInstalled, grey_levels

# luma's drivers call Image.getdata(), deprecated in Pillow 13 (removed in 14): theirs, not ours.
pytestmark = pytest.mark.filterwarnings("ignore:Image.Image.getdata is deprecated:DeprecationWarning")

BOARDS = default_board_path().parent / "boards"
ZERO_2_W = 0x902120  # the revision code a Pi Zero 2 W reports in /proc/device-tree


def board(name: str) -> BoardConfig:
    return load_board(BOARDS / f"{name}.toml")


def stood_in(monkeypatch: pytest.MonkeyPatch, cfg: DisplayConfig | None = None, **options: object) -> FakePi:
    """A FakePi whose bus carries `cfg`'s display, installed for this test only."""
    if cfg is not None and cfg.interface == "i2c":
        options.setdefault("i2c", {cfg.port: (cfg.address,)})
    if cfg is not None and cfg.interface == "spi":
        options.setdefault("spi", [(0, 0), (cfg.port, cfg.device)])
    pi = FakePi(**options)  # type: ignore[arg-type]
    pi.install(monkeypatch)
    return pi


def a_frame(cfg: DisplayConfig, seed: int = 7) -> Image.Image:
    """Text, lines and (on greyscale panels) greys: something every byte of the frame depends on."""
    rng = random.Random(seed)
    image = Image.new(luma_mode(cfg), (cfg.width, cfg.height))
    draw = ImageDraw.Draw(image)
    ink = (lambda: 1) if image.mode == "1" else (lambda: (rng.randrange(256),) * 3)
    for _ in range(12):
        x, y = rng.randrange(cfg.width), rng.randrange(cfg.height)
        draw.line((x, y, rng.randrange(cfg.width), rng.randrange(cfg.height)), fill=ink())
    draw.text((2, 2), "Play EXXTRA", fill=ink())
    return image


def on_recording_bus(cfg: DisplayConfig, frame: Image.Image) -> RecordingI2CBus | RecordingSPIBus:
    """What the same luma driver sends for its init and `frame` on the recording bus."""
    serial, bus = recording_serial(cfg)
    Display(make_luma_device(cfg, serial=serial)).show(frame)
    return bus


# --- the display over smbus2 -------------------------------------------------------------------
@pytest.mark.parametrize("name", ["ssd1306", "sh1106", "ssd1309"])
def test_a_monochrome_panel_gets_its_init_and_frame_over_smbus(name: str, monkeypatch: pytest.MonkeyPatch) -> None:
    cfg = board(name).display
    pi = stood_in(monkeypatch, cfg)
    display = Display(make_luma_device(cfg))  # no serial: luma's own i2c(port=1, address=0x3C)
    init = pi.i2c_writes()
    frame = a_frame(cfg)
    assert display.show(frame)

    assert pi.log[0] == {"kind": "i2c.open", "bus": 1}
    assert {address for address, _ in pi.i2c_writes()} == {cfg.address}
    assert init[0][1][:2] == bytes([0x00, 0xAE])  # a command write: display off, first of the init
    expected = on_recording_bus(cfg, frame)
    assert isinstance(expected, RecordingI2CBus)
    commands = [list(data[1:]) for _, data in pi.i2c_writes() if data[0] == 0x00]
    assert commands == expected.commands()  # every command, in order, as luma sends on any bus
    data = [data[1:] for _, data in pi.i2c_writes() if data[0] == 0x40]
    assert b"".join(data) == expected.data()
    # The Pi's managed smbus2 sends each page run in one i2c_rdwr message, not 32-byte blocks.
    assert max(map(len, data)) > 32
    decoded = decode_i2c(pi.i2c_writes(), cfg.driver, cfg.width, cfg.height, address=cfg.address)
    assert decoded.tobytes() == frame.tobytes()  # the panel's RAM, read back from the bus, is the frame

    display.close()
    assert pi.log[-1] == {"kind": "i2c.close", "bus": 1}


def test_the_greyscale_ssd1327_gets_its_frame_over_smbus(monkeypatch: pytest.MonkeyPatch) -> None:
    cfg = board("ssd1327").display
    assert (cfg.interface, cfg.address) == ("i2c", 0x3D)
    pi = stood_in(monkeypatch, cfg)
    frame = a_frame(cfg)
    Display(make_luma_device(cfg)).show(frame)
    expected = on_recording_bus(cfg, frame)
    assert {address for address, _ in pi.i2c_writes()} == {0x3D}
    assert [list(d[1:]) for _, d in pi.i2c_writes() if d[0] == 0x00] == expected.commands()
    sent = b"".join(d[1:] for _, d in pi.i2c_writes() if d[0] == 0x40)
    assert sent == expected.data()
    assert len(sent) == 2 * cfg.width * cfg.height // 2  # luma's init blanks the panel, then our frame: 2 pixels a byte
    assert max(len(d) for _, d in pi.i2c_writes()) == 4097  # the managed smbus2's largest i2c_rdwr block
    ram = GreyscaleRam(cfg.driver, cfg.width, cfg.height).feed_i2c(pi.i2c_writes())
    assert ram.levels() == grey_levels(frame.tobytes())


# --- the display over spidev with DC and RST through RPi.GPIO ------------------------------------
def spi_panels() -> list[DisplayConfig]:
    ssd1322 = board("ssd1322").display
    ssd1327 = replace(board("ssd1327").display, interface="spi", port=1, device=0, address=0, dc_pin=24, reset_pin=25)
    return [ssd1322, ssd1327]


@pytest.mark.parametrize("cfg", spi_panels(), ids=lambda cfg: cfg.driver)
def test_a_greyscale_panel_gets_its_frame_over_spidev_with_dc_and_reset(
    cfg: DisplayConfig, monkeypatch: pytest.MonkeyPatch
) -> None:
    pi = stood_in(monkeypatch, cfg)
    display = Display(make_luma_device(cfg))  # luma's own spi(port=1, device=0, gpio_DC=24, gpio_RST=25)
    frame = a_frame(cfg)
    assert display.show(frame)

    kinds = [event["kind"] for event in pi.log]
    assert pi.events("gpio.setmode") == [{"kind": "gpio.setmode", "mode": pi.gpio.BCM}]
    assert {(e["pin"], e["direction"]) for e in pi.events("gpio.setup")} == {(24, "out"), (25, "out")}
    reset = [e["level"] for e in pi.events("gpio.output") if e["pin"] == cfg.reset_pin]
    assert reset == [0, 1]  # RST pulsed low, then held high, before the first byte
    assert kinds.index("spi") > max(i for i, e in enumerate(pi.log) if e.get("pin") == cfg.reset_pin)
    assert pi.events("spi.open") == [{"kind": "spi.open", "port": cfg.port, "device": cfg.device}]
    assert {e["speed"] for e in pi.events("spi")} == {8_000_000}

    expected = on_recording_bus(cfg, frame)
    assert isinstance(expected, RecordingSPIBus)
    transfers = pi.spi_transfers(cfg.dc_pin or 24)
    assert [b for level, data in transfers if level == 0 for b in data] == expected.commands()  # DC low
    sent = b"".join(data for level, data in transfers if level == 1)  # DC high
    assert sent == expected.data() and len(sent) >= cfg.width * cfg.height // 2
    assert any(sent)
    if cfg.driver == "ssd1322":  # the board's SPI panel: its RAM read back holds the frame
        ram = GreyscaleRam(cfg.driver, cfg.width, cfg.height).feed_spi(transfers)
        assert ram.levels() == grey_levels(frame.tobytes())

    display.close()
    assert kinds[-1] != "spi.close" and pi.log[-1]["kind"] == "gpio.cleanup"  # spidev closed, then the pins
    assert pi.events("spi.close")


# --- the LED chain: neopixel_spi on board.SPI() -----------------------------------------------
def test_one_led_frame_goes_through_the_spi_chain_driver(monkeypatch: pytest.MonkeyPatch) -> None:
    config = load_board()
    pi = stood_in(monkeypatch, config.display)
    with open_hardware(config, "pi", pin_factory=MockFactory(pin_class=MockPWMPin)) as hardware:
        assert hardware.problems == [] and hardware.leds is not None
        assert pi.events("busio.open") == [{"kind": "busio.open", "port": 0}]  # board.SPI() is SPI0
        frame = {"seat.0": (255, 0, 0), "track.0": (0, 255, 0), "grid.5.0": (10, 20, 30)}
        assert hardware.leds.show(frame, t=0.0)
        [stream] = pi.pixel_writes()[-1:]
        assert {e["baudrate"] for e in pi.events("busio.write")} == {6_400_000}  # one SPI byte per data bit
        shown = pixels_from_bytes(decode_ws2812_spi(stream), config.leds.order)
        assert len(shown) == config.leds.count
        cells = config.leds.cells
        want = [(0, 0, 0)] * config.leds.count
        for cell, colour in frame.items():
            for index in cells[cell].leds:
                want[index] = on_the_wire(colour, config.leds.brightness)
        assert shown == want
    last = pixels_from_bytes(decode_ws2812_spi(pi.pixel_writes()[-1]), config.leds.order)
    assert set(last) == {(0, 0, 0)}  # closing turns the chain off


# --- gpiozero's own choice of pin factory, buttons and the buzzer's PWM on it -------------------
@pytest.fixture
def no_pin_factory(monkeypatch: pytest.MonkeyPatch) -> Iterator[None]:
    """gpiozero chooses afresh, as at the board's start (and its choice is closed after)."""
    monkeypatch.delenv("GPIOZERO_PIN_FACTORY", raising=False)
    monkeypatch.setattr(Device, "pin_factory", None)
    yield
    if Device.pin_factory is not None:
        Device.pin_factory.close()


def test_gpiozero_chooses_rpi_gpio_where_lgpio_is_missing(
    monkeypatch: pytest.MonkeyPatch, no_pin_factory: None
) -> None:
    pi = stood_in(monkeypatch, load_board().display)
    monkeypatch.setattr(sys, "meta_path", [NotInstalled("lgpio"), *sys.meta_path])  # as where lgpio is not installed
    # The Pi's revision, as /proc/device-tree/system/linux,revision would give it.
    monkeypatch.setattr(gpiozero.pins.local, "get_pi_revision", lambda: ZERO_2_W)
    problems: list[str] = []
    factory = _pi_pin_factory(problems)
    assert type(factory).__name__ == "RPiGPIOFactory" and problems == []
    assert {"kind": "gpio.setmode", "mode": pi.gpio.BCM} in pi.log


def test_a_button_press_and_a_tone_through_rpi_gpio(monkeypatch: pytest.MonkeyPatch, no_pin_factory: None) -> None:
    config = load_board()
    pi = stood_in(monkeypatch, config.display)
    monkeypatch.setattr(sys, "meta_path", [NotInstalled("lgpio"), *sys.meta_path])  # as where lgpio is not installed
    monkeypatch.setattr(gpiozero.pins.local, "get_pi_revision", lambda: ZERO_2_W)
    with open_hardware(config, "pi") as hardware:  # nothing passed in: every part as on the Pi
        assert hardware.problems == [] and hardware.display is not None and hardware.buzzer is not None
        pull_up = pi.gpio.PUD_UP
        inputs = {(e["pin"], e["pull"]) for e in pi.events("gpio.setup") if e["direction"] == "in"}
        assert {(pin, pull_up) for pin in config.buttons.pins.values()} <= inputs
        ok = config.buttons.pins["ok"]
        pi.gpio.drive(ok, 0)  # the button closes to GND
        pi.gpio.drive(ok, 1)
        edges = [hardware.edges.get(timeout=5), hardware.edges.get(timeout=5)]  # type: ignore[union-attr]
        assert [(edge.name, edge.pressed) for edge in edges] == [("ok", True), ("ok", False)]

        loop = EventLoop(FakeClock(0.0))
        sound = Sound(hardware.buzzer, loop.call_later)
        sound.play("test", [("A5", 0.1)], volume=0.2)
        pin = config.buzzer.pin  # type: ignore[union-attr]
        pwm = [
            (e["kind"], e.get("frequency", e.get("duty")))
            for e in pi.log
            if e["kind"].startswith("gpio.pwm") and e["pin"] == pin
        ]
        # A5 is 880 Hz: software PWM started at that frequency, TonalBuzzer's 50 % duty, then the volume's.
        assert pwm[-4:] == [
            ("gpio.pwm", pytest.approx(880.0)),
            ("gpio.pwm.start", 0),
            ("gpio.pwm.duty", 50.0),
            ("gpio.pwm.duty", pytest.approx(20.0)),
        ]
        sound.stop()
        assert pi.log[-1]["kind"] == "gpio.pwm.stop"


# --- a wiring mistake is named -----------------------------------------------------------------
def test_a_wrong_i2c_address_is_named(monkeypatch: pytest.MonkeyPatch) -> None:
    cfg = load_board().display
    stood_in(monkeypatch, i2c={1: (0x3D,)})  # the module answers on 0x3D, the description says 0x3C
    with pytest.raises(HardwareError) as caught:
        make_luma_device(cfg)
    assert tr(caught.value) == (
        "display: nothing answers at address 0x3C on I2C bus 1; check the wiring (SDA, SCL, "
        "3V3, GND) and run `i2cdetect -y 1`: if the display shows up at another address, set "
        "display.address to it"
    )


def test_a_bus_that_is_not_enabled_is_named_not_blamed_on_the_wiring(monkeypatch: pytest.MonkeyPatch) -> None:
    stood_in(monkeypatch, i2c={}, spi=[(0, 0)])  # no /dev/i2c-1, no /dev/spidev1.0
    with pytest.raises(HardwareError) as caught:
        make_luma_device(load_board().display)
    assert tr(caught.value) == (
        "display: /dev/i2c-1 does not exist, so I2C is not enabled; enable it "
        "(raspi-config → Interface Options → I2C) and reboot"
    )
    with pytest.raises(HardwareError) as caught:
        make_luma_device(replace(board("ssd1322").display, device=1))
    assert tr(caught.value) == (
        "display: /dev/spidev1.1 does not exist, so SPI1 is not enabled; enable it "
        "(dtoverlay=spi1-2cs in /boot/firmware/config.txt) and reboot"
    )


def test_a_missing_rpi_gpio_is_named_not_blamed_on_the_wiring(monkeypatch: pytest.MonkeyPatch) -> None:
    cfg = board("ssd1322").display
    FakePi(spi=[(1, 0)]).install(monkeypatch, gpio=False)
    with pytest.raises(HardwareError) as caught:
        make_luma_device(cfg)
    message = tr(caught.value)
    assert message == (
        "display: SPI port 1 (/dev/spidev1.0) needs the Python module RPi.GPIO, which is not "
        "installed; install the pi extra (pip install 'xtraboard[pi]', package rpi-lgpio)"
    )


def test_a_buzzer_pin_without_pwm_names_what_gpiozero_said() -> None:
    """gpiozero's PinPWMUnsupported has no message: the problem names its type, not "()"."""
    problems: list[str] = []
    assert open_buzzer(load_board().buzzer, MockFactory(), problems) is None
    assert [tr(problem) for problem in problems] == [
        "buzzer: GPIO27 could not play tones (PinPWMUnsupported); playing without sound"
    ]


def test_every_display_of_the_shipped_descriptions_is_covered_here() -> None:
    """A new profile's driver needs its test above (its bytes, its RAM read back)."""
    drivers = {load_board(path).display.driver for path in [default_board_path(), *BOARDS.glob("*.toml")]}
    assert drivers == {"ssd1306", "sh1106", "ssd1309", "ssd1322", "ssd1327"}
