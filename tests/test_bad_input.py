"""No traceback from any input: every bad file, option or stored game gives one line and a
non-zero exit (issue 9, part 4).

Deep nesting runs in a subprocess: a parser that recursed too deep must not take the test run
with it if it ever crashed the interpreter.
"""

from __future__ import annotations

import json
import logging
import os
import pwd
import sqlite3
import subprocess
import sys
import tempfile
from pathlib import Path

import pytest

from tests.support import run_capped
from firmware.cli import build_parser, main
from firmware.errors import ConfigError
from firmware.hardware.config import load_board
from firmware.journal import DB_NAME, Journal
from sim.scenario import ScenarioError, load_scenario

ROOT = Path(__file__).resolve().parents[1]
HUGE = str(10**30)
RECORD = {
    "format": "xtraboard-record",
    "version": 1,
    "game": "extra",
    "players": [{"name": "Marie"}],
    "steps": [{"roll": [1, 2, 2, 3, 5]}],
}


def cli(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, str, str]:
    """Run `xtraboard ARGV`, argparse's exit included; (exit code, stdout, stderr)."""
    try:
        code = main(list(argv))
    except SystemExit as exc:
        code = exc.code if isinstance(exc.code, int) else 1
    out, err = capsys.readouterr()
    return code, out, err


def one_line(err: str) -> str:
    """The single line on standard error (and never a traceback)."""
    assert "Traceback" not in err
    lines = err.splitlines()
    assert len(lines) == 1, err
    return lines[0]


def subprocess_cli(*argv: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "firmware", *argv], cwd=ROOT, capture_output=True, text=True, timeout=120
    )


# --- replay: records are a format, be strict ------------------------------------------------
def replay(capsys: pytest.CaptureFixture[str], tmp_path: Path, text: str) -> tuple[int, str]:
    path = tmp_path / "record.json"
    path.write_text(text, encoding="utf-8")
    code, out, err = cli(capsys, "replay", str(path))
    assert out == ""
    return code, one_line(err)


@pytest.mark.parametrize("version", ["true", "1.0", '"1"', "2.0", "3", "0"])
def test_replay_refuses_a_version_that_is_not_the_integer_1_or_2(capsys, tmp_path, version):
    code, line = replay(capsys, tmp_path, json.dumps(RECORD).replace('"version": 1', f'"version": {version}'))
    assert code == 2
    assert "'version' must be one of the integers 1, 2" in line and version in line


def test_replay_refuses_an_unknown_key_in_a_step_naming_step_and_key(capsys, tmp_path):
    record = dict(
        RECORD, steps=[{"roll": [1, 2, 2, 3, 5]}, {"player": 0, "extra": 0, "pairs": [[1, 2], [3, 4]], "colour": "red"}]
    )
    code, line = replay(capsys, tmp_path, json.dumps(record))
    assert code == 2
    assert line.startswith("xtraboard replay: step 1: ") and "unknown key 'colour'" in line


def test_replay_refuses_keys_of_another_kind_of_step(capsys, tmp_path):
    record = dict(
        RECORD, game="levelx", players=[{"name": "A"}, {"name": "B"}], steps=[{"roll": [1, 2, 3, 4], "rung": 3}]
    )
    code, line = replay(capsys, tmp_path, json.dumps(record))
    assert code == 2 and "step 0: " in line and "unknown key 'rung'" in line


def test_replay_refuses_unknown_keys_in_the_record_and_its_players(capsys, tmp_path):
    code, line = replay(capsys, tmp_path, json.dumps(dict(RECORD, date="today")))
    assert code == 2 and "unknown key 'date'" in line
    code, line = replay(capsys, tmp_path, json.dumps(dict(RECORD, players=[{"name": "Marie", "age": 9}])))
    assert code == 2 and "unknown key 'age'" in line and "Marie" in line


def test_replay_of_a_5000_digit_number_is_one_line(capsys, tmp_path):
    text = json.dumps(RECORD).replace("[1, 2, 2, 3, 5]", "[1, 2, 2, 3, " + "9" * 5000 + "]")
    code, line = replay(capsys, tmp_path, text)
    assert code == 2
    assert str(tmp_path / "record.json") in line and "number" in line and "digits" in line
    assert len(line) < 300


def test_replay_of_a_record_nested_100000_deep_is_one_line(tmp_path):
    path = tmp_path / "deep.json"
    path.write_text(
        '{"format": "xtraboard-record", "version": 1, "game": "extra", "players": [], "steps": '
        + "[" * 100_000
        + "]" * 100_000
        + "}",
        encoding="utf-8",
    )
    done = subprocess_cli("replay", str(path))
    assert done.returncode == 2 and done.stdout == ""
    line = one_line(done.stderr)
    assert str(path) in line and "nested too deeply" in line


