"""The debug service: a test bench's window into a running board, off unless asked for.

One request a line, one JSON answer a line, over TCP on loopback, a Unix socket or a serial
console. The board greets each connection with one line (`hello`: protocol version, buttons,
hold time, simulated or not, the clock) and then answers only these commands:

    state PATH      a state path, as scenarios read it    → {"ok": true, "value": ...}
    text            the text on the display               → {"ok": true, "text": [...]}
    image           the display's pixels (base64)         → {"ok": true, "width": 128, ...}
    leds            the LED frame before brightness       → {"ok": true, "frame": {...}, "shown": {...}}
    dice FACES      queue a roll, e.g. dice [1,2,2,3,5]   → {"ok": true, "queued": 1}
    seed N          start over with seed N (dice, bots)   → {"ok": true, "seed": N}
    reset           the board's factory state (no game     → {"ok": true, "set_aside": ID or null}
                    waiting, default settings, main menu,
                    no queued rolls); finished games stay
    events          what the board did since the last ask → {"ok": true, "events": [...], "busy": false}
    press NAME      simulated boards only: close a virtual button
    release NAME    simulated boards only: open it again
    wait SECONDS    simulated boards on a fake clock only: let board time pass

Anything else gets `{"ok": false, "error": "..."}`, and so does every command while the service
is disabled. Requests are parsed on the service's threads but answered on the board's loop
thread (`DebugRequest` goes through `EventLoop.post`), so they see and change the board exactly
as button events do.

    >>> service = DebugService(DebugConfig(), target=None)
    >>> service.answer_line(b"text")
    {'ok': False, 'error': 'the debug service is off; start the board with --debug-port PORT or enable [debug] in its description'}
"""

from __future__ import annotations

import base64
import collections
import hashlib
import json
import logging
import os
import socket
import socketserver
import threading
import time
from collections.abc import Callable, Mapping, Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Protocol, cast

from firmware.dice import DiceSource, Face, Faces, ScriptedDice
from firmware.errors import XtraboardError
from firmware.hardware.buttons import RawEdge
from firmware.hardware.config import DebugConfig, is_loopback
from firmware.state_reader import StateError, plain, read_state, state_roots

if TYPE_CHECKING:
    from firmware.agents import Agents
    from firmware.hardware.board import BoardHardware
    from firmware.loop import EventLoop
    from firmware.ui.app import BoardApp

log = logging.getLogger("xtraboard.debug")

PROTOCOL = "xtraboard-debug"
VERSION = 1
COMMANDS = ("state", "text", "image", "leds", "dice", "seed", "events", "reset")
SIMULATED_COMMANDS = ("press", "release", "wait")  # virtual buttons and board time: simulator only
MAX_LINE = 16 * 1024  # a request longer than this is refused (and read to its end, then dropped)
ANSWER_TIMEOUT_S = 30.0  # how long a request waits for the loop thread
EVENT_LOG = 10_000  # events kept for `events`; older ones are dropped (and counted)
MAX_CLIENTS = 8
MAX_WAIT_S = 3600.0
# A client that stops half-way through a line (or says nothing after connecting) is closed after
# LINE_TIMEOUT_S, one silent between requests after IDLE_TIMEOUT_S: stalled clients cannot keep
# every one of the MAX_CLIENTS places.
LINE_TIMEOUT_S = 10.0
IDLE_TIMEOUT_S = 600.0
OFF = "the debug service is off; start the board with --debug-port PORT or enable [debug] in its description"


class DebugError(XtraboardError, ValueError):
    """A request the debug service refuses: the message is the one line the client gets."""


def checked(config: DebugConfig) -> DebugConfig:
    """Refuses a non-loopback host unless `allow_remote`, and a port out of range; returns `config`."""
    if config.enabled and config.port is not None and not config.allow_remote and not is_loopback(config.host):
        raise DebugError(
            f"debug: host {config.host!r} is not loopback; the service binds only 127.0.0.1 "
            "or ::1 unless the board description says allow_remote = true"
        )
    if config.port is not None and not 0 <= config.port <= 65535:
        raise DebugError(f"debug: port {config.port} is not 0-65535")
    return config


