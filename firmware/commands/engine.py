"""`xtraboard engine`: the board's bots as an engine speaking XDP on stdin/stdout
(docs/engine-protocol.md), so any program can measure them or let them sit at its table."""

from __future__ import annotations

import argparse
import sys

from firmware.i18n import _
from firmware.xdp.server import EngineServer


def add_arguments(parser: argparse.ArgumentParser) -> None:
    # The commands are the protocol's own words (docs/engine-protocol.md): only the sentence is translated.
    parser.epilog = _("Commands: {commands}.").format(
        commands="xdp, setoption name Level|Seed value V, isready, position RECORD, go [movetime MS], quit"
    )


def run(args: argparse.Namespace) -> int:
    server = EngineServer()
    for line in sys.stdin:
        for answer in server.handle(line):
            sys.stdout.write(answer + "\n")
        sys.stdout.flush()
        if server.finished:
            break
    return 0
