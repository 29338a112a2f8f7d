"""Power cuts of the booted service: `./dev bench cuts N` (and tests/booted/test_power_cuts.py).

The service's state directory (/var/lib/xtraboard) is a lazy file system (tests/booted/lazyfs.py)
mounted on the host and bound into the container, so a cut loses every write that was not
fsync'd, as a Pi's SD card would. Bots play whole games on the installed service (set up through
the menus by `xtraboard hil run`, its buttons the stood-in Pi's pins), and at random moments every
process of the container is killed at once and the lazy file system drops what was not synced:

- start-up: within a few seconds of a boot, while the service starts, opens and resumes;
- after a step: right after the debug service reported a new step (its commit just done);
- at a step: when the next step is due (the pace of the last two), a little before or after;
- in a sync: the lazy file system freezes at the n-th fsync after a step (`LazyFS.arm`), before
  doing it, so the cut lands inside a commit (of a step, a checkpoint, a setting).

Then the machine boots again, on what the disk kept. Checked at every cut: the journal on the disk
passes `PRAGMA integrity_check` (read from a copy, so the check changes nothing); every step the
debug service had reported before the cut is in it, in order (`steps lost` counts those that are
not); and after the boot the service comes up by itself and resumes the unfinished game with
every kept step. One line at the end:

    cuts: 200 done, steps lost: 0, corrupt: 0, not resumed: 0, time per cut: 9.8 s (...)
"""

from __future__ import annotations

import argparse
import contextlib
import json
import os
import random
import shutil
import sqlite3
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from firmware.games import find_game
from firmware.hardware.config import load_board
from firmware.state_reader import StateError
from sim.hil.driver import BenchError as HilError
from sim.hil.driver import DebugClient
from tests.booted.bench import REPO, BenchError, Machine, Root, RootCopy, cannot_boot_reason, cache_dir
from tests.booted.games import GAMES
from tests.booted.lazyfs import LazyFS, fuse_usable
from tests.booted.pinwire import ENV as PINFILE_ENV
from tests.booted.pinwire import sitecustomize_source
from tests.booted.standin import PINS

STATE_DIR = "/var/lib/xtraboard"
DB_NAME = "xtraboard.db"
SERVICE_UP_S = 120.0  # bounds on a hung boot or service, never timing assertions
PLAY_S = 60.0  # the longest wait for a game's next step before the cut is made anyway
POLL_S = 0.02
START_UP_S = (0.0, 6.0)  # from the container's start: boot, the service's start, its journal, the resume
MOMENTS = ("start-up", "after a step", "at a step", "in a sync")
MOMENT_WEIGHTS = (1, 2, 2, 2)
TRIP_SYNCS = (1, 4)  # "in a sync": the cut stops the n-th sync after a step, n in this range


def skip_reason() -> str | None:
    """Why the campaign cannot run here (one line), or None."""
    return cannot_boot_reason() or fuse_usable()


# --- the journal as the disk kept it -----------------------------------------------------------------
@dataclass
class Kept:
    """What the disk holds after a cut: the integrity check and the latest game."""

    check: list[str]
    game: str | None = None
    status: str | None = None
    steps: list[dict[str, Any]] = field(default_factory=list)  # Any: record JSON

    @property
    def ok(self) -> bool:
        return self.check == ["ok"]


