"""`xtraboard bench engines|loop`: print performance figures as `name: value` lines."""

from __future__ import annotations

import argparse
from importlib import import_module

SUITES = {"engines": "firmware.bench.engines", "loop": "firmware.bench.loop"}


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("suite", choices=sorted(SUITES))
    parser.add_argument("--seconds", type=float, default=3.0,
                        help="how long to measure each figure (default 3; idle CPU uses 30 for 'loop')")


def run(args: argparse.Namespace) -> int:
    for name, value in import_module(SUITES[args.suite]).run(args.seconds):
        print(f"{name}: {value:.6g}" if isinstance(value, float) else f"{name}: {value}", flush=True)
    return 0
