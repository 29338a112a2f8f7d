"""The bench's wires to the booted board's buttons: a gpiozero pin factory whose output pins,
instead of a GPIO line, append "high N"/"low N" to the file the stood-in Pi drives the board's
pins from (tests/pi_fakes `drive_pins`, $XTRABOARD_FAKE_PI "pins"). Put in front of
`xtraboard hil run --buttons gpio` by a sitecustomize (`sitecustomize_source`), so the real
command presses the service's buttons as the bench Pi's optocouplers press a real board's."""

from __future__ import annotations

import os
from pathlib import Path
from typing import Any

from gpiozero.pins.mock import MockFactory, MockPin

ENV = "XTRABOARD_BENCH_PINFILE"  # the file (as the host reaches it) the stood-in Pi reads


class WiredPin(MockPin):
    """A bench output wired to the board pin of the same number, through the pins file."""

    path: Path

    def _change_state(self, value: bool) -> bool:
        changed = super()._change_state(value)
        if changed and self._function == "output":
            with self.path.open("a", encoding="utf-8") as wire:
                wire.write(f"{'high' if value else 'low'} {self.info.name.removeprefix('GPIO')}\n")
        return bool(changed)


def wired_factory(path: Path) -> Any:  # Any: gpiozero has no type hints
    pin_class = type("WiredPinHere", (WiredPin,), {"path": path})
    return MockFactory(pin_class=pin_class)


def start_from_environment() -> None:
    path = os.environ.get(ENV)
    if path:
        from gpiozero import Device

        Device.pin_factory = wired_factory(Path(path))


def sitecustomize_source(repo: Path) -> str:
    return (
        f"import sys\nsys.path.insert(0, {str(repo)!r})\n"
        "from tests.booted.pinwire import start_from_environment\nstart_from_environment()\n"
    )
