"""The board's hardware as one explicitly passed object, opened for the Pi or as mocks.

Buttons are required (the board cannot be played without them); a missing LED chain or display
is noted in `problems` and play continues with what works.

>>> hardware = open_hardware(config, "mock")  # doctest: +SKIP
>>> hardware.pin_factory.pin(config.buttons.pins["ok"]).drive_low()  # doctest: +SKIP
>>> hardware.edges.get_nowait()  # doctest: +SKIP
RawEdge(name='ok', pressed=True, t=...)
"""

from __future__ import annotations

import collections
import queue
import sys
import time
import warnings
from functools import cache
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any, Literal, Protocol

from adafruit_pixelbuf import PixelBuf

from firmware.errors import N_, HardwareError, Text
from firmware.hardware.buttons import ButtonInputs, RawEdge
from firmware.hardware.config import BoardConfig, LedsConfig
from firmware.hardware.display import Display, dummy_device, make_luma_device
from firmware.hardware.leds import LedChain, from_config, memory_pixels
from firmware.hardware.sound import Buzzer, open_buzzer


class GpioMissing(HardwareError):
    """No GPIO access, so the buttons cannot be read (firmware.fault_mode waits for it)."""


Backend = Literal["pi", "mock"]
BACKENDS: tuple[str, ...] = ("pi", "mock")


class BoardHardware(Protocol):
    """What the board loop (firmware.board_loop.Board) drives: a `Hardware` opened here, for
    the Pi or as mocks (the simulator's board, sim/board.py). `display` is dropped (None) when
    its cable comes loose mid-game."""

    config: BoardConfig
    buttons: ButtonInputs
    leds: LedChain | None
    display: Display | None
    problems: list[str]
    # where the buttons' RawEdges go, unless elsewhere: the loop's own queue once it runs (object:
    # the loop posts its other events there too)
    edges: queue.SimpleQueue[object] | None
    buzzer: Buzzer | None  # a gpiozero TonalBuzzer: only firmware.hardware.sound plays it

    @property
    def clock(self) -> Callable[[], float]: ...

    def close(self) -> None: ...


@dataclass
class Hardware:
    """Everything the loop drives; `problems` lists missing parts the game can do without."""

    config: BoardConfig
    buttons: ButtonInputs
    leds: LedChain | None
    display: Display | None
    clock: Callable[[], float]
    problems: list[str] = field(default_factory=list)
    backend: str = "mock"
    # Any: gpiozero has no type hints; the factory (MockFactory: drive its pins in the simulator/tests)
    pin_factory: Any = None
    edges: queue.SimpleQueue[object] | None = None  # where edges go unless `emit` was given (BoardHardware)
    display_info: str = ""  # e.g. "ssd1306 128×64 on I2C bus 1 at 0x3C"
    buzzer: Buzzer | None = None  # gpiozero TonalBuzzer of [buzzer], None when not fitted (firmware.hardware.sound)

    def close(self) -> None:
        """Turn the LEDs off, blank the display, release the pins; safe to call twice."""
        self.buttons.close()
        if self.buzzer is not None:
            self.buzzer.close()
        if self.leds is not None:
            self.leds.close()
        if self.display is not None:
            self.display.close()

    def __enter__(self) -> Hardware:
        return self

    def __exit__(self, *exc_info: object) -> None:
        self.close()


