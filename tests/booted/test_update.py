"""An update as a café makes it (docs/kiosk.md, "Updating"): a board installed from commit
858ce89 — before the per-game packages, writing record version 1 — plays a whole LEVEL X game and
leaves a second one unfinished; then `git pull` and `install.sh` (offline, `--wheelhouse`). The
service restarts on the new code, resumes the unfinished game where it stood under version 1
rules and plays on in it; the finished game's record still replays.

858ce89's installer has no --wheelhouse: it runs pip with PIP_NO_INDEX and PIP_FIND_LINKS in its
environment (pip honours both), from a wheelhouse of that commit's own requirements/pi.lock. It
always runs `apt-get update` (offline: a warning, not an error) and installs swig when the archive
lists it (the bench's root has it: OPTIONAL_IN_DEBIAN). It refuses any overlay root as Raspberry
Pi OS's read-only one, so this machine boots a plain copy (`RootCopy.of(..., overlay=False)`).
The stood-in Pi needs numpy (fake-rpi imports it), which 858ce89's lock lacks: unpacked beside it.
The old board is driven by its own `xtraboard hil run` inside the machine (its debug service has
no `reset`, which today's hil needs), its buttons through the bench's pin wires (pinwire.py).
The update pulls the checkout's HEAD (a clone of it): what is not committed is not updated to.
"""

from __future__ import annotations

import json
import socket
import subprocess
import time
import zipfile
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path

import pytest

from firmware.hardware.config import load_board
from tests.booted.bench import (
    GUEST_SOURCE,
    GUEST_STANDIN,
    GUEST_WHEELHOUSE,
    REPO,
    BenchError,
    Machine,
    Root,
    RootCopy,
    UPDATE_FROM,
    cannot_boot_reason,
    lock_of,
    wheelhouse,
)
from tests.booted.standin import DEBUG_SOCKET, PINS

pytestmark = pytest.mark.booted

OLD = UPDATE_FROM  # 858ce89: the last commit before the per-game packages; its records are version 1
OLD_WHEELHOUSE = "/root/wheelhouse-858ce89"
BOARD = "/etc/xtraboard/board.toml"
JOURNAL = "/var/lib/xtraboard/xtraboard.db"
XTRABOARD = "/opt/xtraboard/venv/bin/xtraboard"
WIRE = f"{GUEST_STANDIN}/wire"  # pinwire.py and its sitecustomize, for the old hil inside
ROUND_2 = "# ===== round 2 ====="  # where the unfinished game stops: Red to roll, round 2


@dataclass
class Updated:
    machine: Machine
    old_install: subprocess.CompletedProcess[str]
    old_hil: subprocess.CompletedProcess[str]
    before: dict[str, object]  # the board's state and the journal's game before the update
    update: subprocess.CompletedProcess[str]
    after: dict[str, object] = field(default_factory=dict)
    played_on: dict[str, object] = field(default_factory=dict)
    seconds: dict[str, float] = field(default_factory=dict)
    problem: str = ""  # what went wrong after the update, if anything


def git(*args: str) -> str:
    return subprocess.run(["git", *args], check=True, capture_output=True, text=True).stdout.strip()


def debug_state(machine: Machine, *paths: str) -> dict[str, object]:
    """`state PATH` for each path over the service's debug socket (from the host)."""
    with socket.socket(socket.AF_UNIX) as conn:
        conn.settimeout(20)
        conn.connect(str(machine.path(DEBUG_SOCKET)))
        lines = conn.makefile("rwb")
        json.loads(lines.readline())  # the hello
        values: dict[str, object] = {}
        for path in paths:
            lines.write(f"state {path}\n".encode())
            lines.flush()
            answer = json.loads(lines.readline())
            values[path] = answer["value"] if answer["ok"] else {"error": answer["error"]}
        return values


def debug_command(machine: Machine, line: str) -> dict[str, object]:
    with socket.socket(socket.AF_UNIX) as conn:
        conn.settimeout(20)
        conn.connect(str(machine.path(DEBUG_SOCKET)))
        lines = conn.makefile("rwb")
        lines.readline()
        lines.write(f"{line}\n".encode())
        lines.flush()
        answer: dict[str, object] = json.loads(lines.readline())
        return answer


def unfinished_games(machine: Machine) -> list[dict[str, object]]:
    """The journal's games in play: id, header (the record's format and version) and steps."""
    script = (
        "import json, sqlite3\n"
        f"conn = sqlite3.connect('file:{JOURNAL}?mode=ro', uri=True)\n"
        'rows = conn.execute("SELECT id, header, (SELECT count(*) FROM steps WHERE game_id = id)'
        " FROM games WHERE status = 'playing'\").fetchall()\n"
        "print(json.dumps([{'id': i, 'header': json.loads(h), 'steps': n} for i, h, n in rows]))\n"
    )
    return list(json.loads(machine.run("python3", "-c", script).stdout))


