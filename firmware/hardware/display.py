"""The OLED: building the configured luma device, and pushing only what changed.

luma's monochrome drivers send the whole frame for any change (an SSD1306: 1,063 bytes over I2C
in 32-byte blocks). For the profiles' panels `make_luma_device` builds a subclass of luma's own
device class that sends only what changed and nothing for an unchanged frame:

- SSD1306 family (ssd1306, ssd1305, ssd1309, ssd1315, ssd1316) and SH1106: RAM in pages of 8
  pixel rows; the changed column range of each changed page (`ChangedPages`).
- SSD1322 and SSD1327 (4-bit greyscale): luma's own `display()` already sends bounding boxes
  from a framebuffer; ours (`ChangedRows`) gives one box per run of changed pixel rows instead of
  one per quarter of the panel, aligned to the controller's columns.

Other drivers are luma's own. `Display` skips identical frames, centres a smaller image on a
larger panel, and turns bus errors into `HardwareError`.

On the Pi, `make_luma_device` opens luma's own `i2c(port=…, address=…)` or `spi(port=…,
device=…, gpio_DC=…, gpio_RST=…)`; tests and the bench pass a recording interface as `serial`
(`sim/bench/buses.py`), and tests/pi_fakes stands in for smbus2, spidev and RPi.GPIO to run the
Pi's own path.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from typing import Protocol

import luma.oled.device
import luma.oled.device.greyscale
from luma.oled.const import ssd1306 as ssd1306_commands
from PIL import Image

from firmware.errors import N_, ConfigError, HardwareError, Text
from firmware.hardware.config import DisplayConfig

DAY_CONTRAST = 0xCF  # luma's SSD1306 level, for a device that does not say what its init chose
NIGHT_CONTRAST = 0x08  # low but never off: a contrast of 0 blanks some panels entirely


class LumaDevice(Protocol):
    """What `Display` uses of a luma device (luma ships no type hints: its classes are unchecked)."""

    @property
    def size(self) -> tuple[int, int]: ...

    @property
    def mode(self) -> str: ...

    def display(self, image: Image.Image) -> None: ...

    def contrast(self, level: int) -> None: ...

    def cleanup(self) -> None: ...


class ChangeOnly:
    """A luma device that sends only what changed; `forget()` makes the next frame go out whole."""

    contrast_level: int | None = None  # what luma's init (or night mode) last set

    def contrast(self, level: int) -> None:
        """luma's contrast, remembered: each family's init picks its own day level (0xCF on the
        SSD1306 family, 0x7F on SH1106 and the greyscale panels), which night mode restores."""
        self.contrast_level = level
        super().contrast(level)  # type: ignore[misc]  # a mixin: luma's device class comes next in the MRO

    def forget(self) -> None:
        """Send the next frame whole: what the controller holds is unknown (a reset, a bus error)."""
        raise NotImplementedError


class ChangedPages(ChangeOnly):
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
    preprocess: Callable[[Image.Image], Image.Image]
    command: Callable[..., None]  # one command byte and its arguments
    data: Callable[[list[int]], None]

    def display(self, image: Image.Image) -> None:
        """Send what changed between the last frame and `image` (luma's `display()` contract)."""
        if image.mode != self.mode or image.size != self.size:
            raise ValueError(
                f"display: a {self.size[0]}×{self.size[1]} mode {self.mode!r} image is needed, "
                f"got {image.size[0]}×{image.size[1]} mode {image.mode!r}"
            )
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

    def send_window(self, first_column: int, last_column: int, first_page: int, last_page: int, data: bytes) -> None:
        """Write `data` into the RAM window, row of pages by row (the controller family's job)."""
        raise NotImplementedError


class SSD1306Windows(ChangedPages):
    """The SSD1306 family's windows: COLUMNADDR and PAGEADDR, then the bytes (luma sets these
    controllers up in horizontal addressing mode, so the bytes fill the window page by page)."""

    _colstart: int  # set by luma's ssd1306-family __init__

    def send_window(self, first_column: int, last_column: int, first_page: int, last_page: int, data: bytes) -> None:
        # luma offers no public column offset: its ssd1306 family keeps the panel's first RAM
        # column (32 on 64-wide panels, 4 on the SSD1305's 128×32) in the private `_colstart`.
        start = self._colstart
        self.command(
            ssd1306_commands.COLUMNADDR,
            start + first_column,
            start + last_column,
            ssd1306_commands.PAGEADDR,
            first_page,
            last_page,
        )
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


class SH1106(ChangedPages, luma.oled.device.sh1106):
    """luma's sh1106 sending only what changed.

    The SH1106 has only page addressing and no column-range command: each page's bytes follow
    "page P, column C" (0xB0 + P, then C's low and high nibble as 0x00 + low, 0x10 + high). Its RAM
    is 132 columns wide; luma shows the 128 pixels from `page_address_offset` (2) on, as we do.
    """

    _page_address_offset: int  # set by luma's sh1106 __init__

    def send_window(self, first_column: int, last_column: int, first_page: int, last_page: int, data: bytes) -> None:
        column = self._page_address_offset + first_column
        width = last_column - first_column + 1
        for row, page in enumerate(range(first_page, last_page + 1)):
            # Byte for byte what luma's sh1106.display() sends per page: one command write, one data write.
            self.command(0xB0 + page, column & 0x0F, 0x10 | column >> 4)
            self.data(list(data[row * width : (row + 1) * width]))


class ChangedRows:
    """A luma framebuffer (the `redraw()` protocol of `luma.core.framebuffer`) that yields one
    bounding box per run of changed pixel rows, spanning that run's changed columns; the whole
    image while the controller's RAM is unknown (the first frame, after `forget()`).

    luma's own `diff_to_previous` yields one box per quarter of the panel: a cursor moving from
    one line to the next changes both lines, and the box between them goes out too.
    """

    def __init__(self) -> None:
        self.prev_image: Image.Image | None = None

    def forget(self) -> None:
        """The next frame is sent whole."""
        self.prev_image = None

    def redraw(self, image: Image.Image) -> Iterator[tuple[Image.Image, tuple[int, int, int, int]]]:
        """Yield (part of `image`, (left, top, right, bottom)) for each changed run of rows."""
        previous, self.prev_image = self.prev_image, image.copy()
        if previous is None or previous.size != image.size or previous.mode != image.mode:
            yield image, (0, 0) + image.size
            return
        for left, top, right, bottom in changed_boxes(previous, image):
            yield image.crop((left, top, right, bottom)), (left, top, right, bottom)


class GreyscaleWindows(ChangeOnly):
    """The greyscale family (luma's `greyscale_device`): luma's own `display()`, fed by a
    `ChangedRows` framebuffer; put it before luma's class."""

    framebuffer: ChangedRows  # luma's greyscale_device keeps its framebuffer here

    def __init__(self, *args: object, **kwargs: object) -> None:
        kwargs.setdefault("framebuffer", ChangedRows())
        super().__init__(*args, **kwargs)

    def forget(self) -> None:
        self.framebuffer.forget()


class SSD1322(GreyscaleWindows, luma.oled.device.ssd1322):
    """luma's ssd1322 (4-bit greyscale, 2 pixels a byte, columns addressed in units of 4 pixels,
    which luma's `_inflate_bbox` rounds each box to) sending only the changed rows' windows."""


class SSD1327(GreyscaleWindows, luma.oled.device.ssd1327):
    """luma's ssd1327 (4-bit greyscale, 2 pixels a byte) sending only the changed rows' windows."""

    def _inflate_bbox(self, bounding_box: tuple[int, int, int, int]) -> tuple[int, int, int, int]:
        # Its columns are addressed per byte of 2 pixels; luma rounds to 4, which is also right
        # but sends up to 2 more bytes per row.
        left, top, right, bottom = bounding_box
        return left & ~1, top, right + (right & 1), bottom


# What luma imports on the Pi (top-level module → the name people know it by, the package that
# provides it): RPi.GPIO drives an SPI panel's DC and RST lines, spidev its bus, smbus2 the I2C bus.
MODULES: dict[str, tuple[str, str]] = {
    "RPi": ("RPi.GPIO", "rpi-lgpio"),
    "spidev": ("spidev", "spidev"),
    "smbus2": ("smbus2", "smbus2"),
}

# The board description's `driver` → our change-only class; other drivers are luma's own.
CHANGE_ONLY: dict[str, type] = {
    cls.__name__.lower(): cls for cls in (SSD1306, SSD1305, SSD1309, SSD1315, SSD1316, SH1106, SSD1322, SSD1327)
}


def make_luma_device(display_cfg: DisplayConfig, *, serial: object = None) -> LumaDevice:
    """The configured `luma.oled.device.<driver>` on its I2C/SPI interface (or on `serial`)."""
    import luma.core.error

    cfg = display_cfg
    driver = getattr(luma.oled.device, cfg.driver, None) if cfg.driver in luma.oled.device.__all__ else None
    driver = CHANGE_ONLY.get(cfg.driver, driver)
    if driver is None:
        known = ", ".join(luma.oled.device.__all__)
        raise ConfigError(
            Text(
                N_("display: driver {driver!r} is not a luma.oled device; known: {known}"),
                driver=cfg.driver,
                known=known,
            )
        )
    where = _where(cfg)
    if serial is None:
        try:
            serial = _serial_interface(cfg)
        except luma.core.error.DevicePermissionError as error:
            raise HardwareError(
                Text(
                    N_(
                        "display: permission denied opening {where}; add the user to the {group} group "
                        "(sudo adduser $USER {group}) and log in again"
                    ),
                    where=where,
                    group=cfg.interface,
                )
            ) from error
        except luma.core.error.DeviceNotFoundError as error:  # no /dev file to open: the bus is off, not miswired
            raise HardwareError(_not_enabled(cfg)) from error
        except ImportError as error:  # the pi extra is missing: no wiring check helps
            module = (error.name or "").partition(".")[0]
            raise HardwareError(
                Text(
                    N_(
                        "display: {where} needs the Python module {module}, which is not installed; install the "
                        "pi extra (pip install 'xtraboard[pi]', package {package})"
                    ),
                    where=where,
                    module=MODULES.get(module, (module, module))[0],
                    package=MODULES.get(module, (module, module))[1],
                )
            ) from error
        except (luma.core.error.Error, OSError) as error:
            raise HardwareError(
                Text(
                    N_("display: {where} is not available ({error}); {check}"),
                    where=where,
                    error=error,
                    check=_what_to_check(cfg),
                )
            ) from error
    options: dict[str, object] = {}
    if issubclass(driver, luma.oled.device.greyscale.greyscale_device):
        options["mode"] = luma_mode(cfg)
    try:
        device: LumaDevice = driver(serial, width=cfg.width, height=cfg.height, rotate=cfg.rotate, **options)
        return device
    except luma.core.error.DeviceDisplayModeError as error:
        raise ConfigError(
            Text(
                N_("display: {driver} does not support {width}×{height} ({error})"),
                driver=cfg.driver,
                width=cfg.width,
                height=cfg.height,
                error=error,
            )
        ) from error
    except luma.core.error.DeviceNotFoundError as error:
        if cfg.interface != "i2c":
            raise HardwareError(
                Text(
                    N_("display: nothing answers on {where} ({error}); {check}"),
                    where=where,
                    error=error,
                    check=_what_to_check(cfg),
                )
            ) from error
        # The bus is there but no chip acknowledged the address (the kernel's EREMOTEIO).
        raise HardwareError(
            Text(
                N_(
                    "display: nothing answers at address {address} on I2C bus {port}; check the wiring (SDA, SCL, "
                    "3V3, GND) and run `i2cdetect -y {port}`: if the display shows up at another address, set "
                    "display.address to it"
                ),
                address=f"0x{cfg.address:02X}",
                port=cfg.port,
            )
        ) from error
    except (luma.core.error.Error, OSError) as error:
        raise HardwareError(
            Text(
                N_("display: nothing answers on {where} ({error}); {check}"),
                where=where,
                error=error,
                check=_what_to_check(cfg),
            )
        ) from error


def luma_mode(cfg: DisplayConfig) -> str:
    """The mode luma's device works in: "1", or "RGB" for a greyscale panel (`mode = "L"`:
    luma's greyscale drivers turn RGB into their 16 greys)."""
    return "RGB" if cfg.mode == "L" else "1"


def dummy_device(cfg: DisplayConfig) -> LumaDevice:
    """luma's dummy device with the panel's size, rotation and mode (the simulator's display)."""
    from luma.core.device import dummy

    device: LumaDevice = dummy(width=cfg.width, height=cfg.height, rotate=cfg.rotate, mode=luma_mode(cfg))
    return device


class Display:
    """Pushes PIL images to a luma device, skipping unchanged frames (a `ChangeOnly` device
    also skips unchanged parts of a frame)."""

    def __init__(self, device: LumaDevice) -> None:
        self.device: LumaDevice | None = device
        self.paged = isinstance(device, ChangeOnly)
        self.image: Image.Image | None = None  # the last frame shown
        self.night = False
        # luma's devices are untyped and not every one keeps the contrast it was set to
        self.day_contrast = getattr(device, "contrast_level", None) or DAY_CONTRAST
        self._image_bytes: bytes | None = None
        self.invalidate()  # the first frame goes out whole, as luma's own display() sends it

    @property
    def size(self) -> tuple[int, int]:
        """The size images must have (after the configured rotation)."""
        width, height = self._open().size
        return width, height

    @property
    def canvas_size(self) -> tuple[int, int]:
        """The size to draw screens at: the panel's own (screens lay out per size class)."""
        return self.size

    @property
    def mode(self) -> str:
        """The image mode luma's device takes: "1" for monochrome panels; the greyscale drivers
        take "RGB" (or "L"), and screens drawn for them may use greys."""
        return str(self._open().mode)

    def show(self, image: Image.Image) -> bool:
        """Show `image` (the panel's size, or smaller: centred); returns False (and sends nothing)
        if it equals the last frame."""
        if image.size != self.size:
            if image.width > self.size[0] or image.height > self.size[1]:
                raise ValueError(
                    f"display: image is {image.size[0]}×{image.size[1]}, the display is {self.size[0]}×{self.size[1]}"
                )
            panel = Image.new(image.mode, self.size)
            panel.paste(image, ((self.size[0] - image.width) // 2, (self.size[1] - image.height) // 2))
            image = panel
        device = self._open()
        if image.mode != device.mode:
            image = image.convert(device.mode)
        data = image.tobytes()
        if data == self._image_bytes:
            return False
        try:
            device.display(image)
        except Exception as error:  # a bus error mid-game: report it, resend everything next time
            self.invalidate()
            raise HardwareError(
                Text(N_("display: sending a frame failed ({error}); check the wiring"), error=error)
            ) from error
        self.image = image.copy()
        self._image_bytes = data
        return True

    def _open(self) -> LumaDevice:
        """The device; AttributeError once the display is closed."""
        if self.device is None:
            raise AttributeError("the display is closed")
        return self.device

    def dim(self, night: bool) -> None:
        """Night mode: the panel's contrast down to NIGHT_CONTRAST, or back to its day level; sends
        the one command only when the mode changes."""
        if night == self.night or self.device is None:
            return
        self.night = night
        try:
            self.device.contrast(NIGHT_CONTRAST if night else self.day_contrast)
        except Exception as error:
            raise HardwareError(
                Text(N_("display: setting the contrast failed ({error}); check the wiring"), error=error)
            ) from error

    def invalidate(self) -> None:
        """Forget what the display shows, so the next frame is sent in full (e.g. after a reset)."""
        self.image = None
        self._image_bytes = None
        if isinstance(self.device, ChangeOnly):  # paged
            self.device.forget()

    def close(self) -> None:
        """Blank the display and release its bus (luma's cleanup); safe to call twice."""
        if self.device is None:
            return
        device, self.device = self.device, None
        if isinstance(device, ChangeOnly):  # paged
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


def changed_boxes(old: Image.Image, new: Image.Image) -> list[tuple[int, int, int, int]]:
    """(left, top, right, bottom) boxes, exclusive at right and bottom, one per run of changed
    rows between two images of the same size and mode, spanning that run's changed columns."""
    width, height = new.size
    stride = len(new.tobytes()) // height
    before, after = old.tobytes(), new.tobytes()
    per_byte = 8 if new.mode == "1" else 1
    per_pixel = 1 if new.mode == "1" else stride // width
    boxes: list[tuple[int, int, int, int]] = []
    run: list[int] | None = None  # [left, top, right, bottom] of the run being built
    for y in range(height):
        row = slice(y * stride, (y + 1) * stride)
        span = changed_span(before[row], after[row])
        if span is None:
            if run is not None:
                boxes.append((run[0], run[1], run[2], run[3]))
                run = None
            continue
        left = span[0] * per_byte // per_pixel
        right = min(width, -(-(span[1] + 1) * per_byte // per_pixel))  # rounded up: the whole last pixel
        if run is None:
            run = [left, y, right, y + 1]
        else:
            run = [min(run[0], left), run[1], max(run[2], right), y + 1]
    if run is not None:
        boxes.append((run[0], run[1], run[2], run[3]))
    return boxes


def changed_span(old: bytes, new: bytes) -> tuple[int, int] | None:
    """The first and last index where two equal-length byte strings differ, or None."""
    if old == new:
        return None
    first = next(i for i, (a, b) in enumerate(zip(old, new)) if a != b)
    last = next(i for i in range(len(new) - 1, -1, -1) if old[i] != new[i])
    return first, last


def _serial_interface(cfg: DisplayConfig) -> object:
    if cfg.interface == "i2c":
        from luma.core.interface.serial import i2c

        return i2c(port=cfg.port, address=cfg.address)
    if cfg.interface == "spi":
        from luma.core.interface.serial import spi

        lines = {"gpio_DC": cfg.dc_pin, "gpio_RST": cfg.reset_pin}
        return spi(port=cfg.port, device=cfg.device, **{key: pin for key, pin in lines.items() if pin is not None})
    raise ConfigError(f"display: interface {cfg.interface!r} is not 'i2c' or 'spi'")


def _where(cfg: DisplayConfig) -> Text:
    if cfg.interface == "i2c":
        return Text(
            N_("I2C bus {port} (/dev/i2c-{port}) at address {address}"), port=cfg.port, address=f"0x{cfg.address:02X}"
        )
    return Text(N_("SPI port {port} (/dev/spidev{port}.{device})"), port=cfg.port, device=cfg.device)


def _not_enabled(cfg: DisplayConfig) -> Text:
    if cfg.interface == "i2c":
        return Text(
            N_(
                "display: /dev/i2c-{port} does not exist, so I2C is not enabled; enable it "
                "(raspi-config → Interface Options → I2C) and reboot"
            ),
            port=cfg.port,
        )
    return Text(
        N_(
            "display: /dev/spidev{port}.{device} does not exist, so SPI{port} is not enabled; enable it "
            "({enable}) and reboot"
        ),
        port=cfg.port,
        device=cfg.device,
        enable=_spi_enable(cfg),
    )


def _spi_enable(cfg: DisplayConfig) -> str:
    """How SPI0, or SPI1 with enough chip selects for `device`, is switched on."""
    if cfg.port == 0:
        return "raspi-config → Interface Options → SPI"
    return f"dtoverlay=spi1-{cfg.device + 1}cs in /boot/firmware/config.txt"


def _what_to_check(cfg: DisplayConfig) -> Text:
    if cfg.interface == "i2c":
        return Text(
            N_(
                "check the wiring (SDA, SCL, 3V3, GND), run `i2cdetect -y {port}` to see which address "
                "answers, and that I2C is enabled (raspi-config → Interface Options → I2C)"
            ),
            port=cfg.port,
        )
    dc, reset = cfg.dc_pin or 24, cfg.reset_pin or 25
    mosi, sclk = (10, 11) if cfg.port == 0 else (20, 21)
    enable = _spi_enable(cfg)
    return Text(
        N_(
            "check the wiring (MOSI on GPIO{mosi}, SCLK on GPIO{sclk}, CS on GPIO{cs} (CE{device}), "
            "DC on GPIO{dc}, RST on GPIO{reset}) and that SPI{port} is enabled ({enable})"
        ),
        mosi=mosi,
        sclk=sclk,
        cs=cfg.cs_pin,
        device=cfg.device,
        dc=dc,
        reset=reset,
        port=cfg.port,
        enable=enable,
    )
