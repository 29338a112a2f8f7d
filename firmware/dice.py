"""Dice sources: where a game's rolls come from.

A source is asked for one face per die, given each die's faces, and never sees the game:

>>> SeededDice(7).roll([(1, 2, 3, 4, 5, 6)] * 2)
(2, 4)

Games on the board roll `CommittedDice`: a secret seed (from the OS's cryptographic RNG, which
the Pi feeds from its hardware RNG; or the seed a test or demo gives) whose SHA-256 is shown and
recorded before the game, every roll derived from the seed and the roll's index by HMAC-SHA256
(docs/dice.md), the seed revealed in the record when the game is over so that anyone can check
every roll (`xtraboard verify`). Self-play and engine tests use `SeededDice`; scenarios
`ScriptedDice`. Physical dice keyed in by the players are an input mode of the board's loop, not
a source.
"""

from __future__ import annotations

import hashlib
import hmac
import random
import secrets
from collections.abc import Iterable, Sequence
from typing import Protocol, cast

# A die's face: EXXTRA's dice show strings ("X"), the others' numbers.
Face = str | int
Faces = Sequence[Face]  # one die's faces


class DiceSource(Protocol):
    # The index of the next roll: the table sets it before each roll, so that the sources whose
    # roll n is a function of n (seeded, committed) give roll n again after a takeback; the
    # others only count.
    rolls_made: int

    def roll(self, dice: Sequence[Faces]) -> tuple[Face, ...]:
        """One uniformly chosen face of each die."""


class SystemDice:
    """The OS's cryptographic RNG (`secrets`), for real play."""

    def __init__(self) -> None:
        self.rolls_made = 0

    def roll(self, dice: Sequence[Faces]) -> tuple[Face, ...]:
        self.rolls_made += 1
        return tuple(secrets.choice(list(faces)) for faces in dice)


SCHEME = "hmac-sha256-v1"  # the derivation below, as records name it (docs/dice.md)
SCHEME_WORD = "hmac-sha256-v2"  # the same with the table's word in every message
# v3: the rolls of v1 (or, with a word, of v2), and a commitment that binds the dice mode, so
# that a record's "physical" cannot be changed after the game. The board writes v3 since.
SCHEME_BOUND = "hmac-sha256-v3"
SCHEMES = (SCHEME, SCHEME_WORD, SCHEME_BOUND)
ELECTRONIC, PHYSICAL = "electronic", "physical"  # the dice modes a v3 commitment binds


def new_secret() -> str:
    """A fresh secret seed: 32 bytes from the OS's cryptographic RNG, as 64 hex digits."""
    return secrets.token_hex(32)


def commitment(secret: str, mode: str | None = None) -> str:
    """What the board shows and records before the game: `sha256:` and the hex SHA-256 of the
    seed's UTF-8 bytes (schemes v1 and v2, `mode` None); under hmac-sha256-v3 of
    "<mode>:<seed>", the mode being "electronic" or "physical" (the two prefixes differ, so no
    seed of one mode commits to the same as a seed of the other).

    >>> commitment("7")[:19]
    'sha256:7902699be42c'
    >>> commitment("7", "electronic") != commitment("7", "physical")
    True
    """
    if mode is not None and mode not in (ELECTRONIC, PHYSICAL):
        raise ValueError(f"the dice mode is {ELECTRONIC!r} or {PHYSICAL!r}, not {mode!r}")
    text = secret if mode is None else f"{mode}:{secret}"
    return "sha256:" + hashlib.sha256(text.encode("utf-8")).hexdigest()


def derive_roll(secret: str, index: int, dice: Sequence[Faces], word: str | None = None) -> tuple[Face, ...]:
    """Roll number `index` (0 = the game's first roll) of a game whose seed is `secret`.

    The bytes of HMAC-SHA256(key = the seed's UTF-8, message = "roll:<index>"), then of
    "roll:<index>:1", "roll:<index>:2", ... are read in order; a die of n faces takes the next
    byte b below 256 - 256 % n (others are skipped: no modulo bias) and shows face b % n of
    its faces as listed. With the table's `word` (scheme hmac-sha256-v2) the message is
    "roll:<index>:word:<word>" (then the same with ":1", ":2", ...), as UTF-8: the board chose
    the seed before anyone said the word, so it cannot have chosen a seed that suits it.

    >>> derive_roll("7", 0, [(1, 2, 3, 4, 5, 6)] * 5)
    (2, 1, 1, 3, 1)
    >>> derive_roll("7", 0, [(1, 2, 3, 4, 5, 6)] * 5, word="LRD")
    (3, 3, 5, 1, 6)
    """
    key = secret.encode("utf-8")
    base = f"roll:{index}" if word is None else f"roll:{index}:word:{word}"
    out: list[Face] = []
    block, stream, at = 0, b"", 0
    for faces in dice:
        choices = list(faces)
        count = len(choices)
        if not 1 <= count <= 256:
            raise ValueError(f"a die must have 1 to 256 faces, not {count}")
        limit = 256 - 256 % count
        while True:
            if at == len(stream):
                message = base if block == 0 else f"{base}:{block}"
                stream, at, block = hmac.new(key, message.encode("utf-8"), hashlib.sha256).digest(), 0, block + 1
            byte = stream[at]
            at += 1
            if byte < limit:
                out.append(choices[byte % count])
                break
    return tuple(out)


