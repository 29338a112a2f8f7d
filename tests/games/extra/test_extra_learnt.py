"""The strong EXTRA! bot's learnt tables as a binary data file (firmware/games/extra/learnt.py):
what the generator writes, what the loader refuses, and what the bot does with a damaged file."""

from __future__ import annotations

import hashlib
import json
import logging
import random
import subprocess
import sys
from pathlib import Path

import pytest

from firmware.dice import SeededDice
from firmware.games import Player, new_game
from firmware.games.extra import bots, learnt
from tests.support import decisions_of

ROOT = Path(__file__).resolve().parents[3]


def _strong_decisions(games: int = 6) -> tuple[int, str]:
    """(count, SHA-256) of strong's decisions and the evaluator's raw figure of each (the hint's
    source before its calibration, firmware/coach.py) over seeded solo and two-seat games (the
    second seat a child every other game), mostly played as strong plays them."""
    lines = []
    for seed in range(games):
        players = [Player("A", bot="strong"), Player("B", bot="strong", kids=seed % 2 == 1)]
        dice, rng = SeededDice(f"learnt-golden:{seed}"), random.Random(seed)
        for game in decisions_of(new_game("extra", players[: 1 + seed % 2]), dice):
            decisions = game.legal_decisions()
            choice = bots.strong(game, decisions, rng)
            lines.append(json.dumps(choice.to_json(), sort_keys=True))
            lines.append(f"{bots.evaluate(game, [choice])[0]:.6f}")
            game.apply(rng.choice(decisions) if rng.random() < 0.3 else choice)
    return len(lines), hashlib.sha256("\n".join(lines).encode()).hexdigest()


def test_strong_decides_as_it_did_when_its_joint_correction_got_its_weight() -> None:
    """The same decisions and raw figures as when the joint correction began to count
    `learnt.JOINT_WEIGHT` times (which changed both on purpose). Before: (378, "af54a518…")
    since strong looked two rolls ahead for close contenders (firmware/games/extra/deep.py), and
    before that (360, "b42547fb…") since the tables were a generated Python module."""
    assert _strong_decisions() == (378, "714eac1d8240b9e96fb2dac886ddca9592e51e8709653b4114b5f89077582d5b")


def test_the_shipped_file_carries_its_command_and_checksum() -> None:
    data = learnt.PATH.read_bytes()
    magic, version, command_length, payload_length, digest = learnt._HEADER.unpack_from(data)
    assert (magic, version) == (b"XBLEARNT", 1)
    payload = data[learnt._HEADER.size + command_length :]
    assert len(payload) == payload_length and hashlib.sha256(payload).digest() == digest
    shipped = learnt.tables()
    assert shipped.command.splitlines() == [
        "python scripts/extra_table.py --rounds 16 --games 8000 --seed 1 --average 4 --step 0.5",
        "python scripts/extra_table.py --keep-tables --joint-games 4000 --seed 1",
    ]
    assert (len(shipped.rows), len(shipped.numbers), len(shipped.joint)) == (26970, 42, 69)
    assert len(data) < 200_000  # about 7 bytes an entry
    assert not list(learnt.PATH.parent.glob("table*.py"))  # no table as Python source


def test_dump_and_load_keep_every_value_exactly(tmp_path: Path) -> None:
    rows = {(0, 0, 1, 2, 1): -0.0, (3, 4, 5, 6, 3): 605.7, (10, 12, 21, 6, 0): -200.0}
    numbers = {(): -10.9, (1,): 0.0, (1, 2): 3.3, (4, 5, 6): -31.1}
    joint = {(0, 1): -12.9, (10, 9): 68.8}
    path = tmp_path / "t.bin"
    learnt.dump(path, rows, numbers, joint, "python scripts/extra_table.py --rounds 1")
    loaded = learnt.load(path)
    for got, want in zip(loaded[:3], (rows, numbers, joint)):
        assert list(got.items()) == list(want.items())
        assert [repr(v) for v in got.values()] == [repr(v) for v in want.values()]  # -0.0 stays -0.0
    with pytest.raises(ValueError, match="tenths"):
        learnt.dump(path, {(0, 0, 1, 2, 1): 0.25}, {}, {}, "")


