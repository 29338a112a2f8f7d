"""`xtraboard run`: the board on its real hardware (buttons, LED chain, OLED) until stopped."""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

from firmware.commands import add_board_option, add_lang_option, add_state_dir_option
from firmware.errors import ConfigError, HardwareError
from firmware.i18n import _, tr

PROG = "xtraboard run"


def add_arguments(parser: argparse.ArgumentParser) -> None:
    add_board_option(parser)
    add_state_dir_option(
        parser, _("where games, history and records are kept (default: $STATE_DIRECTORY or ~/.local/state/xtraboard)")
    )
    add_lang_option(
        parser,
        _("the board's language at start: de, en or fr (default: its settings, else the board description's language)"),
    )
    parser.add_argument("--kiosk", action="store_true", help=_("resume the unfinished game at start (café board)"))
    parser.add_argument(
        "--debug-port",
        type=int,
        metavar="PORT",
        help=_("serve the bench's debug service on 127.0.0.1:PORT (docs/hil.md); off by default"),
    )
    parser.add_argument("--debug-socket", type=Path, metavar="PATH", help=_("serve the debug service on a Unix socket"))


def run(args: argparse.Namespace) -> int:
    from firmware.hardware.board import GpioMissing, Outputs, open_hardware, open_outputs
    from firmware.hardware.config import load_board

    said: set[str] = set()  # each problem once, even when the board starts again after a fault

    def say(line: str) -> None:
        print(f"{PROG}: {tr(line)}", file=sys.stderr)

    def warn(problems: list[str]) -> None:
        for problem in problems:
            if problem not in said:
                said.add(problem)
                print(f"{PROG}: " + _("warning: {problem}").format(problem=tr(problem)), file=sys.stderr)

    outputs: Outputs | None = None  # opened for the fault state, taken over by the board
    try:
        config = load_board(args.board)
        while True:
            try:
                hardware = open_hardware(config, "pi", **(outputs.reuse() if outputs is not None else {}))
                break
            except GpioMissing as missing:  # stay up and say why (firmware.fault_mode), no restart loop
                from firmware.fault_mode import wait_for_gpio

                if outputs is None:
                    outputs = open_outputs(config)
                    warn(outputs.problems)
                language = args.lang or config.language
                if not wait_for_gpio(missing, outputs, language=language, say=say):
                    outputs.close()
                    return 0
    except (HardwareError, ConfigError) as error:
        if outputs is not None:
            outputs.close()
        print(f"{PROG}: {tr(error)}", file=sys.stderr)
        return 1
    with hardware:
        warn(hardware.problems)
        try:
            from firmware.board_loop import run_board
        except ModuleNotFoundError as error:
            if error.name != "firmware.board_loop":
                raise
            print(f"{PROG}: " + _("the board loop is not built yet"), file=sys.stderr)
            return 3
        try:
            return int(run_board(hardware, args) or 0)
        except (HardwareError, ConfigError) as error:
            print(f"{PROG}: {tr(error)}", file=sys.stderr)
            return 1
