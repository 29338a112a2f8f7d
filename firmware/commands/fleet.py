"""`xtraboard fleet --broker HOST`: every table's live state in the terminal, read from the
café's MQTT broker (what the boards publish: docs/fleet.md).

    xtraboard fleet --broker mqtt.cafe.lan                   # live; Ctrl-C to stop
    xtraboard fleet --broker mqtt.cafe.lan --once 2          # what is known after 2 s, then exit

It only subscribes: nothing is sent to the boards.
"""

from __future__ import annotations

import argparse
import calendar
import hashlib
import json
import sys
import threading
import time
import unicodedata
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, TextIO, TypedDict, TypeVar

from firmware.i18n import _

if TYPE_CHECKING:
    import paho.mqtt.client as mqtt
    from paho.mqtt.properties import Properties
    from paho.mqtt.reasoncodes import ReasonCode

PROG = "xtraboard fleet"
CONNECT_TIMEOUT_S = 10.0


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--broker", required=True, metavar="HOST", help=_("the MQTT broker's host name or address"))
    parser.add_argument(
        "--port", type=int, default=None, metavar="N", help=_("its port (default 1883, 8883 with --tls)")
    )
    parser.add_argument("--tls", action="store_true", help=_("connect with TLS"))
    parser.add_argument(
        "--ca-file", type=Path, default=None, metavar="FILE", help=_("TLS: the broker's CA (default: the system's)")
    )
    parser.add_argument("--username", default=None, metavar="USER", help=_("log in as USER"))
    parser.add_argument("--password-file", type=Path, default=None, metavar="FILE", help=_("the password, from a file"))
    parser.add_argument(
        "--prefix", default="xtraboard", metavar="TOPIC", help=_("the boards' topic prefix (default xtraboard)")
    )
    parser.add_argument(
        "--once",
        type=float,
        default=None,
        metavar="SECONDS",
        help=_("print the tables once after SECONDS and exit (default: live until Ctrl-C)"),
    )


MAX_PAYLOAD = 16 * 1024  # a board's state is a few hundred bytes; anything much bigger is not one
MAX_TEXT = 40  # characters of a name, title or turn shown
MAX_PLAYERS = 12
MAX_PLAYERS_TEXT = 80  # characters of the players column (a dozen long names would fill a screen)
MAX_ROUND = 99_999  # a game's rounds (EXTRA! counts rolls) are a few hundred at most
MAX_TABLES = 500  # the view keeps the tables seen most recently; the others are counted
MAX_LEFT_OUT = 100_000  # left-out tables counted one by one; beyond, "more than"
MAX_NOTES = 20
TIME_FORMAT = "%Y-%m-%dT%H:%M:%SZ"  # the boards' `time` (UTC)


class Skipped(ValueError):
    """A message the view cannot show: the text says why, in a few words."""


# What the view keeps of each message, checked and cleaned (`checked_state`, `checked_result`).
class KeptPlayer(TypedDict):
    name: str
    bot: bool


class KeptState(TypedDict):
    status: str
    title: str
    mode: str
    round: int | None
    players: list[KeptPlayer]
    turn: str
    time: str


class KeptResult(TypedDict):
    summary: str
    time: str


@dataclass
class TableView:
    """A table's newest messages, as kept (None: none yet, or a retained one cleared)."""

    availability: str | None = None
    state: KeptState | None = None
    result: KeptResult | None = None


_T = TypeVar("_T")


