"""The greedy baseline (each game's greedy.py, through sim/greedy.py) plays exactly the rules issue 22 defines, on hand-made
positions; the arena's --vs-greedy games are legal, seeded and print every figure."""

from __future__ import annotations

import random
from fractions import Fraction

import pytest

from firmware.dice import SeededDice
from firmware.games import Roll, new_game
from firmware.games.exxtra.rules import Place, Reroll
from firmware.games.extra.rules import Choice
from firmware.games.levelx.rules import Bonus, TurnOnes, outcomes
from firmware.games.extra import greedy as extra_greedy
from firmware.games.exxtra import greedy as exxtra_greedy
from firmware.games.levelx import greedy as levelx_greedy
from sim import arena
from tests.support import decisions_of


# --- EXXTRA ------------------------------------------------------------------------------
def test_at_least_chance_is_exact():
    # ≥ 61 on a first roll: die A's 7 with any of B's six faces, and B's 6 with A's 1, 2, 3, 4
    # (A's X with B's 6 is "60": below)
    assert exxtra_greedy.at_least_chance(61) == Fraction(10, 36)
    assert exxtra_greedy.at_least_chance(0) == 1  # "00" (X, X) is the lowest
    assert exxtra_greedy.at_least_chance(1) == Fraction(35, 36)
    assert exxtra_greedy.at_least_chance(76) == Fraction(1, 36)  # only 7 and 6
    assert exxtra_greedy.at_least_chance(77) == 0


def test_rung_is_the_highest_with_beaten_times_rung_below_a_half():
    # 61 with 4 players: beaten = 10/36 · 3/5 = 1/6, so r < 3
    assert exxtra_greedy.beaten(61, 4) == Fraction(1, 6)
    assert exxtra_greedy.rung(61, 4, [1, 2, 3, 4, 5]) == 2
    # 61 with 3 players: beaten = 1/9, so r < 4.5
    assert exxtra_greedy.rung(61, 3, [1, 2, 3, 4, 5]) == 4
    assert exxtra_greedy.rung(61, 3, [1, 5]) == 1
    # 76 with 6 players: beaten = 1/36, every rung fits: the highest free
    assert exxtra_greedy.rung(76, 6, [2, 3]) == 3


def test_rung_falls_back_to_the_lowest_free_then_to_rung_zero():
    # "10" with 6 players: beaten = 35/36, no rung r ≥ 1 has beaten · r < 1/2
    assert exxtra_greedy.rung(10, 6, [3, 5]) == 3
    assert exxtra_greedy.rung(10, 6, []) == 0
    # the boundary is strict: beaten · r = 1/2 does not fit (76, 2 players: 1/180 · r < 1/2 always)
    assert exxtra_greedy.beaten(76, 2) * 90 == Fraction(1, 2)


def exxtra_after(players: int, *steps):
    game = new_game("exxtra", [f"P{i}" for i in range(players)])
    for step in steps:
        game.apply(step)
    return game


def test_first_roll_below_61_is_rolled_again_and_61_is_accepted():
    rng = random.Random(1)
    low = exxtra_after(4, Roll(("3", "5")))  # "53"
    assert exxtra_greedy.greedy(low, low.legal_decisions(), rng) == Reroll()
    high = exxtra_after(4, Roll(("1", "6")))  # "61": accepted, on rung 2 (see above)
    assert exxtra_greedy.greedy(high, high.legal_decisions(), rng) == Place(2)


def test_after_the_first_reroll_any_valid_combination_is_accepted():
    game = exxtra_after(4, Roll(("3", "5")), Reroll(), Roll(("2", "1")))  # "21" on the second roll
    decision = exxtra_greedy.greedy(game, game.legal_decisions(), random.Random(1))
    assert isinstance(decision, Place)
    # at least "21" on a first roll: all but 11, 10, 10, 00, 20, 20 → 30/36; beaten = 30/36 · 3/5
    # = 1/2: no rung fits (strictly below 1/2), so the lowest free rung
    assert exxtra_greedy.beaten(21, 4) == Fraction(1, 2)
    assert decision == Place(1)


# --- LEVEL X -----------------------------------------------------------------------------
def test_levelx_value_is_score_plus_row_times_progress():
    game = new_game("levelx", ["A", "B"])
    game.apply(Roll((1, 4, 2, 6)))
    five = next(o for o in outcomes(game) if o.sums == (5,))
    game.apply(five.groups)  # one piece on row 5's first field (4 fields)
    assert game.pieces[0] == (0, None, None, None, None, None)
    assert levelx_greedy.position_value(game, 0) == Fraction(5 * 1, 4)
    assert levelx_greedy.position_value(game, 1) == 0


def _value_after(game, grouping, player):
    """The value after `grouping`, the last bonus tile taken when it is offered."""
    game.apply(grouping)
    offered = Bonus(True) in game.legal_decisions()
    if offered:
        game.apply(Bonus(True))
    value = levelx_greedy.position_value(game, player)
    if offered:
        game.undo()
    game.undo()
    return value


def _levelx_values(game):
    """Every legal decision's greedy value, computed the long way (a lucky-loser choice: the
    best of every grouping after it)."""
    player = game.current_player
    values = {}
    for decision in game.legal_decisions():
        if isinstance(decision, TurnOnes):
            game.apply(decision)
            values[decision] = max(_value_after(game, after, player) for after in game.legal_decisions())
            game.undo()
        else:
            values[decision] = _value_after(game, decision, player)
    return values


