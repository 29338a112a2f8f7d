"""Agents: who decides for a seat. A person, a built-in bot and (later) an engine in another
process are the same thing to the table: asked for a decision, they answer *later*, by posting an
`AgentAnswer` through the `post` callable they were given (the board loop's thread-safe `post`).

The loop thread applies an answer only if its `token` still names the table's position (see
`firmware.table.Table.token`); an answer to a position that has changed since (undo, abandon,
resume) is dropped. Bots think on a worker thread, never on the loop thread:

    >>> import random
    >>> from firmware.games import Roll, new_game
    >>> answers = []
    >>> bot = BotAgent("easy", answers.append, Inline())
    >>> game = new_game("exxtra", ["A", "B", "C"]); game.apply(Roll(("7", "6")))
    >>> bot.ask(Question((1, 0), 0, game.copy(), random.Random(1)))
    >>> answers
    [AgentAnswer(token=(1, 0), step=Place(rung=5), error=None)]

An engine in another process (`EngineAgent`, an `[[engines]]` entry of the board description)
is a third kind: it asks the process (docs/engine-protocol.md) on a thread of its own and posts
the step it answers as JSON (`AgentAnswer.engine` names it). The loop thread checks it against
the legal decisions; when the engine fails or answers an illegal step, `fall_back()` hands the
seat to the built-in strong bot for the rest of the game.
"""

from __future__ import annotations

import logging
import queue
import random
import sys
import threading
from collections.abc import Callable
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, Protocol

from firmware.bots import choose
from firmware.games import Game, Player, find_game

if TYPE_CHECKING:  # loaded only when a board has engines: no subprocess machinery at start-up
    from firmware.xdp.client import EngineProcess

log = logging.getLogger("xtraboard.agents")

Token = tuple[int, int]  # (table id, generation): one position of one table
Post = Callable[[Any], None]  # thread-safe: the loop's `post` (or a direct call, for screens alone)
WORKER_IDLE_S = 30.0  # an idle worker thread ends; the next question starts a new one
# How long a thinking bot may hold the interpreter before the loop thread gets it (Python's
# default is 5 ms; `xtraboard bench loop` shows edge-to-push while a bot thinks drop from about
# 6 ms to under 1 ms at the median with 1 ms).
SWITCH_S = 0.001


@dataclass(frozen=True)
class Question:
    """A decision asked of `seat`'s agent: a private copy of the game (the agent may read it from
    any thread) and the bots' randomness for this position."""

    token: Token
    seat: int
    game: Game
    rng: random.Random


@dataclass(frozen=True)
class AgentAnswer:
    """An agent's decision (`step`) for the position `token`, or why it has none (`error`)."""

    token: Token
    step: Any = None
    error: str | None = None
    engine: str | None = None  # an engine's answer: `step` is its JSON, not checked yet


@dataclass(frozen=True)
class HintAnswer(AgentAnswer):
    """What the strong bot would do for a person's decision (`step`), and why in a few words."""

    reason: str = ""


class Agent:
    """Base of the agents: `ask` returns at once; the answer comes later through `post`."""

    kind = "agent"

    def ask(self, question: Question) -> None:
        raise NotImplementedError

    def close(self) -> None:
        """Let go of what the agent holds (threads, processes); nothing by default."""


class Person(Agent):
    """A person at the board: the screens supply their decisions, the table never asks."""

    kind = "person"

    def ask(self, question: Question) -> None:
        raise TypeError("a person is not asked: the buttons bring their decisions")


# --- where bots think --------------------------------------------------------------------------
class Runner(Protocol):
    """Where an agent's work runs: `submit` returns at once (or, inline, after the job)."""

    def submit(self, job: Callable[[], None]) -> None: ...

    def close(self) -> None: ...


class Inline:
    """Runs each job at once on the caller's thread: only for an app with no loop to post to
    (screens tested alone), where the answer is handled as soon as it is given."""

    def submit(self, job: Callable[[], None]) -> None:
        job()

    def close(self) -> None:
        pass


class Worker:
    """One daemon thread, started on the first job, that runs jobs in order. It ends after
    `idle_s` without work (a board left unclosed in a test keeps no thread) or on `close()`.
    Starting it lowers the interpreter's thread switch interval to `SWITCH_S` (process-wide,
    never raised back) so a bot's pure-Python thinking cannot keep the loop thread waiting."""

    def __init__(self, idle_s: float = WORKER_IDLE_S) -> None:
        self.idle_s = idle_s
        self._jobs: queue.SimpleQueue[Callable[[], None] | None] = queue.SimpleQueue()
        self._lock = threading.Lock()
        self._thread: threading.Thread | None = None
        self._closed = False

    def submit(self, job: Callable[[], None]) -> None:
        with self._lock:
            if self._closed:
                raise RuntimeError("the agents' worker is closed")
            self._jobs.put(job)
            if self._thread is None:
                if sys.getswitchinterval() > SWITCH_S:
                    sys.setswitchinterval(SWITCH_S)
                self._thread = threading.Thread(target=self._run, name="xtraboard-agents", daemon=True)
                self._thread.start()

    def _run(self) -> None:
        while True:
            try:
                job = self._jobs.get(timeout=self.idle_s)
            except queue.Empty:
                with self._lock:
                    if self._jobs.empty():  # nothing arrived meanwhile: this thread ends
                        self._thread = None
                        return
                continue
            if job is None:
                return
            job()

    def close(self) -> None:
        with self._lock:
            self._closed = True
            thread, self._thread = self._thread, None
            self._jobs.put(None)
        if thread is not None and thread is not threading.current_thread():
            thread.join(timeout=5.0)


