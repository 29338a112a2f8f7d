"""The board's side of XDP: an external engine run as a subprocess, asked for decisions with a
time limit. Anything that goes wrong — it will not start, crashes, hangs, answers nonsense —
is an `EngineError` naming the engine and what happened; the caller falls back to a built-in bot.

The engine runs in its box (firmware.xdp.sandbox: bubblewrap), in a process group of its own
that `close` ends whole, and the board reads what it says with bounds: a line longer than
MAX_LINE_BYTES, more than MAX_QUEUED_LINES unread or more than MAX_ANSWER_LINES before its answer
is a failure, found while reading (a flood never builds up in memory). Its standard error is
read too, and only the last STDERR_TAIL_BYTES kept (the log shows them when it fails).

    engine = EngineProcess("mine", ["xtraboard", "engine"], options={"Level": "medium"})
    step = engine.decide(record, movetime_ms=500)    # e.g. {"do": "place", "rung": 5}
"""

from __future__ import annotations

import json
import logging
import os
import select
import shutil
import signal
import subprocess
import threading
import time
from collections import deque
from collections.abc import Mapping, Sequence
from typing import IO, NoReturn

from firmware.errors import XtraboardError
from firmware.xdp.sandbox import Sandbox, SandboxMissing, environment, find_bwrap

log = logging.getLogger("xtraboard.engine")
HANDSHAKE_S = 10.0  # an engine may load tables at start
GRACE_S = 2.0  # beyond movetime: pipes and process start-up on a slow Pi
MAX_LINE_BYTES = 16 * 1024  # a step is a few dozen bytes; info lines are short
MAX_QUEUED_LINES = 256  # sent and not read yet (between decisions nothing should come)
MAX_ANSWER_LINES = 1000  # lines before the awaited one (xdpok, readyok, bestmove)
STDERR_TAIL_BYTES = 4096


class EngineError(XtraboardError, RuntimeError):
    """An external engine that did not give a usable answer."""


