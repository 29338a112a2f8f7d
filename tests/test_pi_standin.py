"""`xtraboard run` and `xtraboard selftest` as real subprocesses on a stood-in Pi.

A `sitecustomize.py` in the test's folder (on PYTHONPATH) installs tests/pi_fakes into the child
before the firmware starts: luma opens the recording smbus2/spidev/RPi.GPIO, `neopixel_spi` writes
to the recording `board.SPI()`, and gpiozero makes its own choice of pin factory — MockFactory with
PWM pins, as GPIOZERO_PIN_FACTORY says — whose pins the child drives when the test appends
"low N"/"high N" to a file. What reached the stand-ins is appended to a file the test reads.

The board is then checked from outside, as on the bench: READY on a systemd notify socket, the
display's bus decoded back to the image the debug service says is shown, the LED chain's SPI
stream decoded back to the cells' colours, and a button press that changes the screen.
"""

from __future__ import annotations

import base64
import contextlib
import json
import os
import signal
import socket
import subprocess
import sys
import time
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import pytest
from gpiozero.tones import Tone
from PIL import Image, ImageDraw

from firmware.hardware.config import BoardConfig, default_board_path, load_board
from firmware.hardware.selftest import segments
from firmware.ui.cues import TUNES
from sim.hil.wire import cells_from_pixels, decode_i2c, decode_ws2812_spi, pixels_from_bytes
from tests.pi_fakes import ENV, GreyscaleRam, events_of, grey_levels, sitecustomize_source, spi_transfers

ROOT = Path(__file__).resolve().parent.parent
BOARD_FILES = [default_board_path(), *sorted((default_board_path().parent / "boards").glob("*.toml"))]
WAIT_S = 60.0  # a bound on a hung child, never a timing assertion


def board_id(path: Path) -> str:
    return "default" if path == default_board_path() else path.stem


class StoodInPi:
    """One child process's stood-in Pi: what exists on it, what it recorded, its pins."""

    def __init__(
        self,
        folder: Path,
        board: Path,
        *,
        i2c: dict[int, list[int]] | None = None,
        spi: list[tuple[int, int]] | None = None,
        gpio: bool = True,
        gpio_when: Path | None = None,
    ) -> None:
        self.folder, self.board = folder, board
        self.config: BoardConfig = load_board(board)
        display = self.config.display
        site = folder / "site"
        site.mkdir()
        (site / "sitecustomize.py").write_text(sitecustomize_source(ROOT), encoding="utf-8")
        self.record, self.pins = folder / "pi.jsonl", folder / "pins"
        if i2c is None:  # the Pi's I2C bus 1, with the display on it if it is an I2C one
            i2c = {1: [display.address] if display.interface == "i2c" else []}
        if spi is None:  # SPI0 (the LED chain) and, for an SPI display, its port
            spi = [(0, 0), (0, 1)] + ([(display.port, display.device)] if display.interface == "spi" else [])
        settings = {
            "record": str(self.record),
            "pins": str(self.pins),
            "i2c": {str(k): v for k, v in i2c.items()},
            "spi": spi,
            "gpio": gpio,
            **({"gpio_when": str(gpio_when)} if gpio_when is not None else {}),
        }
        self.env = {key: value for key, value in os.environ.items() if key not in ("XTRABOARD_BOARD", "NOTIFY_SOCKET")}
        self.env.update(
            {
                ENV: json.dumps(settings),
                "PYTHONPATH": str(site),
                "GPIOZERO_PIN_FACTORY": "mock",
                "GPIOZERO_MOCK_PIN_CLASS": "mockpwmpin",
                "PYTHONUNBUFFERED": "1",
            }
        )

    def command(self, name: str, *args: str) -> list[str]:
        return [sys.executable, "-m", "firmware", name, "--board", str(self.board), *args]

    def events(self) -> list[dict[str, Any]]:
        return events_of(self.record)

    def press(self, button: str) -> None:
        """Close a button for a tenth of a second, as a finger does (pull-up: it reads low)."""
        pin = self.config.buttons.tilt if button == "tilt" else self.config.buttons.pins[button]
        down, up = ("low", "high") if self.config.buttons.pull_up else ("high", "low")
        with self.pins.open("a", encoding="utf-8") as pins:
            pins.write(f"{down} {pin}\n")
        time.sleep(0.1)
        with self.pins.open("a", encoding="utf-8") as pins:
            pins.write(f"{up} {pin}\n")

    def hold(self, buttons: tuple[str, ...], seconds: float) -> None:
        """Hold `buttons` down together for `seconds`, then let them go (in the same order)."""
        down, up = ("low", "high") if self.config.buttons.pull_up else ("high", "low")
        for level, wait in ((down, seconds), (up, 0.0)):
            with self.pins.open("a", encoding="utf-8") as pins:
                for button in buttons:
                    pins.write(f"{level} {self.config.buttons.pins[button]}\n")
                    pins.flush()
                    time.sleep(0.05)
            time.sleep(wait)

    def display_pixels(self, *, before_off: bool = False) -> bytes:
        """What the display's RAM holds, decoded from the recorded bus: one byte a pixel (0/255
        on monochrome panels, the 4-bit level on greyscale ones); `before_off`: what it held when
        the display was last switched off (command 0xAE: luma's cleanup then blanks it)."""
        cfg, events = self.config.display, self.events()
        if before_off:
            off = [
                i
                for i, e in enumerate(events)
                if e["kind"] in ("i2c", "spi")
                and e["data"][-1:] == [0xAE]
                and (e["kind"] == "spi" or e["data"][0] == 0x00)
            ]
            events = events[: off[-1]]
        if cfg.interface == "spi":
            transfers = spi_transfers(events, cfg.dc_pin or 24, cfg.port)
            return GreyscaleRam(cfg.driver, cfg.width, cfg.height).feed_spi(transfers).levels()
        writes = [(event["address"], bytes(event["data"])) for event in events if event["kind"] == "i2c"]
        if cfg.mode == "L":
            return GreyscaleRam(cfg.driver, cfg.width, cfg.height).feed_i2c(writes).levels()
        return decode_i2c(writes, cfg.driver, cfg.width, cfg.height, address=cfg.address).convert("L").tobytes()

    def led_cells(self) -> dict[str, tuple[int, int, int]]:
        """Each cell's colour in the last frame on the LED chain's SPI bus."""
        [stream] = [bytes(event["data"]) for event in self.events() if event["kind"] == "busio.write"][-1:]
        pixels = pixels_from_bytes(decode_ws2812_spi(stream), self.config.leds.order)
        return cells_from_pixels(pixels, self.config.leds.cells)


