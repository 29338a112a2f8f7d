"""Which header pin goes where, derived from the board description; and the generated doc sections.

`connections(board)` is the one wiring plan: the SVG (`wiring_svg`), the pin table in
`hardware/WIRING.md` and the quantities in `hardware/BOM.md` are all drawn from it, so they
cannot disagree with `board.toml`. `xtraboard wiring --docs` rewrites the text between

    <!-- generated: NAME (xtraboard wiring --docs) -->
    <!-- end generated: NAME -->

and leaves the hand-written rest of each file alone.
"""

from __future__ import annotations

import math
import re
from dataclasses import dataclass
from pathlib import Path

from firmware.errors import ConfigError
from firmware.hardware.config import BUTTON_NAMES, BoardConfig

# The 40-pin header, index = physical pin (index 0 unused): odd pins are the inner row.
HEADER = (
    "", "3V3", "5V", "GPIO2", "5V", "GPIO3", "GND", "GPIO4", "GPIO14", "GND", "GPIO15",
    "GPIO17", "GPIO18", "GPIO27", "GND", "GPIO22", "GPIO23", "3V3", "GPIO24", "GPIO10", "GND",
    "GPIO9", "GPIO25", "GPIO11", "GPIO8", "GND", "GPIO7", "GPIO0", "GPIO1", "GPIO5", "GND",
    "GPIO6", "GPIO12", "GPIO13", "GND", "GPIO19", "GPIO16", "GPIO26", "GPIO20", "GND", "GPIO21",
)  # fmt: skip
ALTERNATE = {
    0: "ID_SD", 1: "ID_SC", 2: "SDA", 3: "SCL", 7: "CE1", 8: "CE0", 9: "MISO", 10: "MOSI",
    11: "SCLK", 12: "PWM0", 13: "PWM1", 14: "TXD", 15: "RXD", 18: "PWM0", 19: "PWM1",
}  # fmt: skip
PI_AMPS = 1.5  # what a Pi Zero 2 W / 3 / 4 with the OLED draws at most, for supply sizing
SUPPLY_SIZES = (2, 3, 4, 5, 6, 8, 10, 12, 15, 20, 25, 30, 40, 50, 60)  # common 5 V supplies, A
DOCS = {"WIRING.md": ("pins", "supply"), "BOM.md": ("parts",)}  # generated sections per file
LEFT, RIGHT = 0, 1  # header columns: odd pins, even pins


@dataclass(frozen=True)
class Wire:
    """One header pin and what it connects to.

    `part` groups wires for the drawing: "display", "leds", "button:NAME", "buttons:SIDE"
    (the shared return of the buttons on one side of the header).
    """

    header: int  # physical pin 1–40
    part: str
    terminal: str  # the part's terminal, as printed on the module
    text: str  # the other end, for the pin table


@dataclass(frozen=True)
class Supply:
    """5 V supply sizing for the LED chain and the Pi."""

    led_count: int
    ma_per_led: float  # every channel at full value
    worst_amps: float  # every LED at full white, nothing limiting
    budget_amps: float  # what the firmware lets the LEDs draw
    recommended_amps: int  # a common supply size covering the worst case and the Pi
    minimum_amps: int  # covering the firmware's budget and the Pi only


SPI_DATA_PINS = {0: (10, 11), 1: (20, 21)}  # SPI port → GPIO of MOSI, SCLK


def display_bus(board: BoardConfig) -> str:
    """How the display is connected, in a few words, e.g. "I2C bus 1, address 0x3C"."""
    display = board.display
    if display.interface == "i2c":
        return f"I2C bus {display.port}, address 0x{display.address:02X}"
    return f"SPI{display.port}, CS GPIO{display.cs_pin} (CE{display.device}), DC GPIO{display.dc_pin}, RST GPIO{display.reset_pin}"


def display_part(board: BoardConfig) -> str:
    """The display module as the parts list names it, e.g. "SSD1306 128×64, 0.96″ (21.7 × 10.9 mm)"."""
    display = board.display
    width_mm, height_mm = display.size_mm
    inches = math.hypot(width_mm, height_mm) / 25.4
    greys = ", 16 greys" if display.mode == "L" else ""
    return (
        f"{display.driver.upper()} {display.width}×{display.height}{greys}, {inches:.2f}″ "
        f"(active area {width_mm:g} × {height_mm:g} mm)"
    )


