"""Problems the board plays on with are said on the display, and play goes on: a note is a
banner that shows for a few seconds and never waits for anyone."""

from __future__ import annotations

import sqlite3
from pathlib import Path

from firmware.board_loop import Board
from firmware.journal import FULL, READ_ONLY, Journal
from firmware.ui.app import NOTE_S
from firmware.ui.menus import records_text
from sim.app import start_demo
from sim.board import SimBoard
from tests.support import limited_to


def shown(board: SimBoard) -> str:
    return " ".join(board.screen_text())


def test_storage_that_cannot_be_used_is_reported_and_play_goes_on(tmp_path):
    blocked = tmp_path / "state"
    blocked.write_text("not a directory")  # the state dir is a file: nothing can be kept there
    board = SimBoard(seed=1, state_dir=blocked)
    problem = board.journal.problem
    assert problem and board.app.problems == [problem]
    assert board.app.note == problem and type(board.app.screen).__name__ == "MainMenu"
    assert "storage unavailable:" in shown(board)  # over the bottom of the menu
    board.wait(NOTE_S)
    assert board.app.note is None and "storage" not in shown(board)  # gone by itself
    for button in ("ok", "ok", "ok", "ok", "ok", "roll"):  # EXXTRA, 3 people, roll
        board.tap(button)
    board.settle()
    assert len(board.app.session.game.history) >= 1
    assert problem in records_text(board.app)  # still there to look up: Records lists notes
    board.close()


def test_a_press_hides_the_note_and_does_what_it_always_does(tmp_path):
    blocked = tmp_path / "state"
    blocked.write_text("not a directory")
    board = SimBoard(seed=1, state_dir=blocked)
    assert board.app.note is not None
    board.tap("ok")  # "Play EXXTRA": the note does not swallow it
    assert board.app.note is None
    assert board.screen_text()[0] == "EXXTRA"
    board.close()


def test_a_missing_display_is_noted_on_the_board(tmp_path):
    board = SimBoard(seed=1)
    board.hardware.problems.append("display: nothing answers at 0x3C on I2C bus 1")
    fresh = Board(board.hardware, board.loop)
    assert fresh.app.problems == ["display: nothing answers at 0x3C on I2C bus 1"]
    assert fresh.app.note == fresh.app.problems[0]
    assert type(fresh.app.screen).__name__ == "MainMenu"
    board.close()


def test_notes_take_turns_on_the_display(tmp_path):
    board = SimBoard(seed=1)
    board.hardware.problems += ["display: first", "leds: second"]
    fresh = Board(board.hardware, board.loop)
    board.board = fresh
    assert fresh.app.note == "display: first"
    board.wait(NOTE_S)
    assert fresh.app.note == "leds: second"
    board.wait(NOTE_S)
    assert fresh.app.note is None
    board.close()


def test_a_demo_starts_and_plays_to_its_end_on_read_only_storage(tmp_path):
    board = SimBoard(seed=4, state_dir=tmp_path)
    board.close()
    journal = Journal(tmp_path, connect=read_only)
    assert journal.problem == READ_ONLY
    board = SimBoard(seed=4)
    board.board = Board(board.hardware, board.loop, journal=journal, seed=4)
    board.journal = journal
    assert board.app.problems == [READ_ONLY]
    start_demo(board, "extra", 2)  # by button presses, with the note on the display
    board.settle()
    assert board.app.session is not None and board.app.session.over
    board.close()


def test_bots_play_on_to_the_end_when_storage_fills_mid_game(tmp_path):
    Journal(tmp_path).close()  # the schema is in place; now the disk fills up
    journal = Journal(tmp_path, connect=limited_to(1))
    board = SimBoard(seed=5)
    board.board = Board(board.hardware, board.loop, journal=journal, seed=5)
    board.journal = journal
    start_demo(board, "exxtra", 6)
    assert journal.problem is None  # the game starts on storage ...
    board.settle()  # no button is pressed from here on
    assert journal.problem == FULL and FULL in board.app.problems
    assert board.app.session is not None and board.app.session.over
    # ... and then the kiosk's idle show starts as on any board left alone.
    board.wait(board.app.settings.idle_timeout_s + 1)
    assert board.board.attract_phase is not None
    board.close()


def read_only(path: Path) -> sqlite3.Connection:
    """How SQLite opens a file it may not write (as on a read-only mount)."""
    return sqlite3.connect(f"{path.as_uri()}?mode=ro", uri=True, isolation_level=None, check_same_thread=False)