def read_disk(state_dir: Path) -> Kept:
    """The journal in `state_dir` (the backing directory, after a cut), read from a private copy."""
    if not (state_dir / DB_NAME).exists():
        return Kept(check=["ok"])  # nothing kept yet: nothing to be damaged
    with tempfile.TemporaryDirectory(prefix="cuts-read-") as folder:
        for suffix in ("", "-wal"):
            if (state_dir / f"{DB_NAME}{suffix}").exists():
                shutil.copyfile(state_dir / f"{DB_NAME}{suffix}", Path(folder) / f"{DB_NAME}{suffix}")
        with contextlib.closing(sqlite3.connect(Path(folder) / DB_NAME)) as conn:
            try:
                check = [row[0] for row in conn.execute("PRAGMA integrity_check")]
                latest = conn.execute("SELECT id, game, status FROM games ORDER BY id DESC LIMIT 1").fetchone()
            except sqlite3.Error as exc:
                return Kept(check=[f"cannot read: {exc}"])
            if latest is None:
                return Kept(check=check)
            rows = conn.execute("SELECT step FROM steps WHERE game_id = ? ORDER BY idx", (latest[0],)).fetchall()
    return Kept(check=check, game=latest[1], status=latest[2], steps=[plain_step(json.loads(r[0])) for r in rows])


def journal_file(path: str) -> bool:
    """The journal's database and WAL (and a salvage being built, a file set aside): what must be
    synced. Not the -shm (SQLite rebuilds it) nor the board's lock file (only its flock matters)."""
    return path.startswith(DB_NAME) and not path.endswith("-shm")


def plain_step(step: dict[str, Any]) -> dict[str, Any]:
    """A step as the engine writes it (`to_json`): the journal marks keyed-in rolls, the engine not."""
    return {key: value for key, value in step.items() if key != "keyed"}


def steps_lost(shown: Shown, kept: Kept) -> int:
    """How many of the steps shown are not in the kept journal, in order (0: all of them are)."""
    if not shown.steps:
        return 0
    if kept.game != shown.game:
        return len(shown.steps)
    same = 0
    for seen, there in zip(shown.steps, kept.steps, strict=False):
        if seen != there:
            break
        same += 1
    return len(shown.steps) - same


# --- what the board showed -------------------------------------------------------------------------
@dataclass
class Shown:
    """The longest record the debug service reported during one boot, and when its steps came."""

    game: str | None = None
    steps: list[dict[str, Any]] = field(default_factory=list)  # Any: record JSON
    step_times: list[float] = field(default_factory=list)  # monotonic time each new count was first seen
    screen: str | None = None
    over: bool = False

    def see(self, client: DebugClient, stale: Callable[[], bool] = lambda: False) -> bool:
        """Ask once; True when a new step was seen. `stale()` true after the answers came: drop them."""
        try:
            record = client.ask("state record").get("value")
            self.screen = client.ask("state screen").get("value")
        except StateError:
            record = None
        if stale() or not isinstance(record, dict):
            return False
        steps = [plain_step(step) for step in record.get("steps", [])]
        self.over = "result" in record
        if record.get("game") != self.game or steps[: len(self.steps)] != self.steps:
            self.game, self.steps, self.step_times = record.get("game"), [], []  # another game: start over
        if len(steps) > len(self.steps):
            self.steps = steps
            self.step_times.append(time.monotonic())
            return True
        return False


# --- the campaign ----------------------------------------------------------------------------------
@dataclass
class Summary:
    cuts: int = 0
    steps_lost: int = 0
    corrupt: int = 0
    not_resumed: int = 0
    games: int = 0
    steps_shown: int = 0  # over all cuts: the steps the check covered
    dropped_writes: int = 0  # cuts that dropped unsynced writes to the journal (landed mid-write)
    moments: dict[str, int] = field(default_factory=lambda: dict.fromkeys(MOMENTS, 0))
    seconds: float = 0.0
    findings: list[str] = field(default_factory=list)

    @property
    def ok(self) -> bool:
        return not self.findings

    def line(self) -> str:
        per_cut = self.seconds / self.cuts if self.cuts else 0.0
        moments = ", ".join(f"{name} {count}" for name, count in self.moments.items())
        return (
            f"cuts: {self.cuts} done, steps lost: {self.steps_lost}, corrupt: {self.corrupt}, "
            f"not resumed: {self.not_resumed}, time per cut: {per_cut:.1f} s "
            f"(moments: {moments}; cuts that dropped unsynced journal writes: {self.dropped_writes}; "
            f"games started: {self.games}; steps checked: {self.steps_shown})"
        )


