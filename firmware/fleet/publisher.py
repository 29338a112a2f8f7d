"""The board's MQTT client, on threads of its own: the loop hands it states and results and
never waits on the network (docs/fleet.md).

    publisher = FleetPublisher(config.fleet, model=config.name)
    publisher.start()
    publisher.update(state)           # O(1): keeps the newest state, wakes the worker
    publisher.close()                 # "offline", then disconnect

Topics under `<topic_prefix>/<table>/`: `availability` ("online", and "offline" as the last
will and on close), `state` and `result` (JSON), all retained; Home Assistant discovery under
`<discovery_prefix>/sensor/xtraboard_<table>/<sensor>/config`, retained, re-sent on every
connection. A broker that is down, slow or refusing the login is logged once per change and
counted in `status()` (for the audit); the board plays on, and paho reconnects by itself.
"""

from __future__ import annotations

import hashlib
import json
import logging
import secrets
import socket
import ssl
import sys
import threading
import time
from collections import deque
from pathlib import Path
from typing import TYPE_CHECKING

from firmware import __version__
from firmware.errors import N_, Text
from firmware.input_files import NotRegularFile, TooLarge, read_regular_file

if TYPE_CHECKING:
    import paho.mqtt.client as mqtt
    from paho.mqtt.properties import Properties
    from paho.mqtt.reasoncodes import ReasonCode

    from firmware.fleet.report import ResultMessage, TableState
    from firmware.hardware.config import FleetConfig

log = logging.getLogger("xtraboard.fleet")
OUTBOX = 64  # results kept while the broker is away; the oldest go first (and are counted)
KEEPALIVE_S = 30
RECONNECT_S = (1, 30)  # paho's reconnect delay, doubling from the first to the second
CLOSE_WAIT_S = 1.0  # how long closing waits for "offline" to leave
CLAIM_S = 60.0  # the board renews its claim on the table name this often (retained)
CLAIM_MISSED = 3  # another board's claim not heard for this many renewals has expired


