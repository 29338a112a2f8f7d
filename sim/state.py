"""Reading a running board's state: the reader lives in the firmware (`firmware.state`, which the
board's debug service uses too); the simulator and scenarios keep importing it from here.

    >>> parse_path("game.sheets[0].total")
    ['game', 'sheets', 0, 'total']
"""

from firmware.state import StateError, parse_path, plain, read_state, same, state_roots

__all__ = ["StateError", "parse_path", "plain", "read_state", "same", "state_roots"]