def expected_pixels(answer: dict[str, Any], config: BoardConfig) -> bytes:
    """The debug service's `image` as the decoded RAM gives it (see `display_pixels`)."""
    data = base64.b64decode(answer["pixels"])
    if answer["mode"] == "1":
        return Image.frombytes("1", (answer["width"], answer["height"]), data).convert("L").tobytes()
    return grey_levels(data)


class Debug:
    """A client of the board's debug service on its Unix socket (docs/hil.md)."""

    def __init__(self, path: Path) -> None:
        deadline = time.monotonic() + WAIT_S
        while not path.exists() and time.monotonic() < deadline:
            time.sleep(0.02)
        self.socket = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
        self.socket.settimeout(WAIT_S)
        self.socket.connect(str(path))
        self.lines = self.socket.makefile("r", encoding="utf-8")
        self.hello = json.loads(self.lines.readline())

    def ask(self, request: str) -> dict[str, Any]:
        self.socket.sendall(request.encode() + b"\n")
        answer = json.loads(self.lines.readline())
        assert answer["ok"], answer
        return answer

    def close(self) -> None:
        self.lines.close()
        self.socket.close()


@dataclass
class Run:
    """A running `xtraboard run`: the notify messages so far; its output once stopped."""

    child: subprocess.Popen[str]
    messages: list[bytes] = field(default_factory=list)
    stdout: str = ""
    stderr: str = ""


@contextlib.contextmanager
def running(pi: StoodInPi, *args: str) -> Iterator[Run]:
    """`xtraboard run` on the stood-in Pi until READY; stopped with SIGTERM as systemd does."""
    notify = pi.folder / "notify.sock"
    env = dict(pi.env, NOTIFY_SOCKET=str(notify))
    with socket.socket(socket.AF_UNIX, socket.SOCK_DGRAM) as listener:
        listener.bind(str(notify))
        listener.settimeout(1.0)
        child = subprocess.Popen(
            pi.command("run", "--state-dir", str(pi.folder / "state"), *args),
            cwd=pi.folder,
            env=env,
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            text=True,
        )
        run = Run(child)
        try:
            deadline = time.monotonic() + WAIT_S
            while not any(m.startswith(b"READY=1") for m in run.messages) and child.poll() is None:
                assert time.monotonic() < deadline, "no READY"
                with contextlib.suppress(socket.timeout):
                    run.messages.append(listener.recv(4096))
            yield run
        finally:
            if child.poll() is None:
                child.send_signal(signal.SIGTERM)
            try:
                run.stdout, run.stderr = child.communicate(timeout=WAIT_S)
            finally:
                if child.poll() is None:
                    child.kill()
                    child.wait()


