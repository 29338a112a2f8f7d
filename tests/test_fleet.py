"""The café's fleet on MQTT, against a real broker on loopback (amqtt): discovery retained,
states and results published, the last will of a killed board, and a board that plays on while
its broker is down, restarted, silent or refusing the login."""

from __future__ import annotations

import json
import os
import re
import signal
import socket
import subprocess
import sys
import textwrap
import threading
from pathlib import Path
from typing import Any

import pytest

import firmware.fleet.publisher as publisher
from tests.support import run_capped
from firmware import __version__
from firmware.cli import main
from firmware.dice import ELECTRONIC, SCHEME_BOUND, commitment
from firmware.errors import ConfigError
from firmware.fleet import table_state
from firmware.fleet.publisher import SENSORS
from firmware.hardware.config import load_board
from firmware.loop import EventLoop, FakeClock
from firmware.ui.app import BoardApp
from sim.board import SimBoard
from tests.mqtt_fixtures import Broker, Subscriber, board_file, free_port, wait_for

ROOT = Path(__file__).resolve().parents[1]


@pytest.fixture(autouse=True)
def quick_reconnect(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(publisher, "RECONNECT_S", (1, 1))  # a restarted broker is found again within a second


@pytest.fixture
def broker(tmp_path: Path):
    broker = Broker(tmp_path).start()
    yield broker
    broker.stop()


def fleet_board(tmp_path: Path, broker_port: int, extra: str = "") -> SimBoard:
    path = board_file(tmp_path, f'table = "table-3"\nbroker = "127.0.0.1"\nport = {broker_port}\n{extra}')
    return SimBoard(board_file=path, seed=3)


def play_demo(board: SimBoard) -> None:
    """A whole EXTRA! solo demo game, bots only: menu Demo → EXTRA! → 1 player."""
    for button in ("right", "right", "right", "ok", "right", "right", "ok", "ok"):
        board.tap(button)
    board.settle()
    assert board.app.session is not None and board.app.session.over


def states(subscriber: Subscriber) -> list[dict[str, Any]]:
    return [json.loads(m.payload) for m in subscriber.on("xtraboard/table-3/state")]


# --- the board description and the published state (no broker) ------------------------------------
def test_the_fleet_section_of_the_board_description(tmp_path: Path) -> None:
    (tmp_path / "secret").write_text("pw\n")
    config = load_board(
        board_file(
            tmp_path,
            'table = "bar-1"\nbroker = "mqtt.cafe.lan"\ntls = true\nusername = "boards"\npassword_file = "secret"\n',
        )
    ).fleet
    assert config is not None
    assert (config.table, config.port, config.tls, config.password_file) == ("bar-1", 8883, True, tmp_path / "secret")
    assert load_board().fleet is None  # opt-in: the shipped description has none
    bad = {
        'table = "bar 1"\nbroker = "b"\n': 'fleet.table: "bar 1" is not a name; expected 1 to 64 letters',
        'table = "t"\nbroker = "b"\npassword_file = "x"\n': "fleet.password_file: a password needs a user",
        'table = "t"\nbroker = "b"\nport = 0\n': "fleet.port: 0 is out of range",
        'table = "t"\nbroker = "b"\nca_file = "ca.pem"\n': "fleet.ca_file: a CA file is for TLS",
        'table = "t"\nbroker = "b"\nbrokr = "c"\n': "fleet.brokr: unknown key (a typo?)",
        'broker = "b"\n': "fleet.table: missing",
    }
    for text, problem in bad.items():
        with pytest.raises(ConfigError, match=re.escape(problem)):
            load_board(board_file(tmp_path, text))


def test_the_state_is_a_pure_function_of_the_app() -> None:
    loop = EventLoop(FakeClock())
    app = BoardApp(schedule=loop.call_later)
    assert table_state(app, attract=False) == {
        "status": "idle",
        "game": None,
        "title": None,
        "mode": None,
        "round": None,
        "rolls": 0,
        "players": [],
        "turn": None,
        "result": None,
        "dice": None,
    }
    assert table_state(app, attract=True)["status"] == "attract"
    board = SimBoard(seed=3)
    for button in ("right", "ok", "ok", "right", "ok", "ok"):  # LEVEL X: Red a bot, Blue a person
        board.tap(button)
    state = table_state(board.app, attract=False)
    assert state == table_state(board.app, attract=False)  # nothing hidden changes it
    assert (state["status"], state["game"], state["title"], state["round"], state["turn"]) == (
        "playing",
        "levelx",
        "LEVEL X",
        1,
        "Red",
    )
    assert state["players"] == [{"name": "Red", "bot": "easy"}, {"name": "Blue", "bot": None}]
    assert state["dice"] == {
        "scheme": SCHEME_BOUND,
        "commit": commitment("3", ELECTRONIC),
        "word": None,
    }  # seeded: no word


# --- against a broker ---------------------------------------------------------------------------
def test_discovery_states_and_results_reach_the_broker(tmp_path: Path, broker: Broker) -> None:
    board = fleet_board(tmp_path, broker.port)
    watcher = Subscriber(broker)
    wait_for(lambda: any(s["status"] == "idle" for s in states(watcher)), "the idle state")
    play_demo(board)
    wait_for(lambda: watcher.on("xtraboard/table-3/result"), "the result")
    seen = states(watcher)
    assert any(
        s["status"] == "playing" and s["game"] == "extra" and s["players"] == [{"name": "Red", "bot": "easy"}]
        for s in seen
    )
    assert wait_for(lambda: states(watcher)[-1]["status"] == "over", "the final state")
    result = json.loads(watcher.on("xtraboard/table-3/result")[0].payload)
    game = board.app.session.game
    assert result["summary"] in ("Red won EXTRA!", "nobody won EXTRA!") and result["scores"] == game.result()["scores"]
    assert len(watcher.on("xtraboard/table-3/result")) == 1  # once, however often the result screen is drawn
    # A newcomer (Home Assistant starting later) gets discovery, availability, state and result: retained.
    late = Subscriber(broker)
    topics = {f"homeassistant/sensor/xtraboard_table-3/{key}/config" for key, *_ in SENSORS}
    wait_for(lambda: topics <= {m.topic for m in late.messages}, "the retained discovery configs")
    for message in late.messages:
        assert message.retain, message.topic
    config = json.loads(late.on("homeassistant/sensor/xtraboard_table-3/status/config")[0].payload)
    assert config["device"] == {
        "identifiers": ["xtraboard_table-3"],
        "name": "xtraboard table-3",
        "manufacturer": "xtraboard",
        "model": "xtraboard default build",
        "sw_version": __version__,
    }
    assert (config["state_topic"], config["availability_topic"]) == (
        "xtraboard/table-3/state",
        "xtraboard/table-3/availability",
    )
    wait_for(
        lambda: late.on("xtraboard/table-3/result") and late.on("xtraboard/table-3/availability"), "retained topics"
    )
    assert late.on("xtraboard/table-3/availability")[-1].text == "online"
    board.close()  # a board that stops says so
    wait_for(lambda: late.on("xtraboard/table-3/availability")[-1].text == "offline", "offline on close")
    watcher.close()
    late.close()


def test_the_last_will_of_a_killed_board(tmp_path: Path, broker: Broker) -> None:
    path = board_file(tmp_path, f'table = "table-3"\nbroker = "127.0.0.1"\nport = {broker.port}\n')
    script = textwrap.dedent(f"""
        import sys, time
        from sim.board import SimBoard
        board = SimBoard(board_file={str(path)!r}, realtime=True)
        print("running", flush=True)
        time.sleep(600)
    """)
    watcher = Subscriber(broker)
    board = subprocess.Popen([sys.executable, "-c", script], cwd=ROOT, stdout=subprocess.PIPE)
    try:
        assert board.stdout is not None and board.stdout.readline() == b"running\n"
        wait_for(lambda: [m.text for m in watcher.on("xtraboard/table-3/availability")] == ["online"], "online")
        board.send_signal(signal.SIGKILL)
        board.wait()
        wait_for(
            lambda: [m.text for m in watcher.on("xtraboard/table-3/availability")] == ["online", "offline"],
            "the last will",
        )
    finally:
        if board.poll() is None:
            board.kill()
            board.wait()
        watcher.close()


def test_the_board_plays_on_while_the_broker_is_stopped_and_restarted(tmp_path: Path, broker: Broker) -> None:
    board = fleet_board(tmp_path, broker.port)
    wait_for(lambda: board.fleet.status()["connected"], "the first connection")
    broker.stop()
    wait_for(lambda: not board.fleet.status()["connected"], "the board to notice")
    play_demo(board)  # a whole game with no broker: the loop never waits on the network
    assert board.app.problems == []
    status = board.fleet.status()
    # The problem says the latest: "lost the broker", then, once a reconnection was tried (when
    # is up to the machine's load), "cannot be reached".
    assert status["disconnects"] == 1
    assert "lost the broker" in status["problem"] or "cannot be reached" in status["problem"]
    broker.start()  # same port, nothing retained any more
    watcher = Subscriber(broker)
    wait_for(lambda: board.fleet.status()["connected"], "the reconnection")
    # Everything is said again: discovery, online, the latest state, and the result kept meanwhile.
    wait_for(lambda: watcher.on("homeassistant/sensor/xtraboard_table-3/status/config"), "discovery again")
    wait_for(lambda: watcher.on("xtraboard/table-3/result"), "the result kept while the broker was away")
    wait_for(lambda: states(watcher) and states(watcher)[-1]["status"] == "over", "the latest state")
    assert board.fleet.status()["problem"] is None
    board.close()
    watcher.close()


def test_a_refused_login_is_counted_and_the_board_plays_on(tmp_path: Path) -> None:
    broker = Broker(tmp_path, users={"boards": "right"}).start()
    try:
        (tmp_path / "wrong").write_text("wrong\n")
        board = fleet_board(tmp_path, broker.port, 'username = "boards"\npassword_file = "wrong"\n')
        wait_for(lambda: board.fleet.status()["refused"] >= 1, "the refusal")
        play_demo(board)
        status = board.fleet.status()
        assert not status["connected"] and "refused the connection" in status["problem"]
        watcher = Subscriber(broker, username="boards", password="right")
        assert watcher.on("xtraboard/table-3/availability") == []
        watcher.close()
        board.close()
        # The right password gets in (the refusal above was the password's, not the setup's).
        (tmp_path / "right").write_text("right\n")
        board = fleet_board(tmp_path, broker.port, 'username = "boards"\npassword_file = "right"\n')
        wait_for(lambda: board.fleet.status()["connected"], "the login with the right password")
        board.close()
    finally:
        broker.stop()


def test_a_broker_that_never_answers_or_is_not_there(tmp_path: Path) -> None:
    with socket.socket() as silent:  # accepts the TCP connection, never says a word
        silent.bind(("127.0.0.1", 0))
        silent.listen()
        board = fleet_board(tmp_path, silent.getsockname()[1])
        play_demo(board)
        assert not board.fleet.status()["connected"]
        board.close()
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        nobody = probe.getsockname()[1]
    board = fleet_board(tmp_path, nobody)
    wait_for(lambda: board.fleet.status()["unreachable"] >= 1, "the failed connection")
    play_demo(board)
    assert "cannot be reached" in board.fleet.status()["problem"]
    board.close()


def test_a_missing_password_file_turns_the_fleet_off_not_the_board(tmp_path: Path) -> None:
    board = fleet_board(tmp_path, 1, 'username = "boards"\npassword_file = "nowhere"\n')
    wait_for(lambda: board.fleet.status()["problem"], "the problem")
    assert board.fleet.status()["problem"].startswith(
        f"fleet off: cannot read the password file {tmp_path / 'nowhere'}"
    )
    play_demo(board)
    board.close()


def _password_file(tmp_path: Path, make: str) -> Path:
    path = tmp_path / "password"
    if make == "fifo":
        os.mkfifo(path)
    else:
        path.symlink_to("/dev/zero")
    return path


@pytest.mark.parametrize("make", ["fifo", "link to /dev/zero"])
def test_a_password_file_that_is_not_a_regular_file_is_one_line_of_the_fleet_command(
    tmp_path: Path, broker: Broker, make: str
) -> None:
    """A FIFO used to block `xtraboard fleet --password-file` for ever, /dev/zero to grow until
    memory ran out; now it is refused before a byte is read (a hang shows as the timeout)."""
    path = _password_file(tmp_path, make)
    done = run_capped(
        [sys.executable, "-m", "firmware", "fleet", "--broker", "127.0.0.1", "--port", str(broker.port)]
        + ["--username", "boards", "--password-file", str(path), "--once", "1"],
        timeout=300,
    )
    kind = "a FIFO" if make == "fifo" else "a character device"
    assert (done.returncode, done.stdout) == (1, ""), done.stderr
    assert done.stderr == f"xtraboard fleet: cannot read the password file {path}: not a regular file ({kind})\n"


@pytest.mark.parametrize("make", ["fifo", "link to /dev/zero"])
def test_a_boards_password_file_that_is_not_a_regular_file_turns_the_fleet_off(
    tmp_path: Path, broker: Broker, make: str
) -> None:
    """The board's own `password_file`: its fleet thread used to hang on a FIFO (and to run out
    of memory on /dev/zero); now the fleet is off, saying why, and the board plays on."""
    path = _password_file(tmp_path, make)
    board_path = board_file(
        tmp_path,
        f'table = "table-3"\nbroker = "127.0.0.1"\nport = {broker.port}\n'
        f'username = "boards"\npassword_file = "{path.name}"\n',
    )
    script = textwrap.dedent(f"""
        from sim.board import SimBoard
        from tests.mqtt_fixtures import wait_for
        board = SimBoard(board_file={str(board_path)!r}, seed=3)
        print(wait_for(lambda: board.fleet.status()["problem"], "the problem"), flush=True)
        board.close()
    """)
    done = run_capped([sys.executable, "-c", script], timeout=300)
    kind = "a FIFO" if make == "fifo" else "a character device"
    assert done.returncode == 0, done.stderr
    assert done.stdout.startswith(f"fleet off: cannot read the password file {path}: not a regular file ({kind})")


def test_the_fleet_command_shows_every_table(
    tmp_path: Path, broker: Broker, capsys: pytest.CaptureFixture[str]
) -> None:
    board = fleet_board(tmp_path, broker.port)
    play_demo(board)
    wait_for(lambda: board.fleet.status()["published"] >= len(SENSORS) + 3, "the board's messages")
    assert main(["fleet", "--broker", "127.0.0.1", "--port", str(broker.port), "--once", "1"]) == 0
    lines = capsys.readouterr().out.splitlines()
    assert lines[0].split() == ["TABLE", "STATUS", "GAME", "ROUND", "PLAYERS", "LAST", "RESULT"]
    rounds = table_state(board.app, attract=False)["round"]
    assert lines[1].split()[:5] == ["table-3", "over", "EXTRA!", "demo", str(rounds)]
    assert "Red (bot)" in lines[1] and ("Red won EXTRA!" in lines[1] or "nobody won EXTRA!" in lines[1])
    board.close()
    wait_for(
        lambda: (
            main(["fleet", "--broker", "127.0.0.1", "--port", str(broker.port), "--once", "0.5"]) == 0
            and "offline" in capsys.readouterr().out
        ),
        "the table shown offline",
    )
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        nobody = probe.getsockname()[1]
    assert main(["fleet", "--broker", "127.0.0.1", "--port", str(nobody), "--once", "0"]) == 1
    assert capsys.readouterr().err.startswith(f"xtraboard fleet: cannot reach the broker 127.0.0.1:{nobody}: ")


def test_the_fleet_view_reads_only_its_own_topics() -> None:
    from firmware.commands.fleet import Fleet

    fleet = Fleet("xtraboard")
    assert fleet.lines() == ["no tables have reported yet"]
    state = {
        "status": "playing",
        "title": "LEVEL X",
        "mode": "play",
        "round": 3,
        "players": [{"name": "Anna", "bot": None}, {"name": "Ben", "bot": "easy"}],
        "turn": "Anna",
    }
    fleet.message("xtraboard/bar-1/state", json.dumps(state).encode())
    fleet.message("xtraboard/bar-1/result", json.dumps({"summary": "Cleo won EXTRA!", "time": "T"}).encode())
    fleet.message("xtraboard/bar-2/availability", b"offline")
    fleet.message("xtraboard/bar-2/state", b"\xff not json")  # not ours to understand: skipped, with a note
    fleet.message("other/bar-3/state", json.dumps(state).encode())
    fleet.message("homeassistant/sensor/xtraboard_bar-1/status/config", b"{}")
    lines = fleet.lines()
    assert len(lines) == 3
    assert lines[1].split() == [
        "bar-1",
        "playing",
        "LEVEL",
        "X",
        "3",
        "Anna,",
        "Ben",
        "(bot);",
        "turn:",
        "Anna",
        "Cleo",
        "won",
        "EXTRA!",
        "(T)",
    ]
    assert lines[2].split() == ["bar-2", "offline", "-", "-", "-", "-"]
    assert fleet.skipped() == ["xtraboard/bar-2/state: skipped: not UTF-8 text"]


def test_rounds_as_each_game_counts_them() -> None:
    from firmware.dice import CommittedDice
    from firmware.fleet.report import round_of
    from firmware.games import new_game
    from firmware.games.exxtra.rules import Reroll

    exxtra, dice = new_game("exxtra", ["A", "B", "C"]), CommittedDice("r")
    assert round_of(exxtra) == 1
    while round_of(exxtra) == 1:
        exxtra.roll(dice) if exxtra.pending().kind == "roll" else exxtra.apply(exxtra.legal_decisions()[-1])
    turns = [
        s
        for i, s in enumerate(exxtra.history)
        if s.to_json().get("roll") is not None and (i == 0 or exxtra.history[i - 1] != Reroll())
    ]
    assert len(turns) == 4  # the fourth turn is the second round's first
    extra = new_game("extra", ["A"])
    extra.roll(dice)
    assert round_of(extra) == 1


# --- hostile messages on the broker (issue 24) --------------------------------------------------------

HOSTILE = {
    "xtraboard/evil/state": b'{"players": 5}',
    "xtraboard/deep/state": b"[" * 100_000 + b"]" * 100_000,
    "xtraboard/nest/state": b'{"players": [' + b"[" * 5_000 + b"]" * 5_000 + b"]}",
    "xtraboard/big/state": b'{"title": "' + b"x" * 200_000 + b'"}',
    "xtraboard/esc\x1b[2J/state": b'{"status": "playing"}',
    "xtraboard/esc/state": json.dumps(
        {
            "status": "playing",
            "title": "\x1b]0;pwned\x07LEVEL X",
            "players": [{"name": "Anna\x1b[31m\u202e", "bot": None}],
            "turn": "Anna\x1b[31m\u202e",
            "round": 2,
        }
    ).encode(),
    "xtraboard/esc/result": json.dumps({"summary": "\x1b[2JBen won\rEXTRA!", "time": "T\x9b1m"}).encode(),
}


def publish_retained(broker: Broker, messages: dict[str, bytes]) -> None:
    import paho.mqtt.client as mqtt

    client = mqtt.Client(mqtt.CallbackAPIVersion.VERSION2)
    client.connect("127.0.0.1", broker.port)
    client.loop_start()
    try:
        for topic, payload in messages.items():
            client.publish(topic, payload, qos=1, retain=True).wait_for_publish(30)
    finally:
        client.disconnect()
        client.loop_stop()


def test_hostile_retained_messages_are_skipped_with_a_note_and_the_rest_is_shown(
    tmp_path: Path, broker: Broker, capsys: pytest.CaptureFixture[str]
) -> None:
    publish_retained(broker, HOSTILE)
    board = fleet_board(tmp_path, broker.port)
    try:
        wait_for(lambda: board.fleet.status()["published"] >= len(SENSORS) + 2, "the board's messages")
        assert main(["fleet", "--broker", "127.0.0.1", "--port", str(broker.port), "--once", "2"]) == 0
    finally:
        board.close()
    out, err = capsys.readouterr()
    assert not any(c in out + err for c in "\x1b\x07\x9b\u202e\r"), repr(out + err)
    rows = {line.split()[0]: line for line in out.splitlines()[1:]}
    assert rows["table-3"].split()[1] == "idle"  # the real board is shown among them
    assert rows["esc"].split()[:5] == ["esc", "playing", "]0;pwnedLEVEL", "X", "2"]
    assert "Anna[31m; turn: Anna[31m" in rows["esc"] and "[2JBen wonEXTRA! (T1m)" in rows["esc"]
    assert "esc[2J" in rows  # the table name from the topic, cleaned too
    assert {"evil", "deep", "nest", "big"}.isdisjoint(rows)
    notes = err.splitlines()
    assert "xtraboard fleet: xtraboard/evil/state: skipped: players is not list" in notes
    assert "xtraboard fleet: xtraboard/deep/state: skipped: 200000 bytes, more than 16384" in notes
    assert "xtraboard fleet: xtraboard/nest/state: skipped: nested too deeply" in notes
    assert "xtraboard fleet: xtraboard/big/state: skipped: 200013 bytes, more than 16384" in notes


def test_the_live_view_lives_through_a_100000_deep_array(tmp_path: Path, broker: Broker) -> None:
    view = subprocess.Popen(
        [sys.executable, "-m", "firmware", "fleet", "--broker", "127.0.0.1", "--port", str(broker.port)],
        cwd=ROOT,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )
    seen: list[str] = []  # read on a thread: a frozen view must fail the test, not hang it
    reader = threading.Thread(target=lambda: seen.extend(iter(view.stdout.readline, "")), daemon=True)  # type: ignore[union-attr]
    reader.start()
    try:
        publish_retained(broker, {"xtraboard/first/state": b'{"status": "idle"}'})
        wait_for(lambda: any("first" in line for line in seen), "the live view's first table")
        publish_retained(
            broker,
            {
                "xtraboard/deep/state": b"[" * 100_000 + b"]" * 100_000,
                "xtraboard/nest/state": b"[" * 5_000 + b"]" * 5_000,
                "xtraboard/evil/state": b'{"players": 5}',
            },
        )
        publish_retained(broker, {"xtraboard/after/state": b'{"status": "playing"}'})
        wait_for(
            lambda: any("after" in line for line in seen),
            "the live view to show a table published after the hostile ones",
            timeout=15,
        )
        assert view.poll() is None
        assert any("xtraboard/evil/state: skipped: players is not list" in line for line in seen)
    finally:
        view.send_signal(signal.SIGINT)
        out, err = view.communicate(timeout=30)
    assert "Traceback" not in err and view.returncode == 0, err


# --- the board names TLS failures and a table name already in use (issue 24) --------------------------


def tls_broker(folder: Path) -> tuple[Broker, int, Path]:
    """The loopback broker with a TLS listener as well (a self-signed certificate for 127.0.0.1)."""
    cert, key = folder / "cert.pem", folder / "key.pem"
    subprocess.run(
        [
            "openssl",
            "req",
            "-x509",
            "-newkey",
            "rsa:2048",
            "-nodes",
            "-keyout",
            str(key),
            "-out",
            str(cert),
            "-days",
            "2",
            "-subj",
            "/CN=127.0.0.1",
            "-addext",
            "subjectAltName=IP:127.0.0.1",
        ],
        check=True,
        capture_output=True,
        timeout=60,
    )
    broker = Broker(folder)
    tls_port = free_port()
    broker.config.write_text(
        broker.config.read_text().replace(
            "listeners:\n",
            (
                f"listeners:\n  secure:\n    type: tcp\n    bind: 127.0.0.1:{tls_port}\n    ssl: true\n"
                f"    certfile: {cert}\n    keyfile: {key}\n"
            ),
            1,
        )
    )
    return broker.start(), tls_port, cert


def test_tls_failures_are_named_apart_from_an_unreachable_broker(tmp_path: Path) -> None:
    broker, tls_port, cert = tls_broker(tmp_path)
    try:
        untrusted = fleet_board(tmp_path, tls_port, "tls = true\n")  # the system's CAs: not this self-signed one
        wait_for(lambda: untrusted.fleet.status()["problem"], "the certificate problem")
        assert untrusted.fleet.status()["problem"] == (
            f"fleet: broker 127.0.0.1:{tls_port}: its TLS certificate is not trusted (self-signed certificate); "
            "check ca_file"
        )
        untrusted.close()
        plain = fleet_board(tmp_path, broker.port, "tls = true\n")  # TLS to the plain MQTT port
        wait_for(lambda: plain.fleet.status()["problem"], "the TLS problem")
        assert plain.fleet.status()["problem"] == (
            f"fleet: broker 127.0.0.1:{broker.port} does not answer TLS (handshake timed out); is it a plain MQTT "
            "port? check tls and port"
        )
        plain.close()
        (tmp_path / "ca.pem").write_bytes(cert.read_bytes())
        trusted = fleet_board(tmp_path, tls_port, 'tls = true\nca_file = "ca.pem"\n')
        wait_for(lambda: trusted.fleet.status()["connected"], "the TLS connection with the right CA")
        trusted.close()
    finally:
        broker.stop()


def test_a_second_board_with_the_same_table_name_says_so(tmp_path: Path, broker: Broker) -> None:
    (tmp_path / "one").mkdir()
    (tmp_path / "two").mkdir()
    one = fleet_board(tmp_path / "one", broker.port)
    wait_for(lambda: one.fleet.status()["published"] >= len(SENSORS) + 2, "the first board's claim")
    two = fleet_board(tmp_path / "two", broker.port)  # another board, the same [fleet] table
    try:
        wait_for(lambda: two.fleet.status()["problem"], "the second board to notice")
        assert two.fleet.status()["problem"] == (
            f"fleet: another board uses the table name table-3 on broker 127.0.0.1:{broker.port}; give each board "
            "a [fleet] table of its own"
        )
    finally:
        two.close()
        one.close()
    again = fleet_board(tmp_path / "one", broker.port)  # the first board restarted: the name is its own
    try:
        wait_for(lambda: again.fleet.status()["published"] >= len(SENSORS) + 2, "the restarted board's messages")
        assert again.fleet.status()["problem"] is None and not again.fleet.clash
    finally:
        again.close()


# --- the view's bounds: tables, fields (issue "Café trust, second round") -----------------------------


def publish_many_retained(broker: Broker, messages: dict[str, bytes]) -> None:
    """Many retained messages in one paho loop: only the last is waited for (QoS 1 keeps the order)."""
    import paho.mqtt.client as mqtt

    client = mqtt.Client(mqtt.CallbackAPIVersion.VERSION2)
    client.max_inflight_messages_set(1000)
    client.max_queued_messages_set(0)
    client.connect("127.0.0.1", broker.port)
    client.loop_start()
    try:
        info = None
        for topic, payload in messages.items():
            info = client.publish(topic, payload, qos=1, retain=True)
        assert info is not None
        info.wait_for_publish(300)
    finally:
        client.disconnect()
        client.loop_stop()


def fleet_once(broker: Broker, seconds: float) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "firmware", "fleet", "--broker", "127.0.0.1", "--port", str(broker.port)]
        + ["--once", str(seconds)],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=300,
    )


