"""The `xtraboard` command: one sub-command a module, imported only when it runs.

Each command module offers `add_arguments(parser)` and `run(args) -> int`.
"""

from __future__ import annotations

import argparse
import sys
from importlib import import_module
from typing import NoReturn

from firmware import i18n
from firmware.errors import XtraboardError
from firmware.i18n import N_, _

COMMANDS = {  # the help texts are shown through _() (firmware/i18n.py)
    "run": ("firmware.commands.run", N_("run the board on its hardware")),
    "sim": ("sim.app", N_("run the board in the desktop simulator (window or headless)")),
    "selftest": ("firmware.commands.selftest", N_("light every LED, draw on the display, ask for each button")),
    "replay": ("firmware.commands.replay", N_("validate and replay a game record, print its state")),
    "selfplay": ("firmware.commands.selfplay", N_("play random games and print their records (JSON Lines)")),
    "records": ("firmware.commands.records", N_("export the games kept on the board")),
    "players": ("firmware.commands.players", N_("the players' names the seat screen offers (add, remove, list)")),
    "verify": ("firmware.commands.verify", N_("check every roll of a record against its revealed dice seed")),
    "operator": ("firmware.commands.operator", N_("set the code that opens a café board's operator menu")),
    "fleet": ("firmware.commands.fleet", N_("every table's live state, read from the café's MQTT broker")),
    "engine": ("firmware.commands.engine", N_("the board's bots as an engine on stdin/stdout (XDP, like UCI)")),
    "bench": ("firmware.commands.bench", N_("print performance figures")),
    "wiring": ("firmware.commands.wiring", N_("draw the wiring diagram (SVG) from the hardware description")),
    "hil": ("sim.hil.command", N_("run scenarios against a board on the bench, or record a session (debug service)")),
}


class Parser(argparse.ArgumentParser):
    """argparse, but a bad argument is one line on standard error (exit 2), not the usage too.

    The line names the command and the option: `xtraboard records list: argument --limit: ...`.
    """

    def error(self, message: str) -> NoReturn:
        self.exit(2, _("{prog}: {message} (see {prog} --help)").format(prog=self.prog, message=message) + "\n")


def build_parser(chosen: str | None = None) -> argparse.ArgumentParser:
    """The parser; only the chosen command's module is imported (start-up stays fast on a Pi)."""
    parser = Parser(prog="xtraboard", description=_("The xtraboard dice-game board."))
    sub = parser.add_subparsers(dest="command", required=True, metavar="COMMAND")
    for name, (module, help_text) in COMMANDS.items():
        command = sub.add_parser(name, help=_(help_text), description=_(help_text))
        command.set_defaults(module=module)
        if name == chosen:
            _module(module).add_arguments(command)
    return parser


def _module(name: str):
    return import_module(name)


def main(argv: list[str] | None = None) -> int:
    argv = sys.argv[1:] if argv is None else argv
    # Messages to people in the environment's language ($XTRABOARD_LANG, $LANGUAGE, ..., $LANG);
    # `run` and `sim` take --lang for the board and for themselves.
    i18n.use(i18n.from_environment())
    chosen = next((a for a in argv if not a.startswith("-")), None)
    args = build_parser(chosen if chosen in COMMANDS else None).parse_args(argv)
    try:
        return int(_module(args.module).run(args) or 0)
    except XtraboardError as exc:  # last resort: commands report their own errors first
        print(f"xtraboard {args.command}: {i18n.tr(exc)}", file=sys.stderr)
        return 2
    except KeyboardInterrupt:
        return 130
    except BrokenPipeError:
        sys.stderr.close()  # the reader went away (e.g. `| head`): not an error of ours
        return 0