def wait_for_debug(machine: Machine, timeout: float = 60.0) -> None:
    deadline = time.monotonic() + timeout
    while not machine.path(DEBUG_SOCKET).exists():
        if time.monotonic() > deadline:
            raise AssertionError(f"no debug socket after {timeout:.0f} s:\n{machine.journal()[-3000:]}")
        time.sleep(0.2)


def tap(machine: Machine, pin: int, active_low: bool) -> None:
    """A button pressed and let go through the stood-in Pi's pins file, 60 ms as hil taps."""
    down, up = ("low", "high") if active_low else ("high", "low")
    with machine.path(PINS).open("a", encoding="utf-8") as wire:
        wire.write(f"{down} {pin}\n")
    time.sleep(0.06)
    with machine.path(PINS).open("a", encoding="utf-8") as wire:
        wire.write(f"{up} {pin}\n")
    time.sleep(0.3)


def wait_state(machine: Machine, path: str, wanted: object, timeout: float = 30.0) -> object:
    deadline = time.monotonic() + timeout
    value = None
    while time.monotonic() < deadline:
        value = debug_state(machine, path)[path]
        if value == wanted:
            return value
        time.sleep(0.2)
    raise AssertionError(f"state {path} is {value!r}, not {wanted!r}, after {timeout:.0f} s")


def numpy_for_the_stand_in(machine: Machine, wheels: Path) -> None:
    """fake-rpi's package imports numpy (for its camera double) and 858ce89's lock has none: the
    stood-in Pi gets today's pinned numpy wheel unpacked beside it (test-only, like the rest)."""
    (wheel,) = wheels.glob("numpy-*.whl")
    with zipfile.ZipFile(wheel) as archive:
        archive.extractall(machine.path(GUEST_STANDIN))


def old_scenarios(folder: Path) -> list[str]:
    """858ce89's whole LEVEL X game, and the same game cut before round 2 (left unfinished)."""
    whole = git("-C", str(REPO), "show", f"{OLD}:tests/scenarios/levelx_game.toml") + "\n"
    cut = whole[: whole.index(ROUND_2)].replace('name = "levelx_game"', 'name = "levelx_unfinished"')
    (folder / "levelx_game.toml").write_text(whole, encoding="utf-8")
    (folder / "levelx_unfinished.toml").write_text(cut, encoding="utf-8")
    return ["levelx_game.toml", "levelx_unfinished.toml"]


@pytest.fixture(scope="module")
def updated() -> Iterator[Updated]:
    reason = cannot_boot_reason()
    if reason:
        pytest.skip(reason)
    old_wheels, new_wheels = wheelhouse("amd64", lock=lock_of(OLD)), wheelhouse("amd64")
    pristine = Root.prepared("amd64")
    with (
        RootCopy.of(pristine, overlay=False) as copy,
        Machine.boot(copy, binds=("--private-network",)) as machine,
    ):
        seconds: dict[str, float] = {}
        clone = copy.path / GUEST_SOURCE.lstrip("/")
        git("clone", "--quiet", str(REPO), str(clone))
        git("-C", str(clone), "reset", "--quiet", "--hard", OLD)
        machine.put(old_wheels, OLD_WHEELHOUSE)
        machine.put(new_wheels, GUEST_WHEELHOUSE)
        machine.stand_in_pi(board=clone / "hardware" / "board.toml")
        numpy_for_the_stand_in(machine, new_wheels)
        machine.put(REPO / "tests" / "booted" / "pinwire.py", f"{WIRE}/pinwire.py")
        machine.write(f"{WIRE}/sitecustomize.py", "import pinwire\npinwire.start_from_environment()\n")
        started = time.monotonic()
        old_install = machine.run(
            "bash",
            f"{GUEST_SOURCE}/systemd/install.sh",
            env={"PIP_NO_INDEX": "1", "PIP_FIND_LINKS": OLD_WHEELHOUSE},
            check=False,
        )
        seconds["old install"] = time.monotonic() - started
        if old_install.returncode != 0:
            pytest.fail(
                f"858ce89's install.sh exited {old_install.returncode}:\n{old_install.stdout[-3000:]}\n{old_install.stderr[-3000:]}"
            )
        machine.wait_active()
        wait_for_debug(machine)
        buttons = load_board(machine.path(BOARD)).buttons
        names = old_scenarios(machine.path("/root"))
        pins = ",".join(f"{name}={pin}" for name, pin in buttons.pins.items())
        started = time.monotonic()
        old_hil = machine.run(
            XTRABOARD, "hil", "run", "--target", f"unix:{DEBUG_SOCKET}", "--buttons", "gpio", "--pins", pins,
            *(["--active-low"] if buttons.pull_up else []), "--between", "systemctl restart xtraboard",
            "--wait", "60", *(f"/root/{name}" for name in names),
            env={"PYTHONPATH": WIRE, "XTRABOARD_BENCH_PINFILE": PINS},
            check=False,
        )  # fmt: skip
        seconds["old hil"] = time.monotonic() - started
        before = {
            **debug_state(machine, "screen", "pending", "scores", "chip_counts"),
            "games": unfinished_games(machine),
            "main_pid": machine.unit_property("MainPID"),
        }
        git("-C", str(clone), "pull", "--quiet", "--ff-only")  # docs/kiosk.md: git pull, then install.sh
        started = time.monotonic()
        update = machine.run(
            "bash", f"{GUEST_SOURCE}/systemd/install.sh", "--wheelhouse", GUEST_WHEELHOUSE, check=False
        )
        seconds["update"] = time.monotonic() - started
        result = Updated(machine, old_install, old_hil, before, update, seconds=seconds)
        try:
            if update.returncode == 0:
                resume_and_play_on(result, buttons.pins, buttons.pull_up)
        except (AssertionError, BenchError, OSError) as error:  # each test below says what it lacks
            result.problem = str(error)
        yield result


