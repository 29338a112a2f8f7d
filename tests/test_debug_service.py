"""The board's debug service: off by default, loopback only, answered on the loop thread, and
unshaken by garbage (firmware/debug.py)."""

from __future__ import annotations

import json
import os
import random
import re
import signal
import socket
import subprocess
import sys
import threading
import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from firmware.debug import (
    COMMANDS,
    MAX_CLIENTS,
    MAX_LINE,
    OFF,
    SIMULATED_COMMANDS,
    BenchDice,
    BoardTarget,
    DebugError,
    DebugRequest,
    DebugService,
    attach_debug,
    parse_request,
)
from firmware.dice import CommittedDice
from firmware.errors import ConfigError
from firmware.hardware.config import DebugConfig, default_board_path, load_board
from firmware.loop import Stop
from sim.board import SimBoard

EVERY_REQUEST = [
    b"state screen",
    b"text",
    b"image",
    b"leds",
    b"dice [1, 2, 2, 3, 5]",
    b"seed 3",
    b"events",
    b"press ok",
    b"release ok",
    b"wait 1",
]


class Client:
    """A line client of the service over a socket."""

    def __init__(self, sock: socket.socket) -> None:
        self.sock = sock
        self.reader = sock.makefile("rb")
        self.hello = self.read()

    def read(self) -> dict:
        line = self.reader.readline()
        assert line, "the service closed the connection"
        return json.loads(line)

    def ask(self, line: bytes | str) -> dict:
        self.sock.sendall((line.encode() if isinstance(line, str) else line) + b"\n")
        return self.read()

    def close(self) -> None:
        self.reader.close()
        self.sock.close()


@contextmanager
def real_board(board_file: Path | None = None, **debug: object) -> Iterator[tuple[SimBoard, DebugService]]:
    """A board on the wall clock whose loop runs on its own thread, with the debug service as
    `xtraboard run` attaches it (a real board, as far as the service knows: no virtual buttons)."""
    sim = SimBoard(board_file=board_file, realtime=True, seed=1)
    service = attach_debug(sim.board, **debug)  # type: ignore[arg-type]
    thread = threading.Thread(target=sim.loop.run, args=(sim.board.handle,), name="board-loop", daemon=True)
    thread.start()
    try:
        yield sim, service  # type: ignore[misc]
    finally:
        if service is not None:
            service.close()
        sim.loop.post(Stop())
        thread.join(timeout=10)
        sim.close()


def connect(service: DebugService) -> Client:
    return Client(socket.create_connection(("127.0.0.1", service.port), timeout=30))


def test_off_by_default_nothing_listens_and_every_command_is_refused() -> None:
    board = load_board()
    assert board.debug == DebugConfig() and not board.debug.enabled
    sim = SimBoard(seed=1)
    try:
        assert attach_debug(sim.board) is None
        assert sim.app.dice is None and sim.board.watchers == []
        target = BoardTarget(sim.board)
        service = DebugService(board.debug, target, sim.loop.post)
        assert service.start() == [] and service.servers == [] and service.port is None
        assert service.hello() == {"ok": False, "error": OFF}
        for line in EVERY_REQUEST + [b"", b"nonsense", b"\xff"]:
            assert service.answer_line(line) == {"ok": False, "error": OFF}
        assert sim.loop.run_pending(sim.board.handle) == 0  # nothing reached the board's loop
    finally:
        sim.close()


def test_it_binds_loopback_unless_the_board_description_allows_more(tmp_path: Path) -> None:
    with real_board(port=0) as (_, service):
        assert service.servers[0].server_address[0] == "127.0.0.1"
    with pytest.raises(DebugError, match="host '0.0.0.0' is not loopback"):
        DebugService(DebugConfig(enabled=True, host="0.0.0.0", port=0), None, None)
    text = default_board_path().read_text(encoding="utf-8")
    wide = tmp_path / "wide.toml"
    wide.write_text(text + '\n[debug]\nenabled = true\nhost = "0.0.0.0"\nport = 7777\n', encoding="utf-8")
    with pytest.raises(ConfigError, match=r'debug\.host: "0.0.0.0" is not loopback'):
        load_board(wide)
    wide.write_text(
        text + '\n[debug]\nenabled = true\nhost = "0.0.0.0"\nport = 7777\nallow_remote = true\n', encoding="utf-8"
    )
    assert load_board(wide).debug == DebugConfig(True, "0.0.0.0", 7777, None, None, True)
    typo = tmp_path / "typo.toml"
    typo.write_text(text + "\n[debug]\nenabled = true\nprot = 7777\n", encoding="utf-8")
    with pytest.raises(ConfigError, match=r"debug\.prot: unknown key"):
        load_board(typo)


