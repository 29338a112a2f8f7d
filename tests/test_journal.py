"""The journal: games, records and settings on storage, and what it does when storage fails."""

from __future__ import annotations

import json
import logging
import os
import sqlite3
import subprocess
import sys
import tempfile
import textwrap
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from firmware.dice import SeededDice
from firmware.errors import RecordError
from firmware.games import game_class, new_game
from firmware.games.base import Player
from firmware.journal import (
    DAMAGED,
    DB_NAME,
    FAILING,
    FULL,
    READ_ONLY,
    SCHEMA_VERSION,
    UNAVAILABLE,
    Journal,
)
from tests.support import limited_to, play_on

ROOT = Path(__file__).resolve().parents[1]


class Clock:
    """A clock the test moves by hand."""

    def __init__(self, now: float = 1_700_000_000.0) -> None:
        self.now = now

    def __call__(self) -> float:
        return self.now


def header(game: str = "extra", *names: str, **seat_options: dict[str, Any]) -> dict[str, Any]:
    players = [{"name": n, **seat_options.get(n, {})} for n in (names or ("Marie",))]
    return {"format": "xtraboard-record", "version": 1, "game": game, "players": players}


def extra_result(*scores: int) -> dict[str, Any]:
    best = max(scores)
    return {
        "scores": list(scores),
        "rows": [{} for _ in scores],
        "winners": [i for i, s in enumerate(scores) if s == best],
    }


def play_solo(journal: Journal, name: str, score: int, **options: Any) -> int:
    gid = journal.start_game(header("extra", name, **({name: options} if options else {})))
    journal.append_step(gid, 0, {"roll": [1, 2, 3, 4, 5]})
    journal.finish(gid, extra_result(score))
    return gid


def journal_lines(caplog: pytest.LogCaptureFixture) -> list[str]:
    return [r.getMessage() for r in caplog.records if r.name == "xtraboard.journal" and r.levelno >= logging.WARNING]


# --- games -----------------------------------------------------------------------------------
def test_a_game_is_started_stepped_and_finished(tmp_path: Path) -> None:
    clock = Clock()
    journal = Journal(tmp_path / "state", clock=clock)
    assert (tmp_path / "state" / DB_NAME).is_file()
    assert journal.unfinished() is None and journal.problem is None

    gid = journal.start_game(header("extra", "Marie", "Paul"), {"seed": 3, "mode": "demo"})
    clock.now += 5
    journal.append_step(gid, 0, {"roll": [1, 2, 2, 3, 5]})
    journal.append_step(gid, 1, {"player": 0, "extra": 3, "column": 0, "pairs": [[1, 2], [0, 4]]})
    stored = journal.unfinished()
    assert stored is not None
    assert (stored.id, stored.status, stored.meta) == (gid, "playing", {"seed": 3, "mode": "demo"})
    assert (stored.started, stored.updated) == (clock.now - 5, clock.now)
    assert stored.record == {
        **header("extra", "Marie", "Paul"),
        "steps": [{"roll": [1, 2, 2, 3, 5]}, {"player": 0, "extra": 3, "column": 0, "pairs": [[1, 2], [0, 4]]}],
    }

    journal.finish(gid, extra_result(120, 80))
    assert journal.unfinished() is None
    [done] = journal.finished()
    assert done.status == "finished" and done.record["result"] == extra_result(120, 80)
    assert journal.record(gid) == done.record
    assert journal.stats() == {"exxtra": 0, "levelx": 0, "extra": 1}


