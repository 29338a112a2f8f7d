"""xtraboard firmware: rules engines, game records, hardware adapters and the board's loop."""

__version__ = "0.1.0"
