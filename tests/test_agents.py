"""Seats are agents: a bot is asked for its decision and answers later, as an event on the loop's
queue. While it thinks the board handles buttons at once; an answer to a position that changed
meanwhile (undo, abandon) is dropped; no bot computation runs on the loop thread; and a game
plays to the end the same way on worker threads as inline."""

from __future__ import annotations

import logging
import sys
import threading
from typing import Any

from firmware.agents import Agent, AgentAnswer, Agents, Question, Worker
from firmware.board_loop import Board
from firmware.bots import choose
from firmware.dice import SeededDice
from firmware.games import Player, new_game
from firmware.hardware.board import open_hardware
from firmware.hardware.config import load_board
from firmware.loop import EventLoop, FakeClock, Stop
from firmware.table import Seat, Table
from firmware.ui.app import BoardApp
from firmware.ui.colours import DEFAULT_ORDER
from firmware.ui.menus import GameMenu
from firmware.ui.play import PlayScreen
from sim.app import start_demo
from sim.board import SimBoard

WAIT_S = 10.0  # real seconds a test waits for a thread before it fails (never reached when all is well)


class GatedBot:
    """A bot policy that thinks until the test opens its gate (the test controls 'later'), and
    records on which thread it ran."""

    def __init__(self, open_: bool = False) -> None:
        self.gate = threading.Event()
        if open_:
            self.gate.set()
        self.asked = threading.Semaphore(0)
        self.threads: list[int] = []

    def __call__(self, game: Any, rng: Any) -> Any:
        self.threads.append(threading.get_ident())
        self.asked.release()
        if not self.gate.wait(WAIT_S):
            raise TimeoutError("the test never opened the gate")
        return choose(game, rng)


def ann_decides(board: SimBoard) -> None:
    """OK through the stages of EXTRA!'s choice until Ann's decision is played."""
    for _ in range(3):
        if board.app.session.game.pending().player == 0:
            board.tap("ok")


def extra_against_a_gated_bot() -> tuple[SimBoard, GatedBot, Agents]:
    """EXTRA! for a person and a bot; the person rolls and decides, then the bot thinks (gated).
    The fake clock does not wait for the bot: time and buttons go on while it thinks."""
    board = SimBoard(seed=4)
    board.agent_wait_s = 0.0
    bot = GatedBot()
    agents = Agents(board.loop.post, policy=bot)
    board.app.agents = agents
    board.app.start_session(Table.start("extra", [Seat("Ann", "red"), Seat("Bot", "blue", bot="easy")], seed=4))
    board.tap("roll")
    board.settle()
    assert board.app.session.game.pending().player == 0
    ann_decides(board)  # now the bot's turn
    board.wait(2.0)  # well past the bots' pace
    assert bot.asked.acquire(timeout=WAIT_S)
    assert board.app.thinking and board.app.busy
    return board, bot, agents


def game_menu_responds(board: SimBoard) -> None:
    """A long BACK opens the in-game menu and LEFT/RIGHT move its cursor, each shown at once."""
    pushes = board.board.pushes["display"]
    board.hold("back")
    assert isinstance(board.app.screen, GameMenu)
    assert board.screen_text()[0].startswith("Game menu")
    assert board.board.pushes["display"] > pushes
    first = board.app.screen.choice.current.label
    board.tap("right")
    assert board.app.screen.choice.current.label != first
    assert any(text.startswith("> " + board.app.screen.choice.current.label) for text in board.screen_text())
    board.tap("left")
    assert board.app.screen.choice.current.label == first


def test_buttons_are_handled_while_a_bot_thinks_and_its_answer_after_an_undo_is_dropped(caplog):
    board, bot, agents = extra_against_a_gated_bot()
    history = list(board.app.session.game.history)
    game_menu_responds(board)

    labels = [o.label for o in board.app.screen.choice.options]
    for _ in range(labels.index("Take back")):
        board.tap("right")
    board.tap("ok")  # undo Ann's decision: the bot's question is now about a position gone
    assert isinstance(board.app.screen, PlayScreen)
    undone = list(board.app.session.game.history)
    assert undone == history[:-1] and board.app.session.game.pending().player == 0

    board.agent_wait_s = WAIT_S
    with caplog.at_level(logging.DEBUG, logger="xtraboard.turns"):
        bot.gate.set()
        board.run_pending()  # waits for the late answer and handles it
    assert not board.app.thinking
    assert "dropped a stale answer" in caplog.text
    board.wait(5.0)
    assert board.app.session.game.history == undone  # nothing applied
    assert board.app.session.game.pending().player == 0
    board.close()
    agents.close()