def test_a_real_table_after_20000_fake_ones_is_shown_and_the_rest_counted(tmp_path: Path, broker: Broker) -> None:
    fakes = {f"xtraboard/fake-{n}/state": b'{"status": "playing", "title": "FAKE"}' for n in range(20_000)}
    publish_many_retained(broker, fakes)
    board = fleet_board(tmp_path, broker.port)  # a real board, publishing after the fakes
    try:
        wait_for(lambda: board.fleet.status()["published"] >= len(SENSORS) + 3, "the board's messages")
    finally:
        board.close()
    seen: list[str] = []

    def everything_arrived() -> bool:  # on a slow machine 20,001 retained messages may take a while
        done = fleet_once(broker, 5)
        if done.returncode != 0:  # a machine so loaded that the connection took over its timeout: again
            assert "did not answer" in done.stderr, done.stderr
            return False
        seen[:] = done.stdout.splitlines()
        return "19501 tables left out: the view keeps the 500 seen most recently" in seen

    wait_for(everything_arrived, "the view to have every table and count the left-out ones", timeout=300)
    rows = {line.split()[0]: line for line in seen[1:-1]}
    assert len(rows) == 500 and rows["table-3"].split()[1] == "offline"  # the real table is among them
    assert seen[-1] == "19501 tables left out: the view keeps the 500 seen most recently"


