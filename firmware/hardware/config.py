"""The board as data: `hardware/board.toml` loaded into frozen dataclasses and validated.

Cell names (the only way code refers to an LED) are declared by the games, each in its spec
(`firmware.games.layout.CellGroup`), besides the board's own: `dice.D.P`, pip P (0–6: top-left,
top-right, mid-left, centre, mid-right, bottom-left, bottom-right) of die D (0–4), and
`seat.0` … `seat.5`, the players' seats. A description maps exactly the cells of the games the
board knows (`firmware.games.registry.board_layout()`): one it maps that no game declares, or one a
game needs that it misses, is an error naming it.

A description may build on another: `extends = "FILE"` (see `read_layered`).
"""

from __future__ import annotations

import ipaddress
import os
import re
import tomllib
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field, fields, is_dataclass, replace
from difflib import get_close_matches
from importlib import resources
from itertools import permutations
from pathlib import Path, PurePosixPath
from typing import cast

from firmware.errors import ConfigError
from firmware.games.layout import DICE, SEATS, CellGroup
from firmware.games.registry import board_layout, cell_owners
from firmware.i18n import LANGUAGES, _, ngettext, tr
from firmware.input_files import NotRegularFile, TooLarge, read_regular_file

BUTTON_NAMES = ("roll", "ok", "back", "left", "right")
PIPS_PER_DIE = DICE.rows[0][1]
DICE_COUNT = len(DICE.rows)
SEAT_COUNT = SEATS.count

# An engine's address space unless its [[engines]] entry says memory_mb: room for the board's own
# engine (about 200 MB with numpy), well short of what would starve the board on a Pi.
ENGINE_MEMORY_MB = 512
BOARD_ENV = "XTRABOARD_BOARD"  # path of the board description when load_board() gets none
# The operator's board description on an installed board (install.sh creates it). A module
# constant so that tests can point it elsewhere.
SYSTEM_BOARD = Path("/etc/xtraboard/board.toml")
I2C_PINS = (2, 3)  # I2C1 SDA, SCL: the OLED's bus
SPI_PINS = (7, 8, 9, 10, 11)  # SPI0 CE1, CE0, MISO, MOSI, SCLK
# SPI1 (dtoverlay=spi1-1cs … spi1-3cs): MISO, MOSI, SCLK, and its chip selects CE0, CE1, CE2.
SPI1_PINS = (19, 20, 21)
SPI_CHIP_SELECTS = {0: (8, 7), 1: (18, 17, 16)}  # SPI port → the GPIO of each device's CE line
LED_DRIVER_PINS = {"pwm": (18, 12, 21), "spi": (10,)}  # what the NeoPixel library can drive
DISPLAY_DRIVERS = (  # luma.oled device classes on I2C or SPI
    "ssd1305",
    "ssd1306",
    "ssd1309",
    "ssd1315",
    "ssd1316",
    "ssd1322",
    "ssd1322_nhd",
    "ssd1325",
    "ssd1327",
    "ssd1331",
    "ssd1351",
    "ssd1362",
    "ssd1363",
    "sh1106",
    "sh1107",
    "ch1115",
)
# Drivers whose panel shows 16 greys: `mode = "L"` lets renderers use grey (luma drives them in "RGB").
GREYSCALE_DRIVERS = ("ssd1322", "ssd1322_nhd", "ssd1325", "ssd1327", "ssd1362", "ssd1363")
LED_ORDERS = tuple("".join(p) for n in ("RGB", "RGBW") for p in permutations(n))


def cell_names(layout: tuple[CellGroup, ...] | None = None) -> list[str]:
    """Every cell a board must map (of `layout`; default: the games known and the board's own),
    in a stable order: the games' groups in their order, then the dice and the seats."""
    return [name for group in (board_layout() if layout is None else layout) for name in group.names()]


DEBOUNCE_MS = 20.0  # the default debounce window; the simulator's taps are derived from it
HOLD_S = 1.0  # the default long press (BACK held: the menu); scripted holds are derived from it


@dataclass(frozen=True)
class ButtonsConfig:
    pins: dict[str, int]  # BCM pin per name in BUTTON_NAMES
    tilt: int | None = None  # optional tilt/shake switch; rolls like ROLL
    pull_up: bool = True
    debounce_ms: float = DEBOUNCE_MS
    hold_s: float = HOLD_S


@dataclass(frozen=True)
class Cell:
    leds: tuple[int, ...]  # LED indices on the chain (one or more)
    x: float  # physical position on the board, millimetres from the top-left corner
    y: float


@dataclass(frozen=True)
class LedsConfig:
    driver: str  # "pwm" (GPIO18) or "spi" (GPIO10)
    pin: int
    count: int
    order: str  # "GRB" for WS2812B
    brightness: float  # 0.0–1.0
    budget_amps: float  # the firmware scales frames down to stay under this
    ma_per_channel: float  # current of one colour channel at full value (WS2812B: ~20 mA)
    cells: dict[str, Cell] = field(default_factory=dict)


@dataclass(frozen=True)
class DisplayConfig:
    driver: str  # a luma.oled device class name, e.g. "ssd1306", "sh1106"
    interface: str  # "i2c" or "spi"
    port: int  # I2C bus / SPI port
    address: int  # I2C address, e.g. 0x3C
    width: int
    height: int
    rotate: int  # 0–3, luma's quarter turns
    dc_pin: int | None = None  # SPI displays only: data/command line (luma's default GPIO24)
    reset_pin: int | None = None  # SPI displays only: reset line (luma's default GPIO25)
    device: int = 0  # SPI displays only: which chip select of the port (CE0, CE1, …)
    mode: str = "1"  # "1" monochrome, "L" greyscale (a GREYSCALE_DRIVERS panel)
    size_mm: tuple[float, float] = (21.74, 10.86)  # the active area in mm (a 0.96″ 128×64)

    @property
    def cs_pin(self) -> int | None:
        """The GPIO of an SPI display's chip select (fixed by port and device), else None."""
        return SPI_CHIP_SELECTS[self.port][self.device] if self.interface == "spi" else None


