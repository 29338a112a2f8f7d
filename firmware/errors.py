"""The board's exceptions: one root, each subclass also a builtin so callers may catch either."""


class XtraboardError(Exception):
    """Root of every error the firmware raises on purpose."""


class IllegalStepError(XtraboardError, ValueError):
    """A step that the rules do not allow now; the game is left unchanged.

    >>> raise IllegalStepError("rung 3 is taken")  # doctest: +SKIP
    """


class RecordError(XtraboardError, ValueError):
    """A game record that is malformed or does not replay; `index` is the step at fault, if any."""

    def __init__(self, message: str, index: int | None = None) -> None:
        self.index = index
        prefix = f"step {index}: " if index is not None else ""
        super().__init__(prefix + message)


class ConfigError(XtraboardError, ValueError):
    """A configuration file that is missing, unreadable or has a bad key."""


class HardwareError(XtraboardError, RuntimeError):
    """A part of the board that is missing or does not answer."""