def test_the_view_keeps_the_tables_seen_most_recently() -> None:
    from firmware.commands.fleet import Fleet

    fleet = Fleet("xtraboard", max_tables=3)
    for n in range(5):  # no time: kept by arrival, the first two go
        fleet.message(f"xtraboard/fake-{n}/state", b'{"status": "idle"}')
    fleet.message("xtraboard/real/state", b'{"status": "idle", "time": "2020-01-01T00:00:00Z"}')
    fleet.message("xtraboard/fake-9/state", b'{"status": "idle"}')  # no time: newer than fake-3 only by arrival
    fleet.message("xtraboard/future/state", b'{"status": "idle", "time": "2999-01-01T00:00:00Z"}')  # taken as now
    fleet.message("xtraboard/fake-8/state", b'{"status": "idle"}')  # no time: older than any timed table
    lines = fleet.lines()
    assert [line.split()[0] for line in lines[1:-1]] == ["fake-8", "future", "real"]
    assert lines[-1] == "6 tables left out: the view keeps the 3 seen most recently"  # fake-0 to 4, fake-9
    fleet.message("xtraboard/fake-0/state", b'{"status": "idle", "time": "2021-01-01T00:00:00Z"}')  # back, newer
    assert [line.split()[0] for line in fleet.lines()[1:-1]] == ["fake-0", "future", "real"]
    assert fleet.lines()[-1] == "6 tables left out: the view keeps the 3 seen most recently"  # fake-8 for fake-0


