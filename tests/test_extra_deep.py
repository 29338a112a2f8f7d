"""The strong EXTRA! bot's second roll (firmware/games/extra/deep.py): its arrays give the same
values as the pure-Python search it stands for, the look-ahead of many positions at once and two
rolls ahead, and its limit only leaves out the least likely children."""

from __future__ import annotations

import math
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest

from firmware.games.extra import bots, deep
from firmware.games.extra.search import entry
from tests.test_extra_search import positions

ROOT = Path(__file__).resolve().parents[1]
CLOSE = 1e-9  # points: the arrays add in another order than Python (each roll's chance as a dot product)


def some_positions():
    """Positions of seeded games with no, some and all EXTRA numbers owned, children's sheets too."""
    return [p for seed, kids in ((1, False), (2, True), (3, False)) for p in positions(seed, kids)]


def test_the_dense_terms_are_the_learnt_entries():
    learnt = bots.learnt_tables()
    assert learnt is not None
    dense = deep._dense(learnt.rows)
    checked = 0
    for i in range(deep.ROWS):
        for c in range(deep.SIZE[i] + 1):
            for n in range(0, deep.MOST_ROLLS, 3):
                for o in range(deep.MAX_OTHERS + 1):
                    for g in range(4):
                        assert dense[i, c, n, o, g] == pytest.approx(entry(i, c, n, o, learnt.rows, g), abs=CLOSE)
                        checked += 1
    assert checked > 10_000


def test_many_lookaheads_at_once_are_each_positions_lookahead():
    found = some_positions()
    assert {sum(n is not None for n in p.numbers) for p in found} == {0, 1, 2, 3}
    assert any(p.kids for p in found), "a children's sheet among them"
    assert all(min(p.room) > 0 for p in found), "positions still to decide (ended sheets: the next test)"
    together = deep.lookaheads(found)
    for position, value in zip(found, together):
        assert value == pytest.approx(position.lookahead(), abs=CLOSE), (position.rows, position.numbers)
    alone = [deep.lookaheads([p])[0] for p in found[:10]]
    assert alone == pytest.approx(list(together[:10]), abs=CLOSE)


def test_an_ended_sheet_looks_ahead_to_its_total():
    position = next(p for p in some_positions() if sum(p.columns) > 3)
    columns = list(position.columns)
    columns[0] = 7  # the 7-box column is full: the game is over for this sheet
    ended = deep.Position(
        position.rows,
        position.numbers,
        tuple(columns),
        position.kids,
        position.table,
        position.numbers_table,
        position.joint,
    )
    assert deep.lookaheads([ended])[0] == ended.final()
    assert deep.two_rolls([ended])[0] == ended.final()


@pytest.mark.parametrize("inner", [1, 2])
def test_two_rolls_are_the_slow_reference(inner):
    found = some_positions()
    picked = [found[k] for k in (0, 1, 2, len(found) // 2, len(found) - 3)]
    fast = deep.two_rolls(picked, inner)
    for position, value in zip(picked, fast):
        assert value == pytest.approx(deep.reference_two_rolls(position, inner), abs=CLOSE)


def test_the_limit_leaves_out_only_the_least_likely_children():
    found = some_positions()
    picked = found[::4]
    whole = deep.two_rolls(picked, 1)
    assert list(deep.two_rolls(picked, 1, limit=10**6)) == list(whole), "a limit nothing reaches changes nothing"
    gaps = {}
    for limit in (1, 150, 300):
        cut = deep.two_rolls(picked, 1, limit=limit)
        assert all(math.isfinite(v) for v in cut)
        gaps[limit] = np.abs(cut - whole).mean()
    # the children left out are judged by the table and their siblings' mean gain: the more
    # children worked out, the closer (a few points on average with the bot's limit)
    assert gaps[1] > gaps[150] > gaps[300] and gaps[300] < 3


def test_the_grid_starts_again_past_what_it_keeps():
    found = some_positions()
    search = deep.search_of(found[0])
    search.grid.KEPT = 4  # this instance only: a small memory, soon full
    try:
        values = deep.lookaheads(found)  # one batch needs more: it grows for it
        assert len(search.grid._index) > 4 and len(search.sheets) > 4
        search.start()  # between two batches: past KEPT, it starts again
        assert not search.grid._index and not search.sheets
        again = deep.lookaheads(found)
    finally:
        del search.grid.KEPT
    assert list(again) == pytest.approx(list(values), abs=CLOSE)


def test_without_numpy_strong_looks_one_roll_ahead_and_says_so_once():
    """A board whose numpy cannot be imported loses the second roll, not the game."""
    script = """
import logging, random, sys
sys.modules["numpy"] = None  # what a broken or missing numpy looks like to an import
logging.basicConfig(level=logging.ERROR, format="%(message)s")
from firmware.dice import SeededDice
from firmware.games import new_game, Player
from firmware.games.extra import bots
from tests.support import decisions_of
solo = new_game("extra", [Player("Solo", bot="strong")])
dice, rng = SeededDice("no-numpy"), random.Random(1)
decided = 0
for game in decisions_of(solo, dice):
    decisions = game.legal_decisions()
    choice = bots.strong(game, decisions, rng)
    assert choice in decisions
    game.apply(choice)
    decided += 1
print("decided", decided, "numpy" in sys.modules and sys.modules["numpy"] is None)
"""
    done = subprocess.run(
        [sys.executable, "-c", script], cwd=ROOT, capture_output=True, text=True, timeout=120, check=False
    )
    assert done.returncode == 0, done.stderr
    assert done.stdout.split()[0] == "decided" and int(done.stdout.split()[1]) > 10
    said = [line for line in done.stderr.splitlines() if "numpy cannot be imported" in line]
    assert len(said) == 1 and "looks one roll ahead only" in said[0]
