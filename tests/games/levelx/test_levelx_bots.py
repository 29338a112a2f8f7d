"""LEVEL X strong bot's machinery: the roll table it judges rows by, its choice of the last
tile inside its look at an outcome, its lucky-loser hint, and the same decision for the same
position. (Strength is a benchmark figure: `python -m sim.arena --vs-greedy --game levelx`.)"""

from __future__ import annotations

import math
import random
from itertools import product

from firmware.dice import SeededDice
from firmware.games import Roll, new_game
from firmware.games.levelx import bots
from firmware.games.levelx.rules import ROWS, TurnOnes, outcomes
from firmware import i18n
from tests.support import decisions_of
from firmware.games import Game, words_of
from firmware.games.base import Decision


def test_roll_table_covers_every_roll_once_with_its_lucky_loser_outcomes() -> None:
    assert abs(sum(chance for chance, _ in bots._TABLE) - 1) < 1e-12
    assert len(bots._TABLE) == 126  # multisets of four faces
    # Brute force over the 1296 ordered rolls: a row counts as reachable when some grouping of
    # the roll, or of any turning of its ones but one, forms its sum.
    reach = dict.fromkeys(ROWS, 0)
    for faces in product(range(1, 7), repeat=4):
        options = [faces]
        ones = faces.count(1)
        if ones >= 2:
            at = [i for i, face in enumerate(faces) if face == 1][: ones - 1]
            for new in product(range(1, 7), repeat=ones - 1):
                turned = list(faces)
                for index, face in zip(at, new):
                    turned[index] = face
                options.append(tuple(turned))
        formed = {row for option in options for outcome in outcomes(option) for row in outcome.sums}
        for row in formed:
            reach[row] += 1
    assert all(abs(got - reach[row] / 6**4) < 1e-12 for got, row in zip(bots._REACH, ROWS))
    assert min(bots._REACH) > 0.7 and bots._REACH[1] == max(bots._REACH)  # 6 is the easiest sum


def test_expected_chips_follow_the_distance_to_the_x() -> None:
    # On the X or one field before it every hit is a chip; further back the first hits only move.
    assert bots._chips(2.0, 0) == bots._chips(2.0, 1) == 2.0
    assert bots._chips(2.0, 1) > bots._chips(2.0, 2) > bots._chips(2.0, 3) > bots._chips(2.0, 4) > 0
    # E[max(0, H - 1)] for H ~ Poisson(2): 2 - 1 + P(H = 0)
    assert abs(bots._chips(2.0, 2) - (1 + 2.718281828459045**-2)) < 1e-12


def test_strong_looks_at_an_outcome_with_the_last_tile_declined_when_it_trails() -> None:
    # Red trails far behind: the played-out state keeps the last tile on the pile, the game
    # going on; once the end is set anyway, the tile is taken.
    game = new_game("levelx", ["Yellow", "Red"])
    state = bots._strong_base(game)
    state.counts = [[1] * 6, [1] * 5 + [0]]
    state.bonus, state.held, state.tiles = [36, 0], [3, 0], [6]
    state.pieces[1][5] = 1  # Red on the X of row 10: a 10 completes Red's first set
    after = bots._after(state, 1, (10,))
    assert min(after.counts[1]) == 1 and after.tiles == [6] and not after.ending
    state.ending = True
    after = bots._after(state, 1, (10,))
    assert after.tiles == [] and after.bonus[1] == 6


def hinted(game: Game, decision: Decision) -> str:
    """The hint the board shows for `decision`: its name in the game's words, the bots' reason."""
    return words_of(game.name).hint(game, decision, bots.hint_reason(game, decision))


def test_lucky_loser_hint_names_the_new_faces() -> None:
    game = new_game("levelx", ["A", "B"])
    game.apply(Roll((1, 1, 1, 5)))
    decision = bots.strong(game, game.legal_decisions(), random.Random(1))
    assert isinstance(decision, TurnOnes)
    faces = ",".join(map(str, decision.faces))
    assert hinted(game, decision).startswith(f"turn 1→{faces}: expect to end ")
    for code in ("de", "fr"):  # the faces are a figure: the same in every language
        i18n.use(code)
        assert f"1→{faces}" in hinted(game, decision)


def test_strong_decides_the_same_on_a_replayed_position_and_only_legally() -> None:
    for players in (2, 3, 4):
        game = new_game("levelx", [f"P{i}" for i in range(players)])
        for position in decisions_of(game, SeededDice(f"lx-strong:{players}")):
            decisions = position.legal_decisions()
            decision = bots.strong(position, decisions, random.Random(1))
            assert decision in decisions
            twin = new_game("levelx", [f"P{i}" for i in range(players)])
            for step in position.history:
                twin.apply(step)
            assert bots.strong(twin, twin.legal_decisions(), random.Random(2)) == decision
            if not position.bonus_pending:  # the decision is the one its own figures rank first
                model = bots._model_of(position)
                values = [bots._decision_value(position, d, model) for d in decisions]
                assert bots._decision_value(position, decision, model) == max(values)
                leads = bots.evaluate(position, decisions)
                assert len(leads) == len(decisions) and all(math.isfinite(lead) for lead in leads)
                if not model.spread:  # then what it maximises is the lead itself
                    assert leads == values
            position.apply(decision)
        assert game.is_over()