class CommittedDice:
    """The board's dice: roll n is `derive_roll(secret, n, dice, word)`; `rolls_made` is the index
    of the next roll (a game restored after a power cut goes on from its count of rolls); `word`
    is the table's word, None until (unless) the players give one before the first roll.

    >>> dice = CommittedDice("7")
    >>> dice.roll([(1, 2, 3, 4, 5, 6)] * 5), dice.rolls_made
    ((2, 1, 1, 3, 1), 1)
    """

    def __init__(self, secret: str, rolls_made: int = 0, word: str | None = None) -> None:
        self.secret = secret
        self.rolls_made = rolls_made
        self.word = word

    @property
    def commitment(self) -> str:
        return commitment(self.secret)

    def roll(self, dice: Sequence[Faces]) -> tuple[Face, ...]:
        faces = derive_roll(self.secret, self.rolls_made, dice, self.word)
        self.rolls_made += 1
        return faces


class SeededDice:
    """A reproducible source: the same seed gives the same rolls on every machine.

    Roll n depends only on the seed and n, so a game restored after a power cut continues the
    same stream: `SeededDice(seed, rolls_made=n)`.
    """

    def __init__(self, seed: int | str, rolls_made: int = 0) -> None:
        self.seed = seed
        self.rolls_made = rolls_made

    def roll(self, dice: Sequence[Faces]) -> tuple[Face, ...]:
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

    def __init__(
        self, rolls: Iterable[Sequence[object]] = (), *, empty: str = "scripted dice have no roll left"
    ) -> None:
        self._rolls = [tuple(faces) for faces in rolls]
        self._empty = empty
        self.rolls_made = 0  # counted only: the rolls come in the order given

    def push(self, faces: Sequence[object]) -> None:
        self._rolls.append(tuple(faces))

    @property
    def left(self) -> int:
        """Rolls still queued."""
        return len(self._rolls)

    def roll(self, dice: Sequence[Faces]) -> tuple[Face, ...]:
        if not self._rolls:
            raise LookupError(self._empty)
        self.rolls_made += 1
        return fit_roll(self._rolls.pop(0), dice)


def fit_roll(faces: Sequence[object], dice: Sequence[Faces], what: str = "scripted roll") -> tuple[Face, ...]:
    """`faces` as the dice write them; ValueError when there are not as many faces as dice or
    a face is not on its die.

    >>> fit_roll([2, "X"], [("1", "2", "3"), ("1", "2", "X")])
    ('2', 'X')
    """
    fitted = tuple(_fit(face, die) for face, die in zip(faces, dice))
    if len(faces) != len(dice) or any(f not in d for f, d in zip(fitted, dice)):
        raise ValueError(f"{what} {list(faces)} does not fit the dice asked for: {[list(d) for d in dice]}")
    return cast(tuple[Face, ...], fitted)  # each face is on its die: checked just above


def _fit(face: object, die: Faces) -> object:
    """`face` as the die writes it: 7 for a die of strings is "7", "3" for a die of numbers is 3."""
    if face in die:
        return face
    if isinstance(face, int) and str(face) in die:
        return str(face)
    if isinstance(face, str) and face.isdigit() and int(face) in die:
        return int(face)
    return face


# --- the seal: the commitment as the board shows it (docs/dice.md, "The seal") -----------------
# 128 bits: a birthday search for two seeds whose seals look alike takes some 2^64 tries (48 bits,
# the 12 digits shown before, took a laptop under a minute). Two lines of four groups of four hex
# digits: 19 characters a line, what the body font of a 128×64 panel holds (21), the same shape on
# every board, in `xtraboard verify` and in the docs, so a photograph compares group by group.
SEAL_DIGITS = 32
SEAL_GROUP = 4
SEAL_GROUPS_PER_LINE = 4


def seal_lines(commit: str) -> tuple[str, ...]:
    """The seal of the commitment `commit` ("sha256:<64 hex digits>") as the board shows it: its
    first 32 hex digits in groups of four, four groups a line. ValueError for anything else.

    >>> seal_lines(commitment("7"))
    ('7902 699b e42c 8a8e', '46fb bb45 0172 6517')
    """
    digest = commit.removeprefix("sha256:")
    if not commit.startswith("sha256:") or len(digest) != 64 or any(c not in "0123456789abcdef" for c in digest):
        raise ValueError(f"a dice commitment is 'sha256:' and 64 lower-case hex digits, not {commit!r}")
    groups = [digest[i : i + SEAL_GROUP] for i in range(0, SEAL_DIGITS, SEAL_GROUP)]
    return tuple(" ".join(groups[i : i + SEAL_GROUPS_PER_LINE]) for i in range(0, len(groups), SEAL_GROUPS_PER_LINE))
