"""The bench driver: the scenario runner's `BoardDriver` for a board reached through its debug
service (`firmware.debug`) — a real board on the bench, or `xtraboard sim --debug-port`.

    client = DebugClient.connect("127.0.0.1:7777")
    driver = BenchDriver(client, VirtualButtons(client))
    driver.start(seed=0)
    run_scenario(load_scenario("tests/scenarios/menu.toml"), driver, hold_s=driver.hold_s)

Buttons are pressed through gpiozero output devices on the bench controller (`GpioButtons`:
one optocoupler or MOSFET across each button, any pin factory) or, on a simulated board,
through the service's virtual buttons (`VirtualButtons`). LEDs, text, image and state are read
through the service; waits are real time, or board time when the board's clock is fake.
"""

from __future__ import annotations

import base64
import json
import os
import socket
import time
from collections.abc import Mapping, Sequence
from typing import Any

from firmware.debug import PROTOCOL, image_checksum
from firmware.errors import XtraboardError
from firmware.state_reader import StateError

CONNECT_TIMEOUT_S = 10.0
ANSWER_TIMEOUT_S = 120.0  # a `wait` of board time on a fake clock may take a while to compute


class BenchError(XtraboardError, RuntimeError):
    """The board could not be reached, or refused a request the bench needs."""


def parse_target(text: str) -> tuple[str, Any]:
    """`HOST:PORT`, `[::1]:PORT` or `unix:PATH` → ("tcp", (host, port)) or ("unix", path).

    >>> parse_target("127.0.0.1:7777"), parse_target("[::1]:7777"), parse_target("unix:/run/x.sock")
    (('tcp', ('127.0.0.1', 7777)), ('tcp', ('::1', 7777)), ('unix', '/run/x.sock'))
    """
    if text.startswith("unix:") and len(text) > 5:
        return "unix", text[5:]
    host, sep, port = text.rpartition(":")
    host = host[1:-1] if host.startswith("[") and host.endswith("]") else host
    if not sep or not host or not port.isdigit() or not 0 < int(port) < 65536:
        raise BenchError(f"target {text!r}: expected HOST:PORT (e.g. 127.0.0.1:7777) or unix:PATH")
    return "tcp", (host, int(port))


class DebugClient:
    """One connection to a board's debug service: `ask(line)` sends a request and returns the
    answer; a refusal raises (StateError for state paths, BenchError otherwise)."""

    def __init__(self, sock: socket.socket) -> None:
        self.sock = sock
        self.reader = sock.makefile("rb")
        self.hello: dict[str, Any] = self._read()
        if not self.hello.get("ok") or self.hello.get("hello") != PROTOCOL:
            raise BenchError(f"the board does not serve the debug service: {self.hello.get('error', self.hello)}")

    @classmethod
    def connect(cls, target: str, timeout_s: float = CONNECT_TIMEOUT_S) -> DebugClient:
        kind, where = parse_target(target)
        deadline = time.monotonic() + timeout_s
        while True:
            try:
                if kind == "unix":
                    sock = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
                    sock.settimeout(ANSWER_TIMEOUT_S)
                    sock.connect(where)
                else:
                    sock = socket.create_connection(where, timeout=ANSWER_TIMEOUT_S)
                break
            except OSError as exc:  # the board may still be starting: try again until the deadline
                if time.monotonic() >= deadline:
                    raise BenchError(
                        f"cannot reach the board's debug service at {target}: {exc.strerror or exc}"
                    ) from exc
                time.sleep(0.1)
        return cls(sock)

    @property
    def simulated(self) -> bool:
        return bool(self.hello.get("simulated"))

    @property
    def fake_clock(self) -> bool:
        return self.hello.get("clock") == "fake"

    def ask(self, line: str) -> dict[str, Any]:
        try:
            self.sock.sendall(line.encode("utf-8") + b"\n")
        except OSError as exc:
            raise BenchError(f"the board's debug service went away ({exc.strerror or exc})") from exc
        answer = self._read()
        if not answer.get("ok"):
            error = str(answer.get("error", "refused"))
            if line.startswith("state "):
                raise StateError(error)
            raise BenchError(f"the board refused {line.split(' ')[0]!r}: {error}")
        return answer

    def _read(self) -> dict[str, Any]:
        try:
            line = self.reader.readline()
        except OSError as exc:
            raise BenchError(f"no answer from the board's debug service ({exc.strerror or exc})") from exc
        if not line:
            raise BenchError("the board's debug service closed the connection")
        answer = json.loads(line)
        if not isinstance(answer, dict):
            raise BenchError(f"the board's debug service answered {line!r}, not an object")
        return answer

    def close(self) -> None:
        self.reader.close()
        self.sock.close()


class VirtualButtons:
    """A simulated board's buttons, pressed through the debug service."""

    def __init__(self, client: DebugClient) -> None:
        if not client.simulated:
            raise BenchError(
                "virtual buttons need a simulated board; wire the bench's GPIO to a real one (--buttons gpio)"
            )
        self.client = client

    def press(self, name: str) -> None:
        self.client.ask(f"press {name}")

    def release(self, name: str) -> None:
        self.client.ask(f"release {name}")

    def close(self) -> None:
        pass


