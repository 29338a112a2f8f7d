"""hardware/board.toml loads with every cell; each kind of mistake names the file, the key and what was expected."""

from __future__ import annotations

import importlib
import os
import subprocess
import sys
from pathlib import Path

import pytest

from firmware.errors import ConfigError
from firmware.games.levelx.cells import GRID
from firmware.hardware.config import (
    BOARD_ENV,
    BUTTON_NAMES,
    DISPLAY_DRIVERS,
    cell_names,
    default_board_path,
    load_board,
)

ROOT = Path(__file__).resolve().parents[1]
DEFAULT_TEXT = default_board_path().read_text(encoding="utf-8")


def write_board(tmp_path: Path, text: str, name: str = "board.toml") -> Path:
    path = tmp_path / name
    path.write_text(text, encoding="utf-8")
    return path


def edited(*replacements: tuple[str, str]) -> str:
    """The default description with each `old` (which must occur exactly once) replaced by `new`."""
    text = DEFAULT_TEXT
    for old, new in replacements:
        if text.count(old) != 1:
            raise LookupError(f"{old!r} occurs {text.count(old)} times in board.toml; the test case needs updating")
        text = text.replace(old, new)
    return text


# --- the default build -------------------------------------------------------------------------


def test_default_board_maps_every_cell_to_its_own_leds() -> None:
    board = load_board()
    cells = board.leds.cells
    assert list(cells) == cell_names()
    indices = [i for cell in cells.values() for i in cell.leds]
    assert len(indices) == len(set(indices)) == board.leds.count
    assert set(indices) == set(range(board.leds.count))


def test_default_board_is_the_design_build() -> None:
    board = load_board()
    assert board.buttons.pins == {"roll": 5, "ok": 6, "back": 13, "left": 19, "right": 26}
    assert board.buttons.tilt not in {2, 3, 7, 8, 9, 10, 11, 18, *board.buttons.pins.values()}
    leds = board.leds
    assert (leds.driver, leds.pin, leds.order, leds.brightness) == ("spi", 10, "GRB", 0.5)
    assert leds.budget_amps > 0 and leds.ma_per_channel == 20.0
    display = board.display
    assert (display.driver, display.interface, display.port, display.address) == ("ssd1309", "i2c", 1, 0x3C)
    assert (display.width, display.height, display.rotate, display.mode) == (128, 64, 0, "1")
    assert display.size_mm == (55.01, 27.49)  # 2.42″: readable at arm's length (hardware/DISPLAYS.md)
    assert set(board.button_positions) == set(BUTTON_NAMES)
    assert board.path == default_board_path()


def test_layout_is_a_real_board() -> None:
    board = load_board()
    cells = board.leds.cells
    width, height = board.size_mm
    assert 350 <= width <= 450 and 250 <= height <= 350
    track = [(cells[f"track.{i}"].x, cells[f"track.{i}"].y) for i in range(22)]
    assert len(set(track)) == 22
    steps = [abs(a[0] - b[0]) + abs(a[1] - b[1]) for a, b in zip(track, track[1:])]
    assert max(steps) <= 40  # neighbouring spaces are neighbours on the board
    ladder = [cells[f"ladder.{r}"] for r in range(6)]
    assert len({rung.x for rung in ladder}) == 1
    assert [rung.y for rung in ladder] == sorted((rung.y for rung in ladder), reverse=True)  # rung 5 on top
    row_y = {row: {cells[f"grid.{row}.{f}"].y for f in range(n)} for row, n in dict(GRID.rows).items()}
    assert all(len(ys) == 1 for ys in row_y.values())
    assert len({ys.pop() for ys in row_y.values()}) == 6
    for row, n in dict(GRID.rows).items():
        xs = [cells[f"grid.{row}.{f}"].x for f in range(n)]
        assert xs == sorted(xs)  # the X field last
    for die in range(5):
        pip = {p: cells[f"dice.{die}.{p}"] for p in range(7)}
        assert pip[1].x - pip[0].x == pytest.approx(16) and pip[5].y - pip[0].y == pytest.approx(16)
        assert (pip[3].x, pip[3].y) == ((pip[2].x + pip[4].x) / 2, pip[2].y)
    for seat in range(6):
        cell = cells[f"seat.{seat}"]
        assert min(cell.x, cell.y, width - cell.x, height - cell.y) <= 20  # at the edge


