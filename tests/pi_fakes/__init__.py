"""A stood-in Raspberry Pi: recording doubles of the modules the board's Pi path imports.

On the Pi, `xtraboard run` reaches the hardware through other people's modules: luma's
`i2c(port=…)` opens `smbus2.SMBus`, luma's `spi(port=…)` opens `spidev.SpiDev` and drives DC/RST
through `RPi.GPIO`, `neopixel_spi` writes to Blinka's `board.SPI()` (a `busio.SPI`), and gpiozero
picks its pin factory. `FakePi.modules()` gives a double for each, to put into `sys.modules`
(`install`), so the production constructors run unchanged and every byte or call that would reach
the Pi's kernel is recorded, in order, in `FakePi.log` (and, in a subprocess, appended to a file
as JSON lines: `events_of`).

- `smbus2`: `SMBus(bus)` exists for the buses in `i2c` (else ENOENT, as a missing
  /dev/i2c-N); a write to an address nothing answers on raises OSError 121 (EREMOTEIO), as the
  kernel does; `i2c_msg` is smbus2's own.
- `spidev`: `SpiDev().open(port, device)` for the devices in `spi` (else ENOENT, as a missing
  /dev/spidevP.D).
- `RPi.GPIO`: fake-rpi's GPIO (which on its own only prints), wrapped to record what it is told;
  `drive(pin, level)` sets an input and fires the edge callbacks gpiozero registered.
- `board`/`busio`: Blinka's names: `board.SPI()` is SPI0 (`busio.SPI` on SCLK/MOSI/MISO).

In a subprocess, `sitecustomize_source` makes a `sitecustomize.py` that calls
`start_from_environment`: the doubles as $XTRABOARD_FAKE_PI says, MockPWMPin's frequencies
recorded (the buzzer's notes), and `drive_pins` driving gpiozero's pins from "low N"/"high N"
lines appended to a file. `GreyscaleRam` reads an SSD1322's or SSD1327's RAM back from what was
sent (`sim.hil.wire` does the SSD1306 family and SH1106).
"""

from __future__ import annotations

import atexit
import contextlib
import errno
import io
import json
import os
import sys
import threading
import time
import types
from collections.abc import Callable, Iterable, Iterator, Mapping, Sequence
from pathlib import Path
from typing import Any

# smbus2's own message type (plain ctypes), kept before any double takes the name "smbus2".
from smbus2.smbus2 import I2C_M_RD, i2c_msg

SPI0_PINS = (11, 10, 9)  # SCLK, MOSI, MISO: the GPIOs of SPI0, which board.SPI() uses
SPI1_PINS = (21, 20, 19)
ENV = "XTRABOARD_FAKE_PI"  # the subprocess stand-in's settings (JSON): see `start_from_environment`