# An answer, and an event of the log: JSON objects (their values JSON too).
Answer = dict[str, object]
# A request's argument as `parse_request` checked it: a state path or button name, a roll's
# faces, a seed, seconds to wait; None for the commands that take none.
Argument = str | int | float | list[Face] | None


class Board(Protocol):
    """What the service uses of a board: `firmware.board_loop.Board` is one (not imported here:
    the board's loop imports this module)."""

    @property
    def app(self) -> BoardApp: ...

    @property
    def hardware(self) -> BoardHardware: ...

    @property
    def loop(self) -> EventLoop: ...

    @property
    def agents(self) -> Agents: ...

    @property
    def watchers(self) -> list[Callable[[object], None]]: ...

    @property
    def _frame(self) -> Mapping[str, Sequence[object]]: ...  # the LEDs' last frame: a colour, or colours, per cell

    def clock(self) -> float: ...

    def factory_reset(self) -> int | None: ...


class VirtualButtons(Protocol):
    """A simulated board's buttons, pressed and released by name."""

    def press(self, name: str) -> None: ...

    def release(self, name: str) -> None: ...


class LineWriter(Protocol):
    """Where answers go: a client's socket file."""

    def write(self, data: bytes, /) -> object: ...

    def flush(self) -> None: ...


class LineReader(Protocol):
    """`readline` with a size limit: a socket's lines (`SocketLines`) or a stream's."""

    def readline(self, limit: int, /) -> bytes: ...


# What `parse_request` checked each command's argument to be, for the type checker: a request
# that reaches `execute` otherwise is a bug of ours, answered as one.
def _text(arg: Argument) -> str:
    if not isinstance(arg, str):
        raise DebugError(f"expected a string, not {arg!r}")
    return arg


def _faces(arg: Argument) -> list[Face]:
    if not isinstance(arg, list):
        raise DebugError(f"expected a list of faces, not {arg!r}")
    return arg


def _seed(arg: Argument) -> int | str:
    if not isinstance(arg, (int, str)):
        raise DebugError(f"expected a whole number or a string, not {arg!r}")
    return arg


def _seconds(arg: Argument) -> float:
    if not isinstance(arg, (int, float)):
        raise DebugError(f"expected seconds, not {arg!r}")
    return float(arg)


def _seq(event: Answer) -> int:
    """The number `log_event` gave an event."""
    return cast(int, event["seq"])


# --- requests ---------------------------------------------------------------------------------


def parse_request(line: bytes) -> tuple[str, Argument]:
    """One request line → (command, argument); DebugError says what is wrong with it.

    >>> parse_request(b"dice [1, 2, 2, 3, 5]\\n")
    ('dice', [1, 2, 2, 3, 5])
    >>> parse_request(b"state positions[1]")
    ('state', 'positions[1]')
    """
    if len(line) > MAX_LINE:
        raise DebugError(f"request longer than {MAX_LINE} bytes")
    try:
        text = line.decode("utf-8").strip()
    except UnicodeDecodeError:
        raise DebugError("request is not UTF-8 text") from None
    command, _, arg = text.partition(" ")
    arg = arg.strip()
    if command not in COMMANDS and command not in SIMULATED_COMMANDS:
        shown = command[:40] + ("…" if len(command) > 40 else "")
        raise DebugError(f"unknown command {shown!r}; commands are {', '.join(COMMANDS + SIMULATED_COMMANDS)}")
    if command in ("text", "image", "leds", "events", "reset"):
        if arg:
            raise DebugError(f"{command} takes no argument")
        return command, None
    if not arg:
        raise DebugError(f"{command} needs an argument (see the protocol in docs/hil.md)")
    if command in ("state", "press", "release"):
        return command, arg
    try:
        value = json.loads(arg)
    except (ValueError, RecursionError):
        raise DebugError(f"{command}: the argument is not JSON: {arg[:40]!r}") from None
    if command == "dice":
        if not isinstance(value, list) or not value or not all(type(f) in (int, str) for f in value):
            raise DebugError("dice: expected a list of faces such as [1, 2, 2, 3, 5]")
    elif command == "seed":
        if isinstance(value, bool) or not isinstance(value, (int, str)):
            raise DebugError("seed: expected a whole number or a string")
    elif command == "wait":
        if isinstance(value, bool) or not isinstance(value, (int, float)) or not 0 <= value <= MAX_WAIT_S:
            raise DebugError(f"wait: expected seconds from 0 to {MAX_WAIT_S:g}")
    return command, value


