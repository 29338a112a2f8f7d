"""Where the bots think: a `Thought` (a decision of a bot level, or a hint) run either on a thread
of the board's process (`run_thought`, for boards on a fake clock: tests and headless scenarios
stay deterministic and quick) or in the board's own thinking process (`ThinkerProcess`), so a
search never shares an interpreter lock with the loop thread.

The process is ours (`python -m firmware.thinker`), started with the board and kept for its
life. It gets pickled `Thought`s on its stdin and sends back `("ok", step, reason)` or
`("error", text)` on its stdout (multiprocessing's length-prefixed frames), after a first
`("ready", pid)`. A thread of the board (not the loop thread) waits for each reply; a crash, a
hang (no reply in `timeout_s`) or a reply that is not one of those is a failure of the process:
it is killed and started again, the question asked once more, and the reply carries a `note`
for the players. The loop thread only queues questions and receives answers as events.

    >>> import random
    >>> from firmware.games import new_game, Roll
    >>> game = new_game("exxtra", ["A", "B", "C"]); game.apply(Roll(("7", "6")))
    >>> run_thought(Thought("decide", None, game, random.Random(1)))
    Reply(step=Place(rung=5), reason='', error=None, note=None)
"""

from __future__ import annotations

import logging
import os
import pickle
import queue
import random
import select
import signal
import struct
import subprocess
import sys
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass
from multiprocessing.connection import Connection
from pathlib import Path

from firmware.games import Game
from firmware.games.base import Step

log = logging.getLogger("xtraboard.thinker")

THINK_TIMEOUT_S = 10.0  # no reply this long is a hang: far past any built-in level's decision
START_TIMEOUT_S = 30.0  # from start to "ready" (imports on a cold Pi Zero with no bytecode)
MAX_REPLY_BYTES = 1 << 20  # a reply is a step and a short reason: more is garbage
CLOSE_WAIT_S = 1.0


@dataclass(frozen=True)
class Thought:
    """One search: `kind` "decide" (the bot of `level`; None: the deciding seat's own), "hint"
    (the strong bot's decision and its reason, worded in `language`) or "rate" (the coach's
    `firmware.coach.Rating` of `step`, the decision a person made) for `game`'s pending
    decision, with the bots' seeded randomness for this position."""

    kind: str
    level: str | None
    game: Game
    rng: random.Random
    language: str = "en"
    step: Step | None = None


@dataclass(frozen=True)
class Reply:
    """What a thought came to: a `step` (and for a hint its `reason`), or why not (`error`).
    `note`: the thinking process failed and was started again on the way (said to the players)."""

    # a decision (decide, hint) or a `Rating` (rate); what the process sent, unpickled: whoever
    # asked checks it against the game
    step: object = None
    reason: str = ""
    error: str | None = None
    note: str | None = None


Answer = Callable[[Reply], None]  # called on a thread of the board, never the loop thread's work


def think(thought: Thought) -> tuple[object, str]:
    """The thought's decision and reason; raises what the bot raises."""
    if thought.kind == "hint":
        from firmware import i18n
        from firmware.hints import hint

        i18n.use(thought.language)
        return hint(thought.game, thought.rng)
    if thought.kind == "rate":
        from firmware.coach import rate

        if thought.step is None:
            raise ValueError("a rate thought names the step it rates")
        return rate(thought.game, thought.step), ""
    if thought.kind != "decide":
        raise ValueError(f"unknown thought {thought.kind!r}: decide, hint or rate")
    from firmware.bots import choose

    return choose(thought.game, thought.rng, thought.level), ""


def run_thought(thought: Thought) -> Reply:
    """`think`, with a failing bot's exception as the reply's `error` (it must not take the
    worker, or the board, down)."""
    try:
        step, reason = think(thought)
    except Exception as exc:
        log.exception("a bot failed to decide")
        return Reply(error=f"{type(exc).__name__}: {exc}")
    return Reply(step, reason)


class ThinkerError(Exception):
    """The thinking process crashed, hung or answered garbage."""