def test_a_late_answer_after_abandon_is_dropped(caplog):
    board, bot, agents = extra_against_a_gated_bot()
    board.hold("back")
    labels = [o.label for o in board.app.screen.choice.options]
    for _ in range(labels.index("Abandon game")):
        board.tap("right")
    board.tap("ok")
    board.tap("right")  # "Yes"
    board.tap("ok")
    assert board.app.session is None and type(board.app.screen).__name__ == "MainMenu"
    board.agent_wait_s = WAIT_S
    with caplog.at_level(logging.DEBUG, logger="xtraboard.turns"):
        bot.gate.set()
        board.run_pending()
    assert not board.app.thinking and "dropped a stale answer" in caplog.text
    assert board.app.session is None and type(board.app.screen).__name__ == "MainMenu"
    board.close()
    agents.close()


def test_an_answer_that_comes_while_the_menu_is_open_waits_for_the_menu_to_close():
    board, bot, agents = extra_against_a_gated_bot()
    history = list(board.app.session.game.history)
    board.hold("back")
    board.agent_wait_s = WAIT_S
    bot.gate.set()
    board.run_pending()
    assert not board.app.thinking
    board.wait(5.0)
    assert board.app.session.game.history == history  # the bots wait while the menu is open
    board.tap("ok")  # "Back to game"
    board.settle()
    assert len(board.app.session.game.history) > len(history)
    board.close()
    agents.close()


def test_a_failing_bot_is_reported_and_the_board_goes_on():
    def broken(game: Any, rng: Any) -> Any:
        raise RuntimeError("no idea")

    board = SimBoard(seed=4)
    agents = Agents(board.loop.post, policy=broken)
    board.app.agents = agents
    board.app.start_session(Table.start("extra", [Seat("Ann", "red"), Seat("Bot", "blue", bot="easy")], seed=4))
    board.tap("roll")
    board.settle()
    ann_decides(board)
    board.wait(2.0)  # the fake clock waits for the (failed) answer
    assert board.app.problems == ["a bot could not decide: RuntimeError: no idea"]
    assert board.app.note == board.app.problems[0]
    board.wait(30.0)  # the pace comes round again and again: the same position is not asked twice
    assert board.app.problems == ["a bot could not decide: RuntimeError: no idea"]
    assert not board.app.thinking and board.app.session.game.pending().player == 1
    board.hold("back")  # the players can still leave the game
    assert isinstance(board.app.screen, GameMenu)
    board.close()
    agents.close()


def demo_seats(count: int) -> list[Seat]:
    return [Seat(c.capitalize(), c, bot="easy") for c in DEFAULT_ORDER[:count]]


def inline_record(game: str, seats: int, seed: int) -> dict[str, Any]:
    """The same demo on an app without a loop: its bots think inline."""
    loop = EventLoop(FakeClock())
    app = BoardApp(schedule=loop.call_later, seed=seed)
    app.start_game(game, demo_seats(seats), "demo")
    while (deadline := loop.next_deadline()) is not None:
        loop.clock.now = max(loop.clock.now, deadline)
        loop.run_pending(app.button)
    assert app.session is not None and app.session.over
    return app.session.game.to_record()


def test_a_bots_game_plays_to_the_end_on_the_worker_thread_as_it_would_inline():
    board = SimBoard(seed=3)
    bot = GatedBot(open_=True)
    agents = Agents(board.loop.post, policy=bot)
    board.app.agents = agents
    start_demo(board, "levelx", 3)
    board.settle()
    session = board.app.session
    assert session is not None and session.over
    assert session.game.to_record() == inline_record("levelx", 3, 3)
    loop_thread = threading.get_ident()  # SimBoard runs the loop on the test's thread
    assert bot.threads and loop_thread not in bot.threads
    board.close()
    agents.close()