def at_one_brightness(shown: dict[str, list[int]], wire: dict[str, tuple[int, int, int]]) -> bool:
    """Whether each cell on the wire shows its colour in `shown` scaled by one brightness b
    (PixelBuf truncates: int(v × b) == w exactly when w/v ≤ b < (w+1)/v), and unlisted cells are off."""
    low, high = 0.0, 1.0 + 1e-9
    for cell, colour in wire.items():
        for value, sent in zip(shown.get(cell, (0, 0, 0)), colour):
            if value:
                low, high = max(low, sent / value), min(high, (sent + 1) / value)
            elif sent:
                return False
    return low < high and any(any(colour) for colour in wire.values())


def until(condition: Any, what: str, within_s: float = 15.0) -> None:
    """Wait for something the board does on its own time (a bound on a hang, not a timing test)."""
    deadline = time.monotonic() + within_s
    while not condition():
        assert time.monotonic() < deadline, f"never: {what}"
        time.sleep(0.05)


@pytest.mark.parametrize("board", BOARD_FILES, ids=board_id)
def test_the_board_runs_on_a_stood_in_pi(board: Path, tmp_path: Path) -> None:
    pi = StoodInPi(tmp_path, board)
    socket_path = tmp_path / "debug.sock"
    with running(pi, "--debug-socket", str(socket_path)) as run:
        assert run.child.poll() is None and run.messages[0].startswith(b"READY=1"), run.messages
        debug = Debug(socket_path)
        try:
            menu = debug.ask("text")["text"]
            assert any("EXXTRA" in line for line in menu), menu  # the main menu offers the games
            # The main menu reached the display over its own bus: the RAM decoded from what the
            # stood-in smbus2/spidev saw is the frame the board says it shows.
            until(
                lambda: pi.display_pixels() == expected_pixels(debug.ask("image"), pi.config),
                "the display's RAM holds the shown frame",
            )
            shown = debug.ask("image")["sha"]
            # The LEDs are lit, through neopixel_spi on board.SPI(): the cells lit in the SPI stream
            # are the cells of the board's frame, each its colour at one brightness (the settings').
            until(
                lambda: at_one_brightness(debug.ask("leds")["shown"], pi.led_cells()),
                "the chain shows the board's LED frame",
            )
            assert any(colour != (0, 0, 0) for colour in pi.led_cells().values())
            # A press on the board's own button pin moves the menu, and the new frame crosses the bus.
            written = len(pi.events())
            pi.press("right")
            until(lambda: debug.ask("text")["text"] != menu, "the press changes the screen")
            until(
                lambda: pi.display_pixels() == expected_pixels(debug.ask("image"), pi.config),
                "the new frame reaches the display",
            )
            assert debug.ask("image")["sha"] != shown and len(pi.events()) > written
        finally:
            debug.close()
    assert run.child.returncode == 0, run.stderr
    assert "Traceback" not in run.stderr and "warning" not in run.stderr, run.stderr
    # Stopped cleanly: the display's bus closed (luma's own exit hook finds it closed and sends
    # nothing more) and the chain's last frame is all off.
    kinds = [event["kind"] for event in pi.events()]
    closed = "spi.close" if pi.config.display.interface == "spi" else "i2c.close"
    assert closed in kinds and not {"i2c", "spi"} & set(kinds[kinds.index(closed) :])
    assert set(pi.led_cells().values()) == {(0, 0, 0)}