class _Child:
    """One running thinking process and the two ends of its pipes."""

    def __init__(self, command: list[str]) -> None:
        env = dict(os.environ)
        root = str(Path(__file__).resolve().parent.parent)  # the firmware package, installed or not
        env["PYTHONPATH"] = os.pathsep.join(p for p in (root, env.get("PYTHONPATH", "")) if p)
        self.started = time.monotonic()
        self.process = subprocess.Popen(
            command, stdin=subprocess.PIPE, stdout=subprocess.PIPE, env=env, start_new_session=True
        )  # a Ctrl-C of the board is not its
        assert self.process.stdin is not None and self.process.stdout is not None
        self.send_end = Connection(os.dup(self.process.stdin.fileno()), readable=False)
        self.receive_end = Connection(os.dup(self.process.stdout.fileno()), writable=False)
        self.process.stdin.close()
        self.process.stdout.close()
        self.ready_s: float | None = None  # how long it took to be ready, once it was

    @property
    def pid(self) -> int:
        return self.process.pid

    def receive(self, timeout_s: float) -> object:
        """The next message, or ThinkerError: killed when it takes longer than `timeout_s` (a
        hang, or a frame that never ends), ended, or not a pickle. Read with `select`, no
        watchdog thread: a thread started and stopped for each reply made the loop thread wait
        for the interpreter lock (a press's p99 rose from 2.7 to 5.8 ms under a stream of replies)."""
        deadline = time.monotonic() + timeout_s
        try:
            (size,) = struct.unpack("!i", self._read(4, deadline, timeout_s))
            if size == -1:  # multiprocessing's header of a frame past 2 GB
                (size,) = struct.unpack("!Q", self._read(8, deadline, timeout_s))
            if not 0 <= size <= MAX_REPLY_BYTES:
                self.kill()
                raise ThinkerError(f"it answered garbage (a frame of {size} bytes)")
            data = self._read(size, deadline, timeout_s)
        except OSError as exc:
            raise ThinkerError(f"it ended ({self._ended()})") from exc
        try:
            return pickle.loads(data)
        except Exception as exc:
            raise ThinkerError(f"it answered garbage ({type(exc).__name__})") from None

    def _read(self, count: int, deadline: float, timeout_s: float) -> bytes:
        """Exactly `count` bytes of the reply pipe by `deadline` (else killed: a hang)."""
        fd = self.receive_end.fileno()
        data = b""
        while len(data) < count:
            left = deadline - time.monotonic()
            if left <= 0:
                self.kill()
                raise ThinkerError(f"no answer in {timeout_s:g} s")
            readable, _, _ = select.select([fd], [], [], left)
            if readable:
                chunk = os.read(fd, count - len(data))
                if not chunk:
                    raise ThinkerError(f"it ended ({self._ended()})")
                data += chunk
        return data

    def send(self, message: Thought | None) -> None:
        try:
            self.send_end.send(message)
        except (OSError, ValueError) as exc:
            raise ThinkerError(f"it ended ({self._ended()})") from exc

    def _ended(self) -> str:
        try:
            code = self.process.wait(timeout=CLOSE_WAIT_S)
        except subprocess.TimeoutExpired:
            return "its pipe closed"
        return f"signal {-code}" if code < 0 else f"exit code {code}"

    def kill(self) -> None:
        if self.process.poll() is None:
            self.process.kill()

    def close(self) -> None:
        try:
            self.send_end.send(None)  # "no more": it ends by itself
        except (OSError, ValueError):
            pass
        try:
            self.process.wait(timeout=CLOSE_WAIT_S)
        except subprocess.TimeoutExpired:
            self.kill()
            self.process.wait()
        self.send_end.close()
        self.receive_end.close()


