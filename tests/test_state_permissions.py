"""What the board writes outside systemd (its state directory, the journal and SQLite's -wal and
-shm) is its user's alone: the directory 0700, the files 0600, whatever the umask."""

from __future__ import annotations

import os
import stat
from collections.abc import Iterator
from pathlib import Path

import pytest

from firmware.journal import DB_NAME, Journal
from firmware.paths import private_dir, private_file


def mode(path: Path) -> int:
    return stat.S_IMODE(path.stat().st_mode)


@pytest.fixture(params=[0o022, 0o002, 0o000, 0o277], ids=lambda umask: f"umask {umask:03o}")
def umask(request: pytest.FixtureRequest) -> Iterator[int]:
    old = os.umask(request.param)
    try:
        yield request.param
    finally:
        os.umask(old)


def test_a_new_state_directory_and_its_journal_are_private(tmp_path: Path, umask: int) -> None:
    state = tmp_path / "home" / ".local" / "state" / "xtraboard"
    with Journal(state) as journal:
        journal.set_setting("brightness", 3)  # a write: WAL mode now has its -wal and -shm
        assert journal.problem is None and journal.get_setting("brightness") == 3
        files = {path.name: mode(path) for path in state.iterdir()}
        assert mode(state) == 0o700
        assert files == {DB_NAME: 0o600, f"{DB_NAME}-wal": 0o600, f"{DB_NAME}-shm": 0o600}


def test_an_existing_directory_keeps_its_mode_but_the_journal_is_private(tmp_path: Path, umask: int) -> None:
    state = tmp_path / "state"
    state.mkdir()
    state.chmod(0o750)  # the operator's choice (a --state-dir, systemd's StateDirectoryMode=)
    with Journal(state) as journal:
        journal.set_setting("volume", 1)
    assert mode(state) == 0o750 and mode(state / DB_NAME) == 0o600


def test_files_left_readable_by_an_older_version_are_made_private(tmp_path: Path) -> None:
    state = tmp_path / "state"
    with Journal(state) as journal:
        journal.set_setting("volume", 1)
    db = state / DB_NAME
    stale_wal = Path(f"{db}-wal")  # as a crash leaves it
    stale_wal.write_bytes(b"")
    for path in (db, stale_wal):
        path.chmod(0o644)
    with Journal(state) as journal:
        assert journal.get_setting("volume") == 1
        assert mode(db) == 0o600 and mode(stale_wal) == 0o600


def test_private_file_creates_only_the_main_file(tmp_path: Path) -> None:
    path = tmp_path / "data.db"
    private_file(path, sidecars=("-wal",))
    assert mode(path) == 0o600 and not Path(f"{path}-wal").exists()


def test_private_file_leaves_what_it_cannot_open_to_the_caller(tmp_path: Path) -> None:
    missing_parent = tmp_path / "nowhere" / "data.db"
    private_file(missing_parent)  # no error here: sqlite3.connect reports it, as before
    assert not missing_parent.parent.exists()


def test_private_dir_refuses_a_file_in_its_place(tmp_path: Path) -> None:
    path = tmp_path / "state"
    path.write_text("not a directory")
    with pytest.raises(FileExistsError):
        private_dir(path)
    assert private_dir(tmp_path) == tmp_path  # an existing directory is fine