class EngineProcess:
    """One engine program, started on first use and kept running between decisions."""

    def __init__(
        self,
        name: str,
        command: Sequence[str],
        *,
        options: Mapping[str, str] | None = None,
        timeout_s: float = 5.0,
        sandbox: Sandbox | None = None,
    ) -> None:
        if not command:
            raise EngineError(f"engine {name!r}: no command line")
        self.name = name
        self.command = list(command)
        self.options = dict(options or {})
        self.timeout_s = timeout_s
        self.engine_id = ""
        self.sandbox = sandbox if sandbox is not None else Sandbox()
        self._process: subprocess.Popen[bytes] | None = None
        self._lines = _Lines()
        self._stderr = _Tail()
        self._drainer: threading.Thread | None = None

    # --- asking ----------------------------------------------------------------------------
    def decide(self, record: Mapping[str, object], movetime_ms: int | None = None) -> dict[str, object]:
        """The engine's decision step (record JSON) for the position `record` (no "result")."""
        self._ensure_started()
        position = {k: v for k, v in record.items() if k != "result"}
        deadline = time.monotonic() + (movetime_ms or 0) / 1000.0 + self.timeout_s + GRACE_S
        self._send("position " + json.dumps(position, separators=(",", ":")), deadline)
        self._send(f"go movetime {movetime_ms}" if movetime_ms else "go", deadline)
        why = ""
        for _ in range(MAX_ANSWER_LINES + 1):
            line = self._read(deadline, "bestmove")
            if line.startswith("info string error"):
                why = line.removeprefix("info string error").strip()
            elif line.startswith("bestmove"):
                break
        else:
            self._fail(f"sent more than {MAX_ANSWER_LINES} lines without a bestmove")
        answer = line.removeprefix("bestmove").strip()
        if answer == "none" or not answer:
            raise EngineError(f"engine {self.name!r} found no move{': ' + why if why else ''}")
        try:
            step = json.loads(answer)
        except (ValueError, RecursionError) as exc:
            raise EngineError(f"engine {self.name!r} answered {answer[:80]!r}, not a step as JSON") from exc
        if not isinstance(step, dict):
            raise EngineError(f"engine {self.name!r} answered {answer[:80]!r}, not a step object")
        return step

    def close(self) -> None:
        """Ask the engine to quit, then end its whole process group (and with the box, every
        process inside it: a wrapper script's children too). Idempotent."""
        process, self._process = self._process, None
        if process is None:
            return
        try:
            if process.poll() is None and process.stdin is not None:
                os.write(process.stdin.fileno(), b"quit\n")  # non-blocking: a deaf engine holds nobody up
            process.wait(1.0)
        except (OSError, ValueError, subprocess.TimeoutExpired):
            pass
        _end(process)

    def stderr_tail(self) -> str:
        """The last STDERR_TAIL_BYTES the engine wrote on its standard error, as text."""
        return self._stderr.text()

    def __enter__(self) -> EngineProcess:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    # --- the conversation -------------------------------------------------------------------
    def _ensure_started(self) -> None:
        if self._process is not None and self._process.poll() is None:
            return
        self.close()
        self._process = self._start()
        self._lines, self._stderr = _Lines(), _Tail()
        threading.Thread(
            target=_pump, args=(self._process.stdout, self._lines), daemon=True, name=f"xdp-{self.name}"
        ).start()
        self._drainer = threading.Thread(
            target=_drain, args=(self._process.stderr, self._stderr), daemon=True, name=f"xdp-{self.name}-stderr"
        )
        self._drainer.start()
        deadline = time.monotonic() + HANDSHAKE_S
        self._send("xdp", deadline)
        for _ in range(MAX_ANSWER_LINES + 1):
            line = self._read(deadline, "xdpok")
            if line == "xdpok":
                break
            if line.startswith("id name "):
                self.engine_id = line.removeprefix("id name ")
        else:
            self._fail(f"sent more than {MAX_ANSWER_LINES} lines without its xdpok")
        for option, value in self.options.items():
            self._send(f"setoption name {option} value {value}", deadline)
        self._send("isready", deadline)
        for _ in range(MAX_ANSWER_LINES + 1):
            if self._read(deadline, "readyok") == "readyok":
                break
        else:
            self._fail(f"sent more than {MAX_ANSWER_LINES} lines without its readyok")

    def _start(self) -> subprocess.Popen[bytes]:
        """The engine's process in its box, in a new session (so a process group of its own)."""
        try:
            bwrap = find_bwrap()
        except SandboxMissing as exc:
            raise EngineError(f"engine {self.name!r} is not started: {exc}") from exc
        if shutil.which(self.command[0]) is None:
            raise EngineError(
                f"engine {self.name!r} does not start ({' '.join(self.command)}): no program {self.command[0]!r}"
            )
        pipes = [os.pipe() for _ in range(self.sandbox.files_to_cover())]
        empty = [read for read, write in pipes]
        for _, write in pipes:
            os.close(write)  # each reads as an empty file, once
        try:
            command = self.sandbox.command(self.command, bwrap=bwrap, empty_fds=empty)
            process = subprocess.Popen(
                command,
                stdin=subprocess.PIPE,
                stdout=subprocess.PIPE,
                stderr=subprocess.PIPE,
                pass_fds=empty,
                start_new_session=True,
                env=environment(),  # not the board's: it may hold credentials
            )
            if process.stdin is not None:  # writes wait with a deadline (select), never for ever
                os.set_blocking(process.stdin.fileno(), False)
            return process
        except (OSError, ValueError) as exc:
            raise EngineError(f"engine {self.name!r} does not start ({' '.join(self.command)}): {exc}") from exc
        finally:
            for fd in empty:
                os.close(fd)

    def _send(self, line: str, deadline: float) -> None:
        """Write `line` to the engine by `deadline`: an engine that stops reading its input (the
        pipe full) fails like one that stops answering, instead of blocking the asker for ever."""
        process = self._process
        data = memoryview(line.encode("utf-8", "replace") + b"\n")
        try:
            if process is None or process.stdin is None:
                raise BrokenPipeError
            fd = process.stdin.fileno()
            while data:
                try:
                    data = data[os.write(fd, data) :]
                except BlockingIOError:
                    left = deadline - time.monotonic()
                    if left <= 0 or not select.select([], [fd], [], left)[1]:
                        self._fail("stopped reading its input in time")
        except (OSError, ValueError) as exc:
            self._fail(f"stopped listening ({type(exc).__name__})")

    def _read(self, deadline: float, waiting_for: str) -> str:
        """The next line, if it comes before `deadline` (time.monotonic)."""
        line = self._lines.get(deadline)
        if isinstance(line, _Fault):
            self._fail(str(line))
        if line is _TIMEOUT:
            self._fail(f"sent no {waiting_for} in time")
        if line is _END:
            code = _exit_code(self._process)
            if self._drainer is not None:
                self._drainer.join(0.5)  # its last words, if any
            said = self._stderr.last_line()  # e.g. bwrap's own reason, when the box cannot be made
            self._fail(f"exited (code {code}) before its {waiting_for}" + (f" ({said})" if said else ""))
        assert isinstance(line, str)
        return line

    def _fail(self, what: str) -> NoReturn:
        process, self._process = self._process, None
        if process is not None:
            _end(process)
        said = self._stderr.last_line()
        if said:
            log.warning("engine %s %s; its last words on stderr: %s", self.name, what, said)
        raise EngineError(f"engine {self.name!r} {what}")