def test_replay_of_binary_standard_input_is_one_line():
    done = subprocess.run(
        [sys.executable, "-m", "firmware", "replay", "-"],
        cwd=ROOT,
        capture_output=True,
        input=b"\x89PNG\r\n\x1a\n\xff\xfe",
        timeout=120,
        env={**os.environ, "PYTHONIOENCODING": "utf-8"},
    )
    assert done.returncode == 2 and done.stdout == b""
    line = one_line(done.stderr.decode())
    assert line.startswith("xtraboard replay: cannot read standard input: ") and "utf-8" in line


# --- records list / best ---------------------------------------------------------------------
def journal_with_games(state: Path) -> list[int]:
    """A journal with three finished games (EXTRA! solo, EXTRA! for two, EXXTRA for three)."""
    ids = []
    with Journal(state) as journal:
        for players, game, result in [
            ([{"name": "Marie"}], "extra", {"scores": [10], "rows": [{}], "winners": [0]}),
            ([{"name": "Marie"}, {"name": "Paul"}], "extra", {"scores": [10, 20], "rows": [{}, {}], "winners": [1]}),
            ([{"name": "A"}, {"name": "B"}, {"name": "C"}], "exxtra", {"positions": [21, 3, 4], "winners": [0]}),
        ]:
            gid = journal.start_game({"format": "xtraboard-record", "version": 1, "game": game, "players": players})
            journal.finish(gid, result)
            ids.append(gid)
    return ids


def damage(state: Path, sql: str, *params: object) -> None:
    """Write bad contents straight into the journal's file, as a damaged card would hold them."""
    conn = sqlite3.connect(state / DB_NAME)
    with conn:
        conn.execute(sql, params)
    conn.close()


@pytest.mark.parametrize(
    "column, value, problem",
    [
        ("result", json.dumps({"scores": [10, 20], "rows": [{}, {}], "winners": [7]}), "winner 7"),
        ("result", json.dumps(["not", "an", "object"]), "result"),
        (
            "header",
            json.dumps(
                {
                    "format": "xtraboard-record",
                    "version": 1,
                    "game": "extra",
                    "players": [{"name": str(i)} for i in range(9)],
                }
            ),
            "9 players",
        ),
        (
            "header",
            json.dumps({"format": "xtraboard-record", "version": 1, "game": "extra", "players": []}),
            "0 players",
        ),
    ],
)
def test_records_list_names_a_bad_finished_game_and_lists_the_others(capsys, tmp_path, column, value, problem):
    first, bad, last = journal_with_games(tmp_path)
    damage(tmp_path, f"UPDATE games SET {column} = ? WHERE id = ?", value, bad)
    code, out, err = cli(capsys, "records", "list", "--state-dir", str(tmp_path))
    assert code == 1
    assert [int(line.split()[0]) for line in out.splitlines()] == [last, first]
    line = one_line(err)
    assert line.startswith(f"xtraboard records: game {bad} skipped: ") and problem in line


def test_records_export_skips_a_bad_finished_game_the_same_way(capsys, tmp_path):
    first, bad, last = journal_with_games(tmp_path)
    damage(tmp_path, "UPDATE games SET result = ? WHERE id = ?", json.dumps({"winners": "all"}), bad)
    code, out, err = cli(capsys, "records", "export", "--state-dir", str(tmp_path))
    assert code == 1
    assert len(out.splitlines()) == 2
    assert one_line(err).startswith(f"xtraboard records: game {bad} skipped: ")


def test_records_list_on_a_game_nested_100000_deep_in_the_journal_is_one_line(capsys, caplog, tmp_path):
    _, bad, _ = journal_with_games(tmp_path)
    damage(tmp_path, "UPDATE games SET result = ? WHERE id = ?", "[" * 100_000 + "]" * 100_000, bad)
    code, out, err = cli(capsys, "records", "list", "--state-dir", str(tmp_path))
    assert code == 1 and len(out.splitlines()) == 2 and "Traceback" not in err  # the others are listed
    # The journal's log line (standard error outside pytest) names the game skipped.
    [line] = [r.getMessage() for r in caplog.records if r.levelno >= logging.WARNING]
    assert f"game {bad} " in line and "nested too deeply" in line


def test_records_on_a_state_dir_that_is_a_file_is_one_line(capsys, tmp_path):
    state = tmp_path / "state"
    state.write_text("not a folder")
    for where in (state, state / "below"):
        code, out, err = cli(capsys, "records", "list", "--state-dir", str(where))
        assert (code, out) == (1, "")
        assert f"{state} is not a directory" in one_line(err)


