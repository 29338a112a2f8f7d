"""Rows the journal cannot read never crash it: they give one RecordError or are set aside, and
what it builds from a damaged file is as private as the journal itself."""

from __future__ import annotations

import os
import sqlite3
import stat
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from firmware.errors import RecordError
from firmware.journal import DB_NAME, Journal

HEADER = {"format": "xtraboard-record", "version": 1, "game": "extra", "players": [{"name": "Marie"}]}
DEEP = "[" * 100_000 + "]" * 100_000  # valid JSON, nested past what the parser can follow


def sql(state: Path, statement: str, *args: Any) -> list[tuple[Any, ...]]:
    with sqlite3.connect(state / DB_NAME) as conn:
        return conn.execute(statement, args).fetchall()


def started(state: Path) -> int:
    """A journal holding one EXTRA! game being played, with one step; its id."""
    with Journal(state) as journal:
        gid = journal.start_game(HEADER, {"seed": 1})
        journal.append_step(gid, 0, {"roll": [1, 2, 2, 3, 5]})
        journal.set_setting("brightness", 0.4)
    return gid


def test_a_setting_nested_too_deeply_reads_as_its_default(tmp_path: Path) -> None:
    started(tmp_path)
    sql(tmp_path, "UPDATE settings SET value = ? WHERE key = 'brightness'", DEEP)
    with Journal(tmp_path) as journal:
        assert journal.get_setting("brightness", 0.5) == 0.5
        assert journal.set_aside == ["setting brightness"]


def test_a_step_nested_too_deeply_sets_the_game_aside(tmp_path: Path) -> None:
    gid = started(tmp_path)
    sql(tmp_path, "UPDATE steps SET step = ? WHERE game_id = ?", DEEP, gid)
    with Journal(tmp_path) as journal:
        assert journal.unfinished() is None
        assert journal.set_aside == [f"game {gid}"]
        with pytest.raises(RecordError, match=f"game {gid} step 0 in the journal is nested too deeply"):
            journal.record(gid)


@pytest.mark.parametrize("header", ["[1]", "null", '{"players": 1}'])
def test_finishing_a_game_whose_header_is_damaged_is_one_record_error(tmp_path: Path, header: str) -> None:
    gid = started(tmp_path)
    sql(tmp_path, "UPDATE games SET header = ? WHERE id = ?", header, gid)
    with Journal(tmp_path) as journal, pytest.raises(RecordError, match=f"game {gid} header"):
        journal.finish(gid, {"scores": [12], "winners": [0]})  # a TypeError before
    assert sql(tmp_path, "SELECT status FROM games WHERE id = ?", gid) == [("playing",)]


@pytest.fixture()
def loose_umask() -> Iterator[None]:
    old = os.umask(0o022)
    try:
        yield
    finally:
        os.umask(old)


def test_the_salvaged_journal_is_private_whatever_opens_it(tmp_path: Path, loose_umask: None) -> None:
    """The salvage is built as xtraboard.db.salvage and renamed into place: it is 0600 from the
    start, even with a `connect` that does not see to it (as the default one does)."""
    started(tmp_path)
    sql(tmp_path, "DROP INDEX games_by_status")
    sql(tmp_path, "PRAGMA user_version = 99")  # not a journal this firmware can use: salvaged
    modes = {}

    def connect(path: Path) -> sqlite3.Connection:
        if path.exists():
            modes[path.name] = stat.S_IMODE(path.stat().st_mode)
        return sqlite3.connect(path, isolation_level=None, check_same_thread=False)

    with Journal(tmp_path, connect=connect) as journal:
        assert journal.moved_aside is not None and journal.salvage == (0, 0)
    assert modes.get(f"{DB_NAME}.salvage") == 0o600
    assert stat.S_IMODE((tmp_path / DB_NAME).stat().st_mode) == 0o600
