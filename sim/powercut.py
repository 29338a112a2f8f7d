"""Power cuts on demand: the self-playing demo killed with SIGKILL at random (seeded) moments and
started again on the same state directory, over and over.

    python -m sim.powercut --kills 1000 --seed 3            # games in turn until 1000 kills
    python -m sim.powercut --kills 50 --seed 1 --game extra --seats 2

Each demo game is first played once without interruption (instantly, its own state directory)
for the reference record. Then the same game runs as a subprocess with its clock sped up, so
kills land all through it: during start-up, mid-animation, between a step's commit and its
display, while bots think. After every kill the journal's unfinished game must be a prefix of
the reference (nothing kept that the game did not do, nothing out of order) and no shorter than
after the previous kill (a kept step is never lost); the finished game's record must equal the
reference. One summary line; exit status 1 on any loss:

    powercut: kills: 1000, lost steps: 0, diverged: 0, games: 31 (31 equal), kill moments: 208
"""

from __future__ import annotations

import argparse
import json
import os
import random
import signal
import sqlite3
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from pathlib import Path

from firmware.errors import RecordError
from firmware.games import game_class, game_names

SPEED = "5"  # the killed demo's clock runs 5x real time: a game lasts a few seconds
KILL_AFTER_S = (0.2, 0.8)  # how long a started demo runs before its kill (start-up included)
START_UP_SHARE = 0.25  # kills timed from the start; the others from the demo's first journal write
RUN_TIMEOUT_S = 120


def demo_command(game: str, seats: int, seed: int, state_dir: Path, record: Path, speed: str | None) -> list[str]:
    """The headless demo (`xtraboard sim --headless --demo ...`) as a subprocess command."""
    command = [
        sys.executable,
        "-m",
        "firmware",
        "sim",
        "--headless",
        "--demo",
        game,
        "--seats",
        str(seats),
        "--seed",
        str(seed),
        "--state-dir",
        str(state_dir),
        "--record",
        str(record),
    ]
    return command + (["--speed", speed] if speed else [])


@dataclass
class PowerCutResult:
    """What the kills did: counts, and every loss found (empty when nothing was lost)."""

    kills: int = 0
    lost_steps: int = 0
    diverged: int = 0
    games: int = 0
    equal: int = 0
    kept_lengths: set[tuple[str, int]] = field(default_factory=set)  # (game run, steps kept) at kills
    failures: list[str] = field(default_factory=list)

    @property
    def ok(self) -> bool:
        return not self.failures

    def line(self) -> str:
        return (
            f"powercut: kills: {self.kills}, lost steps: {self.lost_steps}, diverged: {self.diverged}, "
            f"games: {self.games} ({self.equal} equal), kill moments: {len(self.kept_lengths)}"
        )


def reference_record(work_dir: Path, game: str, seats: int, seed: int) -> dict[str, object]:
    """The record of the demo played once without interruption."""
    label = f"{game}-{seats}-{seed}"
    record = work_dir / f"{label}-reference.json"
    subprocess.run(
        demo_command(game, seats, seed, work_dir / f"{label}-reference-state", record, None),
        check=True,
        capture_output=True,
        timeout=RUN_TIMEOUT_S,
    )
    loaded = json.loads(record.read_text(encoding="utf-8"))
    if not isinstance(loaded, dict) or not isinstance(loaded.get("steps"), list):
        raise RecordError(f"{record}: the demo wrote no record")
    return loaded


