"""A damaged journal never stops the board: unreadable rows and settings are set aside (kept,
never deleted), a corrupt file's readable games are salvaged, and the display says so."""

from __future__ import annotations

import contextlib
import logging
import os
import random
import signal
import socket
import sqlite3
import subprocess
import sys
import textwrap
from pathlib import Path
from typing import Any

import pytest

from firmware.board_loop import Board
from firmware.dice import SeededDice
from firmware.games import new_game
from firmware.games.base import Player
from firmware.journal import DB_NAME, Journal
from firmware.ui.menus import records_text, resume
from firmware.ui.settings import Settings
from sim.board import SimBoard
from tests.support import play_on

NOTE_COLUMNS = 21  # a 128×64 OLED
ROOT = Path(__file__).resolve().parents[1]


def play(journal: Journal, game_name: str, players: list[Player], seed: int, steps: int | None = None) -> int:
    """A seeded game through the journal (to its end, or `steps` steps); its id."""
    game = new_game(game_name, players)
    header = {k: v for k, v in game.to_record().items() if k != "steps"}
    gid = journal.start_game(
        header, {"seed": seed, "mode": "play", "colours": ["red", "blue", "green"][: len(players)]}
    )
    play_on(
        game,
        SeededDice(seed),
        random.Random(seed),
        limit=steps,
        each=lambda g: journal.append_step(gid, len(g.history) - 1, g.history[-1].to_json()),
    )
    if game.is_over():
        journal.finish(gid, game.result())  # type: ignore[arg-type]
    return gid


def unfinished_exxtra(state: Path) -> int:
    """A journal holding one finished game and an EXXTRA game being played; the latter's id."""
    journal = Journal(state)
    play(journal, "extra", [Player("Marie")], 1)
    gid = play(journal, "exxtra", [Player("Ann"), Player("Bob"), Player("Cy")], 2, steps=6)
    journal.close()
    return gid


def sql(state: Path, statement: str, *args: Any) -> list[tuple[Any, ...]]:
    conn = sqlite3.connect(state / DB_NAME)
    try:
        rows = conn.execute(statement, args).fetchall()
        conn.commit()
        return rows
    finally:
        conn.close()


def kiosk_start(state: Path) -> SimBoard:
    """What `xtraboard run --kiosk` does at start: the board, then resume the unfinished game."""
    board = SimBoard(seed=1, state_dir=state)
    resume(board.app)
    board.board.render()
    return board


def note_on_display(board: SimBoard) -> str:
    return " ".join(line.strip() for line in board.screen_text())


def assert_fits(note: str) -> None:
    assert len(note) <= 2 * NOTE_COLUMNS, note


# --- an unreadable unfinished game ------------------------------------------------------------
DAMAGES = {
    "header not JSON": ("UPDATE games SET header = '{\"format\": ' WHERE id = ?",),
    "header not an object": ("UPDATE games SET header = '[1, 2]' WHERE id = ?",),
    "header without players": ("UPDATE games SET header = json_remove(header, '$.players') WHERE id = ?",),
    "header not UTF-8": ("UPDATE games SET header = CAST(X'7B22FF' AS TEXT) WHERE id = ?",),
    "step not JSON": ("UPDATE steps SET step = 'roll' WHERE game_id = ? AND idx = 3",),
    "step not an object": ("UPDATE steps SET step = '[3, 4]' WHERE game_id = ? AND idx = 2",),
    "meta not JSON": ("UPDATE games SET meta = '{seed' WHERE id = ?",),
    "meta not an object": ("UPDATE games SET meta = '[1]' WHERE id = ?",),
}