def test_the_board_description_can_enable_it(tmp_path: Path) -> None:
    bench = tmp_path / "bench.toml"
    bench.write_text(
        default_board_path().read_text(encoding="utf-8") + "\n[debug]\nenabled = true\nport = 0\n", encoding="utf-8"
    )
    with real_board(bench) as (_, service):
        assert service is not None and service.port
        client = connect(service)
        assert client.hello["ok"] and client.hello["simulated"] is False
        client.close()


def test_requests_are_answered_on_the_loop_thread() -> None:
    with real_board(port=0) as (sim, service):
        seen: list[tuple[str, str]] = []
        sim.board.watchers.append(lambda e: seen.append((threading.current_thread().name, type(e).__name__)))
        client = connect(service)
        hello = client.hello
        assert hello["hello"] == "xtraboard-debug" and hello["version"] == 1 and hello["clock"] == "real"
        assert hello["buttons"] == list(sim.config.buttons.pins) and hello["hold_s"] == sim.config.buttons.hold_s
        assert client.ask("text") == {"ok": True, "text": sim.app.texts}
        assert client.ask("state screen") == {"ok": True, "value": type(sim.app.screen).__name__}
        menu = client.ask("state menu")
        assert menu.get("value") == "Play EXXTRA", menu
        missing = client.ask("state game.positions")
        assert missing["ok"] is False and "no game on the board" in missing["error"]
        assert client.ask("state _private")["error"] == "state path '_private': '_private' is private"
        leds = client.ask("leds")
        assert leds["shown"]["seat.0"] == list(sim.led("seat.0"))
        assert client.ask("image")["sha"] == sim.image_checksum()
        assert client.ask("dice [1, 2, 2, 3, 5]") == {"ok": True, "queued": 1}
        assert client.ask("seed 5") == {"ok": True, "seed": 5} and sim.app.seed == 5
        for line in ("press ok", "release ok"):
            assert "works only on a simulated board" in client.ask(line)["error"]
        assert "works only on a simulated board" in client.ask("wait 1")["error"]
        pin = sim.pins["right"]
        pin.drive_low()  # the button, as its gpiozero callback thread reports it
        pin.drive_high()
        events = client.ask("events")
        edges = [(e["button"], e["pressed"]) for e in events["events"] if e["kind"] == "edge"]
        while len(edges) < 2:  # the edges reach the loop's queue from the pin's thread
            edges += [(e["button"], e["pressed"]) for e in client.ask("events")["events"] if e["kind"] == "edge"]
        assert edges == [("right", True), ("right", False)]
        assert [e["kind"] for e in events["events"]][:2] == ["queued", "seed"]
        client.close()
        assert ("board-loop", "DebugRequest") in seen and all(name == "board-loop" for name, _ in seen)


