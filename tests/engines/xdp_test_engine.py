"""A small XDP engine for tests: plays the first legal decision, or misbehaves on request.

    python xdp_test_engine.py [--crash-at N] [--hang-at N] [--illegal-at N] [--garbage-at N]
                              [--endless-line-at N] [--flood-at N] [--chatter] [--deaf] [--stderr-mb N]
                              [--must-not-read PATH]... [--must-not-write PATH]...
                              [--must-not-connect PATH|HOST:PORT]... [--must-not-see-env NAME]...
                              [--hold-mb-at N --hold-mb MB]

N counts `go` commands from 1. It reads positions with the board's own record code, as a
third-party engine might use any rules implementation of its own. At `xdp` it tries to read
each --must-not-read path (a file or a folder) and to create a file in each --must-not-write
folder, and to write and read back a file in its own temporary folder: it says each outcome on
standard error and exits with code 4 if it could read or write what it must not (or could not
use its temporary folder); likewise for each --must-not-connect socket (a Unix socket's path
or a TCP address; it sends the debug service's `dice 6 6` when it connects) and each
--must-not-see-env variable in its environment, whose names it lists on standard error.
--hold-mb MB at the Nth `go` allocates MB megabytes and writes to each page, then plays on;
an allocation refused says so on standard error and exits with code 5. --chatter floods lines nobody asked for right after `readyok`;
--deaf reads nothing after `readyok`; --stderr-mb N writes N MB on standard error at `xdp`.
"""

from __future__ import annotations

import argparse
import json
import os
import socket
import sys
import tempfile
import time

from firmware.records import replay_record


def main() -> None:
    parser = argparse.ArgumentParser()
    for fault in ("crash", "hang", "illegal", "garbage", "endless-line", "flood"):
        parser.add_argument(f"--{fault}-at", type=int, default=0)
    parser.add_argument("--chatter", action="store_true")
    parser.add_argument("--deaf", action="store_true")
    parser.add_argument("--stderr-mb", type=int, default=0)
    parser.add_argument("--must-not-read", action="append", default=[])
    parser.add_argument("--must-not-write", action="append", default=[])
    parser.add_argument("--must-not-connect", action="append", default=[])
    parser.add_argument("--must-not-see-env", action="append", default=[])
    parser.add_argument("--hold-mb-at", type=int, default=0)
    parser.add_argument("--hold-mb", type=int, default=0)
    args = parser.parse_args()
    game, goes = None, 0
    held: list[bytearray] = []
    for line in sys.stdin:
        command, _, rest = line.strip().partition(" ")
        if command == "xdp":
            for _ in range(args.stderr_mb * 16):  # much more than a pipe holds: read, or it blocks
                sys.stderr.write("e" * 65535 + "\n")
            sys.stderr.write("the last words\n")
            sys.stderr.flush()
            if not (
                probe_env(args.must_not_see_env)
                & probe_sockets(args.must_not_connect)
                & probe(args.must_not_read, args.must_not_write)
            ):
                os._exit(4)
            print("id name test engine\nxdpok", flush=True)
        elif command == "isready":
            print("readyok", flush=True)
            if args.deaf:  # reads nothing more: the board's next lines fill the pipe
                time.sleep(3600)
            if args.chatter:
                while True:
                    print("info string nobody asked", flush=True)
        elif command == "position":
            game = replay_record(json.loads(rest))
        elif command == "go":
            goes += 1
            if goes == args.crash_at:
                os._exit(3)
            if goes == args.hold_mb_at:
                held.append(hold(args.hold_mb))
            if goes == args.hang_at:
                time.sleep(3600)
            if goes == args.endless_line_at:
                sys.stdout.write("info string ")
                while True:
                    sys.stdout.write("x" * 65536)
            if goes == args.flood_at:
                while True:
                    print("info string flood")
            if goes == args.garbage_at:
                print("bestmove {this is no json", flush=True)
                continue
            decisions = game.legal_decisions() if game is not None else []
            if goes == args.illegal_at or not decisions:
                print('info string playing something odd\nbestmove {"do": "nonsense"}', flush=True)
                continue
            print("bestmove " + json.dumps(decisions[0].to_json()), flush=True)
        elif command == "quit":
            return


def probe(unreadable: list[str], unwritable: list[str]) -> bool:
    """Try what the box must forbid (and the one folder it must allow); True when all is as it should be."""
    good = True
    for path in unreadable:
        try:
            if os.path.isdir(path):
                os.listdir(path)
            else:
                with open(path, "rb") as file:
                    file.read(1)
            print(f"READ {path}", file=sys.stderr, flush=True)
            good = False
        except OSError as exc:
            print(f"cannot read {path}: {exc.strerror}", file=sys.stderr, flush=True)
    for folder in unwritable:
        try:
            with open(os.path.join(folder, "engine-was-here"), "w") as file:
                file.write("x")
            print(f"WROTE in {folder}", file=sys.stderr, flush=True)
            good = False
        except OSError as exc:
            print(f"cannot write in {folder}: {exc.strerror}", file=sys.stderr, flush=True)
    try:
        own = os.path.join(tempfile.gettempdir(), "scratch")
        with open(own, "w") as file:
            file.write("mine")
        with open(own) as file:
            good = good and file.read() == "mine"
        print(f"wrote and read {own}", file=sys.stderr, flush=True)
    except OSError as exc:
        print(f"cannot use my temporary folder: {exc}", file=sys.stderr, flush=True)
        good = False
    return good


def probe_sockets(addresses: list[str]) -> bool:
    """Try to reach each socket (and roll the board's dice through it); True when none answered."""
    good = True
    for address in addresses:
        host, _, port = address.rpartition(":")
        unix = address.startswith("/")
        try:
            with socket.socket(socket.AF_UNIX if unix else socket.AF_INET) as sock:
                sock.settimeout(5)
                sock.connect(address if unix else (host, int(port)))
                good = False
                try:
                    sock.sendall(b"dice 6 6\n")
                    said = sock.recv(4096).decode(errors="replace").strip()
                except OSError as exc:
                    said = f"no answer ({exc})"
            print(f"CONNECTED to {address}: {said[:200]}", file=sys.stderr, flush=True)
        except OSError as exc:
            print(f"cannot connect to {address}: {exc.strerror or exc}", file=sys.stderr, flush=True)
    return good


def probe_env(names: list[str]) -> bool:
    """Say the names in the environment (if any are asked about); True when none of `names` is among them."""
    if names:
        print("environment: " + " ".join(sorted(os.environ)), file=sys.stderr, flush=True)
    seen = [name for name in names if name in os.environ]
    for name in seen:
        print(f"SEES {name}={os.environ[name]}", file=sys.stderr, flush=True)
    return not seen


def hold(megabytes: int) -> bytearray:
    """`megabytes` of memory, each page written (so it is really held, not just promised)."""
    try:
        block = bytearray(megabytes * 2**20)
    except MemoryError:
        print(f"cannot hold {megabytes} MB: MemoryError", file=sys.stderr, flush=True)
        os._exit(5)
    block[::4096] = b"\x01" * len(range(0, len(block), 4096))
    print(f"holding {megabytes} MB", file=sys.stderr, flush=True)
    return block


if __name__ == "__main__":
    main()
