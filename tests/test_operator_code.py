"""The operator's code cannot be found one press at a time (issue 24): the board answers every
press the same way until a whole code's length has been typed; five wrong codes lock code entry
for 15 minutes, then twice as long each time, counted in the audits and logged; the code is kept
as a salted scrypt hash in a file of its own, written by `xtraboard operator set-code`; and
code entry is always reachable (OK + BACK held on the main menu, OK held at power-up), whatever
the idle time is set to. All through button presses on a SimBoard with the fake clock."""

from __future__ import annotations

import logging
import os
import stat
import subprocess
import sys
from pathlib import Path

import pytest

from tests.support import run_capped
from firmware.ui.operator_menu import CODE_GAP_S, ENTRY_HOLD_S, ENTRY_IDLE_S
from firmware.cli import main
from firmware.hardware.config import default_board_path
from firmware.journal import Journal
from firmware.operator_code import FIRST_LOCK_S, WRONG_BEFORE_LOCK, StoredCode, read_code_file, write_code_file
from firmware.ui.menus import MainMenu
from firmware.ui.operator_menu import CodeEntryScreen, OperatorMenu, audit_text
from sim.board import SimBoard

ROOT = Path(__file__).resolve().parents[1]
CODE = ("left", "left", "right", "ok", "roll")
WRONG = ("right", "right", "left", "ok", "roll")
BUTTONS = ("roll", "ok", "back", "left", "right")


def cafe_board(tmp_path: Path, code: tuple[str, ...] = CODE) -> SimBoard:
    folder = tmp_path / "etc"
    folder.mkdir(exist_ok=True)
    board = folder / "board.toml"
    board.write_text(default_board_path().read_text(encoding="utf-8"), encoding="utf-8")
    if not (folder / "operator-code").exists():
        write_code_file(folder / "operator-code", StoredCode.make(code))
    return SimBoard(board_file=board, state_dir=tmp_path / "state", kiosk=True, seed=1)


def idle(board: SimBoard) -> None:
    board.wait(board.app.settings.idle_timeout_s + 1)
    assert board.board.attract_phase is not None


def type_code(board: SimBoard, code: tuple[str, ...]) -> None:
    for button in code:
        board.tap(button)


def response(board: SimBoard) -> tuple[object, ...]:
    """Everything a person at the table can see of the board's answer to a press."""
    return (
        board.board.attract_phase is not None,
        type(board.app.screen).__name__,
        board.app.note,
        tuple(board.screen_text()),
        board.app.help.cue,
    )


def in_menu(board: SimBoard) -> bool:
    return any(isinstance(screen, OperatorMenu) for screen in board.app.stack)


def code_entry(board: SimBoard) -> None:
    """OK + BACK held for 10 s on the main menu (woken first if the idle show runs: a press, then
    the pause that wakes it, counting nothing)."""
    if board.board.attract_phase is not None:
        board.tap("roll")
        board.wait(CODE_GAP_S + 0.1)
    board.press("back")
    board.press("ok")
    board.wait(ENTRY_HOLD_S + 0.1)
    board.release("ok")
    board.release("back")
    board.wait(0.1)


# --- no press tells anything before the whole code ---------------------------------------------------


def test_brute_force_one_press_at_a_time_learns_nothing(tmp_path: Path) -> None:
    """The attack of the finding: try each button in each position and watch whether the show goes
    on. Every press before the code's length now gets exactly the same answer."""
    board = cafe_board(tmp_path)
    try:
        for known in range(len(CODE) - 1):  # with the first `known` presses right, try each next one
            answers = set()
            for button in BUTTONS:
                idle(board)
                type_code(board, CODE[:known])
                board.tap(button)
                answers.add(response(board))
                board.wait(5.1)  # the pause wakes the board and counts nothing
                assert board.board.attract_phase is None
            assert len(answers) == 1, f"position {known + 1}: the board told the buttons apart: {answers}"
            assert next(iter(answers))[0] is True  # the show went on for every one of them
        assert board.board.gate.failures == 0 and not in_menu(board)
    finally:
        board.close()