def test_reset_puts_a_real_board_in_its_factory_state_and_keeps_its_history(tmp_path: Path) -> None:
    """What a real board restarted by `hil run --between` still holds in its journal: a game
    waiting, settings, kept names, the menu tip; and in memory the menu cursor and queued rolls."""
    from dataclasses import replace

    from firmware.games import new_game
    from firmware.journal import Journal
    from firmware.ui.settings import Settings

    journal = Journal(tmp_path)
    finished = journal.start_game(new_game("extra", ["Ann"]).to_record())
    journal.finish(finished, {"scores": [0], "winners": [0]})
    waiting = journal.start_game(new_game("exxtra", ["Ann", "Bob", "Cy"]).to_record())
    replace(Settings(), bot_pace="slow", language="de").save(journal)
    journal.set_setting("players", ["Ann"])
    journal.close()
    sim = SimBoard(realtime=True, seed=1, state_dir=tmp_path)
    service = attach_debug(sim.board, port=0)
    assert service is not None
    thread = threading.Thread(target=sim.loop.run, args=(sim.board.handle,), name="board-loop", daemon=True)
    thread.start()
    try:
        client = connect(service)
        assert "reset" in client.hello["commands"]
        assert client.ask("state menu")["value"] == "EXXTRA fortsetzen"  # "Resume EXXTRA", in German
        sim.pins["right"].drive_low()  # the cursor moves on, as a person left it
        sim.pins["right"].drive_high()
        while client.ask("state menu")["value"] == "EXXTRA fortsetzen":
            time.sleep(0.01)
        assert client.ask("dice [1, 2, 2, 3, 5]") == {"ok": True, "queued": 1}
        assert client.ask("reset") == {"ok": True, "set_aside": waiting}
        screen = client.ask("state screen")
        assert screen.get("value") == "MainMenu", screen
        menu = client.ask("state menu")
        assert menu.get("value") == "Play EXXTRA", menu
        settings = client.ask("state settings")["value"]
        assert (settings["bot_pace"], settings["language"]) == (Settings().bot_pace, Settings().language)
        assert sim.board.app.dice.queued.left == 0 and sim.board.app.dice is service.target.dice
        assert client.ask("reset") == {"ok": True, "set_aside": None}  # a second one: nothing more to do
        assert [e["kind"] for e in client.ask("events")["events"]][-2:] == ["reset", "reset"]
        client.close()
    finally:
        service.close()
        sim.loop.post(Stop())
        thread.join(timeout=10)
        sim.close()
    journal = Journal(tmp_path, read_only=True)
    assert journal.unfinished() is None and [g.id for g in journal.finished()] == [finished]
    assert any(g.id == waiting and g.status == "abandoned" for g in journal.all_games())
    assert journal.get_setting("players") is None and journal.get_setting("bot_pace") is None
    journal.close()


def test_garbage_never_breaks_the_service() -> None:
    rng = random.Random(1515)
    garbage: list[bytes] = [
        bytes(rng.randrange(256) for _ in range(rng.randrange(1, 80))).replace(b"\n", b"") for _ in range(300)
    ]
    garbage += [
        b"\xff\xfe",
        b"\x00",
        b"dice",
        b"dice [1, 2",
        b"dice []",
        b"dice [true]",
        b"dice {}",
        b"seed {}",
        b"seed true",
        b"wait -1",
        b"wait 1e999",
        b"wait NaN",
        b"text please",
        b"TEXT",
        b"state",
        b"state ]][[",
        b"state a.__class__",
        b"dice " + b"[" * 100_000,
        b"shutdown",
        b"exec rm -rf /",
        b"press",
        b"release nobody",
        b"state " + b"x" * (MAX_LINE - 10),
    ]
    garbage += [b"events " + os.urandom(8).hex().encode() for _ in range(5)]
    with real_board(port=0) as (sim, service):
        client = connect(service)
        for line in garbage:
            answer = client.ask(line)
            assert set(answer) >= {"ok"} and (answer["ok"] is False or line.startswith(b"state "))
        huge = client.ask(b"text " + b"x" * (3 * MAX_LINE))  # read to its end, then dropped
        assert huge == {"ok": False, "error": f"request longer than {MAX_LINE} bytes"}
        assert client.ask("text") == {"ok": True, "text": sim.app.texts}
        # A client that goes away mid-line, and more clients than the service takes at once.
        half = socket.create_connection(("127.0.0.1", service.port))
        half.sendall(b"state scr")
        half.close()
        crowd = [connect(service) for _ in range(MAX_CLIENTS - 1)]
        extra = Client(socket.create_connection(("127.0.0.1", service.port), timeout=30))
        assert extra.hello == {"ok": False, "error": f"too many clients (at most {MAX_CLIENTS})"}
        extra.close()
        for other in crowd:
            other.close()
        client.close()
        again = connect_when_free(service)  # every slot comes back once the service sees the closes
        assert again.ask("state screen") == {"ok": True, "value": type(sim.app.screen).__name__}
        again.close()


def connect_when_free(service: DebugService, tries: int = 100) -> Client:
    """Connect, retrying while the service has not yet noticed that other clients went away:
    it learns of a close only when its reader wakes, which on a loaded machine takes a while."""
    for _ in range(tries):
        client = connect(service)
        if client.hello.get("ok", True) is not False:
            return client
        client.close()
        time.sleep(0.1)
    raise AssertionError(f"no client slot came back after {tries} tries: {client.hello}")


@settings(max_examples=300, deadline=None)
@given(st.binary(max_size=200))
def test_any_request_line_parses_or_is_refused_with_one_line(line: bytes) -> None:
    try:
        command, _ = parse_request(line)
    except DebugError as exc:
        assert "\n" not in str(exc)
    else:
        assert command in COMMANDS + SIMULATED_COMMANDS