class Fleet:
    """What the broker says about each table: availability, state, last result. Anyone may
    publish on the broker, so every message is checked (size, shape, depth, types) and only
    what fits is kept, its text cleaned of control characters; the rest is skipped with a note."""

    def __init__(self, prefix: str, max_tables: int = MAX_TABLES) -> None:
        self.prefix = prefix
        self.max_tables = max_tables
        self.tables: dict[str, TableView] = {}
        # When each table was last seen: (the newest `time` its messages gave, never later than
        # now; the order its last message arrived in). Beyond max_tables the least recent goes.
        self.seen: dict[str, tuple[float, int]] = {}
        self.arrivals = 0
        self.left_out: set[bytes] = set()  # digests of the tables not kept (bounded: MAX_LEFT_OUT)
        self.left_out_overflow = False
        self.notes: list[str] = []  # one line per skipped message (the newest MAX_NOTES)
        self.changed = threading.Event()
        self.lock = threading.Lock()

    def message(self, topic: str, payload: bytes) -> None:
        """One message from the broker (paho's network thread): never raises, so a hostile
        message cannot stop the view."""
        parts = topic.split("/")
        if len(parts) != 3 or parts[0] != self.prefix or parts[2] not in ("availability", "state", "result"):
            return
        kind = parts[2]
        try:
            table = plain_text(parts[1])
            text = payload_text(payload)
            availability = parse_availability(text) if kind == "availability" else None
            value = None if kind == "availability" else parse_object(kind, text)
            state = checked_state(value) if kind == "state" and value is not None else None
            result = checked_result(value) if kind == "result" and value is not None else None
        except Skipped as exc:
            self.note(f"{plain_text(topic, 80)}: skipped: {exc}")
            return
        except Exception as exc:  # noqa: BLE001  # whatever else a payload provokes: skipped, not fatal
            self.note(f"{plain_text(topic, 80)}: skipped: {type(exc).__name__}")
            return
        with self.lock:
            self.arrivals += 1
            stamp = max(self.seen.get(table, (0.0, 0))[0], message_time(state or result))
            seen = (stamp, self.arrivals)
            if table not in self.tables and len(self.tables) >= self.max_tables:
                oldest = min(self.seen, key=self.seen.__getitem__)
                if self.seen[oldest] > seen:
                    self._leave_out(table)
                    return
                del self.tables[oldest], self.seen[oldest]
                self._leave_out(oldest)
            self.left_out.discard(_digest(table))
            self.seen[table] = seen
            view = self.tables.setdefault(table, TableView())
            if kind == "availability":
                view.availability = availability
            elif kind == "state":
                view.state = state
            else:
                view.result = result
        self.changed.set()

    def _leave_out(self, table: str) -> None:
        """Count a table not kept (self.lock held): each one once, up to MAX_LEFT_OUT of them."""
        if len(self.left_out) < MAX_LEFT_OUT:
            self.left_out.add(_digest(table))
        else:
            self.left_out_overflow = True

    def note(self, line: str) -> None:
        with self.lock:
            if line not in self.notes:
                self.notes = (self.notes + [line])[-MAX_NOTES:]
        self.changed.set()

    def lines(self) -> list[str]:
        """The table of tables, one line each."""
        rows = [("TABLE", "STATUS", "GAME", "ROUND", "PLAYERS", "LAST RESULT")]
        with self.lock:
            for name in sorted(self.tables):
                rows.append(row_of(name, self.tables[name]))
            left_out, overflow = len(self.left_out), self.left_out_overflow
        if len(rows) == 1:
            return ["no tables have reported yet"]
        widths = [max(len(r[i]) for r in rows) for i in range(len(rows[0]) - 1)]
        lines = ["  ".join(cell.ljust(w) for cell, w in zip(r, widths)) + "  " + r[-1] for r in rows]
        if left_out:
            lines.append(
                f"{'more than ' if overflow else ''}{left_out} tables left out: "
                f"the view keeps the {self.max_tables} seen most recently"
            )
        return lines

    def skipped(self) -> list[str]:
        """The notes on messages skipped, oldest first."""
        with self.lock:
            return list(self.notes)


def plain_text(value: object, limit: int = MAX_TEXT) -> str:
    """`value` as one line a terminal shows as it is: control characters (escape sequences,
    bidi overrides, line breaks) dropped, at most `limit` characters."""
    text = "".join(c for c in str(value) if unicodedata.category(c)[0] != "C")
    return text if len(text) <= limit else text[: limit - 1] + "…"


def _digest(table: str) -> bytes:
    return hashlib.blake2b(table.encode("utf-8", "surrogatepass"), digest_size=8).digest()