class FakePi:
    """The Pi's buses and pins as recording doubles; `log` is every call, in order."""

    def __init__(
        self,
        *,
        i2c: Mapping[int, Sequence[int]] | None = None,
        spi: Iterable[tuple[int, int]] = ((0, 0), (0, 1)),
        record_to: Path | None = None,
    ) -> None:
        self.i2c = {bus: tuple(addresses) for bus, addresses in (i2c if i2c is not None else {1: (0x3C,)}).items()}
        self.spi = {tuple(device) for device in spi}
        self.log: list[dict[str, Any]] = []
        self._file = open(record_to, "a", encoding="utf-8") if record_to is not None else None  # noqa: SIM115
        self._lock = threading.Lock()
        self.gpio = RecordingGPIO(self)

    def record(self, kind: str, **details: Any) -> None:
        event = {"kind": kind, **details}
        with self._lock:
            self.log.append(event)
            if self._file is not None and not self._file.closed:
                self._file.write(json.dumps(event) + "\n")
                self._file.flush()

    def close(self) -> None:
        """Close the record file (what is recorded after that is kept in `log` only)."""
        with self._lock:
            if self._file is not None:
                self._file.close()

    def events(self, kind: str) -> list[dict[str, Any]]:
        """The recorded calls of one kind ("i2c", "spi", "gpio.output", "busio.write", …)."""
        return [event for event in self.log if event["kind"] == kind]

    def modules(self, *, gpio: bool = True) -> dict[str, types.ModuleType]:
        """The doubles by module name; `gpio=False` leaves `RPi` out (as on a Pi without rpi-lgpio)."""
        busio = _busio_module(self)
        modules = {
            "smbus2": _smbus2_module(self),
            "spidev": _spidev_module(self),
            "busio": busio,
            "board": _board_module(busio),
        }
        if gpio:
            rpi = types.ModuleType("RPi")
            rpi.__path__ = []  # a package, as the real one
            rpi.GPIO = self.gpio  # type: ignore[attr-defined]
            modules.update({"RPi": rpi, "RPi.GPIO": self.gpio})
        return modules

    def install(self, monkeypatch: Any = None, *, gpio: bool = True) -> None:
        """Put the doubles into sys.modules (through pytest's `monkeypatch`, undone after the test,
        or for good). `gpio=False`: `import RPi.GPIO` fails as where it is not installed."""
        # Forgotten, so imported again: gpiozero's RPi.GPIO pins bind the module at import.
        forget = ["gpiozero.pins.rpigpio"]
        if not gpio:
            forget += [name for name in sys.modules if name == "RPi" or name.startswith("RPi.")]
        for name in forget:
            if monkeypatch is None:
                sys.modules.pop(name, None)
            else:  # set first, so that undoing puts back what was there (or nothing), not this test's import
                monkeypatch.setitem(sys.modules, name, None)
                monkeypatch.delitem(sys.modules, name)
        for name, module in self.modules(gpio=gpio).items():
            if monkeypatch is None:
                sys.modules[name] = module
            else:
                monkeypatch.setitem(sys.modules, name, module)
        if not gpio:
            meta_path = [NotInstalled("RPi"), *sys.meta_path]
            if monkeypatch is None:
                sys.meta_path[:] = meta_path
            else:
                monkeypatch.setattr(sys, "meta_path", meta_path)

    # --- reading what was sent ------------------------------------------------------------------
    def i2c_writes(self, address: int | None = None) -> list[tuple[int, bytes]]:
        """Every I2C write as (address, bytes after the address), control byte first."""
        return [
            (event["address"], bytes(event["data"]))
            for event in self.events("i2c")
            if address is None or event["address"] == address
        ]

    def spi_transfers(self, dc_pin: int, port: int | None = None) -> list[tuple[int, bytes]]:
        """Every spidev write as (the DC line's level when it was clocked out, bytes)."""
        return spi_transfers(self.log, dc_pin, port)

    def pixel_writes(self) -> list[bytes]:
        """Every write to Blinka's SPI bus (the NeoPixel chain's SPI stream)."""
        return [bytes(event["data"]) for event in self.events("busio.write")]


def spi_transfers(log: Iterable[Mapping[str, Any]], dc_pin: int, port: int | None = None) -> list[tuple[int, bytes]]:
    """(DC level, bytes) of each spidev write in `log`, following the GPIO outputs between them."""
    level = 0
    transfers: list[tuple[int, bytes]] = []
    for event in log:
        if event["kind"] == "gpio.output" and event["pin"] == dc_pin:
            level = 1 if event["level"] else 0
        elif event["kind"] == "spi" and (port is None or event["port"] == port):
            transfers.append((level, bytes(event["data"])))
    return transfers


def events_of(path: Path) -> list[dict[str, Any]]:
    """The calls a subprocess's FakePi appended to `path` (complete lines only)."""
    if not path.exists():
        return []
    lines = path.read_text(encoding="utf-8").splitlines(keepends=True)
    return [json.loads(line) for line in lines if line.endswith("\n")]