@pytest.mark.parametrize("damage", DAMAGES, ids=list(DAMAGES))
def test_an_unreadable_unfinished_game_is_set_aside_and_the_board_starts_clean(
    tmp_path: Path, caplog: pytest.LogCaptureFixture, damage: str
) -> None:
    gid = unfinished_exxtra(tmp_path)
    sql(tmp_path, DAMAGES[damage][0], gid)
    before = sql(tmp_path, "SELECT * FROM steps WHERE game_id = ? ORDER BY idx", gid)

    board = kiosk_start(tmp_path)  # raised from BoardApp's constructor before
    assert board.app.session is None and type(board.app.screen).__name__ == "MainMenu"
    assert not any(o.label.startswith("Resume") for o in board.app.screen.choice.options)
    [note] = board.app.problems
    assert note == f"saved game {gid} unreadable: set aside" and note in board.journal.notes
    assert_fits(note)
    assert "unreadable" in note_on_display(board)
    assert any(f"game {gid}" in r.getMessage() and "set aside" in r.getMessage() for r in caplog.records)
    board.close()

    # Kept, never deleted: marked abandoned and listed in the quarantine table with the reason.
    assert sql(tmp_path, "SELECT status FROM games WHERE id = ?", gid) == [("abandoned",)]
    assert sql(tmp_path, "SELECT * FROM steps WHERE game_id = ? ORDER BY idx", gid) == before
    [(item, reason)] = sql(tmp_path, "SELECT item, reason FROM quarantine")
    assert item == f"game {gid}" and reason
    again = Journal(tmp_path)
    assert again.unfinished() is None and again.notes == []  # said once; the next start is clean
    again.close()


def test_a_game_that_no_longer_replays_is_still_set_aside_by_resume(tmp_path: Path) -> None:
    gid = unfinished_exxtra(tmp_path)
    sql(tmp_path, "UPDATE steps SET step = '{\"roll\": [9, 9]}' WHERE game_id = ? AND idx = 0", gid)
    board = kiosk_start(tmp_path)
    assert board.app.session is None and board.app.problems
    assert sql(tmp_path, "SELECT status FROM games WHERE id = ?", gid) == [("abandoned",)]
    board.close()


@pytest.mark.parametrize(
    "meta",
    [
        '{"colours": 5}',
        '{"colours": ["red", "nope", "blue"]}',
        '{"colours": ["red", ["blue"], "green"]}',
        '{"seed": {}}',
    ],
)
def test_meta_the_screens_cannot_use_sets_the_game_aside_at_resume(tmp_path: Path, meta: str) -> None:
    gid = unfinished_exxtra(tmp_path)
    sql(tmp_path, "UPDATE games SET meta = ? WHERE id = ?", meta, gid)
    board = kiosk_start(tmp_path)  # raised (or drew an unknown colour) before
    assert board.app.session is None and type(board.app.screen).__name__ == "MainMenu"
    [note] = board.app.problems
    assert note.startswith(f"saved game {gid} does not replay")
    board.wait(10)
    board.close()
    assert sql(tmp_path, "SELECT status FROM games WHERE id = ?", gid) == [("abandoned",)]


# --- settings ---------------------------------------------------------------------------------
@pytest.mark.parametrize("value", ["not json", '"bright"', "7", "[0.5]", "null"])
def test_a_bad_setting_falls_back_to_its_default_and_says_which(
    tmp_path: Path, caplog: pytest.LogCaptureFixture, value: str
) -> None:
    journal = Journal(tmp_path)
    journal.set_setting("brightness", 0.4)
    journal.set_setting("dice_mode", "physical")
    journal.close()
    sql(tmp_path, "UPDATE settings SET value = ? WHERE key = 'brightness'", value)

    board = SimBoard(seed=1, state_dir=tmp_path)  # raised from BoardApp's constructor before (not JSON)
    assert board.app.settings.brightness == Settings().brightness
    assert board.app.settings.dice_mode == "physical"  # the others are kept
    assert board.app.problems == ["settings reset: Brightness"]
    assert_fits(board.app.problems[0])
    assert any("brightness" in r.getMessage() for r in caplog.records if r.levelno >= logging.WARNING)
    board.close()
    if value == "not json":  # unreadable: moved to the quarantine table, not lost
        assert sql(tmp_path, "SELECT item, data FROM quarantine") == [("setting brightness", "not json")]
    assert sql(tmp_path, "SELECT value FROM settings WHERE key = 'brightness'") == [(str(Settings().brightness),)]
    again = SimBoard(seed=1, state_dir=tmp_path)  # said once
    assert again.app.problems == [] and again.app.settings.dice_mode == "physical"
    again.close()


