"""Which board description is read when none is named: $XTRABOARD_BOARD, then the operator's
/etc/xtraboard/board.toml (redirected to tmp here), then the one shipped in the package."""

from __future__ import annotations

from pathlib import Path

import pytest

from firmware.errors import ConfigError
from firmware.hardware import config
from firmware.hardware.config import BOARD_ENV, default_board_path, find_board_path, load_board

ROOT = Path(__file__).resolve().parents[1]


@pytest.fixture
def system_board(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """Where the search looks for the operator's file (nothing there yet); no $XTRABOARD_BOARD."""
    path = tmp_path / "etc" / "xtraboard" / "board.toml"
    monkeypatch.setattr(config, "SYSTEM_BOARD", path)
    monkeypatch.delenv(BOARD_ENV, raising=False)
    return path


def renamed_board(path: Path, name: str) -> Path:
    path.parent.mkdir(parents=True, exist_ok=True)
    text = default_board_path().read_text(encoding="utf-8")
    path.write_text(text.replace('name = "xtraboard default build"', f'name = "{name}"'), encoding="utf-8")
    return path


def test_the_shipped_default_is_the_checkouts_hardware_board_toml() -> None:
    # In a checkout the package's firmware/boards is a link to hardware/: one file, no copy.
    assert default_board_path() == ROOT / "hardware" / "board.toml"
    assert (ROOT / "firmware" / "boards").is_symlink()


def test_without_env_or_system_file_the_shipped_default_is_read(system_board: Path) -> None:
    assert find_board_path() == default_board_path()
    assert load_board().name == "xtraboard default build"


def test_the_operators_file_wins_over_the_shipped_default(system_board: Path) -> None:
    renamed_board(system_board, "café board")
    assert find_board_path() == system_board
    assert load_board().name == "café board"


def test_the_environment_wins_over_the_operators_file(
    system_board: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    renamed_board(system_board, "café board")
    bench = renamed_board(tmp_path / "bench.toml", "bench board")
    monkeypatch.setenv(BOARD_ENV, str(bench))
    assert find_board_path() == bench
    assert load_board().name == "bench board"
    assert load_board(system_board).name == "café board"  # a named file (--board) wins over all


def test_an_empty_environment_variable_counts_as_unset(system_board: Path) -> None:
    assert find_board_path({BOARD_ENV: ""}) == default_board_path()


def test_a_system_path_through_a_file_is_simply_absent(system_board: Path) -> None:
    system_board.parent.parent.mkdir(parents=True)
    system_board.parent.write_text("not a directory")  # /etc/xtraboard is a file: nothing below it
    assert find_board_path() == default_board_path()


def test_an_operators_file_that_cannot_be_looked_at_is_named_not_skipped(system_board: Path) -> None:
    system_board.parent.mkdir(parents=True)
    system_board.symlink_to(system_board)  # stat() fails with ELOOP, not "no such file"
    assert find_board_path() == system_board
    with pytest.raises(ConfigError, match=r"etc/xtraboard/board\.toml: cannot read the board description"):
        load_board()