def test_the_loop_not_answering_is_an_answer_too() -> None:
    sim = SimBoard(seed=1)
    try:
        service = DebugService(DebugConfig(enabled=True), BoardTarget(sim.board), lambda event: None, timeout_s=0.05)
        assert service.answer_line(b"text") == {"ok": False, "error": "the board's loop did not answer within 0.05 s"}
    finally:
        sim.close()


def test_a_request_the_board_raises_on_is_answered_not_fatal() -> None:
    def boom(command: str, arg: object) -> dict:
        raise RuntimeError("the display fell off")

    request = DebugRequest(boom, "text", None)
    request.run()
    assert request.answer == {"ok": False, "error": "the board raised RuntimeError: the display fell off"}


def test_a_unix_socket_and_a_serial_console(tmp_path: Path) -> None:
    master, slave = os.openpty()
    path = tmp_path / "debug.sock"
    with real_board(socket_path=path, config=DebugConfig(serial=Path(os.ttyname(slave)))) as (sim, service):
        unix = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
        unix.settimeout(30)
        unix.connect(str(path))
        client = Client(unix)
        assert client.ask("state screen") == {"ok": True, "value": type(sim.app.screen).__name__}
        client.close()
        with os.fdopen(master, "r+b", buffering=0) as console:
            reader = console.readline  # the board greets the console, then answers line by line
            assert json.loads(reader())["hello"] == "xtraboard-debug"
            console.write(b"text\n")
            assert json.loads(reader()) == {"ok": True, "text": sim.app.texts}
    os.close(slave)
    assert not path.exists()


# --- a listener that cannot open, stalled clients, malformed dice queues (issue 24) ------------------------

ROOT = Path(__file__).resolve().parents[1]


def _run_board(tmp_path: Path, *args: str) -> subprocess.Popen[str]:
    """`xtraboard run` on gpiozero's mock pins (no hardware), as a user starts it."""
    env = {k: v for k, v in os.environ.items() if k not in ("XTRABOARD_BOARD",)} | {"GPIOZERO_PIN_FACTORY": "mock"}
    return subprocess.Popen(
        [sys.executable, "-m", "firmware", "run", "--state-dir", str(tmp_path / "state"), *args],
        cwd=ROOT,
        env=env,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )


@pytest.mark.parametrize("where", ["port in use", "socket in a missing folder"])
def test_a_listener_that_cannot_open_is_one_line_and_the_board_plays_on(tmp_path: Path, where: str) -> None:
    with socket.socket() as taken:
        taken.bind(("127.0.0.1", 0))
        taken.listen()
        if where == "port in use":
            args, place = ("--debug-port", str(taken.getsockname()[1])), f"tcp 127.0.0.1:{taken.getsockname()[1]}"
        else:
            missing = tmp_path / "no-such-folder" / "debug.sock"
            args, place = ("--debug-socket", str(missing)), f"unix {missing}"
        board = _run_board(tmp_path, *args)
        try:
            time.sleep(4)  # the board has started (and, before the fix, died with a traceback)
            assert board.poll() is None, board.communicate()[1]
        finally:
            board.send_signal(signal.SIGTERM)
            out, err = board.communicate(timeout=30)
    assert board.returncode == 0 and "Traceback" not in err
    lines = [line for line in err.splitlines() if "debug service" in line]
    assert len(lines) == 1 and lines[0].startswith(f"debug service off: cannot listen on {place}: "), err


def test_stalled_clients_are_closed_so_they_cannot_lock_others_out() -> None:
    sim = SimBoard(seed=1, realtime=True)
    thread = threading.Thread(target=sim.loop.run, args=(sim.board.handle,), daemon=True)
    thread.start()
    service = DebugService(
        DebugConfig(enabled=True, port=0), BoardTarget(sim.board), sim.loop.post, line_timeout_s=0.5, idle_timeout_s=1.5
    )
    try:
        service.start()
        stalled = []
        for n in range(MAX_CLIENTS):
            sock = socket.create_connection(("127.0.0.1", service.port), timeout=30)
            sock.makefile("rb").readline()  # the greeting
            if n % 2:
                sock.sendall(b"state scr")  # half a line, then nothing
            stalled.append(sock)
        late = Client(socket.create_connection(("127.0.0.1", service.port), timeout=30))
        assert late.hello == {"ok": False, "error": f"too many clients (at most {MAX_CLIENTS})"}
        late.close()
        time.sleep(0.8)
        for sock in stalled:  # the service hung up on every one of them
            assert sock.recv(100) == b""
            sock.close()
        client = connect_when_free(service)
        assert client.ask("state screen") == {"ok": True, "value": type(sim.app.screen).__name__}
        time.sleep(0.9)  # quiet between requests, but less than the idle time
        assert client.ask("text")["ok"] is True
        time.sleep(2.0)
        assert client.reader.readline() == b""  # silent for longer than the idle time: closed
        client.close()
    finally:
        service.close()
        sim.loop.post(Stop())
        thread.join(timeout=10)
        sim.close()


