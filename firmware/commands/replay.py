"""`xtraboard replay FILE`: validate and replay a record, print where it stands as JSON."""

from __future__ import annotations

import argparse
import json
import sys

from firmware.errors import RecordError
from firmware.i18n import _, tr
from firmware.records import read_record, replay_record


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("file", metavar="FILE", help=_("a game record (JSON), or - for standard input"))


def run(args: argparse.Namespace) -> int:
    try:
        game = replay_record(read_record(args.file))
    except RecordError as exc:
        print(f"xtraboard replay: {tr(exc)}", file=sys.stderr)
        return 2
    pending = game.pending()
    summary = {
        "game": game.name,
        "players": len(game.players),
        "steps": len(game.history),
        "over": game.is_over(),
        "pending": {"kind": pending.kind, "player": pending.player},
    }
    if game.is_over():
        summary["result"] = game.result()
    print(json.dumps(summary))
    return 0