def test_a_bots_game_ends_on_a_real_time_loop_with_the_bots_off_the_loop_thread():
    """The real clock and `EventLoop.run` on its own thread, as on the Pi; the game starts a few
    steps before its end (computed offline with the same seed) to keep the test short."""
    seed, seats = 6, [Seat("Solo", "red", bot="easy")]
    offline = Table.start("extra", seats, seed=seed)
    while not offline.over:
        offline.apply(offline.draw_roll() if offline.awaiting_roll else choose(offline.game, offline.bot_rng()))
    reference = offline.game.to_record()

    table = Table.start("extra", seats, seed=seed)
    while len(table.game.history) < len(reference["steps"]) - 4:
        table.apply(table.draw_roll() if table.awaiting_roll else choose(table.game, table.bot_rng()))

    loop = EventLoop()
    config = load_board()
    hardware = open_hardware(config, "mock", emit=loop.post, clock=loop.clock)
    board = Board(hardware, loop)
    bot = GatedBot(open_=True)
    board.agents = board.app.agents = Agents(loop.post, policy=bot)
    board.app.on_game_over = lambda _: loop.post(Stop())
    board.app.start_session(table)
    runner = threading.Thread(target=board.run, daemon=True)
    runner.start()
    runner.join(60.0)
    assert not runner.is_alive(), "the game did not end"
    assert table.over and table.game.to_record() == reference
    assert bot.threads and runner.ident not in bot.threads
    board.close()
    hardware.close()


class Oracle(Agent):
    """A third kind of agent, as an engine in another process would be: it answers from its own
    thread, with whatever it reads from the question (here the first legal decision)."""

    kind = "oracle"

    def __init__(self, post: Any) -> None:
        self.post = post
        self.questions: list[Question] = []

    def ask(self, question: Question) -> None:
        self.questions.append(question)
        record = question.game.to_record()  # what a line protocol would send
        threading.Thread(
            target=lambda: self.post(AgentAnswer(question.token, choose(question.game, question.rng))),
            daemon=True,
            name=f"oracle-{len(record['steps'])}",
        ).start()


class OracleSeats(Agents):
    def for_player(self, player: Player) -> Agent:
        return Oracle(self.post) if player.bot == "oracle" else super().for_player(player)


def test_any_agent_kind_plays_through_the_same_door():
    board = SimBoard(seed=2)
    board.app.agents = OracleSeats(board.loop.post)
    game = new_game("exxtra", [Player("Red"), Player("Blue", bot="oracle"), Player("Green", bot="oracle")])
    board.app.start_session(Table(game, ["red", "blue", "green"], SeededDice(2), seed=2))
    board.tap("roll")
    board.settle()
    board.tap("ok")  # Red takes the top rung; the oracles play until Red's turn comes again
    board.settle()
    oracles = [a for a in board.app.session.agents if isinstance(a, Oracle)]
    assert sum(len(o.questions) for o in oracles) >= 1
    assert board.app.session.game.pending().player == 0 and not board.app.busy
    board.close()


def test_every_change_of_position_moves_the_token():
    table = Table.start("extra", [Seat("Ann", "red"), Seat("Bot", "blue", bot="easy")], seed=4)
    other = Table.start("extra", [Seat("Ann", "red"), Seat("Bot", "blue", bot="easy")], seed=4)
    assert table.token != other.token  # two tables never share a position
    seen = {table.token}
    table.apply(table.draw_roll())
    seen.add(table.token)
    table.apply(table.game.legal_decisions()[0])  # Ann decides; the bot's decision is pending
    seen.add(table.token)
    assert table.pending_bot() and table.question() is None  # agents not bound yet: nobody to ask
    table.agents = [Agents(lambda answer: None).for_player(p) for p in table.game.players]
    question = table.question()
    assert question is not None and question.token == table.token and question.seat == 1
    assert question.game is not table.game and question.game.history == table.game.history
    assert table.undo()
    seen.add(table.token)
    table.abandon()
    seen.add(table.token)
    assert len(seen) == 5


def test_a_started_worker_leaves_the_interpreters_switch_interval_alone():
    """The loop no longer shares the interpreter with a search on the real board (it thinks in
    its own process, tests/test_thinker.py): nothing changes the process-wide switch interval."""
    default = sys.getswitchinterval()
    done = threading.Event()
    worker = Worker()
    worker.submit(done.set)
    assert done.wait(WAIT_S)
    assert sys.getswitchinterval() == default == 0.005
    worker.close()