def test_display_drivers_are_luma_devices() -> None:
    devices = importlib.import_module("luma.oled.device")
    assert [name for name in DISPLAY_DRIVERS if not hasattr(devices, name)] == []


# --- where the description comes from ----------------------------------------------------------


def test_environment_variable_names_the_file_when_no_path_is_given(tmp_path: Path, monkeypatch) -> None:
    path = write_board(tmp_path, edited(('name = "xtraboard default build"', 'name = "bench board"')))
    monkeypatch.setenv(BOARD_ENV, str(path))
    assert load_board().name == "bench board"
    assert load_board(default_board_path()).name == "xtraboard default build"  # an explicit path wins


def test_optional_keys_fall_back_to_the_dataclass_defaults(tmp_path: Path) -> None:
    text = edited(
        ("tilt = 16 ", "# tilt = 16 "),
        ("pull_up = true ", "# pull_up = true "),
        ("debounce_ms = 20\n", ""),
        ("hold_s = 1.0 ", "# hold_s = 1.0 "),
    )
    buttons = load_board(write_board(tmp_path, text)).buttons
    assert (buttons.tilt, buttons.pull_up, buttons.debounce_ms, buttons.hold_s) == (None, True, 20.0, 1.0)


def test_an_spi_display_gets_luma_default_control_pins(tmp_path: Path) -> None:
    text = edited(
        *PWM_LEDS, ('interface = "i2c" ', 'interface = "spi" '), ("port = 1\n", "port = 0\n"), ("address = 0x3C\n", "")
    )
    display = load_board(write_board(tmp_path, text)).display
    assert (display.interface, display.port, display.dc_pin, display.reset_pin) == ("spi", 0, 24, 25)


def test_an_spi1_display_leaves_spi0_to_the_leds(tmp_path: Path) -> None:
    board = load_board(write_board(tmp_path, edited(*SPI1_DISPLAY, LEFT_OFF_SPI1)))
    display = board.display
    assert (board.leds.driver, display.interface, display.port, display.device, display.cs_pin) == (
        "spi",
        "spi",
        1,
        0,
        18,
    )


PROFILES = {  # file → driver, pixels, mode, active area width in mm
    "ssd1306": ("ssd1306", (128, 64), "1", 21.74),
    "sh1106": ("sh1106", (128, 64), "1", 29.42),
    "ssd1309": ("ssd1309", (128, 64), "1", 55.01),
    "ssd1322": ("ssd1322", (256, 64), "L", 76.78),
    "ssd1327": ("ssd1327", (128, 128), "L", 26.86),
}


def test_every_display_profile_has_a_board_description() -> None:
    folder = default_board_path().parent / "boards"
    assert sorted(path.stem for path in folder.glob("*.toml")) == sorted(PROFILES)
    default = load_board()
    for name, (driver, size, mode, width_mm) in PROFILES.items():
        board = load_board(folder / f"{name}.toml")
        display = board.display
        assert (display.driver, (display.width, display.height), display.mode) == (driver, size, mode), name
        assert display.size_mm[0] == width_mm and display.size_mm[1] > 0
        assert board.leds == default.leds and board.size_mm == default.size_mm  # only the display differs
    assert load_board(folder / "ssd1309.toml").display == default.display  # the default build's panel


# --- every mistake names the file, the key and the expectation ---------------------------------

# The default chain uses SPI0 (driver "spi", GPIO10); an SPI display needs the LEDs on PWM.
PWM_LEDS = [('driver = "spi"', 'driver = "pwm"'), ("pin = 10\n", "pin = 18\n")]
SPI_DISPLAY = [
    *PWM_LEDS,
    ('interface = "i2c" ', 'interface = "spi" '),
    ("port = 1\n", "port = 0\n"),
    ("address = 0x3C\n", ""),
]
# An SPI display on SPI1 (the LED chain keeps SPI0): GPIO19 is SPI1's MISO, so LEFT moves.
SPI1_DISPLAY = [('interface = "i2c" ', 'interface = "spi" '), ("address = 0x3C\n", "")]
LEFT_OFF_SPI1 = ("left = 19\n", "left = 22\n")

