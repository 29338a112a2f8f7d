"""The strong EXTRA! bot's search (firmware/games/extra/search.py): the fast look-ahead gives
exactly the expectation worked out effect by effect, and the EXTRA-number groups are the counts
over every roll."""

from __future__ import annotations

import random
from itertools import combinations, combinations_with_replacement
from math import factorial

import pytest

from firmware.dice import SeededDice
from firmware.games import Player, new_game
from firmware.games.extra import bots
from firmware.games.extra.model import OFFER, groups
from firmware.games.extra.search import Position
from tests.support import decisions_of


def positions(seed: int, kids: bool):
    """Each decision of a seeded two-player game of easy bots, as the strong bot sees it."""
    learnt = bots.learnt_tables()
    assert learnt is not None, "the shipped tables load"
    game = new_game("extra", [Player("A"), Player("B", kids=kids)])
    rng = random.Random(seed)
    for position in decisions_of(game, SeededDice(f"search:{seed}")):
        player = position.undecided[0]
        sheet = position.sheets[player]
        yield Position(
            sheet.row_crosses,
            sheet.numbers,
            sheet.column_crosses,
            position.players[player].kids,
            learnt.rows,
            learnt.numbers,
            learnt.joint,
        )
        position.apply(bots.easy(position, position.legal_decisions(), rng))


@pytest.mark.parametrize("seed,kids", [(1, False), (2, True), (3, False)])
def test_the_lookahead_is_the_expectation_over_each_effect(seed, kids):
    owned = set()
    for position in positions(seed, kids):
        fast = position.lookahead()
        slow = Position(
            position.rows,
            position.numbers,
            position.columns,
            position.kids,
            position.table,
            position.numbers_table,
            position.joint,
        ).lookahead_by_effect()
        assert fast == slow, (position.rows, position.numbers, position.columns)
        owned.add(sum(n is not None for n in position.numbers))
    assert owned == {0, 1, 2, 3}, "the games own no, some and all three EXTRA numbers"


@pytest.mark.parametrize("owned", list(combinations(range(1, 7), 3)))
def test_groups_count_every_roll(owned):
    hits = [0] * 11
    for faces in combinations_with_replacement(range(1, 7), 5):
        extras = [k for k in range(5) if faces[k] in owned] or range(5)
        found = set()
        for e in extras:
            a, b, c, d = (faces[k] for k in range(5) if k != e)
            found.update((a + b, c + d, a + c, b + d, a + d, b + c))
        ways = factorial(5)
        for face in set(faces):
            ways //= factorial(faces.count(face))
        for s in found:
            hits[s - 2] += ways
    ratios = [h / 6**5 / offer for h, offer in zip(hits, OFFER)]
    assert groups(owned) == tuple(1 if r < 0.86 else 2 if r < 0.95 else 3 for r in ratios)
