"""`xtraboard records export|list|best` over a journal filled by real games."""

from __future__ import annotations

import json
import os
import random
import re
import shutil
import subprocess
import sys
import tempfile
from datetime import datetime
from pathlib import Path
from typing import Any

import pytest

from firmware.cli import main
from firmware.dice import SeededDice
from firmware.games import game_class, new_game
from firmware.games.base import Player
from firmware.journal import DB_NAME, Journal
from firmware.paths import default_state_dir
from tests.support import play_on

ROOT = Path(__file__).resolve().parents[1]
T0 = 1_714_572_000.0  # 2024-05-01 14:00 UTC


def play(journal: Journal, game_name: str, players: list[Player], seed: int) -> dict[str, Any]:
    """Play a seeded game through the journal, as the board's loop does; its final record."""
    game = new_game(game_name, players)
    gid = journal.start_game(game.to_record(), {"seed": seed})
    play_on(
        game,
        SeededDice(seed),
        random.Random(seed),
        each=lambda g: journal.append_step(gid, len(g.history) - 1, g.history[-1].to_json()),
    )
    journal.finish(gid, game.result())  # type: ignore[arg-type]
    return game.to_record()


@pytest.fixture(scope="module")
def played(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, list[dict[str, Any]]]:
    """A state dir with five finished games (one each minute) and one being played."""
    state = tmp_path_factory.mktemp("played")
    clock = iter(T0 + 60 * i for i in range(100_000))
    journal = Journal(state, clock=lambda: next(clock))
    records = [
        play(journal, "extra", [Player("Marie")], 1),
        play(journal, "exxtra", [Player("Alex"), Player("Beatrice"), Player("Carl", bot="easy")], 2),
        play(journal, "levelx", [Player("Alex"), Player("Beatrice")], 3),
        play(journal, "extra", [Player("Marie"), Player("Paul")], 4),
        play(journal, "extra", [Player("Paul")], 5),
    ]
    journal.start_game(new_game("extra", ["Zoe"]).to_record())
    journal.close()
    return state, records


@pytest.fixture
def board(played: tuple[Path, list[dict[str, Any]]], tmp_path: Path) -> tuple[Path, list[dict[str, Any]]]:
    """A copy of the played state dir for one test (playing every time would be slow)."""
    state = tmp_path / "state"
    shutil.copytree(played[0], state)
    return state, played[1]


def run(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, str, str]:
    code = main(["records", *argv])
    out, err = capsys.readouterr()
    return code, out, err


def test_export_writes_every_finished_game_and_each_replays(capsys, board) -> None:
    state, records = board
    code, out, err = run(capsys, "export", "--state-dir", str(state))
    assert code == 0, err
    exported = [json.loads(line) for line in out.splitlines()]
    assert exported == records  # oldest first; the game being played is not exported
    for record in exported:
        assert "result" in record
        replayed = game_class(record["game"])([Player.from_json(p) for p in record["players"]])
        for step in record["steps"]:
            replayed.apply_json(step)
        assert replayed.is_over() and replayed.to_record() == record


def test_export_to_a_file_and_for_one_game(capsys, board, tmp_path_factory) -> None:
    state, records = board
    out_file = tmp_path_factory.mktemp("out") / "extra.jsonl"
    code, out, err = run(capsys, "export", "--state-dir", str(state), "--game", "extra", "--out", str(out_file))
    assert (code, out) == (0, "") and f"3 game records written to {out_file}" in err
    lines = out_file.read_text(encoding="utf-8").splitlines()
    assert [json.loads(line) for line in lines] == [r for r in records if r["game"] == "extra"]

    code, out, err = run(capsys, "export", "--state-dir", str(state), "--out", str(state / "no" / "such" / "dir.jsonl"))
    assert code == 1 and "cannot write" in err and "No such file or directory" in err


def test_list_shows_one_line_per_game_newest_first(capsys, board) -> None:
    state, records = board
    code, out, err = run(capsys, "list", "--state-dir", str(state))
    assert code == 0, err
    lines = out.splitlines()
    assert len(lines) == 5
    assert [int(line.split()[0]) for line in lines] == [5, 4, 3, 2, 1]
    line = re.compile(r"^ +(\d+)  (\d{4}-\d\d-\d\d \d\d:\d\d)  (.{7})  (.*)  won: (.*)$")
    fields = [line.match(text).groups() for text in lines]  # type: ignore[union-attr]
    winners = ", ".join(records[0]["players"][i]["name"] for i in records[0]["result"]["winners"]) or "nobody"
    assert fields[-1] == ("1", _local(fields[-1][1]), "EXTRA! ", "Marie", winners)
    assert fields[3][2:4] == ("EXXTRA ", "Alex, Beatrice, Carl (bot easy)")
    code, out, _ = run(capsys, "list", "--state-dir", str(state), "--game", "levelx")
    assert [line.split()[0] for line in out.splitlines()] == ["3"]
    code, out, _ = run(capsys, "list", "--state-dir", str(state), "--limit", "2")
    assert [line.split()[0] for line in out.splitlines()] == ["5", "4"]


