"""A real MQTT broker on loopback for the fleet tests: amqtt (the dev extra) in a process of its
own, so that a test can stop it, start it again on the same port, or make it refuse logins;
and a subscriber that collects what the boards publish."""

from __future__ import annotations

import signal
import socket
import subprocess
import sys
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

WAIT_S = 30.0  # how long to wait for something that should happen (generous: a shared, slow box)


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


class Broker:
    """`amqtt -c config.yaml` on 127.0.0.1:port; `users` ({name: password}) makes it refuse
    anyone else (and anonymous clients)."""

    def __init__(self, folder: Path, users: dict[str, str] | None = None) -> None:
        self.folder = folder
        self.port = free_port()
        self.process: subprocess.Popen[bytes] | None = None
        self.config = folder / "broker.yaml"
        if users:
            from pwdlib import PasswordHash
            from pwdlib.hashers.argon2 import Argon2Hasher

            hasher = PasswordHash((Argon2Hasher(),))
            passwords = folder / "broker-passwords"
            passwords.write_text("".join(f"{u}:{hasher.hash(p)}\n" for u, p in users.items()))
            auth = f"  amqtt.plugins.authentication.FileAuthPlugin:\n    password_file: {passwords}\n"
        else:
            auth = "  amqtt.plugins.authentication.AnonymousAuthPlugin:\n    allow_anonymous: true\n"
        self.config.write_text(
            f"listeners:\n  default:\n    type: tcp\n    bind: 127.0.0.1:{self.port}\nplugins:\n{auth}"
        )

    def start(self) -> Broker:
        log = (self.folder / "broker.log").open("ab")
        script = "from amqtt.scripts.broker_script import main; main()"
        self.process = subprocess.Popen([sys.executable, "-c", script, "-c", str(self.config)], stdout=log, stderr=log)
        wait_for(self._accepting, f"the broker on port {self.port} to accept connections")
        return self

    def _accepting(self) -> bool:
        if self.process is not None and self.process.poll() is not None:
            raise RuntimeError(f"the broker exited: {(self.folder / 'broker.log').read_text()[-2000:]}")
        try:
            with socket.create_connection(("127.0.0.1", self.port), timeout=1):
                return True
        except OSError:
            return False

    def stop(self) -> None:
        if self.process is None:
            return
        self.process.send_signal(signal.SIGKILL)  # gone at once, as a crashed or unplugged broker
        self.process.wait(timeout=WAIT_S)
        self.process = None


def wait_for(condition: Callable[[], Any], what: str, timeout: float = WAIT_S) -> Any:
    """Poll `condition` until it is true; a clear failure naming `what` if it never is."""
    deadline = time.monotonic() + timeout
    while True:
        value = condition()
        if value:
            return value
        if time.monotonic() > deadline:
            raise AssertionError(f"gave up waiting for {what}")
        time.sleep(0.05)


@dataclass
class Message:
    topic: str
    payload: bytes
    retain: bool

    @property
    def text(self) -> str:
        return self.payload.decode()


class Subscriber:
    """A paho client subscribed to `topics`, keeping every message it receives."""

    def __init__(
        self, broker: Broker, topics: tuple[str, ...] = ("#",), username: str | None = None, password: str | None = None
    ) -> None:
        import paho.mqtt.client as mqtt

        self.messages: list[Message] = []
        self.lock = threading.Lock()
        self.ready = threading.Event()
        self.client = mqtt.Client(mqtt.CallbackAPIVersion.VERSION2)
        if username is not None:
            self.client.username_pw_set(username, password)

        def on_connect(client: Any, userdata: Any, flags: Any, reason: Any, properties: Any) -> None:
            for topic in topics:
                client.subscribe(topic, qos=1)
            self.ready.set()

        def on_message(client: Any, userdata: Any, message: Any) -> None:
            with self.lock:
                self.messages.append(Message(message.topic, bytes(message.payload), bool(message.retain)))

        self.client.on_connect = on_connect
        self.client.on_message = on_message
        self.client.connect("127.0.0.1", broker.port)
        self.client.loop_start()
        wait_for(self.ready.is_set, "the subscriber to connect")

    def on(self, topic: str) -> list[Message]:
        with self.lock:
            return [m for m in self.messages if m.topic == topic]

    def close(self) -> None:
        self.client.disconnect()
        self.client.loop_stop()


def board_file(folder: Path, fleet: str) -> Path:
    """The shipped board description with a `[fleet]` section added."""
    from firmware.hardware.config import default_board_path

    path = folder / "board.toml"
    path.write_text(default_board_path().read_text() + "\n[fleet]\n" + fleet)
    return path
