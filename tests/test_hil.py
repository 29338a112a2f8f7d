"""The bench: scenarios through `xtraboard hil run` against a board in another process, the
GPIO path on MockFactory pins wired to the board's buttons, and recorded sessions replaying."""

from __future__ import annotations

import io
import re
import subprocess
import sys
from pathlib import Path

import pytest
from gpiozero.pins.mock import MockConnectedPin

from firmware.hardware.config import DisplayConfig, default_board_path, load_board
from firmware.journal import Journal
from sim.hil.command import run_scenarios
from sim.hil.driver import BenchDriver, BenchError, DebugClient, GpioButtons, VirtualButtons, parse_target
from sim.hil.record import Recorder
from sim.hil.serve import serving_in_background
from sim.scenario import load_scenario, run_scenario_file
from sim.scenario.runner import Runner

pytestmark = pytest.mark.system  # the system tier (the markers in pyproject.toml)

ROOT = Path(__file__).resolve().parent.parent
# (a scenario with a dice `secret` runs in the simulator only: `hil run` refuses it, tested below)


def panel(display: DisplayConfig) -> tuple[int, int, str]:
    return display.width, display.height, display.mode


def shows_as_the_default_board(path: Path) -> bool:
    """Whether a scenario's screens are those of the board the suite's separate board process
    runs (the default description): `hil run` drives a target with its own description, so a
    scenario written for another panel's pixels (its image checksums) cannot pass there."""
    board = load_scenario(path).board
    return board is None or panel(load_board(board).display) == panel(DEFAULT_DISPLAY)


DEFAULT_DISPLAY = load_board(default_board_path()).display
SCENARIOS = [
    p
    for p in sorted((ROOT / "tests" / "scenarios").glob("*.toml"))
    if load_scenario(p).secret is None and shows_as_the_default_board(p)
]
XTRABOARD = [sys.executable, "-m", "firmware"]
BENCH_PINS = {"roll": 20, "ok": 21, "back": 22, "left": 23, "right": 24}  # the bench controller's outputs


def expected_summary(path: Path) -> str:
    """The line `xtraboard sim --headless --scenario` prints for a passing scenario."""
    scenario = load_scenario(path)
    return f"scenario {scenario.name}: {len(scenario.steps)} steps, {scenario.expectation_count} expectations, passed"


def test_the_whole_suite_passes_through_hil_run_against_a_separate_board_process(tmp_path: Path) -> None:
    """Every scenario in one sequence against one board that keeps a journal, as a real one does:
    the settings, the menu cursor and the unfinished game one scenario leaves never reach the next
    (`hil run` sends `reset` before each); the finished games stay in the journal."""
    state = tmp_path / "state"
    board = subprocess.Popen(
        [*XTRABOARD, "sim", "--headless", "--debug-port", "0", "--state-dir", str(state)],
        cwd=ROOT,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )
    try:
        first = board.stdout.readline() if board.stdout else ""
        found = re.fullmatch(r"debug service listening on tcp 127\.0\.0\.1:(\d+)\n", first)
        assert found, f"the board said {first!r}; stderr: {board.stderr.read() if board.poll() is not None else ''}"
        run = subprocess.run(
            [
                *XTRABOARD,
                "hil",
                "run",
                "--target",
                f"127.0.0.1:{found.group(1)}",
                "--buttons",
                "virtual",
                *map(str, SCENARIOS),
            ],
            cwd=ROOT,
            capture_output=True,
            text=True,
            timeout=900,
        )
    finally:
        board.terminate()
        board.wait(timeout=30)
    assert run.returncode == 0, run.stdout + run.stderr
    assert run.stdout.splitlines() == [expected_summary(path) for path in SCENARIOS]
    assert board.returncode == 0  # SIGTERM stops the board cleanly
    journal = Journal(state, read_only=True)
    assert len(journal.finished()) >= 5  # the games the scenarios played to their end
    journal.close()


def test_hil_run_refuses_a_scenario_that_sets_the_dice_secret(capsys: pytest.CaptureFixture[str]) -> None:
    """A board never takes its dice secret from outside: `secret` is the simulator's only, and
    the file is refused before the bench connects to anything."""
    sealed = ROOT / "tests" / "scenarios" / "seal_page.toml"
    assert load_scenario(sealed).secret is not None
    assert run_scenarios("127.0.0.1:9", [sealed]) == 2
    assert "key 'secret': the board's dice secret is never set from outside" in capsys.readouterr().err