def header_pin(bcm: int) -> int:
    """Physical header pin of a BCM GPIO: `header_pin(18) == 12`."""
    return HEADER.index(f"GPIO{bcm}")


def pin_label(header: int) -> str:
    """`GPIO2 (SDA)`, `GND`, ..."""
    name = HEADER[header]
    bcm = int(name[4:]) if name.startswith("GPIO") else None
    return f"{name} ({ALTERNATE[bcm]})" if bcm in ALTERNATE else name


def side(header: int) -> int:
    return LEFT if header % 2 else RIGHT


def row(header: int) -> int:
    return (header - 1) // 2


def _spi_line(gpio: int | None, key: str) -> int:
    """The GPIO of an SPI display's line (the board description's reader always sets one)."""
    if gpio is None:
        raise ConfigError(f"{key}: an SPI display needs a GPIO for this line")
    return gpio


def connections(board: BoardConfig) -> list[Wire]:
    """Every header pin the board uses, display first, then the LED chain, then the buttons."""
    wires: list[Wire] = []

    def free(kind: str, rows: list[int], on: int) -> int:
        """The pin of `kind` nearest `rows`: unused before shared, on side `on` before the other."""
        used = {w.header for w in wires}
        middle = sum(rows) / len(rows)
        pins = [p for p in range(1, 41) if HEADER[p] == kind]
        return min(pins, key=lambda p: (p in used, side(p) != on, abs(row(p) - middle), p))

    display = board.display
    if display.interface == "i2c":
        signals = [("SDA", 2, "OLED SDA"), ("SCL", 3, "OLED SCL")]
    else:
        mosi, sclk = SPI_DATA_PINS[display.port]
        signals = [
            ("DIN", mosi, f"OLED DIN (SPI{display.port} MOSI)"),
            ("CLK", sclk, f"OLED CLK (SPI{display.port} SCLK)"),
            ("CS", _spi_line(display.cs_pin, "display.device"), f"OLED CS (SPI{display.port} CE{display.device})"),
        ]
        signals += [
            ("DC", _spi_line(display.dc_pin, "display.dc_pin"), "OLED DC"),
            ("RES", _spi_line(display.reset_pin, "display.reset_pin"), "OLED RES (reset)"),
        ]
    rows = [row(header_pin(signals[0][1])), row(header_pin(signals[1][1]))]
    wires.append(Wire(free("3V3", rows, LEFT), "display", "VCC", "OLED VCC (3.3 V)"))
    wires += [Wire(header_pin(bcm), "display", terminal, text) for terminal, bcm, text in signals]
    wires.append(Wire(free("GND", rows, LEFT), "display", "GND", "OLED GND"))

    data = header_pin(board.leds.pin)
    wires.append(
        Wire(data, "leds", "DATA", "LED data: 74AHCT125 1A (chip pin 2); its 1Y (pin 3) → 330 Ω → DIN of LED 0")
    )
    wires.append(
        Wire(free("5V", [0], RIGHT), "leds", "5V", "+5 V of the supply (also 74AHCT125 VCC and the LED chain's 5 V)")
    )
    wires.append(
        Wire(free("GND", [0], RIGHT), "leds", "GND", "− of the supply: the common ground (LED chain, 74AHCT125)")
    )

    buttons = button_pins(board)
    back_to = "GND" if board.buttons.pull_up else "3V3"
    for name, pin in buttons.items():
        wires.append(
            Wire(header_pin(pin), f"button:{name}", name.upper(), f"{button_title(name)}, other side to {back_to}")
        )
    returns: list[int] = []
    for on in (LEFT, RIGHT):
        names = [name for name, pin in buttons.items() if side(header_pin(pin)) == on]
        if not names:
            continue
        rows = [row(header_pin(buttons[name])) for name in names]
        pin = free(back_to, rows, on)
        if returns and (pin in {w.header for w in wires} or side(pin) != on):
            pin = returns[0]  # no free pin of its own on this side: share the other side's return
        returns.append(pin)
        listed = ", ".join(button_title(name) for name in names)
        wires.append(Wire(pin, f"buttons:{on}", back_to, f"{back_to} return of: {listed}"))
    if board.buzzer is not None:  # last: the optional part takes no pin the others would have had
        signal = header_pin(board.buzzer.pin)
        wires.append(Wire(signal, "buzzer", "+", "piezo buzzer + (passive piezo; the tone is PWM)"))
        wires.append(Wire(free("GND", [row(signal)], side(signal)), "buzzer", "GND", "piezo buzzer −"))
    return wires