def run_as_nobody(argv: list[str]) -> tuple[int, str]:
    """`xtraboard ARGV` in a forked child that dropped root (root may read anything); (exit, stderr)."""
    read, write = os.pipe()
    pid = os.fork()
    if pid == 0:  # the child: never returns into pytest
        code = 70
        try:
            os.close(read)
            os.dup2(write, 2)
            sys.stderr = open(2, "w", closefd=False)
            sys.stdout = open(os.devnull, "w")
            if os.geteuid() == 0:
                nobody = pwd.getpwnam("nobody")
                os.setgroups([])
                os.setgid(nobody.pw_gid)
                os.setuid(nobody.pw_uid)
            code = main(argv)
        finally:
            sys.stderr.flush()
            os._exit(code)
    os.close(write)
    with open(read, encoding="utf-8") as pipe:
        err = pipe.read()
    return os.waitstatus_to_exitcode(os.waitpid(pid, 0)[1]), err


def test_records_on_a_state_dir_without_permission_is_one_line():
    with tempfile.TemporaryDirectory() as top:
        state = Path(top) / "state"
        journal_with_games(state)
        os.chmod(top, 0o755)
        os.chmod(state, 0)
        try:
            code, err = run_as_nobody(["records", "list", "--state-dir", str(state)])
        finally:
            os.chmod(state, 0o700)
    assert code == 1
    assert one_line(err) == f"xtraboard records: cannot read the state directory {state}: Permission denied"


def test_records_on_a_state_dir_the_system_cannot_look_at_is_one_line(capsys, tmp_path):
    # The system refuses the name itself (as it refuses a folder without permission to enter it;
    # tests run as root here, for whom permissions do not stop anything).
    state = tmp_path / ("x" * 5000)
    code, out, err = cli(capsys, "records", "list", "--state-dir", str(state))
    assert (code, out) == (1, "")
    line = one_line(err)
    assert line.startswith("xtraboard records: cannot read the state directory ") and "name too long" in line


@pytest.mark.parametrize("action", ["list", "best"])
@pytest.mark.parametrize("limit", [HUGE, "0", "-3", "ten"])
def test_records_limit_refuses_zero_negative_and_absurd_values(capsys, tmp_path, action, limit):
    journal_with_games(tmp_path)
    code, out, err = cli(capsys, "records", action, "--state-dir", str(tmp_path), "--limit", limit)
    assert code == 2 and out == ""
    line = one_line(err)
    assert "--limit" in line and "a whole number from 1 to" in line and limit in line


# --- sim options -----------------------------------------------------------------------------
@pytest.mark.parametrize("speed", ["-5", "nan", "inf", "-inf", "fast"])
def test_sim_refuses_a_speed_that_is_not_a_positive_number(capsys, speed):
    code, out, err = cli(capsys, "sim", "--headless", "--demo", "extra", f"--speed={speed}")
    assert code == 2 and out == ""
    line = one_line(err)
    assert "--speed" in line and speed in line


def test_sim_speed_0_means_as_fast_as_possible(capsys):
    assert build_parser("sim").parse_args(["sim", "--speed", "0"]).speed is None  # no clock: instant
    assert build_parser("sim").parse_args(["sim", "--speed", "2.5"]).speed == 2.5
    code, out, err = cli(capsys, "sim", "--headless", "--demo", "extra", "--seed", "1", "--speed", "0")
    assert code == 0 and err == ""
    assert cli(capsys, "sim", "--headless", "--demo", "extra", "--seed", "1") == (0, out, "")


def test_sim_screenshot_naming_a_folder_is_refused_before_anything_runs(capsys, tmp_path):
    record = tmp_path / "demo.json"
    code, out, err = cli(
        capsys, "sim", "--headless", "--demo", "extra", "--record", str(record), "--screenshot", str(tmp_path)
    )
    assert code == 2 and out == ""
    line = one_line(err)
    assert "--screenshot" in line and str(tmp_path) in line and "is a folder" in line
    assert not record.exists()


def test_sim_screenshot_in_a_missing_folder_is_refused(capsys, tmp_path):
    code, out, err = cli(
        capsys, "sim", "--headless", "--demo", "extra", "--screenshot", str(tmp_path / "no" / "shot.png")
    )
    assert code == 2 and out == ""
    line = one_line(err)
    assert "--screenshot" in line and "does not exist" in line


def test_sim_demo_closes_a_note_on_top_like_a_person(capsys, tmp_path):
    state = tmp_path / "state"
    state.write_text("a file where the state folder should be")  # the journal cannot be kept: a note
    code, out, err = cli(capsys, "sim", "--headless", "--demo", "extra", "--seed", "1", "--state-dir", str(state))
    assert code == 0, err
    assert json.loads(out)["game"] == "extra"


