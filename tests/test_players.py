"""Players' names: `xtraboard players`, the seat screen offering them, records and high scores
carrying them."""

from __future__ import annotations

from pathlib import Path

import pytest

from firmware import players
from firmware.cli import main
from firmware.journal import Journal
from firmware.ui.menus import SeatScreen, records_text
from sim.board import SimBoard
from tests.test_engines_at_board import pick, play_out


def cli(capsys: pytest.CaptureFixture[str], *args: str) -> tuple[int, str, str]:
    code = main(["players", *args])
    out, err = capsys.readouterr()
    return code, out, err


def test_add_list_remove(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    state = str(tmp_path)
    assert cli(capsys, "list", "--state-dir", state) == (0, "", "")  # no journal yet: no names
    assert cli(capsys, "add", " Anna ", "--state-dir", state) == (0, "added Anna\n", "")
    assert cli(capsys, "add", "Zoë", "--state-dir", state)[0] == 0
    assert cli(capsys, "list", "--state-dir", state) == (0, "Anna\nZoë\n", "")
    assert cli(capsys, "remove", "anna", "--state-dir", state) == (0, "removed Anna\n", "")
    assert cli(capsys, "list", "--state-dir", state) == (0, "Zoë\n", "")


@pytest.mark.parametrize(
    ("name", "words"),
    [
        ("anna", "'anna' is already on the board's list (as 'Anna')"),
        ("Maximilianus", "is 12 characters; at most 10 fit the display"),
        ("Ŝam", "the display cannot draw 'Ŝ'"),
        ("Tab\x07", "the display cannot draw '\\x07'"),
        ("   ", "a player name cannot be empty"),
        ("Green", "is a seat colour"),
        ("Rot", "is a seat colour"),  # red on a German board: names are kept whatever the language
        ("violet", "is a seat colour"),
    ],
)
def test_a_bad_name_is_one_clear_line(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], name: str, words: str
) -> None:
    assert cli(capsys, "add", "Anna", "--state-dir", str(tmp_path))[0] == 0
    code, out, err = cli(capsys, "add", name, "--state-dir", str(tmp_path))
    assert code == 1 and out == ""
    assert err.startswith("xtraboard players add: ") and words in err and err.count("\n") == 1


@pytest.mark.parametrize("action", ["add", "remove"])
def test_a_name_of_ten_thousand_characters_is_not_echoed_whole(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], action: str
) -> None:
    cli(capsys, "add", "Anna", "--state-dir", str(tmp_path))
    code, out, err = cli(capsys, action, "Maximilian" * 1000, "--state-dir", str(tmp_path))
    assert code == 1 and out == "" and err.count("\n") == 1
    assert "'MaximilianMaximilianMaxi…'" in err and len(err) < 200
    if action == "add":
        assert "is 10000 characters; at most 10 fit the display" in err


def test_removing_an_unknown_name_lists_the_kept_ones(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    cli(capsys, "add", "Anna", "--state-dir", str(tmp_path))
    code, _, err = cli(capsys, "remove", "Bob", "--state-dir", str(tmp_path))
    assert code == 1 and err == "xtraboard players remove: 'Bob' is not on the board's list (Anna)\n"


def test_a_damaged_list_keeps_its_good_names(tmp_path: Path) -> None:
    with Journal(tmp_path) as journal:
        journal.set_setting(players.KEY, ["Anna", 3, "x" * 40, "anna", "Ben"])
        assert players.names(journal) == ["Anna", "Ben"]
        journal.set_setting(players.KEY, {"not": "a list"})
        assert players.names(journal) == []


def test_the_seat_screen_offers_the_names_and_the_records_carry_them(tmp_path: Path) -> None:
    board = SimBoard(seed=4, state_dir=tmp_path)
    try:
        players.add(board.journal, "Ben")
        players.add(board.journal, "Anna")  # the most recent first: Anna, then Ben
        pick(board, ("play", "extra"))
        pick(board, 2)
        first = board.app.screen
        assert isinstance(first, SeatScreen)
        board.tap("right")  # Person → Anna
        assert first.kind() == "name:Anna" and "< Anna >" in board.screen_text()
        board.tap("roll")  # another colour keeps the name
        assert first.seat.name == "Anna"
        board.tap("ok")
        second = board.app.screen
        assert isinstance(second, SeatScreen) and "name:Anna" not in second.kinds()  # taken
        board.tap("right")
        assert second.seat.name == "Ben"
        board.tap("ok")
        session = board.app.session
        assert [p.name for p in session.game.players] == ["Anna", "Ben"]
        play_out(board, set())
        record = board.journal.record(session.journal_id)
        assert [p["name"] for p in record["players"]] == ["Anna", "Ben"]
        best = {entry.name for entry in board.journal.best_scores("extra")}
        assert best == {"Anna", "Ben"}
        assert "Anna" in records_text(board.app) and "Ben" in records_text(board.app)
    finally:
        board.close()