class ThinkerProcess:
    """The board's thinking process and the one thread that talks to it. `think()` and
    `submit()` return at once (they only queue); the thread runs them in order: a thought in
    the process, a plain job (a test's custom policy) on the thread itself. Use it as an agents'
    `Runner` (firmware.agents). `start()` (done by the first job if not before) starts the
    process; `close()` ends both."""

    def __init__(
        self,
        command: list[str] | None = None,
        *,
        timeout_s: float = THINK_TIMEOUT_S,
        start_timeout_s: float = START_TIMEOUT_S,
    ) -> None:
        self.command = command or [sys.executable, "-m", "firmware.thinker"]
        self.timeout_s = timeout_s
        self.start_timeout_s = start_timeout_s
        self.restarts = 0  # how many times the process was started again after a failure
        self.ready_s: list[float] = []  # start-to-ready seconds of each start
        self._jobs: queue.SimpleQueue[tuple[Thought, Answer] | Callable[[], None] | None] = queue.SimpleQueue()
        self._lock = threading.Lock()
        self._thread: threading.Thread | None = None
        self._child: _Child | None = None
        self._closed = False

    # --- any thread (the loop's, in practice): queue and return ---------------------------------
    def start(self) -> None:
        with self._lock:
            if self._closed:
                raise RuntimeError("the bots' thinking process is closed")
            if self._thread is None:
                self._thread = threading.Thread(target=self._serve, name="xtraboard-thinker", daemon=True)
                self._thread.start()

    def think(self, thought: Thought, answer: Answer) -> None:
        self.start()
        self._jobs.put((thought, answer))

    def submit(self, job: Callable[[], None]) -> None:
        self.start()
        self._jobs.put(job)

    @property
    def pid(self) -> int | None:
        child = self._child
        return child.pid if child is not None else None

    def close(self) -> None:
        """End the process (a search under way is cut short: the board is going) and the thread."""
        with self._lock:
            self._closed = True
            thread, self._thread = self._thread, None
        self._jobs.put(None)
        child = self._child
        if child is not None and thread is not None and thread.is_alive():
            child.kill()  # a thread waiting for a reply gets its end at once
        if thread is not None and thread is not threading.current_thread():
            thread.join(timeout=CLOSE_WAIT_S)
        child, self._child = self._child, None
        if child is not None:
            child.close()

    # --- the talking thread ----------------------------------------------------------------------
    def _serve(self) -> None:
        try:
            self._ensure()  # started with the board: the first question finds it ready
        except ThinkerError as exc:
            if not self._closed:  # (a board stopped while it started is no failure)
                log.warning("the bots' thinking process did not start: %s", exc)
        while True:
            job = self._jobs.get()
            if job is None:
                return
            if callable(job):
                job()
                continue
            thought, answer = job
            answer(self._ask(thought))

    def _ask(self, thought: Thought) -> Reply:
        note = None
        for attempt in (1, 2):
            try:
                child = self._ensure()
                child.send(thought)
                reply = self._reply(child.receive(self.timeout_s))
            except ThinkerError as exc:
                if self._closed:  # killed by close(): nobody waits for this answer any more
                    return Reply(error="the board is closing")
                why = f"the bots' process failed: {exc}"
                log.warning("%s (pid %s); starting it again", why, self.pid)
                self._restart()
                note = note or why
                if attempt == 2:
                    return Reply(error=why, note=note)
                continue
            return Reply(reply.step, reply.reason, reply.error, note)
        raise AssertionError("unreachable")

    @staticmethod
    def _reply(message: object) -> Reply:
        if isinstance(message, tuple) and len(message) == 3 and message[0] == "ok" and isinstance(message[2], str):
            return Reply(message[1], message[2])
        if isinstance(message, tuple) and len(message) == 2 and message[0] == "error" and isinstance(message[1], str):
            return Reply(error=message[1])
        raise ThinkerError(f"it answered garbage: {message!r:.60}")

    def _ensure(self) -> _Child:
        if self._child is not None:
            return self._child
        try:
            child = _Child(self.command)
        except OSError as exc:  # no interpreter to start (a broken install): each question says so
            raise ThinkerError(f"it could not start: {exc}") from None
        self._child = child
        hello = child.receive(self.start_timeout_s)
        if not (isinstance(hello, tuple) and len(hello) == 2 and hello[0] == "ready"):
            raise ThinkerError(f"it greeted with garbage: {hello!r:.60}")
        child.ready_s = time.monotonic() - child.started
        self.ready_s.append(child.ready_s)
        log.info("the bots' thinking process %d is ready in %.0f ms", child.pid, 1000 * child.ready_s)
        return child

    def _restart(self) -> None:
        child, self._child = self._child, None
        if child is not None:
            child.kill()
            child.close()
        self.restarts += 1


# --- the process itself ----------------------------------------------------------------------------
def warm_up() -> None:
    """Load every game's bots and what they load on first use (generated tables), by one
    decision of each level on a seeded first roll, so that the first question costs what any
    later one does."""
    from firmware.bots import choose
    from firmware.games import Roll, new_game
    from firmware.games.registry import games

    rng = random.Random(0)
    for spec in games():
        game = new_game(spec.name, [f"P{n}" for n in range(spec.players[-1])])
        game.apply(Roll(tuple(rng.choice(die) for die in game.dice())))
        for level in spec.levels:
            if game.legal_decisions():
                choose(game.copy(), random.Random(0), level)


def main() -> int:
    try:
        return serve()
    except (BrokenPipeError, ConnectionResetError):  # the board went away first: nothing to say
        return 0


def serve() -> int:
    inbox = Connection(os.dup(0), writable=False)
    outbox = Connection(os.dup(1), readable=False)
    os.dup2(2, 1)  # a stray print goes to the log, never into the replies' frames
    signal.signal(signal.SIGINT, signal.SIG_IGN)  # the board stops it (or its pipe closing does)
    warm_up()
    outbox.send(("ready", os.getpid()))
    while True:
        try:
            thought = inbox.recv()
        except EOFError:  # the board is gone
            return 0
        if thought is None:
            return 0
        try:
            step, reason = think(thought)
            reply: tuple[object, ...] = ("ok", step, reason)
        except Exception as exc:  # a bot's failure is an answer ("a bot could not decide")
            log.exception("a bot failed to decide")
            reply = ("error", f"{type(exc).__name__}: {exc}")
        outbox.send(reply)


if __name__ == "__main__":
    sys.exit(main())
