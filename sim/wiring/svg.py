"""The wiring diagram as SVG, drawn from the board description (stdlib only).

The Pi's 40-pin header stands in the middle, odd pins on the left, even pins on the right. A part
sits on the side of its pins with straight wires; a wire whose pin is on the other side becomes a
pair of labelled flags. All ground symbols are the one common ground.

>>> svg = wiring_svg(load_board())  # doctest: +SKIP
"""

from __future__ import annotations

import xml.etree.ElementTree as ET

from firmware.hardware.config import BoardConfig
from sim.wiring.docs import (
    HEADER,
    LEFT,
    RIGHT,
    Wire,
    amount,
    button_title,
    connections,
    pin_label,
    row,
    side,
    supply,
)

TOP, PITCH = 120, 26  # y of header row 0, distance between rows
CENTRE = 675  # x midway between the header's two columns; the right side mirrors the left
WIDTH, HEIGHT = CENTRE + 745, 760
STYLE = """
text { font-family: 'DejaVu Sans', Arial, sans-serif; font-size: 11px; fill: #222; }
.title { font-size: 18px; font-weight: bold; }
.small { font-size: 9px; }
.pinno { font-size: 8px; text-anchor: middle; }
.unused { fill: #aaa; }
.part { font-weight: bold; }
.wire { stroke: #1f5fa8; stroke-width: 2; fill: none; }
.power { stroke: #c0392b; stroke-width: 2.5; fill: none; }
.data { stroke: #1e8449; stroke-width: 2.5; fill: none; }
.gnd { stroke: #222; stroke-width: 2; fill: none; }
.box { stroke: #333; stroke-width: 1.5; fill: #f6f6f2; }
.board { stroke: #2e6b30; stroke-width: 2; fill: #e9f3e6; }
.dot { fill: #222; }
"""
PIN_FILL = {"3V3": "#f5b041", "5V": "#e74c3c", "GND": "#222222"}
GPIO_FILL = "#58d68d"


def y_of(row_index: float) -> float:
    return TOP + row_index * PITCH


def _n(value: float) -> str:
    return f"{value:g}"


class _Drawing:
    """An SVG document being built; coordinates are given as if on the left side, `on` mirrors them."""

    def __init__(self) -> None:
        self.root = ET.Element(
            "svg", xmlns="http://www.w3.org/2000/svg", width=str(WIDTH), height=str(HEIGHT),
            viewBox=f"0 0 {WIDTH} {HEIGHT}",
        )  # fmt: skip
        ET.SubElement(self.root, "style").text = STYLE
        ET.SubElement(self.root, "rect", x="0", y="0", width=str(WIDTH), height=str(HEIGHT), fill="white")

    @staticmethod
    def x(value: float, on: int = LEFT) -> float:
        return value if on == LEFT else 2 * CENTRE - value

    def line(self, points: list[tuple[float, float]], cls: str, on: int = LEFT) -> None:
        text = " ".join(f"{_n(self.x(px, on))},{_n(py)}" for px, py in points)
        ET.SubElement(self.root, "polyline", {"points": text, "class": cls})

    def text(self, x: float, y: float, text: str, anchor: str = "start", cls: str = "", on: int = LEFT) -> None:
        if on == RIGHT:
            anchor = {"start": "end", "end": "start"}.get(anchor, anchor)
        attrs = {"x": _n(self.x(x, on)), "y": _n(y), "text-anchor": anchor}
        if cls:
            attrs["class"] = cls
        ET.SubElement(self.root, "text", attrs).text = text

    def rect(self, x1: float, y1: float, x2: float, y2: float, cls: str = "box", on: int = LEFT) -> None:
        left, right = sorted((self.x(x1, on), self.x(x2, on)))
        ET.SubElement(
            self.root, "rect",
            {"x": _n(left), "y": _n(y1), "width": _n(right - left), "height": _n(y2 - y1), "rx": "4", "class": cls},
        )  # fmt: skip

    def circle(self, x: float, y: float, r: float, fill: str, on: int = LEFT, ident: str | None = None) -> None:
        attrs = {"id": ident} if ident else {}
        ET.SubElement(
            self.root, "circle",
            {"cx": _n(self.x(x, on)), "cy": _n(y), "r": _n(r), "fill": fill, "stroke": "#333", "stroke-width": "1", **attrs},
        )  # fmt: skip

    def dot(self, x: float, y: float, on: int = LEFT) -> None:
        ET.SubElement(self.root, "circle", {"cx": _n(self.x(x, on)), "cy": _n(y), "r": "3.5", "class": "dot"})

    def ground(self, x: float, y: float, on: int = LEFT) -> None:
        """⏚ hanging below (x, y)."""
        self.line([(x, y), (x, y + 10)], "gnd", on)
        for i, half in enumerate((9, 6, 3)):
            self.line([(x - half, y + 10 + 3 * i), (x + half, y + 10 + 3 * i)], "gnd", on)

    def switch(self, near: float, far: float, y: float, on: int = LEFT) -> None:
        """A normally-open push button between contacts at x = near and x = far."""
        middle = (near + far) / 2
        self.line([(near, y - 7), (far, y - 7)], "gnd", on)
        self.line([(middle, y - 7), (middle, y - 13)], "gnd", on)
        self.line([(middle - 4, y - 13), (middle + 4, y - 13)], "gnd", on)
        for contact in (near, far):
            self.circle(contact, y, 2.5, "white", on=on)

    def flag(self, x: float, y: float, text: str, on: int = LEFT) -> None:
        """A net label at the end of a wire that goes on elsewhere: the same text names both ends."""
        self.text(x, y + 4, text, anchor="end", cls="small part", on=on)

    def svg(self) -> str:
        ET.indent(self.root, space=" ")
        return ET.tostring(self.root, encoding="unicode") + "\n"


