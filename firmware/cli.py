"""The `xtraboard` command: one sub-command a module, imported only when it runs.

Each command module offers `add_arguments(parser)` and `run(args) -> int`.
"""

from __future__ import annotations

import argparse
import sys
from importlib import import_module
from typing import NoReturn

from firmware.errors import XtraboardError

COMMANDS = {
    "run": ("firmware.commands.run", "run the board on its hardware"),
    "sim": ("sim.app", "run the board in the desktop simulator (window or headless)"),
    "selftest": ("firmware.commands.selftest", "light every LED, draw on the display, ask for each button"),
    "replay": ("firmware.commands.replay", "validate and replay a game record, print its state"),
    "selfplay": ("firmware.commands.selfplay", "play random games and print their records (JSON Lines)"),
    "records": ("firmware.commands.records", "export the games kept on the board"),
    "players": ("firmware.commands.players", "the players' names the seat screen offers (add, remove, list)"),
    "verify": ("firmware.commands.verify", "check every roll of a record against its revealed dice seed"),
    "fleet": ("firmware.commands.fleet", "every table's live state, read from the café's MQTT broker"),
    "engine": ("firmware.commands.engine", "the board's bots as an engine on stdin/stdout (XDP, like UCI)"),
    "bench": ("firmware.commands.bench", "print performance figures"),
    "wiring": ("firmware.commands.wiring", "draw the wiring diagram (SVG) from the hardware description"),
    "hil": ("sim.hil.command", "run scenarios against a board on the bench, or record a session (debug service)"),
}


class Parser(argparse.ArgumentParser):
    """argparse, but a bad argument is one line on standard error (exit 2), not the usage too.

    The line names the command and the option: `xtraboard records list: argument --limit: ...`.
    """

    def error(self, message: str) -> NoReturn:
        self.exit(2, f"{self.prog}: {message} (see {self.prog} --help)\n")


def build_parser(chosen: str | None = None) -> argparse.ArgumentParser:
    """The parser; only the chosen command's module is imported (start-up stays fast on a Pi)."""
    parser = Parser(prog="xtraboard", description="The xtraboard dice-game board.")
    sub = parser.add_subparsers(dest="command", required=True, metavar="COMMAND")
    for name, (module, help_text) in COMMANDS.items():
        command = sub.add_parser(name, help=help_text, description=help_text)
        command.set_defaults(module=module)
        if name == chosen:
            _module(module).add_arguments(command)
    return parser


def _module(name: str):
    return import_module(name)


def main(argv: list[str] | None = None) -> int:
    argv = sys.argv[1:] if argv is None else argv
    chosen = next((a for a in argv if not a.startswith("-")), None)
    args = build_parser(chosen if chosen in COMMANDS else None).parse_args(argv)
    try:
        return int(_module(args.module).run(args) or 0)
    except XtraboardError as exc:  # last resort: commands report their own errors first
        print(f"xtraboard {args.command}: {exc}", file=sys.stderr)
        return 2
    except KeyboardInterrupt:
        return 130
    except BrokenPipeError:
        sys.stderr.close()  # the reader went away (e.g. `| head`): not an error of ours
        return 0