# --- records read past rows they cannot read --------------------------------------------------
def test_records_skip_rows_they_cannot_read(tmp_path: Path, caplog: pytest.LogCaptureFixture) -> None:
    journal = Journal(tmp_path)
    ids = [play(journal, "extra", [Player("Marie")], seed) for seed in (1, 2)]
    ids += [play(journal, "exxtra", [Player("Ann"), Player("Bob"), Player("Cy")], seed) for seed in (3, 4)]
    ids += [play(journal, "levelx", [Player("Cy"), Player("Di")], 5)]
    journal.close()
    sql(tmp_path, "UPDATE games SET result = '{broken' WHERE id = ?", ids[0])
    sql(tmp_path, "UPDATE games SET header = '\"x\"' WHERE id = ?", ids[2])
    sql(tmp_path, "UPDATE games SET game = CAST(X'FF' AS TEXT) WHERE id = ?", ids[4])
    sql(tmp_path, "UPDATE scores SET score = 'lots' WHERE game_id = ?", ids[1])
    sql(tmp_path, "UPDATE scores SET name = CAST(X'C3' AS TEXT) WHERE game_id = ? AND seat = 0", ids[3])
    sql(tmp_path, "UPDATE scores SET score = 'high' WHERE game_id = ?", ids[4])

    journal = Journal(tmp_path)
    caplog.clear()
    assert [g.id for g in journal.finished()] == [ids[4], ids[3], ids[1]]  # ids[4]: its header is fine
    assert [e.game_id for e in journal.best_scores("extra")] == [ids[0]]
    assert journal.solo_best() is not None and journal.solo_best().game_id == ids[0]  # type: ignore[union-attr]
    assert all(isinstance(name, str) for name, _ in journal.wins("exxtra"))
    assert journal.best_scores("levelx") == []
    assert journal.stats() == {"exxtra": 2, "levelx": 0, "extra": 2}
    board_text = records_text(type("App", (), {"journal": journal, "problems": []})())
    assert "Played" in board_text
    skipped = [r.getMessage() for r in caplog.records if r.levelno >= logging.WARNING]
    assert len(skipped) == 7, skipped  # one line per unreadable row, however often it is read
    for gid in (ids[0], ids[2], ids[4]):
        assert any(f"game {gid}" in line for line in skipped)
    journal.close()


# --- a whole file moved aside as corrupt: salvage ---------------------------------------------
def many_games(state: Path) -> tuple[list[int], int]:
    """Twelve finished games of all three kinds and one being played; their ids."""
    journal = Journal(state, clock=lambda: 0.0)
    finished = []
    for seed in range(4):
        finished.append(play(journal, "extra", [Player("Marie")], seed))
        finished.append(play(journal, "exxtra", [Player("Ann"), Player("Bob"), Player("Cy")], seed))
        finished.append(play(journal, "levelx", [Player("Di"), Player("Ed")], seed))
    journal.set_setting("brightness", 0.3)
    playing = play(journal, "exxtra", [Player("Ann"), Player("Bob"), Player("Cy")], 9, steps=8)
    journal.close()
    return finished, playing


def flip_index_page(state: Path, index: str, count: int = 64) -> None:
    """Flip `count` bytes at the start of an index's root page: the integrity check fails,
    while every table row stays readable by its key."""
    [(root,)] = sql(state, "SELECT rootpage FROM sqlite_master WHERE name = ?", index)
    [(page_size,)] = sql(state, "PRAGMA page_size")
    path = state / DB_NAME
    data = bytearray(path.read_bytes())
    start = (root - 1) * page_size
    for i in range(start, start + count):
        data[i] ^= 0xFF
    path.write_bytes(bytes(data))