def wiring_svg(board: BoardConfig) -> str:
    """The wiring diagram of `board` as an SVG document."""
    drawing = _Drawing()
    wires = connections(board)
    used = {wire.header: wire for wire in wires}
    drawing.text(20, 36, f"xtraboard wiring — {board.name}", cls="title")
    drawing.text(
        20,
        56,
        f"Generated by `xtraboard wiring` from {board.path.name}: edit that file, not this drawing.",
        cls="small",
    )
    _header(drawing, used)
    _display(drawing, [w for w in wires if w.part == "display"], board)
    _leds(drawing, [w for w in wires if w.part == "leds"], board)
    _buttons(drawing, wires)
    for wire in (w for w in wires if w.part == "buzzer"):  # the optional piezo: a flag at its pins
        _far_flag(drawing, wire, "BUZZER +" if wire.terminal == "+" else "BUZZER −")
    _notes(drawing, board)
    return drawing.svg()


def _header(drawing: _Drawing, used: dict[int, Wire]) -> None:
    top, bottom = y_of(-0.8), y_of(19.8)
    drawing.rect(CENTRE - 35, top, CENTRE + 35, bottom, cls="board")
    drawing.text(CENTRE, top - 8, "Raspberry Pi 40-pin header", anchor="middle", cls="part")
    drawing.text(CENTRE, bottom + 14, "(pin 1 top left, seen from above)", anchor="middle", cls="small")
    for pin in range(1, 41):
        on, y = side(pin), y_of(row(pin))
        name = HEADER[pin]
        fill = PIN_FILL.get(name, GPIO_FILL) if pin in used else "white"
        drawing.circle(CENTRE - 15, y, 9, fill, on=on, ident=f"pin{pin}")
        color = "white" if pin in used and name == "GND" else "#222"
        ET.SubElement(
            drawing.root,
            "text",
            {"x": _n(drawing.x(CENTRE - 15, on)), "y": _n(y + 3), "style": f"fill: {color}", "class": "pinno"},
        ).text = str(pin)
        drawing.text(
            CENTRE - 40, y - 4, pin_label(pin), anchor="end", cls="small" if pin in used else "small unused", on=on
        )


def _pin_x(on: int) -> float:
    """Where wires leave the header on side `on` (absolute x)."""
    return _Drawing.x(CENTRE - 24, on)


def _terminal_wire(drawing: _Drawing, wire: Wire, end_x: float, cls: str) -> None:
    """A straight wire from a header pin out to x = end_x on the pin's own side."""
    on, y = side(wire.header), y_of(row(wire.header))
    drawing.line([(CENTRE - 24, y), (end_x, y)], cls, on)


def _far_flag(drawing: _Drawing, wire: Wire, text: str) -> None:
    """The header end of a wire whose part sits on the other side."""
    on, y = side(wire.header), y_of(row(wire.header))
    drawing.line([(CENTRE - 24, y), (CENTRE - 150, y)], "wire", on)
    drawing.flag(CENTRE - 155, y, text, on)


def _class_of(terminal: str) -> str:
    return {"GND": "gnd", "VCC": "power", "5V": "power", "3V3": "power", "DATA": "data"}.get(terminal, "wire")


