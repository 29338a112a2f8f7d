"""The turn runner: the one place a game's pending steps are played — the pending seat's agent
decides, the dice roll, the step is applied — for the board and for every headless runner.

Headless runners (selfplay, the arena, the benches, the scripts) have synchronous agents: a
`Decide` per seat answers at once, and `play_out` plays the game on with them (what a runner
records it does in its agents, its `roll` or its `observe`):

    >>> import random
    >>> from firmware.dice import SeededDice
    >>> from firmware.games import new_game
    >>> rng = random.Random(1)
    >>> pick = lambda game: rng.choice(game.legal_decisions())
    >>> game = play_out(new_game("extra", ["A", "B"]), dice_roll(SeededDice(1)), [pick, pick])
    >>> game.is_over()
    True

The board has asynchronous agents (firmware.agents: bots think on a thread or in the thinking
process, engines in a subprocess; their answers arrive later as events): its turns are
`firmware.turns.board.TurnRunner`'s, apart so that a headless runner or an engine process does
not load the board's agents.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import TypeVar

from firmware.dice import DiceSource
from firmware.games import Game, Roll
from firmware.games.base import DECISION, OVER, ROLL, Pending, Step

G = TypeVar("G", bound=Game)
Decide = Callable[[Game], Step]  # a synchronous agent: one of the pending legal decisions, at once
RollFor = Callable[[Game], Roll]  # the pending roll's dice
OVER_NOW = Pending(OVER)  # what a play-out told to stop sees


def dice_roll(dice: DiceSource) -> RollFor:
    """The pending roll from `dice`, as `Game.roll` draws it."""

    def roll(game: Game) -> Roll:
        return Roll(tuple(dice.roll(game.dice())))

    return roll


def play_out(
    game: G,
    roll: RollFor,
    seats: Sequence[Decide],
    *,
    limit: int | None = None,
    stop: Callable[[Game], bool] | None = None,
    observe: Callable[[Game, Step], None] | None = None,
) -> G:
    """Play `game` on until it is over: each pending roll from `roll(game)`, each decision from
    the deciding seat's `seats[player](game)`, applied as they come. It stops sooner after
    `limit` steps, or when `stop(game)` is true before a step; `observe(game, step)` follows
    every step applied. The game is returned (played in place)."""
    # Bound once, the hooks folded into them: a play-out without hooks pays nothing for them.
    pending: Callable[[], Pending] = game.pending
    apply: Callable[[Step], None] = game.apply
    if limit is not None or stop is not None:
        pending = _stopping(game, limit, stop)
    if observe is not None:
        apply = _observed(game, observe)
    while True:
        now = pending()
        kind = now.kind
        if kind == DECISION:
            seat = now.player
            assert seat is not None, "a decision names its player"
            step = seats[seat](game)
        elif kind == ROLL:
            step = roll(game)
        else:
            return game
        apply(step)


def _stopping(game: Game, limit: int | None, stop: Callable[[Game], bool] | None) -> Callable[[], Pending]:
    """`game.pending`, but over once `limit` more steps are played or `stop(game)` holds."""
    end = None if limit is None else len(game.history) + limit

    def pending() -> Pending:
        if (end is not None and len(game.history) >= end) or (stop is not None and stop(game)):
            return OVER_NOW
        return game.pending()

    return pending


def _observed(game: Game, observe: Callable[[Game, Step], None]) -> Callable[[Step], None]:
    def apply(step: Step) -> None:
        game.apply(step)
        observe(game, step)

    return apply


def roll_to_decision(game: G, roll: RollFor) -> G:
    """Roll `game` on to its first pending decision (or its end)."""
    return play_out(game, roll, (), stop=lambda g: g.pending().kind != ROLL)