class DebugRequest:
    """A parsed request on its way to the loop thread; `run()` (loop thread) answers it once."""

    def __init__(self, execute: Callable[[str, Argument], Answer], command: str, arg: Argument) -> None:
        self.command, self.arg = command, arg
        self._execute = execute
        self.answer: Answer | None = None
        self.done = threading.Event()

    def run(self) -> None:
        try:
            self.answer = {"ok": True} | self._execute(self.command, self.arg)
        except (DebugError, StateError) as exc:
            self.answer = {"ok": False, "error": str(exc)}
        except Exception as exc:  # the board raised while doing it: that is the answer, not a crash
            log.warning("debug: %s %r raised %s", self.command, self.arg, exc)
            self.answer = {"ok": False, "error": f"the board raised {type(exc).__name__}: {exc}"}
        finally:
            self.done.set()


# --- what the service reads and does on the board (loop thread) ----------------------------------


class BenchDice:
    """The board's dice on the bench: rolls queued with `dice FACES` first, then `fallback`
    (seeded or the system's). Every roll goes to `on_roll` (the event log)."""

    def __init__(self, fallback: DiceSource, on_roll: Callable[[tuple[Face, ...]], None] | None = None) -> None:
        self.fallback = fallback
        self.queued = ScriptedDice(empty="no queued roll")
        self.on_roll = on_roll

    def push(self, faces: Sequence[Face]) -> None:
        self.queued.push(faces)

    def reset(self, seed: int | str | None) -> None:
        """No queued roll; the fallback starts over as a board seeded `seed` rolls (the system's
        dice without one)."""
        from firmware.dice import CommittedDice, SystemDice

        self.queued = ScriptedDice(empty="no queued roll")
        self.fallback = CommittedDice(str(seed)) if seed is not None else SystemDice()

    @property
    def rolls_made(self) -> int:
        """The fallback's roll index (a seeded game sets it to its count of rolls, as without the bench)."""
        return self.fallback.rolls_made

    @rolls_made.setter
    def rolls_made(self, value: int) -> None:
        self.fallback.rolls_made = value

    def roll(self, dice: Sequence[Faces]) -> tuple[Face, ...]:
        faces = self.queued.roll(dice) if self.queued.left else self.fallback.roll(dice)
        if self.on_roll is not None:
            self.on_roll(faces)
        return faces


