"""How long the simulator's scripted presses last, derived from the firmware's button timings
(`firmware.hardware.config.DEBOUNCE_MS`, `HOLD_S`) so both sides agree on what a tap and a hold are.

    >>> TAP_S, hold_press_s(1.0)
    (0.06, 1.1)
"""

from __future__ import annotations

from firmware.hardware.config import DEBOUNCE_MS, HOLD_S

TAP_S = 3 * DEBOUNCE_MS / 1000  # a short press: well past the debounce window, far shorter than a hold
HOLD_MARGIN_S = 0.1  # a scripted hold lasts this much longer than the board's hold time
BOUNCE_GAP_S = 0.002  # between the edges of a noisy contact
SETTLE_POLL_S = 0.05  # how often settling looks whether the board still moves by itself
SETTLE_LIMIT_S = 600.0  # settling gives up after this much board time


def hold_press_s(hold_s: float = HOLD_S) -> float:
    """How long a scripted long press lasts on a board whose hold time is `hold_s`."""
    return hold_s + HOLD_MARGIN_S