def resume_and_play_on(result: Updated, pins: dict[str, int], active_low: bool) -> None:
    """After the update: the service back on the screen it showed, then Red's next turn."""
    machine, before = result.machine, result.before
    machine.wait_active()
    wait_for_debug(machine)
    wait_state(machine, "screen", before["screen"])
    result.after = {
        **debug_state(machine, "screen", "pending", "scores", "chip_counts"),
        "games": unfinished_games(machine),
        "main_pid": machine.unit_property("MainPID"),
    }
    # Red rolls four 2s and passes (LEFT wraps to "pass", the last option), on the new code.
    queued = debug_command(machine, "dice [2, 2, 2, 2]")
    tap(machine, pins["roll"], active_low)
    wait_state(machine, "pending", {"kind": "decision", "player": 0})
    tap(machine, pins["left"], active_low)
    tap(machine, pins["ok"], active_low)
    wait_state(machine, "pending", {"kind": "roll", "player": 1})
    result.played_on = {"queued": queued, "games": unfinished_games(machine)}


def test_the_old_commit_installs_offline_from_its_own_lock(updated: Updated) -> None:
    out = updated.old_install.stdout
    assert updated.old_install.returncode == 0
    assert "no raspi-config and no config.txt" in updated.old_install.stderr  # plain Debian: said, skipped
    assert "liblgpio-dev is not in the package archive: skipped" in out
    print(f"858ce89 install (offline pip, swig already there): {updated.seconds['old install']:.0f} s")


def test_the_old_board_plays_a_whole_game_and_leaves_a_version_1_game_unfinished(updated: Updated) -> None:
    assert updated.old_hil.returncode == 0, updated.old_hil.stdout + updated.old_hil.stderr
    assert "scenario levelx_game:" in updated.old_hil.stdout and "passed" in updated.old_hil.stdout
    assert updated.before["screen"] == "PlayScreen"
    assert updated.before["pending"] == {"kind": "roll", "player": 0}
    games = updated.before["games"]
    assert isinstance(games, list) and len(games) == 1
    assert games[0]["header"]["version"] == 1 and games[0]["header"]["game"] == "levelx"


def test_git_pull_and_install_sh_update_and_restart_the_service(updated: Updated) -> None:
    assert updated.update.returncode == 0, updated.update.stdout[-3000:] + updated.update.stderr[-3000:]
    assert updated.after, updated.problem
    assert updated.after["main_pid"] != updated.before["main_pid"]
    venv = updated.machine.path("/opt/xtraboard/venv/lib")
    assert list(venv.glob("python3*/site-packages/firmware/games/levelx/__init__.py")), (
        "the service's venv does not have the new code (the per-game packages)"
    )
    print(f"update (git pull + install.sh --wheelhouse): {updated.seconds['update']:.0f} s")


def test_the_unfinished_game_resumes_where_it_stood_as_version_1(updated: Updated) -> None:
    assert updated.after, updated.problem
    for path in ("screen", "pending", "scores", "chip_counts"):
        assert updated.after[path] == updated.before[path], path
    assert updated.after["games"] == updated.before["games"]


def test_the_resumed_game_plays_on_and_stays_version_1(updated: Updated) -> None:
    assert updated.played_on, updated.problem
    before = updated.before["games"]
    games = updated.played_on["games"]
    assert isinstance(before, list) and isinstance(games, list) and len(games) == 1
    assert games[0]["id"] == before[0]["id"]
    assert games[0]["header"] == before[0]["header"] and games[0]["header"]["version"] == 1
    assert games[0]["steps"] == before[0]["steps"] + 2  # Red's roll and pass


def test_the_old_boards_records_still_replay(updated: Updated) -> None:
    machine = updated.machine
    exported = machine.run(
        "runuser", "-u", "xtraboard", "--", XTRABOARD, "records", "export", "--state-dir", "/var/lib/xtraboard",
        "--out", "-",
    ).stdout  # fmt: skip
    records = [json.loads(line) for line in exported.splitlines() if line.strip()]
    assert [(r["game"], r["version"]) for r in records] == [("levelx", 1)]
    replayed = machine.run(XTRABOARD, "replay", "-", input=exported.splitlines()[0])
    summary = json.loads(replayed.stdout)
    assert summary["over"] is True and summary["result"] == records[0]["result"]