BAD = {
    # unknown keys and typos
    "unknown table": ([("[cells]\n", "[extras]\n[cells]\n")], "extras", "unknown key"),
    "typo in a key": ([("brightness = 0.5", "brightnes = 0.5")], "leds.brightness", '"brightnes" a typo'),
    "unknown button": ([("right = 26\n", "right = 26\nstart = 4\n")], "buttons.pins.start", "unknown key"),
    "unknown cell key": ([('"seat.0" = { leds = [87]', '"seat.0" = { colour = "red", leds = [87]')], 'cells."seat.0".colour', "unknown key"),
    # missing keys
    "missing count": ([("count = 89 ", "")], "leds.count", "missing"),
    "missing table": ([("[display]\n", "[screen]\n")], "display", "missing"),
    "missing position": ([("position = [255, 160]", "")], "display.position", "missing"),
    "missing button": ([("ok = 6\n", "")], "buttons.pins.ok", "missing"),
    # wrong types
    "count as string": ([("count = 89 ", 'count = "89" ')], "leds.count", '"89" (a string)'),
    "pin as boolean": ([("pin = 10\n", "pin = true\n")], "leds.pin", "true (a boolean)"),
    "width as float": ([("width = 128", "width = 128.0")], "display.width", "128.0 (a number)"),
    "pull_up as string": ([("pull_up = true ", 'pull_up = "yes" ')], "buttons.pull_up", "true or false"),
    "empty name": ([('name = "xtraboard default build"', 'name = ""')], "board.name", "non-empty string"),
    "size not a pair": ([("size_mm = [400, 300]", "size_mm = [400]")], "board.size_mm", "[width, height]"),
    "cell not a table": ([('"seat.5" = { leds = [86], x = 12, y = 150 }', '"seat.5" = 86')], 'cells."seat.5"', "a table"),
    "leds not an array": ([('"seat.5" = { leds = [86]', '"seat.5" = { leds = 86')], 'cells."seat.5".leds', "array of LED indices"),
    # out of range
    "brightness above 1": ([("brightness = 0.5", "brightness = 1.5")], "leds.brightness", "from 0 to 1"),
    "brightness below 0": ([("brightness = 0.5", "brightness = -0.1")], "leds.brightness", "from 0 to 1"),
    "budget zero": ([("budget_amps = 2.0", "budget_amps = 0")], "leds.budget_amps", "above 0"),
    "channel current zero": ([("ma_per_channel = 20.0", "ma_per_channel = 0.0")], "leds.ma_per_channel", "above 0"),
    "pin above 27": ([("roll = 5\n", "roll = 28\n")], "buttons.pins.roll", "from 0 to 27"),
    "address too high": ([("address = 0x3C", "address = 0x78")], "display.address", "0x03 to 0x77"),
    "address too low": ([("address = 0x3C", "address = 0x02")], "display.address", "0x03 to 0x77"),
    "rotate 4": ([("rotate = 0 ", "rotate = 4 ")], "display.rotate", "0–3"),
    "count zero": ([("count = 89 ", "count = 0 ")], "leds.count", "from 1"),
    "hold zero": ([("hold_s = 1.0 ", "hold_s = 0 ")], "buttons.hold_s", "from 0.1"),
    "cell off the board": ([('"seat.2" = { leds = [83], x = 388', '"seat.2" = { leds = [83], x = 401')], 'cells."seat.2".x', "from 0 to 400"),
    "button off the board": ([("roll = [370, 240]", "roll = [370, 301]")], "buttons.positions.roll", "inside the board"),
    # choices
    "unknown led driver": ([('driver = "spi"', 'driver = "dma"')], "leds.driver", '"pwm", "spi"'),
    "unknown colour order": ([('order = "GRB"', 'order = "GRX"')], "leds.order", '"GRB"'),
    "unknown display": ([('driver = "ssd1309"', 'driver = "ssd9999"')], "display.driver", '"sh1106"'),
    "unknown interface": ([('interface = "i2c" ', 'interface = "usb" ')], "display.interface", '"i2c", "spi"'),
    "i2c bus 0": ([("port = 1\n", "port = 0\n")], "display.port", "GPIO2 SDA"),
    # cells
    "missing cell": ([('"seat.5" = { leds = [86], x = 12, y = 150 }\n', "")], 'cells."seat.5"', "every cell"),
    "unknown cell": ([("[cells]\n", '[cells]\n"grid.11.0" = { leds = [90], x = 1, y = 1 }\n')], 'cells."grid.11.0"', "grid.ROW.FIELD"),
    "led beyond the chain": ([("count = 89 ", "count = 88 ")], 'cells."seat.1".leds', "from 0 to 87"),
    "led used twice": ([('"seat.1" = { leds = [88]', '"seat.1" = { leds = [87]')], 'cells."seat.1".leds', "already used by cell seat.0"),
    "no leds": ([('"seat.1" = { leds = [88]', '"seat.1" = { leds = []')], 'cells."seat.1".leds', "non-empty array"),
    # pins
    "two buttons on one pin": ([("ok = 6\n", "ok = 5\n")], "buttons.pins.ok", "already used by buttons.pins.roll"),
    "button on the led pin": ([("ok = 6\n", "ok = 10\n")], "buttons.pins.ok", "LED data line"),
    "button on i2c": ([("ok = 6\n", "ok = 3\n")], "buttons.pins.ok", "I2C"),
    "button on spi": ([("ok = 6\n", "ok = 9\n")], "buttons.pins.ok", "SPI0"),
    "tilt on a button": ([("tilt = 16 ", "tilt = 26 ")], "buttons.tilt", "already used by buttons.pins.right"),
    "pwm off its pins": ([('driver = "spi"', 'driver = "pwm"'), ("pin = 10\n", "pin = 13\n")], "leds.pin", "GPIO18, GPIO12 or GPIO21"),
    "spi off its pin": ([("pin = 10\n", "pin = 18\n")], "leds.pin", "expected GPIO10"),
    "spi led and spi display": ([('interface = "i2c" ', 'interface = "spi" '), ("port = 1\n", "port = 0\n"), ("address = 0x3C\n", "")], "display.port", 'expected 1 (SPI1) or interface "i2c"'),
    "spi port 2": ([*SPI1_DISPLAY, ("port = 1\n", "port = 2\n")], "display.port", "0 (SPI0: GPIO10 MOSI"),
    "spi0 device 2": ([*SPI_DISPLAY, ("rotate = 0 ", "device = 2\nrotate = 0 ")], "display.device", "0 (CE0, GPIO8) or 1 (CE1, GPIO7)"),
    "device on i2c": ([("rotate = 0 ", "device = 0\nrotate = 0 ")], "display.device", "only an SPI display"),
    "button on spi1": ([*SPI1_DISPLAY], "buttons.pins.left", "SPI1"),
    "spi1 on the led pin": ([*PWM_LEDS, *SPI1_DISPLAY, LEFT_OFF_SPI1], "display.port", "GPIO18, the LED data line"),
    "dc pin on spi1 sclk": ([*SPI1_DISPLAY, LEFT_OFF_SPI1, ("rotate = 0 ", "dc_pin = 21\nrotate = 0 ")], "display.dc_pin", "SPI1"),
    "grey on a mono panel": ([('mode = "1"', 'mode = "L"')], "display.mode", 'ssd1309 panels are monochrome; expected "1"'),
    "unknown display mode": ([('mode = "1"', 'mode = "RGB"')], "display.mode", '"1" (monochrome) or "L" (16 greys)'),
    "missing display size": ([("size_mm = [55.01, 27.49]", "")], "display.size_mm", "missing; expected [width, height] of the active area"),
    "display size too big": ([("size_mm = [55.01, 27.49]", "size_mm = [600, 10]")], "display.size_mm", "at most 500"),
    "spi display with address": ([*PWM_LEDS, ('interface = "i2c" ', 'interface = "spi" '), ("port = 1\n", "port = 0\n")], "display.address", "no such key"),
    "dc pin on i2c": ([("rotate = 0 ", "dc_pin = 24\nrotate = 0 ")], "display.dc_pin", "only an SPI display"),
    "dc pin on spi": ([*SPI_DISPLAY, ("rotate = 0 ", "dc_pin = 9\nrotate = 0 ")], "display.dc_pin", "SPI0"),
    "button on the dc pin": ([*SPI_DISPLAY, ("ok = 6\n", "ok = 24\n")], "buttons.pins.ok", "DC line"),
}  # fmt: skip


