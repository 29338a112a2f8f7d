"""The bots think in the board's own process (firmware/thinker.py): the answers are the ones the
bots give in-process, the process is started with the board, and a crash, a hang or garbage from
it restarts it, the seat plays on and the players get a note — never a stuck table."""

from __future__ import annotations

import os
import random
import signal
import sys
import threading
import time
from pathlib import Path

from firmware.agents import Agents
from firmware.bots import choose
from firmware.games import Roll, new_game
from firmware.table import Seat, Table
from firmware.thinker import Reply, ThinkerProcess, Thought, run_thought
from sim.board import SimBoard

WAIT_S = 30.0  # real seconds a test waits for the process before it fails (never when all is well)


def _state(pid: int) -> str:
    """The process's scheduler state (R running, S sleeping, T stopped, …)."""
    try:
        return Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[0]
    except (FileNotFoundError, ProcessLookupError):
        return "gone"


def _when_thinking(runner: ThinkerProcess, act: signal.Signals) -> threading.Thread:
    """Send `act` to the thinking process the first time it is seen running after it was ready
    (a search: it sleeps on its pipe otherwise)."""

    def watch() -> None:
        end = time.monotonic() + WAIT_S
        while time.monotonic() < end:
            pid = runner.pid
            if pid is not None and runner.ready_s and _state(pid) == "R":
                os.kill(pid, act)
                return
            time.sleep(0.0005)

    thread = threading.Thread(target=watch, daemon=True)
    thread.start()
    return thread


def _asked(runner: ThinkerProcess, thought: Thought) -> Reply:
    replies: list[Reply] = []
    got = threading.Event()
    runner.think(thought, lambda reply: (replies.append(reply), got.set()))
    assert got.wait(WAIT_S), "no reply"
    return replies[0]


def _extra_position(seed: int) -> object:
    table = Table.start("extra", [Seat("A", "red", bot="strong"), Seat("B", "blue", bot="strong")], seed=seed)
    table.apply(table.draw_roll())
    return table


def test_the_process_answers_what_the_bot_answers_in_process_and_from_another_pid():
    runner = ThinkerProcess()
    try:
        for seed in range(3):
            table = _extra_position(seed)
            thought = Thought("decide", "strong", table.game.copy(), table.bot_rng())
            assert _asked(runner, thought) == run_thought(
                Thought("decide", "strong", table.game.copy(), table.bot_rng())
            )
        assert runner.pid is not None and runner.pid != os.getpid() and runner.restarts == 0
        assert sys.getswitchinterval() == 0.005  # Python's default: nothing lowers it any more
    finally:
        runner.close()


def test_a_hint_is_worded_in_the_boards_language_by_the_process():
    game = new_game("exxtra", ["A", "B", "C"])
    game.apply(Roll(("7", "6")))
    runner = ThinkerProcess()
    try:
        english = _asked(runner, Thought("hint", "strong", game.copy(), random.Random(1), "en"))
        german = _asked(runner, Thought("hint", "strong", game.copy(), random.Random(1), "de"))
    finally:
        runner.close()
    assert english.step == german.step == choose(game.copy(), random.Random(1), "strong")
    assert english.reason and german.reason and english.reason != german.reason


def test_the_coach_rates_a_decision_in_the_process_as_it_does_in_process():
    """The Key moments' ratings (firmware.ui.moments) come from the thinking process too."""
    table = _extra_position(4)
    decision = table.game.legal_decisions()[-1]
    runner = ThinkerProcess()
    try:
        reply = _asked(runner, Thought("rate", None, table.game.copy(), random.Random(1), "en", step=decision))
    finally:
        runner.close()
    assert reply.error is None
    assert reply.step == run_thought(Thought("rate", None, table.game.copy(), random.Random(1), step=decision)).step
    assert reply.step.played == decision and reply.step.loss >= 0


def test_a_bot_that_fails_is_an_answer_not_a_restart():
    runner = ThinkerProcess()
    try:
        game = new_game("extra", ["A", "B"])  # a roll is pending: no decision to make
        reply = _asked(runner, Thought("decide", "strong", game, random.Random(1)))
    finally:
        runner.close()
    assert reply.error == "ValueError: no decision is pending" and reply.note is None and runner.restarts == 0