@dataclass(frozen=True)
class FleetConfig:
    """The optional `[fleet]` section: report to the café's MQTT broker (docs/fleet.md)."""

    table: str  # this board's name in topics and in Home Assistant: letters, digits, - and _
    broker: str  # host name or address
    port: int = 1883  # 8883 with TLS unless given
    tls: bool = False
    ca_file: Path | None = None  # TLS: the broker's CA (default: the system's)
    username: str | None = None
    password_file: Path | None = None  # read when connecting; keep it 0600, out of the description
    topic_prefix: str = "xtraboard"
    discovery_prefix: str = "homeassistant"


@dataclass(frozen=True)
class OperatorConfig:
    """Where the operator's code is kept (docs/kiosk.md): a salted hash written by `xtraboard
    operator set-code`, by default `operator-code` beside the board description. There is no
    default code: without that file there is no operator mode."""

    code_file: Path


@dataclass(frozen=True)
class DebugConfig:
    """The bench's debug service (firmware.debug): off unless `enabled`. TCP binds loopback
    unless `allow_remote` (a bench on another machine, on a network you trust)."""

    enabled: bool = False
    host: str = "127.0.0.1"
    port: int | None = None  # TCP port (0: any free one)
    socket_path: Path | None = None  # a Unix socket, as well or instead
    serial: Path | None = None  # a serial console device, e.g. /dev/ttyGS0
    allow_remote: bool = False


@dataclass(frozen=True)
class EngineConfig:
    """One `[[engines]]` entry: an external XDP engine (docs/engine-protocol.md) offered as a
    seat ("Engine: NAME") beside the built-in bot levels."""

    name: str  # as shown on the seat menu and kept in the record ("bot": "engine:NAME")
    command: tuple[str, ...]  # the program and its arguments (no shell)
    timeout_s: float = 5.0  # beyond movetime: longer without an answer is a hang
    movetime_ms: int | None = None  # the thinking time asked for each decision (None: the engine's own)
    options: tuple[tuple[str, str], ...] = ()  # setoption name/value pairs, in order
    memory_mb: int = ENGINE_MEMORY_MB  # its address space in its box (firmware.xdp.sandbox); past it, it fails


@dataclass(frozen=True)
class BuzzerConfig:
    """The optional `[buzzer]` section: a piezo buzzer driven by gpiozero's TonalBuzzer."""

    pin: int  # BCM GPIO; the tone is PWM at the note's frequency
    mid_tone: str = "A5"  # the middle of its range (880 Hz); cues stay within `octaves` of it
    octaves: int = 2


@dataclass(frozen=True)
class BoardConfig:
    path: Path
    name: str
    size_mm: tuple[float, float]  # board outline, for drawings and the simulator
    buttons: ButtonsConfig
    leds: LedsConfig
    display: DisplayConfig
    button_positions: dict[str, tuple[float, float]] = field(default_factory=dict)  # mm, for drawings
    display_position: tuple[float, float] = (0.0, 0.0)  # mm, top-left of the OLED
    fleet: FleetConfig | None = None  # the opt-in MQTT report, None when not configured
    debug: DebugConfig = DebugConfig()  # [debug]: the bench's debug service (off by default)
    operator: OperatorConfig | None = None  # where the operator's code file is (None: a board built in code)
    language: str = "en"  # [board] language: what the board speaks until its settings say otherwise
    engines: tuple[EngineConfig, ...] = ()  # [[engines]]: external XDP engines offered as seats
    buzzer: BuzzerConfig | None = None  # [buzzer]: the optional piezo buzzer, None when not fitted
    layout: tuple[CellGroup, ...] = ()  # the groups of cells the description was checked against


def named_files(config: object) -> list[Path]:
    """Every path in `config` (a BoardConfig, walked through its sections): the description
    itself and each file, socket or device it names, such as the operator's code file, the MQTT
    password file, the debug socket. Engines' boxes hide them all (firmware.xdp.sandbox): walked
    rather than listed, so a key added with a path is hidden without anyone remembering to."""
    found: list[Path] = []

    def walk(value: object) -> None:
        if isinstance(value, Path):
            found.append(value)
        elif is_dataclass(value) and not isinstance(value, type):
            for part in fields(value):
                walk(getattr(value, part.name))
        elif isinstance(value, list | tuple):
            for item in value:
                walk(item)
        elif isinstance(value, dict):
            for item in value.values():
                walk(item)

    walk(config)
    return found


def default_board_path() -> Path:
    """The board description shipped with the firmware: `hardware/board.toml`.

    The package reaches it as `firmware/boards/board.toml` (a link to `hardware/` in a checkout, a
    copy in the wheel), so an installed board finds it as well as a checkout does.
    """
    shipped = Path(str(resources.files("firmware") / "boards" / "board.toml"))
    # Resolving names the checkout's `hardware/board.toml` itself, the file a developer edits.
    return shipped.resolve()


def find_board_path(environ: Mapping[str, str] | None = None) -> Path:
    """The board description to use when none is named: the first of $XTRABOARD_BOARD,
    /etc/xtraboard/board.toml (SYSTEM_BOARD, the operator's copy, if it exists) and the
    shipped default.

    >>> find_board_path({BOARD_ENV: "/home/pi/bench.toml"})
    PosixPath('/home/pi/bench.toml')
    """
    env = os.environ if environ is None else environ
    named = env.get(BOARD_ENV, "")
    if named:
        return Path(named)
    try:
        SYSTEM_BOARD.stat()
    except (FileNotFoundError, NotADirectoryError):
        return default_board_path()
    except OSError:
        pass  # there but unreadable: loading it names the file and the reason, not a silent fallback
    return SYSTEM_BOARD