class NotInstalled:
    """An import finder for which a package does not exist (even if this machine has it)."""

    def __init__(self, package: str) -> None:
        self.package = package

    def find_spec(self, name: str, path: Any = None, target: Any = None) -> None:
        if name == self.package or name.startswith(self.package + "."):
            raise ModuleNotFoundError(f"No module named {name.partition('.')[0]!r}", name=name.partition(".")[0])
        return None


# --- smbus2 --------------------------------------------------------------------------------------
def _smbus2_module(pi: FakePi) -> types.ModuleType:
    class SMBus:
        """smbus2.SMBus on a stood-in /dev/i2c-N: records writes, NACKs absent addresses."""

        def __init__(self, bus: int | None = None, force: bool = False) -> None:
            if bus not in pi.i2c:
                raise FileNotFoundError(errno.ENOENT, "No such file or directory", f"/dev/i2c-{bus}")
            self.bus = bus
            self.fd: int | None = 1
            pi.record("i2c.open", bus=bus)

        def _check(self, address: int) -> None:
            if self.fd is None:
                raise OSError(errno.EBADF, "Bad file descriptor")
            if address not in pi.i2c[self.bus]:  # nothing acknowledges the address byte
                raise OSError(errno.EREMOTEIO, "Remote I/O error")

        def write_i2c_block_data(self, i2c_addr: int, register: int, data: Sequence[int], force: Any = None) -> None:
            if len(data) > 32:
                raise ValueError("Data length cannot exceed 32 bytes")
            self._check(i2c_addr)
            pi.record("i2c", bus=self.bus, address=i2c_addr, data=[register, *data])

        def i2c_rdwr(self, *messages: Any) -> None:
            for message in messages:
                if message.flags & I2C_M_RD:
                    raise NotImplementedError("fake smbus2: the board never reads from its display")
                self._check(message.addr)
                pi.record("i2c", bus=self.bus, address=message.addr, data=list(bytes(message)))

        def close(self) -> None:
            if self.fd is not None:
                pi.record("i2c.close", bus=self.bus)
            self.fd = None

    module = types.ModuleType("smbus2", "A recording stand-in for smbus2 (tests/pi_fakes)")
    module.SMBus = SMBus  # type: ignore[attr-defined]
    module.i2c_msg = i2c_msg  # type: ignore[attr-defined]  # luma builds its messages with it
    module.I2C_M_RD = I2C_M_RD  # type: ignore[attr-defined]
    return module


# --- spidev --------------------------------------------------------------------------------------
def _spidev_module(pi: FakePi) -> types.ModuleType:
    class SpiDev:
        """spidev.SpiDev on stood-in /dev/spidevP.D devices: records every write."""

        def __init__(self) -> None:
            self.port: int | None = None
            self.device: int | None = None
            self.max_speed_hz = 125_000_000
            self.mode = 0

        def open(self, port: int, device: int) -> None:
            if (port, device) not in pi.spi:
                raise FileNotFoundError(errno.ENOENT, "No such file or directory", f"/dev/spidev{port}.{device}")
            self.port, self.device = port, device
            pi.record("spi.open", port=port, device=device)

        def writebytes(self, data: Sequence[int]) -> None:
            if self.port is None:
                raise OSError(errno.EBADF, "Bad file descriptor")
            if len(data) > 4096:
                raise OverflowError("Argument list size exceeds 4096 bytes.")
            pi.record("spi", port=self.port, device=self.device, speed=self.max_speed_hz, data=list(data))

        def close(self) -> None:
            if self.port is not None:
                pi.record("spi.close", port=self.port, device=self.device)
            self.port = None

    module = types.ModuleType("spidev", "A recording stand-in for spidev (tests/pi_fakes)")
    module.SpiDev = SpiDev  # type: ignore[attr-defined]
    return module


