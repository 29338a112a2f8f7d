"""The strong EXTRA! bot's search (firmware/games/extra/search.py): its effects are the engine's
legal decisions, it counts the empty rows, and it adds the joint correction."""

from __future__ import annotations

import random

import pytest

from firmware.dice import SeededDice
from firmware.games import Player, new_game
from firmware.games.extra.rules import row_score
from tests.support import decisions_of


def _extra_sheet(game):
    sheet = game.sheets[0]
    return sheet.row_crosses, sheet.numbers, sheet.column_crosses


def _solo_decisions(tag, games=4):
    """Each decision of `games` random EXTRA! solo games (seeded by `tag`): yields the game and
    its rng, then plays a random legal decision."""
    for seed in range(games):
        game = new_game("extra", [Player("Solo", bot="strong")])
        dice, rng = SeededDice(f"{tag}:{seed}"), random.Random(seed)
        for position in decisions_of(game, dice):
            yield position, rng
            position.apply(rng.choice(position.legal_decisions()))


@pytest.mark.parametrize("kids", [False, True])
def test_extra_lookahead_offers_what_the_engine_allows(kids):
    """The strong bot's search enumerates rolls itself (firmware/games/extra/search.py): for every
    roll of random solo games, the sheets its effects lead to are exactly those the engine's
    legal decisions lead to, and a game-ending effect is judged by the sheet's final total."""
    from firmware.games.extra.search import Position, effects
    from firmware.games.extra.table import NUMBERS, TABLE

    for seed in range(12):
        start = new_game("extra", [Player("Solo", bot="strong", kids=kids)])
        dice, rng = SeededDice(f"effects:{seed}"), random.Random(seed)
        for game in decisions_of(start, dice):
            engine = set()
            for choice in game.legal_decisions():
                twin = game.copy()
                twin.apply(choice)
                engine.add(_extra_sheet(twin))
            rows, numbers, columns = _extra_sheet(game)
            position = Position(rows, numbers, columns, kids, TABLE, NUMBERS)
            found = effects(game.faces, rows, numbers, kids)
            assert {position.after(effect) for effect in found} == engine
            for effect in found:
                after = position.after(effect)
                if any(c == size for c, size in zip(after[2], (7, 8, 9))):
                    total = sum(row_score(s, c) for s, c in zip(range(2, 13), after[0]) if c)
                    assert position.value(effect) == total
            game.apply(rng.choice(game.legal_decisions()))


def test_extra_search_counts_the_empty_rows_too():
    """Strong's sheet value sums a term for every row, the empty ones included (what the rolls to
    come will make of a row not yet opened, learnt like the others), each in its group under the
    EXTRA numbers owned: the value `Position` works out incrementally for an effect equals that
    sum over the sheet the effect leads to."""
    from firmware.games.extra.model import MAX_OTHERS, groups
    from firmware.games.extra.search import SIZE, Position, effects, term
    from firmware.games.extra.table import NUMBERS, TABLE

    assert any(key[1] == 0 for key in TABLE)  # the table has learnt empty rows
    for game, _rng in _solo_decisions("empty-rows"):
        rows, numbers, columns = _extra_sheet(game)
        position = Position(rows, numbers, columns, False, TABLE, NUMBERS)
        for effect in effects(game.faces, rows, numbers, False):
            after_rows, after_numbers, after_columns = position.after(effect)
            room = tuple(sorted(size - c for size, c in zip((7, 8, 9), after_columns)))
            if min(room) == 0:
                continue
            active = sum(1 for i, c in enumerate(after_rows) if 0 < c < SIZE[i])
            owned = tuple(sorted(n for n in after_numbers if n is not None))
            expected = sum(
                term(i, c, room, min(active - (0 < c < SIZE[i]), MAX_OTHERS), TABLE, group)
                for (i, c), group in zip(enumerate(after_rows), groups(owned))
            )
            expected += NUMBERS.get(owned, 0.0)
            assert position.value(effect) == pytest.approx(expected)


def test_extra_search_adds_the_joint_correction():
    """Strong judges the rows together too: a correction learnt by (rolls to come, rows still
    empty), `joint_key`, is added to the sum of the row terms for every effect that does not end
    the game, and strong plays with the shipped one."""
    from firmware.games.extra import bots as extra
    from firmware.games.extra.model import remaining_rolls
    from firmware.games.extra.search import Position, effects, joint_key
    from firmware.games.extra.table import JOINT, NUMBERS, TABLE

    assert JOINT and len(set(JOINT.values())) > 1  # learnt, not a constant
    for game, rng in _solo_decisions("joint"):
        rows, numbers, columns = _extra_sheet(game)
        alone = Position(rows, numbers, columns, False, TABLE, NUMBERS)
        together = Position(rows, numbers, columns, False, TABLE, NUMBERS, JOINT)
        for effect in effects(game.faces, rows, numbers, False):
            after_rows, _, after_columns = alone.after(effect)
            room = tuple(sorted(size - c for size, c in zip((7, 8, 9), after_columns)))
            correction = JOINT.get(joint_key(after_rows.count(0), remaining_rolls(room)), 0.0) if min(room) else 0.0
            assert together.value(effect) == pytest.approx(alone.value(effect) + correction)
        decisions = game.legal_decisions()
        assert extra.strong(game, decisions, rng) == extra.search(game, decisions, TABLE, NUMBERS, joint=JOINT)