def message_time(value: KeptState | KeptResult | None) -> float:
    """When a checked state or result says it was sent (seconds since the epoch, never later
    than now: a message from the future is not newer than the present), 0 if it does not say."""
    stamp = value["time"] if value is not None else None
    if not stamp:
        return 0.0
    try:
        sent = calendar.timegm(time.strptime(stamp, TIME_FORMAT))
    except (ValueError, OverflowError):
        return 0.0
    return float(min(sent, time.time()))


def payload_text(payload: bytes) -> str:
    """A message's payload as text, or Skipped saying why not."""
    if len(payload) > MAX_PAYLOAD:
        raise Skipped(f"{len(payload)} bytes, more than {MAX_PAYLOAD}")
    try:
        return payload.decode("utf-8")
    except UnicodeDecodeError:
        raise Skipped("not UTF-8 text") from None


def parse_availability(text: str) -> str:
    if text not in ("online", "offline"):
        raise Skipped("availability is neither online nor offline")
    return text


def parse_object(kind: str, text: str) -> dict[str, object] | None:
    """A state's or result's JSON object (not yet checked), None for a cleared retained message;
    Skipped saying why not."""
    if not text:
        return None  # a cleared retained message
    if depth(text) > 4:
        raise Skipped("nested too deeply")
    try:
        value = json.loads(text)
    except (ValueError, RecursionError):
        raise Skipped("not JSON") from None
    if not isinstance(value, dict):
        raise Skipped(f"{kind} is not a JSON object")
    return value


def depth(text: str) -> int:
    """How deeply the JSON in `text` nests (brackets inside strings not counted), found without
    parsing it, so a 100,000-deep array costs one pass and no recursion."""
    deepest = level = 0
    quoted = escaped = False
    for c in text:
        if quoted:
            escaped, quoted = (False, True) if escaped else (c == "\\", c != '"')
        elif c == '"':
            quoted = True
        elif c in "[{":
            level += 1
            deepest = max(deepest, level)
        elif c in "]}":
            level -= 1
    return deepest


def _field(value: dict[str, object], key: str, types: tuple[type[_T], ...]) -> _T | None:
    item = value.get(key)
    if item is None:
        return None
    if not isinstance(item, types) or isinstance(item, bool) and bool not in types:
        raise Skipped(f"{key} is not {' or '.join(t.__name__ for t in types)}")
    return item


def checked_state(value: dict[str, object]) -> KeptState:
    players: list[object] = _field(value, "players", (list,)) or []
    if len(players) > MAX_PLAYERS:
        raise Skipped(f"{len(players)} players, more than {MAX_PLAYERS}")
    kept: list[KeptPlayer] = []
    for player in players:
        if not isinstance(player, dict):
            raise Skipped("a player is not a JSON object")
        kept.append(
            {"name": plain_text(_field(player, "name", (str,)) or "?"), "bot": bool(_field(player, "bot", (str, bool)))}
        )
    round_ = _field(value, "round", (int,))
    if round_ is not None and not 0 <= round_ <= MAX_ROUND:
        raise Skipped(f"round is out of range (0 to {MAX_ROUND})")  # not the number: it may have 300 digits
    return {
        "status": plain_text(_field(value, "status", (str,)) or "?", 12),
        "title": plain_text(_field(value, "title", (str,)) or ""),
        "mode": plain_text(_field(value, "mode", (str,)) or "", 12),
        "round": round_,
        "players": kept,
        "turn": plain_text(_field(value, "turn", (str,)) or ""),
        "time": plain_text(_field(value, "time", (str,)) or "", 25),
    }


def checked_result(value: dict[str, object]) -> KeptResult:
    return {
        "summary": plain_text(_field(value, "summary", (str,)) or "-", 60),
        "time": plain_text(_field(value, "time", (str,)) or "", 25),
    }