def load_board(path: Path | str | None = None) -> BoardConfig:
    """Load and validate a board description; ConfigError names the file, key and expectation.

    Without `path` the search order of find_board_path() decides: $XTRABOARD_BOARD, then
    /etc/xtraboard/board.toml, then the shipped default.

    >>> load_board().leds.cells["ladder.5"]  # doctest: +SKIP
    Cell(leds=(24,), x=40.0, y=110.0)
    """
    source = Path(path) if path is not None else find_board_path()
    data, origins = read_layered(source)
    top = _Table(source, data, origins=origins)
    board = top.table("board")
    name = board.string("name")
    size = board.size("size_mm")
    language = board.string("language", LANGUAGES) if board.present("language") else "en"
    board.done()
    leds = _leds(top.table("leds"))
    display, display_position = _display(top.table("display"), leds, size)
    buttons, button_positions = _buttons(top.table("buttons"), leds, display, size)
    layout = _layout(top)
    cells = _cells(top.table("cells"), leds.count, size, layout)
    fleet = _fleet(top.table("fleet")) if top.present("fleet") else None
    debug = _debug(top.table("debug")) if top.present("debug") else DebugConfig()
    operator = (
        _operator(top.table("operator"))
        if top.present("operator")
        else OperatorConfig(code_file=source.parent / CODE_FILE_NAME)
    )
    engines = _engines(top) if top.present("engines") else ()
    buzzer = _buzzer(top.table("buzzer"), leds, display, buttons) if top.present("buzzer") else None
    top.done()
    return BoardConfig(
        path=source,
        name=name,
        size_mm=size,
        buttons=buttons,
        leds=replace(leds, cells=cells),
        display=display,
        button_positions=button_positions,
        display_position=display_position,
        fleet=fleet,
        debug=debug,
        operator=operator,
        engines=engines,
        language=language,
        buzzer=buzzer,
        layout=layout,
    )


def _buzzer(table: _Table, leds: LedsConfig, display: DisplayConfig, buttons: ButtonsConfig) -> BuzzerConfig:
    """`[buzzer]`: `pin`, and optionally `mid_tone` (a note such as "A5") and `octaves` (1–3)."""
    taken = _reserved_pins(leds, display) | {
        pin: _("already used by {key}").format(key=f"buttons.pins.{name}") for name, pin in buttons.pins.items()
    }
    if buttons.tilt is not None:
        taken[buttons.tilt] = _("already used by {key}").format(key="buttons.tilt")
    pin = table.gpio("pin", taken=taken)
    options: dict[str, object] = {}
    if table.present("mid_tone"):
        tone = table.string("mid_tone", expected=_('a note from "A4" to "A6", e.g. "A5"'))
        if not re.fullmatch(r"[A-G][#b]?[4-6]", tone):
            raise table.fail(
                "mid_tone", _('"{tone}" is not a note; expected a note from "A4" to "A6", e.g. "A5"').format(tone=tone)
            )
        options["mid_tone"] = tone
    if table.present("octaves"):
        options["octaves"] = table.integer("octaves", 1, 3)
    table.done()
    return BuzzerConfig(pin=pin, **options)  # type: ignore[arg-type]  # only fields checked above, with their types


def is_loopback(host: str) -> bool:
    """127.0.0.0/8, ::1 and "localhost" are loopback; names are not resolved.

    >>> is_loopback("127.0.0.1"), is_loopback("::1"), is_loopback("0.0.0.0")
    (True, True, False)
    """
    if host == "localhost":
        return True
    try:
        return ipaddress.ip_address(host).is_loopback
    except ValueError:
        return False


def _debug(table: _Table) -> DebugConfig:
    """[debug]: enabled, host, port, socket, serial, allow_remote (all optional but enabled)."""
    enabled = table.boolean("enabled")
    host = table.string("host") if table.present("host") else "127.0.0.1"
    port = table.integer("port", 0, 65535) if table.present("port") else None
    socket_path = Path(table.string("socket")) if table.present("socket") else None
    serial = Path(table.string("serial")) if table.present("serial") else None
    allow_remote = table.boolean("allow_remote") if table.present("allow_remote") else False
    table.done()

    if enabled and port is not None and not allow_remote and not is_loopback(host):
        raise table.fail(
            "host",
            _(
                '"{host}" is not loopback; the debug service binds only 127.0.0.1 or ::1 unless allow_remote = true'
            ).format(host=host),
        )
    return DebugConfig(enabled, host, port, socket_path, serial, allow_remote)


_ENGINE_NAME = re.compile(r"[A-Za-z0-9 _.-]{1,16}")


def _engines(top: _Table) -> tuple[EngineConfig, ...]:
    """`[[engines]]`: name, command, and optional timeout_s, movetime_ms, options, memory_mb."""
    value = top.data["engines"]
    if not isinstance(value, list) or not value:
        raise top.fail("engines", _("expected [[engines]] tables, got {value}").format(value=_describe(value)))
    engines: list[EngineConfig] = []
    for index, entry in enumerate(value):
        if not isinstance(entry, dict):
            raise top.fail(
                "engines", _("expected [[engines]] tables, got {value} in the array").format(value=_describe(entry))
            )
        table = _Table(top.source, entry, ("engines", str(index)), top.origins)
        name = table.string("name", expected=_("1 to 16 letters, digits, spaces, '.', '_' or '-'"))
        if not _ENGINE_NAME.fullmatch(name):
            raise table.fail(
                "name",
                _('"{name}" is not a name; expected 1 to 16 letters, digits, spaces, ".", "_" or "-"').format(
                    name=name
                ),
            )
        if any(e.name == name for e in engines):
            raise table.fail(
                "name", _('"{name}" names two engines; expected a different name for each').format(name=name)
            )
        command = table._get("command", _('the program and its arguments, e.g. ["/usr/bin/myengine", "--xdp"]'))
        if (
            not isinstance(command, list)
            or not command
            or any(not isinstance(part, str) or not part for part in command)
        ):
            raise table.fail(
                "command",
                _(
                    "expected a non-empty array of non-empty strings (the program, then its arguments), got {value}"
                ).format(value=_describe(command)),
            )
        timeout_s = table.number("timeout_s", 0.0, 600.0, above_low=True) if table.present("timeout_s") else 5.0
        movetime = table.integer("movetime_ms", 1, 600_000) if table.present("movetime_ms") else None
        memory_mb = table.integer("memory_mb", 64, 65_536) if table.present("memory_mb") else ENGINE_MEMORY_MB
        options: tuple[tuple[str, str], ...] = ()
        if table.present("options"):
            option_table = table.table("options", expected=_("a table of option names and text values"))
            for key in option_table.data:
                option_table.string(key, expected=_("text (the value sent with setoption)"))
            options = tuple((str(k), str(v)) for k, v in option_table.data.items())
        table.done()
        engines.append(EngineConfig(name, tuple(command), timeout_s, movetime, options, memory_mb))
    return tuple(engines)


