"""External engines in their box, against real engine processes (tests/engines/): what the box
hides (the journal, the board description, /etc/xtraboard) and forbids (writing outside its own
/tmp), the bounds on what the board reads from an engine (an endless line, a flood, chatter
nobody asked for) while it reads, the process group ended whole (a wrapper script's child too),
and no engine at all without bubblewrap."""

from __future__ import annotations

import dataclasses
import json
import os
import shutil
import socket
import sys
import tempfile
import threading
import time
import tracemalloc
import typing
from collections.abc import Iterator
from pathlib import Path

import pytest

from firmware.agents import EngineAgent
from firmware.debug import attach_debug
from firmware.games import new_game
from firmware.hardware.config import BoardConfig, load_board
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


# --- the files a board description names, the board's environment, memory, sockets -------------
def described_board(folder: Path, engine_flags: tuple[str, ...], extra: str = "") -> Path:
    """A board description in `folder` (outside /etc) naming an MQTT password file, a CA file
    and the operator's code file beside it, with the test engine probing with `engine_flags`."""
    (folder / "mqtt-password").write_text("s3cret-of-the-cafe\n")
    (folder / "broker-ca.pem").write_text("-----BEGIN CERTIFICATE-----\n")
    write_code_file(folder / "operator-code", StoredCode.make(["ok", "left", "right", "ok"], n=2**4))
    fleet = (
        '[fleet]\ntable = "t1"\nbroker = "127.0.0.1"\nport = 9\ntls = true\nca_file = "broker-ca.pem"\n'
        'username = "board"\npassword_file = "mqtt-password"\n'
    )
    path = board_file(folder, engine_entry(flags=engine_flags, timeout_s=2) + extra + fleet)
    return path


def played_at_the_board(path: Path, state: Path) -> tuple[EngineAgent, dict]:
    """A game with the test engine in seat 2, played out; its agent and the game's record."""
    board = SimBoard(board_file=path, seed=5, state_dir=state)
    try:
        seat_up(board, "exxtra", ["human", "bot:medium", "bot:engine:test"])
        session = board.app.session
        play_out(board, set())
        engine = session.agents[2]
        assert isinstance(engine, EngineAgent) and session.over
        return engine, board.journal.record(session.journal_id)
    finally:
        board.close()


def test_at_the_board_an_engine_cannot_read_the_mqtt_password_nor_any_file_the_description_names(
    outside_tmp: Path,
) -> None:
    names = ("mqtt-password", "broker-ca.pem", "operator-code", "board.toml")
    flags = tuple(arg for name in names for arg in ("--must-not-read", str(outside_tmp / name)))
    engine, record = played_at_the_board(described_board(outside_tmp, flags), outside_tmp / "state")
    assert engine.failed is None, engine.failed  # it exits 4 if it could read one
    assert "notes" not in record
    assert (outside_tmp / "mqtt-password").read_text() == "s3cret-of-the-cafe\n"  # the board's own still


def test_every_path_a_board_description_can_name_is_hidden_from_engines(tmp_path: Path) -> None:
    """Walks the description's dataclasses: every field typed as a path must be set by this
    test's description and found by named_files (the list the box hides), and no field that
    names a file by its name is typed as anything but a path (a secret as plain text would slip)."""
    from firmware.hardware.config import named_files

    path = described_board(tmp_path, (), '[debug]\nenabled = true\nsocket = "debug.sock"\nserial = "/dev/ttyGS0"\n')
    config = load_board(path)
    path_fields = dict(fields_of_type(BoardConfig, config))
    assert set(path_fields) == {
        "BoardConfig.path",
        "FleetConfig.ca_file",
        "FleetConfig.password_file",
        "OperatorConfig.code_file",
        "DebugConfig.socket_path",
        "DebugConfig.serial",
    }, "a new path in the board description: set it above and check it is hidden"
    hidden = named_files(config)
    for name, value in path_fields.items():
        assert value is not None and value in hidden, name
    assert tmp_path / "mqtt-password" in hidden and tmp_path / "operator-code" in hidden


