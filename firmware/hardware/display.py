"""The OLED: building the configured luma device, and pushing only what changed.

luma's ssd1306 `display()` sends the whole frame (1,063 bytes over I2C in 32-byte blocks) for
any change. For the SSD1306 family `make_luma_device` builds a subclass of luma's own device
class whose `display()` compares the frame page by page (8 pixel rows) and sends only the
changed column range of each changed page (`ChangedPages`); other drivers are luma's own.
`Display` skips identical frames and turns bus errors into `HardwareError`.

>>> from luma.core.interface.serial import i2c
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

import luma.oled.device
from luma.oled.const import ssd1306 as ssd1306_commands
from PIL import Image

from firmware.errors import ConfigError, HardwareError
from firmware.hardware.config import DisplayConfig


class ChangedPages:
    """A mixin for luma's monochrome devices whose RAM is organised in pages of 8 pixel rows:
    `display()` sends only the changed column range of each changed page, nothing for an
    identical frame, and the whole frame while what the controller holds is unknown (the first
    frame, after `forget()`). Each controller family says how it addresses a window of its RAM
    (`send_window`); put the mixin before luma's class: `class X(FamilyMixin, luma_class)`.
    """

    _sent: list[bytes] | None = None  # the controller's RAM as last sent, page by page

    # luma's device API used here, all public: mode, size, preprocess(), command(), data().
    mode: str
    size: tuple[int, int]
    preprocess: Any
    command: Any
    data: Any

    def display(self, image: Image.Image) -> None:
        """Send what changed between the last frame and `image` (luma's `display()` contract)."""
        if image.mode != self.mode or image.size != self.size:
            raise ValueError(f"display: a {self.size[0]}×{self.size[1]} mode {self.mode!r} image is needed, "
                             f"got {image.size[0]}×{image.size[1]} mode {image.mode!r}")
        pages = page_bytes(self.preprocess(image))
        sent, self._sent = self._sent, None  # unknown until this frame is through (a bus error)
        if sent is None or len(sent) != len(pages):
            self.send_window(0, len(pages[0]) - 1, 0, len(pages) - 1, b"".join(pages))
        else:
            for page, (new, old) in enumerate(zip(pages, sent)):
                span = changed_span(old, new)
                if span is not None:
                    first, last = span
                    self.send_window(first, last, page, page, new[first : last + 1])
        self._sent = pages

    def forget(self) -> None:
        """Send the next frame whole: what the controller holds is unknown (a reset, a bus error)."""
        self._sent = None

    def send_window(self, first_column: int, last_column: int, first_page: int, last_page: int,
                    data: bytes) -> None:
        """Write `data` into the RAM window, row of pages by row (the controller family's job)."""
        raise NotImplementedError


class SSD1306Windows(ChangedPages):
    """The SSD1306 family's windows: COLUMNADDR and PAGEADDR, then the bytes (luma sets these
    controllers up in horizontal addressing mode, so the bytes fill the window page by page)."""

    _colstart: int  # set by luma's ssd1306-family __init__

    def send_window(self, first_column: int, last_column: int, first_page: int, last_page: int,
                    data: bytes) -> None:
        # luma offers no public column offset: its ssd1306 family keeps the panel's first RAM
        # column (32 on 64-wide panels, 4 on the SSD1305's 128×32) in the private `_colstart`.
        start = self._colstart
        self.command(ssd1306_commands.COLUMNADDR, start + first_column, start + last_column,
                     ssd1306_commands.PAGEADDR, first_page, last_page)
        self.data(list(data))


class SSD1306(SSD1306Windows, luma.oled.device.ssd1306):
    """luma's ssd1306 sending only what changed."""


class SSD1305(SSD1306Windows, luma.oled.device.ssd1305):
    """luma's ssd1305 sending only what changed."""


class SSD1309(SSD1306Windows, luma.oled.device.ssd1309):
    """luma's ssd1309 sending only what changed."""


class SSD1315(SSD1306Windows, luma.oled.device.ssd1315):
    """luma's ssd1315 sending only what changed."""


class SSD1316(SSD1306Windows, luma.oled.device.ssd1316):
    """luma's ssd1316 sending only what changed."""


# The board description's `driver` → our change-only class; other drivers are luma's own.
CHANGE_ONLY: dict[str, type] = {cls.__name__.lower(): cls for cls in (SSD1306, SSD1305, SSD1309, SSD1315, SSD1316)}


def make_luma_device(display_cfg: DisplayConfig, *, serial: Any = None) -> Any:
    """The configured `luma.oled.device.<driver>` on its I2C/SPI interface (or on `serial`)."""
    import luma.core.error

    cfg = display_cfg
    driver = getattr(luma.oled.device, cfg.driver, None) if cfg.driver in luma.oled.device.__all__ else None
    driver = CHANGE_ONLY.get(cfg.driver, driver)
    if driver is None:
        known = ", ".join(luma.oled.device.__all__)
        raise ConfigError(f"display: driver {cfg.driver!r} is not a luma.oled device; known: {known}")
    where = _where(cfg)
    if serial is None:
        try:
            serial = _serial_interface(cfg)
        except luma.core.error.DevicePermissionError as error:
            raise HardwareError(
                f"display: permission denied opening {where}; add the user to the {cfg.interface} group "
                f"(sudo adduser $USER {cfg.interface}) and log in again"
            ) from error
        except (luma.core.error.Error, OSError, ImportError) as error:
            raise HardwareError(
                f"display: {where} is not available ({error}); {_what_to_check(cfg)}"
            ) from error
    try:
        return driver(serial, width=cfg.width, height=cfg.height, rotate=cfg.rotate)
    except luma.core.error.DeviceDisplayModeError as error:
        raise ConfigError(f"display: {cfg.driver} does not support {cfg.width}×{cfg.height} ({error})") from error
    except (luma.core.error.Error, OSError) as error:
        raise HardwareError(f"display: nothing answers on {where} ({error}); {_what_to_check(cfg)}") from error


class Display:
    """Pushes PIL images to a luma device, skipping unchanged frames (a `ChangedPages` device
    also skips unchanged pages)."""

    def __init__(self, device: Any) -> None:
        self.device = device
        self.paged = isinstance(device, ChangedPages)
        self.image: Image.Image | None = None  # the last frame shown
        self._image_bytes: bytes | None = None
        self.invalidate()  # the first frame goes out whole, as luma's own display() sends it

    @property
    def size(self) -> tuple[int, int]:
        """The size images must have (after the configured rotation)."""
        return tuple(self.device.size)  # type: ignore[return-value]

    def show(self, image: Image.Image) -> bool:
        """Show `image`; returns False (and sends nothing) if it equals the last frame."""
        if image.size != self.size:
            raise ValueError(f"display: image is {image.size[0]}×{image.size[1]}, the display is {self.size[0]}×{self.size[1]}")
        if image.mode != self.device.mode:
            image = image.convert(self.device.mode)
        data = image.tobytes()
        if data == self._image_bytes:
            return False
        try:
            self.device.display(image)
        except Exception as error:  # a bus error mid-game: report it, resend everything next time
            self.invalidate()
            raise HardwareError(f"display: sending a frame failed ({error}); check the wiring") from error
        self.image = image.copy()
        self._image_bytes = data
        return True

    def invalidate(self) -> None:
        """Forget what the display shows, so the next frame is sent in full (e.g. after a reset)."""
        self.image = None
        self._image_bytes = None
        if self.paged and self.device is not None:
            self.device.forget()

    def close(self) -> None:
        """Blank the display and release its bus (luma's cleanup); safe to call twice."""
        if self.device is None:
            return
        device, self.device = self.device, None
        if self.paged:
            device.forget()  # luma's cleanup blanks the panel with a whole frame, as it always did
        try:
            device.cleanup()
        except Exception:  # closing a display that went away must not stop shutdown
            pass


def page_bytes(image: Image.Image) -> list[bytes]:
    """A mode "1" image as SSD1306 pages: per page of 8 rows, one byte per column, top row = bit 0."""
    width, height = image.size
    if height % 8:
        raise ValueError(f"display: height {height} is not a multiple of 8 rows")
    count = height // 8
    # Rotated a quarter turn clockwise, each row is one column read bottom-up, packed MSB first:
    # byte k of that row holds page (count - 1 - k) with its top row in bit 0.
    columns = image.convert("1").transpose(Image.Transpose.ROTATE_270).tobytes()
    return [columns[count - 1 - page :: count] for page in range(count)]


def changed_span(old: bytes, new: bytes) -> tuple[int, int] | None:
    """The first and last index where two equal-length byte strings differ, or None."""
    if old == new:
        return None
    first = next(i for i, (a, b) in enumerate(zip(old, new)) if a != b)
    last = next(i for i in range(len(new) - 1, -1, -1) if old[i] != new[i])
    return first, last


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


def _serial_interface(cfg: DisplayConfig) -> Any:
    if cfg.interface == "i2c":
        from luma.core.interface.serial import i2c

        return i2c(port=cfg.port, address=cfg.address)
    if cfg.interface == "spi":
        from luma.core.interface.serial import spi

        lines = {"gpio_DC": cfg.dc_pin, "gpio_RST": cfg.reset_pin}
        return spi(port=cfg.port, **{key: pin for key, pin in lines.items() if pin is not None})
    raise ConfigError(f"display: interface {cfg.interface!r} is not 'i2c' or 'spi'")


def _where(cfg: DisplayConfig) -> str:
    if cfg.interface == "i2c":
        return f"I2C bus {cfg.port} (/dev/i2c-{cfg.port}) at address 0x{cfg.address:02X}"
    return f"SPI port {cfg.port} (/dev/spidev{cfg.port}.0)"


def _what_to_check(cfg: DisplayConfig) -> str:
    if cfg.interface == "i2c":
        return (
            f"check the wiring (SDA, SCL, 3V3, GND), run `i2cdetect -y {cfg.port}` to see which address "
            "answers, and that I2C is enabled (raspi-config → Interface Options → I2C)"
        )
    dc, reset = cfg.dc_pin or 24, cfg.reset_pin or 25
    return f"check the wiring (MOSI, SCLK, CE0, DC on GPIO{dc}, RST on GPIO{reset}) and that SPI is enabled (raspi-config → Interface Options → SPI)"