@pytest.mark.parametrize("kiosk", [[], ["--kiosk"]], ids=["plain", "kiosk"])
def test_sim_demo_starts_over_an_unfinished_game_and_keeps_it_in_the_journal(capsys, tmp_path, kiosk):
    from firmware.games import new_game

    journal = Journal(tmp_path)
    waiting = journal.start_game(new_game("exxtra", ["Ann", "Bob", "Cy"]).to_record())
    journal.close()
    code, out, err = cli(
        capsys, "sim", "--headless", *kiosk, "--demo", "extra", "--seed", "1", "--state-dir", str(tmp_path)
    )
    assert code == 0, err
    assert json.loads(out)["game"] == "extra"
    assert one_line(err) == (
        f"xtraboard sim: the unfinished EXXTRA game (game {waiting} in the journal) is set "
        "aside for the demo; the journal keeps it"
    )
    journal = Journal(tmp_path, read_only=True)
    assert journal.unfinished() is None
    assert any(g.id == waiting and g.record["players"][0]["name"] == "Ann" for g in journal.all_games())
    journal.close()


# --- scenario and board files ----------------------------------------------------------------
@pytest.mark.parametrize("content", [b'name = "caf\xe9"\n', b"\x89PNG\r\n\x1a\n\x00\x00\x00\rIHDR\xff\xff"])
def test_a_scenario_that_is_not_utf8_is_refused_naming_the_file(capsys, tmp_path, content):
    path = tmp_path / "scenario.toml"
    path.write_bytes(content)
    with pytest.raises(ScenarioError, match=r"scenario\.toml: not UTF-8 text"):
        load_scenario(path)
    code, out, err = cli(capsys, "sim", "--headless", "--scenario", str(path))
    assert code == 2 and out == ""
    assert str(path) in one_line(err)


def deep_toml(depth: int) -> str:
    return 'name = "deep"\nx = ' + "[" * depth + "]" * depth + "\n"


def test_a_scenario_nested_5000_deep_is_one_line(tmp_path):
    path = tmp_path / "deep.toml"
    path.write_text(deep_toml(5000), encoding="utf-8")
    done = subprocess_cli("sim", "--headless", "--scenario", str(path))
    assert done.returncode == 2 and done.stdout == ""
    line = one_line(done.stderr)
    assert str(path) in line and "nested too deeply" in line


@pytest.mark.parametrize("make", ["fifo", "link to /dev/zero", "directory", "too large"])
def test_a_scenario_that_is_not_a_regular_file_of_sensible_size_is_one_line(tmp_path, make):
    """A FIFO used to block `sim --scenario` (and `hil run`) for ever, /dev/zero to grow until
    memory ran out. The command runs with its address space capped, so the unfixed reader fails
    (a MemoryError's traceback) instead of taking the machine's memory; a hang shows as a timeout."""

    path = tmp_path / "scenario.toml"
    if make == "fifo":
        os.mkfifo(path)
    elif make == "link to /dev/zero":
        path.symlink_to("/dev/zero")
    elif make == "directory":
        path.mkdir()
    else:
        path.write_text('name = "big"\n' + "#" * 4_000_000 + "\n", encoding="utf-8")

    done = run_capped([sys.executable, "-m", "firmware", "sim", "--headless", "--scenario", str(path)])
    assert done.returncode == 2 and done.stdout == "", done.stderr
    kind = {"fifo": "a FIFO", "link to /dev/zero": "a character device", "directory": "a directory"}
    expected = (
        f"not a regular file ({kind[make]}); expected a scenario (TOML)"
        if make in kind
        else "larger than 4000000 bytes; expected a scenario (TOML)"
    )
    assert one_line(done.stderr) == f"xtraboard sim: {path}: {expected}"


@pytest.mark.parametrize("nesting", ["array", "table"])
def test_a_board_description_nested_5000_deep_is_one_line(tmp_path, nesting):
    path = tmp_path / "board.toml"
    value = "[" * 5000 + "]" * 5000 if nesting == "array" else "{a = " * 5000 + "1" + "}" * 5000
    path.write_text(f"x = {value}\n", encoding="utf-8")
    done = subprocess_cli("sim", "--headless", "--demo", "extra", "--board", str(path))
    assert done.returncode == 2 and done.stdout == ""
    line = one_line(done.stderr)
    assert str(path) in line and "nested too deeply" in line


def test_deep_nesting_is_a_config_error_in_process_too(tmp_path):
    path = tmp_path / "board.toml"
    path.write_text(deep_toml(5000), encoding="utf-8")
    with pytest.raises(ConfigError, match="nested too deeply"):
        load_board(path)
    with pytest.raises(ScenarioError, match="nested too deeply"):
        load_scenario(path)