def _local(date: str) -> str:
    """The date column, checked to be a local time near the test's games."""
    parsed = datetime.strptime(date, "%Y-%m-%d %H:%M")
    assert abs(parsed.timestamp() - T0) < 24 * 3600
    return date


def test_best_lists_scores_wins_and_the_solo_record(capsys, board) -> None:
    state, records = board
    code, out, err = run(capsys, "best", "--state-dir", str(state))
    assert code == 0, err
    assert out.startswith("EXXTRA\n") and "LEVEL X\n  high scores:\n" in out and "EXTRA!\n  high scores:\n" in out
    solos = [
        (r["players"][0]["name"], r["result"]["scores"][0])
        for r in records
        if r["game"] == "extra" and len(r["players"]) == 1
    ]
    name, score = max(solos, key=lambda s: s[1])  # on equal scores the earlier game: max keeps the first
    assert f"  solo record: {name}  {score}  (" in out
    exxtra = records[1]["result"]["winners"]
    people = [records[1]["players"][i]["name"] for i in exxtra if "bot" not in records[1]["players"][i]]
    assert people, "seed 2 should give a person the EXXTRA win"
    assert f"EXXTRA\n  most wins:\n   1. {people[0]}  1 win\n" in out
    levelx = records[2]["result"]["scores"]
    assert f"   1. {records[2]['players'][levelx.index(max(levelx))]['name']}  {max(levelx)}  (" in out

    code, out, _ = run(capsys, "best", "--state-dir", str(state), "--game", "levelx", "--limit", "1")
    assert out.startswith("LEVEL X\n  high scores:\n   1. ") and len(out.splitlines()) == 3


def test_best_on_an_empty_journal(capsys, tmp_path) -> None:
    Journal(tmp_path).close()
    code, out, _ = run(capsys, "best", "--state-dir", str(tmp_path), "--game", "extra")
    assert code == 0 and out == "EXTRA!\n  high scores: none yet\n  solo record: none yet\n"


def test_a_missing_or_damaged_journal_is_a_clear_error_and_left_alone(capsys, tmp_path) -> None:
    code, out, err = run(capsys, "list", "--state-dir", str(tmp_path / "nowhere"))
    assert (code, out) == (1, "")
    assert f"xtraboard records: no journal at {tmp_path / 'nowhere' / DB_NAME}" in err
    assert not (tmp_path / "nowhere").exists()

    (tmp_path / DB_NAME).write_bytes(b"\x00garbage" * 100)
    code, _, err = run(capsys, "export", "--state-dir", str(tmp_path))
    assert code == 1 and "cannot read the journal" in err and "file is not a database" in err
    assert (tmp_path / DB_NAME).read_bytes() == b"\x00garbage" * 100


def test_the_state_dir_defaults_to_systemds_state_directory(capsys, board, monkeypatch) -> None:
    state, records = board
    monkeypatch.setenv("STATE_DIRECTORY", str(state))
    code, out, _ = run(capsys, "export")
    assert code == 0 and len(out.splitlines()) == len(records)


def test_default_state_dir_order() -> None:
    assert default_state_dir({"STATE_DIRECTORY": "/var/lib/xtraboard", "XDG_STATE_HOME": "/x"}) == Path(
        "/var/lib/xtraboard"
    )
    assert default_state_dir({"STATE_DIRECTORY": "/a:/b"}) == Path("/a")
    assert default_state_dir({"XDG_STATE_HOME": "/home/pi/.state", "HOME": "/home/pi"}) == Path(
        "/home/pi/.state/xtraboard"
    )
    assert default_state_dir({"XDG_STATE_HOME": "relative", "HOME": "/home/pi"}) == Path(
        "/home/pi/.local/state/xtraboard"
    )
    assert default_state_dir({"HOME": "/home/pi"}) == Path("/home/pi/.local/state/xtraboard")


def test_reading_while_the_board_plays_changes_nothing(capsys, board) -> None:
    state, _ = board
    playing = Journal(state)  # the board, mid-game
    stored = playing.unfinished()
    assert stored is not None
    before = (state / DB_NAME).read_bytes()
    code, out, _ = run(capsys, "list", "--state-dir", str(state))
    assert code == 0 and len(out.splitlines()) == 5
    playing.append_step(stored.id, 0, {"roll": [1, 2, 3, 4, 5]})
    assert (state / DB_NAME).read_bytes() == before  # the step went to the -wal, nothing else wrote
    assert Journal(state, read_only=True).unfinished().record["steps"] == [{"roll": [1, 2, 3, 4, 5]}]  # type: ignore[union-attr]
    playing.close()


