"""Helpers many test files share: the built-in games, playing a game on at random, and storage
that fills up. (Fixtures live in conftest.py; these are plain functions to import.)"""

from __future__ import annotations

import ast
import contextlib
import errno
import os
import signal
import random
import resource
import sqlite3
import subprocess
from collections.abc import Callable, Iterator, Sequence
from importlib import import_module
from pathlib import Path
from typing import Any

from firmware.dice import DiceSource
from firmware.games import ROLL, Game
from firmware.games.registry import BUILTIN
from firmware.games import words_of
from firmware.games.words import Events
from firmware.journal.storage import connect_file
from firmware.turns import dice_roll, play_out

# The built-in games' names, in the registry's order (tests parametrised over them).
GAME_NAMES: tuple[str, ...] = tuple(import_module(package).SPEC.name for package in BUILTIN)


def decisions_of(game: Game, dice: DiceSource, limit: int | None = None) -> Iterator[Game]:
    """Play `game` on: every pending roll from `dice`; at every pending decision yield the game,
    and the caller applies one. Stops when the game is over or has `limit` steps."""
    while not game.is_over() and (limit is None or len(game.history) < limit):
        if game.pending().kind == ROLL:
            game.roll(dice)
            continue
        before = len(game.history)
        yield game
        if len(game.history) == before:
            raise RuntimeError("decisions_of: the caller applied no decision")


def play_on(
    game: Game,
    dice: DiceSource,
    rng: random.Random | None = None,
    *,
    limit: int | None = None,
    decide: Callable[[Game], Any] | None = None,
    each: Callable[[Game], None] | None = None,
) -> Game:
    """Play `game` on (to its end, or until it has `limit` steps): rolls from `dice`, decisions
    from `decide(game)`, by default a random legal one drawn with `rng`; `each(game)` after every
    step (a journal append). Returns the game."""
    if decide is None:
        assert rng is not None, "play_on needs `rng` or `decide`"
        chance = rng

        def decide(game: Game) -> Any:
            return chance.choice(game.legal_decisions())

    return play_out(
        game,
        dice_roll(dice),
        [decide] * len(game.players),
        limit=None if limit is None else max(0, limit - len(game.history)),
        observe=None if each is None else lambda game, _step: each(game),
    )


def limited_to(extra_pages: int) -> Callable[[Path], sqlite3.Connection]:
    """A journal connection whose database may grow only `extra_pages` more pages: a full disk
    to SQLite."""

    def connect(path: Path) -> sqlite3.Connection:
        conn = connect_file(path)
        pages = conn.execute("PRAGMA page_count").fetchone()[0]
        conn.execute(f"PRAGMA max_page_count = {max(pages, 1) + extra_pages}")
        return conn

    return connect


def docstring_lines(tree: ast.AST) -> set[int]:
    """The line numbers of every docstring (a string as the first statement of a module, class
    or function)."""
    lines: set[int] = set()
    for node in ast.walk(tree):
        if isinstance(node, (ast.Module, ast.ClassDef, ast.FunctionDef, ast.AsyncFunctionDef)) and node.body:
            first = node.body[0]
            if (
                isinstance(first, ast.Expr)
                and isinstance(first.value, ast.Constant)
                and isinstance(first.value.value, str)
            ):
                lines.update(range(first.lineno, (first.end_lineno or first.lineno) + 1))
    return lines


def limited_memory() -> None:
    """A child's address space capped at 2 GiB: an unbounded read (of /dev/zero, say) must fail
    the test, not the machine."""
    resource.setrlimit(resource.RLIMIT_AS, (2 << 30, 2 << 30))


def run_capped(
    argv: list[str], *, stdin: Any = subprocess.DEVNULL, timeout: float = 120
) -> subprocess.CompletedProcess[str]:
    """`argv` run from the checkout with its memory capped (`limited_memory`), its output
    captured as text; a FIFO that blocks a read shows as the timeout."""
    return subprocess.run(
        argv,
        cwd=Path(__file__).resolve().parents[1],
        stdin=stdin,
        capture_output=True,
        text=True,
        timeout=timeout,
        preexec_fn=limited_memory,
    )


def explained(game: str, names: Sequence[str], events: Events) -> str | None:
    """The explanation line the board shows for a step of `game`: the short form of the game's
    words, None for a step it does not show (a plain roll)."""
    said = words_of(game).said(names, events)
    return said.short if said is not None and said.shown else None


def red_then_two_bots_played(board: Any) -> Any:
    """On an EXXTRA seat screen of a seed-2 board (a `sim.board.SimBoard`): Red a person, two bots;
    Red places 50 on rung 5, Blue's 76 on rung 4 kicks it, Green plays 64 on rung 5; back at
    Red's roll prompt."""
    for kind in ("p", "b", "b"):
        if kind == "b":
            board.tap("right")
        board.tap("ok")
    board.tap("roll")
    board.settle()
    board.tap("ok")
    board.settle()
    assert board.state("pending") == {"kind": "roll", "player": 0}
    return board


def fill(folder: Path) -> Path:
    """Fill the file system under `folder` to the last byte (a card that is full); the file that
    did it, to remove."""
    filler = folder / "filler"
    fd = os.open(filler, os.O_WRONLY | os.O_CREAT, 0o600)
    try:
        with contextlib.suppress(OSError):
            while os.write(fd, b"\0" * 4096):
                pass
    finally:
        os.close(fd)
    probe = folder / "probe"
    try:
        probe.write_bytes(b"\0" * 8192)
    except OSError as full:
        assert full.errno == errno.ENOSPC, full
    else:
        raise AssertionError(f"{folder} took 8 KiB more after it was filled")
    finally:
        probe.unlink(missing_ok=True)
    return filler


def stays_up_without_gpio(child: subprocess.Popen[str]) -> tuple[list[str], str, str]:
    """A `run` without GPIO (firmware/fault_mode.py): wait for its one "buttons:" line, check it
    is still up, end it with SIGTERM. Its stderr lines up to then, and the rest of its output."""
    try:
        assert child.stderr is not None
        lines: list[str] = []
        while not any(line.startswith("xtraboard run: buttons:") for line in lines):
            line = child.stderr.readline()
            assert line, f"exited {child.wait()}: {lines}"
            lines.append(line.rstrip("\n"))
        assert child.poll() is None  # still up, waiting for GPIO
        child.send_signal(signal.SIGTERM)
        stdout, rest = child.communicate(timeout=60)
    finally:
        if child.poll() is None:
            child.kill()
            child.wait()
    return lines, stdout, rest
