"""The power-cut campaign's own checks (tests/booted/cuts.py), without a machine: they read a
journal the firmware wrote and find a lost step, a foreign game or damage where there is one."""

from __future__ import annotations

from pathlib import Path

from firmware.games import find_game
from firmware.journal import Journal
from tests.booted.cuts import DB_NAME, Shown, journal_file, read_disk, setup_scenario, steps_lost

HEADER = {"format": "xtraboard-record", "version": 1, "game": "extra", "players": [{"name": "A"}, {"name": "B"}]}
STEPS = [{"roll": [1, 2, 2, 3, 5]}, {"do": "score", "row": "ones"}, {"roll": [6, 6, 6, 1, 2]}]


def journal_with(folder: Path, steps: list[dict[str, object]]) -> None:
    journal = Journal(folder)
    game = journal.start_game(HEADER)
    for index, step in enumerate(steps):
        journal.append_step(game, index, step)
    journal.close()


def shown(game: str, steps: list[dict[str, object]]) -> Shown:
    return Shown(game=game, steps=list(steps))


def test_every_shown_step_kept_is_no_loss(tmp_path: Path) -> None:
    journal_with(tmp_path, STEPS)
    kept = read_disk(tmp_path)
    assert kept.ok and (kept.game, kept.status) == ("extra", "playing")
    assert kept.steps == STEPS
    assert steps_lost(shown("extra", STEPS[:2]), kept) == 0  # kept more than shown: fine
    assert steps_lost(shown("extra", []), kept) == 0


def test_a_shown_step_missing_or_different_is_lost(tmp_path: Path) -> None:
    journal_with(tmp_path, STEPS[:1])
    kept = read_disk(tmp_path)
    assert steps_lost(shown("extra", STEPS), kept) == 2
    assert steps_lost(shown("extra", [{"roll": [1, 1, 1, 1, 1]}, *STEPS[1:]]), kept) == 3
    assert steps_lost(shown("levelx", STEPS[:1]), kept) == 1  # another game than the one kept


def test_a_damaged_journal_is_not_ok(tmp_path: Path) -> None:
    journal_with(tmp_path, STEPS)
    database = tmp_path / DB_NAME
    data = bytearray(database.read_bytes())
    data[4096 : 4096 + 8] = b"\xff" * 8  # page 2's b-tree header: no page type SQLite knows
    database.write_bytes(bytes(data))
    assert not read_disk(tmp_path).ok


def test_no_journal_yet_is_nothing_lost(tmp_path: Path) -> None:
    kept = read_disk(tmp_path)
    assert kept.ok and kept.game is None
    assert steps_lost(shown("extra", []), kept) == 0


def test_the_set_up_seats_a_bot_in_every_seat_of_each_game() -> None:
    for game, index in (("exxtra", 0), ("levelx", 1), ("extra", 2)):
        taps = [line.split('"')[1] for line in setup_scenario(game).splitlines() if line.startswith("tap")]
        seats = max(2, find_game(game).players.start)
        assert taps[:index] == ["right"] * index and taps[index] == "ok"
        assert taps[-2 * seats :] == ["right", "ok"] * seats


def test_the_journal_files_are_the_database_its_wal_and_a_salvage() -> None:
    kept = ["xtraboard.db", "xtraboard.db-wal", "xtraboard.db.salvage", "xtraboard.db.salvage-wal"]
    assert [path for path in [*kept, "xtraboard.db-shm", "xtraboard.lock"] if journal_file(path)] == kept
