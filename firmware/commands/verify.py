"""`xtraboard verify RECORD`: recompute every roll of a record from its revealed seed.

    xtraboard records export --out games.jsonl && xtraboard verify games.jsonl

RECORD is a file (`-` for standard input) holding one record, or several as JSON Lines (what
`records export` writes). One line per problem, naming the step; exit 0 when every roll of
every record matches, 1 when one does not (or cannot be checked), 2 when a record is malformed.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

from firmware.errors import RecordError
from firmware.i18n import _, tr
from firmware.records import parse_record_text
from firmware.verify import check_record

PROG = "xtraboard verify"


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument(
        "record", metavar="RECORD", help=_("a record file (JSON, or JSON Lines of several), - for standard input")
    )


def run(args: argparse.Namespace) -> int:
    try:
        records = _read(args.record)
    except RecordError as exc:
        print(f"{PROG}: {tr(exc)}", file=sys.stderr)
        return 2
    worst = 0
    for number, (where, text) in enumerate(records, 1):
        prefix = _("record {number} ({where}): ").format(number=number, where=where) if len(records) > 1 else ""
        try:
            report = check_record(parse_record_text(text, where))
        except RecordError as exc:
            print(f"{PROG}: {prefix}{tr(exc)}", file=sys.stderr)
            worst = 2
            continue
        for line in report.problems + report.notes:
            print(prefix + line)
        print(prefix + report.summary())
        if not report.ok:
            worst = max(worst, 1)
    return worst


def _read(path: str) -> list[tuple[str, str]]:
    """(where, JSON text) per record: the whole text if it is one object, else one per line."""
    try:
        text = sys.stdin.read() if path == "-" else Path(path).read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError) as exc:
        raise RecordError(
            _("cannot read {file}: {error}").format(file=_("standard input") if path == "-" else path, error=exc)
        ) from exc
    name = _("standard input") if path == "-" else path
    lines = [
        (_("{file} line {n}").format(file=name, n=n), line)
        for n, line in enumerate(text.splitlines(), 1)
        if line.strip()
    ]
    if len(lines) > 1 and all(line.lstrip().startswith("{") and line.rstrip().endswith("}") for _, line in lines):
        return lines
    if not text.strip():
        raise RecordError(_("{file} holds no record").format(file=name))
    return [(name, text)]