class BoardTarget:
    """The board as the debug service sees it. `board` is a `firmware.board_loop.Board` (a
    function returning it, when the board may be replaced by `restart`).

    Simulated boards add `buttons` (press/release of virtual buttons), `wait` (fake clock) and
    `restart(seed)` (start over with a fresh app, as after power-on). Without `restart`, `seed`
    sets the seed of the next game.
    """

    def __init__(
        self,
        board: Board | Callable[[], Board],
        *,
        dice: BenchDice | None = None,
        buttons: VirtualButtons | None = None,
        wait: Callable[[float], None] | None = None,
        restart: Callable[[int | str], None] | None = None,
        clock: str = "real",
        speed: float = 1.0,
    ) -> None:
        self._board: Callable[[], Board] = board if callable(board) else (lambda: board)
        self.buttons, self._wait, self._restart, self.clock, self.speed = buttons, wait, restart, clock, speed
        self.events: collections.deque[Answer] = collections.deque(maxlen=EVENT_LOG)
        self.sequence = 0  # events ever logged; a client's cursor counts in these
        self.dice: BenchDice | None = None
        self.use_dice(dice)

    def use_dice(self, dice: BenchDice | None) -> None:
        """Queue `dice FACES` on `dice`, and log its rolls."""
        self.dice = dice
        if dice is not None:
            dice.on_roll = lambda faces: self.log_event("roll", faces=[plain(f) for f in faces])

    @property
    def board(self) -> Board:
        return self._board()

    def hello(self) -> Answer:
        config = self.board.hardware.config
        return {
            "hello": PROTOCOL,
            "version": VERSION,
            "simulated": self.buttons is not None,
            "clock": self.clock,
            "speed": self.speed,
            "buttons": list(config.buttons.pins),
            "hold_s": config.buttons.hold_s,
            "commands": list(COMMANDS + (SIMULATED_COMMANDS if self.buttons is not None else ())),
        }

    # loop thread only, from here on
    def log_event(self, kind: str, **fields: object) -> None:
        self.sequence += 1
        self.events.append({"seq": self.sequence, "t": round(self.board.clock(), 6), "kind": kind} | fields)

    def watch(self, event: object) -> None:
        """Every event the board's loop handles passes here first (`Board.watchers`)."""
        if isinstance(event, RawEdge):
            self.log_event("edge", button=event.name, pressed=event.pressed, t=round(event.t, 6))

    def execute(self, command: str, arg: Argument, cursor: list[int] | None = None) -> Answer:
        board = self.board
        app = board.app
        if command == "state":
            return {"value": read_state(state_roots(app), _text(arg))}
        if command == "text":
            return {"text": list(app.texts)}
        if command == "image":
            return image_answer(board)
        if command == "leds":
            return leds_answer(board)
        if command == "events":
            return self.events_since(cursor if cursor is not None else [0]) | {"busy": bool(app.busy)}
        if command == "dice":
            if self.dice is None:
                raise DebugError("dice: this board rolls no dice the service can queue")
            faces = _faces(arg)
            check_queued_roll(app, faces)  # refused now, not at the next roll
            self.dice.push(faces)
            self.log_event("queued", faces=faces)
            return {"queued": self.dice.queued.left}
        if command == "reset":
            set_aside = board.factory_reset()
            if self.dice is not None:
                self.dice.reset(board.app.seed)
                board.app.dice = self.dice
            self.log_event("reset", set_aside=set_aside)
            return {"set_aside": set_aside}
        if command == "seed":
            seed = _seed(arg)
            if self._restart is not None:
                self._restart(seed)
                self.log_event("restart", seed=seed)
            else:
                app.seed = seed
                if self.dice is not None:
                    from firmware.dice import CommittedDice

                    self.dice.fallback = CommittedDice(str(seed))  # as a seeded game rolls without the bench
                self.log_event("seed", seed=seed)
            return {"seed": seed}
        if self.buttons is None:
            raise DebugError(
                f"{command} works only on a simulated board; a real board's buttons are "
                "pressed by the bench's GPIO and its time is real"
            )
        if command in ("press", "release"):
            name = _text(arg)
            if name not in board.hardware.config.buttons.pins:
                raise DebugError(
                    f"{command}: no button {name[:40]!r}; the board has {', '.join(board.hardware.config.buttons.pins)}"
                )
            (self.buttons.press if command == "press" else self.buttons.release)(name)
            return {}
        if self._wait is None:
            raise DebugError("wait works only on a simulated board with a fake clock; wait in real time")
        self._wait(_seconds(arg))
        return {"now": round(board.clock(), 6)}

    def events_since(self, cursor: list[int]) -> Answer:
        """The events after `cursor[0]` (moving it on), and how many were lost to the log's size."""
        first = _seq(self.events[0]) if self.events else self.sequence + 1
        lost = max(0, first - cursor[0] - 1)
        fresh = [e for e in self.events if _seq(e) > cursor[0]]
        cursor[0] = self.sequence
        return {"events": fresh, "lost": lost}


def check_queued_roll(app: BoardApp, faces: list[Face]) -> None:
    """A queued roll must fit the dice of the game in play; with none in play, the dice of one
    of the board's games (the next game started is the one it is for)."""
    from firmware.dice import fit_roll
    from firmware.games.registry import games

    game = app.session.game if app.session is not None else None
    if game is not None and not game.is_over():
        try:
            fit_roll(faces, game.dice())
        except ValueError:
            raise DebugError(
                f"dice: {faces} does not fit the dice of the game in play: {[list(d) for d in game.dice()]}"
            ) from None
        return
    for spec in games():
        try:
            fit_roll(faces, spec.dice)
            return
        except ValueError:
            continue
    shapes = "; ".join(f"{spec.title} {[list(d) for d in spec.dice]}" for spec in games())
    raise DebugError(f"dice: {faces} fits no game's dice ({shapes})")