def test_the_installed_entry_point_runs_it(board) -> None:
    state, records = board
    done = subprocess.run(
        [sys.executable, "-m", "firmware", "records", "list", "--state-dir", str(state), "--game", "exxtra"],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert done.returncode == 0, done.stderr
    assert done.stdout.split()[0] == "2" and "Carl (bot easy)" in done.stdout


def _records_as_nobody(*argv: str) -> subprocess.CompletedProcess[str]:
    """`xtraboard records ...` in a child that drops to user nobody when run as root (root ignores
    file modes); it imports what it needs first, as nobody may not read this Python's files."""
    child = (
        "import os, sys, tempfile, shutil, locale\n"
        "from firmware.cli import build_parser\n"
        "from firmware.commands import records\n"
        "import firmware.verify, firmware.audit\n"
        f"args = build_parser('records').parse_args({['records', *argv]!r})\n"
        "if os.geteuid() == 0:\n    os.setegid(65534); os.seteuid(65534)\n"
        "sys.exit(records.run(args))\n"
    )
    return subprocess.run([sys.executable, "-c", child], cwd=ROOT, capture_output=True, text=True, timeout=60)


@pytest.mark.parametrize("with_wal", [True, False], ids=["wal-without-shm", "checkpointed"])
def test_list_and_export_read_a_journal_on_a_read_only_card(board, with_wal: bool) -> None:
    """The rescue case: a card pulled from a board (its last games still in the -wal, no -shm) and
    mounted read-only elsewhere. SQLite cannot make the -shm there; the commands still read every
    game, the -wal's too, and write nothing."""
    state, records = board
    with tempfile.TemporaryDirectory() as name:  # not tmp_path: its parents are closed to nobody
        card = Path(name) / "card"
        card.mkdir()
        playing = Journal(state)
        play(playing, "levelx", [Player("Ida"), Player("Jon")], 6)  # committed to the -wal only
        if with_wal:  # pulled mid-session: the journal is the file and its -wal
            for suffix in ("", "-wal"):
                shutil.copyfile(f"{state / DB_NAME}{suffix}", f"{card / DB_NAME}{suffix}")
        playing.close()  # the last connection checkpoints: the file alone is the journal
        if not with_wal:
            shutil.copyfile(state / DB_NAME, card / DB_NAME)
        assert (Path(f"{card / DB_NAME}-wal").exists()) == with_wal
        before = {p.name: p.read_bytes() for p in card.iterdir()}
        for path in card.iterdir():
            path.chmod(0o444)
        card.chmod(0o555)
        os.chmod(name, 0o755)
        try:
            listing = _records_as_nobody("list", "--state-dir", str(card))
            export = _records_as_nobody("export", "--state-dir", str(card))
        finally:
            card.chmod(0o700)
        assert listing.returncode == 0, listing.stderr
        assert len(listing.stdout.splitlines()) == 6 and "Ida, Jon" in listing.stdout.splitlines()[0]
        assert export.returncode == 0, export.stderr
        assert [json.loads(line)["players"] for line in export.stdout.splitlines()][-1] == [
            {"name": "Ida"},
            {"name": "Jon"},
        ]
        assert {p.name: p.read_bytes() for p in card.iterdir()} == before


@pytest.mark.parametrize("action", ["export", "list", "best", "audit"])
@pytest.mark.parametrize("redirect", ["> /dev/full", ">&-"], ids=["full", "closed"])
def test_a_full_or_closed_stdout_is_one_line_and_a_failure(board, action: str, redirect: str) -> None:
    state, _ = board
    done = subprocess.run(
        [
            "sh",
            "-c",
            f'exec "$@" {redirect}',
            "sh",
            sys.executable,
            "-m",
            "firmware",
            "records",
            action,
            "--state-dir",
            str(state),
        ],
        cwd=ROOT,
        stderr=subprocess.PIPE,
        text=True,
        timeout=60,
    )
    reason = "No space left on device" if "full" in redirect else "standard output is closed"
    assert done.stderr == f"xtraboard records: cannot write to standard output: {reason}\n"
    assert done.returncode == 1


def test_a_reader_that_goes_away_is_not_an_error(board) -> None:
    state, _ = board
    done = subprocess.run(
        [
            "sh",
            "-c",
            '"$@" | head -c 1 >/dev/null',
            "sh",
            sys.executable,
            "-m",
            "firmware",
            "records",
            "export",
            "--state-dir",
            str(state),
        ],
        cwd=ROOT,
        stderr=subprocess.PIPE,
        text=True,
        timeout=60,
    )
    assert done.returncode == 0 and done.stderr == ""