MAX_BOARD_BYTES = 1_000_000  # a board description is a few kilobytes; more is not one


def _read_description(source: Path) -> bytes:
    """The bytes of `source`, which must be a regular file of at most MAX_BOARD_BYTES: a FIFO
    would block the start for ever, a device such as /dev/zero never ends (firmware.input_files)."""
    try:
        return read_regular_file(source, MAX_BOARD_BYTES)
    except NotRegularFile:
        raise ConfigError(
            _("{file}: not a regular file; expected a board description (TOML)").format(file=source)
        ) from None
    except TooLarge:
        raise ConfigError(
            _("{file}: larger than {size} bytes; expected a board description (TOML)").format(
                file=source, size=MAX_BOARD_BYTES
            )
        ) from None


def _read_toml(source: Path) -> dict[str, object]:
    try:
        return tomllib.loads(_read_description(source).decode("utf-8"))
    except OSError as exc:
        reason = exc.strerror or str(exc)
        raise ConfigError(
            _("{file}: cannot read the board description ({reason}); expected a readable TOML file").format(
                file=source, reason=reason
            )
        ) from exc
    except UnicodeDecodeError as exc:
        raise ConfigError(
            _("{file}: not UTF-8 text ({reason} at byte {byte}); expected a TOML file").format(
                file=source, reason=exc.reason, byte=exc.start
            )
        ) from exc
    except tomllib.TOMLDecodeError as exc:
        raise ConfigError(_("{file}: not valid TOML: {error}").format(file=source, error=exc)) from exc
    except RecursionError as exc:  # tomllib recurses once per level of nesting
        raise ConfigError(
            _("{file}: arrays or tables nested too deeply; expected a board description (TOML)").format(file=source)
        ) from exc


# --- descriptions that extend others -----------------------------------------------------------
SHIPPED_PREFIX = "shipped:"  # `extends = "shipped:boards/ssd1322.toml"`: a description shipped with the firmware
MAX_EXTENDS = 8  # descriptions in one chain; more is a mistake, not a design

Origins = dict[tuple[str, ...], Path]  # key path → the file that gave it its value


def read_layered(source: Path) -> tuple[dict[str, object], Origins]:
    """The description at `source` with the ones it `extends` beneath it, merged: its tables
    merge key by key into the base's (a cell, a pin, a whole section), any other value replaces
    the base's, and `remove = ["buzzer", "buttons.tilt"]` drops sections or keys of the base
    first. Also returns which file each key came from, for error messages and relative names."""
    return _layer(source, ())


def _layer(source: Path, below: tuple[Path, ...]) -> tuple[dict[str, object], Origins]:
    data = _read_toml(source)
    base_name = data.pop("extends", None)
    removals = data.pop("remove", None)
    top = _Table(source, data)
    if base_name is None:
        if removals is not None:
            raise top.fail("remove", _("removes keys of the description it extends; expected extends as well"))
        return data, dict.fromkeys(_key_paths(data), source)
    if not isinstance(base_name, str) or not base_name.strip():
        raise top.fail(
            "extends",
            _("expected the file name of the description this one builds on, got {value}").format(
                value=_describe(base_name)
            ),
        )
    base_path = _base_path(top, base_name)
    chain = (*below, source.resolve())
    if base_path.resolve() in chain:
        raise top.fail(
            "extends",
            _("{file} extends this description already (a cycle); expected a description that does not").format(
                file=base_path
            ),
        )
    if len(chain) >= MAX_EXTENDS:
        raise top.fail(
            "extends",
            _("more than {count} descriptions extend one another; expected a shorter chain").format(count=MAX_EXTENDS),
        )
    base, origins = _layer(base_path, chain)
    for path in _removals(top, removals, base, base_path):
        parent = base
        for key in path[:-1]:
            parent = cast(dict[str, object], parent[key])  # a table: `_removals` walked this path
        del parent[path[-1]]
        origins = {keys: file for keys, file in origins.items() if keys[: len(path)] != path}
    _merge(base, data, (), origins, source)
    return base, origins


def _base_path(top: _Table, name: str) -> Path:
    """Where `extends = name` points: beside the including file, or in the shipped descriptions."""
    if not name.startswith(SHIPPED_PREFIX):
        return Path(os.path.normpath(top.source.parent / name))  # the file named as people would name it
    inner = PurePosixPath(name.removeprefix(SHIPPED_PREFIX))
    if inner.is_absolute() or ".." in inner.parts or not inner.parts:
        raise top.fail(
            "extends",
            _('"{name}" leaves the shipped descriptions; expected a name such as "shipped:boards/ssd1322.toml"').format(
                name=name
            ),
        )
    return default_board_path().parent.joinpath(*inner.parts)