def open_hardware(
    config: BoardConfig,
    backend: Backend = "mock",
    *,
    emit: Callable[[RawEdge], None] | None = None,
    clock: Callable[[], float] = time.monotonic,
    pin_factory: Any = None,  # Any: gpiozero has no type hints
    pixels: PixelBuf | None = None,
    display_device: Any = None,  # Any: luma has no type hints (a device of its driver classes)
    serial: Any = None,  # Any: luma's serial interfaces, untyped too
) -> Hardware:
    """Open the board: backend "pi" (real GPIO, NeoPixel, luma on its bus) or "mock".

    The keyword arguments replace one part each: `pin_factory` (gpiozero), `pixels` (a PixelBuf),
    `display_device` (a luma device) or `serial` (a luma serial interface for the configured
    driver, e.g. luma's `i2c(bus=…)` on a recording bus). Without `emit`, edges go to `Hardware.edges`.
    """
    if backend not in BACKENDS:
        raise ValueError(f"hardware: backend {backend!r} is not one of {', '.join(BACKENDS)}")
    problems: list[str] = []
    edges: queue.SimpleQueue[object] | None = None
    if emit is None:
        edges = queue.SimpleQueue()
        emit = edges.put
    buzzer_factory = pin_factory
    if pin_factory is None:
        pin_factory = _pi_pin_factory(problems) if backend == "pi" else _mock_pin_factory()
        if backend == "mock":  # the buzzer on gpiozero's PWM mock pins (MockPin has no PWM)
            from gpiozero.pins.mock import MockFactory

            buzzer_factory = MockFactory(pin_class=_mock_pin_classes()[1])
    buttons = ButtonInputs(config.buttons, emit, pin_factory=pin_factory, clock=clock)
    try:
        leds = _open_leds(config.leds, backend, pixels, problems)
        display, info = _open_display(config, backend, display_device, serial, problems)
        buzzer = open_buzzer(config.buzzer, buzzer_factory or pin_factory, problems)
    except BaseException:
        buttons.close()
        raise
    return Hardware(
        config=config,
        buttons=buttons,
        leds=leds,
        display=display,
        clock=clock,
        problems=problems,
        backend=backend,
        pin_factory=pin_factory,
        edges=edges,
        display_info=info,
        buzzer=buzzer,
    )


@dataclass
class Outputs:
    """The LED chain and the display alone, for a board whose buttons are missing
    (firmware.fault_mode); `problems` as in `Hardware`."""

    leds: LedChain | None
    display: Display | None
    problems: list[str] = field(default_factory=list)

    def close(self) -> None:
        """LEDs off, display blank; safe to call twice."""
        if self.leds is not None:
            self.leds.close()
            self.leds = None
        if self.display is not None:
            self.display.close()
            self.display = None

    def reuse(self) -> dict[str, Any]:  # Any: PixelBuf and luma's untyped device
        """What `open_hardware` takes over (pixels=, display_device=) instead of opening it again."""
        return {
            "pixels": self.leds.pixels if self.leds is not None else None,
            "display_device": self.display.device if self.display is not None else None,
        }


def open_outputs(config: BoardConfig, backend: Backend = "pi") -> Outputs:
    """Open only what shows things (the LEDs, the display): each may be missing (`problems`)."""
    problems: list[str] = []
    leds = _open_leds(config.leds, backend, None, problems)
    try:
        display, _ = _open_display(config, backend, None, None, problems)
    except BaseException:
        if leds is not None:
            leds.close()
        raise
    return Outputs(leds, display, problems)


def open_gpio() -> Any:  # Any: a gpiozero pin factory, untyped
    """gpiozero's pin factory for the Pi, or GpioMissing saying why there is none."""
    return _pi_pin_factory([])


def describe_display(config: BoardConfig) -> str:
    """The configured display in a few words, e.g. "ssd1306 128×64 on I2C bus 1 at 0x3C"."""
    cfg = config.display
    where = f"I2C bus {cfg.port} at 0x{cfg.address:02X}" if cfg.interface == "i2c" else f"SPI{cfg.port} CE{cfg.device}"
    return f"{cfg.driver} {cfg.width}×{cfg.height} on {where}"


PIN_HISTORY = 64  # state changes a simulated pin keeps (gpiozero's MockPin keeps every one)


def _mock_pin_factory() -> Any:  # Any: gpiozero's MockFactory, untyped
    from gpiozero.pins.mock import MockFactory

    return MockFactory(pin_class=_mock_pin_classes()[0])


@cache
def _mock_pin_classes() -> tuple[type, type]:
    """gpiozero's MockPin and MockPWMPin keeping only their last PIN_HISTORY states.

    gpiozero appends every change of a mock pin to `pin.states`, for tests to check; a simulated
    board on the bench or a desktop demo runs for days, and each buzzer note and each button
    press would stay in memory for good (about 60 KB a game)."""
    from gpiozero.pins.mock import MockPin, MockPWMPin

    def clear_states(self: Any) -> None:  # Any: gpiozero's MockPin, untyped
        MockPin.clear_states(self)
        self.states = collections.deque(self.states, maxlen=PIN_HISTORY)  # .append drops the oldest

    bounded = {"clear_states": clear_states, "__doc__": f"A mock pin keeping its last {PIN_HISTORY} states."}
    return (type("BoundedMockPin", (MockPin,), dict(bounded)), type("BoundedMockPWMPin", (MockPWMPin,), dict(bounded)))


