"""Benchmarks behind `xtraboard bench`; each prints `name: value` lines."""