def test_finished_games_come_newest_first_and_can_be_filtered(tmp_path: Path) -> None:
    journal = Journal(tmp_path)
    ids = []
    for game, result in [
        ("extra", extra_result(10)),
        ("exxtra", {"positions": [21, 3, 5], "winners": [0]}),
        ("levelx", {"scores": [20, 30], "chips": [[], []], "bonus": [[], []], "winners": [1]}),
        ("extra", extra_result(40)),
    ]:
        names = {"extra": ("Marie",), "exxtra": ("A", "B", "C"), "levelx": ("A", "B")}[game]
        ids.append(gid := journal.start_game(header(game, *names)))
        journal.finish(gid, result)
    assert [g.id for g in journal.finished()] == ids[::-1]
    assert [g.id for g in journal.finished("extra")] == [ids[3], ids[0]]
    assert [g.id for g in journal.finished(limit=2)] == [ids[3], ids[2]]
    assert journal.stats() == {"exxtra": 1, "levelx": 1, "extra": 2}
    with pytest.raises(RecordError, match="unknown game 'chess'"):
        journal.finished("chess")


def test_a_step_must_be_the_next_one(tmp_path: Path) -> None:
    journal = Journal(tmp_path)
    gid = journal.start_game(header())
    journal.append_step(gid, 0, {"roll": [1, 1, 1, 1, 1]})
    with pytest.raises(RecordError, match=r"step 2: game 1 has 1 steps, so the next step is number 1"):
        journal.append_step(gid, 2, {"roll": [1, 1, 1, 1, 1]})
    with pytest.raises(RecordError, match="step 0: .*next step is number 1"):
        journal.append_step(gid, 0, {"roll": [2, 2, 2, 2, 2]})
    with pytest.raises(RecordError, match="no game 99 in the journal"):
        journal.append_step(99, 0, {"roll": [1, 1, 1, 1, 1]})
    with pytest.raises(RecordError, match="must be a JSON object"):
        journal.append_step(gid, 1, [1, 2])  # type: ignore[arg-type]
    with pytest.raises(RecordError, match="step 1 is not JSON"):
        journal.append_step(gid, 1, {"roll": {1, 2}})
    assert journal.record(gid)["steps"] == [{"roll": [1, 1, 1, 1, 1]}]


def test_undo_truncates_and_can_reopen_a_finished_game(tmp_path: Path) -> None:
    journal = Journal(tmp_path)
    gid = journal.start_game(header())
    for i in range(4):
        journal.append_step(gid, i, {"roll": [i + 1] * 5})
    journal.truncate(gid, 2)
    assert journal.record(gid)["steps"] == [{"roll": [1] * 5}, {"roll": [2] * 5}]
    journal.append_step(gid, 2, {"roll": [6] * 5})
    with pytest.raises(RecordError, match="game 1 has 3 steps: cannot keep 4"):
        journal.truncate(gid, 4)

    journal.finish(gid, extra_result(77))
    assert journal.solo_best() is not None
    with pytest.raises(RecordError, match="cannot keep 3"):
        journal.truncate(gid, 3)  # a finished game only reopens by taking a step back
    journal.truncate(gid, 2)
    stored = journal.unfinished()
    assert stored is not None and stored.id == gid and "result" not in stored.record
    assert len(stored.record["steps"]) == 2
    assert journal.solo_best() is None and journal.finished() == []


def test_a_finished_game_cannot_be_reopened_during_another(tmp_path: Path) -> None:
    journal = Journal(tmp_path)
    first = play_solo(journal, "Marie", 10)
    journal.start_game(header())
    with pytest.raises(RecordError, match="game 1 cannot be reopened while game 2 is being played"):
        journal.truncate(first, 0)


def test_a_new_game_abandons_the_one_being_played(tmp_path: Path, caplog: pytest.LogCaptureFixture) -> None:
    journal = Journal(tmp_path)
    caplog.set_level(logging.INFO, "xtraboard.journal")
    old = journal.start_game(header())
    new = journal.start_game(header("levelx", "A", "B"))
    assert journal.unfinished().id == new  # type: ignore[union-attr]
    assert any("game 1 was still being played" in r.getMessage() for r in caplog.records)
    with pytest.raises(RecordError, match="game 1 is abandoned: it takes no more steps"):
        journal.append_step(old, 0, {"roll": [1] * 5})
    journal.abandon(new)
    journal.abandon(new)  # idempotent
    assert journal.unfinished() is None and journal.finished() == []
    with pytest.raises(RecordError, match="abandoned: nothing to undo"):
        journal.truncate(new, 0)


