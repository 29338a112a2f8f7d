"""Bots: the policy of a seat's level for the pending decision, found through the game registry.

    >>> from firmware.games import new_game, Roll
    >>> import random
    >>> game = new_game("exxtra", ["A", "B", "C"]); game.apply(Roll(("7", "6")))
    >>> choose(game, random.Random(1))
    Place(rung=5)

Each game's levels live in its package, `firmware/games/<game>/bots.py` (docs/bots.md); its
"easy" is good enough to play a table through (demo mode) and to lose to attentive people.

A policy is `policy(game, decisions, rng)`; one that can search for as long as it is given
(an *anytime* policy, such as EXTRA!'s strong: its game's registry entry names it in `anytime`)
also takes `deadline=`, a `Deadline`, and answers by then. Without a deadline (the board's own
bots never give one) every policy is deterministic: the same position and rng, the same decision.
A policy's answer that is not a legal decision is logged and replaced by a random legal one.
"""

from __future__ import annotations

import logging
import random
import time
from collections.abc import Callable

from firmware.games import Game, find_game
from firmware.games.base import Decision

log = logging.getLogger("xtraboard.bots")


class Deadline:
    """The time by which a bot must answer: `at`, in seconds of `clock`.

    >>> Deadline(5.0, clock=lambda: 4.25).left()
    0.75
    >>> Deadline.within(0, clock=lambda: 4.0).passed()
    True
    """

    __slots__ = ("at", "clock")

    def __init__(self, at: float, clock: Callable[[], float] = time.perf_counter) -> None:
        self.at = at
        self.clock = clock

    @classmethod
    def within(cls, ms: float, clock: Callable[[], float] = time.perf_counter) -> Deadline:
        """`ms` milliseconds from now on `clock`."""
        return cls(clock() + ms / 1000.0, clock)

    def left(self) -> float:
        """Seconds still to go (negative once past)."""
        return self.at - self.clock()

    def passed(self) -> bool:
        return self.clock() >= self.at

    def __repr__(self) -> str:
        return f"Deadline(left={self.left() * 1000:.1f} ms)"


def choose(game: Game, rng: random.Random, level: str | None = None, deadline: Deadline | None = None) -> Decision:
    """The decision of the bot at `level` for the pending decision of `game`; always one of its
    legal decisions. Each game's registry entry names its levels. Without `level`: the level
    kept in the deciding seat (`Player.bot`), else the game's easiest. With a `deadline`, an
    anytime policy answers by then (a deadline already past gets its quickest answer); the
    others answer as they always do. An answer that is no legal decision (a bug in a bot) is
    logged and replaced by a random legal one: play goes on."""
    decisions = game.legal_decisions()
    if not decisions:
        raise ValueError("no decision is pending")
    spec = find_game(game.name)
    if level is None:
        player = game.pending().player  # a decision is pending: whose
        seat = game.players[player].bot if player is not None else None
        level = seat if seat in spec.levels else spec.levels[0]
    policy = spec.policy(level)
    if deadline is not None and level in spec.anytime:
        choice = policy(game, decisions, rng, deadline=deadline)
    else:
        choice = policy(game, decisions, rng)
    if choice in decisions:
        return choice
    log.warning("%s bot %r answered %r, not a legal decision: a random legal one is played", game.name, level, choice)
    return rng.choice(decisions)
