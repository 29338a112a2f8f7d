"""The turn runner (firmware/turns): the one play-out loop plays the same seeded games the
headless runners played before it (their digests, taken from the loops it replaced); on the
board, an answer for an older position is dropped, and an engine's illegal answer hands its seat
to the strong bot, which decides the same position."""

from __future__ import annotations

import hashlib
import json
import logging
import random
import sys
import time
from collections.abc import Callable
from pathlib import Path

import pytest

from firmware.agents import AgentAnswer, Agents, EngineAgent, Inline
from firmware.bots import choose
from firmware.dice import SeededDice
from firmware.games import ROLL, new_game
from firmware.hardware.config import EngineConfig
from firmware.loop import EventLoop, FakeClock
from firmware.selfplay import selfplay_games
from firmware.table import Seat, Table
from firmware.turns import dice_roll, play_out, roll_to_decision
from firmware.ui.app import BoardApp
from sim import arena

TEST_ENGINE = (sys.executable, str(Path(__file__).parent / "engines" / "xdp_test_engine.py"))


def digest(data: object) -> str:
    return hashlib.sha256(json.dumps(data, sort_keys=True).encode()).hexdigest()


# Taken from the loops `play_out` replaced (firmware/selfplay.py, sim/arena.py before it).
SELFPLAY = {
    ("exxtra", 3): "9f314bbbb43ff4d81d40db0d560813b5b143ab0e2bb8a679191419ef2a0c8291",
    ("levelx", 2): "5a8a562b01814ac4632d0d92e30e13b5a2be9f70c6415ae9a95a538ee7e4cb2c",
    ("extra", 2): "5d93d5a56f31dd14a27387d30d823a683707d084d89334bea176ea34690c5366",
}
ARENA = {
    ("exxtra", ("strong", "easy", "medium")): "5210165dc9305c7a749993cd2f4bc224922160d271aae3cf9a66a37f212ba054",
    ("levelx", ("medium", "strong")): "0f9777d67d7bfb32cf4c3cd2539c444059e83f3dae4ae99043b58441c8467e8f",
    ("extra", ("greedy", "strong")): "0d3400db38482e5bdd8e41026cc245a81e13eab863715be327d24343dae79244",
}


@pytest.mark.parametrize(("name", "players"), list(SELFPLAY))
def test_selfplay_through_the_runner_plays_the_games_it_played_before(name: str, players: int) -> None:
    records = [game.to_record() for game in selfplay_games(name, players, 7, 4)]
    assert digest(records) == SELFPLAY[name, players]


@pytest.mark.parametrize(("name", "levels"), list(ARENA))
def test_the_arena_through_the_runner_plays_the_games_it_played_before(name: str, levels: tuple[str, ...]) -> None:
    shares, scores, times, stalled = arena.play(name, levels, "turns:1")
    assert digest([shares, scores, stalled]) == ARENA[name, levels]
    assert sum(len(t) for t in times.values()) > 0  # each decision timed, in its agent


def test_the_play_out_stops_at_its_limit_or_when_told_and_shows_every_step() -> None:
    rng = random.Random(2)
    seats = [lambda game: rng.choice(game.legal_decisions())] * 2
    seen: list[object] = []
    game = play_out(
        new_game("levelx", ["A", "B"]), dice_roll(SeededDice(2)), seats, limit=7, observe=lambda g, s: seen.append(s)
    )
    assert len(game.history) == 7 and seen == game.history and not game.is_over()
    play_out(game, dice_roll(SeededDice(2, 4)), seats, stop=lambda g: len(g.history) >= 12)
    assert len(game.history) == 12
    first = roll_to_decision(new_game("extra", ["A"]), dice_roll(SeededDice(5)))
    assert first.pending().kind == "decision" and len(first.history) == 1