def test_finished_games_are_final(tmp_path: Path) -> None:
    journal = Journal(tmp_path)
    gid = play_solo(journal, "Marie", 5)
    with pytest.raises(RecordError, match="game 1 is finished: it cannot finish again"):
        journal.finish(gid, extra_result(5))
    with pytest.raises(RecordError, match="cannot be abandoned"):
        journal.abandon(gid)
    with pytest.raises(RecordError, match="takes no more steps"):
        journal.append_step(gid, 1, {"roll": [1] * 5})


@pytest.mark.parametrize(
    ("bad", "message"),
    [
        ({**header(), "format": "pgn"}, "needs 'format': 'xtraboard-record'"),
        ({**header(), "version": 2}, "'version': 1"),
        ({**header(), "game": "chess"}, "unknown game 'chess'"),
        ({**header(), "players": []}, "non-empty 'players' list"),
        ({**header(), "players": [{"nom": "x"}]}, "string 'name'"),
        ({**header(), "steps": [{"roll": [1] * 5}]}, "store them with append_step"),
        ({**header(), "result": {}}, "store it with finish"),
    ],
)
def test_a_bad_header_is_refused(tmp_path: Path, bad: dict[str, Any], message: str) -> None:
    journal = Journal(tmp_path)
    with pytest.raises(RecordError, match=message):
        journal.start_game(bad)
    assert journal.unfinished() is None


def test_a_header_may_be_a_fresh_games_record(tmp_path: Path) -> None:
    journal = Journal(tmp_path)
    game = new_game("extra", [Player("Marie", kids=True)])
    gid = journal.start_game({**game.to_record(), "variant": "demo"})
    assert journal.record(gid) == {**game.to_record(), "variant": "demo"}


def test_a_bad_result_is_refused(tmp_path: Path) -> None:
    journal = Journal(tmp_path)
    gid = journal.start_game(header("extra", "A", "B"))
    with pytest.raises(RecordError, match="extra result needs 'scores': a list of 2 integers"):
        journal.finish(gid, extra_result(3))
    with pytest.raises(RecordError, match="'winners': a list of seat numbers 0–1"):
        journal.finish(gid, {"scores": [1, 2], "winners": [2]})
    exxtra = journal.start_game(header("exxtra", "A", "B", "C"))
    with pytest.raises(RecordError, match="exxtra result needs 'positions'"):
        journal.finish(exxtra, {"scores": [1, 2, 3], "winners": [2]})
    assert journal.finished() == []


# --- records ---------------------------------------------------------------------------------
def test_best_scores_are_peoples_best_single_scores(tmp_path: Path) -> None:
    clock = Clock()
    journal = Journal(tmp_path, clock=clock)
    for names, scores, options in [
        (("Ann", "Bob"), (300, 150), {}),
        (("Cem", "Robo"), (90, 999), {"Robo": {"bot": "hard"}}),
        (("Ann",), (150,), {}),
        (("Kid",), (800,), {"Kid": {"kids": True}}),
    ]:
        clock.now += 60
        gid = journal.start_game(header("extra", *names, **options))
        journal.finish(gid, extra_result(*scores))
    best = journal.best_scores("extra")
    assert [(e.name, e.score, e.players) for e in best] == [
        ("Ann", 300, 2),
        ("Bob", 150, 2),
        ("Ann", 150, 1),
        ("Cem", 90, 2),
    ]
    assert best[1].date < best[2].date  # equal scores: the earlier one first
    assert [e.name for e in journal.best_scores("extra", limit=1)] == ["Ann"]
    assert [(e.name, e.score) for e in journal.best_scores("extra", kids=True)] == [("Kid", 800)]
    assert journal.wins("extra") == [("Ann", 1)]  # not the bot's win, nor solo games


