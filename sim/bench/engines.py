"""Engine figures: complete random games per second and legal-decision enumerations per second.

Random games as `selfplay` plays them; enumerations are the `legal_decisions()` calls those
games make, timed on their own.
"""

from __future__ import annotations

import random
import time
from collections.abc import Iterator
from typing import Any

from firmware.dice import SeededDice
from firmware.games import Game, new_game
from firmware.games.registry import find_game, game_names
from firmware.selfplay import DEFAULT_NAMES, play_random



def measure(name: str, seconds: float) -> dict[str, float]:
    """Play random games of `name` for about `seconds`; return the figures."""
    enum_time = 0.0
    enum_calls = 0

    def timed_legal(game: Game) -> list:
        nonlocal enum_time, enum_calls
        start = time.perf_counter()
        decisions = game.legal_decisions()
        enum_time += time.perf_counter() - start
        enum_calls += 1
        return decisions

    games = steps = 0
    start = time.perf_counter()
    while games == 0 or time.perf_counter() - start < seconds:
        game = new_game(name, DEFAULT_NAMES[: find_game(name).benchmark_players])
        play_random(game, SeededDice(games), random.Random(games), timed_legal)
        games += 1
        steps += len(game.history)
    elapsed = time.perf_counter() - start
    return {
        f"{name}_games_per_s": games / elapsed,
        f"{name}_legal_enumerations_per_s": enum_calls / enum_time if enum_time else 0.0,
        f"{name}_steps_per_game": steps / games,
        f"{name}_games_played": games,
    }


def add_arguments(parser: Any) -> None:
    parser.add_argument("--seconds", type=float, default=3.0, help="how long to play each game (default 3)")


def run(args: Any) -> Iterator[tuple[str, float]]:
    for name in game_names():
        yield from measure(name, args.seconds).items()