def setup_scenario(game: str) -> str:
    """Main menu → Play GAME → its fewest seats (at least two), each the easiest bot: the game then
    plays itself. A scenario for `xtraboard hil run` (which resets the board first)."""
    spec = find_game(game)
    count = max(2, spec.players.start)
    taps = ["right"] * GAMES.index(game) + ["ok"] + ["right"] * (count - spec.players.start) + ["ok"]
    taps += ["right", "ok"] * count  # one RIGHT from "person" is the easiest bot
    lines = [f'name = "cuts_{game}"', f'description = "{game}: bots only, for the power cuts"']
    lines += ["[[step]]", 'expect = { state = "screen", equals = "MainMenu" }']
    for tap in taps:
        lines += ["[[step]]", f'tap = "{tap}"']
    return "\n".join(lines) + "\n"


def start_game(machine: Machine, game: str, work: Path) -> None:
    """A new game of bots through the menus: `xtraboard hil run` with its gpio outputs wired to the
    stood-in Pi's pins file (as tests/booted/test_play.py does)."""
    buttons = load_board(machine.board_file()).buttons
    site = work / "site"
    site.mkdir(exist_ok=True)
    (site / "sitecustomize.py").write_text(sitecustomize_source(REPO), encoding="utf-8")
    scenario = work / f"cuts_{game}.toml"
    scenario.write_text(setup_scenario(game), encoding="utf-8")
    env = {**os.environ, "PYTHONPATH": str(site), PINFILE_ENV: str(machine.path(PINS))}
    pins = ",".join(f"{name}=GPIO{pin}" for name, pin in buttons.pins.items())
    argv = [sys.executable, "-m", "firmware", "hil", "run", "--target", machine.debug_target, "--buttons", "gpio"]
    argv += ["--pins", pins] + (["--active-low"] if buttons.pull_up else [])
    done = subprocess.run([*argv, str(scenario)], env=env, capture_output=True, text=True, timeout=300, check=False)
    if done.returncode != 0:
        raise BenchError(f"hil run could not start a game of {game}:\n{done.stdout[-2000:]}{done.stderr[-2000:]}")


