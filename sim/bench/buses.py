"""Recording buses: luma's own I2C and SPI interfaces on buses that keep every byte instead of
sending it, so the bench counts what would cross the wire (`xtraboard bench loop`) and tests read
what a panel was sent. These are stand-ins for the wire, not for the Pi: the Pi's own path
(luma opening smbus2, spidev and RPi.GPIO itself) runs in the tests on tests/pi_fakes.

luma's `i2c(bus=...)` is unmanaged: it writes in SMBus blocks of at most 32 bytes, where the
Pi's managed `i2c(port=...)` sends a frame's data in one `i2c_rdwr` message.

>>> from luma.core.interface.serial import i2c
>>> from PIL import Image
>>> from firmware.hardware.config import DisplayConfig
>>> from firmware.hardware.display import Display, make_luma_device
>>> bus = RecordingI2CBus()
>>> display = Display(make_luma_device(DisplayConfig("ssd1306", "i2c", 1, 0x3C, 128, 64, 0),
...                                    serial=i2c(bus=bus, address=0x3C)))
>>> bus.clear(); display.show(Image.new("1", (128, 64))), bus.byte_count()
(True, 1063)
"""

from __future__ import annotations

import errno
from collections.abc import Sequence
from typing import Any

from firmware.hardware.config import DisplayConfig


class RecordingI2CBus:
    """An smbus2-like bus that records every write (what luma's `i2c(bus=...)` calls).

    Addresses not in `present` raise the OSError a real bus raises when nothing acknowledges.
    """

    def __init__(self, present: Sequence[int] = (0x3C,)) -> None:
        self.present = tuple(present)
        self.writes: list[tuple[int, int, list[int]]] = []  # (address, control byte, payload)
        self.closed = False

    def write_i2c_block_data(self, i2c_addr: int, register: int, data: Sequence[int]) -> None:
        """One I2C write: the control byte (0x00 command, 0x40 data) and up to 32 bytes."""
        if i2c_addr not in self.present:
            raise OSError(errno.EREMOTEIO, "Remote I/O error")
        if len(data) > 32:
            raise ValueError(f"i2c: block of {len(data)} bytes; SMBus allows at most 32")
        self.writes.append((i2c_addr, register, list(data)))

    def close(self) -> None:
        self.closed = True

    def clear(self) -> None:
        """Forget the writes so far."""
        self.writes.clear()

    def byte_count(self) -> int:
        """Bytes written after the address: each write's control byte plus its payload."""
        return sum(1 + len(data) for _, _, data in self.writes)

    def commands(self) -> list[list[int]]:
        """The command writes (control byte 0x00), in order."""
        return [data for _, control, data in self.writes if control == 0x00]

    def data(self) -> bytes:
        """All display-RAM bytes written (control byte 0x40), joined."""
        return bytes(b for _, control, data in self.writes if control == 0x40 for b in data)


class RecordingSPIBus:
    """A spidev-like SPI port and RPi.GPIO-like pins in one: pass it to luma's own interface as
    `spi(spi=bus, gpio=bus)`; it records every transfer with the level of the DC line.

    >>> from luma.core.interface.serial import spi
    >>> bus = RecordingSPIBus()
    >>> serial = spi(spi=bus, gpio=bus)
    >>> serial.command(0x15, 0, 63); serial.data([0xF0])
    >>> bus.writes, bus.byte_count()
    ([(0, [21, 0, 63]), (1, [240])], 4)
    """

    LOW, HIGH, OUT, BCM = 0, 1, 0, 11  # RPi.GPIO's names that luma uses

    def __init__(self, dc_pin: int = 24) -> None:
        self.dc_pin = dc_pin
        self.levels: dict[int, int] = {}
        self.writes: list[tuple[int, list[int]]] = []  # (DC level: 0 command, 1 data; bytes)
        self.max_speed_hz = 0
        self.mode = 0
        self.opened: tuple[int, int] | None = None

    # spidev
    def open(self, port: int, device: int) -> None:
        self.opened = (port, device)

    def writebytes(self, data: Sequence[int]) -> None:
        self.writes.append((self.levels.get(self.dc_pin, 0), list(data)))

    def close(self) -> None:
        self.opened = None

    # RPi.GPIO
    def setup(self, pin: int, direction: int) -> None:
        self.levels.setdefault(pin, 0)

    def output(self, pin: int, level: int) -> None:
        self.levels[pin] = 1 if level else 0

    def cleanup(self, pins: Any = None) -> None:
        pass

    def clear(self) -> None:
        """Forget the writes so far."""
        self.writes.clear()

    def byte_count(self) -> int:
        """Bytes clocked out on MOSI (commands and data)."""
        return sum(len(data) for _, data in self.writes)

    def commands(self) -> list[int]:
        """Every byte sent with DC low, in order."""
        return [b for level, data in self.writes if level == 0 for b in data]

    def data(self) -> bytes:
        """Every byte sent with DC high, joined."""
        return bytes(b for level, data in self.writes if level == 1 for b in data)


def recording_serial(cfg: DisplayConfig) -> tuple[Any, RecordingI2CBus | RecordingSPIBus]:
    """luma's own serial interface for the configured bus, on a recording bus (tests, the bench)."""
    from luma.core.interface.serial import i2c, spi

    if cfg.interface == "i2c":
        bus: RecordingI2CBus | RecordingSPIBus = RecordingI2CBus((cfg.address,))
        return i2c(bus=bus, address=cfg.address), bus
    bus = RecordingSPIBus(cfg.dc_pin or 24)
    return spi(
        spi=bus, gpio=bus, port=cfg.port, device=cfg.device, gpio_DC=cfg.dc_pin or 24, gpio_RST=cfg.reset_pin or 25
    ), bus
