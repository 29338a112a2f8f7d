"""The loop benchmark runs end to end and prints every figure (no timing is asserted)."""

import pytest

from firmware.cli import main

# luma's greyscale drivers call Image.getdata(), deprecated in Pillow 13 (removed in 14): theirs, not ours.
pytestmark = pytest.mark.filterwarnings("ignore:Image.Image.getdata is deprecated:DeprecationWarning")


def test_bench_loop_prints_every_figure(capsys):
    assert main(["bench", "loop", "--idle-seconds", "0.3", "--samples", "20"]) == 0
    figures = dict(line.split(": ") for line in capsys.readouterr().out.splitlines())
    for name in (
        "edge_to_push_p50_ms",
        "edge_to_push_p99_ms",
        "idle_cpu_percent",
        "peak_rss_mb",
        "edge_to_push_thinking_p50_ms",
        "edge_to_push_thinking_p99_ms",
        "i2c_bytes_cursor_move",
        "i2c_bytes_full_frame",
    ):
        assert float(figures[name]) >= 0, name
    # Exact and deterministic: a cursor move sends only the changed columns of changed pages.
    assert float(figures["i2c_bytes_full_frame"]) == 1063
    assert 0 < float(figures["i2c_bytes_cursor_move"]) < 1063 * 0.25
    # Every display profile: a cursor move is at most a quarter of a whole frame, an unchanged frame nothing.
    for profile in ("ssd1306", "sh1106", "ssd1309", "ssd1322", "ssd1327"):
        full = float(figures[f"{profile}_bus_bytes_full_frame"])
        assert full > 1000, profile
        assert 0 < float(figures[f"{profile}_bus_bytes_cursor_move"]) <= 0.25 * full, profile
        assert float(figures[f"{profile}_bus_bytes_unchanged_frame"]) == 0, profile
