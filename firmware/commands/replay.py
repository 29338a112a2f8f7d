"""`xtraboard replay FILE`: validate and replay a record, print where it stands as JSON.

Exit 0; 2 for a malformed record or an illegal step; 1 when the record's stored `result`
differs from the replay's (one line on standard error per field, stored vs replayed; the
printed `result` is the replay's).
"""

from __future__ import annotations

import argparse
import json
import sys

from firmware.errors import RecordError
from firmware.i18n import _, tr
from firmware.records import read_record, replay_record
from firmware.verify import result_differences


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("file", metavar="FILE", help=_("a game record (JSON), or - for standard input"))


def run(args: argparse.Namespace) -> int:
    try:
        record = read_record(args.file)
        game = replay_record(record)
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
    differences = result_differences(record, game)
    for line in differences:
        print(f"xtraboard replay: {line}", file=sys.stderr)
    return 1 if differences else 0
