"""The standing robustness suite (sim/robustness.py): seeded button-mashing over every screen of
every game and seat count, with people, bots, children, physical dice, undo and power cuts; after
every action no step was refused, the journal's record replays to the game, and no game is
stranded. Short here; long on demand:

    XTRABOARD_MASH_SEED=7 XTRABOARD_MASH_ACTIONS=200000 .venv/bin/python -m pytest tests/test_robustness.py -s
    .venv/bin/python -m sim.robustness --seed 7 --actions 200000
"""

from __future__ import annotations

import os

import pytest

from firmware.games import Roll, game_class
from sim.robustness import Campaign, RobustnessError, choose, main, run_campaign
from tests.support import GAME_NAMES

SHORT_TABLES = (20, 90)  # actions per table in CI: every game and seat count in one campaign


def every_seating() -> set[tuple[str, int]]:
    return {(g, n) for g in GAME_NAMES for n in range(game_class(g).min_players, game_class(g).max_players + 1)}


@pytest.mark.parametrize("seed", [1, 2])
def test_mashing_every_game_and_seat_count_finds_nothing(seed, tmp_path):
    summary = run_campaign(seed, 1300, state_dir=tmp_path, table_actions=SHORT_TABLES)
    print(summary.line())
    assert summary.refused == 0
    assert summary.seatings == every_seating()
    assert summary.physical > 0 and summary.undos > 0 and summary.power_cuts > 0
    assert set(summary.seat_kinds) == {"human", "bot", "kids"}
    for screen in ("PlayScreen", "GameMenu", "DiceEntryScreen", "TurnOnesScreen", "SeatScreen", "ConfirmScreen"):
        assert summary.screens[screen] > 0, screen


def test_long_tables_reach_the_result(tmp_path):
    # EXTRA! decisions take up to three OKs, and a mashed short BACK takes a decision back
    # (docs/board.md): mashed games need longer tables.
    summary = run_campaign(3, 1000, state_dir=tmp_path, table_actions=(300, 900))
    print(summary.line())
    assert summary.refused == 0
    assert summary.finished > 0 and summary.screens["ResultScreen"] > 0


def test_on_demand_campaign_from_the_environment(tmp_path):
    """XTRABOARD_MASH_SEED / XTRABOARD_MASH_ACTIONS choose a long campaign; by default a short one."""
    seed = int(os.environ.get("XTRABOARD_MASH_SEED", "4"))
    actions = int(os.environ.get("XTRABOARD_MASH_ACTIONS", "300"))
    summary = run_campaign(seed, actions, state_dir=tmp_path)
    print(summary.line())
    assert summary.actions >= actions and summary.refused == 0


def test_the_command_prints_a_summary_and_exits_zero(capsys):
    assert main(["--seed", "5", "--actions", "150", "--game", "levelx"]) == 0
    out = capsys.readouterr().out
    assert out.startswith("robustness: seed 5, 15") and out.rstrip().endswith("refused steps: 0")


def test_a_refused_step_is_a_finding_naming_seed_and_action(tmp_path):
    """The check hooks the real board: a step the engine refuses (a roll while a decision is
    pending) is reported with the seed and the action that caused it."""
    campaign = Campaign(9, 10, tmp_path)
    try:
        choose(campaign.board, "Play EXXTRA")
        choose(campaign.board, "3 players")
        for _ in range(3):
            campaign.board.tap("ok")
        campaign.act("roll", lambda: campaign.board.tap("roll"))
        campaign.act("settle", campaign.board.settle)
        assert campaign.board.state("pending.kind") == "decision"
        with pytest.raises(RobustnessError, match=r"seed 9, action 3 \(a roll now\): the board reported"):
            campaign.act("a roll now", lambda: campaign.board.app.step(Roll(("1", "2"))))
    finally:
        campaign.close()