class FleetPublisher:
    def __init__(
        self,
        config: FleetConfig,
        *,
        model: str = "xtraboard",
        outbox: int = OUTBOX,
        reconnect_s: tuple[int, int] | None = None,
        owner: str | None = None,
        claim_s: float | None = None,
    ) -> None:
        self.config = config
        self.model = model
        base = f"{config.topic_prefix}/{config.table}"
        self.topics = {
            "availability": f"{base}/availability",
            "state": f"{base}/state",
            "result": f"{base}/result",
            "owner": f"{base}/owner",
        }
        # Which board holds the table name: the board claims it with its own id (retained; the same
        # after a restart, see board_identity). Another board's claim is another board with the same
        # name (they knock each other off the broker: both use the client id xtraboard-<table>).
        self._owner = owner or secrets.token_hex(8)
        self._retained: dict[str, bytes | None] = {"owner": None, "availability": None}
        self.clash = False
        # A claim lasts: the other board renews it every claim_s, and a clash not seen again for
        # CLAIM_MISSED renewals is over (a single spoofed message does not warn for ever).
        self._claim_s = claim_s or CLAIM_S
        self._next_claim = 0.0
        self._clash_seen = 0.0  # time.monotonic() of the latest sign of another board
        self._reconnect_s = reconnect_s or RECONNECT_S
        self._wake = threading.Condition()
        self._state: TableState | None = None  # the newest state, not yet sent
        self._last_state: TableState | None = None  # the newest state handed over (resent on connect)
        self._last_result_key: str | None = None
        self._results: deque[ResultMessage] = deque()
        self._outbox = outbox
        self._connected = False
        self._announce = False  # send discovery, "online" and the state on the next wake
        self._stopping = False
        self.problem: str | None = None
        self.counters = {"connects": 0, "refused": 0, "unreachable": 0, "disconnects": 0, "published": 0, "dropped": 0}
        self._client: mqtt.Client | None = None
        self._thread = threading.Thread(target=self._run, name="xtraboard-fleet", daemon=True)

    # --- the loop's side: never blocks on the network ------------------------------------------
    def start(self) -> None:
        self._thread.start()

    def update(self, state: TableState) -> None:
        """Hand over the table's state (table_state()); a finished game's result, seen for the
        first time, is queued for the `result` topic."""
        with self._wake:
            if state == self._last_state:
                return
            self._last_state = state
            self._state = state
            result = state.get("result")
            key = None if result is None else json.dumps(result, sort_keys=True)
            if result is not None and key != self._last_result_key:
                if len(self._results) >= self._outbox:
                    self._results.popleft()
                    self.counters["dropped"] += 1
                self._results.append(result)
            self._last_result_key = key if key is not None else self._last_result_key
            self._wake.notify()

    def status(self) -> dict[str, object]:
        """For the audit: connected or not, the problem now (if any) and the counters."""
        with self._wake:
            return {"connected": self._connected, "problem": self.problem, **self.counters}

    def close(self) -> None:
        """Say "offline" (retained), disconnect, stop the threads."""
        with self._wake:
            self._stopping = True
            self._wake.notify()
        self._thread.join(timeout=CLOSE_WAIT_S + 2)

    # --- the worker thread ------------------------------------------------------------------------
    def _run(self) -> None:
        try:
            client = self._make_client()
        except (OSError, ValueError) as exc:
            self._trouble(f"fleet off: {exc}")
            return
        self._client = client
        client.connect_async(self.config.broker, self.config.port, keepalive=KEEPALIVE_S)
        client.loop_start()
        try:
            while True:
                with self._wake:
                    renew = False
                    while not self._stopping:
                        self._expire_clash()
                        renew = self._connected and time.monotonic() >= self._next_claim
                        if self._connected and (renew or self._announce or self._state is not None or self._results):
                            break
                        self._wake.wait(self._claim_s / 4)
                    if self._stopping:
                        break
                    announce, self._announce = self._announce, False
                    if announce or renew:
                        self._next_claim = time.monotonic() + self._claim_s
                    state, self._state = self._state, None
                    results, self._results = list(self._results), deque()
                if announce or renew:
                    self._publish(self.topics["owner"], self._owner)
                if announce:
                    self._send_discovery()
                    self._publish(self.topics["availability"], "online")
                    state = state or self._last_state
                if state is not None:  # its time says how recent it is (the café's view keeps the newest)
                    self._publish(self.topics["state"], json.dumps(state | {"time": _now()}))
                for result in results:
                    self._publish(self.topics["result"], json.dumps(result | {"time": _now()}))
        finally:
            if self._connected:
                info = client.publish(self.topics["availability"], "offline", qos=1, retain=True)
                try:
                    info.wait_for_publish(CLOSE_WAIT_S)
                except (RuntimeError, ValueError):
                    pass  # not sent: the broker keeps the last will for a vanished board anyway
            client.disconnect()
            client.loop_stop()

    def _expire_clash(self) -> None:
        """The other board's claim not heard for CLAIM_MISSED renewals: the name is ours again
        (self._wake held)."""
        if not self.clash or time.monotonic() - self._clash_seen < self._claim_s * CLAIM_MISSED:
            return
        self.clash = False
        if self.problem is not None and self.problem.startswith("fleet: another board uses the table name"):
            self.problem = None
        log.info(
            "fleet: no other board has claimed the table name %s for %.0f s; the warning is withdrawn",
            self.config.table,
            self._claim_s * CLAIM_MISSED,
        )

    def _make_client(self) -> mqtt.Client:
        import paho.mqtt.client as mqtt
        from paho.mqtt.enums import CallbackAPIVersion

        config = self.config
        client = mqtt.Client(CallbackAPIVersion.VERSION2, client_id=f"xtraboard-{config.table}", clean_session=True)
        client.will_set(self.topics["availability"], "offline", qos=1, retain=True)
        if config.username is not None:
            password = None
            if config.password_file is not None:
                try:
                    password = read_password_file(config.password_file)
                except ValueError as exc:
                    raise ValueError(f"cannot read the password file {config.password_file}: {exc}") from exc
            client.username_pw_set(config.username, password)
        if config.tls:
            client.tls_set(ca_certs=str(config.ca_file) if config.ca_file is not None else None)
        client.reconnect_delay_set(*self._reconnect_s)
        client.max_queued_messages_set(self._outbox)
        client.on_connect = self._on_connect
        client.on_connect_fail = self._on_connect_fail
        client.on_message = self._on_message
        client.on_disconnect = self._on_disconnect
        return client

    def _publish(self, topic: str, payload: str) -> None:
        client = self._client
        assert client is not None  # `_run` made it before anything is published
        info = client.publish(topic, payload, qos=1, retain=True)
        with self._wake:
            self.counters["published" if info.rc == 0 else "dropped"] += 1

    def _send_discovery(self) -> None:
        for topic, payload in discovery_configs(self.config, self.topics, self.model).items():
            self._publish(topic, json.dumps(payload))

    # --- paho's callbacks (its network thread) ---------------------------------------------------
    def _on_connect(
        self,
        client: mqtt.Client,
        userdata: object,
        flags: mqtt.ConnectFlags,
        reason: ReasonCode,
        properties: Properties | None,
    ) -> None:
        if reason.is_failure:
            with self._wake:
                self.counters["refused"] += 1
            self._trouble(
                Text(
                    N_("fleet: broker {broker} refused the connection: {reason}"),
                    broker=self._where(),
                    reason=str(reason),
                )
            )
            return
        with self._wake:
            self._retained = {"owner": None, "availability": None}  # what the broker kept, as found now
        client.subscribe([(self.topics["owner"], 1), (self.topics["availability"], 1)])
        with self._wake:
            self._connected = True
            self._announce = True
            self.counters["connects"] += 1
            had = self.problem
            self.problem = self.problem if self.clash else None  # a name clash outlives the reconnect it causes
            self._wake.notify()
        if had and not self.clash:
            log.info("fleet: connected to %s:%d again", self.config.broker, self.config.port)

    def _on_message(self, client: mqtt.Client, userdata: object, message: mqtt.MQTTMessage) -> None:
        """The table name's owner: ours, or another board's (see `_owner`). Another board's claim
        arriving live is a clash; so is one the broker kept, if that board is online (a claim left
        by this board's last run is "offline" by its last will) or if this board had connected
        before (someone claimed the name while it was away)."""
        kind = "owner" if message.topic == self.topics["owner"] else "availability"
        payload = bytes(message.payload)
        with self._wake:
            if message.retain or (kind == "owner" and payload == self._owner.encode()):
                self._retained[kind] = payload  # our own claim, heard back, is what the broker keeps now
            theirs = self._retained["owner"] not in (None, b"", self._owner.encode())
            clash = (kind == "owner" and not message.retain and payload not in (b"", self._owner.encode())) or (
                theirs and (self._retained["availability"] == b"online" or self.counters["connects"] > 1)
            )
        if not clash:
            return
        with self._wake:
            already, self.clash = self.clash, True
            self._clash_seen = time.monotonic()
            if not already:
                self._announce = True  # claim it back once, so the other board hears of us too
                self._wake.notify()
        self._trouble(
            Text(
                N_(
                    "fleet: another board uses the table name {table} on broker {broker}; give each "
                    "board a [fleet] table of its own"
                ),
                table=self.config.table,
                broker=self._where(),
            )
        )

    def _on_connect_fail(self, client: mqtt.Client, userdata: object) -> None:
        error = sys.exc_info()[1]  # paho calls this while it handles the connection's OSError
        with self._wake:
            self.counters["unreachable"] += 1
        self._trouble(self._connect_problem(error))

    def _connect_problem(self, error: BaseException | None) -> Text:
        """Why the connection failed, as the operator can act on it: a TLS certificate the board
        does not trust, TLS to a port that does not speak it, or a broker not reached at all."""
        log.debug("fleet: connecting to %s failed: %r", self._where(), error)
        if isinstance(error, ssl.SSLCertVerificationError):
            return Text(
                N_("fleet: broker {broker}: its TLS certificate is not trusted ({reason}); check ca_file"),
                broker=self._where(),
                reason=error.verify_message or error.reason or str(error),
            )
        # A plain MQTT port answers a TLS hello with nonsense, by hanging up, or (waiting for its
        # CONNECT) with nothing until the handshake times out.
        handshake_timeout = isinstance(error, TimeoutError) and "handshake" in str(error)
        if self.config.tls and (
            handshake_timeout or isinstance(error, (ssl.SSLError, ConnectionResetError, BrokenPipeError))
        ):
            reason = (
                "handshake timed out"
                if handshake_timeout
                # an SSLError's `reason`, else an OSError's `strerror`: either may be unset
                else (getattr(error, "reason", None) or getattr(error, "strerror", None) or type(error).__name__)
            )
            return Text(
                N_(
                    "fleet: broker {broker} does not answer TLS ({reason}); is it a plain MQTT port? check tls and port"
                ),
                broker=self._where(),
                reason=reason,
            )
        return Text(N_("fleet: broker {broker} cannot be reached"), broker=self._where())

    def _on_disconnect(
        self,
        client: mqtt.Client,
        userdata: object,
        flags: mqtt.DisconnectFlags,
        reason: ReasonCode,
        properties: Properties | None,
    ) -> None:
        with self._wake:
            was = self._connected
            self._connected = False
            if was:
                self.counters["disconnects"] += 1
        if was and not self._stopping and not self.clash:
            self._trouble(
                Text(N_("fleet: lost the broker {broker} ({reason})"), broker=self._where(), reason=str(reason))
            )

    def _where(self) -> str:
        return f"{self.config.broker}:{self.config.port}"

    def _trouble(self, problem: str) -> None:
        """Log a problem once (a broker down for a week is one line, not thousands)."""
        with self._wake:
            if problem == self.problem:
                return
            self.problem = problem
        log.warning("%s", problem)


