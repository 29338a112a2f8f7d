"""Engine figures: complete random games per second and legal-decision enumerations per second.

The games are the bench's own random games, so that the figure is the engines' speed rather
than the random player's: every roll is one of the dice's possible rolls (all built once as
`Roll` steps) picked with one `random()` call, every decision one of `legal_decisions()` picked
the same way, and each goes through the engine's own `apply` (checks, state, undo record). The
games are reproducible (game n uses `random.Random(n)`) but not the games `selfplay` plays,
whose dice are `SeededDice`.

Enumerations are the `legal_decisions()` calls of further such games, each call timed on its
own (after the games figure, for a third of `--seconds`: the timing does not slow the games).
Times are the process's CPU time, so that other work on a shared machine does not count.
"""

from __future__ import annotations

import random
import time
from collections.abc import Callable, Iterator, Sequence
from itertools import product
from typing import Any

from firmware.games import Game, Roll, new_game
from firmware.games.base import Decision
from firmware.games.registry import find_game, game_names
from firmware.selfplay import DEFAULT_NAMES
from firmware.turns import play_out


class _RandomGames:
    """Plays random games of one game to the end (see the module's docstring)."""

    def __init__(self, name: str) -> None:
        self.name = name
        self.players = DEFAULT_NAMES[: find_game(name).benchmark_players]
        self._rolls: dict[Any, tuple[Roll, ...]] = {}  # every roll of a set of dice, per dice()

    def _all_rolls(self, dice: Any) -> tuple[Roll, ...]:
        rolls = self._rolls.get(dice)
        if rolls is None:
            rolls = self._rolls[dice] = tuple(Roll(faces) for faces in product(*dice))
        return rolls

    def play(self, seed: int, legal: Callable[[Game], Sequence[Decision]] | None = None) -> Game:
        """Game number `seed` to its end; `legal` replaces `legal_decisions` (to time it)."""
        game = new_game(self.name, self.players)
        chance = random.Random(seed).random
        decisions = type(game).legal_decisions if legal is None else legal
        rolls: tuple[Roll, ...] = ()
        dice: Any = None

        def decide(game: Game) -> Decision:
            options = decisions(game)
            return options[int(chance() * len(options))]

        def roll(game: Game) -> Roll:
            nonlocal dice, rolls
            if game.dice() is not dice:  # engines return constant dice: look them up once
                dice = game.dice()
                rolls = self._all_rolls(dice)
            return rolls[int(chance() * len(rolls))]

        return play_out(game, roll, [decide] * len(self.players))


def measure(name: str, seconds: float) -> dict[str, float]:
    """Play random games of `name` for about `seconds`, then time their enumerations for a
    third of that; return the figures."""
    player = _RandomGames(name)
    games = steps = 0
    start = time.process_time()
    while games == 0 or time.process_time() - start < seconds:
        steps += len(player.play(games).history)
        games += 1
    elapsed = time.process_time() - start

    enum_time = 0.0
    enum_calls = 0

    def timed_legal(game: Game) -> Sequence[Decision]:
        nonlocal enum_time, enum_calls
        start = time.perf_counter()  # one call is too short for the CPU clock's resolution
        decisions = game.legal_decisions()
        enum_time += time.perf_counter() - start
        enum_calls += 1
        return decisions

    seed = 0
    start = time.process_time()
    while seed == 0 or time.process_time() - start < seconds / 3:
        player.play(seed, timed_legal)
        seed += 1
    return {
        f"{name}_games_per_s": games / elapsed,
        f"{name}_legal_enumerations_per_s": enum_calls / enum_time if enum_time else 0.0,
        f"{name}_steps_per_game": steps / games,
        f"{name}_games_played": games,
    }


def add_arguments(parser: Any) -> None:
    parser.add_argument(
        "--seconds",
        type=float,
        default=3.0,
        help="how long to play each game (default 3), then a third of it timing enumerations",
    )


def run(args: Any) -> Iterator[tuple[str, float]]:
    for name in game_names():
        yield from measure(name, args.seconds).items()