# --- RPi.GPIO ------------------------------------------------------------------------------------
@contextlib.contextmanager
def _quiet() -> Iterator[None]:
    """fake-rpi prints a banner and every call on stdout: keep the board's output clean."""
    with contextlib.redirect_stdout(io.StringIO()):
        yield


def _fake_rpi_gpio() -> Any:
    with _quiet():
        import fake_rpi.RPi
        import fake_rpi.wrappers

    fake_rpi.wrappers.toggle_print(False)
    return fake_rpi.RPi.GPIO


class RecordingGPIO(types.ModuleType):
    """fake-rpi's `RPi.GPIO`, recording what it is told. Inputs read what `drive` set (fake-rpi
    alone reads random levels), and `drive` fires the callbacks of `add_event_detect`."""

    def __init__(self, pi: FakePi) -> None:
        super().__init__("RPi.GPIO", "fake-rpi's RPi.GPIO, recording (tests/pi_fakes)")
        self._pi = pi
        self._fake = _fake_rpi_gpio()
        self.levels: dict[int, int] = {}
        self.functions: dict[int, int] = {}  # pin → IN or OUT, as last set up
        self.driven: set[int] = set()  # inputs the outside world holds at a level (`drive`)
        self.callbacks: dict[int, Callable[[int], None]] = {}
        fake, recording = self._fake, self

        class PWM:
            """RPi.GPIO's software PWM on one pin."""

            def __init__(self, channel: int, frequency: float) -> None:
                with _quiet():
                    self._fake = fake.PWM(channel, frequency)
                self.channel = channel
                recording._pi.record("gpio.pwm", pin=channel, frequency=frequency)

            def start(self, duty: float) -> None:
                recording._pi.record("gpio.pwm.start", pin=self.channel, duty=duty)

            def ChangeFrequency(self, frequency: float) -> None:  # noqa: N802 (RPi.GPIO's name)
                recording._pi.record("gpio.pwm.frequency", pin=self.channel, frequency=frequency)

            def ChangeDutyCycle(self, duty: float) -> None:  # noqa: N802
                if not 0.0 <= duty <= 100.0:
                    raise ValueError("dutycycle must have a value from 0.0 to 100.0")
                recording._pi.record("gpio.pwm.duty", pin=self.channel, duty=duty)

            def stop(self) -> None:
                recording._pi.record("gpio.pwm.stop", pin=self.channel)

        self.PWM = PWM

    def __getattr__(self, name: str) -> Any:  # the constants (BCM, OUT, PUD_UP, …) are fake-rpi's
        return getattr(self._fake, name)

    def setmode(self, mode: int) -> None:
        self._fake.setmode(mode)
        self._pi.record("gpio.setmode", mode=mode)

    def setwarnings(self, flag: bool) -> None:
        self._fake.setwarnings(flag)

    def setup(self, channel: int, direction: int, pull_up_down: int | None = None, initial: int | None = None) -> None:
        self._fake.setup(channel, direction, pull_up_down=pull_up_down)
        self.functions[channel] = direction
        if direction == self._fake.IN and channel not in self.driven:  # the pull sets an open input's level
            self.levels[channel] = 1 if pull_up_down == self._fake.PUD_UP else 0
        elif initial is not None:
            self.levels[channel] = 1 if initial else 0
        self._pi.record(
            "gpio.setup",
            pin=channel,
            direction="in" if direction == self._fake.IN else "out",
            pull=pull_up_down,
            initial=initial,
        )

    def output(self, channel: int, level: int) -> None:
        self._fake.output(channel, level)
        self.levels[channel] = 1 if level else 0
        self._pi.record("gpio.output", pin=channel, level=self.levels[channel])

    def input(self, channel: int) -> int:
        return self.levels.get(channel, 0)

    def gpio_function(self, channel: int) -> int:  # fake-rpi says OUT for every pin
        return self.functions.get(channel, self._fake.IN)

    def add_event_detect(
        self, channel: int, edge: int, callback: Callable[[int], None] | None = None, bouncetime: int | None = None
    ) -> None:
        if callback is not None:
            self.callbacks[channel] = callback
        self._pi.record("gpio.add_event_detect", pin=channel, edge=edge)

    def remove_event_detect(self, channel: int) -> None:
        self.callbacks.pop(channel, None)

    def cleanup(self, channel: Any = None) -> None:
        self._fake.cleanup(channel)
        self._pi.record("gpio.cleanup", pin=channel)

    def drive(self, channel: int, level: int) -> None:
        """What the outside world does to an input: set its level, fire its edge callback."""
        self.driven.add(channel)
        if self.levels.get(channel) == level:
            return
        self.levels[channel] = level
        callback = self.callbacks.get(channel)
        if callback is not None:
            callback(channel)


