"""The `xtraboard` command: one sub-command a module, imported only when it runs.

Each command module offers `add_arguments(parser)` and `run(args) -> int`. Before the command,
`--game-module MODULE` (repeatable) loads a plug-in game's package (docs/adding-a-game.md) for
this command and the processes it starts (`XTRABOARD_GAMES`).
"""

from __future__ import annotations

import argparse
import errno
import os
import sys
from importlib import import_module
from collections.abc import Callable, Iterable
from types import ModuleType
from typing import NoReturn, TextIO, TypeVar

from firmware import i18n
from firmware.errors import XtraboardError
from firmware.games.registry import GAMES_ENV, load_game_module, plugin_modules
from firmware.i18n import N_, _

COMMANDS = {  # the help texts are shown through _() (firmware/i18n.py)
    "run": ("firmware.commands.run", N_("run the board on its hardware")),
    "sim": ("sim.app", N_("run the board in the desktop simulator (window or headless)")),
    "selftest": ("firmware.commands.selftest", N_("light every LED, draw on the display, ask for each button")),
    "replay": ("firmware.commands.replay", N_("validate and replay a game record, print its state")),
    "analyse": ("firmware.commands.analyse", N_("rate each person's decisions of a game record with the strong bot")),
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
    parser.add_argument(
        "--game-module",
        action="append",
        default=[],
        metavar="MODULE",
        help=_("load a plug-in game's package (its SPEC) before the command; repeatable"),
    )
    sub = parser.add_subparsers(dest="command", required=True, metavar="COMMAND")
    for name, (module, help_text) in COMMANDS.items():
        command = sub.add_parser(name, help=_(help_text), description=_(help_text))
        command.set_defaults(module=module)
        if name == chosen:
            _module(module).add_arguments(command)
    return parser


def _leading_options(argv: list[str]) -> tuple[list[str], str | None]:
    """The `--game-module` values given before the command, and the command's name.

    >>> _leading_options(["--game-module", "examples.highdie", "selfplay", "highdie"])
    (['examples.highdie'], 'selfplay')
    """
    modules: list[str] = []
    index = 0
    while index < len(argv):
        arg = argv[index]
        if arg == "--game-module" and index + 1 < len(argv):
            modules.append(argv[index + 1])
            index += 2
        elif arg.startswith("--game-module="):
            modules.append(arg.partition("=")[2])
            index += 1
        elif arg.startswith("-"):
            index += 1
        else:
            return modules, arg
    return modules, None


def _module(name: str) -> ModuleType:
    return import_module(name)


_T = TypeVar("_T")


class OutputError(OSError):
    """Standard output cannot be written (a full disk, a closed descriptor): the command stops."""


class _Stdout:
    """sys.stdout while a command runs: a write that fails raises OutputError, so the command line
    says so in one line instead of a traceback. A reader gone away (`| head`) stays a
    BrokenPipeError, which is not an error of ours."""

    def __init__(self, stream: TextIO | None) -> None:
        self._stream = stream

    def _guarded(self, action: Callable[[TextIO], _T]) -> _T:
        if self._stream is None:  # started with standard output closed (`>&-`)
            raise OutputError(errno.EBADF, _("standard output is closed"))
        try:
            return action(self._stream)
        except BrokenPipeError:
            raise
        except OSError as exc:
            raise OutputError(exc.errno, exc.strerror or str(exc)) from exc

    def write(self, text: str) -> int:
        return self._guarded(lambda stream: stream.write(text))

    def writelines(self, lines: Iterable[str]) -> None:
        self._guarded(lambda stream: stream.writelines(lines))

    def flush(self) -> None:
        if self._stream is not None:
            self._guarded(lambda stream: stream.flush())

    def isatty(self) -> bool:
        return self._stream is not None and self._stream.isatty()

    def __getattr__(self, name: str) -> object:
        return getattr(self._stream, name)


def _silence_stdout() -> None:
    """Point descriptor 1 at /dev/null, so that the interpreter's own flush at exit does not
    fail (and print a traceback) on what this command could not write."""
    try:
        null = os.open(os.devnull, os.O_WRONLY)
        os.dup2(null, 1)
        os.close(null)
    except OSError:
        pass


def main(argv: list[str] | None = None) -> int:
    argv = sys.argv[1:] if argv is None else argv
    # Messages to people in the environment's language ($XTRABOARD_LANG, $LANGUAGE, ..., $LANG);
    # `run` and `sim` take --lang for the board and for themselves.
    i18n.use(i18n.from_environment())
    modules, chosen = _leading_options(argv)
    if modules:
        try:
            for module in modules:
                load_game_module(module)
        except XtraboardError as exc:
            print(f"xtraboard: {i18n.tr(exc)}", file=sys.stderr)
            return 2
        # the processes a command starts (bench jobs, engines, the board) load them too
        os.environ[GAMES_ENV] = ",".join(dict.fromkeys([*plugin_modules(), *modules]))
    args = build_parser(chosen if chosen in COMMANDS else None).parse_args(argv)
    real_stdout = sys.stdout
    sys.stdout = _Stdout(real_stdout)
    try:
        code = int(_module(args.module).run(args) or 0)
        sys.stdout.flush()  # here, not at exit: a full disk is reported like any other write
        return code
    except XtraboardError as exc:  # last resort: commands report their own errors first
        print(f"xtraboard {args.command}: {i18n.tr(exc)}", file=sys.stderr)
        return 2
    except KeyboardInterrupt:
        return 130
    except BrokenPipeError:
        sys.stderr.close()  # the reader went away (e.g. `| head`): not an error of ours
        return 0
    except OutputError as exc:
        print(
            f"xtraboard {args.command}: " + _("cannot write to standard output: {error}").format(error=exc.strerror),
            file=sys.stderr,
        )
        if real_stdout is not None and real_stdout is sys.__stdout__:
            _silence_stdout()
        return 1
    finally:
        sys.stdout = real_stdout
