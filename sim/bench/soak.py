"""Soak: demo games one after another in one board process, back to the main menu after each,
and the process's memory after a warm-up and at the end.

    xtraboard bench soak --games 420              # every game at every seat count, in turn
    xtraboard bench soak --games 300 --no-display # the test suite's faster drive

A board on the bench or a desktop demo runs for days; whatever it keeps per event without a
bound (a pin's history of states, every cue played) shows here as memory growing game after
game. The figures are the resident set size (RSS, from /proc) after `--warmup` games, when the
caches have filled, and after the last game, each after a garbage collection; `growth_kb` is
the difference. tests/test_soak.py runs it and fails above 2 MB.

`--no-display` plays as a board whose display is gone (the board plays on without it): the
same loop, screens, bots, LEDs, buzzer and journal, without drawing each frame's picture, which
takes most of the time of a game.
"""

from __future__ import annotations

import argparse
import gc
import resource
import time
from collections.abc import Iterator
from dataclasses import replace
from pathlib import Path
from typing import Any


def mix() -> list[tuple[str, int]]:
    """Every game at every seat count it allows, in turn."""
    from firmware.games.registry import games

    return [(spec.name, seats) for spec in games() for seats in spec.players]


def rss_kb() -> int:
    """The resident set size now (Linux), else the peak so far."""
    try:
        pages = int(Path("/proc/self/statm").read_text().split()[1])
        return pages * resource.getpagesize() // 1024
    except (OSError, IndexError, ValueError):
        return int(resource.getrusage(resource.RUSAGE_SELF).ru_maxrss)


def play_one(board: Any, game: str, seats: int) -> None:
    """A demo game from the main menu to its end, then back to the main menu as a person goes:
    OK to the result's choice, RIGHT to "Menu", OK."""
    from sim.app import start_demo

    start_demo(board, game, seats)
    board.settle()
    if board.app.session is None or not board.app.session.over:
        raise RuntimeError(f"soak: the {game} demo with {seats} seats did not finish")
    for button in ("ok", "right", "ok"):
        board.tap(button)
    if type(board.app.screen).__name__ != "MainMenu":
        raise RuntimeError(f"soak: after the {game} demo the board shows {type(board.app.screen).__name__}")


def soak(
    games: int, *, warmup: int = 30, display: bool = True, seed: int = 1, state_dir: Path | None = None
) -> dict[str, float]:
    from sim.board import SimBoard

    board = SimBoard(seed=seed, state_dir=state_dir)
    board.app.settings = replace(board.app.settings, bot_pace="fast")
    if not display:
        board.hardware.display = None
    order = mix()
    started = time.perf_counter()
    before = 0
    try:
        for n in range(games):
            play_one(board, *order[n % len(order)])
            if n + 1 == warmup:
                gc.collect()
                before = rss_kb()
    finally:
        board.close()
    gc.collect()
    after = rss_kb()
    seconds = time.perf_counter() - started
    return {
        "games": games,
        "seconds": seconds,
        "rss_kb_after_warmup": before,
        "rss_kb_at_end": after,
        "growth_kb": after - before,
        "growth_kb_per_game": (after - before) / max(1, games - warmup),
    }


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--games", type=int, default=420, help="games to play (default 420)")
    parser.add_argument("--warmup", type=int, default=30, help="games before the first measure (default 30)")
    parser.add_argument("--no-display", action="store_true", help="play without drawing the display (faster)")
    parser.add_argument("--state-dir", type=Path, help="keep a journal there (default: none)")


def run(args: argparse.Namespace) -> Iterator[tuple[str, float]]:
    if not 0 < args.warmup < args.games:
        raise SystemExit("xtraboard bench soak: --warmup must be at least 1 and below --games")
    yield from soak(args.games, warmup=args.warmup, display=not args.no_display, state_dir=args.state_dir).items()