class Campaign:
    """One installed machine whose state directory is a lazy file system, cut again and again."""

    def __init__(self, work: Path, seed: int, say: Callable[[str], None] = print) -> None:
        # The kinds of moment come from a stream of their own, the same for a seed whatever the
        # timing; the delays within a kind from another.
        self.work, self.rng, self.kinds, self.say = work, random.Random(seed), random.Random(seed + 1), say
        self.seed = seed
        self.lazy = LazyFS(work / "disk", work / "state")
        self.copy: RootCopy | None = None
        self.machine: Machine | None = None
        self.summary = Summary()
        self.games_started = 0
        self.moment = self.kinds.choices(MOMENTS, MOMENT_WEIGHTS)[0]  # the next cut's kind
        self.booted_at = time.monotonic()  # when the container the next cut lands in was started

    @contextlib.contextmanager
    def booted(self) -> Iterator[Campaign]:
        """Mount, boot a fresh copy of the cached root with the state directory bound in, install."""
        self.lazy.mount()
        self.copy = RootCopy.of(Root.prepared("amd64"))
        try:
            self.machine = Machine.start(self.copy.path, binds=[f"{self.lazy.mountpoint}:{STATE_DIR}"])
            self.machine.install()
            self.booted_at = time.monotonic()
            yield self
        finally:
            if self.machine is not None:
                self.machine.kill_all()
            self.lazy.cut()
            self.copy.remove()

    def run(self, cuts: int) -> Summary:
        started = time.monotonic()
        kept = Kept(check=["ok"])
        for number in range(1, cuts + 1):
            kept = self.cut_once(number, kept)
            self.summary.seconds = time.monotonic() - started
        return self.summary

    def cut_once(self, number: int, before: Kept) -> Kept:
        """Boot (but the first), watch the board, cut at a moment of one kind, check the disk."""
        machine = self.machine
        assert machine is not None
        booted_at, moment = self.booted_at, self.moment
        shown = Shown()
        client: DebugClient | None = None
        try:
            if moment == "start-up":
                deadline = booted_at + self.rng.uniform(*START_UP_S)
                client = self.watch_until(shown, lambda: time.monotonic() >= deadline, until=deadline)
            else:
                client = DebugClient.connect(machine.debug_target, timeout_s=SERVICE_UP_S)
                self.resumed(client, shown, before, number)
                if shown.over or not shown.steps:
                    client.close()
                    client = None
                    self.new_game(shown)
                    client = DebugClient.connect(machine.debug_target, timeout_s=SERVICE_UP_S)
                self.wait_for_moment(client, shown, moment)
        except HilError as exc:  # the service did not come up, or went away: a finding, and cut all the same
            self.summary.not_resumed += 1
            self.summary.findings.append(f"cut {number} ({moment}): the board's debug service: {exc}")
        finally:
            # Every process of the container first (a process frozen in a sync dies once the
            # file system does), then the file system: nothing written after the cut is kept.
            machine.kill_all(reap=False)
            dropped = [path for path in self.lazy.cut() if journal_file(path)]
            machine.kill_all()
            if client is not None:
                with contextlib.suppress(OSError):
                    client.close()
        kept = read_disk(self.lazy.backing)
        lost = steps_lost(shown, kept)
        summary = self.summary
        summary.cuts += 1
        summary.moments[moment] += 1
        summary.steps_shown += len(shown.steps)
        summary.dropped_writes += bool(dropped)
        if not kept.ok:
            summary.corrupt += 1
            summary.findings.append(f"cut {number} ({moment}): the journal is damaged: {kept.check[:3]}")
        if lost:
            summary.steps_lost += lost
            summary.findings.append(
                f"cut {number} ({moment}): {lost} of {len(shown.steps)} steps shown are not in the journal "
                f"(kept {len(kept.steps)} of {kept.game})"
            )
        self.say(
            f"cut {number}: {moment}, {shown.game or 'no game'} step {len(shown.steps)} shown, "
            f"{len(kept.steps)} kept, lost {lost}, {'ok' if kept.ok else 'CORRUPT'}"
            f"{', dropped unsynced ' + ' '.join(dropped) if dropped else ''} "
            f"({time.monotonic() - booted_at:.1f} s)"
        )
        self.lazy.mount()
        self.moment = self.kinds.choices(MOMENTS, MOMENT_WEIGHTS)[0]
        self.booted_at = time.monotonic()
        # A start-up cut lands in the boot itself: the machine is not waited for.
        self.machine = machine.again(timeout=SERVICE_UP_S, until_running=self.moment != "start-up")
        return kept

    def watch_until(self, shown: Shown, done: Callable[[], bool], until: float) -> DebugClient | None:
        """Poll the board (connecting when it can) until `done()`; the client, if one connected."""
        assert self.machine is not None
        client = None
        while not done():
            if client is None:
                try:
                    client = DebugClient.connect(
                        self.machine.debug_target, timeout_s=max(0.0, until - time.monotonic())
                    )
                except HilError:
                    break
            try:
                shown.see(client)
            except HilError:
                client = None
            time.sleep(POLL_S)
        return client

    def resumed(self, client: DebugClient, shown: Shown, before: Kept, number: int) -> None:
        """The service came up by itself: an unfinished game with kept steps must be back, all of them."""
        if before.status != "playing" or not before.steps:
            shown.see(client)
            return
        deadline = time.monotonic() + SERVICE_UP_S
        while time.monotonic() < deadline:
            shown.see(client)
            if shown.game == before.game and shown.steps[: len(before.steps)] == before.steps:
                return
            time.sleep(POLL_S)
        self.summary.not_resumed += 1
        self.summary.findings.append(
            f"cut {number}: the unfinished {before.game} with {len(before.steps)} kept steps did not come back "
            f"(the board shows {shown.game or 'no game'} with {len(shown.steps)} steps on {shown.screen})"
        )

    def new_game(self, shown: Shown) -> None:
        assert self.machine is not None
        game = GAMES[self.games_started % len(GAMES)]
        self.games_started += 1
        self.summary.games += 1
        start_game(self.machine, game, self.work)
        shown.game, shown.steps, shown.step_times, shown.over = None, [], [], False

    def wait_for_moment(self, client: DebugClient, shown: Shown, moment: str) -> None:
        """Watch until the moment of the cut: right after a new step, or when the next one is due."""
        deadline = time.monotonic() + PLAY_S
        seen = len(shown.step_times)
        while time.monotonic() < deadline and not shown.over:
            new = shown.see(client)
            fresh = len(shown.step_times) - seen  # steps that came while we watched
            if moment == "after a step" and new and fresh >= 1 and self.rng.random() < 0.3:
                time.sleep(self.rng.uniform(0.0, 0.03))
                return
            if moment == "in a sync" and fresh >= 1:
                self.frozen_in_a_sync(client, shown)
                return
            if moment == "at a step" and fresh >= 2:
                last, pace = shown.step_times[-1], shown.step_times[-1] - shown.step_times[-2]
                due = last + pace + self.rng.uniform(-0.1, 0.05)
                if self.rng.random() < 0.5:
                    time.sleep(max(0.0, due - time.monotonic()))
                    return
            time.sleep(POLL_S)

    def frozen_in_a_sync(self, client: DebugClient, shown: Shown) -> None:
        """Arm the file system to freeze at the n-th sync from now and watch until it does: the
        board then stands inside that commit (its loop thread waits in fsync, so nothing more is
        shown). An answer that comes back once it is frozen is not counted: it is not older."""
        self.lazy.arm(self.rng.randint(*TRIP_SYNCS))
        client.sock.settimeout(1.0)  # a frozen board answers nothing
        deadline = time.monotonic() + PLAY_S
        asking = True
        while not self.lazy.tripped and time.monotonic() < deadline and not shown.over:
            if asking:
                try:
                    shown.see(client, stale=lambda: self.lazy.tripped)
                except (HilError, OSError):  # no answer in time: the connection is no use now
                    asking = False
            time.sleep(POLL_S)
        self.lazy.disarm()


