"""`xtraboard operator set-code`: set the code that opens the operator menu (docs/kiosk.md).

    sudo xtraboard operator set-code                       # asks twice, without echo
    echo "left left right ok roll" | xtraboard operator set-code --board my-board.toml

The code is 4 to 16 button names (roll, ok, back, left, right; spaces or commas between them),
at least two different buttons. Only its length and a salted scrypt hash are written, to
`operator-code` beside the board description (/etc/xtraboard/operator-code on an installed
board, root:xtraboard 0640) or to `--file`. The board reads it when it starts.
"""

from __future__ import annotations

import argparse
import getpass
import re
import sys
from pathlib import Path

from firmware.commands import add_board_option
from firmware.errors import ConfigError
from firmware.i18n import _, tr


MAX_CODE_LINE = 1000  # 16 button names and their spaces are about a hundred characters


def add_arguments(parser: argparse.ArgumentParser) -> None:
    actions = parser.add_subparsers(dest="action", required=True, metavar="ACTION")
    setter = actions.add_parser("set-code", help=_("set the operator's code (kept as a salted hash)"))
    add_board_option(setter, _("the board description the code is for (default: the board's own)"))
    setter.add_argument(
        "--file", type=Path, metavar="PATH", help=_("write the code here instead of beside the board description")
    )


def run(args: argparse.Namespace) -> int:
    """Exit 0 when written; 1 with one line on standard error otherwise."""
    from firmware.hardware.config import CODE_FILE_NAME, find_board_path
    from firmware.operator_code import StoredCode, check_code, write_code_file

    target = args.file if args.file is not None else (args.board or find_board_path()).parent / CODE_FILE_NAME
    try:
        presses = _read_code()
        code = StoredCode.make(check_code(presses))
        write_code_file(target, code)
    except (ValueError, ConfigError) as exc:
        print("xtraboard operator set-code: " + tr(exc), file=sys.stderr)
        return 1
    except OSError as exc:
        print(
            "xtraboard operator set-code: "
            + _("cannot write {path}: {error}").format(path=target, error=exc.strerror or exc),
            file=sys.stderr,
        )
        return 1
    print(
        _("operator code set ({n} presses) in {path}; restart the board to use it").format(n=code.length, path=target)
    )
    return 0


def _read_code() -> list[str]:
    """The code from a terminal (asked twice, not echoed) or one line of standard input."""
    if sys.stdin.isatty():
        first = _presses(getpass.getpass(_("Code (button names: roll ok back left right): ")))
        if _presses(getpass.getpass(_("The same code again: "))) != first:
            raise ValueError(_("the two codes differ; nothing was written"))
        return first
    line = sys.stdin.readline(MAX_CODE_LINE + 1)  # bounded: `< /dev/zero` has no line end
    if len(line.rstrip("\r\n")) > MAX_CODE_LINE:
        raise ValueError(
            _("standard input: a line longer than {n} characters; expected the code's button names").format(
                n=MAX_CODE_LINE
            )
        )
    return _presses(line)


def _presses(text: str) -> list[str]:
    return [word.lower() for word in re.split(r"[\s,]+", text.strip()) if word]
