"""Undo and copy without replay, in all three engines: under random play, `undo()` after `apply()`
gives back exactly the state before, a refused step leaves the undo stack as it was, `copy()`
equals a replay of the game's record and is independent of the original, and `actor(i)` names
who made step i."""

from __future__ import annotations

import json
import random
from collections.abc import Iterator
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from firmware.dice import SeededDice
from firmware.errors import IllegalStepError
from firmware.games import DECISION, OVER, ROLL, Game, Roll, game_class, new_game
from firmware.games.extra.rules import Choice, Extra
from firmware.games.exxtra.rules import Exxtra, Place, Reroll
from firmware.games.levelx.rules import Groups, LevelX, TurnOnes, outcomes
from firmware.records import replay_record
from tests.support import GAME_NAMES

GAMES = settings(max_examples=10, deadline=None)
seeds = st.integers(min_value=0, max_value=2**32 - 1)
MAX_STEPS = 5000  # only guards against a hang: random games end long before


def full_state(game: Game) -> tuple[Any, ...]:
    """Everything a caller can read: every property and public attribute, the protocol's
    answers, the record, who made each step and the per-game queries."""
    cls = type(game)
    properties = {name: getattr(game, name) for name in dir(cls) if isinstance(getattr(cls, name), property)}
    attributes = {name: value for name, value in vars(game).items() if not name.startswith("_")}
    extra: Any = None
    if isinstance(game, Exxtra):
        extra = [game.would_remove(rung) for rung in range(6)]
    elif isinstance(game, LevelX):
        extra = outcomes(game)
    elif isinstance(game, Extra):
        extra = (
            [(s.row_crosses, s.numbers, s.column_crosses, s.ended, s.total) for s in game.sheets],
            game.extra_dice(),
            [game.columns_for(die) for die in range(5)] if game.faces else None,
        )
    return (
        properties,
        attributes,
        extra,
        game.pending(),
        game.legal_decisions(),
        game.dice(),
        game.result(),
        json.dumps(game.events, default=list),
        game.to_record(),
        [game.actor(i) for i in range(len(game.history))],
    )


def refused_candidates(game: Game) -> list[Any]:
    """Steps the engine refuses now (checked below), some of them only inside its own rules."""
    pending = game.pending()
    if pending.kind == ROLL:
        return [Reroll(), Roll(("9",) * len(game.dice()))]  # a decision before the roll; no such faces
    legal = game.legal_decisions()
    candidates: list[Any] = [Roll(tuple(faces[0] for faces in game.dice()))]
    if isinstance(game, Exxtra):
        candidates += [Place(r) for r in range(-1, 7) if Place(r) not in legal]
    elif isinstance(game, LevelX):
        candidates += [Groups(((0,), (0,))), Groups(((0, 1, 2, 3, 4),)), TurnOnes((7,))]
        candidates += [g for g in (Groups(((0, 1, 2, 3),)), Groups(((0,), (1,), (2,), (3,)))) if g not in legal]
    elif isinstance(game, Extra):
        other = (pending.player + 1) % len(game.players)  # type: ignore[operator]
        candidates += [Choice(other, 0, 0, ((1, 2), (3, 4))), Choice(pending.player, 0, 0, ((0, 1), (2, 3)))]  # type: ignore[arg-type]
    return [c for c in candidates if c not in legal]


def random_play(name: str, players: int, seed: int) -> Iterator[tuple[Game, Any]]:
    """Yield (game, next step) before each step of one random game; the caller applies it."""
    game = new_game(name, [f"P{i}" for i in range(players)])
    dice, rng = SeededDice(seed), random.Random(seed)
    for _ in range(MAX_STEPS):
        kind = game.pending().kind
        if kind == OVER:
            return
        step = Roll(tuple(dice.roll(game.dice()))) if kind == ROLL else rng.choice(game.legal_decisions())
        length = len(game.history)
        yield game, step
        if len(game.history) != length + 1:
            raise AssertionError("the caller must apply each step it is given")
    raise AssertionError(f"{name} seed {seed}: not over after {MAX_STEPS} steps")


def seats(name: str) -> st.SearchStrategy[int]:
    cls = game_class(name)
    return st.integers(min_value=cls.min_players, max_value=cls.max_players)


@pytest.mark.parametrize("name", GAME_NAMES)
@GAMES
@given(data=st.data(), seed=seeds)
def test_undo_after_apply_restores_the_state_before(name: str, data: st.DataObject, seed: int) -> None:
    players = data.draw(seats(name))
    states = []
    for game, step in random_play(name, players, seed):
        before = full_state(game)
        states.append(before)
        for bad in refused_candidates(game):  # a refused step must not push onto the undo stack
            with pytest.raises(IllegalStepError):
                game.apply(bad)
        game.apply(step)
        after = full_state(game)
        assert game.undo() == step
        assert full_state(game) == before
        game.apply(step)
        assert full_state(game) == after
    # and all the way back to the start, one step at a time
    while game.history:
        game.undo()
        assert full_state(game) == states.pop()
    assert full_state(game) == full_state(new_game(name, game.players))
    with pytest.raises(IllegalStepError, match="nothing to undo"):
        game.undo()


@pytest.mark.parametrize("name", GAME_NAMES)
@GAMES
@given(data=st.data(), seed=seeds)
def test_copy_equals_a_replay_of_the_record_and_is_independent(name: str, data: st.DataObject, seed: int) -> None:
    players = data.draw(seats(name))
    rng = random.Random(seed)
    for game, step in random_play(name, players, seed):
        if rng.random() > 0.2:
            game.apply(step)
            continue
        twin = game.copy()
        original = full_state(game)
        assert full_state(twin) == full_state(replay_record(game.to_record())) == original
        twin.apply(step)  # changing the twin leaves the original as it was...
        assert full_state(game) == original
        twin_state = full_state(twin)
        game.apply(step)  # ...and the other way round
        assert full_state(twin) == twin_state
        original = full_state(game)
        # the copy undoes as far back as the original could
        if game.history:
            cut = rng.randrange(len(game.history))
            while len(twin.history) > cut:
                twin.undo()
            assert full_state(twin) == full_state(
                replay_record(game.to_record() | {"steps": game.to_record()["steps"][:cut]})
            )
            assert full_state(game) == original


@pytest.mark.parametrize("name", GAME_NAMES)
@GAMES
@given(data=st.data(), seed=seeds)
def test_actor_names_who_made_each_step(name: str, data: st.DataObject, seed: int) -> None:
    players = data.draw(seats(name))
    made_by = []
    for game, step in random_play(name, players, seed):
        pending = game.pending()
        made_by.append(pending.player if pending.kind == DECISION else None)
        assert (pending.kind == ROLL) == isinstance(step, Roll)
        game.apply(step)
    assert [game.actor(i) for i in range(len(game.history))] == made_by
    assert game.actor(-1) == made_by[-1]
    with pytest.raises(IndexError):
        game.actor(len(game.history))


@pytest.mark.parametrize("name", GAME_NAMES)
def test_a_refused_step_keeps_the_last_steps_events(name: str) -> None:
    # LEVEL X used to clear `events` before checking a step it then refused
    for game, step in random_play(name, 3, 7):
        game.apply(step)
        if game.pending().kind == DECISION and len(game.history) > 20:
            break
    events = json.dumps(game.events, default=list)
    for bad in refused_candidates(game):
        with pytest.raises(IllegalStepError):
            game.apply(bad)
        assert json.dumps(game.events, default=list) == events
