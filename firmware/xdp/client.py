"""The board's side of XDP: an external engine run as a subprocess, asked for decisions with a
time limit. Anything that goes wrong — it will not start, crashes, hangs, answers nonsense —
is an `EngineError` naming the engine and what happened; the caller falls back to a built-in bot.

    engine = EngineProcess("mine", ["xtraboard", "engine"], options={"Level": "medium"})
    step = engine.decide(record, movetime_ms=500)    # e.g. {"do": "place", "rung": 5}
"""

from __future__ import annotations

import json
import queue
import subprocess
import threading
import time
from collections.abc import Mapping, Sequence
from typing import Any, NoReturn

from firmware.errors import XtraboardError

HANDSHAKE_S = 10.0  # an engine may load tables at start
GRACE_S = 2.0  # beyond movetime: pipes and process start-up on a slow Pi


class EngineError(XtraboardError, RuntimeError):
    """An external engine that did not give a usable answer."""


class EngineProcess:
    """One engine program, started on first use and kept running between decisions."""

    def __init__(
        self, name: str, command: Sequence[str], *, options: Mapping[str, str] | None = None, timeout_s: float = 5.0
    ) -> None:
        if not command:
            raise EngineError(f"engine {name!r}: no command line")
        self.name = name
        self.command = list(command)
        self.options = dict(options or {})
        self.timeout_s = timeout_s
        self.engine_id = ""
        self._process: subprocess.Popen[str] | None = None
        self._lines: queue.SimpleQueue[str | None] = queue.SimpleQueue()

    # --- asking ----------------------------------------------------------------------------
    def decide(self, record: Mapping[str, Any], movetime_ms: int | None = None) -> dict[str, Any]:
        """The engine's decision step (record JSON) for the position `record` (no "result")."""
        self._ensure_started()
        position = {k: v for k, v in record.items() if k != "result"}
        self._send("position " + json.dumps(position, separators=(",", ":")))
        self._send(f"go movetime {movetime_ms}" if movetime_ms else "go")
        deadline = time.monotonic() + (movetime_ms or 0) / 1000.0 + self.timeout_s + GRACE_S
        why = ""
        while True:
            line = self._read(deadline, "bestmove")
            if line.startswith("info string error"):
                why = line.removeprefix("info string error").strip()
            elif line.startswith("bestmove"):
                break
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
        """Ask the engine to quit; kill it if it does not. Idempotent."""
        process, self._process = self._process, None
        if process is None:
            return
        try:
            if process.poll() is None and process.stdin is not None:
                process.stdin.write("quit\n")
                process.stdin.flush()
            process.wait(1.0)
        except (OSError, ValueError, subprocess.TimeoutExpired):
            process.kill()
            process.wait()

    def __enter__(self) -> EngineProcess:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    # --- the conversation -------------------------------------------------------------------
    def _ensure_started(self) -> None:
        if self._process is not None and self._process.poll() is None:
            return
        self.close()
        try:
            self._process = subprocess.Popen(
                self.command,
                stdin=subprocess.PIPE,
                stdout=subprocess.PIPE,
                stderr=subprocess.DEVNULL,
                text=True,
                bufsize=1,
            )
        except OSError as exc:
            raise EngineError(f"engine {self.name!r} does not start ({' '.join(self.command)}): {exc}") from exc
        self._lines = queue.SimpleQueue()
        threading.Thread(target=_pump, args=(self._process, self._lines), daemon=True, name=f"xdp-{self.name}").start()
        deadline = time.monotonic() + HANDSHAKE_S
        self._send("xdp")
        while (line := self._read(deadline, "xdpok")) != "xdpok":
            if line.startswith("id name "):
                self.engine_id = line.removeprefix("id name ")
        for option, value in self.options.items():
            self._send(f"setoption name {option} value {value}")
        self._send("isready")
        while self._read(deadline, "readyok") != "readyok":
            pass

    def _send(self, line: str) -> None:
        process = self._process
        try:
            if process is None or process.stdin is None:
                raise BrokenPipeError
            process.stdin.write(line + "\n")
            process.stdin.flush()
        except (OSError, ValueError) as exc:
            self._fail(f"stopped listening ({type(exc).__name__})")

    def _read(self, deadline: float, waiting_for: str) -> str:
        """The next line, if it comes before `deadline` (time.monotonic)."""
        try:
            line = self._lines.get(timeout=max(0.0, deadline - time.monotonic()))
        except queue.Empty:
            self._fail(f"sent no {waiting_for} in time")
        if line is None:
            code = _exit_code(self._process)
            self._fail(f"exited (code {code}) before its {waiting_for}")
        return line

    def _fail(self, what: str) -> NoReturn:
        process, self._process = self._process, None
        if process is not None and process.poll() is None:
            process.kill()
            process.wait()
        raise EngineError(f"engine {self.name!r} {what}")


def _exit_code(process: subprocess.Popen[str] | None) -> int | None:
    """The code of a process whose output just ended (it may take a moment to be reaped)."""
    try:
        return process.wait(1.0) if process is not None else None
    except subprocess.TimeoutExpired:
        return None


def _pump(process: subprocess.Popen[str], lines: queue.SimpleQueue[str | None]) -> None:
    """Move the engine's output lines to the queue (None at end of output)."""
    try:
        for line in process.stdout or ():
            lines.put(line.rstrip("\r\n"))
    except (OSError, ValueError, UnicodeDecodeError):
        pass  # a closed pipe or bytes that are no text: the same as no more answers
    lines.put(None)
