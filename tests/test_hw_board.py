"""open_hardware: the mock backend end to end, and the Pi backend failing (or degrading) clearly."""

from __future__ import annotations

import pytest
from gpiozero.pins.mock import MockFactory
from luma.core.interface.serial import i2c

from firmware.errors import HardwareError
from firmware.hardware.board import describe_display, open_hardware
from firmware.hardware.buttons import RawEdge
from firmware.hardware.leds import MemoryPixels
from sim.bench.buses import RecordingI2CBus
from tests.hardware_fixtures import FakeClock, default_board

pytestmark = pytest.mark.filterwarnings("ignore:Image.Image.getdata is deprecated:DeprecationWarning")


def test_mock_backend_opens_every_part() -> None:
    board = default_board()
    clock = FakeClock(7.0)
    with open_hardware(board, "mock", clock=clock) as hardware:
        assert hardware.problems == []
        assert isinstance(hardware.leds.pixels, MemoryPixels)
        assert len(hardware.leds.pixels) == board.leds.count
        assert hardware.display.size == (128, 64)
        assert hardware.display_info == "ssd1309 128×64 on I2C bus 1 at 0x3C (simulated)"
        hardware.pin_factory.pin(board.buttons.pins["ok"]).drive_low()
        assert hardware.edges.get_nowait() == RawEdge("ok", True, 7.0)


def test_edges_go_to_the_given_emit() -> None:
    board = default_board()
    got: list[RawEdge] = []
    with open_hardware(board, "mock", emit=got.append, clock=FakeClock(1.0)) as hardware:
        hardware.pin_factory.pin(board.buttons.tilt).drive_low()
        assert hardware.edges is None
    assert got == [RawEdge("tilt", True, 1.0)]


def test_real_luma_driver_over_a_fake_bus_in_the_mock_backend() -> None:
    bus = RecordingI2CBus()
    with open_hardware(default_board(), "mock", serial=i2c(bus=bus, address=0x3C)) as hardware:
        assert hardware.display.paged
        assert hardware.display_info == "ssd1309 128×64 on I2C bus 1 at 0x3C"
        assert bus.writes


def test_no_display_at_the_address_is_a_problem_not_a_failure() -> None:
    with open_hardware(default_board(), "mock", serial=i2c(bus=RecordingI2CBus(present=()), address=0x3C)) as hardware:
        assert hardware.display is None
        assert len(hardware.problems) == 1
        assert "nothing answers at address 0x3C on I2C bus 1" in hardware.problems[0]
        assert "playing without the display" in hardware.problems[0]
        assert hardware.leds is not None


def test_pi_backend_without_gpio_says_what_to_check(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("GPIOZERO_PIN_FACTORY", raising=False)
    with pytest.raises(HardwareError) as caught:
        open_hardware(default_board(), "pi")
    message = str(caught.value)
    for part in ("buttons: no GPIO access", "Raspberry Pi", "gpio group", "lgpio"):
        assert part in message


def test_pi_backend_plays_on_without_leds_and_display() -> None:
    # GPIO from a mock factory; this machine has no NeoPixel library and no /dev/i2c-1.
    with open_hardware(default_board(), "pi", pin_factory=MockFactory()) as hardware:
        assert hardware.leds is None and hardware.display is None and hardware.buzzer is None
        leds, display, buzzer = hardware.problems
        assert leds.startswith("LEDs: the NeoPixel chain on GPIO10 (spi) could not be opened")
        assert "playing without LEDs" in leds
        assert display.startswith("display: /dev/i2c-1 does not exist, so I2C is not enabled")
        assert "raspi-config → Interface Options → I2C" in display
        assert buzzer.startswith("buzzer: GPIO27 could not play tones") and "playing without sound" in buzzer


def test_close_blanks_the_leds_frees_the_pins_and_is_idempotent() -> None:
    board = default_board()
    factory = MockFactory()
    hardware = open_hardware(board, "mock", pin_factory=factory)
    pixels = hardware.leds.pixels
    hardware.leds.show({"seat.0": (255, 0, 0)}, 0.0)
    hardware.close()
    hardware.close()
    assert pixels.last == bytes(len(pixels.last))
    open_hardware(board, "mock", pin_factory=factory).close()  # the pins are free again


def test_unknown_backend_is_a_value_error() -> None:
    with pytest.raises(ValueError, match="backend 'sim' is not one of pi, mock"):
        open_hardware(default_board(), "sim")  # type: ignore[arg-type]


def test_describe_display() -> None:
    assert describe_display(default_board()) == "ssd1309 128×64 on I2C bus 1 at 0x3C"
