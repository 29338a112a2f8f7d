"""Every bot level of every game: only legal decisions, over whole games and over random
positions; the same decisions for the same seed; the seat's level is the one that plays; the
arena prints its figures. (Strength is a benchmark figure: `python -m sim.arena`.)"""

from __future__ import annotations

import argparse
import logging
import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from firmware.bots import choose
from firmware.dice import SeededDice
from firmware.games import Player, find_game, game_names, new_game
from sim import arena
from tests.support import decisions_of, play_on

LEVELS = ("easy", "medium", "strong")
CASES = [(name, level) for name in game_names() for level in LEVELS]


def seats(name: str, level: str, count: int | None = None) -> list[Player]:
    """`count` seats (default: the game's smallest table, 2 for EXTRA!) of bots at `level`;
    EXTRA!'s last seat is a child, to cover the children's variant."""
    spec = find_game(name)
    count = count or max(2, spec.players.start)
    players = [Player(f"P{i}", bot=level) for i in range(count)]
    if "kids" in spec.seat_options:
        players[-1] = Player(f"P{count - 1}", bot=level, kids=True)
    return players


def play_checked(name: str, level: str, seed: int, count: int | None = None, steps: int | None = None):
    """Play a seeded game with every seat at `level`, checking each decision is legal (the
    policy is called directly: `choose` would hide an illegal decision behind a random one)."""
    game = new_game(name, seats(name, level, count))
    policy = find_game(name).policy(level)
    dice, rng = SeededDice(f"bots:{seed}"), random.Random(seed)
    for position in decisions_of(game, dice, limit=steps):
        decisions = position.legal_decisions()
        decision = policy(position, decisions, rng)
        assert decision in decisions, f"{name} {level}: {decision!r} is not legal in {position!r}"
        position.apply(decision)
    return game


def test_every_game_offers_three_levels_easiest_first():
    for name in game_names():
        assert find_game(name).levels == LEVELS


@pytest.mark.parametrize(("name", "level"), CASES)
def test_whole_games_are_legal_and_finish(name, level):
    for seed in range(4):
        game = play_checked(name, level, seed)
        assert game.is_over() and game.result() is not None


def test_extra_solo_games_are_legal():
    for level in LEVELS:
        for seed in range(6):
            assert play_checked("extra", level, seed, count=1).is_over()


@pytest.mark.parametrize(("name", "level"), CASES)
def test_the_same_seed_gives_the_same_game(name, level):
    first = play_checked(name, level, 11).to_record()
    second = play_checked(name, level, 11).to_record()
    assert first == second


@settings(max_examples=25, deadline=None)
@given(
    name=st.sampled_from(game_names()),
    level=st.sampled_from(LEVELS[1:]),
    seed=st.integers(0, 10_000),
    depth=st.integers(0, 300),
    players=st.integers(1, 6),
)
def test_any_position_gets_a_legal_decision(name, level, seed, depth, players):
    """Positions reached by random play (any seat count the game allows), then one decision."""
    spec = find_game(name)
    count = min(max(players, spec.players.start), spec.players.stop - 1)
    game = new_game(name, seats(name, level, count))
    rng = random.Random(seed)
    dice = SeededDice(f"any:{seed}")
    play_on(game, dice, rng, limit=depth)
    while game.pending().kind == "roll":  # an EXXTRA roll with an X can end the turn: roll on
        game.roll(dice)
    if game.is_over():
        return
    decisions = game.legal_decisions()
    decision = spec.policy(level)(game, decisions, random.Random(seed))
    assert decision in decisions
    assert spec.policy(level)(game, decisions, random.Random(seed + 1)) == decision  # the rng is not used


def test_choose_plays_the_level_kept_in_the_seat():
    # The board asks `choose(game, rng)` without a level: the seat's own level must play, not "easy".
    for seed in range(40):
        game = new_game("levelx", [Player("A", bot="strong"), Player("B", bot="easy")])
        game.roll(SeededDice(f"seat:{seed}"))
        decisions = game.legal_decisions()
        strong = find_game("levelx").policy("strong")(game, decisions, random.Random(0))
        assert choose(game, random.Random(0)) == strong


