"""`xtraboard records audit [--csv]`: the audits from the journal; the CSV has exactly the
journal's games (read back here straight from the SQLite file, not through the journal)."""

from __future__ import annotations

import csv
import io
import json
import random
import sqlite3
import time
from datetime import datetime
from pathlib import Path

import pytest

from firmware.cli import main
from firmware.dice import SeededDice
from firmware.games import new_game
from firmware.games.base import Player
from firmware.journal import DB_NAME, Journal
from tests.support import play_on

T0 = 1_714_572_000.0  # 2024-05-01 14:00 UTC


def play(journal: Journal, name: str, players: list[Player], seed: int, *, finish: bool = True) -> int:
    game = new_game(name, players)
    gid = journal.start_game(game.to_record(), {"seed": seed, "mode": "play" if seed % 2 else "demo"})
    play_on(
        game,
        SeededDice(seed),
        random.Random(seed),
        limit=None if finish else 6,
        each=lambda g: journal.append_step(gid, len(g.history) - 1, g.history[-1].to_json()),
    )
    if not finish:
        return gid
    journal.finish(gid, game.result())  # type: ignore[arg-type]
    return gid


@pytest.fixture(scope="module")
def state(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """Finished games of each kind (one with a bot), an abandoned one and one being played;
    each step takes a minute of the journal's clock."""
    state = tmp_path_factory.mktemp("audit")
    clock = iter(T0 + 60 * i for i in range(100_000))
    journal = Journal(state, clock=lambda: next(clock))
    play(journal, "extra", [Player("Marie")], 1)
    play(journal, "exxtra", [Player("Alex"), Player("Bea"), Player("Robo", bot="easy")], 2)
    play(journal, "levelx", [Player("Alex"), Player("Bea")], 3)
    gid = play(journal, "extra", [Player("Paul"), Player("Zoe")], 4, finish=False)
    journal.abandon(gid)
    play(journal, "extra", [Player("Zoe")], 5, finish=False)
    journal.close()
    return state


def run(capsys: pytest.CaptureFixture[str], *args: str) -> tuple[int, str, str]:
    code = main(["records", "audit", *args])
    out, err = capsys.readouterr()
    return code, out, err


def local(timestamp: float) -> str:
    return datetime.fromtimestamp(timestamp).astimezone().isoformat(timespec="seconds")


def test_the_csv_has_exactly_the_journals_games(capsys, state: Path) -> None:
    code, out, err = run(capsys, "--csv", "--state-dir", str(state))
    assert (code, err) == (0, "")
    rows = list(csv.DictReader(io.StringIO(out)))
    conn = sqlite3.connect(state / DB_NAME)
    stored = conn.execute("SELECT id, game, status, header, meta, started, updated FROM games ORDER BY id").fetchall()
    assert len(rows) == len(stored) == 5
    for row, (gid, game, status, header, meta, started, updated) in zip(rows, stored, strict=True):
        players = json.loads(header)["players"]
        bots = sum(1 for p in players if p.get("bot"))
        steps = conn.execute("SELECT COUNT(*) FROM steps WHERE game_id = ?", (gid,)).fetchone()[0]
        assert row == {
            "id": str(gid),
            "game": game,
            "status": status,
            "mode": json.loads(meta)["mode"],
            "players": str(len(players)),
            "people": str(len(players) - bots),
            "bots": str(bots),
            "started": local(started),
            "ended": "" if status == "playing" else local(updated),
            "minutes": str(round((updated - started) / 60, 1)),
            "steps": str(steps),
        }
    assert [r["status"] for r in rows] == ["finished", "finished", "finished", "abandoned", "playing"]
    conn.close()


def test_the_csv_times_carry_their_offset_and_an_unfinished_game_has_no_end(
    capsys, state: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("TZ", "Europe/Berlin")  # the café's zone: the offset must say so
    time.tzset()
    try:
        code, out, _ = run(capsys, "--csv", "--state-dir", str(state))
    finally:
        monkeypatch.undo()
        time.tzset()
    rows = list(csv.DictReader(io.StringIO(out)))
    assert rows[0]["started"] == "2024-05-01T16:00:00+02:00"  # T0 is 14:00 UTC
    for row in rows:
        assert datetime.fromisoformat(row["started"]).utcoffset() is not None
    assert rows[-1]["status"] == "playing" and rows[-1]["ended"] == ""
    assert rows[-2]["status"] == "abandoned" and datetime.fromisoformat(rows[-2]["ended"]).utcoffset() is not None


def test_the_csv_for_one_game(capsys, state: Path) -> None:
    code, out, _ = run(capsys, "--csv", "--game", "extra", "--state-dir", str(state))
    rows = list(csv.DictReader(io.StringIO(out)))
    assert code == 0 and [r["game"] for r in rows] == ["extra"] * 3


def test_the_audit_lines(capsys, state: Path) -> None:
    code, out, err = run(capsys, "--state-dir", str(state))
    assert (code, err) == (0, "")
    lines = out.splitlines()
    assert lines[:4] == ["Games: 5", " finished 3", " abandoned 1", " playing 1"]
    assert "EXTRA!: 3 (1 done)" in lines and "EXXTRA: 1 (1 done)" in lines
    assert lines[lines.index("EXTRA!: 3 (1 done)") + 1] == " 1p 2, 2p 1"
    assert "People 8, bots 1" in lines
    conn = sqlite3.connect(state / DB_NAME)
    minutes = sum(round((u - s) / 60, 1) for s, u in conn.execute("SELECT started, updated FROM games"))
    conn.close()
    assert f"Minutes played: {minutes:.0f}" in lines
    histogram = lines[lines.index("Game lengths (min):") + 1 :][:6]
    assert sum(int(line.split()[1]) for line in histogram) == 4  # every game that is over
    assert lines[-1].startswith("dice fairness: ")


def test_an_empty_journal(capsys, tmp_path: Path) -> None:
    Journal(tmp_path).close()
    code, out, _ = run(capsys, "--csv", "--state-dir", str(tmp_path))
    assert code == 0 and out == "id,game,status,mode,players,people,bots,started,ended,minutes,steps\n"
    code, out, _ = run(capsys, "--state-dir", str(tmp_path))
    assert code == 0 and "Games: 0" in out and "none yet" in out