def kill_game(
    work_dir: Path,
    game: str,
    seats: int,
    seed: int,
    kills: int,
    rng: random.Random,
    result: PowerCutResult,
    speed: str = SPEED,
    kill_after_s: tuple[float, float] = KILL_AFTER_S,
) -> None:
    """Play one demo game to its end through up to `kills` SIGKILLs, adding to `result`."""
    label = f"{game}-{seats}-{seed}"
    reference = reference_record(work_dir, game, seats, seed)
    reference_steps = reference["steps"]
    assert isinstance(reference_steps, list)  # reference_record checked it
    state_dir, record = work_dir / f"{label}-state", work_dir / f"{label}-killed.json"
    result.games += 1
    done, kept = 0, None
    while True:
        since = journal_stamp(state_dir)
        process = subprocess.Popen(
            demo_command(game, seats, seed, state_dir, record, speed), stdout=subprocess.DEVNULL, stderr=subprocess.PIPE
        )
        if done < kills:
            wait_for_kill_moment(process, state_dir, since, rng, kill_after_s)
            if process.poll() is None:
                os.kill(process.pid, signal.SIGKILL)
                process.wait(30)
                done += 1
                result.kills += 1
                kept = check_kept(state_dir, reference_steps, kept, label, result)
                continue
        try:
            _, err = process.communicate(timeout=RUN_TIMEOUT_S)
        except subprocess.TimeoutExpired:
            process.kill()
            process.wait(30)
            result.failures.append(f"{label}: the demo did not finish within {RUN_TIMEOUT_S} s")
            return
        if process.returncode != 0:
            result.failures.append(
                f"{label}: the demo exited {process.returncode}: {err.decode(errors='replace').strip()}"
            )
            return
        break
    if not record.exists():
        result.failures.append(f"{label}: the killed demo never wrote its record")
    elif json.loads(record.read_text(encoding="utf-8")) != reference:
        result.failures.append(f"{label}: the finished record differs from the uninterrupted game's")
    else:
        result.equal += 1


def journal_stamp(state_dir: Path) -> tuple[tuple[int, int] | None, ...]:
    """When and how big the journal's files are: it changes when a demo writes a step."""
    stamps: list[tuple[int, int] | None] = []
    for name in ("xtraboard.db", "xtraboard.db-wal"):
        try:
            info = os.stat(state_dir / name)
            stamps.append((info.st_mtime_ns, info.st_size))
        except FileNotFoundError:
            stamps.append(None)
    return tuple(stamps)


def wait_for_kill_moment(
    process: subprocess.Popen[bytes],
    state_dir: Path,
    since: tuple[tuple[int, int] | None, ...],
    rng: random.Random,
    kill_after_s: tuple[float, float],
) -> None:
    """Some kills land `kill_after_s` after the start (start-up included); the others a random
    moment after the demo's first journal write, so that a slow, busy machine's start-up does not
    swallow them all."""
    if rng.random() < START_UP_SHARE:
        time.sleep(rng.uniform(*kill_after_s))
        return
    delay = rng.uniform(0.0, kill_after_s[1])
    end = time.monotonic() + RUN_TIMEOUT_S
    while process.poll() is None and journal_stamp(state_dir) == since and time.monotonic() < end:
        time.sleep(0.005)
    time.sleep(delay)


def has_journal(path: Path) -> bool:
    """Whether the file holds any table yet: a demo killed while creating its journal leaves an
    empty database, which keeps nothing (the next start creates the journal)."""
    if not path.is_file():
        return False
    conn = sqlite3.connect(f"{path.resolve().as_uri()}?mode=ro", uri=True)
    try:
        count: int = conn.execute("SELECT count(*) FROM sqlite_master").fetchone()[0]
        return count > 0
    finally:
        conn.close()


def kept_games(state_dir: Path, previous: int | None) -> tuple[tuple[int, list[object]] | None, list[object] | None]:
    """(id, steps) of the journal's unfinished game, and the steps of game `previous` as kept now
    (None where there is none)."""
    from firmware.journal import Journal

    if not has_journal(state_dir / "xtraboard.db"):
        return None, None
    with Journal(state_dir, read_only=True) as journal:
        stored = journal.unfinished()
        current = None if stored is None else (stored.id, stored.record["steps"])
        earlier = journal.record(previous)["steps"] if previous is not None else None
        return current, earlier


def check_kept(
    state_dir: Path, reference: list[object], before: tuple[int, int] | None, label: str, result: PowerCutResult
) -> tuple[int, int] | None:
    """After a kill: the kept steps are a prefix of `reference`, no fewer than `before` (game id,
    steps kept after the previous kill). A demo killed after its game's end but before writing
    its record starts the same game afresh: then the earlier one must be kept whole. Returns the
    new (game id, steps kept)."""
    try:
        current, earlier = kept_games(state_dir, before[0] if before else None)
    except RecordError as exc:  # damaged by a kill: that is a loss too
        result.failures.append(f"{label}: kill {result.kills}: {exc}")
        return before
    if before is not None and (current is None or current[0] != before[0]):
        if earlier != reference:  # the earlier game is not kept whole
            kept = len(earlier or [])
            result.lost_steps += len(reference) - kept
            result.failures.append(
                f"{label}: kill {result.kills}: game {before[0]} kept {kept} of its {len(reference)} steps"
            )
            return None
        result.kept_lengths.add((label, len(reference)))
    if current is None:
        result.kept_lengths.add((label, 0))
        return None
    game_id, steps = current
    if steps != reference[: len(steps)]:
        result.diverged += 1
        result.failures.append(f"{label}: kill {result.kills}: the journal diverged from the game")
    if before is not None and game_id == before[0] and len(steps) < before[1]:
        result.lost_steps += before[1] - len(steps)
        result.failures.append(f"{label}: kill {result.kills}: {before[1] - len(steps)} kept steps lost")
    result.kept_lengths.add((label, len(steps)))
    return game_id, len(steps)


