"""Agents: who decides for a seat. A person, a built-in bot and (later) an engine in another
process are the same thing to the table: asked for a decision, they answer *later*, by posting an
`AgentAnswer` through the `post` callable they were given (the board loop's thread-safe `post`).

The loop thread applies an answer only if its `token` still names the table's position (see
`firmware.table.Table.token`); an answer to a position that has changed since (undo, abandon,
resume) is dropped. Bots never think on the loop thread: on the board's thinking process
(firmware.thinker, the real board and the simulator's window), or on a worker thread (a board on
a fake clock), or inline (screens tested alone):

    >>> import random
    >>> from firmware.games import Roll, new_game
    >>> answers = []
    >>> bot = BotAgent("easy", answers.append, Inline())
    >>> game = new_game("exxtra", ["A", "B", "C"]); game.apply(Roll(("7", "6")))
    >>> bot.ask(Question((1, 0), 0, game.copy(), random.Random(1)))
    >>> answers
    [AgentAnswer(token=(1, 0), step=Place(rung=5), error=None, engine=None, note=None, sent=None)]

An engine in another process (`EngineAgent`, an `[[engines]]` entry of the board description)
is a third kind: it asks the process (docs/engine-protocol.md) on a thread of its own and posts
the step it answers as JSON (`AgentAnswer.engine` names it). The loop thread checks it against
the legal decisions; when the engine fails or answers an illegal step, `fall_back()` hands the
seat to the built-in strong bot for the rest of the game.

`Agent` is the small protocol all of them meet (a seat at another board will be one more kind);
the board's turn runner (firmware.turns) asks them and checks their answers.
"""

from __future__ import annotations

import logging
import queue
import random
import threading
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Protocol

from firmware.bots import choose
from firmware.errors import RecordError
from firmware.games import Game, Player, find_game
from firmware.games.base import Step
from firmware.thinker import Answer, Reply, Thought, run_thought

if TYPE_CHECKING:  # loaded only when a board has engines: no subprocess machinery at start-up
    from firmware.hardware.config import EngineConfig
    from firmware.xdp.client import EngineProcess

log = logging.getLogger("xtraboard.agents")

Token = tuple[int, int]  # (table id, generation): one position of one table
Post = Callable[["AgentAnswer"], None]  # thread-safe: the loop's `post` (or a direct call, for screens alone)
WORKER_IDLE_S = 30.0  # an idle worker thread ends; the next question starts a new one


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
    step: Step | None = None  # a decision of the game asked (an engine's once checked)
    error: str | None = None
    engine: str | None = None  # an engine's answer: what it `sent`, not yet checked
    note: str | None = None  # the bots' process failed on the way and was started again
    sent: object = None  # an engine's step as it sent it (JSON), until `checked_engine_answer`


@dataclass(frozen=True)
class HintAnswer(AgentAnswer):
    """What the strong bot would do for a person's decision (`step`), and why in a few words."""

    reason: str = ""


@dataclass(frozen=True)
class CoachAnswer(AgentAnswer):
    """The coach's rating of a person's decision (`rating`: what the process sent, a
    `firmware.coach.Rating` unless something went wrong), handed on the loop thread to
    `deliver` (firmware.ui.moments)."""

    deliver: Callable[[CoachAnswer], None] | None = None
    rating: object = None


class Agent(Protocol):
    """Who decides for a seat: `ask` returns at once; the answer comes later through the `post`
    the agent was given, for the question's token."""

    kind: str  # "person", "bot", "engine", ...: for logs and tests

    def ask(self, question: Question) -> None: ...

    def close(self) -> None:
        """Let go of what the agent holds (threads, processes); nothing by default."""
        return None


class Person:
    """A person at the board: the screens supply their decisions, the table never asks."""

    kind = "person"

    def ask(self, question: Question) -> None:
        raise TypeError("a person is not asked: the buttons bring their decisions")

    def close(self) -> None:
        pass


# --- where bots think --------------------------------------------------------------------------
class Runner(Protocol):
    """Where an agent's work runs: `think` and `submit` return at once (or, inline, after the
    job). `think` runs a bot's search (firmware.thinker.Thought) and hands its Reply to `answer`;
    `submit` runs a plain job (an engine's question, a test's own policy) on a thread."""

    def think(self, thought: Thought, answer: Answer) -> None: ...

    def submit(self, job: Callable[[], None]) -> None: ...

    def close(self) -> None: ...


class Inline:
    """Runs each job at once on the caller's thread: only for an app with no loop to post to
    (screens tested alone), where the answer is handled as soon as it is given."""

    def think(self, thought: Thought, answer: Answer) -> None:
        answer(run_thought(thought))

    def submit(self, job: Callable[[], None]) -> None:
        job()

    def close(self) -> None:
        pass


class Worker:
    """One daemon thread, started on the first job, that runs jobs in order. It ends after
    `idle_s` without work (a board left unclosed in a test keeps no thread) or on `close()`.
    Boards on a fake clock think here: deterministic, and no process to start per board. It
    shares the interpreter with the loop thread; the real board thinks in its own process."""

    def __init__(self, idle_s: float = WORKER_IDLE_S) -> None:
        self.idle_s = idle_s
        self._jobs: queue.SimpleQueue[Callable[[], None] | None] = queue.SimpleQueue()
        self._lock = threading.Lock()
        self._thread: threading.Thread | None = None
        self._closed = False

    def think(self, thought: Thought, answer: Answer) -> None:
        self.submit(lambda: answer(run_thought(thought)))

    def submit(self, job: Callable[[], None]) -> None:
        with self._lock:
            if self._closed:
                raise RuntimeError("the agents' worker is closed")
            self._jobs.put(job)
            if self._thread is None:
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