# --- Blinka's board and busio --------------------------------------------------------------------
class Pin:
    """Blinka's `microcontroller.Pin`: a GPIO number."""

    def __init__(self, number: int) -> None:
        self.id = number

    def __repr__(self) -> str:
        return f"board.D{self.id}"

    def __eq__(self, other: object) -> bool:
        return isinstance(other, Pin) and other.id == self.id

    def __hash__(self) -> int:
        return hash(self.id)


def _busio_module(pi: FakePi) -> types.ModuleType:
    class SPI:
        """Blinka's `busio.SPI` on a stood-in /dev/spidevP.0: records every write."""

        def __init__(self, clock: Pin, MOSI: Pin | None = None, MISO: Pin | None = None) -> None:  # noqa: N803
            pins = (clock.id, MOSI.id if MOSI else None, MISO.id if MISO else None)
            ports = {SPI0_PINS: 0, SPI1_PINS: 1}
            self.port = next((port for wiring, port in ports.items() if wiring[:2] == pins[:2]), None)
            if self.port is None:
                raise ValueError(f"No Hardware SPI on (SCLK, MOSI, MISO)={pins}")
            if (self.port, 0) not in pi.spi:  # Blinka opens /dev/spidevP.0 through Adafruit_PureIO
                raise FileNotFoundError(errno.ENOENT, "No such file or directory", f"/dev/spidev{self.port}.0")
            self._locked = False
            self.baudrate = 100_000
            pi.record("busio.open", port=self.port)

        def try_lock(self) -> bool:
            if self._locked:
                return False
            self._locked = True
            return True

        def unlock(self) -> None:
            self._locked = False

        def configure(self, *, baudrate: int = 100_000, polarity: int = 0, phase: int = 0, bits: int = 8) -> None:
            if not self._locked:
                raise RuntimeError("First call try_lock()")
            self.baudrate = baudrate
            pi.record("busio.configure", port=self.port, baudrate=baudrate, polarity=polarity, phase=phase)

        @property
        def frequency(self) -> int:
            return self.baudrate

        def write(self, buf: bytes | bytearray, start: int = 0, end: int | None = None) -> None:
            if not self._locked:
                raise RuntimeError("First call try_lock()")
            pi.record("busio.write", port=self.port, baudrate=self.baudrate, data=list(buf[start:end]))

        def deinit(self) -> None:
            pi.record("busio.deinit", port=self.port)

    module = types.ModuleType("busio", "A recording stand-in for Blinka's busio (tests/pi_fakes)")
    module.SPI = SPI  # type: ignore[attr-defined]
    return module


def _board_module(busio: types.ModuleType) -> types.ModuleType:
    module = types.ModuleType("board", "A stand-in for Blinka's board on a Raspberry Pi (tests/pi_fakes)")
    for number in range(28):
        setattr(module, f"D{number}", Pin(number))
    module.SCLK, module.MOSI, module.MISO = (Pin(n) for n in SPI0_PINS)  # type: ignore[attr-defined]
    module.SCK = module.SCLK  # type: ignore[attr-defined]
    module.SDA, module.SCL = Pin(2), Pin(3)  # type: ignore[attr-defined]
    cache: list[Any] = []

    def SPI() -> Any:  # noqa: N802 (Blinka's name): one shared bus, as Blinka's board.SPI()
        if not cache:
            cache.append(busio.SPI(module.SCLK, module.MOSI, module.MISO))
        return cache[0]

    module.SPI = SPI  # type: ignore[attr-defined]
    return module