@pytest.mark.parametrize("replacements, key, expectation", BAD.values(), ids=BAD.keys())
def test_a_bad_key_is_named_with_the_file_and_the_expectation(
    tmp_path: Path, replacements: list[tuple[str, str]], key: str, expectation: str
) -> None:
    path = write_board(tmp_path, edited(*replacements), "bad-board.toml")
    with pytest.raises(ConfigError) as caught:
        load_board(path)
    message = str(caught.value)
    assert message.startswith(f"{path}: {key}: "), message
    assert expectation in message
    assert "expected" in message


def test_bad_toml_names_the_line(tmp_path: Path) -> None:
    path = write_board(tmp_path, edited(("rotate = 0 ", "rotate = ")))
    line = DEFAULT_TEXT[: DEFAULT_TEXT.index("rotate = 0 ")].count("\n") + 1
    with pytest.raises(ConfigError, match=rf"not valid TOML: .*line {line}\b") as caught:
        load_board(path)
    assert str(caught.value).startswith(f"{path}: ")


@pytest.mark.parametrize("make", ["missing", "directory", "not utf-8"])
def test_an_unreadable_file_is_named(tmp_path: Path, make: str) -> None:
    path = tmp_path / "board.toml"
    if make == "directory":
        path.mkdir()
    elif make == "not utf-8":
        path.write_bytes(b'name = "\xff"\n')
    with pytest.raises(ConfigError, match="expected a") as caught:
        load_board(path)
    assert str(caught.value).startswith(f"{path}: ")
    assert isinstance(caught.value, ValueError)