def test_on_the_code_entry_screen_every_press_looks_the_same(tmp_path: Path) -> None:
    board = cafe_board(tmp_path)
    try:
        seen = []
        for button in BUTTONS:
            code_entry(board)
            assert isinstance(board.app.screen, CodeEntryScreen)
            board.tap(button)
            seen.append(tuple(board.screen_text()))
            board.wait(ENTRY_IDLE_S + 1)  # nothing more typed: it closes, counting nothing
            assert isinstance(board.app.screen, MainMenu)
        assert len(set(seen)) == 1 and "*____" in " ".join(seen[0])
        assert board.board.gate.failures == 0
        code_entry(board)
        type_code(board, WRONG)
        assert isinstance(board.app.screen, MainMenu) and board.app.note == "Wrong code"
        code_entry(board)
        type_code(board, CODE)
        assert isinstance(board.app.screen, OperatorMenu)
    finally:
        board.close()


# --- five wrong codes lock code entry, twice as long each time ---------------------------------------


def test_five_wrong_codes_lock_code_entry_for_15_minutes_then_30(
    tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    caplog.set_level(logging.INFO, logger="xtraboard.operator")
    board = cafe_board(tmp_path)
    try:
        for _ in range(WRONG_BEFORE_LOCK):  # through the idle show: each wrong code only wakes the board
            idle(board)
            type_code(board, WRONG)
            assert board.board.attract_phase is None and not in_menu(board)
        assert FIRST_LOCK_S == 15 * 60
        code_entry(board)  # the gesture opens nothing, and says why
        assert not isinstance(board.app.screen, CodeEntryScreen) and board.app.note == "Code entry locked: 15 min"
        idle(board)
        type_code(board, CODE)  # the right code, locked: not even checked
        assert not in_menu(board) and board.app.note == "Code entry locked: 10 min"
        board.wait(board.board.gate.locked_for(board.clock()) - 30)
        code_entry(board)
        assert not isinstance(board.app.screen, CodeEntryScreen)
        board.wait(31)
        for _ in range(WRONG_BEFORE_LOCK):  # open again; five more wrong codes lock it for twice as long
            code_entry(board)
            type_code(board, WRONG)
        code_entry(board)
        assert board.app.note == "Code entry locked: 30 min"
        board.wait(FIRST_LOCK_S + 1)
        code_entry(board)
        assert not isinstance(board.app.screen, CodeEntryScreen)  # still locked after 15 minutes
        board.wait(FIRST_LOCK_S)
        code_entry(board)
        type_code(board, CODE)
        assert isinstance(board.app.screen, OperatorMenu)
        lines = audit_text(board.app).splitlines()
        assert "Operator code: 10 wrong, 2 locks" in lines
    finally:
        board.close()
    logged = [r.getMessage() for r in caplog.records if r.name == "xtraboard.operator"]
    assert sum(m.startswith("wrong operator code") for m in logged) == 10
    assert [m for m in logged if "locked for" in m] == [
        "operator code entry locked for 15 minutes after 5 wrong codes (lock 1)",
        "operator code entry locked for 30 minutes after 5 wrong codes (lock 2)",
    ]


def test_a_lock_outlives_a_power_cut_and_the_counts_are_in_the_records_audit(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    board = cafe_board(tmp_path)
    try:
        for _ in range(WRONG_BEFORE_LOCK):
            code_entry(board)
            type_code(board, WRONG)
        board.power_cycle()  # the plug pulled to get round the lock
        code_entry(board)
        assert not isinstance(board.app.screen, CodeEntryScreen) and board.app.note.startswith("Code entry locked")
    finally:
        board.close()
    assert main(["records", "audit", "--state-dir", str(tmp_path / "state")]) == 0
    assert "Operator code: 5 wrong, 1 locks" in capsys.readouterr().out.splitlines()


# --- always a way in ------------------------------------------------------------------------------


def test_idle_show_never_does_not_lock_the_operator_out(tmp_path: Path) -> None:
    journal = Journal(tmp_path / "state")
    journal.set_setting("idle_timeout_s", 0)  # Settings → Idle show → "never", kept
    journal.close()
    board = cafe_board(tmp_path)
    try:
        assert board.app.settings.idle_timeout_s == 0
        board.wait(3600)
        assert board.board.attract_phase is None  # no idle show, ever
        board.press("back")
        board.press("ok")
        board.wait(ENTRY_HOLD_S - 1)  # not yet: 10 s it is
        assert isinstance(board.app.screen, MainMenu)
        board.wait(1.1)
        assert isinstance(board.app.screen, CodeEntryScreen)
        board.release("ok")
        board.release("back")
        board.wait(0.1)
        assert isinstance(board.app.screen, CodeEntryScreen) and board.board.entry.typed == 0  # releases are no presses
        type_code(board, CODE)
        assert isinstance(board.app.screen, OperatorMenu)
    finally:
        board.close()


def test_ok_held_at_power_up_opens_code_entry(tmp_path: Path) -> None:
    board = cafe_board(tmp_path)
    try:
        board.press("ok")
        board.power_cycle()
        assert isinstance(board.app.screen, CodeEntryScreen)
        board.release("ok")
        board.wait(0.1)
        type_code(board, CODE)
        assert isinstance(board.app.screen, OperatorMenu)
        board.power_cycle()  # nothing held: the main menu
        assert isinstance(board.app.screen, MainMenu)
    finally:
        board.close()


def test_ok_and_back_let_go_early_or_in_a_game_do_nothing_special(tmp_path: Path) -> None:
    board = cafe_board(tmp_path)
    try:
        board.press("back")
        board.press("ok")
        board.wait(ENTRY_HOLD_S / 2)
        board.release("ok")
        board.wait(ENTRY_HOLD_S)
        board.release("back")
        board.wait(0.1)
        assert isinstance(board.app.screen, MainMenu) and not board.app.busy
    finally:
        board.close()


# --- the code file and `xtraboard operator set-code` ---------------------------------------------------


def set_code(*args: str, stdin: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "firmware", "operator", "set-code", *args],
        cwd=ROOT,
        input=stdin,
        capture_output=True,
        text=True,
        timeout=60,
    )


def test_set_code_keeps_a_salted_hash_the_board_reads(tmp_path: Path) -> None:
    folder = tmp_path / "etc"
    folder.mkdir()
    board_toml = folder / "board.toml"
    board_toml.write_text(default_board_path().read_text(encoding="utf-8"), encoding="utf-8")
    done = set_code("--board", str(board_toml), stdin="left, left right OK roll\n")
    assert done.returncode == 0, done.stderr
    path = folder / "operator-code"
    assert done.stdout.strip() == f"operator code set (5 presses) in {path}; restart the board to use it"
    assert stat.S_IMODE(os.stat(path).st_mode) == 0o640
    text = path.read_text(encoding="ascii")
    assert text.startswith("scrypt n=16384 r=8 p=1 length=5 salt=") and "left" not in text
    stored = read_code_file(path)
    assert stored is not None and stored.matches(CODE) and not stored.matches(WRONG)
    again = set_code("--board", str(board_toml), stdin="left left right ok roll\n")
    assert read_code_file(path).salt != stored.salt  # salted: the same code never hashes the same
    assert again.returncode == 0
    board = cafe_board(tmp_path)
    try:
        code_entry(board)
        type_code(board, CODE)
        assert isinstance(board.app.screen, OperatorMenu)
    finally:
        board.close()


@pytest.mark.parametrize(
    "typed, problem",
    [
        ("left up right ok", "'up' is not a button"),
        ("left right ok", "3 presses; a code is 4 to 16 presses"),
        ("ok ok ok ok", "one button pressed over and over is too easy to hit"),
        ("", "0 presses"),
    ],
)
def test_set_code_refuses_a_bad_code_in_one_line(tmp_path: Path, typed: str, problem: str) -> None:
    done = set_code("--file", str(tmp_path / "code"), stdin=typed + "\n")
    assert done.returncode == 1 and done.stdout == ""
    assert done.stderr.startswith("xtraboard operator set-code: ") and problem in done.stderr
    assert len(done.stderr.splitlines()) == 1 and not (tmp_path / "code").exists()


def test_a_damaged_code_file_leaves_operator_mode_off_with_a_log_line(
    tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    folder = tmp_path / "etc"
    folder.mkdir()
    (folder / "operator-code").write_text('code = ["left", "left", "right", "ok"]\n', encoding="ascii")
    board = cafe_board(tmp_path)
    try:
        assert board.board.gate is None
        assert any(
            "operator mode is off" in r.getMessage() and "xtraboard operator set-code" in r.getMessage()
            for r in caplog.records
        )
    finally:
        board.close()


# --- no reset lifts the lockout or empties its audit line ----------------------------------------------


def lock_out(board: SimBoard) -> None:
    for _ in range(WRONG_BEFORE_LOCK):
        code_entry(board)
        type_code(board, WRONG)
    code_entry(board)
    assert not isinstance(board.app.screen, CodeEntryScreen) and board.app.note == "Code entry locked: 15 min"


def test_clearing_the_journals_settings_keeps_the_lockout_across_a_restart(tmp_path: Path) -> None:
    """`Journal.clear_settings`, under every reset (the operator menu's, the debug service's): the
    guests' and the operator's settings go, the gate's wrong codes and its lock in force stay."""
    board = cafe_board(tmp_path)
    try:
        lock_out(board)
    finally:
        board.close()
    journal = Journal(tmp_path / "state")
    journal.set_setting("bot_pace", "slow")
    journal.clear_settings()
    assert journal.get_setting("bot_pace") is None
    journal.close()
    board = cafe_board(tmp_path)  # the board started again on that journal
    try:
        code_entry(board)
        assert not isinstance(board.app.screen, CodeEntryScreen) and board.app.note == "Code entry locked: 15 min"
        assert board.board.gate is not None and (board.board.gate.failures, board.board.gate.locks) == (5, 1)
    finally:
        board.close()


def test_the_operator_menus_resets_and_clears_keep_the_wrong_code_counts_across_a_power_cut(tmp_path: Path) -> None:
    from sim.app import choose

    board = cafe_board(tmp_path)
    try:
        lock_out(board)
        board.wait(FIRST_LOCK_S + 1)
        code_entry(board)
        type_code(board, CODE)
        assert isinstance(board.app.screen, OperatorMenu)
        for entry, answers in (("Reset settings", 1), ("Clear high scores", 1), ("Clear records", 2)):
            choose(board, entry)
            for _ in range(answers):
                choose(board, "Yes")
            assert isinstance(board.app.screen, OperatorMenu), entry
        board.power_cycle()
        assert "Operator code: 5 wrong, 1 locks" in audit_text(board.app).splitlines()
        for _ in range(WRONG_BEFORE_LOCK - 1):  # the count goes on from there: four more, then the fifth locks
            code_entry(board)
            type_code(board, WRONG)
        code_entry(board)
        type_code(board, WRONG)
        code_entry(board)
        assert board.app.note == "Code entry locked: 15 min"  # (the right code ended the doubling)
        assert "Operator code: 10 wrong, 2 locks" in audit_text(board.app).splitlines()
    finally:
        board.close()


# --- set-code writes only its own file, never through a planted link ------------------------------------


def test_set_code_refuses_a_folder_others_can_write_and_leaves_a_planted_links_target_alone(
    tmp_path: Path,
) -> None:
    """The attack: with the target in a folder any user can write, plant `.operator-code.new` as
    a symbolic link to a file of root's; `set-code --file` run as root used to truncate, fill and
    chmod that file. Now it refuses the folder, naming it, and touches nothing."""
    assert os.geteuid() == 0, "the attack is on root's files: these tests run as root"
    victim = tmp_path / "shadow"
    victim.write_text("root:secret:19000::::::\n", encoding="ascii")
    os.chmod(victim, 0o600)
    shared = tmp_path / "shared"
    shared.mkdir()
    os.chmod(shared, 0o777)
    (shared / ".operator-code.new").symlink_to(victim)
    done = set_code("--file", str(shared / "operator-code"), stdin="left left right ok roll\n")
    assert victim.read_text(encoding="ascii") == "root:secret:19000::::::\n"
    assert stat.S_IMODE(os.stat(victim).st_mode) == 0o600
    assert done.returncode == 1 and done.stdout == "" and len(done.stderr.splitlines()) == 1, done.stderr
    assert done.stderr.startswith(
        f"xtraboard operator set-code: {shared} can be written by other users (mode 0777): "
    ), done.stderr
    assert "chmod go-w" in done.stderr and sorted(p.name for p in shared.iterdir()) == [".operator-code.new"]
    os.chmod(shared, 0o1777)  # sticky, as /tmp: still others can plant names in it
    again = set_code("--file", str(shared / "operator-code"), stdin="left left right ok roll\n")
    assert again.returncode == 1 and "can be written by other users (mode 1777)" in again.stderr
    assert victim.read_text(encoding="ascii") == "root:secret:19000::::::\n"


def test_set_code_in_a_safe_folder_ignores_a_link_at_the_old_temporary_name(tmp_path: Path) -> None:
    victim = tmp_path / "victim"
    victim.write_text("keep me\n", encoding="ascii")
    os.chmod(victim, 0o600)
    folder = tmp_path / "etc"
    folder.mkdir(mode=0o755)
    os.chmod(folder, 0o755)
    (folder / ".operator-code.new").symlink_to(victim)
    done = set_code("--file", str(folder / "operator-code"), stdin="left left right ok roll\n")
    assert done.returncode == 0, done.stderr
    assert victim.read_text(encoding="ascii") == "keep me\n" and stat.S_IMODE(os.stat(victim).st_mode) == 0o600
    stored = read_code_file(folder / "operator-code")
    assert stored is not None and stored.matches(CODE)
    assert not (folder / "operator-code").is_symlink()
    assert stat.S_IMODE(os.stat(folder / "operator-code").st_mode) == 0o640
    assert sorted(p.name for p in folder.iterdir()) == [".operator-code.new", "operator-code"]  # no temporary left


def test_set_code_does_not_write_through_a_target_that_is_a_symbolic_link(tmp_path: Path) -> None:
    victim = tmp_path / "victim"
    victim.write_text("keep me\n", encoding="ascii")
    folder = tmp_path / "etc"
    folder.mkdir()
    (folder / "operator-code").symlink_to(victim)
    done = set_code("--file", str(folder / "operator-code"), stdin="left left right ok roll\n")
    assert done.returncode == 1 and len(done.stderr.splitlines()) == 1
    assert done.stderr == (
        f"xtraboard operator set-code: {folder / 'operator-code'} is a symbolic link; nothing was written. "
        "Remove it, or give the path of the file itself\n"
    )
    assert victim.read_text(encoding="ascii") == "keep me\n" and (folder / "operator-code").is_symlink()
    assert sorted(p.name for p in folder.iterdir()) == ["operator-code"]


def test_a_secret_is_not_written_into_a_folder_of_another_user(tmp_path: Path) -> None:
    from firmware.paths import UnsafePlace, write_secret

    folder = tmp_path / "theirs"
    folder.mkdir()
    os.chmod(folder, 0o755)
    os.chown(folder, 4242, 4242)  # owner-writable only, but by someone who could swap the file
    with pytest.raises(UnsafePlace, match=r"belongs to another user \(uid 4242\), who could redirect or swap"):
        write_secret(folder / "operator-code", b"secret\n")
    assert list(folder.iterdir()) == []
    os.chown(folder, 0, 0)
    write_secret(folder / "operator-code", b"secret\n", mode=0o640)
    assert (folder / "operator-code").read_bytes() == b"secret\n"
    assert stat.S_IMODE(os.stat(folder / "operator-code").st_mode) == 0o640


# --- the code, and its file, read with bounds ------------------------------------------------------------


def test_set_code_from_a_standard_input_without_line_ends_is_one_line(tmp_path: Path) -> None:
    """`set-code < /dev/zero` used to read its one line until memory ran out (a traceback)."""
    folder = tmp_path / "etc"
    folder.mkdir(mode=0o755)
    with open("/dev/zero", "rb") as zeros:
        done = run_capped(
            [sys.executable, "-m", "firmware", "operator", "set-code", "--file", str(folder / "operator-code")],
            stdin=zeros,
        )
    assert (done.returncode, done.stdout) == (1, ""), done.stderr
    assert done.stderr == (
        "xtraboard operator set-code: standard input: a line longer than 1000 characters;"
        " expected the code's button names\n"
    )
    assert list(folder.iterdir()) == []


@pytest.mark.parametrize("make", ["fifo", "link to /dev/zero"])
def test_a_code_file_that_is_not_a_regular_file_leaves_operator_mode_off_and_the_board_plays(
    tmp_path: Path, make: str
) -> None:
    """A code file beside the description that is a FIFO used to block the board's start for ever,
    one that is /dev/zero to end it with a MemoryError; now operator mode is off, saying why."""
    board_file = tmp_path / "board.toml"
    board_file.write_text(default_board_path().read_text(encoding="utf-8"), encoding="utf-8")
    code_file = tmp_path / "operator-code"
    if make == "fifo":
        os.mkfifo(code_file)
    else:
        code_file.symlink_to("/dev/zero")
    done = run_capped(
        [sys.executable, "-m", "firmware", "sim", "--headless", "--demo", "extra", "--board", str(board_file)]
        + ["--state-dir", str(tmp_path / "state")],
        timeout=300,
    )
    kind = "a FIFO" if make == "fifo" else "a character device"
    assert done.returncode == 0, done.stderr
    assert f"operator mode is off: {code_file}: not a regular file ({kind}); expected the operator code file" in (
        done.stderr
    )
    assert '"game": "extra"' in done.stdout  # the demo was played to its end


@pytest.mark.parametrize("shared_mode", [0o1777, 0o777])
def test_set_code_refuses_a_way_through_a_link_or_folder_another_user_controls(
    tmp_path: Path, shared_mode: int
) -> None:
    """The attack: in a folder any user can write (sticky as /tmp, or not), another user plants
    `etc` as a symbolic link to a safe folder of root's; `set-code --file shared/etc/operator-code`
    run as root used to replace the code file in root's folder. Now the way is refused, naming
    the part another user could change, and root's file is left as it was."""
    victim_folder = tmp_path / "boards-etc"
    victim_folder.mkdir(mode=0o755)
    os.chmod(victim_folder, 0o755)
    victim = victim_folder / "operator-code"
    victim.write_text("the real code\n", encoding="ascii")
    shared = tmp_path / "shared"
    shared.mkdir()
    os.chmod(shared, shared_mode)
    planted = shared / "etc"
    planted.symlink_to(victim_folder)
    os.chown(planted, 4242, 4242, follow_symlinks=False)
    done = set_code("--file", str(planted / "operator-code"), stdin="left left right ok roll\n")
    assert done.returncode == 1 and done.stdout == "" and len(done.stderr.splitlines()) == 1, done.stderr
    part, owner = (planted, "uid 4242, mode 0777") if shared_mode == 0o1777 else (shared, "uid 0, mode 0777")
    assert done.stderr.startswith(
        f"xtraboard operator set-code: {planted} is reached through {part} ({owner}), which another user could"
        " change to send the file elsewhere; nothing was written."
    ), done.stderr
    assert victim.read_text(encoding="ascii") == "the real code\n"
    assert sorted(p.name for p in victim_folder.iterdir()) == ["operator-code"]
    # A link of root's own, through folders only root can write, is a way like any other.
    own = tmp_path / "own"
    own.symlink_to(victim_folder)
    again = set_code("--file", str(own / "operator-code"), stdin="left left right ok roll\n")
    assert again.returncode == 0, again.stderr
    stored = read_code_file(victim)
    assert stored is not None and stored.matches(CODE)
