"""Random play: uniformly random legal decisions, dice from a seeded source."""

from __future__ import annotations

import random
from collections.abc import Callable, Sequence

from firmware.dice import DiceSource, SeededDice
from firmware.games import ROLL, Game, new_game
from firmware.games.base import Decision

DEFAULT_NAMES = ("Alex", "Beatrice", "Carl", "Diana", "Emil", "Frida")


def play_random(
    game: Game, dice: DiceSource, rng: random.Random, enumerate_hook: Callable[[Game], Sequence[Decision]] | None = None
) -> Game:
    """Play `game` to its end; `enumerate_hook` replaces `legal_decisions` (for the benchmark)."""
    legal = enumerate_hook or (lambda g: g.legal_decisions())
    while True:
        kind = game.pending().kind
        if kind == ROLL:
            game.roll(dice)
        elif kind == "decision":
            game.apply(rng.choice(legal(game)))
        else:
            return game


def selfplay_games(name: str, players: int, seed: int, count: int):
    """Yield `count` finished random games; the same arguments always give the same games."""
    for index in range(count):
        game = new_game(name, DEFAULT_NAMES[:players])
        game_seed = f"{name}:{players}:{seed}:{index}"
        yield play_random(game, SeededDice(game_seed), random.Random(f"xtraboard-bot:{game_seed}"))