@pytest.mark.parametrize("board", BOARD_FILES, ids=board_id)
def test_the_selftest_runs_on_a_stood_in_pi(board: Path, tmp_path: Path) -> None:
    """Each part as the bench sees it: every LED segment on the chain's SPI bus, the buzzer's
    notes as PWM frequencies, the display's last screen in its RAM, each button pressed when asked."""
    pi = StoodInPi(tmp_path, board)
    child = subprocess.Popen(
        pi.command("selftest", "--step", "0", "--timeout", "20"),
        cwd=tmp_path,
        env=pi.env,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )
    lines: list[str] = []
    try:
        assert child.stdout is not None
        for line in child.stdout:  # the self-test asks for each button in turn: press it
            lines.append(line.rstrip("\n"))
            if "buttons: Press " in line:
                pi.press(line.split("buttons: Press ", 1)[1].split()[0].lower())
            elif "buttons: Tilt the board" in line:
                pi.press("tilt")
        _, stderr = child.communicate(timeout=WAIT_S)
    finally:
        if child.poll() is None:
            child.kill()
            child.wait()
    assert child.returncode == 0 and "Traceback" not in stderr, (lines, stderr)
    assert lines[-1] == "self-test passed" and not any(line.startswith("warning") for line in lines), lines
    config = pi.config
    inputs = len(config.buttons.pins) + (config.buttons.tilt is not None)
    assert len([line for line in lines if line.startswith("buttons: ") and line.endswith(" seen")]) == inputs, lines

    # The LEDs: one frame per segment with exactly that segment's cells lit, and all off at the end.
    frames = [
        cells_from_pixels(pixels_from_bytes(decode_ws2812_spi(bytes(e["data"])), config.leds.order), config.leds.cells)
        for e in pi.events()
        if e["kind"] == "busio.write"
    ]
    lit = [{cell for cell, colour in frame.items() if colour != (0, 0, 0)} for frame in frames]
    for name, group in segments(config.layout):
        assert {cell for cell in config.leds.cells if group.owns(cell)} in lit, name
    assert lit[-1] == set()
    # The buzzer: every cue's notes, in order, as the PWM frequency of its pin.
    played = [e["frequency"] for e in pi.events() if e["kind"] == "pwm.frequency" and e["frequency"] is not None]
    notes = [Tone(note).frequency for tune in TUNES.values() for note, _ in tune if note is not None]
    if config.buzzer is None:  # this build has none: nothing plays, and the report says so
        assert played == [] and "buzzer: none" in lines
    else:
        assert played == pytest.approx([100, *notes])  # gpiozero opens its PWM output at 100 Hz, silent
    # The display: its RAM, read back from the bus, held the self-test's last screen when it was switched off.
    final = Image.new("1", (config.display.width, config.display.height))
    ImageDraw.Draw(final).text((2, 2), "Self-test passed", fill=1)
    grey = 255 if config.display.mode == "1" else 15
    assert pi.display_pixels(before_off=True) == bytes(grey if pixel else 0 for pixel in final.convert("L").tobytes())


# --- a wiring mistake is named -----------------------------------------------------------------
WIRING_DOC = ROOT / "hardware" / "WIRING.md"
MISTAKES = {  # what is wrong on the stood-in Pi → (board file, the stand-in's settings)
    "wrong I2C address": (default_board_path(), {"i2c": {1: [0x3D]}}),  # the module is set to 0x3D
    "I2C not enabled": (default_board_path(), {"i2c": {}}),  # no /dev/i2c-1
    "SPI port not enabled": (BOARD_FILES[0].parent / "boards" / "ssd1322.toml", {"spi": [(0, 0), (0, 1)]}),
    "RPi.GPIO not installed": (BOARD_FILES[0].parent / "boards" / "ssd1322.toml", {"gpio": False}),
    "SPI0 not enabled": (default_board_path(), {"spi": []}),  # the LED chain's /dev/spidev0.0
}


@pytest.mark.parametrize("mistake", MISTAKES)
def test_a_wiring_mistake_is_one_line_the_wiring_guide_shows(mistake: str, tmp_path: Path) -> None:
    """The board still starts (it plays without the part), says what is wrong in one line that
    hardware/WIRING.md shows word for word, and never prints a traceback."""
    board, settings = MISTAKES[mistake]
    pi = StoodInPi(tmp_path, board, **settings)  # type: ignore[arg-type]
    with running(pi) as run:
        assert run.messages and run.messages[0].startswith(b"READY=1"), run.stderr
    assert run.child.returncode == 0 and "Traceback" not in run.stderr, run.stderr
    [line] = run.stderr.splitlines()
    prefix = "xtraboard run: warning: "
    assert line.startswith(prefix), line
    assert line.removeprefix(prefix) in WIRING_DOC.read_text(encoding="utf-8"), line