def test_choose_falls_back_to_easy_for_a_person_or_an_unknown_level():
    game = new_game("exxtra", [Player("A", bot="grandmaster"), Player("B"), Player("C")])
    game.roll(SeededDice(3))
    easy = find_game("exxtra").policy("easy")(game, game.legal_decisions(), random.Random(0))
    assert choose(game, random.Random(0)) == easy


def test_arena_prints_every_figure_name(capsys):
    parser = argparse.ArgumentParser()
    arena.add_arguments(parser)
    assert arena.main(["--games", "2", "--solo-games", "2", "--seed", "3"]) == 0
    lines = capsys.readouterr().out.splitlines()
    names = {line.split(": ")[0] for line in lines}
    assert all(": " in line and float(line.split(": ")[1]) == float(line.split(": ")[1]) for line in lines)
    for level in LEVELS:
        for game in game_names():
            assert f"{game}_{level}_decision_ms_p50" in names
            assert f"{game}_{level}_decision_ms_p99" in names
            assert f"{game}_all_levels_{level}_win_rate" in names
        assert f"extra_solo_{level}_mean_score" in names and f"extra_solo_{level}_mean_score_se" in names
    for pair in ("strong_vs_medium", "strong_vs_easy", "medium_vs_easy"):
        assert f"levelx_{pair}_win_rate" in names and f"extra_{pair}_win_rate_se" in names
    for pair in ("strong_1v2_medium", "strong_2v1_medium", "medium_1v2_easy", "strong_2v1_easy"):
        assert f"exxtra_{pair}_win_rate" in names
    assert "exxtra_games_stalled" in names


def test_arena_games_are_the_same_for_the_same_seed():
    assert arena.play("extra", ("strong", "medium"), "x:1")[:2] == arena.play("extra", ("strong", "medium"), "x:1")[:2]


def test_the_seat_menu_offers_every_level():
    from firmware.ui.menus import SeatScreen
    from firmware.table import Seat

    screen = SeatScreen("extra", [Seat("Red", "red")], 0)
    seen = []
    for _ in range(6):
        screen.press(None, "right")  # LEFT/RIGHT never need the app
        seen.append((screen.seat.bot, screen.seat.kids))
    # ... then "New name" (it opens the name entry), the child, and round to the person again
    assert seen == [("easy", False), ("medium", False), ("strong", False), (None, False), (None, True), (None, False)]
    assert screen.seats[0].player().bot is None
    screen.press(None, "left")
    assert screen.seat.player() == Player("Red", None, True)


def test_arena_refuses_an_unknown_level_in_one_line(capsys):
    with pytest.raises(SystemExit) as stop:
        arena.main(["--levels", "easy,hard", "--games", "1"])
    assert stop.value.code == 2
    assert "no bot level 'hard'" in capsys.readouterr().err.strip().splitlines()[-1]


def test_an_illegal_answer_is_logged_and_a_random_legal_decision_played(caplog: pytest.LogCaptureFixture) -> None:
    from dataclasses import replace

    from examples.highdie import SPEC
    from firmware.games.registry import register_game, unregister_game
    from firmware.turns import dice_roll, roll_to_decision

    def stubborn(game, decisions, rng):  # a bot with a bug: its answer is no decision of the game
        return "pass"

    register_game(replace(SPEC, bots={"easy": stubborn}))
    try:
        game = roll_to_decision(
            new_game(SPEC.name, [Player("Bot", bot="easy"), Player("Ann")]), dice_roll(SeededDice(1))
        )
        with caplog.at_level(logging.WARNING, logger="xtraboard.bots"):
            choice = choose(game, random.Random(4))
        assert choice == random.Random(4).choice(game.legal_decisions())  # play goes on, as before
        assert f"{SPEC.name} bot 'easy' answered 'pass', not a legal decision" in caplog.text
    finally:
        unregister_game(SPEC.name)