def _damaged(tmp_path: Path, how: str) -> Path:
    data = bytearray(learnt.PATH.read_bytes())
    if how == "flipped":
        data[-1000] ^= 0x40
    elif how == "truncated":
        del data[-7:]
    elif how == "magic":
        data[:8] = b"PK\x03\x04xxxx"
    elif how == "version":
        data[8] = 2
    path = tmp_path / f"{how}.bin"
    path.write_bytes(bytes(data))
    return path


@pytest.mark.parametrize(
    ("how", "says"),
    [
        ("flipped", "do not match their checksum"),
        ("truncated", "truncated"),
        ("magic", "not an EXTRA! learnt-tables file"),
        ("version", "format version 2; this firmware reads 1"),
        ("missing", "cannot read"),
    ],
)
def test_a_damaged_file_is_refused_naming_it(tmp_path: Path, how: str, says: str) -> None:
    path = tmp_path / "missing.bin" if how == "missing" else _damaged(tmp_path, how)
    with pytest.raises(learnt.LearntTablesError, match=says) as refused:
        learnt.load(path)
    assert str(refused.value).startswith(f"{path}: ")
    assert len(str(refused.value).splitlines()) == 1


@pytest.fixture
def damaged_shipped_file(tmp_path: Path, monkeypatch: pytest.MonkeyPatch):
    """The package's tables' file replaced by a damaged one, for this test only."""
    monkeypatch.setattr(learnt, "PATH", _damaged(tmp_path, "flipped"))
    learnt.tables.cache_clear()
    yield learnt.PATH
    learnt.tables.cache_clear()


def test_strong_plays_as_medium_on_a_damaged_file_and_logs_it_once(damaged_shipped_file, caplog) -> None:
    game = new_game("extra", ["Solo"])
    dice, rng = SeededDice("damaged"), random.Random(1)
    with caplog.at_level(logging.ERROR, logger="firmware.games.extra.bots"):
        for _ in range(6):
            game.roll(dice)
            decisions = game.legal_decisions()
            choice = bots.strong(game, decisions, rng)
            assert choice == bots.medium(game, decisions, rng)
            assert bots.hint_reason(game, choice).startswith("expect about ")
            game.apply(choice)
    errors = [r.getMessage() for r in caplog.records if r.levelno == logging.ERROR]
    assert len(errors) == 1 and str(damaged_shipped_file) in errors[0] and "plays as medium" in errors[0]


def test_the_generator_writes_the_data_file(tmp_path: Path) -> None:
    out = tmp_path / "learnt.bin"
    done = subprocess.run(
        [
            sys.executable,
            "scripts/extra_table.py",
            "--rounds",
            "1",
            "--games",
            "4",
            "--jobs",
            "1",
            "--joint-games",
            "2",
            "--out",
            str(out),
        ],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=300,
    )
    assert done.returncode == 0, done.stderr
    made = learnt.load(out)
    assert made.command == (
        "python scripts/extra_table.py --rounds 1 --games 4 --seed 1 --average 1 --step 1.0 --joint-games 2"
    )
    assert made.rows and len(made.numbers) == 42 and made.joint


def test_the_engine_loads_the_tables_before_readyok() -> None:
    """`xtraboard engine`'s first `isready` has every level decide once: the strong bot's tables
    are read before `readyok`, not on the first `go`."""
    from firmware.xdp.server import EngineServer

    learnt.tables.cache_clear()
    engine = EngineServer()
    assert engine.handle("isready") == ["readyok"]
    assert learnt.tables.cache_info().currsize == 1
    assert engine.handle("isready") == ["readyok"]  # once is enough
    assert learnt.tables.cache_info()[:2] == (0, 1)  # one warm-up decision of strong, not two


def test_the_engine_says_the_tables_are_damaged_and_plays_on(damaged_shipped_file) -> None:
    from firmware.xdp.server import EngineServer

    engine = EngineServer()
    answer = engine.handle("isready")
    assert answer[-1] == "readyok"
    [error] = [line for line in answer if line.startswith("info string error")]
    assert str(damaged_shipped_file) in error and "plays as medium" in error
    record = {
        "format": "xtraboard-record",
        "version": 1,
        "game": "extra",
        "players": [{"name": "A"}],
        "steps": [{"roll": [1, 2, 3, 4, 6]}],
    }
    engine.handle("position " + json.dumps(record))
    assert engine.handle("go")[-1].startswith("bestmove {")
