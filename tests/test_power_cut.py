"""Power cuts: a self-playing board killed with SIGKILL at random moments and started again with
the same state directory finishes with exactly the record of an uninterrupted run.

The demo runs the whole firmware loop (menus, screens, LED scenes, the journal) on the
simulator's adapters, its clock sped up so that a game lasts a few seconds of real time and
the kills land all through it: during start-up, mid-animation, between a step's commit and its
display, while bots think. The killing is sim/powercut.py's, which also runs long campaigns on
demand (`python -m sim.powercut --kills 1000 --seed S`).
"""

from __future__ import annotations

import random

import pytest

from sim.powercut import PowerCutResult, check_kept, kill_game, main

pytestmark = pytest.mark.system  # the system tier (the markers in pyproject.toml)

KILLS_PER_GAME = 26


def test_sigkill_at_random_moments_loses_nothing(tmp_path):
    result = PowerCutResult()
    for game, seats, seed in (("exxtra", 3, 7), ("extra", 2, 5)):
        rng = random.Random(f"power-cut:{game}:{seed}")
        kill_game(tmp_path, game, seats, seed, KILLS_PER_GAME, rng, result)
        assert result.failures == []
        moments = {length for label, length in result.kept_lengths if label.startswith(game)}
        assert len(moments) >= 5, f"{game}: kills landed at too few moments ({sorted(moments)})"
    # A game that ends before its 26th kill takes fewer: what matters is that kills landed all
    # through it (the distinct moments above) and that none lost or changed a step.
    assert result.kills >= 40 and result.lost_steps == 0 and result.diverged == 0
    assert result.equal == result.games == 2
    print(result.line())


def test_the_campaign_command_prints_its_summary(tmp_path, capsys):
    status = main(["--kills", "3", "--seed", "2", "--game", "extra", "--seats", "1", "--work-dir", str(tmp_path)])
    out = capsys.readouterr().out
    assert status == 0, out
    assert out.startswith("powercut: kills: 3, lost steps: 0, diverged: 0, games: 1 (1 equal)")


def test_a_kill_while_the_journal_is_being_created_keeps_nothing_and_loses_nothing(tmp_path):
    """Killed before its schema was written, a demo leaves an empty database file behind."""
    (tmp_path / "xtraboard.db").write_bytes(b"")
    result = PowerCutResult(kills=1)
    assert check_kept(tmp_path, [{"roll": [1, 2]}], None, "exxtra-3-1", result) is None
    assert result.failures == [] and result.lost_steps == 0