def games_in_turn(seed: int, games: Sequence[str], seats: int | None) -> list[tuple[str, int, int]]:
    """(game, seats, seed) of the demo games a campaign plays in turn, endlessly repeated."""
    plan = []
    for index, game in enumerate(games):
        cls = game_class(game)
        counts = [seats] if seats is not None else list(range(cls.min_players, cls.max_players + 1))
        plan.append((game, counts[(seed + index) % len(counts)], seed))
    return plan


def campaign(
    kills: int,
    seed: int,
    *,
    games: Sequence[str] | None = None,
    seats: int | None = None,
    per_game: int = 26,
    work_dir: Path | None = None,
    log: Callable[[str], None] | None = None,
) -> PowerCutResult:
    """`kills` SIGKILLs spread over demo games (at most `per_game` each), seeded; stops early at
    the first loss."""
    result = PowerCutResult()
    rng = random.Random(f"xtraboard-powercut:{seed}")
    with tempfile.TemporaryDirectory(prefix="xtraboard-powercut-") as tmp:
        root = work_dir if work_dir is not None else Path(tmp)
        round_ = 0
        while result.kills < kills and result.ok:
            at_start = result.kills
            for game, count, base_seed in games_in_turn(seed + round_, games or game_names(), seats):
                if result.kills >= kills or not result.ok:
                    break
                game_seed = base_seed * 1000 + round_
                before = result.kills
                kill_game(root, game, count, game_seed, min(per_game, kills - result.kills), rng, result)
                if log is not None:
                    log(f"{game} for {count}, seed {game_seed}: {result.kills - before} kills; {result.line()}")
            if result.kills == at_start and result.ok:
                result.failures.append("no kill landed in a whole round of games (they end too soon)")
            round_ += 1
    return result


def progress(line: str) -> None:
    print(line, flush=True)  # shows as it happens when the output goes to a file


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        prog="python -m sim.powercut",
        description="SIGKILL the self-playing demo at random moments; nothing may be lost.",
    )
    parser.add_argument("--kills", type=int, default=100, help="how many kills in all (default 100)")
    parser.add_argument("--seed", type=int, default=0, help="seed of the kill moments and the demo games")
    parser.add_argument("--game", choices=game_names(), action="append", help="only this game (repeatable)")
    parser.add_argument("--seats", type=int, help="seats of every demo game (default: varies per game)")
    parser.add_argument("--per-game", type=int, default=26, metavar="N", help="at most N kills per demo game")
    parser.add_argument("--work-dir", type=Path, help="keep state directories and records here (default: temporary)")
    parser.add_argument("--verbose", action="store_true", help="a line per demo game")
    args = parser.parse_args(argv)
    if args.kills < 1 or args.per_game < 1:
        parser.error("--kills and --per-game must be at least 1")
    games = args.game or list(game_names())
    if args.seats is not None:
        for game in games:
            cls = game_class(game)
            if not cls.min_players <= args.seats <= cls.max_players:
                parser.error(f"{cls.title} is for {cls.min_players} to {cls.max_players} players, not {args.seats}")
    result = campaign(
        args.kills,
        args.seed,
        games=games,
        seats=args.seats,
        per_game=args.per_game,
        work_dir=args.work_dir,
        log=progress if args.verbose else None,
    )
    for failure in result.failures:
        print(f"LOST {failure}", file=sys.stderr)
    print(result.line())
    return 0 if result.ok and result.kills >= args.kills else 1


if __name__ == "__main__":
    sys.exit(main())