def button_pins(board: BoardConfig) -> dict[str, int]:
    """Every input switch and its GPIO, the tilt switch last if fitted."""
    pins = {name: board.buttons.pins[name] for name in BUTTON_NAMES}
    if board.buttons.tilt is not None:
        pins["tilt"] = board.buttons.tilt
    return pins


def button_title(name: str) -> str:
    return "tilt switch" if name == "tilt" else f"{name.upper()} button"


def supply(board: BoardConfig) -> Supply:
    leds = board.leds
    ma_per_led = leds.ma_per_channel * len(leds.order)
    worst = leds.count * ma_per_led / 1000
    return Supply(
        led_count=leds.count,
        ma_per_led=ma_per_led,
        worst_amps=worst,
        budget_amps=leds.budget_amps,
        recommended_amps=_supply_size(worst + PI_AMPS),
        minimum_amps=_supply_size(leds.budget_amps + PI_AMPS),
    )


def _supply_size(amps: float) -> int:
    return next((size for size in SUPPLY_SIZES if size >= amps), math.ceil(amps))


def led_groups(board: BoardConfig) -> dict[str, int]:
    """LEDs per kind of cell (track, ladder, grid, dice, seat), plus unassigned spares."""
    groups: dict[str, int] = {}
    for name, cell in board.leds.cells.items():
        kind = name.split(".")[0]
        groups[kind] = groups.get(kind, 0) + len(cell.leds)
    spare = board.leds.count - sum(groups.values())
    if spare:
        groups["spare"] = spare
    return groups


def amount(value: float) -> str:
    """Amps or milliamps without trailing zeros: `amount(5.340) == "5.34"`."""
    return f"{value:.2f}".rstrip("0").rstrip(".")


def pins_section(board: BoardConfig) -> str:
    lines = ["| Header pin | Pi signal | Connects to |", "| ---: | --- | --- |"]
    texts: dict[int, list[str]] = {}
    for wire in connections(board):
        texts.setdefault(wire.header, []).append(wire.text)
    for header in sorted(texts):
        lines.append(f"| {header} | {pin_label(header)} | {'; '.join(texts[header])} |")
    return "\n".join(lines)


def supply_section(board: BoardConfig) -> str:
    s = supply(board)
    return "\n".join([
        f"- LEDs on the chain: **{s.led_count}**, each up to {amount(s.ma_per_led)} mA at full white "
        f"({len(board.leds.order)} channels × {amount(board.leds.ma_per_channel)} mA).",
        f"- Worst case, every LED full white with nothing limiting it: {s.led_count} × "
        f"{amount(s.ma_per_led)} mA = **{amount(s.worst_amps)} A**.",
        f"- The firmware's budget (`leds.budget_amps`): **{amount(s.budget_amps)} A**; it dims any frame "
        f"that would draw more (brightness `{board.leds.brightness:g}` applies first).",
        f"- The Pi and the OLED: up to {amount(PI_AMPS)} A (a Pi 5 wants its own 5 A USB-C supply).",
        f"- **Recommended supply: 5 V, at least {s.recommended_amps} A** (worst case + Pi), so that "
        "a crash, a test pattern or a bad budget setting cannot overload it.",
        f"- Bare minimum, trusting the firmware's budget: 5 V, {s.minimum_amps} A "
        f"({amount(s.budget_amps)} A + {amount(PI_AMPS)} A).",
    ])  # fmt: skip