def test_exxtra_has_wins_not_scores(tmp_path: Path) -> None:
    journal = Journal(tmp_path)
    for winner in (0, 2, 0):
        gid = journal.start_game(header("exxtra", "A", "B", "C"))
        positions = [4, 4, 4]
        positions[winner] = 21
        journal.finish(gid, {"positions": positions, "winners": [winner]})
    assert journal.best_scores("exxtra") == []
    assert journal.wins("exxtra") == [("A", 2), ("C", 1)]
    assert journal.wins("levelx") == []


def test_solo_best_is_the_extra_solo_personal_record(tmp_path: Path) -> None:
    clock = Clock()
    journal = Journal(tmp_path, clock=clock)
    assert journal.solo_best() is None
    for name, score in [("Marie", -60), ("Paul", 210), ("Marie", 180), ("Paul", 210)]:
        clock.now += 1
        play_solo(journal, name, score)
    gid = journal.start_game(header("extra", "Marie", "Paul"))
    journal.finish(gid, extra_result(900, 0))  # not solo
    play_solo(journal, "Robo", 1000, bot="hard")
    play_solo(journal, "Marie", 500, kids=True)

    best = journal.solo_best()
    assert best is not None and (best.name, best.score, best.game_id) == ("Paul", 210, 2)
    assert journal.solo_best("Marie").score == 180  # type: ignore[union-attr]
    assert journal.solo_best("Nobody") is None
    assert journal.solo_best("Marie", kids=True).score == 500  # type: ignore[union-attr]


# --- settings --------------------------------------------------------------------------------
def test_settings_keep_json_values(tmp_path: Path) -> None:
    journal = Journal(tmp_path)
    assert journal.get_setting("brightness") is None
    assert journal.get_setting("brightness", 0.5) == 0.5
    journal.set_setting("brightness", 0.3)
    journal.set_setting("brightness", 0.8)
    journal.set_setting("seats", {"colours": ["red", "blue"], "bots": [None, "easy"]})
    journal.close()
    again = Journal(tmp_path)
    assert again.get_setting("brightness") == 0.8
    assert again.get_setting("seats") == {"colours": ["red", "blue"], "bots": [None, "easy"]}
    with pytest.raises(RecordError, match="setting 'x' is not JSON"):
        again.set_setting("x", object())
    with pytest.raises(RecordError, match="non-empty string"):
        again.set_setting("", 1)


def test_a_closed_journal_says_so(tmp_path: Path) -> None:
    journal = Journal(tmp_path)
    journal.close()
    journal.close()
    with pytest.raises(RecordError, match="is closed"):
        journal.unfinished()


# --- durability ------------------------------------------------------------------------------
def test_a_step_survives_the_process_dying_right_after_append(tmp_path: Path) -> None:
    child = textwrap.dedent(
        f"""
        import os
        from firmware.journal import Journal
        journal = Journal({str(tmp_path)!r})
        gid = journal.start_game({header("extra", "Marie")!r}, {{"seed": 7}})
        journal.append_step(gid, 0, {{"roll": [6, 6, 5, 4, 1]}})
        os._exit(0)  # no close, no checkpoint: as if the power went
        """
    )
    subprocess.run([sys.executable, "-c", child], cwd=ROOT, check=True, timeout=60)
    assert (tmp_path / f"{DB_NAME}-wal").exists()  # the step lives in the write-ahead log
    stored = Journal(tmp_path).unfinished()
    assert stored is not None and stored.meta == {"seed": 7}
    assert stored.record["steps"] == [{"roll": [6, 6, 5, 4, 1]}]


def test_the_file_is_wal_with_full_sync_and_versioned(tmp_path: Path) -> None:
    journal = Journal(tmp_path)
    conn = sqlite3.connect(tmp_path / DB_NAME)
    assert conn.execute("PRAGMA journal_mode").fetchone()[0] == "wal"
    assert conn.execute("PRAGMA user_version").fetchone()[0] == SCHEMA_VERSION
    conn.close()
    assert journal._connection().execute("PRAGMA synchronous").fetchone()[0] == 2  # FULL