def test_a_process_killed_mid_thought_is_started_again_and_answers():
    runner = ThinkerProcess()
    try:
        runner.submit(lambda: None)  # started and ready
        table = _extra_position(7)
        first = runner.pid
        _when_thinking(runner, signal.SIGKILL)
        reply = _asked(runner, Thought("decide", "strong", table.game.copy(), table.bot_rng()))
        assert reply.error is None and reply.step in table.game.legal_decisions()
        assert reply.note is not None and "signal 9" in reply.note
        assert runner.restarts == 1 and runner.pid != first
    finally:
        runner.close()


def test_a_hung_process_is_killed_after_its_timeout_and_the_question_asked_again():
    runner = ThinkerProcess(timeout_s=0.5)
    try:
        runner.submit(lambda: None)
        table = _extra_position(8)
        _when_thinking(runner, signal.SIGSTOP)
        reply = _asked(runner, Thought("decide", "strong", table.game.copy(), table.bot_rng()))
        assert reply.error is None and reply.step in table.game.legal_decisions()
        assert reply.note == "the bots' process failed: no answer in 0.5 s"
        assert runner.restarts == 1
    finally:
        runner.close()


GARBAGE = """
import os, sys
from multiprocessing.connection import Connection
out = Connection(os.dup(1), readable=False)
out.send(("ready", os.getpid()))
Connection(os.dup(0), writable=False).recv_bytes()
out.send_bytes(b"this is no pickle")
"""


def test_garbage_twice_is_one_clear_error_for_that_question_and_a_note():
    runner = ThinkerProcess([sys.executable, "-c", GARBAGE])
    try:
        table = _extra_position(9)
        reply = _asked(runner, Thought("decide", "strong", table.game.copy(), table.bot_rng()))
    finally:
        runner.close()
    assert reply.error == "the bots' process failed: it answered garbage (UnpicklingError)"
    assert reply.note == reply.error and runner.restarts == 2


def test_the_bots_process_is_killed_mid_thought_and_the_game_goes_on():
    """A whole EXTRA! game of two strong bots on a board that thinks in its process; the process
    is killed while it searches. The table plays on to the end with a note, as it would with no
    kill (the same record: the question is asked again with the same seeded randomness)."""
    seats = [Seat("A", "red", bot="strong"), Seat("B", "blue", bot="strong")]
    reference = Table.start("extra", seats, seed=11)
    while not reference.over:
        reference.apply(
            reference.draw_roll() if reference.awaiting_roll else choose(reference.game, reference.bot_rng())
        )

    board = SimBoard(seed=1, think_apart=True)
    try:
        runner = board.board.agents.runner
        assert isinstance(runner, ThinkerProcess) and isinstance(board.board.agents, Agents)
        runner.submit(lambda: None)
        first = runner.pid
        table = Table.start("extra", seats, seed=11)
        board.app.start_session(table)
        board.wait(2.0)
        _when_thinking(runner, signal.SIGKILL)
        board.settle(600.0)
        assert table.over and table.game.to_record()["steps"] == reference.game.to_record()["steps"]
        assert runner.restarts == 1 and runner.pid != first
        assert any("the bots' process failed: it ended (signal 9)" in note for note in table.notes)
        assert "Bots restarted" in [str(problem) for problem in board.app.problems]
    finally:
        board.close()


def test_closing_while_it_thinks_ends_the_process_without_a_restart():
    runner = ThinkerProcess()
    replies: list[Reply] = []
    ready = threading.Event()
    runner.submit(ready.set)
    assert ready.wait(WAIT_S)
    pid = runner.pid
    table = _extra_position(12)
    runner.think(Thought("decide", "strong", table.game.copy(), table.bot_rng()), replies.append)
    runner.close()
    assert pid is not None and _state(pid) in ("gone", "Z") and runner.restarts == 0
    assert replies in ([], [Reply(error="the board is closing")]) or replies[0].error is None
