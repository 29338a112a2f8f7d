"""External engines in their box, against real engine processes (tests/engines/): what the box
hides (the journal, the board description, /etc/xtraboard) and forbids (writing outside its own
/tmp), the bounds on what the board reads from an engine (an endless line, a flood, chatter
nobody asked for) while it reads, the process group ended whole (a wrapper script's child too),
and no engine at all without bubblewrap."""

from __future__ import annotations

import os
import shutil
import sys
import tempfile
import threading
import time
import tracemalloc
from collections.abc import Iterator
from pathlib import Path

import pytest

from firmware.agents import EngineAgent
from firmware.games import new_game
from firmware.operator_code import StoredCode, write_code_file
from firmware.xdp import client
from firmware.xdp.client import EngineError, EngineProcess
from firmware.xdp.sandbox import Sandbox
from sim.board import SimBoard
from tests.test_engines_at_board import board_file, engine_entry, play_out, seat_up

ENGINES = Path(__file__).parent / "engines"
TEST_ENGINE = [sys.executable, str(ENGINES / "xdp_test_engine.py")]
WRAPPER = str(ENGINES / "wrapper.sh")


def exxtra_after_a_roll() -> dict:
    game = new_game("exxtra", ["A", "B", "C"])
    game.apply_json({"roll": ["7", "6"]})
    return game.to_record()


@pytest.fixture
def outside_tmp() -> Iterator[Path]:
    """A folder outside /tmp (the box gives engines a /tmp of their own, which would hide
    anything in the real one anyway): the board's files must be hidden wherever they are."""
    folder = Path(tempfile.mkdtemp(prefix="xtraboard-test-", dir="/var/tmp"))
    try:
        yield folder
    finally:
        shutil.rmtree(folder, ignore_errors=True)


def the_boards_files(folder: Path) -> tuple[Path, Path]:
    """A state directory with a journal holding a dice seed, and a board description."""
    state = folder / "state"
    state.mkdir()
    (state / "xtraboard.db").write_text("dice_seed 9f8e7d")
    board = folder / "board.toml"
    board.write_text('[operator]\ncode = ["ok", "ok"]\n')
    return state, board


def test_an_engine_cannot_read_the_journal_or_the_board_description_nor_write_but_in_its_tmp(outside_tmp: Path) -> None:
    state, board = the_boards_files(outside_tmp)
    probes = [
        "--must-not-read",
        str(state),
        "--must-not-read",
        str(state / "xtraboard.db"),
        "--must-not-read",
        str(board),
        "--must-not-write",
        str(outside_tmp),
        "--must-not-write",
        str(Path(__file__).parent),
    ]
    with EngineProcess("nosy", TEST_ENGINE + probes, sandbox=Sandbox([state, board])) as engine:
        assert engine.decide(exxtra_after_a_roll()) == {"do": "reroll"}  # it exits 4 if it could
        said = engine.stderr_tail()
    assert f"cannot read {board}: Permission denied" in said
    assert f"cannot read {state / 'xtraboard.db'}" in said
    assert f"cannot write in {outside_tmp}: Read-only file system" in said
    assert "wrote and read /tmp/scratch" in said
    assert not (outside_tmp / "engine-was-here").exists()
    assert (state / "xtraboard.db").read_text() == "dice_seed 9f8e7d"  # the board still reads its own


def test_the_probe_would_tell_a_readable_file() -> None:
    """The test engine's probe is no rubber stamp: what the box leaves readable, it reads."""
    engine = EngineProcess("nosy", TEST_ENGINE + ["--must-not-read", __file__], timeout_s=1)
    with pytest.raises(EngineError, match="exited \\(code 4\\)"):
        engine.decide(exxtra_after_a_roll())
    engine.close()


def test_at_the_board_an_engine_cannot_read_the_journal_or_the_board_description(outside_tmp: Path) -> None:
    state = outside_tmp / "state"
    code_file = outside_tmp / "operator-code"  # beside the board description, as on a board
    write_code_file(code_file, StoredCode.make(["ok", "left", "right", "ok"], n=2**4))
    flags = (
        "--must-not-read",
        str(state),
        "--must-not-read",
        str(state / "xtraboard.db"),
        "--must-not-read",
        str(outside_tmp / "board.toml"),
        "--must-not-read",
        str(code_file),
        "--must-not-read",
        "/etc/xtraboard",
    )
    path = board_file(outside_tmp, engine_entry(flags=flags, timeout_s=2))
    board = SimBoard(board_file=path, seed=5, state_dir=state)
    try:
        assert (state / "xtraboard.db").exists() and board.board.gate is not None  # the board reads its code
        seat_up(board, "exxtra", ["human", "bot:medium", "bot:engine:test"])
        session = board.app.session
        play_out(board, set())
        engine = session.agents[2]
        assert isinstance(engine, EngineAgent) and engine.failed is None, engine.failed
        assert session.over and "notes" not in board.journal.record(session.journal_id)
    finally:
        board.close()