@settings(max_examples=40, deadline=None)
@given(
    st.lists(
        st.one_of(st.tuples(st.just("append"), st.integers(1, 6)), st.tuples(st.just("undo"), st.integers(0, 3))),
        max_size=25,
    )
)
def test_the_journal_follows_any_sequence_of_steps_and_undos(
    tmp_path_factory: pytest.TempPathFactory, ops: list[tuple[str, int]]
) -> None:
    state = tmp_path_factory.mktemp("journal")
    journal = Journal(state)
    gid = journal.start_game(header())
    model: list[dict[str, Any]] = []
    for op, n in ops:
        if op == "append":
            model.append({"roll": [n] * 5})
            journal.append_step(gid, len(model) - 1, model[-1])
        else:
            keep = max(0, len(model) - n)
            journal.truncate(gid, keep)
            del model[keep:]
    assert journal.record(gid)["steps"] == model
    journal.close()
    assert Journal(state).unfinished().record["steps"] == model  # type: ignore[union-attr]


# --- replay ----------------------------------------------------------------------------------
def test_an_exported_record_replays_to_the_same_game(tmp_path: Path) -> None:
    journal = Journal(tmp_path)
    game = new_game("extra", [Player("Marie"), Player("Robo", bot="easy")])
    gid = journal.start_game(game.to_record(), {"seed": 11})
    play_on(
        game,
        SeededDice(11),
        decide=lambda g: g.legal_decisions()[0],
        each=lambda g: journal.append_step(gid, len(g.history) - 1, g.history[-1].to_json()),
    )
    journal.finish(gid, game.result())  # type: ignore[arg-type]

    record = json.loads(json.dumps(journal.record(gid)))
    replayed = game_class(record["game"])([Player.from_json(p) for p in record["players"]])
    for step in record["steps"]:
        replayed.apply_json(step)
    assert replayed.to_record() == record == game.to_record()


# --- damaged files ---------------------------------------------------------------------------
def _journal_with_a_game(state: Path) -> None:
    journal = Journal(state)
    gid = journal.start_game(header())
    journal.set_setting("padding", "x" * 60_000)  # enough pages that half the file loses some
    journal.append_step(gid, 0, {"roll": [1] * 5})
    journal.close()


def _garbage(state: Path) -> str:
    (state / DB_NAME).write_bytes(bytes(range(256)) * 40)
    return "file is not a database"


