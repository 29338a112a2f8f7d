"""`xtraboard selftest`: light every LED segment, draw on the display, ask for each button."""

from __future__ import annotations

import argparse
import sys

from firmware.errors import ConfigError, HardwareError
from firmware.commands import add_board_option
from firmware.i18n import _, tr

PROG = "xtraboard selftest"


def add_arguments(parser: argparse.ArgumentParser) -> None:
    add_board_option(parser)
    parser.add_argument(
        "--backend", choices=("pi", "mock"), default="pi", help=_("pi: the real parts (default); mock: simulated parts")
    )
    parser.add_argument(
        "--timeout", type=_seconds, default=10.0, metavar="S", help=_("seconds to wait for each button (default 10)")
    )
    parser.add_argument(
        "--step",
        type=_seconds,
        default=1.0,
        metavar="S",
        help=_("seconds each LED segment and the test pattern stay on (default 1)"),
    )


def run(args: argparse.Namespace) -> int:
    from firmware.hardware.board import open_hardware
    from firmware.hardware.config import load_board
    from firmware.hardware.selftest import QueueEdges, run_selftest

    try:
        hardware = open_hardware(load_board(args.board), args.backend)
    except (HardwareError, ConfigError) as error:
        print(f"{PROG}: {tr(error)}", file=sys.stderr)
        return 1
    with hardware:
        if hardware.edges is None:  # open_hardware made the queue: no emit was given
            raise RuntimeError("selftest: the hardware has no edge queue")
        report = run_selftest(
            hardware,
            QueueEdges(hardware.edges),
            button_timeout_s=args.timeout,
            step_s=args.step,
            say=lambda line: print(line, flush=True),
        )
    print()
    for line in report.lines():
        print(line)
    return 0 if report.ok else 1


def _seconds(text: str) -> float:
    try:
        value = float(text)
    except ValueError:
        raise argparse.ArgumentTypeError(_("expected seconds, got {text}").format(text=repr(text))) from None
    if not 0 <= value <= 3600:
        raise argparse.ArgumentTypeError(_("expected 0 to 3600 seconds, got {text}").format(text=text))
    return value
