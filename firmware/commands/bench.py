"""`xtraboard bench engines|loop|bots|ui|calibration|soak`: print performance figures as `name: value` lines.

The suites are development tools in sim/bench and sim/arena (the Pi does not need them at run
time), named here as strings and imported only when chosen: firmware never imports sim.
"""

from __future__ import annotations

import argparse
from importlib import import_module

from firmware.i18n import N_, _

SUITES = {
    "engines": ("sim.bench.engines", N_("random games and legal-decision enumerations per second")),
    "loop": ("sim.bench.loop", N_("the board loop: edge-to-push latency, idle CPU, memory, bus bytes")),
    "bots": ("sim.arena", N_("bot levels against each other, solo scores, decision times")),
    "ui": ("sim.bench.ui", N_("presses per decision (median and max) for each game, through the screens")),
    "calibration": ("sim.bench.calibration", N_("the hint's figure against the actual outcome in strong self-play")),
    "soak": ("sim.bench.soak", N_("hundreds of demo games in one board process: memory after each stretch")),
}


def add_arguments(parser: argparse.ArgumentParser) -> None:
    suites = parser.add_subparsers(dest="suite", required=True, metavar="SUITE")
    for name, (module, help_text) in SUITES.items():
        suite = suites.add_parser(name, help=_(help_text), description=_(help_text))
        suite.set_defaults(suite_module=module)
        import_module(module).add_arguments(suite)


def run(args: argparse.Namespace) -> int:
    for name, value in import_module(args.suite_module).run(args):
        print(f"{name}: {value:.6g}" if isinstance(value, float) else f"{name}: {value}", flush=True)
    return 0