def _removals(top: _Table, value: object, base: dict[str, object], base_path: Path) -> list[tuple[str, ...]]:
    """The key paths `remove` names, each one the base has (a typo must not pass silently)."""
    if value is None:
        return []
    expected = _('an array of key paths of the description it extends, e.g. ["buzzer", "buttons.tilt"]')
    if not isinstance(value, list) or not all(isinstance(item, str) for item in value):
        raise top.fail(
            "remove", _("expected {expected}, got {value}").format(expected=expected, value=_describe(value))
        )
    paths: list[tuple[str, ...]] = []
    for item in value:
        try:
            path = _parse_key_path(item)
        except tomllib.TOMLDecodeError:
            raise top.fail(
                "remove", _('"{item}" is not a key path; expected {expected}').format(item=item, expected=expected)
            ) from None
        node: object = base
        for key in path:
            if not isinstance(node, dict) or key not in node:
                raise top.fail(
                    "remove",
                    _('"{item}" is not in {file}; expected a key it has').format(item=item, file=base_path),
                )
            node = node[key]
        gone = next((done for done in paths if path[: len(done)] == done), None)
        if gone is not None:  # deleting it again would fail half-way through the removals
            raise top.fail(
                "remove",
                _('"{item}" is removed already, by "{by}"; expected each key once').format(
                    item=item, by=".".join(gone)
                ),
            )
        paths.append(path)
    return paths


def _parse_key_path(text: str) -> tuple[str, ...]:
    """`buttons.tilt` or `cells."grid.5.0"` as TOML reads a dotted key."""
    parsed: object = tomllib.loads(f"{text} = 0")
    path: list[str] = []
    while isinstance(parsed, dict) and len(parsed) == 1:
        key, parsed = next(iter(parsed.items()))
        path.append(key)
    if parsed != 0 or not path:
        raise tomllib.TOMLDecodeError("not one key path")
    return tuple(path)


def _merge(
    base: dict[str, object], over: dict[str, object], keys: tuple[str, ...], origins: Origins, file: Path
) -> None:
    """`over` onto `base` in place: tables key by key, everything else replaced."""
    for key, value in over.items():
        path = (*keys, key)
        below = base.get(key)
        if isinstance(value, dict) and isinstance(below, dict):
            origins[path] = file
            _merge(below, value, path, origins, file)
            continue
        base[key] = value
        for old in [k for k in origins if k[: len(path)] == path]:
            del origins[old]
        origins.update(dict.fromkeys(_key_paths(value, path), file))


def _key_paths(value: object, keys: tuple[str, ...] = ()) -> list[tuple[str, ...]]:
    """Every key path in `value` (tables and the keys in them, not into arrays)."""
    paths = [keys] if keys else []
    if isinstance(value, dict):
        for key, inner in value.items():
            paths += _key_paths(inner, (*keys, key))
    return paths


def _leds(table: _Table) -> LedsConfig:
    driver = table.string("driver", choices=tuple(LED_DRIVER_PINS))
    pin = table.gpio("pin")
    if pin not in LED_DRIVER_PINS[driver]:
        *others, last = (f"GPIO{p}" for p in LED_DRIVER_PINS[driver])
        allowed = _("{these} or {last}").format(these=", ".join(others), last=last) if others else last
        raise table.fail(
            "pin",
            _('driver "{driver}" cannot drive GPIO{pin}; expected {allowed}').format(
                driver=driver, pin=pin, allowed=allowed
            ),
        )
    config = LedsConfig(
        driver=driver,
        pin=pin,
        count=table.integer("count", 1, 1024),
        order=table.string("order", choices=LED_ORDERS, expected=_('a colour order such as "GRB", "RGB" or "GRBW"')),
        brightness=table.number("brightness", 0.0, 1.0),
        budget_amps=table.number("budget_amps", 0.0, 50.0, above_low=True),
        ma_per_channel=table.number("ma_per_channel", 0.0, 100.0, above_low=True),
    )
    table.done()
    return config


def _display(table: _Table, leds: LedsConfig, size: tuple[float, float]) -> tuple[DisplayConfig, tuple[float, float]]:
    driver = table.string("driver", choices=DISPLAY_DRIVERS)
    interface = table.string("interface", choices=("i2c", "spi"))
    if interface == "i2c":
        port = table.integer("port", 1, 1, expected=_("1, the header's I2C bus (GPIO2 SDA, GPIO3 SCL)"))
        address = table.integer(
            "address", 0x03, 0x77, expected=_("an I2C address from 0x03 to 0x77"), show="0x{:02X}".format
        )
        for key in ("dc_pin", "reset_pin", "device"):
            if table.present(key):
                raise table.fail(key, _('only an SPI display has this; expected no such key with interface "i2c"'))
        dc_pin = reset_pin = None
        device = 0
    else:
        port = table.integer(
            "port", 0, 1, expected=_("0 (SPI0: GPIO10 MOSI, GPIO11 SCLK) or 1 (SPI1: GPIO20 MOSI, GPIO21 SCLK)")
        )
        if port == 0 and leds.driver == "spi":
            raise table.fail(
                "port",
                _('SPI0 already carries the LED data (leds.driver = "spi"); expected 1 (SPI1) or interface "i2c"'),
            )
        if table.present("address"):
            raise table.fail("address", _('an SPI display has no address; expected no such key with interface "spi"'))
        address = 0
        selects = SPI_CHIP_SELECTS[port]
        device = (
            table.integer(
                "device",
                0,
                len(selects) - 1,
                # Translators: between the choices of an SPI chip select, "0 (CE0, GPIO8) or 1 (CE1, GPIO7)".
                expected=_(" or ").join(f"{n} (CE{n}, GPIO{pin})" for n, pin in enumerate(selects)),
            )
            if table.present("device")
            else 0
        )
        taken = _bus_pins(leds)
        if port == 1:
            spi1 = {p: _reserved(_("an SPI1 pin (the display bus)")) for p in (*SPI1_PINS, selects[device])}
            if leds.pin in spi1:
                raise table.fail(
                    "port",
                    _("SPI1 needs GPIO{pin}, the LED data line (leds.pin); expected 0 or another LED pin").format(
                        pin=leds.pin
                    ),
                )
            taken |= spi1
        dc_pin = table.gpio("dc_pin", default=24, taken=taken)
        reset_pin = table.gpio(
            "reset_pin", default=25, taken=taken | {dc_pin: _reserved(_("the DC line (display.dc_pin)"))}
        )
    config = DisplayConfig(
        driver=driver,
        interface=interface,
        port=port,
        address=address,
        width=table.integer("width", 1, 1024),
        height=table.integer("height", 1, 1024),
        rotate=table.integer("rotate", 0, 3, expected=_("0–3 (quarter turns)")),
        dc_pin=dc_pin,
        reset_pin=reset_pin,
        device=device,
        mode=_display_mode(table, driver),
        size_mm=table.size(
            "size_mm", expected=_("[width, height] of the active area in mm, each above 0 and at most 500"), most=500
        ),
    )
    position = table.point("position", size)
    table.done()
    return config, position


