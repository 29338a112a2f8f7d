"""The `replay` and `selfplay` commands, and records round-tripping through them."""

from __future__ import annotations

import json
import subprocess
import sys

import pytest

from firmware.cli import main
from firmware.games import game_class
from firmware.records import replay_record
from tests.support import GAME_NAMES

PLAYERS = {"exxtra": 3, "levelx": 2, "extra": 1}


def run_cli(capsys, *argv: str) -> tuple[int, str, str]:
    code = main(list(argv))
    out, err = capsys.readouterr()
    return code, out, err


def selfplay(capsys, game: str, players: int, seed: int, games: int) -> list[dict]:
    code, out, err = run_cli(
        capsys, "selfplay", game, "--players", str(players), "--seed", str(seed), "--games", str(games)
    )
    assert code == 0, err
    return [json.loads(line) for line in out.splitlines()]


@pytest.mark.parametrize("game", GAME_NAMES)
def test_selfplay_records_replay_to_their_result(capsys, tmp_path, game):
    cls = game_class(game)
    for players in range(cls.min_players, cls.max_players + 1):
        for record in selfplay(capsys, game, players, seed=11, games=3):
            assert record["format"] == "xtraboard-record" and record["game"] == game
            assert len(record["players"]) == players
            path = tmp_path / "game.json"
            path.write_text(json.dumps(record))
            code, out, err = run_cli(capsys, "replay", str(path))
            assert code == 0 and err == ""
            summary = json.loads(out)
            assert summary["over"] is True
            assert summary["result"] == record["result"]


@pytest.mark.parametrize("game", GAME_NAMES)
def test_selfplay_is_deterministic_per_seed(capsys, game):
    first = selfplay(capsys, game, PLAYERS[game], seed=5, games=2)
    again = selfplay(capsys, game, PLAYERS[game], seed=5, games=2)
    other = selfplay(capsys, game, PLAYERS[game], seed=6, games=2)
    assert first == again
    assert first != other
    assert first[0] != first[1]


def test_selfplay_refuses_a_player_count_outside_the_game(capsys):
    code, out, err = run_cli(capsys, "selfplay", "exxtra", "--players", "2", "--seed", "1", "--games", "1")
    assert code == 2 and out == ""
    assert "3 to 6 players" in err


def test_replay_of_an_unfinished_record_says_not_over(capsys, tmp_path):
    record = selfplay(capsys, "levelx", 2, seed=3, games=1)[0]
    record["steps"] = record["steps"][:5]
    del record["result"]
    path = tmp_path / "partial.json"
    path.write_text(json.dumps(record))
    code, out, _ = run_cli(capsys, "replay", str(path))
    summary = json.loads(out)
    assert code == 0 and summary["over"] is False and "result" not in summary
    assert summary["steps"] == 5


def test_replay_reads_standard_input(capsys, monkeypatch):
    import io

    record = selfplay(capsys, "extra", 2, seed=1, games=1)[0]
    monkeypatch.setattr(sys, "stdin", io.StringIO(json.dumps(record)))
    code, out, _ = run_cli(capsys, "replay", "-")
    assert code == 0 and json.loads(out)["result"] == record["result"]


def _bad(record: dict, index: int, step) -> dict:
    steps = list(record["steps"])
    steps[index] = step
    return record | {"steps": steps}


@pytest.mark.parametrize(
    ("mutate", "expected"),
    [
        (lambda r: r | {"format": "pgn"}, "'format'"),
        (lambda r: r | {"version": 2}, "'version'"),
        (lambda r: r | {"game": "chess"}, "'game'"),
        (lambda r: r | {"players": "Alex"}, "'players'"),
        (lambda r: r | {"steps": {}}, "'steps'"),
        (lambda r: _bad(r, 0, {"roll": ["8", "1"]}), "step 0"),
        (lambda r: _bad(r, 0, {"dance": 1}), "step 0"),
        (lambda r: _bad(r, 1, {"roll": ["1", "1"]}), "step 1"),
        (lambda r: _bad(r, 1, {"do": "place", "rung": 9}), "step 1"),
    ],
)
def test_replay_names_what_is_wrong_with_exit_2(capsys, tmp_path, mutate, expected):
    record = selfplay(capsys, "exxtra", 3, seed=2, games=1)[0]
    path = tmp_path / "bad.json"
    path.write_text(json.dumps(mutate(record)))
    code, out, err = run_cli(capsys, "replay", str(path))
    assert code == 2 and out == ""
    assert expected in err and len(err.strip().splitlines()) == 1


def test_replay_of_broken_json_or_missing_file_as_a_user_sees_it(tmp_path):
    broken = tmp_path / "broken.json"
    broken.write_text('{"format": "xtraboard-record",\n "steps": [}')
    for path, expected in [(broken, "line 2"), (tmp_path / "missing.json", "cannot read")]:
        proc = subprocess.run(
            [sys.executable, "-m", "firmware", "replay", str(path)], capture_output=True, text=True, timeout=60
        )
        assert proc.returncode == 2
        assert expected in proc.stderr
        assert "Traceback" not in proc.stderr and len(proc.stderr.strip().splitlines()) == 1


@pytest.mark.parametrize("game", GAME_NAMES)
def test_record_round_trips_through_json_text(capsys, game):
    for record in selfplay(capsys, game, PLAYERS[game], seed=9, games=2):
        rebuilt = replay_record(json.loads(json.dumps(record)))
        assert rebuilt.to_record() == record
