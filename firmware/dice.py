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
    """Rolls given in advance, in order (tests, scenarios); `push` queues one more. Faces are
    matched to the dice asked for: EXXTRA's faces are strings, so 7 and "7" both fit its die A.

    >>> dice = ScriptedDice([(7, "X")])
    >>> dice.roll([("1", "2", "3", "4", "5", "6", "7"), ("1", "2", "X")])
    ('7', 'X')

    `empty` is what a roll with nothing left says (a scenario names its fix there).
    """

    def __init__(self, rolls: Iterable[Sequence[Any]] = (), *, empty: str = "scripted dice have no roll left") -> None:
        self._rolls = [tuple(faces) for faces in rolls]
        self._empty = empty

    def push(self, faces: Sequence[Any]) -> None:
        self._rolls.append(tuple(faces))

    @property
    def left(self) -> int:
        """Rolls still queued."""
        return len(self._rolls)

    def roll(self, dice: Sequence[Faces]) -> tuple[Any, ...]:
        if not self._rolls:
            raise LookupError(self._empty)
        faces = self._rolls.pop(0)
        fitted = tuple(_fit(face, die) for face, die in zip(faces, dice))
        if len(faces) != len(dice) or any(f not in d for f, d in zip(fitted, dice)):
            raise ValueError(f"scripted roll {list(faces)} does not fit the dice asked for: "
                             f"{[list(d) for d in dice]}")
        return fitted


def _fit(face: Any, die: Faces) -> Any:
    """`face` as the die writes it: 7 for a die of strings is "7", "3" for a die of numbers is 3."""
    if face in die:
        return face
    if isinstance(face, int) and str(face) in die:
        return str(face)
    if isinstance(face, str) and face.isdigit() and int(face) in die:
        return int(face)
    return face