def _display_mode(table: _Table, driver: str) -> str:
    if not table.present("mode"):
        return "1"
    mode = table.string("mode", choices=("1", "L"), expected=_('"1" (monochrome) or "L" (16 greys)'))
    if mode == "L" and driver not in GREYSCALE_DRIVERS:
        raise table.fail(
            "mode",
            _('{driver} panels are monochrome; expected "1" (greys need one of {drivers})').format(
                driver=driver, drivers=", ".join(GREYSCALE_DRIVERS)
            ),
        )
    return mode


def _bus_pins(leds: LedsConfig) -> dict[int, str]:
    """The I2C, SPI0 and LED data pins, with what an error says they are."""
    reserved = {p: _reserved(_("an I2C pin (the display bus)")) for p in I2C_PINS}
    reserved |= {p: _reserved(_("an SPI0 pin")) for p in SPI_PINS}
    reserved[leds.pin] = _reserved(_("the LED data line (leds.pin)"))
    return reserved


def _reserved_pins(leds: LedsConfig, display: DisplayConfig) -> dict[int, str]:
    """Pins no button may take, with what an error says they are."""
    reserved = _bus_pins(leds)
    if display.interface == "spi" and display.port == 1:
        reserved |= {p: _reserved(_("an SPI1 pin (the display bus)")) for p in SPI1_PINS}
        if display.cs_pin is not None:  # always, on SPI
            reserved[display.cs_pin] = _reserved(_("the display's chip select (SPI1 CE)"))
    if display.dc_pin is not None:
        reserved[display.dc_pin] = _reserved(_("the display's DC line (display.dc_pin)"))
    if display.reset_pin is not None:
        reserved[display.reset_pin] = _reserved(_("the display's reset line (display.reset_pin)"))
    return reserved


def _reserved(reason: str) -> str:
    """How a pin error names a pin kept for something else (`GPIO10 is reserved: ...`)."""
    return _("reserved: {reason}").format(reason=reason)


def _buttons(
    table: _Table, leds: LedsConfig, display: DisplayConfig, size: tuple[float, float]
) -> tuple[ButtonsConfig, dict[str, tuple[float, float]]]:
    taken = _reserved_pins(leds, display)
    pins_table = table.table("pins")
    pins: dict[str, int] = {}
    for name in BUTTON_NAMES:
        pins[name] = pins_table.gpio(name, taken=taken)
        taken[pins[name]] = _("already used by {key}").format(key=f"buttons.pins.{name}")
    pins_table.done()
    tilt = table.gpio("tilt", taken=taken) if table.present("tilt") else None
    options: dict[str, bool | float] = {}
    if table.present("pull_up"):
        options["pull_up"] = table.boolean("pull_up")
    if table.present("debounce_ms"):
        options["debounce_ms"] = table.number("debounce_ms", 0.0, 500.0)
    if table.present("hold_s"):
        options["hold_s"] = table.number("hold_s", 0.1, 10.0)
    positions_table = table.table("positions")
    positions = {name: positions_table.point(name, size) for name in BUTTON_NAMES}
    positions_table.done()
    table.done()
    return ButtonsConfig(pins=pins, tilt=tilt, **options), positions  # type: ignore[arg-type]  # only fields checked above


CODE_FILE_NAME = "operator-code"  # the operator's code (its hash), beside the board description


def _operator(table: _Table) -> OperatorConfig:
    """`[operator]`: `code_file`, where the code's hash is kept (docs/kiosk.md). A plain code is
    refused: anyone who can read the description could read it."""
    if table.present("code"):
        raise table.fail(
            "code",
            _(
                "a code in the board description can be read by anyone who reads the file; "
                "set it with `sudo xtraboard operator set-code` (it keeps only a salted hash, "
                "in {file}) and remove this line"
            ).format(file=table.source.parent / CODE_FILE_NAME),
        )
    if not table.present("code_file"):
        table.done()
        return OperatorConfig(code_file=table.source.parent / CODE_FILE_NAME)
    name = table.string("code_file", expected=_("a file name (relative to this description)"))
    table.done()
    return OperatorConfig(code_file=table.file_of("code_file").parent / name)  # beside the file naming it


_TOPIC_NAME = re.compile(r"[A-Za-z0-9_-]{1,64}")


def _fleet(table: _Table) -> FleetConfig:
    """`[fleet]`: the broker, how to log in, and this table's name (docs/fleet.md)."""
    names = _("1 to 64 letters, digits, - or _ (it is part of MQTT topics)")

    def name(key: str, default: str | None = None) -> str:
        if default is not None and not table.present(key):
            return default
        value = table.string(key, expected=names)
        if not _TOPIC_NAME.fullmatch(value):
            raise table.fail(key, _('"{value}" is not a name; expected {names}').format(value=value, names=names))
        return value

    def path(key: str) -> Path | None:
        if not table.present(key):
            return None
        return table.file_of(key).parent / table.string(key, expected=_("a file name (relative to this description)"))

    table_name = name("table")
    broker = table.string("broker", expected=_("the MQTT broker's host name or address"))
    tls = table.boolean("tls") if table.present("tls") else False
    port = table.integer("port", 1, 65535) if table.present("port") else (8883 if tls else 1883)
    ca_file = path("ca_file")
    if ca_file is not None and not tls:
        raise table.fail("ca_file", _("a CA file is for TLS; expected tls = true with it"))
    username = table.string("username") if table.present("username") else None
    password_file = path("password_file")
    if password_file is not None and username is None:
        raise table.fail("password_file", _("a password needs a user; expected username as well"))
    config = FleetConfig(
        table=table_name,
        broker=broker,
        port=port,
        tls=tls,
        ca_file=ca_file,
        username=username,
        password_file=password_file,
        topic_prefix=name("topic_prefix", "xtraboard"),
        discovery_prefix=name("discovery_prefix", "homeassistant"),
    )
    table.done()
    return config


