"""Every figure a hint states is one the rules make possible: over seeded games, at each person's
decision, the hint's numbers (the final space, the lead, the sheet's total) lie within what the
position still allows, and the last tile's "lead at the end" never exceeds the lead taking it fixes."""

from __future__ import annotations

import random
import re

import pytest
from levelx_bonus import offer_record

from firmware.bots import choose
from firmware.games import Game, new_game
from firmware.games.exxtra.rules import FINISH, Place
from firmware.games.levelx import bots as levelx_bots
from firmware.games.levelx.rules import Bonus, LevelX
from firmware.i18n import use
from firmware.records import replay_record

NUMBER = re.compile(r"[-+]?\d+(?:\.\d+)?")


def figures(game: Game, decision: object) -> list[float]:
    """The numbers a hint for `decision` states (its decision's own name left out)."""
    from firmware.games import find_game

    reason = find_game(game.name).hint_reason
    assert reason is not None
    said = reason(game, decision)
    sign = -1.0 if "behind" in said else 1.0  # LEVEL X: "expect to end 5 points behind"
    return [sign * float(n) for n in NUMBER.findall(said)]


def play_through(name: str, seed: int, seats: int) -> list[tuple[Game, object]]:
    """The positions of a seeded game the easy bot plays out, with each legal decision there."""
    rng = random.Random(seed)
    game = new_game(name, [f"P{n}" for n in range(seats)])
    found = []
    while not game.is_over():
        if game.pending().kind == "roll":
            game.apply(game.draw_roll(rng) if hasattr(game, "draw_roll") else _roll(game, rng))
            continue
        legal = game.legal_decisions()
        for decision in rng.sample(legal, min(3, len(legal))):
            found.append((game.copy(), decision))
        game.apply(choose(game, rng, "easy"))
    return found


def _roll(game: Game, rng: random.Random):
    from firmware.games import Roll

    return Roll(tuple(rng.choice(faces) for faces in game.dice()))


@pytest.fixture(autouse=True)
def english():
    use("en")


@pytest.mark.parametrize("seed", range(4))
def test_levelx_hints_state_only_leads_the_rules_allow(seed: int) -> None:
    for game, decision in play_through("levelx", seed, 2 + seed % 3):
        assert isinstance(game, LevelX)
        low, high = levelx_bots.lead_bounds(game, Bonus(True) if isinstance(decision, Bonus) else decision)
        for figure in figures(game, decision):
            assert low - 0.05 <= figure <= high + 0.05, (game.history, decision)


def test_taking_the_last_tile_states_at_most_the_lead_it_fixes() -> None:
    game = replay_record(offer_record())
    assert isinstance(game, LevelX) and game.bonus_pending
    me = game.current_player
    # A lead far beyond reach as the estimate would have it: the hint says the most taking can give.
    scores = list(game.scores)
    scores[me] += game.tiles_left[0]
    cap = scores[me] - max(s for p, s in enumerate(scores) if p != me)
    later = [p for p in range(len(scores)) if p > me]
    if not later:  # nobody plays after: taking fixes the lead exactly
        assert levelx_bots.lead_bounds(game, Bonus(True)) == (cap, cap)
    assert levelx_bots.lead_bounds(game, Bonus(True))[1] <= cap
    assert levelx_bots.possible(game, Bonus(True), cap + 5.0) == cap
    (figure,) = figures(game, Bonus(True))
    assert figure <= cap


@pytest.mark.parametrize("seed", range(3))
def test_exxtra_hints_state_spaces_on_the_track(seed: int) -> None:
    for game, decision in play_through("exxtra", seed, 3):
        said = figures(game, decision)
        if isinstance(decision, Place):  # "91% safe, expect to end near space 14"
            safe, space = said
            assert 0 <= safe <= 100 and 0 <= space <= FINISH
        else:  # "expect to end near space 14 (placing now: 13)"
            assert said and all(0 <= space <= FINISH and space == int(space) for space in said)


@pytest.mark.parametrize("seed", range(2))
def test_extra_hints_state_totals_the_sheet_can_reach(seed: int) -> None:
    from firmware.games.extra.bots import total_bounds
    from firmware.games.extra.rules import ROW_SIZES, SUMS, row_score

    for game, decision in play_through("extra", seed, 2):
        (points,) = figures(game, decision)
        # Every row at its best (the most boxes past its wall) or at its worst: the widest range.
        best = sum(max(row_score(total, n) for n in range(ROW_SIZES[total] + 1)) for total in SUMS)
        assert -200 * len(SUMS) <= points <= best
        low, high = total_bounds(game, decision)
        assert low - 0.5 <= points <= high + 0.5