def image_answer(board: Board) -> Answer:
    """The display's last frame as base64 pixels (luma's mode), with its scenario checksum."""
    display = board.hardware.display
    image = display.image if display is not None else None
    if image is None:
        return {"width": 0, "height": 0, "mode": "", "pixels": "", "sha": ""}
    data = image.tobytes()
    return {
        "width": image.width,
        "height": image.height,
        "mode": image.mode,
        "pixels": base64.b64encode(data).decode("ascii"),
        "sha": image_checksum(data),
    }


def image_checksum(data: bytes) -> str:
    """A scenario's image_sha: the first 16 hex digits of the pixels' SHA-256."""
    return hashlib.sha256(data).hexdigest()[:16] if data else ""


def leds_answer(board: Board) -> Answer:
    """The frame as the app set it (a multi-colour cell as its list), and each lit cell's
    colour now (before brightness and the current budget)."""
    frame = dict(board._frame)  # the Board's last rendered frame (what it pushed to the chain)
    leds = board.hardware.leds
    cycle = leds.cycle_s if leds is not None else 0.5
    now = board.clock()
    shown: dict[str, list[object]] = {}
    for cell, value in frame.items():
        if value and not isinstance(value[0], int):  # colours taking turns: the one showing now
            value = cast(Sequence[object], value[int(now / cycle) % len(value)])
        shown[cell] = list(value) if value else [0, 0, 0]
    return {"frame": plain(frame), "shown": shown, "cycle_s": cycle, "t": round(now, 6)}


def attach_debug(
    board: Board, port: int | None = None, socket_path: Path | None = None, config: DebugConfig | None = None
) -> DebugService | None:
    """Start the debug service for `board` if the command line (`port`, `socket_path`) or the
    board description's [debug] enables it; None (nothing listening) otherwise. Installs
    `BenchDice` as the board's dice so `dice FACES` can queue rolls. Its Unix socket is hidden
    from engines' boxes (TCP is out of their reach: they have no network)."""
    from dataclasses import replace

    from firmware.dice import CommittedDice, SystemDice

    config = config if config is not None else board.hardware.config.debug
    if port is not None or socket_path is not None:
        config = replace(
            config,
            enabled=True,
            port=port if port is not None else config.port,
            socket_path=socket_path if socket_path is not None else config.socket_path,
        )
    if not config.enabled:
        return None
    seed = board.app.seed
    dice = BenchDice(CommittedDice(str(seed)) if seed is not None else SystemDice())
    board.app.dice = dice
    target = BoardTarget(board, dice=dice)
    board.watchers.append(target.watch)
    service = DebugService(config, target, board.loop.post)
    try:
        places = service.start()
    except OSError as exc:  # a port in use, a folder that is not there: the board plays without it
        service.close()
        board.watchers.remove(target.watch)
        log.error("debug service off: cannot listen on %s: %s", service.config_place(), exc.strerror or exc)
        return None
    for where in places:
        log.warning("debug service listening on %s (a bench controls this board)", where)
    if service.config.socket_path is not None:
        board.agents.hide(service.config.socket_path)  # wherever it is: an engine could roll the dice through it
    return service


# --- the service: listeners on their own threads -------------------------------------------------