def test_every_field_the_view_prints_is_bounded() -> None:
    from firmware.commands.fleet import Fleet

    fleet = Fleet("xtraboard")
    long = "W" * 300  # every text field long, the message still within 16 KiB
    fleet.message("xtraboard/huge-round/state", json.dumps({"status": "playing", "round": 10**300}).encode())
    fleet.message("xtraboard/minus/state", json.dumps({"status": "playing", "round": -1}).encode())
    state = {
        "status": long,
        "game": long,
        "title": long,
        "mode": long,
        "round": 99_999,
        "rolls": 10**300,
        "players": [{"name": long, "bot": long}] * 12,
        "turn": long,
        "result": {"summary": long},
        "dice": {"scheme": long},
        "time": long,
    }
    fleet.message("xtraboard/" + "T" * 5000 + "/state", json.dumps(state).encode())
    fleet.message("xtraboard/" + "T" * 5000 + "/result", json.dumps({"summary": long, "time": long}).encode())
    lines = fleet.lines()
    assert len(lines) == 2, lines
    assert max(len(line) for line in lines) < 300, [len(line) for line in lines]
    assert "99999" in lines[1].split()
    assert fleet.skipped() == [
        "xtraboard/huge-round/state: skipped: round is out of range (0 to 99999)",
        "xtraboard/minus/state: skipped: round is out of range (0 to 99999)",
    ]