# --- the board's runner ----------------------------------------------------------------------
def board(agents: Callable[[list[AgentAnswer]], Agents]) -> tuple[BoardApp, EventLoop, list[AgentAnswer]]:
    """A board app whose agents' answers are kept in a list (handed on by the test, as the board
    loop would hand them on from its queue)."""
    loop = EventLoop(FakeClock())
    posted: list[AgentAnswer] = []
    return BoardApp(schedule=loop.call_later, agents=agents(posted)), loop, posted


def run_until(app: BoardApp, loop: EventLoop, done: Callable[[], bool], limit: int = 500) -> None:
    """Fire the timers (pace, animations) in time order, a person taking the first option when
    the game waits for them, until `done()`."""
    for _ in range(limit):
        if done():
            return
        session = app.session
        assert session is not None
        if not session.pending_bot() and not app.busy and app.animation is None:
            app.step(session.draw_roll() if session.awaiting_roll else session.game.legal_decisions()[0])
            continue
        deadline = loop.next_deadline()
        assert deadline is not None, "nothing moves: the bots wait for nobody"
        assert isinstance(loop.clock, FakeClock)
        loop.clock.now = max(loop.clock.now, deadline)
        loop.run_pending(lambda event: None)
    raise AssertionError("never done")


def test_an_answer_for_a_position_gone_is_dropped(caplog: pytest.LogCaptureFixture) -> None:
    app, loop, posted = board(lambda posted: Agents(posted.append, Inline()))
    table = Table.start("extra", [Seat("Bot", "blue", bot="easy"), Seat("Ann", "red")], seed=3)
    app.start_session(table)
    run_until(app, loop, lambda: bool(posted))
    asked = posted.pop()
    assert asked.token == table.token and app.thinking
    other = next(d for d in table.game.legal_decisions() if d != asked.step)
    app.step(other)  # the position moves on (a scenario plays the bot's step) before the answer is in
    steps = list(table.game.history)
    with caplog.at_level(logging.DEBUG, logger="xtraboard.turns"):
        app.answer(asked)
    assert table.game.history == steps and "dropped a stale answer" in caplog.text
    assert not app.thinking
    app.end_session()


def test_an_engines_illegal_answer_hands_its_seat_to_the_strong_bot(tmp_path: Path) -> None:
    engines = [EngineConfig(name="test", command=(*TEST_ENGINE, "--illegal-at", "1"))]
    app, loop, posted = board(lambda posted: Agents(posted.append, Inline(), engines=engines, hidden=[tmp_path]))
    table = Table.start("extra", [Seat("Deep", "blue", bot="engine:test"), Seat("Ann", "red")], seed=3)
    app.start_session(table)
    run_until(app, loop, lambda: app.thinking)  # the engine's decision is asked, on its own thread
    engine = table.agents[0]
    assert isinstance(engine, EngineAgent) and engine.failed is None
    waited = time.monotonic() + 30.0
    while not posted and time.monotonic() < waited:
        time.sleep(0.01)
    answer = posted.pop()
    assert answer.engine == "test" and answer.token == table.token
    app.answer(answer)  # its step is no legal decision
    assert engine.failed is not None and "not a legal decision" in engine.failed
    assert any("the strong bot plays seat 0 (Deep) from here" in note for note in table.notes)
    assert "Engine test failed: strong bot plays" in app.problems
    fallback = next(a for a in posted if a.engine is None and a.token == table.token)  # asked at once, inline
    assert fallback.step == choose(table.game.copy(), table.bot_rng(), "strong")
    before = len(table.game.history)
    app.answer(fallback)
    run_until(app, loop, lambda: len(table.game.history) > before)
    assert table.game.history[before] == fallback.step
    app.end_session()


def test_no_roll_is_asked_of_an_agent() -> None:
    app, loop, posted = board(lambda posted: Agents(posted.append, Inline()))
    table = Table.start("levelx", [Seat("Bot", "blue", bot="easy"), Seat("Ann", "red")], seed=1)
    app.start_session(table)
    assert table.game.pending().kind == ROLL and table.pending_bot() and posted == []
    run_until(app, loop, lambda: bool(posted))  # the bot's roll is made for it; its decision asked
    assert table.game.pending().kind == "decision"
    app.end_session()