def _display(drawing: _Drawing, wires: list[Wire], board: BoardConfig) -> None:
    """The OLED as a box on the left; terminals on the right-hand pins become flags."""
    display = board.display
    rows = [row(w.header) for w in wires]
    box_left, box_right = CENTRE - 465, CENTRE - 295
    top, bottom = y_of(min(rows) - 0.7), y_of(max(rows) + 0.7)
    drawing.rect(box_left, top, box_right, bottom)
    title = [
        "OLED",
        f"{display.driver.upper()} {display.width}×{display.height}" + (", 16 greys" if display.mode == "L" else ""),
        f"I2C bus {display.port}, 0x{display.address:02X}"
        if display.interface == "i2c"
        else f"SPI{display.port} CE{display.device}",
    ]
    for i, line in enumerate(title):
        drawing.text(box_left + 8, top + 16 + 14 * i, line, cls="part" if i == 0 else "small")
    for wire in wires:
        y = y_of(row(wire.header))
        if side(wire.header) == LEFT:
            _terminal_wire(drawing, wire, box_right, _class_of(wire.terminal))
            drawing.text(box_right - 6, y + 4, wire.terminal, anchor="end", cls="small")
        else:
            target = f"pin {wire.header} ({pin_label(wire.header)})"
            drawing.line([(box_left, y), (box_left - 20, y)], "wire")
            drawing.flag(box_left - 24, y, f"{wire.terminal} → {target}")
            _far_flag(drawing, wire, f"OLED {wire.terminal}")


def _leds(drawing: _Drawing, wires: list[Wire], board: BoardConfig) -> None:
    """PSU, 1000 µF, 74AHCT125, 330 Ω and the chain, on the right (absolute coordinates)."""
    by_terminal = {w.terminal: w for w in wires}
    y_power, y_in = y_of(row(by_terminal["5V"].header)), y_of(5)
    psu_x, cap_x, strip_power_x, right_edge = CENTRE + 595, CENTRE + 465, CENTRE + 535, CENTRE + 725
    # + rail from the header's 5 V pin to the supply
    drawing.line([(_pin_x(RIGHT), y_power), (psu_x, y_power)], "power")
    drawing.rect(psu_x, y_power - 18, right_edge, y_power + 62)
    drawing.text(psu_x + 8, y_power + 2, "5 V supply", cls="part")
    drawing.text(psu_x + 8, y_power + 18, f"≥ {supply(board).recommended_amps} A", cls="small")
    drawing.text(psu_x + 8, y_power + 31, "+ top, − bottom", cls="small")
    y_minus = y_power + 2 * PITCH
    drawing.line([(psu_x, y_minus), (psu_x - 15, y_minus)], "gnd")
    drawing.ground(psu_x - 15, y_minus)
    # the Pi's GND pin joins the common ground
    ground = by_terminal["GND"]
    _terminal_wire(drawing, ground, CENTRE - 125, "gnd")
    drawing.ground(CENTRE - 125, y_of(row(ground.header)), side(ground.header))
    # 1000 µF across the supply at the start of the chain
    plate = y_power + 30
    drawing.line([(cap_x, y_power), (cap_x, plate)], "power")
    drawing.line([(cap_x - 10, plate), (cap_x + 10, plate)], "gnd")
    drawing.line([(cap_x - 10, plate + 6), (cap_x + 10, plate + 6)], "gnd")
    drawing.line([(cap_x, plate + 6), (cap_x, plate + 14)], "gnd")
    drawing.ground(cap_x, plate + 14)
    drawing.text(cap_x - 14, plate + 6, "1000 µF", anchor="end", cls="small")
    drawing.dot(cap_x, y_power)
    # level shifter
    shift_left, shift_right, shift_top, shift_bottom = CENTRE + 305, CENTRE + 415, y_of(3.9), y_of(7.6)
    shift_vcc, shift_gnd = CENTRE + 385, CENTRE + 330
    drawing.rect(shift_left, shift_top, shift_right, shift_bottom)
    drawing.text(shift_left + 8, y_in + 22, "74AHCT125", cls="part")
    drawing.text(shift_left + 8, y_in + 36, "3.3 V → 5 V", cls="small")
    drawing.text(shift_left + 5, y_in + 4, "1A", cls="small")
    drawing.text(shift_right - 5, y_in + 4, "1Y", anchor="end", cls="small")
    drawing.line([(shift_vcc, y_power), (shift_vcc, shift_top)], "power")
    drawing.dot(shift_vcc, y_power)
    drawing.text(shift_vcc + 3, shift_top + 12, "VCC", cls="small")
    for x, label in ((shift_gnd, "GND"), (shift_vcc, "1OE")):
        drawing.text(x + 3, shift_bottom - 5, label, cls="small")
        drawing.ground(x, shift_bottom)
    # data: header pin → 1A → 1Y → 330 Ω → DIN
    data = by_terminal["DATA"]
    if side(data.header) == RIGHT:
        y_data, lane = y_of(row(data.header)), CENTRE + 270
        drawing.line([(_pin_x(RIGHT), y_data), (lane, y_data), (lane, y_in), (shift_left, y_in)], "data")
    else:
        drawing.line([(shift_left, y_in), (shift_left - 20, y_in)], "data")
        drawing.text(shift_left - 24, y_in + 4, f"LED DATA ← pin {data.header}", anchor="end", cls="small part")
        _far_flag(drawing, data, "LED DATA → 74AHCT125 1A")
    strip_left, resistor = CENTRE + 485, CENTRE + 450
    drawing.line([(shift_right, y_in), (resistor - 20, y_in)], "data")
    drawing.rect(resistor - 20, y_in - 6, resistor + 20, y_in + 6, cls="box")
    drawing.text(resistor, y_in - 10, "330 Ω", anchor="middle", cls="small")
    drawing.line([(resistor + 20, y_in), (strip_left, y_in)], "data")
    # the chain
    leds = board.leds
    strip_top, strip_bottom = y_of(3.9), y_of(9.2)
    drawing.rect(strip_left, strip_top, right_edge, strip_bottom)
    drawing.text(strip_left + 5, y_in + 4, "DIN", cls="small")
    drawing.line([(strip_power_x, y_power), (strip_power_x, strip_top)], "power")
    drawing.dot(strip_power_x, y_power)
    drawing.text(strip_power_x + 4, strip_top + 12, "5V", cls="small")
    drawing.text(strip_power_x + 4, strip_bottom - 5, "GND", cls="small")
    drawing.ground(strip_power_x, strip_bottom)
    for i, label in enumerate(("0", "1", "2", "…", str(leds.count - 1))):
        x = strip_left + 40 + 34 * i
        drawing.rect(x - 11, y_in + 16, x + 11, y_in + 38, cls="box")
        drawing.text(x, y_in + 31, label, anchor="middle", cls="small")
        if i:
            drawing.line([(x - 23, y_in + 27), (x - 11, y_in + 27)], "data")
    drawing.text(strip_left + 8, y_in + 58, f"WS2812B chain: {leds.count} LEDs, {leds.order}", cls="part")
    drawing.text(strip_left + 8, y_in + 72, f"driver {leds.driver} on GPIO{leds.pin}", cls="small")