def test_without_bubblewrap_the_board_starts_no_engine_and_names_the_package(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("PATH", str(tmp_path))  # no bwrap on it (the engine's python is named in full)
    with pytest.raises(EngineError, match="engine 'boxless' is not started: .*install the package bubblewrap"):
        EngineProcess("boxless", TEST_ENGINE).decide(exxtra_after_a_roll())
    board = SimBoard(board_file=board_file(tmp_path, engine_entry()), seed=5, state_dir=tmp_path / "state")
    try:
        seat_up(board, "exxtra", ["human", "bot:medium", "bot:engine:test"])
        session = board.app.session
        play_out(board, set())
        engine = session.agents[2]
        assert isinstance(engine, EngineAgent) and engine.failed is not None and "bubblewrap" in engine.failed
        assert "Engine test failed: strong bot plays" in board.app.problems
        [note] = board.journal.record(session.journal_id)["notes"]
        assert "bubblewrap" in note and "the strong bot plays seat 2 (Green) from here" in note
    finally:
        board.close()


def test_an_endless_line_is_a_failure_found_while_reading_not_a_balloon() -> None:
    engine = EngineProcess("chatty", TEST_ENGINE + ["--endless-line-at", "1"], timeout_s=5)
    tracemalloc.start()
    try:
        with pytest.raises(EngineError, match=f"sent a line longer than {client.MAX_LINE_BYTES} bytes"):
            engine.decide(exxtra_after_a_roll())
        _, peak = tracemalloc.get_traced_memory()
    finally:
        tracemalloc.stop()
        engine.close()
    print(f"endless line: peak {peak / 2**20:.2f} MiB traced while reading")
    assert peak < 4 * 2**20


def test_a_flood_of_lines_is_a_failure_and_does_not_pile_up() -> None:
    engine = EngineProcess("flood", TEST_ENGINE + ["--flood-at", "1"], timeout_s=30)
    tracemalloc.start()
    try:
        with pytest.raises(EngineError, match="sent more than [0-9]+ lines"):
            engine.decide(exxtra_after_a_roll())
        _, peak = tracemalloc.get_traced_memory()
    finally:
        tracemalloc.stop()
        engine.close()
    print(f"flood: peak {peak / 2**20:.2f} MiB traced while reading")
    assert peak < 4 * 2**20


def test_lines_nobody_asked_for_fill_the_queue_only_so_far() -> None:
    engine = EngineProcess("gossip", TEST_ENGINE + ["--chatter"], timeout_s=30)
    try:
        with pytest.raises(EngineError, match="sent more than [0-9]+ lines"):
            engine.decide(exxtra_after_a_roll())
        assert len(engine._lines._lines) <= client.MAX_QUEUED_LINES
    finally:
        engine.close()


def test_an_engine_that_stops_reading_its_input_fails_in_time_instead_of_blocking_the_asker() -> None:
    engine = EngineProcess("deaf", TEST_ENGINE + ["--deaf"], timeout_s=0.5)
    record = exxtra_after_a_roll()
    record["players"][0]["name"] = "x" * 300_000  # more than a pipe holds: the write must wait
    outcome: list[BaseException] = []

    def ask() -> None:
        try:
            engine.decide(record)
        except EngineError as exc:
            outcome.append(exc)

    asker = threading.Thread(target=ask, daemon=True)
    asker.start()
    asker.join(60)  # liveness only: the engine's own limit is 0.5 s + the grace
    engine.close()
    assert not asker.is_alive(), "decide() blocked on a full pipe"
    assert outcome and "stopped reading its input in time" in str(outcome[0])


def test_standard_error_is_drained_and_only_its_tail_kept() -> None:
    with EngineProcess("noisy", TEST_ENGINE + ["--stderr-mb", "8"], timeout_s=5) as engine:
        assert engine.decide(exxtra_after_a_roll()) == {"do": "reroll"}  # not blocked on a full pipe
        tail = engine.stderr_tail()
    assert len(tail.encode()) <= client.STDERR_TAIL_BYTES and "the last words" in tail


def running(marker: str) -> list[int]:
    """The processes (of any namespace) whose command line holds `marker`."""
    found = []
    for entry in Path("/proc").iterdir():
        if entry.name.isdigit():
            try:
                if marker in (entry / "cmdline").read_bytes().decode(errors="replace"):
                    found.append(int(entry.name))
            except OSError:
                pass
    return found


def gone(marker: str, within_s: float = 10.0) -> bool:
    end = time.monotonic() + within_s
    while running(marker):
        if time.monotonic() > end:
            return False
        time.sleep(0.05)
    return True


@pytest.mark.parametrize("how", ["close", "hang"])
def test_closing_an_engine_ends_its_wrapper_scripts_children_too(how: str) -> None:
    seconds = f"{3000 + os.getpid() % 1000}.{time.monotonic_ns() % 10**6:06d}"  # our helper's marker
    flags = ["--hang-at", "2"] if how == "hang" else []
    engine = EngineProcess("wrapped", [WRAPPER, seconds, *TEST_ENGINE, *flags], timeout_s=0.5)
    assert engine.decide(exxtra_after_a_roll()) == {"do": "reroll"}
    assert running(seconds), "the wrapper's helper runs while the engine plays"
    if how == "hang":
        with pytest.raises(EngineError, match="sent no bestmove in time"):
            engine.decide(exxtra_after_a_roll())
    engine.close()
    assert gone(seconds), f"sleep {seconds} outlived its engine"