def row_of(name: str, table: TableView) -> tuple[str, str, str, str, str, str]:
    """`table-3  playing  LEVEL X  2  Anna, Ben (turn: Ben)  Marie won EXTRA!` (from what
    `Fleet.message` kept: checked and cleaned)."""
    state = table.state
    status = state["status"] if state is not None else "?"
    if table.availability == "offline":
        status = "offline"
    players = ", ".join(p["name"] + (" (bot)" if p["bot"] else "") for p in (state["players"] if state else []))
    if state is not None and state["turn"] and status == "playing":
        players += f"; turn: {state['turn']}"
    result = table.result
    last = result["summary"] if result is not None else "-"
    if result is not None and result["time"]:
        last += f" ({result['time']})"
    game = str(state["title"] if state is not None and state["title"] else "-")
    if state is not None and state["mode"] == "demo":
        game += " demo"
    round_ = state["round"] if state is not None else None
    # Every cell bounded: a name 40 characters, the players 80, a round five digits, the result 88.
    return (
        name,
        status,
        game,
        "-" if round_ is None else str(round_),
        plain_text(players or "-", MAX_PLAYERS_TEXT),
        last,
    )


def run(args: argparse.Namespace) -> int:
    import paho.mqtt.client as mqtt
    from paho.mqtt.enums import CallbackAPIVersion

    fleet = Fleet(args.prefix)
    connected = threading.Event()
    refused: list[str] = []
    client = mqtt.Client(CallbackAPIVersion.VERSION2, client_id="", clean_session=True)
    if args.username is not None:
        password = None
        if args.password_file is not None:
            from firmware.fleet.publisher import read_password_file

            try:
                password = read_password_file(args.password_file)
            except ValueError as exc:
                print(
                    f"{PROG}: "
                    + _("cannot read the password file {file}: {error}").format(file=args.password_file, error=exc),
                    file=sys.stderr,
                )
                return 1
        client.username_pw_set(args.username, password)
    if args.tls:
        client.tls_set(ca_certs=str(args.ca_file) if args.ca_file else None)

    def on_connect(
        client: mqtt.Client,
        userdata: object,
        flags: mqtt.ConnectFlags,
        reason: ReasonCode,
        properties: Properties | None,
    ) -> None:
        if reason.is_failure:
            refused.append(str(reason))
        else:
            client.subscribe(f"{args.prefix}/+/+", qos=1)
        connected.set()

    client.on_connect = on_connect
    client.on_message = lambda client, userdata, message: fleet.message(message.topic, bytes(message.payload))
    port = args.port or (8883 if args.tls else 1883)
    try:
        client.connect(args.broker, port, keepalive=30)
    except (OSError, ValueError) as exc:
        print(
            f"{PROG}: "
            + _("cannot reach the broker {host}:{port}: {error}").format(host=args.broker, port=port, error=exc),
            file=sys.stderr,
        )
        return 1
    client.loop_start()
    try:
        if not connected.wait(CONNECT_TIMEOUT_S) or refused:
            why = (
                _("the broker {host}:{port} refused the connection: {reason}")
                if refused
                else _("the broker {host}:{port} did not answer")
            )
            print(
                f"{PROG}: " + why.format(host=args.broker, port=port, reason=refused[0] if refused else ""),
                file=sys.stderr,
            )
            return 1
        if args.once is not None:
            time.sleep(max(0.0, args.once))
            sys.stdout.write("\n".join(fleet.lines()) + "\n")
            for note in fleet.skipped():
                print(f"{PROG}: {note}", file=sys.stderr)
            return 0
        while True:  # live: redraw on every change, at most ten times a second
            fleet.changed.wait()
            fleet.changed.clear()
            show(fleet, sys.stdout, clear=sys.stdout.isatty())
            time.sleep(0.1)
    except KeyboardInterrupt:
        return 0
    finally:
        client.disconnect()
        client.loop_stop()


def show(fleet: Fleet, out: TextIO, clear: bool) -> None:
    """Redraw the screen (a terminal), or print the tables and a blank line (a pipe)."""
    text = "\n".join(fleet.lines() + fleet.skipped()) + "\n"
    out.write("\x1b[H\x1b[2J" + text if clear else text + "\n")
    out.flush()
