"""`xtraboard engine` speaks XDP exactly as docs/engine-protocol.md says, as a real subprocess."""

from __future__ import annotations

import json
import random
import subprocess
import sys
from typing import Any

import pytest

from firmware.dice import SeededDice
from firmware.games import find_game, new_game
from firmware.games.registry import games
from firmware.records import replay_record
from firmware.xdp.server import EngineServer
from tests.support import play_on

HANDSHAKE = [
    "id name xtraboard 0.1.0",
    "option name Level type combo default strong var easy var medium var strong",
    "option name Seed type spin default 0 min 0 max 2147483647",
    "xdpok",
]


def converse(lines: list[str], timeout: float = 60) -> list[str]:
    """Run `xtraboard engine` with these input lines; its output lines."""
    done = subprocess.run(
        [sys.executable, "-m", "firmware", "engine"],
        input="".join(f"{line}\n" for line in lines),
        capture_output=True,
        text=True,
        timeout=timeout,
        check=True,
    )
    assert done.stderr == ""
    return done.stdout.splitlines()


def position_line(record: dict[str, Any]) -> str:
    return "position " + json.dumps({k: v for k, v in record.items() if k != "result"})


def mid_game_records(name: str, count: int, seed: int) -> list[dict[str, Any]]:
    """Records of random games stopped at a pending decision, for every seat count."""
    records = []
    rng = random.Random(seed)
    spec = find_game(name)
    for n in range(count):
        game = new_game(name, [f"P{i}" for i in range(spec.players[n % len(spec.players)])])
        dice = SeededDice(seed + n)
        stop = rng.randrange(1, 60)
        play_on(game, dice, rng, limit=stop)
        while game.pending().kind == "roll":
            game.roll(dice)
        if not game.is_over():
            records.append(game.to_record())
    return records


def test_handshake_ready_and_quit() -> None:
    assert converse(["xdp", "isready", "quit", "isready"]) == HANDSHAKE + ["readyok"]  # nothing after quit


@pytest.mark.parametrize("game", ["exxtra", "levelx", "extra"])
def test_every_bestmove_is_legal_for_every_level(game: str) -> None:
    records = mid_game_records(game, 6, seed=11)
    lines = ["xdp"]
    for level in ("easy", "medium", "strong"):
        lines.append(f"setoption name Level value {level}")
        for record in records:
            lines += [position_line(record), "go movetime 1000"]
    out = converse(lines + ["quit"])
    moves = [line.removeprefix("bestmove ") for line in out if line.startswith("bestmove ")]
    assert len(moves) == 3 * len(records)
    for n, move in enumerate(moves):
        record = dict(records[n % len(records)])
        record["steps"] = record["steps"] + [json.loads(move)]
        replay_record(record)  # RecordError if the move were illegal


def test_extra_decides_for_the_first_player_still_to_decide() -> None:
    game = new_game("extra", ["A", "B", "C"])
    game.apply_json({"roll": [1, 2, 2, 3, 5]})
    game.apply(game.legal_decisions()[0])  # A decided; B is next
    out = converse(["xdp", position_line(game.to_record()), "go", "quit"])
    assert json.loads(out[-1].removeprefix("bestmove "))["player"] == 1


def test_answers_are_reproducible_for_the_same_position_and_seed() -> None:
    record = mid_game_records("levelx", 1, seed=4)[0]
    session = ["xdp", "setoption name Seed value 17", position_line(record), "go"]
    first = converse(session + ["quit"])
    again = converse(
        ["xdp", "setoption name Seed value 3", "go", "setoption name Seed value 17"] + session[2:] + ["quit"]
    )
    assert first[-1] == again[-1]


@pytest.mark.parametrize(
    ("line", "why"),
    [
        ("position {not json", "the position is not valid JSON"),
        (
            'position {"format": "xtraboard-record", "version": 1, "game": "chess", "players": [], "steps": []}',
            'not "chess"',
        ),
        (
            'position {"format": "xtraboard-record", "version": 1, "game": "exxtra", "players": [{"name": "A"}, '
            '{"name": "B"}, {"name": "C"}], "steps": [{"do": "reroll"}]}',
            "step 0",
        ),
        (
            'position {"format": "xtraboard-record", "version": 1, "game": "exxtra", "players": [{"name": "A"}, '
            '{"name": "B"}, {"name": "C"}], "steps": []}',
            "no decision is pending (roll)",
        ),
        ("position " + "[" * 100_000 + "]" * 100_000, "error"),
    ],
)
def test_bad_positions_answer_an_error_and_bestmove_none(line: str, why: str) -> None:
    out = converse(["xdp", line, "go", "isready", "quit"])
    assert out[-3].startswith("info string error") and why in out[-3]
    assert out[-2:] == ["bestmove none", "readyok"]


def test_go_without_a_position_and_bad_go_arguments() -> None:
    out = converse(["go", "go movetime soon", "quit"])
    assert out == [
        "info string error no position given",
        "bestmove none",
        "info string error go takes nothing or 'movetime MS', not 'movetime soon'",
        "bestmove none",
    ]


def test_unknown_commands_and_bad_options_are_answered_and_ignored() -> None:
    out = converse(
        [
            "uci",
            "setoption name Level value grandmaster",
            "setoption name Hash value 64",
            "setoption name Seed value -1",
            "",
            "isready",
            "quit",
        ]
    )
    assert out == [
        "info string unknown command uci",
        "info string error Level must be one of easy, medium, strong, not 'grandmaster'",
        "info string error unknown option 'Hash'",
        "info string error Seed must be a whole number from 0 to 2147483647, not '-1'",
        "readyok",
    ]


def test_the_server_answers_from_the_registry_for_every_game() -> None:
    engine = EngineServer()
    for spec in games():
        record = mid_game_records(spec.name, 8, seed=2)[0]
        assert engine.handle(position_line(record)) == []
        assert engine.handle("go")[-1].startswith("bestmove {")
