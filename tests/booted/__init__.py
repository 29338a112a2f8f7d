"""The booted-system tier: install.sh and xtraboard.service on a Debian root booted under
systemd-nspawn (tests/booted/bench.py; hardware/BENCH.md)."""
