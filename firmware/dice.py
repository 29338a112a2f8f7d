"""Dice sources: where a game's rolls come from.

A source is asked for one face per die, given each die's faces, and never sees the game:

>>> SeededDice(7).roll([(1, 2, 3, 4, 5, 6)] * 2)
(2, 4)

Play uses `SystemDice` (the OS's cryptographic RNG, which the Pi feeds from its hardware RNG);
tests, replays and demos use `SeededDice` or `ScriptedDice`. Physical dice keyed in by the
players are an input mode of the board's loop, not a source.
"""

from __future__ import annotations

import random
import secrets
from collections.abc import Iterable, Sequence
from typing import Any, Protocol

Faces = Sequence[Any]


class DiceSource(Protocol):
    def roll(self, dice: Sequence[Faces]) -> tuple[Any, ...]:
        """One uniformly chosen face of each die."""


class SystemDice:
    """The OS's cryptographic RNG (`secrets`), for real play."""

    def roll(self, dice: Sequence[Faces]) -> tuple[Any, ...]:
        return tuple(secrets.choice(list(faces)) for faces in dice)


class SeededDice:
    """A reproducible source: the same seed gives the same rolls on every machine.

    Roll n depends only on the seed and n, so a game restored after a power cut continues the
    same stream: `SeededDice(seed, rolls_made=n)`.
    """

    def __init__(self, seed: int | str, rolls_made: int = 0) -> None:
        self.seed = seed
        self.rolls_made = rolls_made

    def roll(self, dice: Sequence[Faces]) -> tuple[Any, ...]:
        rng = random.Random(f"xtraboard-dice:{self.seed}:{self.rolls_made}")
        self.rolls_made += 1
        return tuple(rng.choice(list(faces)) for faces in dice)


class ScriptedDice:
    """Rolls given in advance (tests and scenarios); each must fit the dice asked for."""

    def __init__(self, rolls: Iterable[Sequence[Any]]) -> None:
        self._rolls = list(rolls)

    def push(self, faces: Sequence[Any]) -> None:
        self._rolls.append(faces)

    def roll(self, dice: Sequence[Faces]) -> tuple[Any, ...]:
        if not self._rolls:
            raise LookupError("scripted dice have no roll left")
        faces = tuple(self._rolls.pop(0))
        if len(faces) != len(dice) or any(f not in d for f, d in zip(faces, dice)):
            raise ValueError(f"scripted roll {list(faces)} does not fit dice {[list(d) for d in dice]}")
        return faces
