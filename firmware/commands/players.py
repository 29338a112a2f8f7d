"""`xtraboard players add|remove|list`: the players' names the seat screen offers.

    xtraboard players add Anna        # keep a name (1-10 characters the display can draw)
    xtraboard players remove Anna     # forget it (past records keep it)
    xtraboard players list            # one name a line, in the order they were added

The names are kept in the board's journal (its settings), so the board sees a change the next
time a seat screen opens, even while it runs.
"""

from __future__ import annotations

import argparse
import sys

from firmware import players
from firmware.commands import state_dir_options
from firmware.errors import RecordError
from firmware.i18n import _, tr
from firmware.paths import default_state_dir


def add_arguments(parser: argparse.ArgumentParser) -> None:
    common = state_dir_options()
    actions = parser.add_subparsers(dest="action", required=True, metavar="ACTION")
    add = actions.add_parser("add", parents=[common], help=_("keep a player's name"))
    add.add_argument("name", help=_("1-{n} characters the display can draw").format(n=players.MAX_LENGTH))
    remove = actions.add_parser("remove", parents=[common], help=_("forget a player's name"))
    remove.add_argument("name")
    actions.add_parser("list", parents=[common], help=_("the names kept, one a line"))


def run(args: argparse.Namespace) -> int:
    """Exit 0; 1 with one line on standard error for a name that cannot be added or removed,
    or a state directory that cannot be used."""
    from firmware.journal import DB_NAME, Journal

    state_dir = args.state_dir if args.state_dir is not None else default_state_dir()
    try:
        if args.action == "add":  # checked before the journal is opened (or made)
            players.check_name(args.name)
        if state_dir.exists() and not state_dir.is_dir():
            raise RecordError(_("the state directory {path} is not a directory").format(path=state_dir))
        read_only = args.action == "list"
        if read_only and not (state_dir / DB_NAME).exists():
            return 0  # no journal yet: no names
        with Journal(state_dir, read_only=read_only) as journal:
            if args.action == "list":
                for name in players.names(journal):
                    print(name)
            elif args.action == "add":
                print(_("added {name}").format(name=players.add(journal, args.name)))
            else:
                print(_("removed {name}").format(name=players.remove(journal, args.name)))
    except (players.PlayerNameError, RecordError) as exc:
        print(f"xtraboard players {args.action}: {tr(exc)}", file=sys.stderr)
        return 1
    except OSError as exc:
        print(
            f"xtraboard players {args.action}: "
            + _("cannot use the state directory {path}: {reason}").format(path=state_dir, reason=exc.strerror or exc),
            file=sys.stderr,
        )
        return 1
    return 0