class DebugService:
    """Listens where `config` says and answers through `target` on the board's loop.

    `post` is the loop's `EventLoop.post`; the loop must hand `DebugRequest`s to `run()`
    (firmware.board_loop does). `start()` binds nothing while the service is disabled.
    """

    def __init__(
        self,
        config: DebugConfig,
        target: BoardTarget | None,
        post: Callable[[DebugRequest], None] | None = None,
        *,
        timeout_s: float = ANSWER_TIMEOUT_S,
        line_timeout_s: float = LINE_TIMEOUT_S,
        idle_timeout_s: float = IDLE_TIMEOUT_S,
    ) -> None:
        self.config = checked(config)
        self.target = target
        self.post = post
        self.timeout_s = timeout_s
        self.line_timeout_s, self.idle_timeout_s = line_timeout_s, idle_timeout_s
        self.servers: list[socketserver.BaseServer] = []
        self.threads: list[threading.Thread] = []
        self._clients = threading.BoundedSemaphore(MAX_CLIENTS)
        self._closing = threading.Event()
        self._serial_fd: int | None = None

    @property
    def enabled(self) -> bool:
        return self.config.enabled and self.target is not None and self.post is not None

    def config_place(self) -> str:
        """Where the description asks the service to listen, for a message."""
        cfg = self.config
        places = (
            ([f"tcp {cfg.host}:{cfg.port}"] if cfg.port is not None else [])
            + ([f"unix {cfg.socket_path}"] if cfg.socket_path is not None else [])
            + ([f"serial {cfg.serial}"] if cfg.serial is not None else [])
        )
        return ", ".join(places)

    def hello(self) -> Answer:
        target = self.target
        if not self.enabled or target is None:
            return {"ok": False, "error": OFF}
        return {"ok": True} | target.hello()

    def answer_line(self, line: bytes, cursor: list[int] | None = None) -> Answer:
        """The answer to one request line (any thread): refused while disabled or malformed,
        else answered on the loop thread."""
        if not self.enabled:
            return {"ok": False, "error": OFF}
        try:
            command, arg = parse_request(line)
        except DebugError as exc:
            return {"ok": False, "error": str(exc)}
        target = self.target
        assert target is not None and self.post is not None  # enabled says so
        request = DebugRequest(lambda c, a: target.execute(c, a, cursor), command, arg)
        self.post(request)
        if not request.done.wait(self.timeout_s):
            return {"ok": False, "error": f"the board's loop did not answer within {self.timeout_s:g} s"}
        return request.answer or {"ok": False, "error": "no answer"}

    # --- listening ---------------------------------------------------------------------------
    def start(self) -> list[str]:
        """Start listening; returns where (e.g. "tcp 127.0.0.1:7777"). Nothing while disabled."""
        if not self.enabled:
            return []
        where: list[str] = []
        service = self
        cfg = self.config

        class Handler(socketserver.StreamRequestHandler):
            def handle(self) -> None:
                lines = SocketLines(self.connection, line_s=service.line_timeout_s, idle_s=service.idle_timeout_s)
                service.serve_stream(lines, self.wfile)

        if cfg.port is not None:
            family = socket.AF_INET6 if ":" in cfg.host else socket.AF_INET
            server_class = type(
                "DebugTCPServer",
                (socketserver.ThreadingTCPServer,),
                {"address_family": family, "daemon_threads": True, "allow_reuse_address": True},
            )
            server = server_class((cfg.host, cfg.port), Handler)
            self._serve(server)
            host, port = server.server_address[:2]
            where.append(f"tcp {host}:{port}")
        if cfg.socket_path is not None:
            path = Path(cfg.socket_path)
            if path.is_socket():
                path.unlink()  # left by a board that was killed
            unix = type("DebugUnixServer", (socketserver.ThreadingUnixStreamServer,), {"daemon_threads": True})
            server = unix(str(path), Handler)
            os.chmod(path, 0o660)
            self._serve(server)
            where.append(f"unix {path}")
        if cfg.serial is not None:
            self._start_serial(Path(cfg.serial))
            where.append(f"serial {cfg.serial}")
        return where

    @property
    def port(self) -> int | None:
        """The TCP port listened on (useful with port 0)."""
        for server in self.servers:
            if isinstance(server, socketserver.TCPServer) and not _unix(server):
                return int(server.server_address[1])
        return None

    def _serve(self, server: socketserver.BaseServer) -> None:
        self.servers.append(server)
        thread = threading.Thread(
            target=server.serve_forever, kwargs={"poll_interval": 0.2}, name="xtraboard-debug", daemon=True
        )
        thread.start()
        self.threads.append(thread)

    def _start_serial(self, path: Path) -> None:
        fd = os.open(path, os.O_RDWR | os.O_NOCTTY)
        if os.isatty(fd):
            import tty

            tty.setraw(fd)  # no echo, no line editing: the bench sends JSON lines
        self._serial_fd = fd
        reader = os.fdopen(os.dup(fd), "rb", buffering=0)
        writer = os.fdopen(os.dup(fd), "wb", buffering=0)
        thread = threading.Thread(
            target=self.serve_stream, args=(reader, writer), name="xtraboard-debug-serial", daemon=True
        )
        thread.start()
        self.threads.append(thread)

    def serve_stream(self, reader: LineReader, writer: LineWriter) -> None:
        """Greet, then answer line after line until the client goes away (any thread)."""
        if not self._clients.acquire(blocking=False):
            _send(writer, {"ok": False, "error": f"too many clients (at most {MAX_CLIENTS})"})
            return
        try:
            cursor = [self.target.sequence if self.target is not None else 0]  # events from now on
            if not _send(writer, self.hello()):
                return
            while not self._closing.is_set():
                line = _read_line(reader)
                if line is None:
                    return
                if line is not _TOO_LONG and not line.strip():
                    continue  # blank lines (a human at a terminal) are ignored
                answer = (
                    {"ok": False, "error": f"request longer than {MAX_LINE} bytes"}
                    if line is _TOO_LONG
                    else self.answer_line(line, cursor)
                )
                if not _send(writer, answer):
                    return
        finally:
            self._clients.release()

    def close(self) -> None:
        """Stop listening; safe to call twice."""
        self._closing.set()
        for server in self.servers:
            server.shutdown()
            server.server_close()
            path = self.config.socket_path
            if path is not None and _unix(server):
                Path(path).unlink(missing_ok=True)
        self.servers.clear()
        if self._serial_fd is not None:
            os.close(self._serial_fd)
            self._serial_fd = None


