"""The engine benchmark runs and prints its figures (no timing is asserted)."""

from firmware.cli import main
from firmware.games import GAME_NAMES


def test_bench_engines_prints_every_figure(capsys):
    assert main(["bench", "engines", "--seconds", "0.05"]) == 0
    lines = capsys.readouterr().out.splitlines()
    figures = dict(line.split(": ") for line in lines)
    for game in GAME_NAMES:
        assert float(figures[f"{game}_games_per_s"]) > 0
        assert float(figures[f"{game}_legal_enumerations_per_s"]) > 0
