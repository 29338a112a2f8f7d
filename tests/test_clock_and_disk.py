"""The clock and the card: `xtraboard run` as a real subprocess on the stood-in Pi
(tests/test_pi_standin.py) while its wall clock jumps and while its state directory fills up.

- A Pi has no real-time clock: after a power cut it starts at the last saved time and jumps
  when NTP answers. libfaketime moves the board's wall clock back and forward by days mid-game
  (FAKETIME_TIMESTAMP_FILE, rewritten by the test; FAKETIME_DONT_FAKE_MONOTONIC=1 as on a Pi,
  where an NTP step leaves CLOCK_MONOTONIC alone): every press is answered, no timer fires
  early, and the journal keeps every step in order (steps by index, games by id, never by time).
- The state directory on a small tmpfs that fills up mid-game: the board says so once (log and
  screen), plays on, and what it had written before stays whole on the card.
"""

from __future__ import annotations

import contextlib
import errno
import glob
import os
import sqlite3
import subprocess
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from firmware.hardware.config import default_board_path
from firmware.journal import Journal
from tests.test_pi_standin import Debug, StoodInPi, running, until

pytestmark = pytest.mark.system  # real subprocesses (the markers in pyproject.toml)

FAKETIME = sorted(glob.glob("/usr/lib/*/faketime/libfaketime.so.1"))
DAY_S = 86400


def steps(debug: Debug) -> list[Any]:
    record = debug.ask("state record")["value"]
    return list(record["steps"]) if record else []


def start_exxtra(pi: StoodInPi, debug: Debug) -> None:
    """Play EXXTRA, three people (the main menu's first entry, its defaults)."""

    def where() -> tuple[object, ...]:
        return (debug.ask("state screen")["value"], debug.ask("state menu")["value"], debug.ask("text")["text"])

    for button in ("ok", "ok", "ok", "ok", "ok"):
        before = where()
        pi.press(button)
        until(lambda before=before: where() != before, button)
    until(lambda: debug.ask("state pending")["value"] is not None, "the game starts")


def roll(pi: StoodInPi, debug: Debug) -> list[Any]:
    """One step of the game or more: ROLL when a roll is due, else OK (the decision under the
    cursor), pressed again while an animation (a piece moving) lets a press go by."""
    before = len(steps(debug))
    deadline = time.monotonic() + 60
    while len(steps(debug)) == before:
        assert time.monotonic() < deadline, "no step"
        pending = debug.ask("state pending")["value"]
        pi.press("roll" if pending["kind"] == "roll" else "ok")
        with contextlib.suppress(AssertionError):
            until(lambda: len(steps(debug)) > before, f"a step after {pending}", within_s=3)
    return steps(debug)


def kept_steps(state: Path) -> list[Any]:
    journal = Journal(state)
    try:
        unfinished = journal.unfinished()
        assert unfinished is not None
        return list(unfinished.record["steps"])
    finally:
        journal.close()


@pytest.mark.skipif(not FAKETIME, reason="libfaketime is not installed (apt-get install libfaketime)")
def test_the_wall_clock_jumping_by_days_mid_game_changes_nothing_but_the_dates(tmp_path: Path) -> None:
    pi = StoodInPi(tmp_path, default_board_path())
    stamp = tmp_path / "faketime"
    stamp.write_text("+0\n", encoding="utf-8")
    pi.env.update(
        {
            "LD_PRELOAD": FAKETIME[0],
            "FAKETIME_TIMESTAMP_FILE": str(stamp),
            "FAKETIME_NO_CACHE": "1",
            "FAKETIME_DONT_FAKE_MONOTONIC": "1",
        }
    )
    socket_path = tmp_path / "debug.sock"
    state = tmp_path / "state"
    shown: list[Any] = []
    with running(pi, "--kiosk", "--debug-socket", str(socket_path)) as run:
        debug = Debug(socket_path)
        try:
            start_exxtra(pi, debug)
            shown = roll(pi, debug)
            started = time.time()
            for jump in ("-3d", "+5d", "-1d"):  # an NTP step back, forward, back again
                stamp.write_text(f"{jump}\n", encoding="utf-8")
                shown = roll(pi, debug)
                screen = debug.ask("state screen")["value"]
                assert screen != "AttractScreen" and debug.ask("state over")["value"] is False, screen
            assert run.child.poll() is None
        finally:
            debug.close()
    assert run.child.returncode == 0 and "Traceback" not in run.stderr, run.stderr
    assert kept_steps(state) == shown  # every step, in order
    journal = Journal(state)
    try:
        game = journal.unfinished()
        assert game is not None
        # The dates are the wall clock's (what else could they be); the last write was a day back.
        assert abs(game.updated - (started - DAY_S)) < 600, (game.started, game.updated, started)
    finally:
        journal.close()


@contextlib.contextmanager
def small_tmpfs(where: Path, size: str) -> Iterator[Path]:
    where.mkdir()
    mounted = subprocess.run(
        ["mount", "-t", "tmpfs", "-o", f"size={size},mode=0700", "tmpfs", str(where)], capture_output=True, text=True
    )
    if mounted.returncode != 0:
        pytest.skip(f"cannot mount a tmpfs here ({mounted.stderr.strip() or 'not root'})")
    try:
        yield where
    finally:
        subprocess.run(["umount", "-l", str(where)], check=False)


def fill(folder: Path) -> Path:
    """Fill the file system under `folder` to the last byte."""
    filler = folder / "filler"
    fd = os.open(filler, os.O_WRONLY | os.O_CREAT, 0o600)
    try:
        with contextlib.suppress(OSError):
            while os.write(fd, b"\0" * 4096):
                pass
    finally:
        os.close(fd)
    probe = folder / "probe"
    with pytest.raises(OSError) as full:
        probe.write_bytes(b"\0" * 8192)
    assert full.value.errno == errno.ENOSPC
    probe.unlink(missing_ok=True)
    return filler


def test_a_state_directory_that_fills_up_mid_game_is_said_once_and_play_goes_on(tmp_path: Path) -> None:
    pi = StoodInPi(tmp_path, default_board_path())
    socket_path = tmp_path / "debug.sock"
    with small_tmpfs(tmp_path / "state", "2m") as state:
        with running(pi, "--kiosk", "--debug-socket", str(socket_path)) as run:
            debug = Debug(socket_path)
            try:
                start_exxtra(pi, debug)
                for _ in range(2):
                    before_full = roll(pi, debug)
                filler = fill(state)
                shown = roll(pi, debug)  # the first step the card cannot take
                # Said on the display at once (a note over the bottom lines, until the next press).
                assert any("storage full" in line for line in debug.ask("text")["text"]), debug.ask("text")
                for _ in range(3):  # the journal fails, the game does not
                    shown = roll(pi, debug)
                problems = debug.ask("state problems")["value"]
                assert problems.count("storage full: games not kept") == 1, problems
            finally:
                debug.close()
        assert run.child.returncode == 0 and "Traceback" not in run.stderr, run.stderr
        full_lines = [
            line for line in run.stderr.splitlines() if "full" in line.lower() or "ENOSPC" in line or "No space" in line
        ]
        assert len(full_lines) == 1, run.stderr
        filler.unlink()
        kept = kept_steps(state)
        # What was written before the card filled is whole; the rest was never on it.
        assert kept[: len(before_full)] == before_full and kept == shown[: len(kept)], (len(kept), len(shown))
        with contextlib.closing(sqlite3.connect(state / "xtraboard.db")) as db:
            assert db.execute("PRAGMA integrity_check").fetchone() == ("ok",)
