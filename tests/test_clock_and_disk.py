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
import glob
import sqlite3
import subprocess
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from firmware.hardware.config import default_board_path
from firmware.journal import Journal
from tests.support import fill
from tests.test_pi_standin import Debug, StoodInPi, running, until

pytestmark = pytest.mark.system  # real subprocesses (the markers in pyproject.toml)

FAKETIME = sorted(glob.glob("/usr/lib/*/faketime/libfaketime.so.1"))
DAY_S = 86400


def with_faketime(pi: StoodInPi, stamp: Path) -> StoodInPi:
    """The stood-in Pi's board under libfaketime: its wall clock is what `stamp` says ("+0",
    "-3d"), read at every call; its monotonic clock is the real one, as after an NTP step."""
    stamp.write_text("+0\n", encoding="utf-8")
    pi.env.update(
        {
            "LD_PRELOAD": FAKETIME[0],
            "FAKETIME_TIMESTAMP_FILE": str(stamp),
            "FAKETIME_NO_CACHE": "1",
            "FAKETIME_DONT_FAKE_MONOTONIC": "1",
        }
    )
    return pi


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
    stamp = tmp_path / "faketime"
    pi = with_faketime(StoodInPi(tmp_path, default_board_path()), stamp)
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


@pytest.mark.skipif(not FAKETIME, reason="libfaketime is not installed (apt-get install libfaketime)")
def test_the_operator_lockout_outlasts_the_wall_clock_jumping_either_way(tmp_path: Path) -> None:
    """Five wrong codes lock code entry for 15 minutes of the board's own (monotonic) time: a
    day forward does not lift the lock, three days back do not lengthen it."""
    from firmware.operator_code import WRONG_BEFORE_LOCK, StoredCode, write_code_file
    from firmware.ui.operator_menu import ENTRY_HOLD_S

    etc = tmp_path / "etc"
    etc.mkdir()
    board = etc / "board.toml"
    board.write_text(default_board_path().read_text(encoding="utf-8"), encoding="utf-8")
    write_code_file(etc / "operator-code", StoredCode.make(("left", "left", "right", "ok", "roll")))
    pi = with_faketime(StoodInPi(tmp_path, board), tmp_path / "faketime")
    socket_path = tmp_path / "debug.sock"

    def code_entry() -> None:  # OK + BACK held on the main menu
        pi.hold(("back", "ok"), ENTRY_HOLD_S + 0.5)
        time.sleep(0.3)

    def ask(request: str) -> Any:  # a connection a question: the service drops idle ones
        debug = Debug(socket_path)
        try:
            answer = debug.ask(request)
        finally:
            debug.close()
        return answer.get("value", answer.get("text"))

    def texts() -> list[str]:
        return list(ask("text"))

    with running(pi, "--kiosk", "--debug-socket", str(socket_path)) as run:
        for _ in range(WRONG_BEFORE_LOCK):
            code_entry()
            assert ask("state screen") == "CodeEntryScreen", texts()
            for button in ("right", "right", "left", "ok", "roll"):  # a wrong code
                pi.press(button)
                time.sleep(0.3)
            until(lambda: ask("state screen") != "CodeEntryScreen", "the wrong code is refused")
        for jump in ("+1d", "-3d"):
            (tmp_path / "faketime").write_text(f"{jump}\n", encoding="utf-8")
            code_entry()
            assert ask("state screen") == "MainMenu"
            shown = " ".join(texts())  # the note may wrap onto two lines
            assert "Code entry locked: 15 min" in shown or "Code entry locked: 14 min" in shown, shown
    assert run.child.returncode == 0 and "Traceback" not in run.stderr, run.stderr
    assert "operator code entry locked for 15 minutes after 5 wrong codes (lock 1)" in run.stderr
