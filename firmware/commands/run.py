"""`xtraboard run`: the board on its real hardware (buttons, LED chain, OLED) until stopped."""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

from firmware.errors import ConfigError, HardwareError
from firmware.i18n import _, tr

PROG = "xtraboard run"


def lang(text: str) -> str:
    """argparse type of --lang: a language the board speaks (firmware/i18n.py), used at once for
    this command's own messages too.

    >>> lang("de")
    'de'
    """
    from firmware.i18n import LanguageError, check_language, use

    try:
        use(check_language(text))
    except LanguageError as exc:
        raise argparse.ArgumentTypeError(str(exc)) from None
    return text


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument(
        "--board",
        type=Path,
        metavar="FILE",
        help=_("board description (default: $XTRABOARD_BOARD, /etc/xtraboard/board.toml, the built-in one)"),
    )
    parser.add_argument(
        "--state-dir",
        type=Path,
        metavar="DIR",
        help=_("where games, history and records are kept (default: $STATE_DIRECTORY or ~/.local/state/xtraboard)"),
    )
    parser.add_argument(
        "--lang",
        type=lang,
        metavar="LANG",
        help=_(
            "the board's language at start: de, en or fr (default: its settings, else the board description's language)"
        ),
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
    from firmware.hardware.board import open_hardware
    from firmware.hardware.config import load_board

    try:
        hardware = open_hardware(load_board(args.board), "pi")
    except (HardwareError, ConfigError) as error:
        print(f"{PROG}: {tr(error)}", file=sys.stderr)
        return 1
    with hardware:
        for problem in hardware.problems:
            print(f"{PROG}: " + _("warning: {problem}").format(problem=tr(problem)), file=sys.stderr)
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
