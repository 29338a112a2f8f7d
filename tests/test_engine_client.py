"""The board's XDP client against real engine processes: the board's own and a test engine
that crashes, hangs or answers nonsense on request."""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

from firmware.games import new_game
from firmware.xdp.client import EngineError, EngineProcess

TEST_ENGINE = [sys.executable, str(Path(__file__).parent / "engines" / "xdp_test_engine.py")]
OWN_ENGINE = [sys.executable, "-m", "firmware", "engine"]


def exxtra_after_a_roll() -> dict:
    game = new_game("exxtra", ["A", "B", "C"])
    game.apply_json({"roll": ["7", "6"]})
    return game.to_record()


def test_the_boards_own_engine_answers_a_legal_step() -> None:
    with EngineProcess("own", OWN_ENGINE, options={"Level": "easy", "Seed": "5"}) as engine:
        first = engine.decide(exxtra_after_a_roll(), movetime_ms=200)
        assert engine.engine_id.startswith("xtraboard ")
        assert engine.decide(exxtra_after_a_roll()) == first  # the process is kept between decisions
    record = exxtra_after_a_roll()
    record["steps"].append(first)
    from firmware.records import replay_record

    replay_record(record)


def test_a_test_engine_plays_the_first_legal_decision() -> None:
    with EngineProcess("tiny", TEST_ENGINE) as engine:
        assert engine.decide(exxtra_after_a_roll()) == {"do": "reroll"}


@pytest.mark.parametrize(
    ("flags", "why"),
    [
        (["--crash-at", "1"], "exited \\(code 3\\) before its bestmove"),
        (["--hang-at", "1"], "sent no bestmove in time"),
        (["--garbage-at", "1"], "not a step as JSON"),
    ],
)
def test_engine_faults_are_engine_errors_naming_the_engine(flags: list[str], why: str) -> None:
    engine = EngineProcess("flaky", TEST_ENGINE + flags, timeout_s=0.5)
    with pytest.raises(EngineError, match=f"engine 'flaky' .*{why}"):
        engine.decide(exxtra_after_a_roll(), movetime_ms=100)
    engine.close()
    engine.close()  # idempotent


def test_an_engine_that_does_not_start_or_has_no_command() -> None:
    with pytest.raises(EngineError, match="engine 'ghost' does not start"):
        EngineProcess("ghost", ["/nonexistent/engine"]).decide(exxtra_after_a_roll())
    with pytest.raises(EngineError, match="no command line"):
        EngineProcess("empty", [])


def test_after_a_crash_the_next_decision_starts_the_engine_again() -> None:
    engine = EngineProcess("phoenix", TEST_ENGINE + ["--crash-at", "2"], timeout_s=2)
    assert engine.decide(exxtra_after_a_roll()) == {"do": "reroll"}
    with pytest.raises(EngineError, match="exited"):
        engine.decide(exxtra_after_a_roll())
    assert engine.decide(exxtra_after_a_roll()) == {"do": "reroll"}  # a fresh process, goes counted anew
    engine.close()
