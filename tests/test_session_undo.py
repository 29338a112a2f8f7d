"""The session's undo (take back the last human decision since the last roll) finds who made
each step from the engine's `actor`, and agrees with the answer replaying gives."""

from __future__ import annotations

import random

import pytest

from firmware.dice import SeededDice
from firmware.games import DECISION, OVER, ROLL, Game, Roll, game_class
from firmware.table import Seat, Table
from tests.support import GAME_NAMES


def replayed_target(game: Game) -> int | None:
    """The history length undo goes back to, found by replaying every prefix (the old way)."""
    length = len(game.history)
    while length and not isinstance(game.history[length - 1], Roll):
        length -= 1
        probe = type(game)(game.players)
        for step in game.history[:length]:
            probe.apply(step)
        pending = probe.pending()
        if pending.kind == DECISION and game.players[pending.player].bot is None:  # type: ignore[index]
            return length
    return None


@pytest.mark.parametrize("name", GAME_NAMES)
def test_undo_target_matches_a_replay_and_undo_goes_there(name: str) -> None:
    count = game_class(name).min_players + 1
    seats = [Seat(f"P{i}", "red", bot="easy" if i % 2 else None) for i in range(count)]
    session = Table.start(name, seats, seed=3)
    dice, rng = SeededDice(3), random.Random(3)
    undone = 0
    while session.game.pending().kind != OVER:
        target = session.undo_target()
        assert target == replayed_target(session.game)
        if target is not None and rng.random() < 0.1:
            history = list(session.game.history)
            assert session.undo() and session.game.history == history[:target]
            undone += 1
        elif session.game.pending().kind == ROLL:
            session.apply(Roll(tuple(dice.roll(session.game.dice()))))
        else:
            session.apply(rng.choice(session.game.legal_decisions()))
    assert undone > 0