def _layout(top: _Table) -> tuple[CellGroup, ...]:
    """The groups of cells the games known declare, and the board's own; a clash of two games'
    declarations is an error of the description's games, named on its cells."""
    try:
        return board_layout()
    except ConfigError as exc:
        raise top.fail("cells", tr(exc)) from exc


def _cells(table: _Table, led_count: int, size: tuple[float, float], layout: tuple[CellGroup, ...]) -> dict[str, Cell]:
    names = cell_names(layout)
    known = set(names)
    for key in table.data:
        if key not in known:
            raise table.fail(
                key,
                _("unknown cell: no game declares it; expected one of {cells}").format(
                    cells=", ".join(group.pattern() for group in layout)
                ),
            )
    missing = [name for name in names if name not in table.data]
    if missing:
        owners = cell_owners()
        game = owners.get(missing[0].partition(".")[0], "")
        if game:  # a game's cells: most likely a description made before the game was added
            theirs = [name for name in missing if owners.get(name.partition(".")[0]) == game]
            raise table.fail(
                missing[0],
                ngettext(
                    "missing: {game} lights it ({n} cell of its own missing: {listed}); "
                    "expected {{ leds = [...], x = ..., y = ... }} for each",
                    "missing: {game} lights it ({n} cells of its own missing: {listed}); "
                    "expected {{ leds = [...], x = ..., y = ... }} for each",
                    len(theirs),
                ).format(game=game, n=len(theirs), listed=", ".join(theirs[:6]) + (", …" if len(theirs) > 6 else "")),
            )
        if len(missing) > 1:
            listed = ", ".join(missing[1:6]) + (", …" if len(missing) > 6 else "")
            raise table.fail(
                missing[0],
                ngettext(
                    "missing (and {n} more: {listed}); expected {{ leds = [...], x = ..., y = ... }} for every cell",
                    "missing (and {n} more: {listed}); expected {{ leds = [...], x = ..., y = ... }} for every cell",
                    len(missing) - 1,
                ).format(n=len(missing) - 1, listed=listed),
            )
        raise table.fail(missing[0], _("missing; expected {{ leds = [...], x = ..., y = ... }} for every cell"))
    owner: dict[int, str] = {}
    cells: dict[str, Cell] = {}
    for name in names:
        entry = table.table(name, expected=_("a table {{ leds = [...], x = ..., y = ... }}").format())
        leds = entry.led_indices("leds", led_count, owner, name)
        cells[name] = Cell(
            leds=leds,
            x=entry.number(
                "x",
                0.0,
                size[0],
                expected=_("a position in mm from 0 to {most} (board.size_mm)").format(most=f"{size[0]:g}"),
            ),
            y=entry.number(
                "y",
                0.0,
                size[1],
                expected=_("a position in mm from 0 to {most} (board.size_mm)").format(most=f"{size[1]:g}"),
            ),
        )
        entry.done()
    return cells


_BARE_KEY = re.compile(r"[A-Za-z0-9_-]+")


def _key_path(keys: tuple[str, ...]) -> str:
    """Keys as TOML writes them: `cells."grid.7.2".leds`."""
    return ".".join(
        k if _BARE_KEY.fullmatch(k) else '"' + k.replace("\\", "\\\\").replace('"', '\\"') + '"' for k in keys
    )


def _describe(value: object) -> str:
    """A TOML value and its type, for error messages."""
    if isinstance(value, bool):
        return _("{value} (a boolean)").format(value=str(value).lower())
    if isinstance(value, int):
        return _("{value} (an integer)").format(value=value)
    if isinstance(value, float):
        return _("{value} (a number)").format(value=value)
    if isinstance(value, str):
        return _('"{value}" (a string)').format(value=value)
    if isinstance(value, list):
        return _("an array") if value else _("[] (an empty array)")
    if isinstance(value, dict):
        return _("a table")
    return _("{value} (a date/time)").format(value=value)


