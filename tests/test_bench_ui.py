"""`xtraboard bench ui`: presses per decision through the real screens (no timing asserted)."""

from __future__ import annotations

import pytest

from firmware.cli import main
from sim.bench.ui import presses_per_decision
from tests.support import GAME_NAMES


def test_bench_ui_prints_median_and_max_for_every_game(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["bench", "ui", "--games", "1"]) == 0
    figures = dict(line.split(": ") for line in capsys.readouterr().out.splitlines())
    for game in GAME_NAMES:
        decisions = int(figures[f"{game}_decisions"])
        median, most = float(figures[f"{game}_presses_median"]), int(figures[f"{game}_presses_max"])
        assert decisions > 10
        assert 1 <= median <= most


@pytest.mark.parametrize("game", GAME_NAMES)
def test_every_decision_takes_at_least_the_ok(game: str) -> None:
    counts = presses_per_decision(game, 1, "easy", 5)
    assert counts and min(counts) >= 1