def _pip() -> str:
    """The pip of the Python running now: the board runs in its own venv, which Debian's
    python3-lgpio package never reaches."""
    return f"{sys.executable or 'python3'} -m pip"


def _pi_pin_factory(problems: list[str]) -> Any:  # Any: a gpiozero pin factory, untyped
    from gpiozero import Device
    from gpiozero.exc import NativePinFactoryFallback

    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        try:
            Device.ensure_pin_factory()
        except Exception as error:
            tried = "; ".join(str(w.message).removeprefix("Falling back from ") for w in caught) or str(error)
            raise GpioMissing(
                Text(
                    N_(
                        "buttons: no GPIO access ({tried}). Check that this is a Raspberry Pi, that the user "
                        "is in the gpio group (sudo adduser $USER gpio), and that lgpio is installed in the "
                        "Python that runs the board ({pip} install lgpio; systemd/install.sh does it)"
                    ),
                    tried=tried,
                    pip=_pip(),
                )
            ) from error
    if any(issubclass(w.category, NativePinFactoryFallback) for w in caught):
        problems.append(
            Text(
                N_("buttons: using gpiozero's slower native GPIO driver; install lgpio ({pip} install lgpio)"),
                pip=_pip(),
            )
        )
    return Device.pin_factory


def _open_leds(cfg: LedsConfig, backend: str, pixels: PixelBuf | None, problems: list[str]) -> LedChain | None:
    if pixels is None and backend == "mock":
        pixels = memory_pixels(cfg)
    if pixels is None:
        try:
            pixels = _neopixels(cfg)
        except Exception as error:  # import, platform, permission: all mean "no LEDs", play on
            if cfg.driver == "spi" and isinstance(error, FileNotFoundError):  # no /dev/spidev0.0: SPI is off
                problems.append(
                    Text(
                        N_(
                            "LEDs: {device} does not exist, so SPI is not enabled; enable it "
                            "(raspi-config → Interface Options → SPI) and reboot; playing without LEDs"
                        ),
                        device=error.filename or "/dev/spidev0.0",
                    )
                )
                return None
            need = (
                Text(N_("that SPI is enabled (raspi-config → Interface Options → SPI)"))
                if cfg.driver == "spi"
                else Text(N_("that the board runs as root (PWM on GPIO{pin} needs /dev/mem)"), pin=cfg.pin)
            )
            problems.append(
                Text(
                    N_(
                        "LEDs: the NeoPixel chain on GPIO{pin} ({driver}) could not be opened ({error}); "
                        "check that the pi extra is installed (pip install 'xtraboard[pi]': {package}) and {need}; "
                        "playing without LEDs"
                    ),
                    pin=cfg.pin,
                    driver=cfg.driver,
                    error=error,
                    need=need,
                    package=f"adafruit-circuitpython-neopixel{'-spi' if cfg.driver == 'spi' else ''}",
                )
            )
            return None
    return from_config(cfg, pixels)


def _neopixels(cfg: LedsConfig) -> PixelBuf:
    # Only the Pi backend gets here: nothing else imports neopixel/board.
    import board

    if cfg.driver == "spi":
        # SPI0 MOSI (GPIO10) through /dev/spidev0.0: no root needed, unlike the PWM driver.
        import neopixel_spi

        return neopixel_spi.NeoPixel_SPI(
            board.SPI(), cfg.count, brightness=cfg.brightness, auto_write=False, pixel_order=cfg.order
        )
    import neopixel

    pin = getattr(board, f"D{cfg.pin}")
    return neopixel.NeoPixel(pin, cfg.count, brightness=cfg.brightness, auto_write=False, pixel_order=cfg.order)


def _open_display(  # Any: luma's device and serial interface, untyped
    config: BoardConfig, backend: str, device: Any, serial: Any, problems: list[str]
) -> tuple[Display | None, str]:
    cfg = config.display
    if device is None and serial is None and backend == "mock":
        return Display(dummy_device(cfg)), f"{describe_display(config)} (simulated)"
    if device is None:
        try:
            device = make_luma_device(cfg, serial=serial)
        except HardwareError as error:
            problems.append(Text(N_("{error}; playing without the display"), error=error))
            return None, ""
    return Display(device), describe_display(config)