def test_a_malformed_dice_queue_is_refused_when_sent() -> None:
    with real_board(port=0) as (sim, service):
        client = connect(service)
        no_game = client.ask("dice [1, 2, 3]")  # no game yet: it must fit one of the board's games
        assert no_game["ok"] is False and no_game["error"].startswith("dice: [1, 2, 3] fits no game's dice (")
        assert client.ask("dice [9, 9, 9, 9, 9]")["ok"] is False
        assert client.ask("dice [1, 2, 2, 3, 5]") == {"ok": True, "queued": 1}  # EXTRA!'s five dice
        client.close()
    sim = SimBoard(seed=1)
    try:
        from tests.test_engines_at_board import seat_up

        seat_up(sim, "extra", ["human"])
        target = BoardTarget(sim.board, dice=BenchDice(CommittedDice("1")))
        for faces, wrong in (([1, 2, 3], "[1, 2, 3]"), ([1, 2, 3, 4, 7], "[1, 2, 3, 4, 7]"), ([0, 1, 1, 1, 1], "[0")):
            with pytest.raises(
                DebugError, match=r"dice: " + re.escape(wrong) + ".* does not fit the dice of the game in play"
            ):
                target.execute("dice", faces)
    finally:
        sim.close()


# --- `reset` keeps the operator's lockout and its audits, across a restart of the board process ----------

OPERATOR_CODE = ("left", "left", "right", "ok", "roll")
WRONG_CODE = ("right", "right", "left", "ok", "roll")


def _served_board(board_file: Path, state: Path) -> tuple[subprocess.Popen[str], Client]:
    """`xtraboard sim --headless --debug-port 0` (virtual buttons, fake clock) and a client of it."""
    board = subprocess.Popen(
        [sys.executable, "-m", "firmware", "sim", "--headless", "--debug-port", "0", "--kiosk"]
        + ["--board", str(board_file), "--state-dir", str(state)],
        cwd=ROOT,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )
    first = board.stdout.readline() if board.stdout else ""
    found = re.fullmatch(r"debug service listening on tcp 127\.0\.0\.1:(\d+)\n", first)
    if not found:
        board.kill()
        pytest.fail(f"the board said {first!r}; stderr: {board.communicate()[1]}")
    return board, Client(socket.create_connection(("127.0.0.1", int(found.group(1))), timeout=60))


def _pull_the_plug(board: subprocess.Popen[str], client: Client | None = None) -> None:
    """The board process killed outright, as by a power cut: what it kept is in the journal.
    (Not SIGTERM: a served board on a fake clock was seen, now and then, to go on waiting in its
    loop for a minute or more after it; a power cut is what the lock must outlive anyway.)"""
    if client is not None:
        client.close()
    board.kill()
    board.communicate(timeout=60)


def _code_entry(client: Client, code: tuple[str, ...]) -> str:
    """OK + BACK held 10 s on the main menu, then `code` typed; the display's text after (its
    lines joined: a note wraps)."""
    from firmware.ui.operator_menu import ENTRY_HOLD_S
    from sim.timing import TAP_S

    for line in ("press back", "press ok", f"wait {ENTRY_HOLD_S + 0.1}", "release ok", "release back", "wait 0.1"):
        assert client.ask(line)["ok"], line
    for button in code:
        for line in (f"press {button}", f"wait {TAP_S}", f"release {button}", f"wait {TAP_S}"):
            assert client.ask(line)["ok"], line
    return " ".join(client.ask("text")["text"])


