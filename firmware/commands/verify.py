"""`xtraboard verify RECORD`: recompute every roll of a record from its revealed seed.

    xtraboard records export --out games.jsonl && xtraboard verify games.jsonl

RECORD is a file (`-` for standard input) holding one record, or several as JSON Lines (what
`records export` writes). One line per problem, naming the step; exit 0 when every roll of
every record matches, 1 when one does not (or cannot be checked), 2 when a record is malformed.
With `--seal`, first a line with the seal of the record's commitment as the board showed it
(its two lines of four groups, "/" between them), to compare with what the players wrote down
or photographed (docs/dice.md).
"""

from __future__ import annotations

import argparse
import json
import sys
from collections.abc import Mapping

from firmware.dice import seal_lines
from firmware.errors import RecordError
from firmware.i18n import _, tr
from firmware.records import parse_record_text, read_record_text
from firmware.verify import check_record

PROG = "xtraboard verify"


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument(
        "record", metavar="RECORD", help=_("a record file (JSON, or JSON Lines of several), - for standard input")
    )
    parser.add_argument(
        "--seal",
        action="store_true",
        help=_("first print each record's dice seal as the board showed it, to compare with a photograph of it"),
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
            record = parse_record_text(text, where)
            if args.seal:
                print(prefix + seal_said(record))
            report = check_record(record)
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


def seal_said(record: Mapping[str, object]) -> str:
    """The record's dice seal as the board showed it, on one line ("/" where the board's second
    line begins), or why it has none."""
    dice = record.get("dice")
    commit = dice.get("commit") if isinstance(dice, dict) else None
    try:
        lines = seal_lines(commit) if isinstance(commit, str) else None
    except ValueError:
        lines = None
    if lines is None:
        return _("seal: none (the record has no dice commitment of 'sha256:' and 64 hex digits)")
    # Translators: {seal} is "7902 699b e42c 8a8e / 46fb bb45 0172 6517", as the board shows it.
    return _("seal: {seal}").format(seal=" / ".join(lines))


def _read(path: str) -> list[tuple[str, str]]:
    """(where, JSON text) per record: the whole text if it is one JSON value, else one per line
    (JSON Lines), each named by its line number. Lines end at "\\n" only: JSON lets a record hold
    U+2028 or U+0085 as they are, which str.splitlines would take for line ends."""
    text = read_record_text(path)  # bounded, a regular file or standard input (RecordError)
    name = _("standard input") if path == "-" else path
    if not text.strip():
        raise RecordError(_("{file} holds no record").format(file=name))
    lines = [
        (_("{file} line {n}").format(file=name, n=n), line.rstrip("\r"))
        for n, line in enumerate(text.split("\n"), 1)
        if line.strip()
    ]
    if (
        len(lines) > 1
        and lines[0][1].lstrip().startswith("{")
        and lines[0][1].rstrip().endswith("}")
        and not _one_value(text)
    ):
        return lines
    return [(name, text)]


def _one_value(text: str) -> bool:
    """The whole text is one JSON value (a record written over several lines)."""
    try:
        json.loads(text)
    except (ValueError, RecursionError):
        return False
    return True
