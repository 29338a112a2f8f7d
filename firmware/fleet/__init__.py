"""The café's fleet: each board reports to the café's MQTT broker (docs/fleet.md).

    fleet = open_fleet(config)        # None unless the board description has a [fleet] section
    fleet.update(table_state(app, attract=False))   # the loop: never waits on the network
    fleet.close()

`report.py` turns the board's state into what is published (pure functions); `publisher.py`
owns the MQTT client on a thread of its own, behind a bounded outbox. Nothing listens on the
board: it only connects out to the broker.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from firmware.fleet.publisher import FleetPublisher
from firmware.fleet.report import result_message, table_state

if TYPE_CHECKING:
    from firmware.hardware.config import BoardConfig

__all__ = ["FleetPublisher", "open_fleet", "result_message", "table_state"]


def open_fleet(config: BoardConfig) -> FleetPublisher | None:
    """A started publisher for a board description with a `[fleet]` section, else None."""
    if config.fleet is None:
        return None
    from firmware.fleet.publisher import board_identity

    publisher = FleetPublisher(config.fleet, model=config.name, owner=board_identity(config.path))
    publisher.start()
    return publisher
