"""Power cuts: a self-playing board killed with SIGKILL at random moments and started again with
the same state directory finishes with exactly the record of an uninterrupted run.

The demo runs the whole firmware loop (menus, screens, LED scenes, the journal) on the
simulator's adapters, its clock sped up so that a game lasts a few seconds of real time and
the kills land all through it: during start-up, mid-animation, between a step's commit and its
display, while bots think.
"""

from __future__ import annotations

import json
import os
import random
import signal
import subprocess
import sys
import time
from pathlib import Path

from firmware.journal import Journal

KILLS_PER_GAME = 26
SPEED = "5"


def demo_command(game: str, seats: int, seed: int, state_dir: Path, record: Path, speed: str | None) -> list[str]:
    command = [sys.executable, "-m", "firmware", "sim", "--headless", "--demo", game, "--seats", str(seats),
               "--seed", str(seed), "--state-dir", str(state_dir), "--record", str(record)]
    return command + (["--speed", speed] if speed else [])


def journal_steps(state_dir: Path) -> list | None:
    """The unfinished game's steps as kept on storage (None when there is none)."""
    if not (state_dir / "xtraboard.db").exists():
        return None
    with Journal(state_dir, read_only=True) as journal:
        stored = journal.unfinished()
        return None if stored is None else stored.record["steps"]


def survive_kills(tmp_path: Path, game: str, seats: int, seed: int) -> tuple[int, set[int]]:
    reference_record = tmp_path / f"{game}-reference.json"
    subprocess.run(demo_command(game, seats, seed, tmp_path / f"{game}-ref-state", reference_record, None),
                   check=True, capture_output=True, timeout=120)
    reference = json.loads(reference_record.read_text())

    state_dir, record = tmp_path / f"{game}-state", tmp_path / f"{game}-killed.json"
    rng = random.Random(f"power-cut:{game}:{seed}")
    kills, kept_lengths = 0, set()
    for _ in range(KILLS_PER_GAME * 4):
        process = subprocess.Popen(demo_command(game, seats, seed, state_dir, record, SPEED),
                                   stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
        if kills < KILLS_PER_GAME:
            time.sleep(rng.uniform(0.2, 0.8))
            if process.poll() is None:
                os.kill(process.pid, signal.SIGKILL)
                process.wait(30)
                kills += 1
                steps = journal_steps(state_dir)
                if steps is not None:
                    # Nothing kept that the uninterrupted game did not do, nothing out of order.
                    assert steps == reference["steps"][: len(steps)], f"kill {kills}: journal diverged"
                    kept_lengths.add(len(steps))
                continue
        _, err = process.communicate(timeout=120)
        assert process.returncode == 0, err.decode()
        break
    assert record.exists(), "the killed demo never finished"
    assert json.loads(record.read_text()) == reference
    return kills, kept_lengths


def test_sigkill_at_random_moments_loses_nothing(tmp_path):
    total = 0
    for game, seats, seed in (("exxtra", 3, 7), ("extra", 2, 5)):
        kills, kept_lengths = survive_kills(tmp_path, game, seats, seed)
        total += kills
        assert len(kept_lengths) >= 5, f"{game}: kills landed at too few moments ({sorted(kept_lengths)})"
    assert total >= 50
    print(f"survived {total} kills")