# --- in a subprocess -----------------------------------------------------------------------------
def sitecustomize_source(root: Path) -> str:
    """A `sitecustomize.py` that stands the Pi in for the process it starts in (put its folder
    on PYTHONPATH and the settings in $XTRABOARD_FAKE_PI)."""
    return (
        f"import sys\nsys.path.insert(0, {str(root)!r})\n"
        "from tests.pi_fakes import start_from_environment\nstart_from_environment()\n"
    )


def start_from_environment() -> FakePi | None:
    """Install a FakePi as $XTRABOARD_FAKE_PI says: {"record": FILE, "i2c": {"1": [60]},
    "spi": [[0, 0]], "gpio": true, "pins": FILE, "gpio_when": FILE}. Nothing without it.
    `gpio_when`: GPIO comes late (as /dev/gpiochip0 after a slow udev): gpiozero finds its
    mock pins only once FILE exists."""
    settings = os.environ.get(ENV)
    if not settings:
        return None
    if "faketime" in os.environ.get("LD_PRELOAD", "") and os.environ.get("FAKETIME_DONT_FAKE_MONOTONIC") == "1":
        time.sleep = _pause  # libfaketime issue 426: see `_pause`; a Pi's own clock has no such bug
    options = json.loads(settings)
    pi = FakePi(
        i2c={int(bus): addresses for bus, addresses in options.get("i2c", {"1": [0x3C]}).items()},
        spi=[tuple(device) for device in options.get("spi", [[0, 0], [0, 1]])],
        record_to=Path(options["record"]),
    )
    pi.install(gpio=options.get("gpio", True))
    atexit.register(pi.close)  # the record file, before the interpreter's last collection warns about it
    record_mock_pwm(pi)
    if options.get("gpio_when"):
        threading.Thread(target=gpio_when, args=(Path(options["gpio_when"]),), name="fake-pi-gpio", daemon=True).start()
    if options.get("pins"):
        threading.Thread(target=drive_pins, args=(Path(options["pins"]),), name="fake-pi-pins", daemon=True).start()
    return pi


def record_mock_pwm(pi: FakePi) -> None:
    """Record every PWM frequency gpiozero's MockPWMPin is given (the buzzer's notes, in a
    subprocess whose pins are MockFactory's: GPIOZERO_MOCK_PIN_CLASS=mockpwmpin)."""
    from gpiozero.pins.mock import MockPWMPin

    set_frequency = MockPWMPin._set_frequency

    def recording(pin: Any, value: float | None) -> None:
        set_frequency(pin, value)
        pi.record("pwm.frequency", pin=pin.info.name, frequency=value)

    MockPWMPin._set_frequency = recording  # type: ignore[method-assign]


def _pause(seconds: float) -> None:
    """time.sleep, but not through clock_nanosleep: under libfaketime 0.9.10 with
    FAKETIME_DONT_FAKE_MONOTONIC=1 Python 3.11's time.sleep fails with EINVAL (libfaketime
    issue 426), and the clock tests run the stood-in Pi so."""
    threading.Event().wait(seconds)


def gpio_when(path: Path, poll_s: float = 0.05) -> None:
    """Let gpiozero choose its mock pins once `path` exists (it reads $GPIOZERO_PIN_FACTORY at each try)."""
    while not path.exists():
        _pause(poll_s)
    os.environ["GPIOZERO_PIN_FACTORY"] = "mock"


