"""`xtraboard fleet --broker HOST`: every table's live state in the terminal, read from the
café's MQTT broker (what the boards publish: docs/fleet.md).

    xtraboard fleet --broker mqtt.cafe.lan                   # live; Ctrl-C to stop
    xtraboard fleet --broker mqtt.cafe.lan --once 2          # what is known after 2 s, then exit

It only subscribes: nothing is sent to the boards.
"""

from __future__ import annotations

import argparse
import json
import sys
import threading
import time
from pathlib import Path
from typing import Any, TextIO
from firmware.i18n import _

PROG = "xtraboard fleet"
CONNECT_TIMEOUT_S = 10.0


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--broker", required=True, metavar="HOST", help=_("the MQTT broker's host name or address"))
    parser.add_argument("--port", type=int, default=None, metavar="N", help=_("its port (default 1883, 8883 with --tls)"))
    parser.add_argument("--tls", action="store_true", help=_("connect with TLS"))
    parser.add_argument("--ca-file", type=Path, default=None, metavar="FILE", help=_("TLS: the broker's CA (default: the system's)"))
    parser.add_argument("--username", default=None, metavar="USER", help=_("log in as USER"))
    parser.add_argument("--password-file", type=Path, default=None, metavar="FILE", help=_("the password, from a file"))
    parser.add_argument("--prefix", default="xtraboard", metavar="TOPIC", help=_("the boards' topic prefix (default xtraboard)"))
    parser.add_argument("--once", type=float, default=None, metavar="SECONDS",
                        help=_("print the tables once after SECONDS and exit (default: live until Ctrl-C)"))


class Fleet:
    """What the broker says about each table: availability, state, last result."""

    def __init__(self, prefix: str) -> None:
        self.prefix = prefix
        self.tables: dict[str, dict[str, Any]] = {}
        self.changed = threading.Event()
        self.lock = threading.Lock()

    def message(self, topic: str, payload: bytes) -> None:
        parts = topic.split("/")
        if len(parts) != 3 or parts[0] != self.prefix or parts[2] not in ("availability", "state", "result"):
            return
        try:
            text = payload.decode("utf-8")
            value: Any = text if parts[2] == "availability" else json.loads(text) if text else None
        except (UnicodeDecodeError, ValueError):
            return  # not one of ours: ignore it rather than stop the view
        with self.lock:
            self.tables.setdefault(parts[1], {})[parts[2]] = value
        self.changed.set()

    def lines(self) -> list[str]:
        """The table of tables, one line each."""
        rows = [("TABLE", "STATUS", "GAME", "ROUND", "PLAYERS", "LAST RESULT")]
        with self.lock:
            for name in sorted(self.tables):
                rows.append(row_of(name, self.tables[name]))
        if len(rows) == 1:
            return ["no tables have reported yet"]
        widths = [max(len(r[i]) for r in rows) for i in range(len(rows[0]) - 1)]
        return ["  ".join(cell.ljust(w) for cell, w in zip(r, widths)) + "  " + r[-1] for r in rows]


def row_of(name: str, table: dict[str, Any]) -> tuple[str, str, str, str, str, str]:
    """`table-3  playing  LEVEL X  2  Anna, Ben (turn: Ben)  Marie won EXTRA!`."""
    state = _table_or_empty(table.get("state"))
    status = str(state.get("status", "?"))
    if table.get("availability") == "offline":
        status = "offline"
    players = ", ".join(str(p.get("name")) + (" (bot)" if p.get("bot") else "")
                        for p in state.get("players") or [] if isinstance(p, dict))
    if state.get("turn") and status == "playing":
        players += f"; turn: {state['turn']}"
    result = _table_or_empty(table.get("result"))
    last = str(result.get("summary", "-"))
    if result.get("time"):
        last += f" ({result['time']})"
    game = str(state.get("title") or "-")
    if state.get("mode") == "demo":
        game += " demo"
    round_ = state.get("round")
    return (name, status, game, "-" if round_ is None else str(round_), players or "-", last)


def _table_or_empty(value: Any) -> dict[str, Any]:
    """A reported JSON object, or {} for anything else (a table's report is not trusted)."""
    return value if isinstance(value, dict) else {}


def run(args: argparse.Namespace) -> int:
    import paho.mqtt.client as mqtt

    fleet = Fleet(args.prefix)
    connected = threading.Event()
    refused: list[str] = []
    client = mqtt.Client(mqtt.CallbackAPIVersion.VERSION2, client_id="", clean_session=True)
    if args.username is not None:
        password = None
        if args.password_file is not None:
            try:
                password = args.password_file.read_text(encoding="utf-8").strip()
            except (OSError, UnicodeDecodeError) as exc:
                print(f"{PROG}: " + _("cannot read the password file {file}: {error}").format(
                    file=args.password_file, error=exc), file=sys.stderr)
                return 1
        client.username_pw_set(args.username, password)
    if args.tls:
        client.tls_set(ca_certs=str(args.ca_file) if args.ca_file else None)

    def on_connect(client: Any, userdata: Any, flags: Any, reason: Any, properties: Any) -> None:
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
        print(f"{PROG}: " + _("cannot reach the broker {host}:{port}: {error}").format(
            host=args.broker, port=port, error=exc), file=sys.stderr)
        return 1
    client.loop_start()
    try:
        if not connected.wait(CONNECT_TIMEOUT_S) or refused:
            why = (_("the broker {host}:{port} refused the connection: {reason}") if refused
                   else _("the broker {host}:{port} did not answer"))
            print(f"{PROG}: " + why.format(host=args.broker, port=port, reason=refused[0] if refused else ""),
                  file=sys.stderr)
            return 1
        if args.once is not None:
            time.sleep(max(0.0, args.once))
            sys.stdout.write("\n".join(fleet.lines()) + "\n")
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
    text = "\n".join(fleet.lines()) + "\n"
    out.write("\x1b[H\x1b[2J" + text if clear else text + "\n")
    out.flush()
