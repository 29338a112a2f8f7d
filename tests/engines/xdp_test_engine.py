"""A small XDP engine for tests: plays the first legal decision, or misbehaves on request.

    python xdp_test_engine.py [--crash-at N] [--hang-at N] [--illegal-at N] [--garbage-at N]
                              [--endless-line-at N] [--flood-at N] [--chatter] [--deaf] [--stderr-mb N]
                              [--must-not-read PATH]... [--must-not-write PATH]...

N counts `go` commands from 1. It reads positions with the board's own record code, as a
third-party engine might use any rules implementation of its own. At `xdp` it tries to read
each --must-not-read path (a file or a folder) and to create a file in each --must-not-write
folder, and to write and read back a file in its own temporary folder: it says each outcome on
standard error and exits with code 4 if it could read or write what it must not (or could not
use its temporary folder). --chatter floods lines nobody asked for right after `readyok`;
--deaf reads nothing after `readyok`; --stderr-mb N writes N MB on standard error at `xdp`.
"""

from __future__ import annotations

import argparse
import json
import os
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
    args = parser.parse_args()
    game, goes = None, 0
    for line in sys.stdin:
        command, _, rest = line.strip().partition(" ")
        if command == "xdp":
            for _ in range(args.stderr_mb * 16):  # much more than a pipe holds: read, or it blocks
                sys.stderr.write("e" * 65535 + "\n")
            sys.stderr.write("the last words\n")
            sys.stderr.flush()
            if not probe(args.must_not_read, args.must_not_write):
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


if __name__ == "__main__":
    main()