def spoof_claim(broker: Broker, payload: bytes, retain: bool) -> None:
    import paho.mqtt.client as mqtt

    client = mqtt.Client(mqtt.CallbackAPIVersion.VERSION2)
    client.connect("127.0.0.1", broker.port)
    client.loop_start()
    try:
        client.publish("xtraboard/table-3/owner", payload, qos=1, retain=retain).wait_for_publish(30)
    finally:
        client.disconnect()
        client.loop_stop()


def test_a_single_spoofed_claim_on_the_table_name_expires(
    tmp_path: Path, broker: Broker, monkeypatch: pytest.MonkeyPatch, caplog: pytest.LogCaptureFixture
) -> None:
    monkeypatch.setattr(publisher, "CLAIM_S", 0.5)  # renewed every 0.5 s: expired after 1.5 s unheard
    caplog.set_level("INFO", logger="xtraboard.fleet")
    board = fleet_board(tmp_path, broker.port)
    try:
        wait_for(lambda: board.fleet.status()["published"] >= len(SENSORS) + 2, "the board's claim")
        spoof_claim(broker, b"0123456789abcdef", retain=False)  # one message, never renewed
        wait_for(lambda: "another board uses the table name table-3" in caplog.text, "the warning")
        wait_for(lambda: not board.fleet.clash and board.fleet.status()["problem"] is None, "the claim to expire")
        assert "no other board has claimed the table name table-3 for 2 s; the warning is withdrawn" in caplog.text
        assert board.fleet.status()["connected"]
    finally:
        board.close()


def test_a_real_second_board_keeps_the_warning_by_renewing_its_claim(
    tmp_path: Path, broker: Broker, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(publisher, "CLAIM_S", 0.5)
    (tmp_path / "one").mkdir()
    (tmp_path / "two").mkdir()
    one = fleet_board(tmp_path / "one", broker.port)
    wait_for(lambda: one.fleet.status()["published"] >= len(SENSORS) + 2, "the first board's claim")
    two = fleet_board(tmp_path / "two", broker.port)
    try:
        wait_for(lambda: two.fleet.clash, "the second board to notice")
        # Many renewals later (each one a message), well past the expiry, the clash still stands.
        published = one.fleet.status()["published"] + two.fleet.status()["published"]
        wait_for(
            lambda: one.fleet.status()["published"] + two.fleet.status()["published"] >= published + 40,
            "twenty renewals",
        )
        assert two.fleet.clash and "another board uses the table name" in two.fleet.status()["problem"]
    finally:
        two.close()
        one.close()