def board_identity(board_file: Path | str) -> str:
    """This board's id in the table name's claim: the machine's (systemd's machine-id, else the
    host name) with its board description's path, so a restart claims the name as itself."""
    machine = ""
    for source in ("/etc/machine-id", "/var/lib/dbus/machine-id"):
        try:
            machine = Path(source).read_text(encoding="ascii").strip()
            break
        except (OSError, UnicodeDecodeError):
            continue
    machine = machine or socket.gethostname()
    return hashlib.sha256(f"{machine}\0{board_file}".encode()).hexdigest()[:16]


# (key, name, topic, value template): the sensors Home Assistant shows for each table.
SENSORS = (
    ("status", "Status", "state", "{{ value_json.status }}"),
    ("game", "Game", "state", "{{ value_json.title or 'none' }}"),
    ("round", "Round", "state", "{{ value_json.round if value_json.round is not none else '' }}"),
    ("players", "Players", "state", "{{ value_json.players | map(attribute='name') | join(', ') }}"),
    ("turn", "Turn", "state", "{{ value_json.turn or '' }}"),
    ("last_result", "Last result", "result", "{{ value_json.summary }}"),
)


def discovery_configs(config: FleetConfig, topics: dict[str, str], model: str) -> dict[str, dict[str, object]]:
    """Home Assistant MQTT discovery: one sensor config per SENSORS entry, all sharing one
    device block (the table, with the firmware's version), retained by the broker.

    >>> from firmware.hardware.config import FleetConfig
    >>> configs = discovery_configs(FleetConfig("table-3", "broker"), {"availability": "a", "state": "s",
    ...                             "result": "r"}, "xtraboard default build")
    >>> sorted(configs)[0]
    'homeassistant/sensor/xtraboard_table-3/game/config'
    """
    node = f"xtraboard_{config.table}"
    device = {
        "identifiers": [node],
        "name": f"xtraboard {config.table}",
        "manufacturer": "xtraboard",
        "model": model,
        "sw_version": __version__,
    }
    configs: dict[str, dict[str, object]] = {}
    for key, name, topic, template in SENSORS:
        configs[f"{config.discovery_prefix}/sensor/{node}/{key}/config"] = {
            "name": name,
            "unique_id": f"{node}_{key}",
            "state_topic": topics[topic],
            "value_template": template,
            "json_attributes_topic": topics[topic],
            "availability_topic": topics["availability"],
            "payload_available": "online",
            "payload_not_available": "offline",
            "device": device,
            "origin": {"name": "xtraboard", "sw_version": __version__},
        }
    return configs


def _now() -> str:
    return time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime())


MAX_PASSWORD_BYTES = 65_535  # MQTT's own limit for a password


def read_password_file(path: Path) -> str:
    """The broker password kept in `path` (the board's `password_file`, `fleet --password-file`),
    its line end stripped: a regular file of UTF-8, at most MAX_PASSWORD_BYTES (a FIFO would
    block the connection for ever, /dev/zero never ends). ValueError saying why not."""
    try:
        return read_regular_file(path, MAX_PASSWORD_BYTES).decode("utf-8").strip()
    except NotRegularFile as exc:
        raise ValueError(f"not a regular file ({exc.kind})") from None
    except TooLarge:
        raise ValueError(f"larger than {MAX_PASSWORD_BYTES} bytes, more than a password") from None
    except OSError as exc:
        raise ValueError(exc.strerror or str(exc)) from exc
    except UnicodeDecodeError as exc:
        raise ValueError(str(exc)) from exc