def campaign(cuts: int, seed: int, say: Callable[[str], None] = print) -> Summary:
    """`cuts` power cuts on a fresh installed machine; the summary (findings empty when all held)."""
    (cache_dir() / "cuts").mkdir(parents=True, exist_ok=True)
    with tempfile.TemporaryDirectory(prefix="cuts-", dir=cache_dir() / "cuts") as folder:
        runs = Campaign(Path(folder), seed, say)
        with runs.booted():
            return runs.run(cuts)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="./dev bench cuts", description="power cuts of the booted service")
    parser.add_argument("cuts", type=int, help="how many cuts")
    parser.add_argument("--seed", type=int, default=1, help="the seed of the moments (default 1)")
    parser.add_argument("--quiet", action="store_true", help="only the summary line and findings")
    args = parser.parse_args(argv)
    if args.cuts < 1:
        parser.error(f"cuts must be at least 1, not {args.cuts}")
    reason = skip_reason()
    if reason:
        print(f"cuts: cannot run here: {reason}", file=sys.stderr)
        return 2
    summary = campaign(args.cuts, args.seed, say=(lambda line: None) if args.quiet else print)
    for finding in summary.findings:
        print(f"FINDING {finding}")
    print(summary.line())
    return 0 if summary.ok else 1


if __name__ == "__main__":
    sys.exit(main())
