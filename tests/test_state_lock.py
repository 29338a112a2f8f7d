"""One board process per state directory: the journal is created once however many processes
open it at the same moment, and a second board on the same state directory refuses to start
(firmware/paths.py StateLock). Real processes, started together."""

from __future__ import annotations

import json
import re
import subprocess
import sys
import time
from pathlib import Path

import pytest

from firmware.journal import Journal
from firmware.paths import LOCK_NAME, StateDirInUse, StateLock

ROOT = Path(__file__).resolve().parents[1]
XTRABOARD = [sys.executable, "-m", "firmware"]
IN_USE = re.compile(
    r"xtraboard sim: the state directory (.+) is in use by another board process \(pid (\d+)\); "
    r"stop it first, or give this one another --state-dir\n"
)


def test_a_new_journal_opened_by_many_processes_at_once_is_created_once(tmp_path: Path) -> None:
    """Without the board's lock (`players add`, say, while a board starts): every process gets
    the journal on storage, none falls back to memory with "table games already exists"."""
    go = tmp_path / "go"
    child = (
        "import json, os, sys, time\n"
        "from firmware.journal import Journal\n"
        f"while not os.path.exists({str(go)!r}): time.sleep(0.001)\n"
        f"journal = Journal({str(tmp_path / 'state')!r})\n"
        "journal.set_setting(f'pid{os.getpid()}', 1)\n"
        "print(json.dumps(journal.problem)); journal.close()\n"
    )
    for _round in range(3):
        state = tmp_path / "state"
        if state.exists():
            for path in state.iterdir():
                path.unlink()
            state.rmdir()
        go.unlink(missing_ok=True)
        children = [
            subprocess.Popen(
                [sys.executable, "-c", child], cwd=ROOT, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True
            )
            for _ in range(6)
        ]
        time.sleep(0.5)  # all of them imported and waiting
        go.touch()
        results = [c.communicate(timeout=60) for c in children]
        assert [c.returncode for c in children] == [0] * 6, [err for _, err in results]
        assert [json.loads(out) for out, _ in results] == [None] * 6, [err for _, err in results]
        journal = Journal(state, read_only=True)
        assert len([k for k in (f"pid{c.pid}" for c in children) if journal.get_setting(k) == 1]) == 6
        journal.close()


def test_a_second_board_on_the_same_state_dir_refuses_to_start(tmp_path: Path) -> None:
    state = tmp_path / "state"
    first = subprocess.Popen(
        [*XTRABOARD, "sim", "--headless", "--debug-port", "0", "--state-dir", str(state)],
        cwd=ROOT,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )
    try:
        assert (first.stdout.readline() if first.stdout else "").startswith("debug service listening on")
        others = [
            subprocess.Popen(
                [*XTRABOARD, "sim", "--headless", "--demo", "extra", "--state-dir", str(state)],
                cwd=ROOT,
                stdout=subprocess.PIPE,
                stderr=subprocess.PIPE,
                text=True,
            )
            for _ in range(3)
        ]  # at once
        results = [other.communicate(timeout=120) for other in others]
    finally:
        first.terminate()
        first.wait(timeout=30)
    for other, (out, err) in zip(others, results):
        assert other.returncode == 2 and out == ""
        found = IN_USE.fullmatch(err)
        assert found and found.groups() == (str(state), str(first.pid)), err
    assert first.returncode == 0
    # The first one gone, its lock went with it: the next board starts.
    done = subprocess.run(
        [*XTRABOARD, "sim", "--headless", "--demo", "extra", "--state-dir", str(state)],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert done.returncode == 0 and done.stderr == ""


def test_demos_started_together_each_play_on_storage_or_refuse_in_one_line(tmp_path: Path) -> None:
    """The issue's case: three demos at once on a fresh state directory used to exit 0, 0, 2
    with one playing without storage. Now each either plays its game into the journal or says
    the directory is in use; which of the two depends only on timing."""
    state = tmp_path / "state"
    demos = [
        subprocess.Popen(
            [*XTRABOARD, "sim", "--headless", "--demo", "extra", "--seed", str(n), "--state-dir", str(state)],
            cwd=ROOT,
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            text=True,
        )
        for n in range(3)
    ]
    results = [demo.communicate(timeout=120) for demo in demos]
    played = 0
    for demo, (out, err) in zip(demos, results):
        if demo.returncode == 0:
            assert err == "" and json.loads(out)["game"] == "extra"
            played += 1
        else:
            assert demo.returncode == 2 and out == "" and IN_USE.fullmatch(err), err
    assert played >= 1
    journal = Journal(state, read_only=True)
    assert len(journal.finished()) == played
    journal.close()


def test_the_lock_is_the_processes_and_storage_that_cannot_hold_one_plays_on(tmp_path: Path) -> None:
    lock = StateLock(tmp_path)
    assert lock.held and (tmp_path / LOCK_NAME).read_text() == f"{__import__('os').getpid()}\n"
    with pytest.raises(StateDirInUse, match=r"is in use by another board process \(pid \d+\)"):
        StateLock(tmp_path)  # a second open file: flock keeps them apart within one process too
    lock.release()
    lock.release()
    again = StateLock(tmp_path)
    assert again.held
    again.release()
    blocked = tmp_path / "a-file"
    blocked.write_text("where the state directory would be")
    assert not StateLock(blocked).held  # the journal will play in memory: nothing to share