def test_deleting_any_line_loads_or_fails_with_a_named_config_error(tmp_path: Path) -> None:
    lines = DEFAULT_TEXT.splitlines(keepends=True)
    path = tmp_path / "board.toml"
    failures = 0
    for number in range(len(lines)):
        path.write_text("".join(lines[:number] + lines[number + 1 :]), encoding="utf-8")
        try:
            load_board(path)
        except ConfigError as exc:
            failures += 1
            assert str(exc).startswith(f"{path}: ")
    assert failures > 100  # nearly every data line is required


@pytest.mark.parametrize("make", ["fifo", "/dev/zero", "too large"])
def test_board_refuses_what_is_not_a_regular_file_of_sensible_size(tmp_path: Path, make: str) -> None:
    """A FIFO used to block the start for ever; /dev/zero grew to gigabytes. A real command, so a
    hang shows as a timeout."""
    if make == "fifo":
        path = tmp_path / "board.toml"
        os.mkfifo(path)
    elif make == "too large":
        path = tmp_path / "board.toml"
        path.write_text(DEFAULT_TEXT + "#" * 1_000_000 + "\n", encoding="utf-8")
    else:
        path = Path(make)
    done = subprocess.run(
        [
            sys.executable,
            "-m",
            "firmware",
            "sim",
            "--headless",
            "--demo",
            "extra",
            "--board",
            str(path),
            "--state-dir",
            str(tmp_path / "state"),
        ],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=30,
    )
    assert done.returncode == 2
    reason = "larger than 1000000 bytes" if make == "too large" else "not a regular file"
    assert done.stderr.count("\n") == 1 and f"{path}: {reason}; expected a board description (TOML)" in done.stderr
