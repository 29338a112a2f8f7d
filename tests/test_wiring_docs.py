"""WIRING.md, BOM.md and wiring.svg say what board.toml says: regenerated and compared, and read back."""

from __future__ import annotations

import re
import shutil
from dataclasses import replace
import xml.etree.ElementTree as ET
from pathlib import Path

import pytest

from firmware.cli import main
from firmware.errors import ConfigError
from firmware.hardware.config import BOARD_ENV, BUTTON_NAMES, default_board_path, load_board
from sim.wiring.docs import connections, header_pin, replace_sections, update_docs
from sim.wiring.svg import wiring_svg

HARDWARE = default_board_path().parent
SVG = "{http://www.w3.org/2000/svg}"
# The Raspberry Pi 40-pin header, written out independently of the code under test.
GPIO_HEADER = {
    2: 3, 3: 5, 4: 7, 14: 8, 15: 10, 17: 11, 18: 12, 27: 13, 22: 15, 23: 16, 24: 18, 10: 19, 9: 21,
    25: 22, 11: 23, 8: 24, 7: 26, 0: 27, 1: 28, 5: 29, 6: 31, 12: 32, 13: 33, 19: 35, 16: 36,
    26: 37, 20: 38, 21: 40,
}  # fmt: skip
POWER_HEADER = {1: "3V3", 17: "3V3", 2: "5V", 4: "5V"} | {p: "GND" for p in (6, 9, 14, 20, 25, 30, 34, 39)}
REGENERATE = "out of date: run `xtraboard wiring --docs` and commit hardware/"


