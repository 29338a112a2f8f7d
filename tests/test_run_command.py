"""`xtraboard run` as a user starts it: a subprocess, one clear message (and for a bad board\ndescription a non-zero exit code)."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

from tests.support import stays_up_without_gpio

ROOT = Path(__file__).resolve().parents[1]


def xtraboard(*args: str, code: str | None = None, **env_changes: str) -> subprocess.CompletedProcess[str]:
    env = {k: v for k, v in os.environ.items() if k not in ("GPIOZERO_PIN_FACTORY", "XTRABOARD_BOARD")}
    env.update(env_changes)
    command = [sys.executable, "-c", code, *args] if code else [sys.executable, "-m", "firmware", *args]
    return subprocess.run(command, cwd=ROOT, env=env, capture_output=True, text=True, timeout=60)


def test_without_gpio_it_stays_up_saying_once_what_to_check(tmp_path: Path) -> None:
    """Not a Pi: the board does not exit into a restart loop (firmware/fault_mode.py) but waits
    for GPIO, and says what to check in one line; SIGTERM ends it cleanly."""
    env = {k: v for k, v in os.environ.items() if k not in ("GPIOZERO_PIN_FACTORY", "XTRABOARD_BOARD", "NOTIFY_SOCKET")}
    command = [sys.executable, "-m", "firmware", "run", "--state-dir", str(tmp_path / "state")]
    child = subprocess.Popen(command, cwd=ROOT, env=env, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    lines, stdout, rest = stays_up_without_gpio(child)
    assert child.returncode == 0 and stdout == ""
    lines += rest.splitlines()
    [message] = [line for line in lines if not line.startswith("xtraboard run: warning:")]  # the LEDs, display
    assert message.startswith("xtraboard run: buttons: no GPIO access")
    for part in ("Raspberry Pi", "gpio group", "lgpio", "trying again in 3 s"):
        assert part in message
    # what reaches the board's venv: its own pip (apt's python3-lgpio never does)
    assert f"({sys.executable} -m pip install lgpio;" in message and "apt install python3-lgpio" not in message
    assert "Traceback" not in rest


def test_a_missing_board_file_is_named(tmp_path: Path) -> None:
    missing = tmp_path / "nope.toml"
    done = xtraboard("run", "--board", str(missing))
    assert done.returncode == 1
    assert (
        done.stderr.strip()
        == f"xtraboard run: {missing}: cannot read the board description (No such file or directory); expected a readable TOML file"
    )


def test_a_broken_board_file_is_a_config_message(tmp_path: Path) -> None:
    broken = tmp_path / "board.toml"
    broken.write_text("[board\n")
    done = xtraboard("run", "--board", str(broken))
    assert done.returncode == 1
    assert done.stderr.startswith(f"xtraboard run: {broken}: not valid TOML")
    assert "Traceback" not in done.stderr


# Mock GPIO (gpiozero's own GPIOZERO_PIN_FACTORY switch) gets past the buttons; the loop module is
# hidden so that the command stops where it would hand over to it.
WITHOUT_LOOP = (
    "import sys; sys.modules['firmware.board_loop'] = None; "
    "from firmware.cli import main; raise SystemExit(main(sys.argv[1:]))"
)


def test_missing_parts_are_warnings_and_a_missing_loop_exits_3(tmp_path: Path) -> None:
    done = xtraboard("run", "--state-dir", str(tmp_path), code=WITHOUT_LOOP, GPIOZERO_PIN_FACTORY="mock")
    assert done.returncode == 3
    lines = done.stderr.strip().splitlines()
    assert lines[0].startswith("xtraboard run: warning: LEDs: the NeoPixel chain on GPIO10 (spi) could not be opened")
    assert lines[1].startswith("xtraboard run: warning: display: /dev/i2c-1 does not exist, so I2C is not enabled")
    assert lines[2].startswith("xtraboard run: warning: buzzer: GPIO27 could not play tones")  # no PWM on a MockPin
    assert lines[3] == "xtraboard run: the board loop is not built yet"