def test_levelx_greedy_takes_a_best_outcome_and_breaks_ties_at_random():
    tie_seen = turn_ones_checked = 0
    for seed in range(40):
        for game in decisions_of(new_game("levelx", ["A", "B", "C"]), SeededDice(f"greedy-lx:{seed}"), limit=30):
            if Bonus(True) in game.legal_decisions():
                game.apply(Bonus(True))
                continue
            values = _levelx_values(game)
            best = max(values.values())
            chosen = {levelx_greedy.greedy(game, game.legal_decisions(), random.Random(k)) for k in range(12)}
            assert all(values[c] == best for c in chosen)
            turn_ones_checked += any(isinstance(d, TurnOnes) for d in values)
            # distinct outcomes tied at the best: more than one gets chosen over 12 seeds
            tied_outcomes = {d for d in values if values[d] == best and isinstance(d, TurnOnes)}
            tied_outcomes |= {o.groups for o in outcomes(game) if values[o.groups] == best}
            if len(tied_outcomes) > 2:
                tie_seen += 1
                assert len(chosen) > 1
            game.apply(levelx_greedy.greedy(game, game.legal_decisions(), random.Random(seed)))
        if tie_seen >= 3 and turn_ones_checked >= 3:
            break
    assert tie_seen >= 3 and turn_ones_checked >= 3


def test_levelx_greedy_always_takes_the_last_bonus_tile():
    offered = 0
    for seed in range(60):
        game = new_game("levelx", ["A", "B"])
        rng = random.Random(seed)
        for position in decisions_of(game, SeededDice(f"greedy-tile:{seed}")):
            decisions = position.legal_decisions()
            choice = levelx_greedy.greedy(position, decisions, rng)
            if Bonus(True) in decisions:
                offered += 1
                assert choice == Bonus(True)
            position.apply(choice)
        if offered >= 2:
            break
    assert offered >= 2


# --- EXTRA! ------------------------------------------------------------------------------
def test_extra_value_counts_the_total_and_the_column_left():
    game = new_game("extra", ["Marie"])
    game.apply(Roll((1, 2, 2, 3, 5)))
    # 1+3 and 2+2: two crosses into row 4 (−200, then no change), extra 5 into column 2 (9 boxes)
    best = Choice(0, 4, 2, ((0, 3), (1, 2)))
    assert extra_greedy.choice_value(game, best) == -200 + 2 * 9
    assert extra_greedy.choice_value(game, Choice(0, 4, 0, ((0, 3), (1, 2)))) == -200 + 2 * 7
    assert extra_greedy.greedy(game, game.legal_decisions(), random.Random(1)) == best


def test_extra_value_adds_five_per_cross_into_a_started_row():
    game = new_game("extra", ["Marie"])
    game.apply(Roll((1, 2, 2, 3, 5)))
    game.apply(Choice(0, 4, 2, ((0, 3), (1, 2))))  # row 4: 2 crosses; column 2 holds 5
    game.apply(Roll((1, 3, 2, 2, 6)))
    # two more crosses into row 4 (3 and 4 crosses: inside the wall, no change), +5 each;
    # the new number 6 in column 0 (7 boxes left) or column 1 (8)
    assert extra_greedy.choice_value(game, Choice(0, 4, 0, ((0, 1), (2, 3)))) == 5 + 5 + 2 * 7
    assert extra_greedy.choice_value(game, Choice(0, 4, 1, ((0, 1), (2, 3)))) == 5 + 5 + 2 * 8
    # extra 1 into column 0: pairs 3+2=5 (new row: −200) and 2+6=8 (−200), no started row
    assert extra_greedy.choice_value(game, Choice(0, 0, 0, ((1, 2), (3, 4)))) == -400 + 2 * 7


# --- the arena ---------------------------------------------------------------------------
@pytest.mark.parametrize(
    "name,count", [("exxtra", 3), ("exxtra", 6), ("levelx", 2), ("levelx", 4), ("extra", 1), ("extra", 6)]
)
def test_greedy_games_are_legal_and_seeded(name, count):
    levels = ("greedy",) * count if count == 1 else ("strong",) + ("greedy",) * (count - 1)
    first = arena.play(name, levels, "t:1")
    again = arena.play(name, levels, "t:1")
    assert first[:2] == again[:2] and first[3] is False  # same shares and scores; not stalled
    if count > 1:  # a solo game has no winner, only a score
        assert abs(sum(first[0]) - 1) < 1e-9  # win shares (ties split) add up to one game


def test_arena_vs_greedy_prints_every_player_count(capsys):
    assert arena.main(["--vs-greedy", "--games", "2", "--solo-games", "2", "--seed", "3", "--levels", "easy"]) == 0
    lines = capsys.readouterr().out.splitlines()
    names = {line.split(": ")[0] for line in lines}
    for game, counts in (("exxtra", range(3, 7)), ("levelx", range(2, 5)), ("extra", range(2, 7))):
        for count in counts:
            for figure in (
                "win_rate",
                "win_rate_se",
                "mean_score",
                "mean_score_se",
                "greedy_mean_score",
                "greedy_mean_score_se",
                "fair_share",
            ):
                assert f"{game}_easy_vs_greedy_{count}p_{figure}" in names
    assert {"extra_solo_greedy_mean_score", "extra_solo_greedy_mean_score_se", "extra_solo_easy_mean_score"} <= names