class GpioButtons:
    """One gpiozero output per button on the bench controller, switching an optocoupler or a
    MOSFET across the board's button (`on` = the button is closed). `active_high` is how the
    switch is driven: an optocoupler's LED from the pin to GND is active high (the default).

    `pins` maps button names to the bench controller's pins; `pin_factory` is any gpiozero
    factory (lgpio on the bench Pi, remote pins for another Pi, MockFactory in tests).
    """

    def __init__(self, pins: Mapping[str, Any], *, pin_factory: Any = None, active_high: bool = True) -> None:
        from gpiozero import DigitalOutputDevice

        self.outputs: dict[str, Any] = {}
        try:
            for name, pin in pins.items():
                self.outputs[name] = DigitalOutputDevice(
                    pin, active_high=active_high, initial_value=False, pin_factory=pin_factory
                )
        except Exception:
            self.close()
            raise

    def press(self, name: str) -> None:
        self._output(name).on()

    def release(self, name: str) -> None:
        self._output(name).off()

    def _output(self, name: str) -> Any:
        if name not in self.outputs:
            raise BenchError(f"no bench output wired to button {name!r}; wired: {', '.join(self.outputs)}")
        return self.outputs[name]

    def close(self) -> None:
        for output in self.outputs.values():
            output.close()
        self.outputs.clear()


class BenchDriver:
    """`BoardDriver` for a board behind its debug service; `buttons` is `VirtualButtons` or
    `GpioButtons`. On a fake clock `wait` moves the board's time; else it sleeps (the board's
    `speed` times shorter for a sped-up simulated board)."""

    def __init__(self, client: DebugClient, buttons: Any) -> None:
        self.client = client
        self.buttons = buttons
        self.speed = float(client.hello.get("speed") or 1.0)

    @property
    def hold_s(self) -> float:
        """The board's long-press time, as it says in its greeting."""
        return float(self.client.hello.get("hold_s", 1.0))

    def start(self, seed: int | str) -> None:
        """Open every button, put the board in its factory state (`reset`: no game waiting,
        default settings, the main menu's first entry, no queued roll), then start it over with
        `seed` (a simulated board restarts; a real one takes the seed for its next game). So a
        scenario never sees what the one before left, however the board got here."""
        for name in self.client.hello.get("buttons", ()):
            self.buttons.release(name)
        if "reset" not in self.client.hello.get("commands", ()):
            raise BenchError(
                "the board's debug service has no 'reset' (its firmware is older than the bench's): "
                "update the board, so that every scenario starts from its factory state"
            )
        self.client.ask("reset")
        self.client.ask(f"seed {json.dumps(seed)}")

    # --- BoardDriver ----------------------------------------------------------------------------
    def press(self, name: str) -> None:
        self.buttons.press(name)

    def release(self, name: str) -> None:
        self.buttons.release(name)

    def wait(self, seconds: float) -> None:
        if self.client.fake_clock:
            self.client.ask(f"wait {seconds!r}")
        elif seconds > 0:
            time.sleep(seconds / self.speed)

    def led(self, cell: str) -> tuple[int, int, int]:
        shown = self.client.ask("leds")["shown"]
        colour = shown.get(cell, [0, 0, 0])
        return (int(colour[0]), int(colour[1]), int(colour[2]))

    def screen_text(self) -> list[str]:
        return list(self.client.ask("text")["text"])

    def image_checksum(self) -> str:
        answer = self.client.ask("image")
        pixels = base64.b64decode(answer["pixels"])
        checksum = image_checksum(pixels)
        if checksum != answer["sha"]:
            raise BenchError(f"the image arrived damaged (checksum {checksum}, the board says {answer['sha']})")
        return checksum

    def state(self, path: str) -> Any:
        return self.client.ask(f"state {path}")["value"]

    def queue_dice(self, faces: Sequence[Any]) -> None:
        self.client.ask(f"dice {json.dumps(list(faces))}")

    def close(self) -> None:
        self.buttons.close()
        self.client.close()


def parse_pin_map(text: str) -> dict[str, str]:
    """`--pins roll=GPIO17,ok=GPIO27,...` → {"roll": "GPIO17", ...} (gpiozero pin names).

    >>> parse_pin_map("roll=17, ok=BOARD13")
    {'roll': '17', 'ok': 'BOARD13'}
    """
    pins: dict[str, str] = {}
    for part in filter(None, (p.strip() for p in text.split(","))):
        name, sep, pin = part.partition("=")
        if not sep or not name.strip() or not pin.strip():
            raise BenchError(f"--pins: {part!r} is not NAME=PIN (e.g. roll=GPIO17)")
        pins[name.strip()] = pin.strip()
    return pins


def default_pin_factory() -> Any:
    """gpiozero's own choice, which $GPIOZERO_PIN_FACTORY and $PIGPIO_ADDR steer (remote pins)."""
    from gpiozero import Device

    Device.ensure_pin_factory()
    return Device.pin_factory


def environ_pins() -> str:
    """The bench's button wiring from $XTRABOARD_BENCH_PINS (as gpiozero's real-pin tests take
    theirs from the environment), or ""."""
    return os.environ.get("XTRABOARD_BENCH_PINS", "")