def parts_section(board: BoardConfig) -> str:
    s = supply(board)
    display = board.display
    groups = led_groups(board)
    split = ", ".join(f"{kind} {count}" for kind, count in groups.items())
    inputs = ", ".join(name.upper() for name in BUTTON_NAMES)
    rows = [
        ("1", "Raspberry Pi Zero 2 W, 3, 4 or 5 with a 40-pin header", "Raspberry Pi OS Bookworm"),
        ("1", "microSD card, 8 GB or more", ""),
        (str(board.leds.count), f"WS2812B LED (NeoPixel), colour order {board.leds.order}", f"one chain: {split}"),
        (str(len(BUTTON_NAMES)), "momentary push button, normally open (arcade style)", inputs),
    ]
    if board.buttons.tilt is not None:
        rows.append(("1", "tilt / shake switch (ball type)", f"optional, on GPIO{board.buttons.tilt}; rolls like ROLL"))
    if board.buzzer is not None:
        rows.append(
            ("1", "passive piezo buzzer, 3–5 V (e.g. 12 mm)", f"optional, on GPIO{board.buzzer.pin}: the sound cues")
        )
    rows += [
        ("1", f"OLED module {display_part(board)}, {display.interface.upper()}", display_bus(board)),
        ("1", "74AHCT125 quad buffer (3.3 V → 5 V level shifter)", "74HCT125 also works"),
        ("1", "ceramic capacitor 100 nF", "decoupling at the 74AHCT125"),
        ("1", "resistor 330 Ω (300–500 Ω), ¼ W", "in the LED data line, close to LED 0"),
        ("1", "electrolytic capacitor 1000 µF, 6.3 V or more", "across 5 V and GND at the start of the chain"),
        ("1", f"5 V power supply, at least {s.recommended_amps} A", f"worst case {amount(s.worst_amps)} A for the LEDs + {amount(PI_AMPS)} A for the Pi"),
        ("1", "screw terminal block or barrel jack for the supply", ""),
        ("—", "hook-up wire, Dupont jumpers, heat-shrink", "5 V and GND of the LEDs in 18 AWG (0.75 mm²) or thicker"),
    ]  # fmt: skip
    lines = ["| Qty | Part | Notes |", "| ---: | --- | --- |"]
    lines += [f"| {qty} | {part} | {notes} |" for qty, part, notes in rows]
    return "\n".join(lines)


def doc_sections(board: BoardConfig) -> dict[str, dict[str, str]]:
    """The generated text of every section of every doc file, by file name and section."""
    makers = {"pins": pins_section, "supply": supply_section, "parts": parts_section}
    return {file: {name: makers[name](board) for name in names} for file, names in DOCS.items()}


def replace_sections(text: str, sections: dict[str, str], source: Path) -> str:
    """`text` with each generated section's body replaced; ConfigError if its markers are missing."""
    for name, body in sections.items():
        pattern = re.compile(
            rf"(<!-- generated: {re.escape(name)} [^>]*-->\n)(.*?)(<!-- end generated: {re.escape(name)} -->)", re.S
        )
        found = pattern.search(text)
        if not found:
            raise ConfigError(
                f"{source}: the markers of section {name!r} are missing; expected "
                f"'<!-- generated: {name} (xtraboard wiring --docs) -->' ... '<!-- end generated: {name} -->'"
            )
        text = text[: found.start(2)] + body + "\n" + text[found.end(2) :]  # between the markers
    return text


def update_docs(board: BoardConfig, directory: Path) -> list[Path]:
    """Rewrite the generated sections of WIRING.md and BOM.md in `directory`; the files changed."""
    changed = []
    for file, sections in doc_sections(board).items():
        path = directory / file
        try:
            old = path.read_text(encoding="utf-8")
        except OSError as exc:
            raise ConfigError(
                f"{path}: cannot read ({exc.strerror or exc}); expected the doc with generated sections"
            ) from exc
        new = replace_sections(old, sections, path)
        if new != old:
            path.write_text(new, encoding="utf-8")
            changed.append(path)
    return changed
