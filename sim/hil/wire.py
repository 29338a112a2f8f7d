"""Decoders for the board's wires: the LED frame from a captured WS2812 stream, the display
image from captured SSD1306/SH1106 I2C writes — so a logic analyser's capture can be checked
against a scenario's expectation.

The LED chain is driven by adafruit's `neopixel_spi` (`[leds] driver = "spi"`): every data bit
becomes one SPI byte at 6.4 MHz, a 0 bit `0b11000000` (short high), a 1 bit `0b11110000` (long
high), most significant bit first, with a reset of zero bytes before and after the frame.
Capture MOSI (GPIO10) with the analyser's SPI decoder (clock: SCLK, GPIO11) and feed the bytes:

    >>> leds = decode_ws2812_spi(bytes([0] * 4 + [0xF0] * 8 + [0xC0] * 16 + [0] * 4))
    >>> pixels_from_bytes(leds, "GRB")      # green first on the wire
    [(0, 255, 0)]

The display's controller RAM is rebuilt from its I2C writes (control byte 0x00: commands,
0x40: data), as `Ssd1306Ram`/`Sh1106Ram` follow the addressing commands luma sends:

    >>> ram = ram_for("ssd1306", 128, 64)
    >>> ram.write(0x3C, bytes([0x00, 0x21, 0, 127, 0x22, 0, 7]))
    >>> ram.write(0x3C, bytes([0x40, 0xFF])); ram.image().getpixel((0, 7))
    255

Colours on the wire are after brightness (and the current budget): `on_the_wire(colour,
brightness)` is what a cell showing `colour` sends when the budget is not reached.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from typing import Any

from PIL import Image

from firmware.errors import XtraboardError

Colour = tuple[int, int, int]


class WireError(XtraboardError, ValueError):
    """A capture that is not what the board sends: the message names the offset and the byte."""


# --- WS2812 over SPI ---------------------------------------------------------------------------


def _bit(spi_byte: int, offset: int) -> int:
    """A WS2812 bit from its SPI byte: the high time (leading ones) says 0 (short) or 1 (long)."""
    high = 8 - (spi_byte ^ 0xFF).bit_length()  # leading one bits
    if spi_byte != (0xFF << (8 - high)) & 0xFF or not 1 <= high <= 7:
        raise WireError(
            f"byte {offset} of the capture is 0x{spi_byte:02X}, no WS2812 bit pattern "
            "(a high pulse then low, e.g. 0xC0 or 0xF0)"
        )
    return 1 if high >= 3 else 0  # neopixel_spi: 2 high bits (312 ns) = 0, 4 (625 ns) = 1


def decode_ws2812_spi(stream: bytes) -> bytes:
    """The pixel bytes (in the chain's colour order) of one frame sent by neopixel_spi: the reset
    (zero bytes) around it is dropped, then every 8 SPI bytes are one data byte."""
    start = next((i for i, b in enumerate(stream) if b), len(stream))
    end = len(stream)
    while end > start and stream[end - 1] == 0:
        end -= 1
    body = stream[start:end]
    if len(body) % 8:
        raise WireError(
            f"the frame between the resets is {len(body)} SPI bytes, not a multiple of 8 "
            "(one per data bit); was the capture cut short?"
        )
    out = bytearray()
    for n in range(0, len(body), 8):
        value = 0
        for k in range(8):
            value = value << 1 | _bit(body[n + k], start + n + k)
        out.append(value)
    return bytes(out)


def split_frames(stream: bytes, reset_bytes: int = 8) -> list[bytes]:
    """A capture of several frames, split at runs of at least `reset_bytes` zero bytes (the
    reset: 80 µs is 64 bytes at 6.4 MHz; a data bit is never a zero byte)."""
    frames: list[bytes] = []
    run = 0
    start: int | None = None
    for i, b in enumerate(stream):
        if b == 0:
            run += 1
            if run == reset_bytes and start is not None:
                frames.append(stream[start : i - reset_bytes + 1])
                start = None
        else:
            if start is None:
                start = i
            run = 0
    if start is not None:
        frames.append(stream[start:])
    return [decode_ws2812_spi(f) for f in frames]


def pixels_from_bytes(data: bytes, order: str = "GRB") -> list[Colour]:
    """Pixel bytes in `order` (e.g. "GRB", "RGBW": white is dropped) → RGB per LED."""
    bpp = len(order)
    if len(data) % bpp:
        raise WireError(f"{len(data)} bytes is no whole number of {bpp}-byte {order} pixels")
    at = {channel: order.index(channel) for channel in "RGB"}
    return [(data[i + at["R"]], data[i + at["G"]], data[i + at["B"]]) for i in range(0, len(data), bpp)]


def cells_from_pixels(pixels: Sequence[Colour], cells: Mapping[str, Any]) -> dict[str, Colour]:
    """Each cell's colour on the wire (its first LED; `cells` as board.toml's [cells], e.g.
    `load_board().leds.cells`). Cells whose LEDs disagree raise: the chain is miswired."""
    frame: dict[str, Colour] = {}
    for name, cell in cells.items():
        colours = {pixels[i] for i in cell.leds if i < len(pixels)}
        if len(colours) > 1:
            raise WireError(f"cell {name}: its LEDs {list(cell.leds)} show different colours {sorted(colours)}")
        frame[name] = colours.pop() if colours else (0, 0, 0)
    return frame


def on_the_wire(colour: Colour, brightness: float) -> Colour:
    """What a cell showing `colour` sends at `brightness` (PixelBuf truncates), within budget.

    >>> on_the_wire((255, 128, 1), 0.5)
    (127, 64, 0)
    """
    return (int(colour[0] * brightness), int(colour[1] * brightness), int(colour[2] * brightness))


# --- SSD1306 / SH1106 over I2C ----------------------------------------------------------------------

SSD1306_ARGS = {
    0x20: 1,
    0x21: 2,
    0x22: 2,
    0x26: 6,
    0x27: 6,
    0x29: 5,
    0x2A: 5,
    0xA3: 2,
    0x81: 1,
    0x8D: 1,
    0xA8: 1,
    0xD3: 1,
    0xD5: 1,
    0xD8: 1,
    0xD9: 1,
    0xDA: 1,
    0xDB: 1,
}
# The SH1106's commands are one byte but these; luma also sends the SSD1306's 0x8D 0x14 to it.
SH1106_ARGS = {0x81: 1, 0x8D: 1, 0xA8: 1, 0xAD: 1, 0xD3: 1, 0xD5: 1, 0xD9: 1, 0xDA: 1, 0xDB: 1}


class ControllerRam:
    """A display controller's RAM, rebuilt from the I2C writes it received (`write`)."""

    columns = 128
    args: Mapping[int, int] = SSD1306_ARGS

    def __init__(self, width: int = 128, height: int = 64, *, column_offset: int = 0, address: int = 0x3C) -> None:
        if height % 8 or not 0 < width <= self.columns - column_offset:
            raise WireError(f"a {width}×{height} display does not fit this controller's RAM")
        self.width, self.height, self.offset, self.address = width, height, column_offset, address
        self.pages = [bytearray(self.columns) for _ in range(8)]
        self.page = 0
        self.column = 0
        self._command: list[int] = []  # a command whose arguments are still to come

    def write(self, address: int, payload: bytes | Sequence[int]) -> None:
        """One I2C write to `address` (others are ignored): control byte(s), then bytes. A control
        byte with Co set (0x80, 0xC0) governs one byte, then another control byte follows."""
        if address != self.address:
            return
        payload = bytes(payload)
        i = 0
        while i < len(payload):
            control = payload[i]
            if control & 0x3F:
                raise WireError(
                    f"I2C write to 0x{address:02X}: 0x{control:02X} at byte {i} is no "
                    "SSD1306 control byte (0x00, 0x40, 0x80 or 0xC0)"
                )
            span = payload[i + 1 : i + 2] if control & 0x80 else payload[i + 1 :]
            for byte in span:
                self.data(byte) if control & 0x40 else self.command(byte)
            i += 1 + len(span)

    def command(self, byte: int) -> None:
        if self._command:
            self._command.append(byte)
        elif byte in self.args:
            self._command = [byte]
        else:
            self.single(byte)
            return
        if len(self._command) == 1 + self.args[self._command[0]]:
            command, self._command = self._command, []
            self.multi(command[0], command[1:])

    def single(self, byte: int) -> None:
        """A one-byte command: in page addressing, the page and the column's nibbles."""
        if 0xB0 <= byte <= 0xB7:
            self.page = byte & 0x07
        elif byte <= 0x0F:
            self.column = (self.column & 0xF0) | byte
        elif byte <= 0x1F:
            self.column = (self.column & 0x0F) | (byte & 0x0F) << 4

    def multi(self, command: int, args: list[int]) -> None:
        """A command with arguments (none of them moves data on a plain SH1106)."""

    def data(self, byte: int) -> None:
        if self.column < self.columns:
            self.pages[self.page][self.column] = byte
        self.column = min(self.column + 1, self.columns)

    def page_bytes(self) -> list[bytes]:
        """The visible part of each page: one byte per column, top row in bit 0."""
        return [bytes(page[self.offset : self.offset + self.width]) for page in self.pages[: self.height // 8]]

    def image(self) -> Image.Image:
        """The visible RAM as a mode "1" image (as luma's device frame, before any rotation)."""
        image = Image.new("1", (self.width, self.height))
        pixels = image.load()
        assert pixels is not None, "a new image in memory always loads"
        for p, page in enumerate(self.page_bytes()):
            for x, byte in enumerate(page):
                for bit in range(8):
                    if byte >> bit & 1:
                        pixels[x, p * 8 + bit] = 255
        return image


class Ssd1306Ram(ControllerRam):
    """The SSD1306 family: horizontal, vertical or page addressing, with COLUMNADDR/PAGEADDR
    windows (what luma and firmware.hardware.display send)."""

    def __init__(self, width: int = 128, height: int = 64, *, column_offset: int = 0, address: int = 0x3C) -> None:
        super().__init__(width, height, column_offset=column_offset, address=address)
        self.mode = 2  # page addressing after reset
        self.window = (0, 127, 0, 7)  # first and last column, first and last page

    def multi(self, command: int, args: list[int]) -> None:
        first_col, last_col, first_page, last_page = self.window
        if command == 0x20:
            self.mode = args[0] & 0x03
        elif command == 0x21:
            first_col, last_col = args[0] & 0x7F, args[1] & 0x7F
            self.column = first_col
        elif command == 0x22:
            first_page, last_page = args[0] & 0x07, args[1] & 0x07
            self.page = first_page
        self.window = (first_col, last_col, first_page, last_page)

    def data(self, byte: int) -> None:
        first_col, last_col, first_page, last_page = self.window
        self.pages[self.page][self.column] = byte
        if self.mode == 0:  # horizontal: along the page, then the next page of the window
            if self.column >= last_col:
                self.column = first_col
                self.page = first_page if self.page >= last_page else self.page + 1
            else:
                self.column += 1
        elif self.mode == 1:  # vertical: down the pages, then the next column
            if self.page >= last_page:
                self.page = first_page
                self.column = first_col if self.column >= last_col else self.column + 1
            else:
                self.page += 1
        else:  # page addressing: along the page, wrapping at its end
            self.column = (self.column + 1) % self.columns


class Sh1106Ram(ControllerRam):
    """The SH1106: 132 columns of RAM, page addressing only; luma shows columns 2–129 of it."""

    columns = 132
    args = SH1106_ARGS

    def __init__(self, width: int = 128, height: int = 64, *, column_offset: int = 2, address: int = 0x3C) -> None:
        super().__init__(width, height, column_offset=column_offset, address=address)


def ram_for(driver: str, width: int = 128, height: int = 64, *, address: int = 0x3C) -> ControllerRam:
    """The RAM model of a board description's display driver."""
    if driver == "sh1106":
        return Sh1106Ram(width, height, address=address)
    if driver in ("ssd1306", "ssd1305", "ssd1309", "ssd1315", "ssd1316"):
        offset = 32 if (driver == "ssd1306" and width == 64) else (4 if driver == "ssd1305" and height == 32 else 0)
        return Ssd1306Ram(width, height, column_offset=offset, address=address)
    raise WireError(f"no I2C decoder for display driver {driver!r}; decoders: ssd1306 family, sh1106")


def decode_i2c(
    writes: Iterable[tuple[int, bytes | Sequence[int]]],
    driver: str = "ssd1306",
    width: int = 128,
    height: int = 64,
    *,
    address: int = 0x3C,
) -> Image.Image:
    """The image a display shows after `writes` (address, bytes with the control byte first), as
    an I2C sniffer or logic analyser decodes them."""
    ram = ram_for(driver, width, height, address=address)
    for addr, payload in writes:
        ram.write(addr, payload)
    return ram.image()