def drive_pins(path: Path, poll_s: float = 0.02) -> None:
    """Drive gpiozero's pins as the lines appended to `path` say ("low 6", "high 6"), for ever."""
    done = 0
    while True:
        lines = path.read_text(encoding="utf-8").splitlines(keepends=True) if path.exists() else []
        complete = [line for line in lines if line.endswith("\n")]
        for line in complete[done:]:
            from gpiozero import Device

            level, number = line.split()
            while Device.pin_factory is None:  # the board has not chosen its factory yet
                _pause(poll_s)
            pin = Device.pin_factory.pin(int(number))
            pin.drive_low() if level == "low" else pin.drive_high()
        done = len(complete)
        _pause(poll_s)


# --- reading a greyscale panel's RAM back ----------------------------------------------------------
class GreyscaleRam:
    """An SSD1322's or SSD1327's RAM rebuilt from what luma sends it: a window set by 0x15
    (columns) and 0x75 (rows), then 4-bit pixels, two a byte, filling the window row by row.

    The SSD1322 counts columns in 4 pixels from its RAM's column (480 - width) / 2, first pixel in
    the high nibble; the SSD1327 counts them in bytes of 2 pixels, first pixel in the low nibble.
    """

    def __init__(self, driver: str, width: int, height: int) -> None:
        if driver not in ("ssd1322", "ssd1327"):
            raise ValueError(f"no greyscale decoder for {driver!r}")
        self.driver, self.width, self.height = driver, width, height
        self.unit, self.offset = (4, (480 - width) // 2) if driver == "ssd1322" else (2, 0)
        self.grey = bytearray(width * height)
        self.window(self.offset // self.unit, (self.offset + width) // self.unit - 1, 0, height - 1)

    def window(self, first_column: int, last_column: int, first_row: int, last_row: int) -> None:
        self.left = first_column * self.unit - self.offset
        self.span = (last_column - first_column + 1) * self.unit
        self.top, self.rows = first_row, last_row - first_row + 1
        self.cursor = 0

    def data(self, data: Iterable[int]) -> None:
        for byte in data:
            high, low = byte >> 4, byte & 0x0F
            for grey in (high, low) if self.driver == "ssd1322" else (low, high):
                x, y = self.left + self.cursor % self.span, self.top + self.cursor // self.span % self.rows
                if 0 <= x < self.width and 0 <= y < self.height:
                    self.grey[y * self.width + x] = grey
                self.cursor += 1

    def feed_spi(self, transfers: Iterable[tuple[int, bytes]]) -> GreyscaleRam:
        """An SSD1322 over SPI: a command byte with DC low, its arguments and pixels with DC high."""
        command, args = None, bytearray()
        columns: tuple[int, ...] = ()
        rows: tuple[int, ...] = ()
        for level, data in transfers:
            if level == 0:
                command, args = data[-1], bytearray()
                if command == 0x5C and columns and rows:  # write RAM: into the window just set
                    self.window(*columns, *rows)
            elif command == 0x5C:
                self.data(data)
            else:
                args += data
                if len(args) == 2 and command == 0x15:
                    columns = tuple(args)
                elif len(args) == 2 and command == 0x75:
                    rows = tuple(args)
        return self

    def feed_i2c(self, writes: Iterable[tuple[int, bytes]]) -> GreyscaleRam:
        """An SSD1327 over I2C: its window is one command write `0x15 a b 0x75 c d`, then data writes."""
        for _, payload in writes:
            control, body = payload[0], payload[1:]
            if control == 0x00 and len(body) == 6 and body[0] == 0x15 and body[3] == 0x75:
                self.window(body[1], body[2], body[4], body[5])
            elif control == 0x40:
                self.data(body)
        return self

    def levels(self) -> bytes:
        """The 4-bit level of every pixel, row by row."""
        return bytes(self.grey)


def grey_levels(rgb: bytes) -> bytes:
    """The 4-bit levels luma sends for RGB pixels (its own integer luma formula)."""
    return bytes((rgb[i] * 306 + rgb[i + 1] * 601 + rgb[i + 2] * 117) >> 14 for i in range(0, len(rgb), 3))