def test_a_failing_scenario_prints_the_same_lines_as_the_simulator(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    wrong = tmp_path / "wrong.toml"
    wrong.write_text(
        'name = "wrong"\ndescription = "a wrong expectation"\n\n[[step]]\ntap = "right"\n\n'
        '[[step]]\nexpect = [{ menu = "Play LEVEL X" }, { text = "nowhere" }]\n',
        encoding="utf-8",
    )
    assert run_scenario_file(wrong) == 1
    simulator = capsys.readouterr().out
    out = io.StringIO()
    with serving_in_background() as (_, service):
        assert run_scenarios(f"127.0.0.1:{service.port}", [wrong], buttons="virtual", out=out) == 1
    assert out.getvalue() == simulator
    assert simulator.splitlines()[-1] == "scenario wrong: 2 steps, 2 expectations, failed"


def test_bench_gpio_outputs_wired_to_the_board_buttons_run_a_scenario() -> None:
    out = io.StringIO()
    with serving_in_background() as (served, service):
        factory = served.sim.hardware.pin_factory
        for name, bench_pin in BENCH_PINS.items():  # a wire from each bench output to a button's pin
            factory.pin(bench_pin, pin_class=MockConnectedPin, input_pin=served.sim.pins[name])
        pins = ",".join(f"{name}={pin}" for name, pin in BENCH_PINS.items())
        result = run_scenarios(
            f"127.0.0.1:{service.port}",
            [ROOT / "tests/scenarios/menu.toml"],
            buttons="gpio",
            pins=pins,
            active_high=False,
            pin_factory=factory,
            out=out,
        )
        edges = [e for e in served.target.events if e["kind"] == "edge"]
    assert result == 0, out.getvalue()
    assert out.getvalue().splitlines() == [expected_summary(ROOT / "tests/scenarios/menu.toml")]
    assert edges  # the presses reached the board through its pins, not through the service


def test_gpio_buttons_need_a_pin_for_every_button(capsys: pytest.CaptureFixture[str]) -> None:
    with serving_in_background() as (served, service):
        code = run_scenarios(
            f"127.0.0.1:{service.port}",
            [ROOT / "tests/scenarios/menu.toml"],
            buttons="gpio",
            pins="roll=20",
            pin_factory=served.sim.hardware.pin_factory,
        )
    assert code == 2
    assert capsys.readouterr().err == (
        "xtraboard hil: --pins names no bench pin for ok, back, left, right "
        "(e.g. --pins roll=17,ok=27,back=22,left=23,right=24)\n"
    )


def test_a_recorded_session_replays_to_the_same_checkpoints(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    with serving_in_background() as (_, service):
        target = f"127.0.0.1:{service.port}"
        recorder = Recorder(DebugClient.connect(target), name="recorded_solo", target=target)
        recorder.start(seed=7)
        player = DebugClient.connect(target)  # someone at the board: EXTRA! solo, a few rolls
        runner = Runner(BenchDriver(player, VirtualButtons(player)))
        for button in ("right", "right", "ok", "ok", "ok", "roll", "left", "ok", "roll", "ok", "back"):
            runner.tap(button)
            runner.settle()
            recorder.poll()
        runner.driver.press("ok")
        runner.driver.wait(1.5)  # a hold
        runner.driver.release("ok")
        runner.settle()
        recorder.poll()
        player.close()
        recorder.client.close()
        out = tmp_path / "recorded.toml"
        out.write_text(recorder.scenario_text(), encoding="utf-8")
        scenario = load_scenario(out)
        assert scenario.scripted_dice and any(step.action == "dice" for step in scenario.steps)
        checks = [step for step in scenario.steps if step.action == "expect"]
        assert len(checks) >= 10 and scenario.expectation_count > 40
        assert any(e.kind == "image_sha" for step in checks for e in step.expectations)
        assert any(e.kind == "led" for step in checks for e in step.expectations)
        bench = io.StringIO()
        assert run_scenarios(target, [out], buttons="virtual", out=bench) == 0, bench.getvalue()
    assert run_scenario_file(out) == 0, capsys.readouterr().out  # on the simulator, in-process
    summary = f"scenario recorded_solo: {len(scenario.steps)} steps, {scenario.expectation_count} expectations, passed"
    assert capsys.readouterr().out.splitlines() == [summary]
    assert bench.getvalue().splitlines() == [summary]


def test_virtual_buttons_need_a_simulated_board() -> None:
    with serving_in_background() as (_, service):
        client = DebugClient.connect(f"127.0.0.1:{service.port}")
        client.hello["simulated"] = False  # as a real board greets
        with pytest.raises(BenchError, match="virtual buttons need a simulated board"):
            VirtualButtons(client)
        client.close()


def test_gpio_buttons_drive_any_pin_factory_output() -> None:
    from gpiozero.pins.mock import MockFactory

    factory = MockFactory()
    buttons = GpioButtons({"ok": 17}, pin_factory=factory)
    pin = factory.pin(17)
    assert pin.state == 0
    buttons.press("ok")
    assert pin.state == 1
    buttons.release("ok")
    assert pin.state == 0
    with pytest.raises(BenchError, match="no bench output wired to button 'roll'; wired: ok"):
        buttons.press("roll")
    buttons.close()


@pytest.mark.parametrize("text", ["7777", "host:", ":80", "host:99999", "unix:"])
def test_a_bad_target_is_one_line(text: str) -> None:
    with pytest.raises(BenchError, match=r"expected HOST:PORT \(e\.g\. 127\.0\.0\.1:7777\) or unix:PATH"):
        parse_target(text)


def test_an_unreachable_board_is_reported(tmp_path: Path) -> None:
    run = subprocess.run(
        [
            *XTRABOARD,
            "hil",
            "run",
            "--wait",
            "0",
            "--target",
            f"unix:{tmp_path / 'nobody.sock'}",
            str(ROOT / "tests/scenarios/menu.toml"),
        ],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert run.returncode == 2
    assert run.stderr.startswith("xtraboard hil: cannot reach the board's debug service at unix:")
    assert run.stderr.count("\n") == 1


def test_a_real_board_is_restarted_between_scenarios_by_a_command(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    marker = tmp_path / "restarts"
    paths = [ROOT / "tests/scenarios/menu.toml", ROOT / "tests/scenarios/mash_menus.toml"]
    out = io.StringIO()
    with serving_in_background() as (_, service):
        target = f"127.0.0.1:{service.port}"
        assert run_scenarios(target, paths, buttons="virtual", out=out, between=f"echo cut >> {marker}") == 0
        assert marker.read_text() == "cut\n"  # before the second scenario only
        assert out.getvalue().splitlines() == [expected_summary(path) for path in paths]
        assert run_scenarios(target, paths, buttons="virtual", out=io.StringIO(), between="exit 3") == 2
    assert capsys.readouterr().err.endswith("xtraboard hil: --between 'exit 3' failed with exit code 3\n")


def test_hil_record_writes_a_scenario_that_replays(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    from sim.hil.record import record_session

    out = tmp_path / "idle.toml"
    with serving_in_background() as (_, service):
        assert record_session(f"127.0.0.1:{service.port}", out, seconds=0.2) == 0
    assert capsys.readouterr().out == f"recorded 0 button edges and 1 checkpoints into {out}\n"
    assert run_scenario_file(out) == 0
    assert capsys.readouterr().out.startswith("scenario idle: 2 steps, ")


def test_kiosk_mode_can_be_tried_on_a_served_board_and_in_a_demo(tmp_path: Path) -> None:
    """`sim --headless --debug-port` and `sim --demo` honour --kiosk, as `xtraboard run --kiosk` does: the
    guests' settings are locked and the saved game comes back by itself."""
    state = tmp_path / "state"
    demo = subprocess.run(
        [*XTRABOARD, "sim", "--headless", "--demo", "extra", "--seed", "3", "--kiosk", "--state-dir", str(state)],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=300,
    )
    assert demo.returncode == 0 and '"kiosk": true' in demo.stdout, demo.stdout + demo.stderr
    board = subprocess.Popen(
        [*XTRABOARD, "sim", "--headless", "--debug-port", "0", "--kiosk", "--state-dir", str(state)],
        cwd=ROOT,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )
    try:
        first = board.stdout.readline() if board.stdout else ""
        found = re.fullmatch(r"debug service listening on tcp 127\.0\.0\.1:(\d+)\n", first)
        assert found, first
        client = DebugClient.connect(f"127.0.0.1:{found.group(1)}")
        try:
            for line in ("press left", "wait 0.1", "release left", "wait 0.1"):  # the menu wraps to Settings
                assert client.ask(line)["ok"], line
            assert client.ask("state menu")["value"] == "Settings"
            text = client.ask("text")["text"]
            assert any("Settings" in line and "locked" in line for line in text), text
        finally:
            client.close()
    finally:
        board.terminate()
        board.wait(timeout=30)
