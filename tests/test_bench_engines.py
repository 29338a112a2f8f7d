"""The engine benchmark runs and prints its figures (no timing is asserted)."""

from firmware.cli import main
from tests.support import GAME_NAMES


def test_bench_engines_prints_every_figure(capsys):
    assert main(["bench", "engines", "--seconds", "0.05"]) == 0
    lines = capsys.readouterr().out.splitlines()
    figures = dict(line.split(": ") for line in lines)
    for game in GAME_NAMES:
        assert float(figures[f"{game}_games_per_s"]) > 0
        assert float(figures[f"{game}_legal_enumerations_per_s"]) > 0


def test_bench_bots_prints_level_figures(capsys) -> None:
    assert main(["bench", "bots", "--games", "2", "--solo-games", "2", "--game", "levelx"]) == 0
    names = {line.split(":")[0] for line in capsys.readouterr().out.splitlines()}
    assert {
        "levelx_strong_vs_medium_win_rate",
        "levelx_strong_vs_medium_win_rate_se",
        "levelx_all_levels_strong_win_rate",
        "levelx_strong_decision_ms_p99",
    } <= names
