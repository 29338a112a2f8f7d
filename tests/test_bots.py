"""Every bot level of every game: only legal decisions, over whole games and over random
positions; the same decisions for the same seed; the seat's level is the one that plays; the
arena prints its figures. (Strength is a benchmark figure: `python -m sim.arena`.)"""

from __future__ import annotations

import argparse
import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from firmware.bots import choose
from firmware.dice import SeededDice
from firmware.games import Player, find_game, game_names, new_game
from firmware.games.extra import row_score
from sim import arena

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
    while not game.is_over() and (steps is None or len(game.history) < steps):
        if game.pending().kind == "roll":
            game.roll(dice)
            continue
        decisions = game.legal_decisions()
        decision = policy(game, decisions, rng)
        assert decision in decisions, f"{name} {level}: {decision!r} is not legal in {game!r}"
        game.apply(decision)
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
@given(name=st.sampled_from(game_names()), level=st.sampled_from(LEVELS[1:]),
       seed=st.integers(0, 10_000), depth=st.integers(0, 300), players=st.integers(1, 6))
def test_any_position_gets_a_legal_decision(name, level, seed, depth, players):
    """Positions reached by random play (any seat count the game allows), then one decision."""
    spec = find_game(name)
    count = min(max(players, spec.players.start), spec.players.stop - 1)
    game = new_game(name, seats(name, level, count))
    rng = random.Random(seed)
    dice = SeededDice(f"any:{seed}")
    while not game.is_over() and len(game.history) < depth:
        if game.pending().kind == "roll":
            game.roll(dice)
        else:
            game.apply(rng.choice(game.legal_decisions()))
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
    from firmware.ui.session import Seat

    screen = SeatScreen("extra", [Seat("Red", "red")], 0)
    seen = []
    for _ in range(5):
        screen.press(None, "right")  # LEFT/RIGHT never need the app
        seen.append((screen.seat.bot, screen.seat.kids))
    assert seen == [("easy", False), ("medium", False), ("strong", False), (None, True), (None, False)]
    assert screen.seats[0].player().bot is None
    screen.press(None, "left")
    assert screen.seat.player() == Player("Red", None, True)


def test_arena_refuses_an_unknown_level_in_one_line(capsys):
    with pytest.raises(SystemExit) as stop:
        arena.main(["--levels", "easy,hard", "--games", "1"])
    assert stop.value.code == 2
    assert "no bot level 'hard'" in capsys.readouterr().err.strip().splitlines()[-1]


def _extra_sheet(game):
    sheet = game.sheets[0]
    return sheet.row_crosses, sheet.numbers, sheet.column_crosses


def _solo_decisions(tag, games=4):
    """Each decision of `games` random EXTRA! solo games (seeded by `tag`): yields the game and
    its rng, then plays a random legal decision."""
    for seed in range(games):
        game = new_game("extra", [Player("Solo", bot="strong")])
        dice, rng = SeededDice(f"{tag}:{seed}"), random.Random(seed)
        while not game.is_over():
            if game.pending().kind == "roll":
                game.roll(dice)
                continue
            yield game, rng
            game.apply(rng.choice(game.legal_decisions()))


@pytest.mark.parametrize("kids", [False, True])
def test_extra_lookahead_offers_what_the_engine_allows(kids):
    """The strong bot's search enumerates rolls itself (firmware/ai/extra_search.py): for every
    roll of random solo games, the sheets its effects lead to are exactly those the engine's
    legal decisions lead to, and a game-ending effect is judged by the sheet's final total."""
    from firmware.ai.extra_search import Position, effects
    from firmware.ai.extra_table import NUMBERS, TABLE

    for seed in range(12):
        game = new_game("extra", [Player("Solo", bot="strong", kids=kids)])
        dice, rng = SeededDice(f"effects:{seed}"), random.Random(seed)
        while not game.is_over():
            if game.pending().kind == "roll":
                game.roll(dice)
                continue
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
    from firmware.ai.extra_model import MAX_OTHERS, groups
    from firmware.ai.extra_search import SIZE, Position, effects, term
    from firmware.ai.extra_table import NUMBERS, TABLE

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
            expected = sum(term(i, c, room, min(active - (0 < c < SIZE[i]), MAX_OTHERS), TABLE, group)
                           for (i, c), group in zip(enumerate(after_rows), groups(owned)))
            expected += NUMBERS.get(owned, 0.0)
            assert position.value(effect) == pytest.approx(expected)


def test_extra_search_adds_the_joint_correction():
    """Strong judges the rows together too: a correction learnt by (rolls to come, rows still
    empty), `joint_key`, is added to the sum of the row terms for every effect that does not end
    the game, and strong plays with the shipped one."""
    from firmware.ai import extra
    from firmware.ai.extra_model import remaining_rolls
    from firmware.ai.extra_search import Position, effects, joint_key
    from firmware.ai.extra_table import JOINT, NUMBERS, TABLE

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
