"""A small XDP engine for tests: plays the first legal decision, or misbehaves on request.

    python xdp_test_engine.py [--crash-at N] [--hang-at N] [--illegal-at N] [--garbage-at N]

N counts `go` commands from 1. It reads positions with the board's own record code, as a
third-party engine might use any rules implementation of its own.
"""

from __future__ import annotations

import argparse
import json
import os
import sys
import time

from firmware.records import replay_record


def main() -> None:
    parser = argparse.ArgumentParser()
    for fault in ("crash", "hang", "illegal", "garbage"):
        parser.add_argument(f"--{fault}-at", type=int, default=0)
    args = parser.parse_args()
    game, goes = None, 0
    for line in sys.stdin:
        command, _, rest = line.strip().partition(" ")
        if command == "xdp":
            print("id name test engine\nxdpok", flush=True)
        elif command == "isready":
            print("readyok", flush=True)
        elif command == "position":
            game = replay_record(json.loads(rest))
        elif command == "go":
            goes += 1
            if goes == args.crash_at:
                os._exit(3)
            if goes == args.hang_at:
                time.sleep(3600)
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


if __name__ == "__main__":
    main()
