"""`xtraboard wiring [--board FILE] [--out SVG] [--docs] [--merged]`: draw the wiring diagram from the board description.

With --docs it also rewrites the generated sections of WIRING.md and BOM.md beside the SVG. With
--merged it prints the description as the firmware reads it, every `extends` merged in, each
section marked with the file it came from (and draws nothing). A description that puts two parts on
one pin is refused either way, naming both.
The generators live on the desktop side (`sim.wiring`), imported by name only when the command runs.
"""

from __future__ import annotations

import argparse
import sys
from importlib import import_module
from pathlib import Path

from firmware.errors import ConfigError
from firmware.commands import add_board_option
from firmware.hardware.config import default_board_path, find_board_path, load_board, read_layered
from firmware.i18n import _, tr

GENERATORS = {"svg": "sim.wiring.svg", "docs": "sim.wiring.docs"}  # by name: firmware never imports sim


def add_arguments(parser: argparse.ArgumentParser) -> None:
    default_out = default_board_path().parent / "wiring.svg"
    add_board_option(parser)
    parser.add_argument(
        "--out",
        metavar="SVG",
        type=Path,
        default=default_out,
        help=_("where to write the SVG (default: hardware/wiring.svg)"),
    )
    parser.add_argument(
        "--docs",
        action="store_true",
        help=_("also regenerate the generated sections of WIRING.md and BOM.md beside the SVG"),
    )
    parser.add_argument(
        "--merged",
        action="store_true",
        help=_("print the description with every file it extends merged in, and draw nothing"),
    )


def run(args: argparse.Namespace) -> int:
    try:
        board = load_board(args.board)
        if args.merged:
            print(merged_text(board.path), end="")
            return 0
        out: Path = args.out
        out.write_text(import_module(GENERATORS["svg"]).wiring_svg(board), encoding="utf-8")
        print(_("wrote {file}").format(file=out))
        if args.docs:
            for path in import_module(GENERATORS["docs"]).update_docs(board, out.parent):
                print(_("updated {file}").format(file=path))
    except ConfigError as exc:
        print(f"xtraboard wiring: {tr(exc)}", file=sys.stderr)
        return 2
    except OSError as exc:
        print(
            "xtraboard wiring: " + _("cannot write {file}: {error}").format(file=exc.filename, error=exc.strerror),
            file=sys.stderr,
        )
        return 2
    return 0


def merged_text(source: Path | None = None) -> str:
    """The description at `source` (default: the one the board would read) as TOML, with what
    it extends merged in; a comment names the file each section (or key, where it differs) came from."""
    data, origins = read_layered(source or find_board_path())
    lines: list[str] = []
    scalars = {k: v for k, v in data.items() if not isinstance(v, dict | list) or _is_values(v)}
    for key, value in scalars.items():  # none today: every top-level key is a section
        lines.append(f"{_key(key)} = {_value(value)}  # {origins[(key,)]}")
    for key, value in data.items():
        if isinstance(value, dict):
            _section(lines, (key,), value, origins)
        elif isinstance(value, list) and not _is_values(value):
            for entry in value:
                lines += ["", f"[[{_key(key)}]]  # {origins[(key,)]}"]
                lines += [f"{_key(k)} = {_value(v)}" for k, v in entry.items()]
    return "\n".join(lines).lstrip("\n") + "\n"


def _section(
    lines: list[str], keys: tuple[str, ...], table: dict[str, object], origins: dict[tuple[str, ...], Path]
) -> None:
    home = origins[keys]
    lines += ["", f"[{'.'.join(map(_key, keys))}]  # {home}"]
    inner = []
    for key, value in table.items():
        if isinstance(value, dict) and keys[0] != "cells":  # a cell is an inline table
            inner.append((key, value))
            continue
        origin = origins.get((*keys, key), home)
        note = f"  # {origin}" if origin != home else ""
        lines.append(f"{_key(key)} = {_value(value)}{note}")
    for key, value in inner:
        _section(lines, (*keys, key), value, origins)


def _is_values(value: object) -> bool:
    return isinstance(value, list) and not any(isinstance(v, dict) for v in value)


def _key(key: str) -> str:
    return key if key.replace("_", "").replace("-", "").isalnum() and key.isascii() else _string(key)


def _string(text: str) -> str:
    return '"' + text.replace("\\", "\\\\").replace('"', '\\"').replace("\n", "\\n") + '"'


def _value(value: object) -> str:
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, str):
        return _string(value)
    if isinstance(value, int | float):
        return repr(value)
    if isinstance(value, list):
        return "[" + ", ".join(_value(v) for v in value) + "]"
    if isinstance(value, dict):
        return "{ " + ", ".join(f"{_key(k)} = {_value(v)}" for k, v in value.items()) + " }"
    return str(value)  # a date or time, as TOML writes it