Policy = Callable[[Game, random.Random], Step]  # a test's or a bench's own bot


class BotAgent:
    """A built-in bot of `level`: its search (firmware.bots.choose) runs on the question's copy
    of the game where `runner` thinks, and the answer is posted. `fixed`: play `level` whatever
    the seat says (an engine's fallback); else the seat's own level, as `choose` reads it. A
    `policy` of the caller's own (tests, benches) runs on the runner's thread instead."""

    kind = "bot"

    def __init__(
        self, level: str, post: Post, runner: Runner, policy: Policy | None = None, fixed: bool = False
    ) -> None:
        self.level = level
        self.post = post
        self.runner = runner
        self.policy = policy
        self.fixed = fixed

    def ask(self, question: Question) -> None:
        if self.policy is not None:
            self.runner.submit(lambda: self._think(question))
            return
        # An engine's fallback plays the game's strongest level (its last); a seat, its own.
        level = find_game(question.game.name).levels[-1] if self.fixed else None
        thought = Thought("decide", level, question.game, question.rng)
        self.runner.think(thought, lambda reply: self._answered(question, reply))

    def _answered(self, question: Question, reply: Reply) -> None:
        if reply.error is not None:
            log.warning("bot for seat %d failed: %s", question.seat, reply.error)
        step = legal_step(question.game, reply.step) if reply.error is None else None
        error = reply.error
        if error is None and step is None:
            error = f"answered {reply.step!r:.60}, not a legal decision"
        self.post(AgentAnswer(question.token, step, error, note=reply.note))

    def _think(self, question: Question) -> None:
        assert self.policy is not None
        try:
            answer = AgentAnswer(question.token, self.policy(question.game, question.rng))
        except Exception as exc:  # a bot that fails must not take the worker (or the board) down
            log.exception("bot for seat %d failed", question.seat)
            answer = AgentAnswer(question.token, error=f"{type(exc).__name__}: {exc}")
        self.post(answer)

    def close(self) -> None:
        pass  # its runner is the board's: closed with the board's agents


def legal_step(game: Game, sent: object) -> Step | None:
    """The legal decision of `game` equal to `sent` (what another process answered), or None."""
    return next((decision for decision in game.legal_decisions() if decision == sent), None)


def checked_engine_answer(game: Game, answer: AgentAnswer) -> AgentAnswer:
    """An engine's answer (its step as JSON) made a step of `game`, or with `error` when it is no
    legal decision of the pending one (checked on the loop thread, against the table's game)."""
    if answer.error is not None:
        return answer
    try:
        step = game.parse_step(answer.sent)
    except (RecordError, ValueError, TypeError, KeyError) as exc:
        return AgentAnswer(
            answer.token,
            error=f"engine {answer.engine!r} answered {answer.sent}, not a legal decision: {exc}",
            engine=answer.engine,
        )
    if step not in game.legal_decisions():
        return AgentAnswer(
            answer.token,
            error=f"engine {answer.engine!r} answered {answer.sent}, not a legal decision",
            engine=answer.engine,
        )
    return AgentAnswer(answer.token, step)


FALLBACK_LEVEL = "strong"  # who plays a seat whose engine failed
ENGINE_PREFIX = "engine:"  # a seat's `bot` for an engine: "engine:NAME" (docs/records.md)


def strong_policy(game: Game, rng: random.Random) -> object:
    """The game's strongest built-in level (its last), whatever the seat's `bot` says (an
    engine's fallback, hints)."""
    return choose(game, rng, find_game(game.name).levels[-1])


class EngineAgent:
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
            answer = AgentAnswer(question.token, engine=self.name, sent=step)
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
    """Makes each seat's agent: a `Person`, a `BotAgent` thinking where `runner` thinks (the
    board's thinking process, firmware.thinker; a worker thread by default; inline for an app
    without a loop), or an `EngineAgent` for a seat whose `bot` is
    "engine:NAME" (`engines`: the board description's [[engines]], firmware.hardware.config.
    EngineConfig). Close it with the board."""

    def __init__(
        self,
        post: Post,
        runner: Runner | None = None,
        policy: Policy | None = None,
        engines: Iterable[EngineConfig] = (),
        hidden: Iterable[str | Path] = (),
    ) -> None:
        self.post = post
        # Paths engines may not read or connect to: the board description and the files it names,
        # the journal, the debug socket (`hide`). A list, read by each box as its engine starts.
        self.hidden: list[str | Path] = list(hidden)
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

        fallback = BotAgent(FALLBACK_LEVEL, self.post, self.runner, self.policy, fixed=True)
        config = self.engines.get(name)
        if config is None:
            agent = EngineAgent(name, EngineProcess(name, ["-"]), self.post, fallback, runner=Inline())
            agent.failed = f"engine {name!r} is not in this board's description"
            return agent
        from firmware.xdp.sandbox import Sandbox

        process = EngineProcess(
            name,
            config.command,
            options=dict(config.options),
            timeout_s=config.timeout_s,
            sandbox=Sandbox(self.hidden, memory_bytes=config.memory_mb * 1024 * 1024),
        )
        agent = EngineAgent(name, process, self.post, fallback, config.movetime_ms)
        self._made = [a for a in self._made if not a.closed]
        self._made.append(agent)
        return agent

    def hide(self, path: str | Path) -> None:
        """Hide `path` too from every engine started from now on (e.g. a socket the board serves)."""
        self.hidden.append(path)

    def close(self) -> None:
        for agent in self._made:
            agent.close()
        self.runner.close()
