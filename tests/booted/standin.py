"""The stood-in Pi of a booted bench root: the test-only drop-in that puts tests/pi_fakes in
front of the service's firmware (never shipped by install.sh), and the files it needs there."""

from __future__ import annotations

import json
from importlib.metadata import distribution
from pathlib import Path

import fake_rpi

from firmware.hardware.config import load_board

REPO = Path(__file__).resolve().parents[2]
GUEST_STANDIN = "/opt/xtraboard-bench"
RECORD = "/run/xtraboard/pi.jsonl"  # the service's RuntimeDirectory: writable under ProtectSystem=strict
PINS = "/run/xtraboard/pins"
DEBUG_SOCKET = "/run/xtraboard/debug.sock"


def standin_files() -> dict[str, Path]:
    """Where under GUEST_STANDIN each host file or folder goes: the doubles and fake-rpi (pure
    Python, from this venv: the Pi's lock does not have it)."""
    package = Path(fake_rpi.__path__[0])
    metadata = Path(str(distribution("fake-rpi")._path))  # type: ignore[attr-defined]  # its .dist-info: fake_rpi reads its own version
    return {
        "tests/pi_fakes": REPO / "tests" / "pi_fakes",
        "fake_rpi": package,
        metadata.name: metadata,
    }


def settings(board: Path) -> dict[str, object]:
    """$XTRABOARD_FAKE_PI for `board`: bus 1 with its display if that is I2C, SPI0 (the LEDs)."""
    display = load_board(board).display
    i2c = {"1": [display.address] if display.interface == "i2c" else []}
    spi = [[0, 0], [0, 1]] + ([[display.port, display.device]] if display.interface == "spi" else [])
    return {"record": RECORD, "pins": PINS, "i2c": i2c, "spi": spi, "gpio": True}


def drop_in_text(board: Path) -> str:
    fake = json.dumps(settings(board), separators=(",", ":"))
    return (
        "# The bench's stood-in Pi (tests/booted): never installed by systemd/install.sh.\n"
        "[Service]\n"
        f"Environment=PYTHONPATH={GUEST_STANDIN}/site\n"
        f"Environment='XTRABOARD_FAKE_PI={fake}'\n"
        "Environment=GPIOZERO_PIN_FACTORY=mock GPIOZERO_MOCK_PIN_CLASS=mockpwmpin\n"
        "ExecStart=\n"
        "ExecStart=/opt/xtraboard/venv/bin/xtraboard run --kiosk --state-dir /var/lib/xtraboard"
        f" --debug-socket {DEBUG_SOCKET}\n"
    )