@pytest.fixture(autouse=True)
def default_board(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv(BOARD_ENV, raising=False)


def markdown_table(text: str, section: str) -> list[list[str]]:
    """Cells of the table between a generated section's markers, header and rule removed."""
    match = re.search(rf"<!-- generated: {section} [^>]*-->\n(.*?)<!-- end generated: {section} -->", text, re.S)
    assert match, f"no generated section {section!r}"
    rows = [line.strip().strip("|").split("|") for line in match.group(1).splitlines() if line.startswith("|")]
    return [[cell.strip() for cell in row] for row in rows[2:]]


def test_regenerating_changes_nothing(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    for name in ("WIRING.md", "BOM.md"):
        shutil.copy(HARDWARE / name, tmp_path / name)
    assert main(["wiring", "--out", str(tmp_path / "wiring.svg"), "--docs"]) == 0
    for name in ("wiring.svg", "WIRING.md", "BOM.md"):
        committed = (HARDWARE / name).read_text(encoding="utf-8")
        assert (tmp_path / name).read_text(encoding="utf-8") == committed, f"hardware/{name} {REGENERATE}"
    assert "wrote" in capsys.readouterr().out


def test_header_map_matches_the_pi() -> None:
    assert {bcm: header_pin(bcm) for bcm in GPIO_HEADER} == GPIO_HEADER


def test_wiring_pin_table_names_the_pins_board_toml_uses() -> None:
    board = load_board()
    rows = markdown_table((HARDWARE / "WIRING.md").read_text(encoding="utf-8"), "pins")
    table = {int(pin): (signal, text) for pin, signal, text in rows}
    expected = {pin: name.upper() for name, pin in board.buttons.pins.items()}
    expected[board.buttons.tilt] = "tilt switch"
    expected[board.leds.pin] = "LED data"
    expected |= {2: "OLED SDA", 3: "OLED SCL"}
    expected[board.buzzer.pin] = "piezo buzzer +"
    used_gpios = {int(signal.split()[0][4:]) for signal, _ in table.values() if signal.startswith("GPIO")}
    assert used_gpios == set(expected)
    for bcm, words in expected.items():
        signal, text = table[GPIO_HEADER[bcm]]
        assert signal.split()[0] == f"GPIO{bcm}" and words in text
    for pin, (signal, _) in table.items():
        if not signal.startswith("GPIO"):
            assert POWER_HEADER[pin] == signal
    assert {"3V3", "5V", "GND"} <= {signal for signal, _ in table.values()}


def test_supply_figures_follow_the_led_count() -> None:
    board = load_board()
    text = (HARDWARE / "WIRING.md").read_text(encoding="utf-8")
    worst = board.leds.count * 3 * board.leds.ma_per_channel / 1000
    assert f"{board.leds.count} × 60 mA = **{worst:.2f} A**" in text
    assert f"**{board.leds.budget_amps:g} A**" in text


def test_bom_quantities_follow_board_toml() -> None:
    board = load_board()
    rows = {part: qty for qty, part, _ in markdown_table((HARDWARE / "BOM.md").read_text(encoding="utf-8"), "parts")}
    quantity = {
        key: next(q for part, q in rows.items() if key in part)
        for key in ("WS2812B", "push button", "OLED", "74AHCT125")
    }
    assert quantity == {
        "WS2812B": str(board.leds.count),
        "push button": str(len(BUTTON_NAMES)),
        "OLED": "1",
        "74AHCT125": "1",
    }
    assert any("tilt" in part for part in rows) == (board.buttons.tilt is not None)
    assert any("piezo buzzer" in part for part in rows) == (board.buzzer is not None)


def test_svg_marks_exactly_the_wired_gpios() -> None:
    board = load_board()
    root = ET.fromstring((HARDWARE / "wiring.svg").read_text(encoding="utf-8"))
    filled = {
        int(circle.get("id", "")[3:])
        for circle in root.iter(f"{SVG}circle")
        if circle.get("id", "").startswith("pin") and circle.get("fill") != "white"
    }
    gpios = {*board.buttons.pins.values(), board.buttons.tilt, board.leds.pin, board.buzzer.pin, 2, 3}
    assert {pin for pin in filled if pin not in POWER_HEADER} == {GPIO_HEADER[bcm] for bcm in gpios}
    texts = {"".join(t.itertext()) for t in root.iter(f"{SVG}text")}
    assert {name.upper() for name in BUTTON_NAMES} | {"TILT", "74AHCT125", "330 Ω", "1000 µF", "BUZZER +"} <= texts
    assert f"WS2812B chain: {board.leds.count} LEDs, {board.leds.order}" in texts


def test_an_alternative_build_draws_every_wire_and_shares_nothing_by_accident(tmp_path: Path) -> None:
    text = default_board_path().read_text(encoding="utf-8")
    for old, new in [
        ('interface = "i2c" ', 'interface = "spi" '), ("port = 1\n", "port = 0\n"), ("address = 0x3C\n", ""),
        ("driver = \"spi\"", "driver = \"pwm\""), ("pin = 10\n", "pin = 12\n"), ("pull_up = true ", "pull_up = false "), ("tilt = 16 ", "tilt = 4 "),
        ("right = 26\n", "right = 23\n"),
    ]:  # fmt: skip
        text = text.replace(old, new)
    path = tmp_path / "alt.toml"
    path.write_text(text, encoding="utf-8")
    board = load_board(path)
    wires = connections(board)
    signals = [w.header for w in wires if not w.part.startswith("buttons:") and w.terminal not in ("GND", "VCC", "5V")]
    assert len(signals) == len(set(signals))
    assert {19, 23, 24, 18, 22} <= set(signals)  # SPI MOSI, SCLK, CE0, DC (GPIO24), RES (GPIO25)
    returns = [w for w in wires if w.part.startswith("buttons:")]
    assert {w.terminal for w in returns} == {"3V3"} and all(w.header in (1, 17) for w in returns)
    root = ET.fromstring(wiring_svg(board))
    texts = {"".join(t.itertext()) for t in root.iter(f"{SVG}text")}
    assert "OLED CS" in texts and "OLED DC" in texts and "driver pwm on GPIO12" in texts


def test_an_spi_display_without_its_dc_line_is_named_not_a_crash() -> None:
    """The board description's reader always gives an SPI display its DC and RES lines; a board
    built in code without one gets a ConfigError naming the key, not a failed header look-up."""
    board = load_board(HARDWARE / "boards" / "ssd1322.toml")
    assert any(w.terminal == "DC" for w in connections(board))
    with pytest.raises(ConfigError, match=r"^display\.dc_pin: an SPI display needs a GPIO"):
        connections(replace(board, display=replace(board.display, dc_pin=None)))


def test_docs_without_markers_fail_naming_the_file(tmp_path: Path) -> None:
    (tmp_path / "WIRING.md").write_text("# Wiring\n", encoding="utf-8")
    (tmp_path / "BOM.md").write_text("# BOM\n", encoding="utf-8")
    with pytest.raises(ConfigError, match=r"WIRING\.md: the markers of section 'pins' are missing"):
        update_docs(load_board(), tmp_path)


def test_replace_sections_keeps_the_hand_written_text() -> None:
    text = "intro\n<!-- generated: pins (xtraboard wiring --docs) -->\nold\n<!-- end generated: pins -->\noutro\n"
    new = replace_sections(text, {"pins": "new"}, Path("WIRING.md"))
    assert (
        new == "intro\n<!-- generated: pins (xtraboard wiring --docs) -->\nnew\n<!-- end generated: pins -->\noutro\n"
    )


def test_wiring_command_reports_a_bad_board(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    bad = tmp_path / "board.toml"
    bad.write_text(
        default_board_path().read_text(encoding="utf-8").replace("count = 89", "count = 0"), encoding="utf-8"
    )
    assert main(["wiring", "--board", str(bad), "--out", str(tmp_path / "w.svg")]) == 2
    assert f"{bad}: leds.count: 0 is out of range" in capsys.readouterr().err
    assert not (tmp_path / "w.svg").exists()


@pytest.mark.parametrize("board_path", sorted((HARDWARE / "boards").glob("*.toml")), ids=lambda path: path.stem)
def test_every_display_profile_gets_its_wiring_and_parts(board_path: Path, tmp_path: Path) -> None:
    board = load_board(board_path)
    display = board.display
    wires = {w.terminal: w.header for w in connections(board) if w.part == "display"}
    if display.interface == "i2c":
        assert (wires["SDA"], wires["SCL"]) == (GPIO_HEADER[2], GPIO_HEADER[3])
    else:  # the profile's SPI1: MOSI GPIO20, SCLK GPIO21, CE0 GPIO18, DC, RST
        assert (wires["DIN"], wires["CLK"], wires["CS"]) == (GPIO_HEADER[20], GPIO_HEADER[21], GPIO_HEADER[18])
        assert (wires["DC"], wires["RES"]) == (GPIO_HEADER[display.dc_pin], GPIO_HEADER[display.reset_pin])
    for name in ("WIRING.md", "BOM.md"):
        shutil.copy(HARDWARE / name, tmp_path / name)
    assert main(["wiring", "--board", str(board_path), "--out", str(tmp_path / "wiring.svg"), "--docs"]) == 0
    parts = {row[1]: row[2] for row in markdown_table((tmp_path / "BOM.md").read_text(encoding="utf-8"), "parts")}
    oled = next(part for part in parts if part.startswith("OLED module"))
    assert oled.startswith(f"OLED module {display.driver.upper()} {display.width}×{display.height}")
    assert f"{display.size_mm[0]:g} × {display.size_mm[1]:g} mm" in oled
    root = ET.fromstring((tmp_path / "wiring.svg").read_text(encoding="utf-8"))
    texts = {"".join(t.itertext()) for t in root.iter(f"{SVG}text")}
    assert f"{display.driver.upper()} {display.width}×{display.height}" in "\n".join(texts)
