"""`xtraboard wiring [--board FILE] [--out SVG] [--docs]`: draw the wiring diagram from the board description.

With --docs it also rewrites the generated sections of WIRING.md and BOM.md beside the SVG.
The generators live on the desktop side (`sim.wiring`), imported by name only when the command runs.
"""

from __future__ import annotations

import argparse
import sys
from importlib import import_module
from pathlib import Path

from firmware.errors import ConfigError
from firmware.commands import add_board_option
from firmware.hardware.config import default_board_path, load_board
from firmware.i18n import _, tr

GENERATORS = {"svg": "sim.wiring.svg", "docs": "sim.wiring.docs"}  # by name: firmware never imports sim


def add_arguments(parser: argparse.ArgumentParser) -> None:
    default_out = default_board_path().parent / "wiring.svg"
    add_board_option(parser)
    parser.add_argument(
        "--out",
        metavar="SVG",
        type=Path,
        default=default_out,
        help=_("where to write the SVG (default: hardware/wiring.svg)"),
    )
    parser.add_argument(
        "--docs",
        action="store_true",
        help=_("also regenerate the generated sections of WIRING.md and BOM.md beside the SVG"),
    )


def run(args: argparse.Namespace) -> int:
    try:
        board = load_board(args.board)
        out: Path = args.out
        out.write_text(import_module(GENERATORS["svg"]).wiring_svg(board), encoding="utf-8")
        print(_("wrote {file}").format(file=out))
        if args.docs:
            for path in import_module(GENERATORS["docs"]).update_docs(board, out.parent):
                print(_("updated {file}").format(file=path))
    except ConfigError as exc:
        print(f"xtraboard wiring: {tr(exc)}", file=sys.stderr)
        return 2
    except OSError as exc:
        print(
            "xtraboard wiring: " + _("cannot write {file}: {error}").format(file=exc.filename, error=exc.strerror),
            file=sys.stderr,
        )
        return 2
    return 0
