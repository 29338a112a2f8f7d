"""Sub-commands of `xtraboard`, one module each (see firmware/cli.py), and the options several
of them share, so that each is spelt and explained once."""

from __future__ import annotations

import argparse
from pathlib import Path

from firmware.i18n import _


def add_board_option(parser: argparse.ArgumentParser, help_text: str | None = None) -> None:
    """`--board FILE`: the board description to use."""
    parser.add_argument(
        "--board",
        type=Path,
        metavar="FILE",
        help=help_text
        or _("board description (default: $XTRABOARD_BOARD, /etc/xtraboard/board.toml, the built-in one)"),
    )


def add_state_dir_option(parser: argparse.ArgumentParser, help_text: str | None = None) -> None:
    """`--state-dir DIR`: the board's journal, history and records."""
    parser.add_argument(
        "--state-dir",
        type=Path,
        default=None,
        metavar="DIR",
        help=help_text
        or _(
            "the board's state directory (default: $STATE_DIRECTORY, else $XDG_STATE_HOME/xtraboard,"
            " else ~/.local/state/xtraboard)"
        ),
    )


def add_lang_option(parser: argparse.ArgumentParser, help_text: str) -> None:
    """`--lang LANG`: the board's language, used at once for the command's own messages too."""
    parser.add_argument("--lang", type=lang, metavar="LANG", help=help_text)


def state_dir_options() -> argparse.ArgumentParser:
    """The `--state-dir` option the commands that read the board's journal share (a parent parser)."""
    common = argparse.ArgumentParser(add_help=False)
    add_state_dir_option(common)
    return common


def lang(text: str) -> str:
    """argparse type of --lang: a language the board speaks (firmware/i18n.py), used at once for
    this command's own messages too.

    >>> lang("de")
    'de'
    """
    from firmware.i18n import LanguageError, check_language, use

    try:
        use(check_language(text))
    except LanguageError as exc:
        raise argparse.ArgumentTypeError(str(exc)) from None
    return text
