"""`xtraboard bench engines|loop`: print performance figures as `name: value` lines."""

from __future__ import annotations

import argparse
from importlib import import_module

SUITES = {"engines": "sim.bench.engines", "loop": "sim.bench.loop"}  # by name: firmware never imports sim


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("suite", choices=sorted(SUITES))
    parser.add_argument("--seconds", type=float, default=3.0,
                        help="engines: how long to play each game (default 3)")
    parser.add_argument("--idle-seconds", type=float, default=30.0,
                        help="loop: how long to measure the idle CPU (default 30)")
    parser.add_argument("--samples", type=int, default=400,
                        help="loop: button presses timed for the edge-to-push figures (default 400)")


def run(args: argparse.Namespace) -> int:
    for name, value in import_module(SUITES[args.suite]).run(args):
        print(f"{name}: {value:.6g}" if isinstance(value, float) else f"{name}: {value}", flush=True)
    return 0