def _end(process: subprocess.Popen[bytes]) -> None:
    """Kill the engine's process group (bwrap, and with it the box's every process) and reap it."""
    try:
        os.killpg(process.pid, signal.SIGKILL)
    except (ProcessLookupError, PermissionError):
        pass  # already gone
    try:
        process.wait(5.0)
    except subprocess.TimeoutExpired:
        log.warning("engine process %d did not end after SIGKILL", process.pid)
    for stream in (process.stdin, process.stdout, process.stderr):
        try:
            if stream is not None:
                stream.close()
        except OSError:
            pass


def _exit_code(process: subprocess.Popen[bytes] | None) -> int | None:
    """The code of a process whose output just ended (it may take a moment to be reaped)."""
    try:
        return process.wait(1.0) if process is not None else None
    except subprocess.TimeoutExpired:
        return None


_END = object()  # the engine's output ended
_TIMEOUT = object()  # no line before the deadline


class _Lines:
    """The engine's output lines, bounded: the reader thread `put`s, the asking thread `get`s.
    A fault (a line too long, too many unread) ends the stream with its reason."""

    def __init__(self) -> None:
        self._ready = threading.Condition()
        self._lines: deque[str] = deque()
        self._end: object | None = None  # _END, or the reason text of a fault

    def put(self, line: str) -> bool:
        """Queue a line; False (and the stream ends with the reason) when too many are unread."""
        with self._ready:
            if len(self._lines) >= MAX_QUEUED_LINES:
                self._end = f"sent more than {MAX_QUEUED_LINES} lines that were not asked for"
                self._lines.clear()
            else:
                self._lines.append(line)
            self._ready.notify()
            return self._end is None

    def end(self, reason: object = _END) -> None:
        with self._ready:
            if self._end is None:
                self._end = reason
            self._ready.notify()

    def get(self, deadline: float) -> object:
        """The next line (str), else _END, a fault's reason (_Fault) or _TIMEOUT."""
        with self._ready:
            while not self._lines and self._end is None:
                left = deadline - time.monotonic()
                if left <= 0:
                    return _TIMEOUT
                self._ready.wait(left)
            if self._lines:
                return self._lines.popleft()
            return _Fault(self._end) if isinstance(self._end, str) else _END


class _Fault(str):
    """A fault's reason, told apart from an ordinary line."""


def _pump(stream: IO[bytes] | None, lines: _Lines) -> None:
    """Move the engine's output lines to `lines`, reading at most MAX_LINE_BYTES + 1 at a time:
    an endless line is found after that many bytes, not after all of them."""
    try:
        while stream is not None:
            raw = stream.readline(MAX_LINE_BYTES + 1)
            if not raw:
                break
            if len(raw) > MAX_LINE_BYTES and not raw.endswith(b"\n"):
                lines.end(f"sent a line longer than {MAX_LINE_BYTES} bytes")
                return
            try:
                line = raw.decode("utf-8").rstrip("\r\n")
            except UnicodeDecodeError:
                lines.end("sent bytes that are not UTF-8 text")
                return
            if not lines.put(line):
                return
    except (OSError, ValueError):
        pass  # a closed pipe: the same as no more answers
    lines.end()


class _Tail:
    """The last STDERR_TAIL_BYTES of a stream."""

    def __init__(self) -> None:
        self._lock = threading.Lock()
        self._data = bytearray()

    def add(self, chunk: bytes) -> None:
        with self._lock:
            self._data += chunk
            del self._data[:-STDERR_TAIL_BYTES]

    def text(self) -> str:
        with self._lock:
            return bytes(self._data).decode("utf-8", "replace")

    def last_line(self) -> str:
        """The last line said, printable characters only, cut to 200 (for a log line)."""
        lines = [line for line in self.text().splitlines() if line.strip()]
        return "".join(c for c in lines[-1] if c.isprintable())[:200] if lines else ""


def _drain(stream: IO[bytes] | None, tail: _Tail) -> None:
    """Read the engine's standard error as it comes (a full pipe would stall it), keeping the tail."""
    try:  # a buffered pipe's read1 returns what is there; a raw stream (IO[bytes] says neither) has none
        while stream is not None and (chunk := stream.read1(4096) if hasattr(stream, "read1") else stream.read(4096)):
            tail.add(chunk)
    except (OSError, ValueError):
        pass
