"""Sub-commands of `xtraboard`, one module each (see firmware/cli.py)."""
