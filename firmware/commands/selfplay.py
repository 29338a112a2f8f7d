"""`xtraboard selfplay GAME --players N --seed S --games K`: random games as JSON Lines."""

from __future__ import annotations

import argparse
import sys

from firmware.games import game_class, game_names
from firmware.i18n import _
from firmware.records import record_json
from firmware.selfplay import selfplay_games


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("game", choices=game_names())
    parser.add_argument("--players", type=int, required=True, metavar="N")
    parser.add_argument("--seed", type=int, default=0, metavar="S")
    parser.add_argument("--games", type=int, default=1, metavar="K")


def run(args: argparse.Namespace) -> int:
    cls = game_class(args.game)
    if not cls.min_players <= args.players <= cls.max_players:
        print(
            "xtraboard selfplay: "
            + _("{game} is for {low} to {high} players, not {count}").format(
                game=cls.title, low=cls.min_players, high=cls.max_players, count=args.players
            ),
            file=sys.stderr,
        )
        return 2
    if args.games < 0:
        print("xtraboard selfplay: " + _("--games must be 0 or more"), file=sys.stderr)
        return 2
    for game in selfplay_games(args.game, args.players, args.seed, args.games):
        sys.stdout.write(record_json(game) + "\n")
    sys.stdout.flush()
    return 0
