"""`go movetime MS` and the bots' deadline (firmware/bots.py `Deadline`): a deadline changes how
long EXTRA!'s strong searches, never whether its answer is legal; the other policies ignore it;
the engine reads movetime and refuses what is not one. (How fast the answers come is a
benchmark figure: `xtraboard bench bots --movetime`, docs/performance.md.)"""

from __future__ import annotations

import inspect
import itertools
import json
import random
import subprocess
import sys

import pytest

from firmware.bots import Deadline, choose
from firmware.dice import SeededDice
from firmware.games import Player, find_game, new_game
from firmware.games.extra import bots as extra_bots
from firmware.records import replay_record
from firmware.xdp.server import EngineServer
from sim import arena
from tests.support import decisions_of

NEVER = 1e9  # a deadline on a clock that stands still at 0: the search runs to its end


def extra_positions(seed: int, players: int = 2, limit: int | None = None):
    """Copies of each decision along a seeded EXTRA! game of easy bots (the last seat a child)."""
    seats = [Player(f"P{n}", kids=n == players - 1 and players > 1) for n in range(players)]
    game = new_game("extra", seats)
    rng = random.Random(seed)
    for position in decisions_of(game, SeededDice(f"movetime:{seed}"), limit=limit):
        yield position.copy()
        position.apply(extra_bots.easy(position, position.legal_decisions(), rng))


def table_best(game):
    """The decision strong's table alone judges best (first in decision order on a tie)."""
    learnt = extra_bots.learnt_tables()
    assert learnt is not None
    decisions = game.legal_decisions()
    position, effects = extra_bots._effects(game, decisions, learnt.rows, learnt.numbers, learnt.joint)
    values = [position.value(effect) for effect in effects]
    return decisions[values.index(max(values))]


def test_a_deadline_already_past_gets_the_tables_best_at_once():
    past = Deadline(0.0, clock=lambda: 1.0)
    for game in extra_positions(1):
        decision = choose(game, random.Random(0), "strong", past)
        assert decision in game.legal_decisions()
        assert decision == table_best(game)


def test_a_deadline_that_never_comes_gives_the_same_legal_answer_each_time():
    changed = 0
    for game in itertools.islice(extra_positions(2), 40):
        first = choose(game, random.Random(0), "strong", Deadline(NEVER, clock=lambda: 0.0))
        again = choose(game, random.Random(0), "strong", Deadline(NEVER, clock=lambda: 0.0))
        assert first == again and first in game.legal_decisions()
        changed += first != choose(game, random.Random(0), "strong")
    assert changed < 40, "the longer search agrees with the quick one most of the time"


@pytest.mark.parametrize("steps", [1, 2, 3, 5, 8, 13, 40, 200])
def test_a_deadline_passing_mid_search_still_answers_legally(steps):
    for game in itertools.islice(extra_positions(3, players=3), 25):
        ticks = itertools.count()
        deadline = Deadline(steps * 0.001, clock=lambda ticks=ticks: next(ticks) * 0.001)  # each look: 1 ms
        assert choose(game, random.Random(0), "strong", deadline) in game.legal_decisions()


def test_without_a_deadline_strong_stays_deterministic():
    for game in itertools.islice(extra_positions(4), 20):
        assert choose(game, random.Random(1), "strong") == choose(game, random.Random(2), "strong")


@pytest.mark.parametrize("name", ["exxtra", "levelx", "extra"])
def test_a_deadline_changes_nothing_for_policies_that_take_none(name):
    spec = find_game(name)
    past = Deadline(0.0, clock=lambda: 1.0)
    game = new_game(name, [f"P{n}" for n in range(max(2, spec.players.start))])
    for position in decisions_of(game, SeededDice(f"deadline:{name}"), limit=60):
        for level in spec.levels:
            if level in spec.anytime:
                continue
            plain = choose(position.copy(), random.Random(5), level)
            assert choose(position.copy(), random.Random(5), level, past) == plain
        position.apply(choose(position, random.Random(0), spec.levels[0]))


