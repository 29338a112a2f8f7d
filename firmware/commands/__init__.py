"""Sub-commands of `xtraboard`, one module each (see firmware/cli.py)."""

from __future__ import annotations

import argparse
from pathlib import Path

from firmware.i18n import _


def state_dir_options() -> argparse.ArgumentParser:
    """The `--state-dir` option the commands that read the board's journal share (a parent parser)."""
    common = argparse.ArgumentParser(add_help=False)
    common.add_argument(
        "--state-dir",
        type=Path,
        default=None,
        metavar="DIR",
        help=_(
            "the board's state directory (default: $STATE_DIRECTORY, else $XDG_STATE_HOME/xtraboard,"
            " else ~/.local/state/xtraboard)"
        ),
    )
    return common