_TOO_LONG = b"\0too long"


def _unix(server: socketserver.BaseServer) -> bool:
    """Whether `server` listens on a Unix socket (the debug socket's path), not a TCP port."""
    # socket.AF_UNIX: a module attribute some platforms lack
    return isinstance(server, socketserver.TCPServer) and server.address_family == getattr(socket, "AF_UNIX", None)


class SocketLines:
    """`readline` over a client's socket with two deadlines: a line begun (or the first one
    after connecting) must end within `line_s`; between lines the client may be silent for
    `idle_s`. A missed deadline raises TimeoutError (the connection is then closed)."""

    def __init__(self, sock: socket.socket, *, line_s: float, idle_s: float) -> None:
        self.sock, self.line_s, self.idle_s = sock, line_s, idle_s
        self.buffer = b""
        self.lines = 0

    def readline(self, limit: int) -> bytes:
        now = time.monotonic()
        deadline = now + (self.idle_s if self.lines and not self.buffer else self.line_s)
        while True:
            end = self.buffer.find(b"\n", 0, limit)
            if end >= 0 or len(self.buffer) >= limit:
                cut = end + 1 if end >= 0 else limit
                line, self.buffer = self.buffer[:cut], self.buffer[cut:]
                self.lines += 1
                return line
            left = deadline - time.monotonic()
            if left <= 0:
                log.info(
                    "debug: a client %s; closed", "stopped half-way through a line" if self.buffer else "said nothing"
                )
                raise TimeoutError("debug client timed out")
            self.sock.settimeout(left)
            try:
                chunk = self.sock.recv(65536)
            except TimeoutError:
                continue
            if not chunk:
                line, self.buffer = self.buffer, b""
                return line
            if not self.buffer:
                deadline = time.monotonic() + self.line_s  # a line has begun: it must end soon
            self.buffer += chunk


def _read_line(reader: LineReader) -> bytes | None:
    """One line (None at the end); a line over MAX_LINE is read to its end and dropped."""
    try:
        line = reader.readline(MAX_LINE + 1)
    except (OSError, ValueError):
        return None
    if not line:
        return None
    if len(line) > MAX_LINE and not line.endswith(b"\n"):
        while True:  # skip the rest of the line without keeping it
            try:
                more = reader.readline(MAX_LINE)
            except (OSError, ValueError):
                return None
            if not more or more.endswith(b"\n"):
                break
        return _TOO_LONG
    return line


def _send(writer: LineWriter, answer: Answer) -> bool:
    try:
        writer.write(json.dumps(answer, separators=(",", ":")).encode("utf-8") + b"\n")
        writer.flush()
        return True
    except (OSError, ValueError):
        return False