def fields_of_type(cls: type, value: object, named: type = Path) -> Iterator[tuple[str, object]]:
    """(Class.field, value) for each field of the dataclass `cls` (and its sections, in `value`)
    whose type mentions `named`; fails on a field named like a file that is typed otherwise."""
    for part in dataclasses.fields(cls):
        hint = typing.get_type_hints(cls)[part.name]
        inner = getattr(value, part.name, None)
        kinds = set(typing.get_args(hint)) | {hint}
        sections = [k for k in kinds if dataclasses.is_dataclass(k)]
        if named in kinds:
            yield f"{cls.__name__}.{part.name}", inner
        elif part.name.endswith(("_file", "_path", "_dir", "socket", "key", "cert")):
            raise AssertionError(f"{cls.__name__}.{part.name} names a file but is typed {hint}")
        for section in sections:
            assert isinstance(section, type)
            yield from fields_of_type(section, inner, named)
        for arg in typing.get_args(hint):  # tuples of sections, e.g. [[engines]]
            if dataclasses.is_dataclass(arg) and isinstance(arg, type) and arg not in sections:
                for item in inner or ():
                    yield from fields_of_type(arg, item, named)


BOARD_MARKER = "XTRABOARD_TEST_MARKER"  # set in the board's environment only


def test_an_engine_gets_a_short_environment_of_its_own_not_the_boards(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv(BOARD_MARKER, "the board's")
    monkeypatch.setenv("MQTT_PASSWORD", "s3cret")
    monkeypatch.setenv("LC_TIME", "de_DE.UTF-8")
    flags = ["--must-not-see-env", BOARD_MARKER, "--must-not-see-env", "MQTT_PASSWORD"]
    with EngineProcess("nosy", TEST_ENGINE + flags) as engine:
        assert engine.decide(exxtra_after_a_roll()) == {"do": "reroll"}  # it exits 4 if it sees one
        said = engine.stderr_tail()
    from firmware.xdp.sandbox import environment

    [line] = [line for line in said.splitlines() if line.startswith("environment: ")]
    names = set(line.removeprefix("environment: ").split())
    assert names <= {"PATH", "LANG", "LANGUAGE", "TZ", "HOME", "TMPDIR", "PWD"} | {
        n for n in names if n.startswith("LC_")
    }
    assert {"PATH", "HOME", "TMPDIR", "LC_TIME"} <= names
    assert environment({"PATH": "/opt/x:/usr/bin", BOARD_MARKER: "1", "LC_ALL": "C"}) == {
        "PATH": "/opt/x:/usr/bin",
        "LC_ALL": "C",
    }


def test_at_the_board_an_engine_that_holds_1_5_gb_is_stopped_and_the_game_goes_on(outside_tmp: Path) -> None:
    path = board_file(outside_tmp, engine_entry(flags=("--hold-mb-at", "1", "--hold-mb", "1536"), timeout_s=5))
    engine, record = played_at_the_board(path, outside_tmp / "state")
    assert engine.failed is not None and "exited (code 5)" in engine.failed, engine.failed  # MemoryError
    [note] = record["notes"]
    assert "the strong bot plays seat 2 (Green) from here" in note


def test_an_engine_may_be_given_more_memory_in_its_entry(outside_tmp: Path) -> None:
    flags = ("--hold-mb-at", "1", "--hold-mb", "700")
    path = board_file(outside_tmp, engine_entry(flags=flags, timeout_s=5) + "memory_mb = 2048\n")
    assert load_board(path).engines[0].memory_mb == 2048
    engine, record = played_at_the_board(path, outside_tmp / "state")
    assert engine.failed is None, engine.failed
    assert "notes" not in record


def test_an_engine_cannot_reach_the_debug_socket_wherever_it_is_nor_the_boards_tcp(outside_tmp: Path) -> None:
    place = outside_tmp / "debug.sock"  # outside /run, which the box replaces anyway
    with socket.socket() as listening:
        listening.bind(("127.0.0.1", 0))
        listening.listen()
        tcp = "127.0.0.1:%d" % listening.getsockname()[1]
        flags = ("--must-not-connect", str(place), "--must-not-connect", tcp)
        board = SimBoard(board_file=board_file(outside_tmp, engine_entry(flags=flags, timeout_s=2)), seed=5)
        service = attach_debug(board.board, socket_path=place)
        try:
            assert service is not None and place.is_socket()
            with socket.socket(socket.AF_UNIX) as bench:  # the bench reaches it
                bench.connect(str(place))
                assert json.loads(bench.makefile("rb").readline())["ok"] is True  # its hello
            seat_up(board, "exxtra", ["human", "bot:medium", "bot:engine:test"])
            session = board.app.session
            play_out(board, set())
            engine = session.agents[2]
            assert isinstance(engine, EngineAgent) and engine.failed is None, engine.failed
            assert session.over and not session.notes
        finally:
            if service is not None:
                service.close()
            board.close()