def test_a_corrupt_file_is_moved_aside_and_every_readable_game_salvaged(
    tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    finished, playing = many_games(tmp_path)
    with Journal(tmp_path) as before:
        records = {gid: before.record(gid) for gid in [*finished, playing]}
        best = before.best_scores("levelx")
    flip_index_page(tmp_path, "games_by_status")
    with sqlite3.connect(tmp_path / DB_NAME) as conn:
        assert conn.execute("PRAGMA quick_check").fetchall() != [("ok",)]

    board = kiosk_start(tmp_path)
    journal = board.journal
    assert journal.moved_aside is not None and journal.moved_aside.exists()
    assert journal.salvage == (13, 0)
    assert board.app.problems == ["journal damaged: kept 13 games, lost 0"]
    assert_fits(board.app.problems[0])
    assert board.app.session is not None and board.app.session.journal_id == playing  # resumed
    assert {g.id for g in journal.finished()} == set(finished)
    for gid, record in records.items():
        assert journal.record(gid) == record
    assert journal.best_scores("levelx") == best
    assert journal.get_setting("brightness") == 0.3
    board.close()


def test_salvage_counts_the_games_it_cannot_read_as_lost(tmp_path: Path) -> None:
    finished, playing = many_games(tmp_path)
    sql(tmp_path, "UPDATE steps SET step = '{\"roll\": [7]}' WHERE game_id = ? AND idx = 0", finished[0])
    sql(tmp_path, "UPDATE games SET header = 'nope' WHERE id = ?", finished[1])
    flip_index_page(tmp_path, "games_by_status")

    journal = Journal(tmp_path)
    assert journal.salvage == (11, 2)
    assert journal.notes == ["journal damaged: kept 11 games, lost 2"]
    assert {g.id for g in journal.finished()} == set(finished[2:])
    assert journal.unfinished().id == playing  # type: ignore[union-attr]
    journal.close()
    aside = Journal(tmp_path)  # the damaged file stays aside, untouched by the salvage
    assert aside.salvage is None and aside.notes == []
    aside.close()


def test_a_file_with_nothing_readable_says_the_journal_was_started_afresh(tmp_path: Path) -> None:
    (tmp_path / DB_NAME).write_bytes(bytes(range(256)) * 40)
    journal = Journal(tmp_path)
    assert journal.salvage == (0, 0)
    assert journal.notes == ["journal unreadable: started afresh"]
    assert_fits(journal.notes[0])
    journal.close()


def test_a_board_with_a_damaged_journal_still_starts_in_a_fresh_board(tmp_path: Path) -> None:
    """The service path: Board() with the journal, as `run_board` builds it."""
    gid = unfinished_exxtra(tmp_path)
    sql(tmp_path, "UPDATE games SET meta = '[1]' WHERE id = ?", gid)
    board = SimBoard(seed=1)
    journal = Journal(tmp_path)
    fresh = Board(board.hardware, board.loop, journal=journal, kiosk=True)
    resume(fresh.app)
    assert fresh.app.session is None and fresh.app.problems == [f"saved game {gid} unreadable: set aside"]
    journal.close()
    board.close()


# --- the service itself -----------------------------------------------------------------------
@pytest.mark.parametrize(
    "damage",
    [
        "UPDATE games SET header = '[' WHERE status = 'playing'",
        "UPDATE settings SET value = '{' WHERE key = 'dice_mode'",
    ],
)
def test_the_kiosk_service_starts_on_a_damaged_journal(tmp_path: Path, damage: str) -> None:
    """`xtraboard run --kiosk` as systemd starts it (mock GPIO): it reports READY, and stops
    cleanly on SIGTERM, instead of raising at start and crash-looping under Restart=always."""
    state = tmp_path / "state"
    unfinished_exxtra(state)
    with Journal(state) as journal:
        journal.set_setting("dice_mode", "physical")
    sql(state, damage)
    notify = tmp_path / "notify.sock"
    env = {k: v for k, v in os.environ.items() if k not in ("XTRABOARD_BOARD",)}
    env.update(GPIOZERO_PIN_FACTORY="mock", NOTIFY_SOCKET=str(notify), WATCHDOG_USEC="30000000")
    with socket.socket(socket.AF_UNIX, socket.SOCK_DGRAM) as listener:
        listener.bind(str(notify))
        listener.settimeout(60)  # a bound on a hung start, not a timing assertion
        child = subprocess.Popen(
            [sys.executable, "-m", "firmware", "run", "--kiosk", "--state-dir", str(state)],
            cwd=ROOT,
            env=env,
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            text=True,
        )
        try:
            messages: list[bytes] = []
            while b"WATCHDOG=1" not in messages and child.poll() is None:  # the loop pings once it runs
                with contextlib.suppress(socket.timeout):
                    messages.append(listener.recv(4096))
            child.send_signal(signal.SIGTERM)
            _, stderr = child.communicate(timeout=60)
        finally:
            if child.poll() is None:
                child.kill()
                child.wait()
    assert messages[:2] == [b"READY=1", b"WATCHDOG=1"], stderr
    assert child.returncode == 0 and "Traceback" not in stderr, stderr
    with Journal(state) as journal:
        assert journal.unfinished() is None if "header" in damage else journal.unfinished() is not None


def flip_first_leaf_of(state: Path, table: str, count: int = 64) -> None:
    """Flip `count` bytes at the start of the first leaf page under a table's root (an
    interior page): that page's rows are lost, the pages after it must still be found."""
    [(root,)] = sql(state, "SELECT rootpage FROM sqlite_master WHERE name = ?", table)
    [(page_size,)] = sql(state, "PRAGMA page_size")
    path = state / DB_NAME
    data = bytearray(path.read_bytes())
    page = (root - 1) * page_size
    header = page + (100 if root == 1 else 0)
    assert data[header] == 0x05, "the table's root must be an interior page"
    cell = int.from_bytes(data[header + 12 : header + 14], "big") + page  # cell 0: its left child first
    child = int.from_bytes(data[cell : cell + 4], "big")
    start = (child - 1) * page_size
    for i in range(start, start + count):
        data[i] ^= 0xFF
    path.write_bytes(bytes(data))


def test_games_past_a_damaged_page_of_the_games_table_are_still_found(tmp_path: Path) -> None:
    journal = Journal(tmp_path)
    names = [Player(f"Player {i:03d} " + "x" * 200) for i in range(3)]
    for _ in range(60):  # games that never got a step: small, and they replay
        journal.start_game({**new_game("exxtra", names).to_record(), "steps": []}, {"seed": 1})
    journal.close()
    flip_first_leaf_of(tmp_path, "games")

    journal = Journal(tmp_path)
    assert journal.moved_aside is not None and journal.salvage is not None
    kept, lost = journal.salvage
    assert kept + lost == 60 and 0 < lost < 30, journal.salvage
    assert journal.notes == [f"journal damaged: kept {kept} games, lost {lost}"]
    assert journal.unfinished().id == 60  # type: ignore[union-attr]
    journal.close()


@pytest.mark.parametrize("cut", ["before the swap", "while building"])
def test_a_start_cut_short_while_salvaging_loses_nothing(tmp_path: Path, cut: str) -> None:
    """The power goes while the salvaged journal is built, or after the damaged file went aside
    and before the salvaged one took its place: the next start still has every game."""
    finished, playing = many_games(tmp_path)
    flip_index_page(tmp_path, "games_by_status")
    die_at = ".salvage" if cut == "before the swap" else "never"
    child = textwrap.dedent(
        f"""
        import os, sqlite3
        from firmware.journal import Journal
        real_replace, real_connect = os.replace, sqlite3.connect
        def replace(source, target):
            if str(source).endswith({die_at!r}):
                os._exit(9)  # as if the power went
            real_replace(source, target)
        def connect(path, *args, **kwargs):
            conn = real_connect(path, *args, **kwargs)
            if {cut!r} == "while building" and str(path).endswith(".salvage"):
                conn.set_progress_handler(lambda: os._exit(9), 50)
            return conn
        os.replace, sqlite3.connect = replace, connect
        Journal({str(tmp_path)!r})
        """
    )
    done = subprocess.run([sys.executable, "-c", child], cwd=ROOT, capture_output=True, text=True, timeout=120)
    assert done.returncode == 9, done.stderr
    assert (tmp_path / "xtraboard.db.salvage").exists()
    assert (tmp_path / DB_NAME).exists() == (cut == "while building")

    journal = Journal(tmp_path)
    assert {g.id for g in journal.finished()} == set(finished)
    assert journal.unfinished().id == playing  # type: ignore[union-attr]
    assert journal.notes == ["journal damaged: kept 13 games, lost 0"]
    assert not (tmp_path / "xtraboard.db.salvage").exists()
    assert not list(tmp_path.glob(".xtraboard.db.salvage-*"))  # the copy read from, left by the cut
    journal.close()