Policy = Callable[[Game, random.Random], Any]


class BotAgent(Agent):
    """A built-in bot of `level`: runs the policy (firmware.bots.choose) on the question's copy
    of the game, on `runner`'s thread, and posts the answer."""

    kind = "bot"

    def __init__(self, level: str, post: Post, runner: Runner, policy: Policy | None = None) -> None:
        self.level = level
        self.post = post
        self.runner = runner
        self.policy = policy or choose

    def ask(self, question: Question) -> None:
        self.runner.submit(lambda: self._think(question))

    def _think(self, question: Question) -> None:
        try:
            answer = AgentAnswer(question.token, self.policy(question.game, question.rng))
        except Exception as exc:  # a bot that fails must not take the worker (or the board) down
            log.exception("bot for seat %d failed", question.seat)
            answer = AgentAnswer(question.token, error=f"{type(exc).__name__}: {exc}")
        self.post(answer)


FALLBACK_LEVEL = "strong"  # who plays a seat whose engine failed
ENGINE_PREFIX = "engine:"  # a seat's `bot` for an engine: "engine:NAME" (docs/records.md)


def strong_policy(game: Game, rng: random.Random) -> Any:
    """The game's strongest built-in level (its last), whatever the seat's `bot` says (an
    engine's fallback, hints)."""
    return choose(game, rng, find_game(game.name).levels[-1])


class EngineAgent(Agent):
    """An external engine (firmware.xdp.client.EngineProcess) deciding for a seat, asked on a
    worker thread of its own (a slow engine holds up no bot). It posts the engine's step as JSON
    (`AgentAnswer.engine` set) or the EngineError as `error`; the loop thread checks the step and,
    on any failure, calls `fall_back()`: from then on the built-in strong bot plays the seat."""

    kind = "engine"

    def __init__(
        self,
        name: str,
        process: EngineProcess,
        post: Post,
        fallback: Agent,
        movetime_ms: int | None = None,
        runner: Runner | None = None,
    ) -> None:
        self.name = name
        self.process = process
        self.post = post
        self.fallback = fallback
        self.movetime_ms = movetime_ms
        self.runner: Runner = runner if runner is not None else Worker()
        self.failed: str | None = None  # why the engine was given up, once it was
        self.closed = False

    def ask(self, question: Question) -> None:
        if self.failed is not None:
            self.fallback.ask(question)
            return
        self.runner.submit(lambda: self._think(question))

    def _think(self, question: Question) -> None:
        from firmware.xdp.client import EngineError

        try:
            step = self.process.decide(question.game.to_record(), self.movetime_ms)
            answer = AgentAnswer(question.token, step, engine=self.name)
        except EngineError as exc:
            answer = AgentAnswer(question.token, error=str(exc), engine=self.name)
        self.post(answer)

    def fall_back(self, why: str) -> None:
        """Give the engine up for this game (its process is stopped); the strong bot plays on."""
        if self.failed is None:
            self.failed = why
            log.warning("engine %s given up: %s", self.name, why)
            self.process.close()

    def close(self) -> None:
        self.closed = True
        self.process.close()  # first: a decide() waiting on it ends at once
        self.runner.close()


class Agents:
    """Makes each seat's agent: a `Person`, a `BotAgent` thinking on this board's one worker
    thread (or inline, for an app without a loop), or an `EngineAgent` for a seat whose `bot` is
    "engine:NAME" (`engines`: the board description's [[engines]], firmware.hardware.config.
    EngineConfig). Close it with the board."""

    def __init__(
        self, post: Post, runner: Runner | None = None, policy: Policy | None = None, engines: Any = ()
    ) -> None:
        self.post = post
        self.runner: Runner = runner if runner is not None else Worker()
        self.policy = policy
        self.engines = {engine.name: engine for engine in engines}
        self._made: list[EngineAgent] = []  # engine agents made and not closed yet: closed with the board

    def for_player(self, player: Player) -> Agent:
        if player.bot is None:
            return Person()
        if player.bot.startswith(ENGINE_PREFIX):
            return self.engine(player.bot.removeprefix(ENGINE_PREFIX))
        return BotAgent(player.bot, self.post, self.runner, self.policy)

    def engine(self, name: str) -> Agent:
        """An agent for the engine `name`; one this board does not know (a record from another
        board, a description changed since) is given up at once: the strong bot plays."""
        from firmware.xdp.client import EngineProcess

        fallback = BotAgent(FALLBACK_LEVEL, self.post, self.runner, self.policy or strong_policy)
        config = self.engines.get(name)
        if config is None:
            agent = EngineAgent(name, EngineProcess(name, ["-"]), self.post, fallback, runner=Inline())
            agent.failed = f"engine {name!r} is not in this board's description"
            return agent
        process = EngineProcess(name, config.command, options=dict(config.options), timeout_s=config.timeout_s)
        agent = EngineAgent(name, process, self.post, fallback, config.movetime_ms)
        self._made = [a for a in self._made if not a.closed]
        self._made.append(agent)
        return agent

    def close(self) -> None:
        for agent in self._made:
            agent.close()
        self.runner.close()
