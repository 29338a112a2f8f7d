"""Benchmarks behind `xtraboard bench`; each prints `name: value` lines. A desktop tool: the
board itself never needs them."""
