"""Power cuts of the booted service (tests/booted/cuts.py): its state directory on the lazy file
system, every process of the container killed at once at random moments mid-game and the unsynced
writes dropped, then booted again. No step the board reported is lost, the journal stays intact,
and the service comes back by itself with the unfinished game. `./dev bench cuts N` runs more."""

from __future__ import annotations

import os

import pytest

from tests.booted.cuts import campaign, skip_reason

pytestmark = pytest.mark.booted
CUTS = int(os.environ.get("XTRABOARD_BOOTED_CUTS", "20"))
SEED = int(os.environ.get("XTRABOARD_CUT_SEED", "1"))


def test_power_cuts_lose_no_step_the_board_showed() -> None:
    reason = skip_reason()
    if reason:
        pytest.skip(reason)
    summary = campaign(CUTS, SEED)
    print(summary.line())
    assert summary.findings == []
    assert summary.cuts == CUTS
    assert summary.steps_shown > 0  # the cuts landed in games, not only at start-up
    assert summary.moments["after a step"] + summary.moments["at a step"] > 0
    # A cut inside a frozen sync drops the commit's unsynced writes: the cuts did land in commits.
    assert summary.moments["in a sync"] == 0 or summary.dropped_writes > 0