def test_only_strong_extra_takes_a_deadline():
    takes = {(spec, level) for spec in ("exxtra", "levelx", "extra") for level in find_game(spec).levels}
    found = {(spec, level) for spec, level in takes if level in find_game(spec).anytime}
    assert found == {("extra", "strong")}
    # the registry's word is true to the policies: exactly the anytime ones take a deadline
    signed = {
        (s, level) for s, level in takes if "deadline" in inspect.signature(find_game(s).policy(level)).parameters
    }
    assert signed == found


def position_line(game) -> str:
    return "position " + json.dumps({k: v for k, v in game.to_record().items() if k != "result"})


@pytest.mark.parametrize("movetime", [0, 1, 30])
def test_go_movetime_answers_a_legal_step(movetime):
    """A clock that runs 5 ms a look: any movetime runs out mid-search."""
    ticks = itertools.count()
    engine = EngineServer(clock=lambda: next(ticks) * 0.005)
    engine.handle("isready")
    for game in itertools.islice(extra_positions(6, players=4), 12):
        assert engine.handle(position_line(game)) == []
        answer = engine.handle(f"go movetime {movetime}")
        assert answer[0].startswith("info level strong player ")
        step = json.loads(answer[-1].removeprefix("bestmove "))
        record = game.to_record()
        record["steps"].append(step)
        replay_record(record)  # a RecordError if the step were not legal


@pytest.mark.parametrize(
    "arguments",
    ["movetime", "movetime -5", "movetime 1.5", "movetime 5 6", "wtime 100", "movetime ten", "depth 3"],
)
def test_go_refuses_anything_but_a_whole_movetime(arguments):
    engine = EngineServer()
    game = next(extra_positions(7))
    engine.handle(position_line(game))
    assert engine.handle(f"go {arguments}") == [
        f"info string error go takes nothing or 'movetime MS', not {arguments!r}",
        "bestmove none",
    ]


def test_a_position_before_any_isready_loads_what_go_needs():
    """A client that never sends isready: the first position loads the bots, so that the first
    go is a search like any other and answers a legal step with movetime 0 and without."""
    game = next(extra_positions(8, players=1))
    out = subprocess.run(
        [sys.executable, "-m", "firmware", "engine"],
        input=f"{position_line(game)}\ngo movetime 0\ngo\nquit\n",
        capture_output=True,
        text=True,
        timeout=120,
        check=True,
    ).stdout.splitlines()
    moves = [json.loads(line.removeprefix("bestmove ")) for line in out if line.startswith("bestmove ")]
    assert len(moves) == 2 and not any(line.startswith("info string error") for line in out)
    for move in moves:
        record = game.to_record()
        record["steps"].append(move)
        replay_record(record)


def test_the_movetime_bench_prints_its_figures(capsys):
    assert arena.main(["--game", "extra", "--movetime", "0,5", "--positions", "3", "--seed", "2"]) == 0
    figures = dict(line.split(": ") for line in capsys.readouterr().out.splitlines())
    for movetime in (0, 5):
        for name in ("answer_ms_p50", "answer_ms_p99", "answer_ms_max", "over_ms_p99", "answers_changed", "cpu_ms_p99"):
            assert float(figures[f"extra_movetime_{movetime}_{name}"]) >= 0
    assert float(figures["extra_no_movetime_answer_ms_p50"]) > 0
    assert figures["extra_positions"] == "3"


@pytest.mark.parametrize("text", ["soon", "5,", "-5", "1.5", "5,,6"])
def test_the_movetime_bench_refuses_what_is_not_milliseconds(capsys, text):
    with pytest.raises(SystemExit) as stop:
        arena.main(["--game", "extra", "--movetime", text])
    assert stop.value.code == 2
    assert (
        f"--movetime takes whole milliseconds separated by commas (e.g. 0,20,100), not {text!r}"
        in (capsys.readouterr().err.strip().splitlines()[-1])
    )
