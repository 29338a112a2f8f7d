"""Every engine refuses a step holding a non-integer where an integer belongs — True, False,
1.0, 0.0 and the like, which compare (and hash) equal to the integers they look like — with
IllegalStepError, and changes nothing: the state, the record and what comes next are as before.
(Issue 25: EXTRA! played `Roll((True, 2, 3, 4, 5))` and `Choice(0, 0, 0.0, …)` as given.)"""

from __future__ import annotations

import dataclasses
import json
import random
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from firmware.dice import SeededDice
from firmware.errors import IllegalStepError
from firmware.games import Roll, new_game
from firmware.games.extra.rules import Choice
from firmware.games.exxtra.rules import Place
from firmware.games.levelx.rules import Bonus, Groups, TurnOnes

PLAYERS = {"exxtra": 3, "levelx": 2, "extra": 2}
# Non-integers that are not None (None is a legal value of some fields: a free ride's extra die).
JUNK = [True, False, 1.0, 0.0, 2.0, 4.0, 1.5, "1", "3", (1,)]


def look_alikes(value: Any) -> list[Any]:
    """Non-integers equal to `value` (the dangerous ones: they find the integer's table entries);
    for an EXXTRA face (text), what is not text, and a number that reads like it."""
    if isinstance(value, str):
        return [1, 7, 7.0, True, None] + ([int(value)] if value.isdigit() else [])
    if type(value) is not int:
        return []
    return [float(value)] + ([bool(value)] if value in (0, 1) else [])


def position(name: str, seed: int, length: int) -> Any:
    """A game after up to `length` random legal steps; a roll or a decision pending."""
    game = new_game(name, [f"P{i}" for i in range(PLAYERS[name])])
    dice, rng = SeededDice(seed), random.Random(seed)
    while len(game.history) < length and not game.is_over():
        if game.pending().kind == "roll":
            game.roll(dice)
        else:
            game.apply(rng.choice(game.legal_decisions()))
    if game.is_over():  # the step before the end
        game.undo()
    return game, dice, rng


def corrupt(step: Any, data: st.DataObject) -> Any:
    """A thunk building `step` with one integer field (or face, index) replaced by a non-integer."""
    if isinstance(step, Roll):
        faces = list(step.faces)
        at = data.draw(st.integers(0, len(faces) - 1))
        wrong = look_alikes(faces[at]) if isinstance(faces[at], str) else look_alikes(faces[at]) + JUNK
        faces[at] = data.draw(st.sampled_from(wrong))
        return lambda: Roll(tuple(faces))
    if isinstance(step, Place):
        bad = data.draw(st.sampled_from(look_alikes(step.rung) + JUNK))
        return lambda: Place(bad)
    if isinstance(step, TurnOnes):
        faces = list(step.faces)
        at = data.draw(st.integers(0, len(faces) - 1))
        faces[at] = data.draw(st.sampled_from(look_alikes(faces[at]) + JUNK))
        return lambda: TurnOnes(tuple(faces))
    if isinstance(step, Groups):
        groups = [list(group) for group in step.groups]
        g = data.draw(st.integers(0, len(groups) - 1))
        i = data.draw(st.integers(0, len(groups[g]) - 1))
        groups[g][i] = data.draw(st.sampled_from(look_alikes(groups[g][i]) + JUNK))
        return lambda: Groups(tuple(map(tuple, groups)))
    if isinstance(step, Bonus):
        bad = data.draw(st.sampled_from([1, 0, 1.0, 0.0, "yes", None]))
        return lambda: Bonus(bad)
    assert isinstance(step, Choice)
    fields = ["player", "pairs"] + [f for f in ("extra", "column") if getattr(step, f) is not None]
    field = data.draw(st.sampled_from(fields))
    if field == "pairs":
        pairs = [list(pair) for pair in step.pairs]
        p, i = data.draw(st.integers(0, 1)), data.draw(st.integers(0, 1))
        pairs[p][i] = data.draw(st.sampled_from(look_alikes(pairs[p][i]) + JUNK))
        return lambda: Choice(step.player, step.extra, step.column, tuple(map(tuple, pairs)))
    bad = data.draw(st.sampled_from(look_alikes(getattr(step, field)) + JUNK))
    return lambda: dataclasses.replace(step, **{field: bad})


def has_integers(step: Any) -> bool:
    return isinstance(step, (Place, Bonus, Choice)) or bool(
        getattr(step, "faces", None) or getattr(step, "groups", None)
    )


def fingerprint(game: Any) -> tuple[Any, ...]:
    return json.dumps(game.to_record()), game.pending(), repr(game.legal_decisions()), len(game.history)


@settings(max_examples=300, deadline=None)
@given(name=st.sampled_from(sorted(PLAYERS)), seed=st.integers(0, 2**31), length=st.integers(0, 120), data=st.data())
def test_a_non_integer_is_refused_and_changes_nothing(name: str, seed: int, length: int, data: st.DataObject) -> None:
    game, dice, rng = position(name, seed, length)
    twin = game.copy()
    if game.pending().kind == "roll":
        template: Any = Roll(tuple(dice.roll(game.dice())))
    else:  # a decision with something to corrupt (not EXXTRA's reroll, not LEVEL X's pass)
        template = data.draw(st.sampled_from([d for d in game.legal_decisions() if has_integers(d)]))
    build = corrupt(template, data)
    before = fingerprint(game)
    with pytest.raises(IllegalStepError):
        game.apply(build())  # refused when built (a decision's own check) or when applied
    assert fingerprint(game) == before
    # What comes next is what would have come: the same step plays the same on both.
    game.apply(template)
    twin.apply(template)
    assert game.to_record() == twin.to_record() and game.events == twin.events


@pytest.mark.parametrize(
    ("name", "faces"),
    [
        ("extra", (True, 2, 3, 4, 5)),
        ("extra", (1.0, 2, 3, 4, 5)),
        ("levelx", (True, 2, 3, 4)),
        ("levelx", (1.0, 2, 3, 4)),
    ],
)
def test_the_issues_rolls_are_refused(name: str, faces: tuple[Any, ...]) -> None:
    game = new_game(name, ["A", "B"])
    with pytest.raises(IllegalStepError, match="integer"):
        game.apply(Roll(faces))
    assert game.history == [] and game.to_record()["steps"] == []


@pytest.mark.parametrize(
    ("choice", "words"),
    [
        (Choice(0, 0, 0.0, ((1, 2), (3, 4))), "not a column"),
        (Choice(False, 0, 0, ((1, 2), (3, 4))), "turn order"),
        (Choice(0, False, 0, ((1, 2), (3, 4))), "not a die index"),
        (Choice(0, 0, 0, ((True, 2), (3, 4))), "two pairs"),
    ],
)
def test_the_issues_choices_are_refused_with_illegal_step_error(choice: Choice, words: str) -> None:
    game = new_game("extra", ["A", "B"])
    game.apply(Roll((1, 2, 3, 4, 5)))
    record = game.to_record()
    assert choice == Choice(0, 0, 0, ((1, 2), (3, 4))) and choice in game.legal_decisions()  # equal to an offered one
    with pytest.raises(IllegalStepError, match=words):
        game.apply(choice)
    assert game.to_record() == record