def _buttons(drawing: _Drawing, wires: list[Wire]) -> None:
    """Each switch on the side of its pin, its far contact on that side's return bus."""
    near, far, bus = CENTRE - 180, CENTRE - 210, CENTRE - 240
    returns = {w.part: w for w in wires if w.part.startswith("buttons:")}
    for on in (LEFT, RIGHT):
        switches = [w for w in wires if w.part.startswith("button:") and side(w.header) == on]
        if not switches:
            continue
        back = returns[f"buttons:{on}"]
        rows = [row(w.header) for w in switches]
        for wire in switches:
            y = y_of(row(wire.header))
            _terminal_wire(drawing, wire, near, "wire")
            drawing.switch(near, far, y, on)
            drawing.line([(far, y), (bus, y)], "gnd", on)
            drawing.dot(bus, y, on)
            drawing.text(
                near + 10, y - 4, button_title(wire.part.split(":")[1]).split()[0].upper(), cls="small part", on=on
            )
        if side(back.header) == on:
            rows.append(row(back.header))
            _terminal_wire(drawing, back, bus, _class_of(back.terminal))
            drawing.dot(bus, y_of(row(back.header)), on)
        else:
            rows.append(max(rows) + 1)
            drawing.flag(bus + 4, y_of(max(rows)), f"{back.terminal} → pin {back.header}", on)
            if not any(w.header == back.header and w is not back for w in wires):
                _far_flag(drawing, back, f"{back.terminal} of the buttons")
        drawing.line([(bus, y_of(min(rows))), (bus, y_of(max(rows)))], _class_of(back.terminal), on)


def _notes(drawing: _Drawing, board: BoardConfig) -> None:
    s = supply(board)
    lines = [
        "All ground symbols are one common ground: the supply's −, the Pi's GND pins, the 74AHCT125, the LED chain, "
        "the buttons and the OLED.",
        f"LEDs: {s.led_count} × {amount(s.ma_per_led)} mA = {amount(s.worst_amps)} A worst case; the firmware keeps them under "
        f"{amount(s.budget_amps)} A. Supply: 5 V, at least {s.recommended_amps} A. Feed 5 V to the chain directly, not through the Pi.",
        "Keep the 330 Ω resistor and the 1000 µF capacitor close to LED 0; tie the 74AHCT125's unused OE pins (4, 10, 13) to 5 V.",
    ]
    drawing.ground(28, HEIGHT - 74)
    for i, line in enumerate(lines):
        drawing.text(46, HEIGHT - 56 + 16 * i, line, cls="small")