def test_reset_keeps_the_operators_lockout_and_its_audits_across_a_restart(tmp_path: Path) -> None:
    """The attack: lock code entry with five wrong codes, have the bench's `reset` (and `seed`,
    which starts the served board over) clear the journal, restart the board process, and type
    the right code. The lock and its counts are not settings: every reset keeps them."""
    from firmware.operator_code import WRONG_BEFORE_LOCK, StoredCode, write_code_file

    folder = tmp_path / "etc"
    folder.mkdir()
    board_file = folder / "board.toml"
    board_file.write_text(default_board_path().read_text(encoding="utf-8"), encoding="utf-8")
    write_code_file(folder / "operator-code", StoredCode.make(OPERATOR_CODE))
    state = tmp_path / "state"
    board, client = _served_board(board_file, state)
    try:
        for _ in range(WRONG_BEFORE_LOCK):
            text = _code_entry(client, WRONG_CODE)
            assert client.ask("state screen")["value"] == "MainMenu", text
        text = _code_entry(client, ())
        assert "Code entry locked: 15 min" in text, text
        assert client.ask("reset") == {"ok": True, "set_aside": None}
        assert client.ask("seed 7") == {"ok": True, "seed": 7}  # the served board starts over
        assert client.ask("state screen")["value"] == "MainMenu"
    finally:
        _pull_the_plug(board, client)
    board, client = _served_board(board_file, state)  # the board process restarted
    try:
        text = _code_entry(client, ())  # the gesture opens no code entry: still locked, in full
        assert client.ask("state screen")["value"] == "MainMenu" and "Code entry locked: 15 min" in text, text
        _code_entry(client, OPERATOR_CODE)  # the right code, typed now, is only presses on the main menu
        assert client.ask("state screen")["value"] not in ("CodeEntryScreen", "OperatorMenu")
    finally:
        _pull_the_plug(board, client)
    audit = subprocess.run(
        [sys.executable, "-m", "firmware", "records", "audit", "--state-dir", str(state)],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert audit.returncode == 0, audit.stderr
    assert "Operator code: 5 wrong, 1 locks" in audit.stdout.splitlines(), audit.stdout


def test_reset_on_a_real_board_process_keeps_a_lock_in_force_for_its_next_start(tmp_path: Path) -> None:
    """The same through `xtraboard run` (gpiozero's mock pins): the lock made on this journal,
    the bench's `reset`, the board's power cut; the board that starts next on it is still locked."""
    from firmware.ui.operator_menu import ENTRY_HOLD_S
    from firmware.operator_code import WRONG_BEFORE_LOCK, StoredCode, write_code_file

    folder = tmp_path / "etc"
    folder.mkdir()
    board_file = folder / "board.toml"
    board_file.write_text(default_board_path().read_text(encoding="utf-8"), encoding="utf-8")
    write_code_file(folder / "operator-code", StoredCode.make(OPERATOR_CODE))

    def locked_board() -> SimBoard:
        return SimBoard(board_file=board_file, state_dir=tmp_path / "state", kiosk=True, seed=1)

    def code_entry(sim: SimBoard, code: tuple[str, ...]) -> None:
        sim.press("back")
        sim.press("ok")
        sim.wait(ENTRY_HOLD_S + 0.1)
        sim.release("ok")
        sim.release("back")
        sim.wait(0.1)
        for button in code:
            sim.tap(button)

    sim = locked_board()
    try:
        for _ in range(WRONG_BEFORE_LOCK):
            code_entry(sim, WRONG_CODE)
        assert sim.board.gate is not None and sim.board.gate.locks == 1
    finally:
        sim.close()
    board = _run_board(tmp_path, "--board", str(board_file), "--kiosk", "--debug-port", "0")
    try:
        port = None
        assert board.stderr is not None
        for line in board.stderr:  # the log says where the service listens
            found = re.search(r"debug service listening on tcp 127\.0\.0\.1:(\d+) ", line)
            if found:
                port = int(found.group(1))
                break
        assert port is not None, "the board ended without its debug service"
        client = Client(socket.create_connection(("127.0.0.1", port), timeout=60))
        assert client.ask("reset") == {"ok": True, "set_aside": None}
        assert client.ask("state screen")["value"] == "MainMenu"
        client.close()
    finally:
        _pull_the_plug(board)
    sim = locked_board()  # the board's next start on that journal
    try:
        code_entry(sim, ())
        assert sim.app.note == "Code entry locked: 15 min"
        code_entry(sim, OPERATOR_CODE)
        assert type(sim.app.screen).__name__ not in ("CodeEntryScreen", "OperatorMenu")
        assert sim.board.gate is not None and (sim.board.gate.failures, sim.board.gate.locks) == (5, 1)
    finally:
        sim.close()
