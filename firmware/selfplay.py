"""Random play: uniformly random legal decisions, dice from a seeded source."""

from __future__ import annotations

import random
from collections.abc import Iterator

from firmware.dice import DiceSource, SeededDice
from firmware.games import Game, new_game
from firmware.turns import Decide, dice_roll, play_out

DEFAULT_NAMES = ("Alex", "Beatrice", "Carl", "Diana", "Emil", "Frida")


def random_agent(rng: random.Random) -> Decide:
    """A seat that picks one of the legal decisions with `rng`."""
    return lambda game: rng.choice(game.legal_decisions())


def play_random(game: Game, dice: DiceSource, rng: random.Random) -> Game:
    """Play `game` to its end: every seat random, one `rng` for all of them."""
    return play_out(game, dice_roll(dice), [random_agent(rng)] * len(game.players))


def selfplay_games(name: str, players: int, seed: int, count: int) -> Iterator[Game]:
    """Yield `count` finished random games; the same arguments always give the same games."""
    for index in range(count):
        game = new_game(name, DEFAULT_NAMES[:players])
        game_seed = f"{name}:{players}:{seed}:{index}"
        yield play_random(game, SeededDice(game_seed), random.Random(f"xtraboard-bot:{game_seed}"))