class _Table:
    """One TOML table being read: typed getters whose errors name the key path; `done()` rejects the rest."""

    def __init__(
        self,
        source: Path,
        data: dict[str, object],
        keys: tuple[str, ...] = (),
        origins: Mapping[tuple[str, ...], Path] | None = None,
    ) -> None:
        self.source = source  # the description loaded (the last of a chain of `extends`)
        self.data = data
        self.keys = keys
        self.origins: Mapping[tuple[str, ...], Path] = origins or {}
        self._known: set[str] = set()

    def file_of(self, key: str | None = None) -> Path:
        """The file that gave `key` (or this table) its value: `source`, or one it extends."""
        path = self.keys + ((key,) if key is not None else ())
        while path:
            if path in self.origins:
                return self.origins[path]
            path = path[:-1]
        return self.source

    def fail(self, key: str | None, problem: str) -> ConfigError:
        where = _key_path(self.keys + ((key,) if key is not None else ()))
        file = self.file_of(key)
        # Translators: an error's file when the key came from a description that another extends.
        shown = (
            f"{file}" if file == self.source else _("{file} (as extended by {top})").format(file=file, top=self.source)
        )
        return ConfigError(f"{shown}: {where}: {problem}" if where else f"{shown}: {problem}")

    def present(self, key: str) -> bool:
        """Whether an optional key is given (it is a known key either way)."""
        self._known.add(key)
        return key in self.data

    def done(self) -> None:
        """Reject keys no getter asked for: typos must not pass silently."""
        for key in self.data:
            if key not in self._known:
                raise self.fail(
                    key, _("unknown key (a typo?); expected one of: {keys}").format(keys=", ".join(sorted(self._known)))
                )

    def _get(self, key: str, expected: str) -> object:
        self._known.add(key)
        if key not in self.data:
            unread = [k for k in self.data if k not in self._known]
            for typo in get_close_matches(key, unread, n=1):
                raise self.fail(
                    key,
                    _('missing (is "{typo}" a typo of it?); expected {expected}').format(typo=typo, expected=expected),
                )
            raise self.fail(key, _("missing; expected {expected}").format(expected=expected))
        return self.data[key]

    def table(self, key: str, expected: str | None = None) -> _Table:
        expected = expected or _("a table")
        value = self._get(key, expected)
        if not isinstance(value, dict):
            raise self.fail(
                key, _("expected {expected}, got {value}").format(expected=expected, value=_describe(value))
            )
        return _Table(self.source, value, self.keys + (key,), self.origins)

    def string(self, key: str, choices: tuple[str, ...] | None = None, expected: str | None = None) -> str:
        if expected is None:
            expected = (
                _("one of {choices}").format(choices=", ".join(f'"{c}"' for c in choices))
                if choices
                else _("a non-empty string")
            )
        value = self._get(key, expected)
        if not isinstance(value, str) or not value.strip():
            raise self.fail(
                key, _("expected {expected}, got {value}").format(expected=expected, value=_describe(value))
            )
        if choices is not None and value not in choices:
            raise self.fail(
                key, _('"{value}" is not known; expected {expected}').format(value=value, expected=expected)
            )
        return value

    def boolean(self, key: str) -> bool:
        value = self._get(key, _("true or false"))
        if not isinstance(value, bool):
            raise self.fail(key, _("expected true or false, got {value}").format(value=_describe(value)))
        return value

    def integer(
        self, key: str, low: int, high: int, expected: str | None = None, show: Callable[[int], str] = str
    ) -> int:
        expected = expected or _("an integer from {low} to {high}").format(low=low, high=high)
        value = self._get(key, expected)
        if isinstance(value, bool) or not isinstance(value, int):
            raise self.fail(
                key, _("expected {expected}, got {value}").format(expected=expected, value=_describe(value))
            )
        if not low <= value <= high:
            raise self.fail(
                key, _("{value} is out of range; expected {expected}").format(value=show(value), expected=expected)
            )
        return value

    def gpio(self, key: str, default: int | None = None, taken: dict[int, str] | None = None) -> int:
        """A BCM pin number; `taken` maps pins already spoken for to what they are ("reserved: ...",
        "already used by ...")."""
        if default is not None and not self.present(key):
            return default
        pin = self.integer(key, 0, 27, expected=_("a BCM GPIO number from 0 to 27"))
        if taken and pin in taken:
            raise self.fail(
                key, _("GPIO{pin} is {reason}; expected a free GPIO of its own").format(pin=pin, reason=taken[pin])
            )
        return pin

    def number(self, key: str, low: float, high: float, above_low: bool = False, expected: str | None = None) -> float:
        expected = expected or (
            _("a number above {low}, at most {high}") if above_low else _("a number from {low} to {high}")
        ).format(low=f"{low:g}", high=f"{high:g}")
        value = self._get(key, expected)
        if isinstance(value, bool) or not isinstance(value, int | float):
            raise self.fail(
                key, _("expected {expected}, got {value}").format(expected=expected, value=_describe(value))
            )
        if not (low < value <= high if above_low else low <= value <= high):
            raise self.fail(
                key, _("{value} is out of range; expected {expected}").format(value=f"{value:g}", expected=expected)
            )
        return float(value)

    def _numbers(self, key: str, expected: str) -> list[float]:
        value = self._get(key, expected)
        if not (
            isinstance(value, list)
            and len(value) == 2
            and all(isinstance(v, int | float) and not isinstance(v, bool) for v in value)
        ):
            shown = f"[{', '.join(_describe(v) for v in value)}]" if isinstance(value, list) else _describe(value)
            raise self.fail(key, _("expected {expected}, got {value}").format(expected=expected, value=shown))
        return [float(v) for v in value]

    def size(self, key: str, expected: str | None = None, most: float = 5000) -> tuple[float, float]:
        expected = expected or _("[width, height] in mm, each above 0 and at most 5000")
        width, height = self._numbers(key, expected)
        if not (0 < width <= most and 0 < height <= most):
            raise self.fail(
                key,
                _("{value} is out of range; expected {expected}").format(
                    value=f"[{width:g}, {height:g}]", expected=expected
                ),
            )
        return width, height

    def point(self, key: str, size: tuple[float, float]) -> tuple[float, float]:
        expected = _("[x, y] in mm inside the board, x from 0 to {width}, y from 0 to {height} (board.size_mm)").format(
            width=f"{size[0]:g}", height=f"{size[1]:g}"
        )
        x, y = self._numbers(key, expected)
        if not (0 <= x <= size[0] and 0 <= y <= size[1]):
            raise self.fail(
                key,
                _("{value} is out of range; expected {expected}").format(value=f"[{x:g}, {y:g}]", expected=expected),
            )
        return x, y

    def led_indices(self, key: str, count: int, owner: dict[int, str], cell: str) -> tuple[int, ...]:
        """LED indices of one cell; `owner` records which cell took each index."""
        expected = _("a non-empty array of LED indices from 0 to {last} (leds.count = {count})").format(
            last=count - 1, count=count
        )
        value = self._get(key, expected)
        if not isinstance(value, list) or not value:
            raise self.fail(
                key, _("expected {expected}, got {value}").format(expected=expected, value=_describe(value))
            )
        for index in value:
            if isinstance(index, bool) or not isinstance(index, int):
                raise self.fail(
                    key,
                    _("expected {expected}, got an element {value}").format(expected=expected, value=_describe(index)),
                )
            if not 0 <= index < count:
                raise self.fail(
                    key, _("LED {index} is out of range; expected {expected}").format(index=index, expected=expected)
                )
            if index in owner:
                raise self.fail(
                    key,
                    _("LED {index} is already used by cell {cell}; expected each LED in one cell only").format(
                        index=index, cell=owner[index]
                    ),
                )
            owner[index] = cell
        return tuple(value)