def _truncated(state: Path) -> str:
    _journal_with_a_game(state)
    data = (state / DB_NAME).read_bytes()
    (state / DB_NAME).write_bytes(data[: len(data) // 2])
    return "malformed"


def _foreign(state: Path) -> str:
    conn = sqlite3.connect(state / DB_NAME)
    conn.execute("CREATE TABLE photos (id INTEGER, jpeg BLOB)")
    conn.commit()
    conn.close()
    return "schema version 0, this firmware uses 1"


def _newer(state: Path) -> str:
    _journal_with_a_game(state)
    conn = sqlite3.connect(state / DB_NAME)
    conn.execute("PRAGMA user_version = 99")
    conn.commit()
    conn.close()
    return "schema version 99"


def _missing_column(state: Path) -> str:
    _journal_with_a_game(state)
    conn = sqlite3.connect(state / DB_NAME)
    conn.execute("ALTER TABLE games DROP COLUMN meta")
    conn.commit()
    conn.close()
    return "table 'games' has columns"


@pytest.mark.parametrize("damage", [_garbage, _truncated, _foreign, _newer, _missing_column])
def test_an_unusable_file_is_moved_aside_and_a_fresh_journal_started(
    tmp_path: Path, caplog: pytest.LogCaptureFixture, damage: Any
) -> None:
    reason = damage(tmp_path)
    before = (tmp_path / DB_NAME).read_bytes()
    journal = Journal(tmp_path, clock=Clock(0.0))

    aside = tmp_path / f"{DB_NAME}.corrupt-19700101T000000Z"
    assert journal.moved_aside == aside and aside.read_bytes() == before
    [line] = [line for line in journal_lines(caplog) if "moved aside" in line]
    assert str(tmp_path / DB_NAME) in line and reason in line and aside.name in line
    assert journal.problem is None and journal.salvage is not None
    gid = journal.start_game(header())
    journal.append_step(gid, 0, {"roll": [2] * 5})
    journal.close()
    assert Journal(tmp_path).record(gid)["steps"] == [{"roll": [2] * 5}]


def test_the_wal_and_shm_go_aside_with_the_file_and_names_never_clash(tmp_path: Path) -> None:
    for _ in range(2):
        _garbage(tmp_path)
        (tmp_path / f"{DB_NAME}-wal").write_bytes(b"stale log")
        (tmp_path / f"{DB_NAME}-shm").write_bytes(b"stale index")
        Journal(tmp_path, clock=Clock(0.0)).close()
    stamp = f"{DB_NAME}.corrupt-19700101T000000Z"
    for name in (stamp, f"{stamp}-1"):
        assert (tmp_path / f"{name}-wal").read_bytes() == b"stale log"
        assert (tmp_path / f"{name}-shm").read_bytes() == b"stale index"
        assert (tmp_path / name).read_bytes().startswith(bytes(range(256)))


# --- failing storage -------------------------------------------------------------------------
def connect_read_only(path: Path) -> sqlite3.Connection:
    """How SQLite opens a file it may not write (as on a read-only mount)."""
    return sqlite3.connect(f"{path.as_uri()}?mode=ro", uri=True, isolation_level=None, check_same_thread=False)


def test_read_only_storage_keeps_play_going_in_memory(tmp_path: Path, caplog: pytest.LogCaptureFixture) -> None:
    _journal_with_a_game(tmp_path)
    before = (tmp_path / DB_NAME).read_bytes()
    journal = Journal(tmp_path, connect=connect_read_only)
    assert journal.problem == READ_ONLY == "storage read-only: games not kept"
    [line] = journal_lines(caplog)
    assert "readonly" in line and READ_ONLY in line and str(tmp_path / DB_NAME) in line

    stored = journal.unfinished()  # what was on storage is still there to resume
    assert stored is not None and stored.record["steps"] == [{"roll": [1] * 5}]
    journal.append_step(stored.id, 1, {"player": 0, "extra": 0, "column": 0, "pairs": [[1, 2], [3, 4]]})
    assert len(journal.record(stored.id)["steps"]) == 2
    journal.set_setting("brightness", 0.2)
    assert journal.get_setting("brightness") == 0.2
    assert (tmp_path / DB_NAME).read_bytes() == before and journal.moved_aside is None


def test_a_state_dir_nobody_may_write_keeps_play_going() -> None:
    """Real permissions: the child drops to user nobody when run as root (root ignores chmod)."""
    with tempfile.TemporaryDirectory() as name:  # not tmp_path: its parents are closed to nobody
        state = Path(name)
        _journal_with_a_game(state)
        os.chmod(state / DB_NAME, 0o444)
        os.chmod(state, 0o555)
        child = textwrap.dedent(
            f"""
            import json, os
            from firmware.journal import Journal
            if os.geteuid() == 0:
                os.setegid(65534)
                os.seteuid(65534)
            journal = Journal({str(state)!r})
            stored = journal.unfinished()
            journal.append_step(stored.id, 1, {{"roll": [3] * 5}})
            print(json.dumps([journal.problem, journal.record(stored.id)["steps"]]))
            """
        )
        try:
            done = subprocess.run([sys.executable, "-c", child], cwd=ROOT, capture_output=True, text=True, timeout=60)
        finally:
            os.chmod(state, 0o700)
            os.chmod(state / DB_NAME, 0o644)
        assert done.returncode == 0, done.stderr
        problem, steps = json.loads(done.stdout)
        assert problem in (READ_ONLY, UNAVAILABLE)
        assert steps == [{"roll": [1] * 5}, {"roll": [3] * 5}]
        assert Journal(state).unfinished().record["steps"] == [{"roll": [1] * 5}]  # type: ignore[union-attr]


def test_a_database_path_that_is_a_directory_keeps_play_going(tmp_path: Path) -> None:
    (tmp_path / DB_NAME).mkdir()
    journal = Journal(tmp_path)
    assert journal.problem == UNAVAILABLE
    gid = journal.start_game(header())
    journal.append_step(gid, 0, {"roll": [4] * 5})
    assert journal.unfinished().record["steps"] == [{"roll": [4] * 5}]  # type: ignore[union-attr]
    assert (tmp_path / DB_NAME).is_dir() and journal.moved_aside is None


def test_a_state_dir_that_is_a_file_keeps_play_going(tmp_path: Path) -> None:
    (tmp_path / "state").write_text("not a directory")
    journal = Journal(tmp_path / "state")
    assert journal.problem == UNAVAILABLE
    play_solo(journal, "Marie", 40)
    assert journal.solo_best().score == 40  # type: ignore[union-attr]


def test_full_storage_during_a_game_keeps_every_step(tmp_path: Path, caplog: pytest.LogCaptureFixture) -> None:
    Journal(tmp_path).close()  # the schema is in place; now the disk fills up
    journal = Journal(tmp_path, connect=limited_to(4))
    assert journal.problem is None
    gid = journal.start_game(header(), {"seed": 5})
    steps = [{"roll": [1, 2, 3, 4, 5], "note": f"{i:04d}" + "x" * 1500} for i in range(20)]
    for i, step in enumerate(steps):
        journal.append_step(gid, i, step)
    assert journal.problem == FULL == "storage full: games not kept"
    [line] = journal_lines(caplog)
    assert "full" in line and str(tmp_path / DB_NAME) in line
    stored = journal.unfinished()
    assert stored is not None and stored.record["steps"] == steps and stored.meta == {"seed": 5}
    journal.finish(gid, extra_result(70))
    assert journal.solo_best().score == 70  # type: ignore[union-attr]

    kept = Journal(tmp_path).unfinished()  # storage holds the steps that fitted, in order
    assert kept is not None and kept.record["steps"] == steps[: len(kept.record["steps"])]
    assert 0 < len(kept.record["steps"]) < len(steps)


def test_full_storage_at_the_first_write(tmp_path: Path) -> None:
    Journal(tmp_path).close()
    journal = Journal(tmp_path, connect=limited_to(0))
    gid = journal.start_game(header(), {"args": ["y" * 20_000]})
    assert journal.problem == FULL
    assert journal.unfinished().id == gid  # type: ignore[union-attr]


# --- read-only opening (for commands) --------------------------------------------------------
def test_read_only_opening_reads_but_never_writes_or_repairs(tmp_path: Path) -> None:
    with pytest.raises(RecordError, match="no journal at .*xtraboard.db"):
        Journal(tmp_path, read_only=True)
    assert not (tmp_path / DB_NAME).exists()

    _journal_with_a_game(tmp_path)
    reader = Journal(tmp_path, read_only=True)
    assert reader.unfinished().record["steps"] == [{"roll": [1] * 5}]  # type: ignore[union-attr]
    with pytest.raises(RecordError, match="opened read-only"):
        reader.set_setting("x", 1)

    _garbage(tmp_path)
    with pytest.raises(RecordError, match="cannot read the journal .*file is not a database"):
        Journal(tmp_path, read_only=True)
    assert (tmp_path / DB_NAME).read_bytes().startswith(bytes(range(256)))


def test_problem_messages_fit_the_display() -> None:
    for message in (FULL, READ_ONLY, UNAVAILABLE, DAMAGED, FAILING):
        assert len(message) <= 36 and message.endswith("games not kept")
