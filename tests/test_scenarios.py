"""The scenario suite (tests/scenarios/*.toml) through the CLI, and the scenario format's own
promises: a failed expectation names its step and line, an invalid file is refused before
anything runs with the file, step and key named, and the runner needs only the driver protocol."""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

import pytest

from firmware.cli import main
from firmware.games.exxtra.rules import Exxtra, LadderPair, Place
from firmware.games.base import Pending, Roll
from sim.board import SimBoard
from sim.scenario import (
    BoardDriver,
    ScriptedDice,
    ScenarioError,
    StateError,
    load_scenario,
    parse_path,
    plain,
    read_state,
    replay_problem,
    run_scenario,
    same,
)

SCENARIOS = Path(__file__).parent / "scenarios"
SUITE = sorted(SCENARIOS.glob("*.toml"))


def run_cli(path: Path, *extra: str) -> int:
    return main(["sim", "--headless", "--scenario", str(path), *extra])


def write(tmp_path: Path, text: str, name: str = "case.toml") -> Path:
    path = tmp_path / name
    path.write_text(text, encoding="utf-8")
    return path


HEADER = 'name = "case"\ndescription = "a test case"\n'


# --- the suite ----------------------------------------------------------------------------------


def test_the_suite_has_the_menu_every_game_and_bad_input():
    names = {p.stem for p in SUITE}
    assert {
        "menu",
        "exxtra_rulebook",
        "levelx_game",
        "extra_solo_example",
        "mash_menus",
        "mash_seats",
        "mash_play",
        "mash_levelx",
        "mash_extra",
        "mash_physical_dice",
        "mash_game_menu",
        "mash_result",
    } <= names


@pytest.mark.parametrize("path", SUITE, ids=[p.stem for p in SUITE])
def test_scenario_passes(path: Path, capsys: pytest.CaptureFixture[str]):
    assert run_cli(path) == 0
    out = capsys.readouterr().out
    scenario = load_scenario(path)
    assert out.strip().splitlines()[-1] == (
        f"scenario {scenario.name}: {len(scenario.steps)} steps, {scenario.expectation_count} expectations, passed"
    )


def test_a_scenario_runs_with_a_journal_and_saves_a_screenshot(tmp_path: Path, capsys: pytest.CaptureFixture[str]):
    shot = tmp_path / "end.png"
    assert (
        run_cli(SCENARIOS / "exxtra_rulebook.toml", "--state-dir", str(tmp_path / "state"), "--screenshot", str(shot))
        == 0
    )
    assert shot.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"
    assert capsys.readouterr().out.endswith("passed\n")


def test_the_example_in_the_docs_runs(tmp_path: Path, capsys: pytest.CaptureFixture[str]):
    docs = (Path(__file__).parents[1] / "docs" / "scenarios.md").read_text(encoding="utf-8")
    example = re.search(r"## Example\n\n```toml\n(.*?)```", docs, re.S)
    assert example is not None
    assert run_cli(write(tmp_path, example.group(1))) == 0
    assert capsys.readouterr().out == "scenario exxtra_first_roll: 8 steps, 6 expectations, passed\n"


# --- failures -------------------------------------------------------------------------------------


def test_a_wrong_expectation_fails_at_its_step_and_line(tmp_path: Path, capsys: pytest.CaptureFixture[str]):
    text = (SCENARIOS / "menu.toml").read_text(encoding="utf-8")
    line = text.splitlines().index('expect = { menu = "Records" }') + 1
    number = text[: text.index('expect = { menu = "Records" }')].count("[[step]]")
    path = write(tmp_path, text.replace('expect = { menu = "Records" }', 'expect = { menu = "Recordz" }'))
    assert run_cli(path) == 1
    out = capsys.readouterr().out.splitlines()
    assert out[0] == f'FAIL step {number} (line {line}): expected menu option "Recordz" under the cursor, got "Records"'
    assert re.fullmatch(rf"scenario menu: {number} steps, \d+ expectations, failed", out[1])


@pytest.mark.parametrize(
    "expectation, message",
    [
        ('{ led = "track.0", colour = "green" }', "expected led track.0 showing (60, 95, 50), got (0, 0, 0)"),
        ('{ text = "press ROLL" }', 'expected text "press ROLL" on the display, got "xtraboard" | "1/7"'),
        ('{ image_sha = "0000000000000000" }', "expected image_sha 0000000000000000, got 7f31b78130b2dde2"),
        (
            '{ state = "positions[1]", equals = 3 }',
            "expected state positions[1] == 3, got game is nothing (no game on the board)",
        ),
        ('{ state = "screen", equals = "PlayScreen" }', 'expected state screen == "PlayScreen", got "MainMenu"'),
        ('{ state = "over", equals = 0 }', "expected state over == 0, got false"),
        ('{ state = "menu", none = true }', 'expected state menu == none, got "Play EXXTRA"'),
        ("{ replays = true }", "expected the game's record to replay to the same game, got no game on the board"),
    ],
)
def test_each_kind_of_expectation_says_what_it_expected_and_got(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], expectation: str, message: str
):
    path = write(tmp_path, HEADER + f"[[step]]\nwait = 0.5\n[[step]]\nexpect = {expectation}\n")
    assert run_cli(path) == 1
    first = capsys.readouterr().out.splitlines()[0]
    assert first.startswith(f"FAIL step 2 (line 6): {message}")


def test_the_board_raising_is_a_failure_of_that_step(tmp_path: Path, capsys: pytest.CaptureFixture[str]):
    steps = "".join(f'[[step]]\ntap = "{b}"\n' for b in ["ok", "ok", "ok", "ok", "ok", "roll"])
    path = write(tmp_path, HEADER + 'dice = "scripted"\n' + steps)
    assert run_cli(path) == 1
    out = capsys.readouterr().out.splitlines()
    assert out[0] == (
        "FAIL step 6 (line 15): tap made the board raise LookupError: the scenario's scripted dice "
        "have no roll left; add a dice step before this roll"
    )
    assert out[1] == "scenario case: 6 steps, 0 expectations, failed"


def test_a_scripted_roll_that_does_not_fit_the_dice_fails(tmp_path: Path, capsys: pytest.CaptureFixture[str]):
    steps = "".join(f'[[step]]\ntap = "{b}"\n' for b in ["ok", "ok", "ok", "ok", "ok"])
    path = write(
        tmp_path, HEADER + 'dice = "scripted"\n' + steps + '[[step]]\ndice = [[5, 1]]\n[[step]]\ntap = "roll"\n'
    )
    assert run_cli(path) == 1
    assert "ValueError: scripted roll [5, 1] does not fit the dice asked for" in capsys.readouterr().out


# --- invalid files: refused before anything runs, exit 2 ------------------------------------------


@pytest.mark.parametrize(
    "body, message",
    [
        ('[[step]]\npres = "ok"\n', "step 1 (line 4): key 'pres': unknown key; a step is one of press, release, tap"),
        (
            '[[step]]\ntap = "ok"\n[[step]]\ntap = "okay"\n',
            "step 2 (line 6): key 'tap': unknown button 'okay'; the board has roll, ok, back, left, right",
        ),
        (
            "[[step]]\ntap = 3\n",
            "step 1 (line 4): key 'tap': expected a button name (roll, ok, back, left, right), got 3",
        ),
        ('[[step]]\ntap = "ok"\nhold = "back"\n', "step 1 (line 5): key 'hold': a step does one thing"),
        ('[[step]]\npress = "ok"\ntimes = 2\n', "step 1 (line 5): key 'times': not allowed with 'press'"),
        (
            '[[step]]\ntap = "ok"\ntimes = 0\n',
            "step 1 (line 5): key 'times': expected a whole number from 1 to 1000, got 0",
        ),
        ('[[step]]\nwait = "1s"\n', "step 1 (line 4): key 'wait': expected seconds from 0 to 3600, got \"1s\""),
        ("[[step]]\nsettle = false\n", "step 1 (line 4): key 'settle': expected true"),
        (
            '[[step]]\nexpect = { led = "track.22", colour = [0, 0, 0] }\n',
            "step 1 (line 4): key 'expect.led': unknown LED cell \"track.22\"",
        ),
        ('[[step]]\nexpect = { led = "track.2" }\n', "key 'expect.colour': an led expectation needs colour"),
        (
            '[[step]]\nexpect = { led = "track.2", colour = [0, 0, 256] }\n',
            "key 'expect.colour': expected [r, g, b] with 0-255 each, or a colour name, got [0, 0, 256]",
        ),
        ('[[step]]\nexpect = { led = "track.2", colour = "pink" }\n', "key 'expect.colour': unknown colour 'pink'"),
        ('[[step]]\nexpect = { txt = "x" }\n', "key 'expect.txt': unknown key; an expectation is one of led, text"),
        ('[[step]]\nexpect = { text = "x", menu = "y" }\n', "key 'expect': an expectation names exactly one of"),
        (
            '[[step]]\nexpect = { state = "positions[1" }\n',
            "key 'expect.state': state path 'positions[1': cannot read '[1'",
        ),
        (
            '[[step]]\nexpect = { state = "game._positions", equals = 1 }\n',
            "key 'expect.state': state path 'game._positions': '_positions' is private",
        ),
        ('[[step]]\nexpect = { state = "over" }\n', "key 'expect.state': a state expectation needs either equals"),
        ('[[step]]\nexpect = { image_sha = "xyz" }\n', "key 'expect.image_sha': expected 16 lower-case hex digits"),
        ('[[step]]\nexpect = { text = "x", colour = "red" }\n', "key 'expect.colour': not allowed with 'text'"),
        (
            "[[step]]\ndice = [[1, 2]]\n",
            "step 1 (line 4): key 'dice': dice steps need dice = \"scripted\" in the header",
        ),
        ('[[step]]\nmash = 10\nbuttons = ["ok", "shake"]\n', "key 'buttons': unknown button 'shake'"),
        ("[[step]]\n", "step 1 (line 3): key '?': a step needs one of press, release"),
    ],
)
def test_an_invalid_step_is_refused_naming_file_step_and_key(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], body: str, message: str
):
    path = write(tmp_path, HEADER + body)
    assert run_cli(path) == 2
    captured = capsys.readouterr()
    assert captured.out == ""  # nothing ran
    assert captured.err.startswith(f"xtraboard sim: {path}: ")
    assert message in captured.err


@pytest.mark.parametrize(
    "text, message",
    [
        ('name = "x"\n[[step]]\ntap = "ok"\n', "key 'description': expected a non-empty string, got nothing"),
        (HEADER + 'sed = 1\n[[step]]\ntap = "ok"\n', "key 'sed': unknown header key; expected name, description, seed"),
        (HEADER + 'dice = "loaded"\n[[step]]\ntap = "ok"\n', "key 'dice': the only dice mode to name is \"scripted\""),
        (HEADER + 'seed = 1.5\n[[step]]\ntap = "ok"\n', "key 'seed': expected a whole number or a string, got 1.5"),
        (HEADER + 'secret = 7\n[[step]]\ntap = "ok"\n', "key 'secret': expected the dice's secret as text, got 7"),
        (
            HEADER + 'secret = "s"\nseed = 1\n[[step]]\ntap = "ok"\n',
            "key 'secret': the board's own sealed dice are unseeded",
        ),
        (HEADER + 'secret = "s"\ndice = "scripted"\n[[step]]\ntap = "ok"\n', "drop 'dice' or 'secret'"),
        (HEADER, "key 'step': expected one or more [[step]] tables, got nothing"),
        (HEADER + '[step]\ntap = "ok"\n', "key 'step': expected one or more [[step]] tables"),
        (HEADER + '[[step]]\ntap = "ok\n', "not valid TOML: "),
        (HEADER + "[[step]]\ndice = [[1, 9]]\n", "key 'dice': roll 1: 9 is no die face"),
        (
            HEADER + "[[step]]\ndice = [[1, 2, 3]]\n",
            "key 'dice': roll 1 must list 2 (EXXTRA), 4 (LEVEL X) or 5 (EXTRA!)",
        ),
    ],
)
def test_an_invalid_header_or_file_is_refused(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], text: str, message: str
):
    path = write(tmp_path, text)
    assert run_cli(path) == 2
    assert message in capsys.readouterr().err


def test_a_missing_file_is_refused(tmp_path: Path, capsys: pytest.CaptureFixture[str]):
    assert run_cli(tmp_path / "nope.toml") == 2
    assert "nope.toml: cannot read the scenario" in capsys.readouterr().err


def test_the_whole_file_is_checked_before_the_first_step_runs(tmp_path: Path):
    path = write(tmp_path, HEADER + '[[step]]\ntap = "ok"\n' * 3 + '[[step]]\nhold = "menu"\n')
    with pytest.raises(ScenarioError, match=r"step 4 \(line 10\): key 'hold': unknown button 'menu'"):
        load_scenario(path)


# --- the driver protocol ----------------------------------------------------------------------------


class ProtocolOnly:
    """A driver with nothing but the protocol's methods (no settle, tap or hold of its own), over a
    SimBoard: what a bench driver would offer. It records what the runner asked of it."""

    def __init__(self, board: SimBoard) -> None:
        self.board = board
        self.calls: list[str] = []

    def press(self, name: str) -> None:
        self.calls.append("press")
        self.board.press(name)

    def release(self, name: str) -> None:
        self.calls.append("release")
        self.board.release(name)

    def wait(self, seconds: float) -> None:
        self.calls.append("wait")
        self.board.wait(seconds)

    def led(self, cell: str) -> tuple[int, int, int]:
        return self.board.led(cell)

    def screen_text(self) -> list[str]:
        return self.board.screen_text()

    def image_checksum(self) -> str:
        return self.board.image_checksum()

    def state(self, path: str) -> Any:
        self.calls.append("state")
        return self.board.state(path)

    def queue_dice(self, faces: Any) -> None:
        self.board.queue_dice(faces)


def test_simboard_satisfies_the_driver_protocol():
    board = SimBoard(seed=0)
    try:
        assert isinstance(board, BoardDriver)
    finally:
        board.close()


def test_a_driver_with_only_the_protocol_runs_a_whole_game(capsys: pytest.CaptureFixture[str]):
    scenario = load_scenario(SCENARIOS / "exxtra_rulebook.toml")
    board = SimBoard(seed=scenario.seed, dice=ScriptedDice())
    driver = ProtocolOnly(board)
    try:
        result = run_scenario(scenario, driver, hold_s=1.0)
    finally:
        board.close()
    assert result.passed, result.failure
    assert set(driver.calls) == {"press", "release", "wait", "state"}  # settle polled state("busy")
    assert capsys.readouterr().out.endswith("expectations, passed\n")


# --- state paths -------------------------------------------------------------------------------------


def test_state_paths_parse_names_and_indexes():
    assert parse_path("positions[1]") == ["positions", 1]
    assert parse_path("game.sheets[0].total") == ["game", "sheets", 0, "total"]
    assert parse_path("ladder[-1]") == ["ladder", -1]
    with pytest.raises(StateError, match="must start with a name"):
        parse_path("[0]")


def exxtra_roots() -> dict[str, Any]:
    game = Exxtra(["A", "B", "C"])
    game.apply(Roll(("7", "X")))
    game.apply(Place(5))
    return {"game": lambda: game, "pending": game.pending}


def test_state_reads_attributes_and_indexes_as_plain_data():
    roots = exxtra_roots()
    assert read_state(roots, "ladder[5]") == [[0, "70"]]  # a bare name is read on the game
    assert read_state(roots, "game.ladder[5][0].combination") == "70"
    assert read_state(roots, "pending") == {"kind": "roll", "player": 1}
    assert read_state(roots, "pending.kind") == "roll"
    assert read_state(roots, "rung_of[1]") is None
    assert read_state(roots, "game.history[1]") == {"do": "place", "rung": 5}  # steps as record JSON


def test_state_paths_only_read():
    roots = exxtra_roots()
    with pytest.raises(StateError, match="is a method"):
        read_state(roots, "legal_decisions")
    with pytest.raises(StateError, match="'_positions' is private"):
        read_state(roots, "game._positions")
    with pytest.raises(StateError, match=r"game.ladder has no item \[9\]"):
        read_state(roots, "game.ladder[9]")
    with pytest.raises(StateError, match="has no 'nothing'"):
        read_state(roots, "nothing")


def test_plain_and_same_keep_booleans_apart_from_numbers():
    assert plain((LadderPair(1, "64"),)) == [[1, "64"]]
    assert plain(Pending("decision", 2)) == {"kind": "decision", "player": 2}
    assert plain({7: (1, 2)}) == {"7": [1, 2]}
    assert same([1, [True]], [1, [True]])
    assert not same(True, 1) and not same(0, False)
    assert same({"a": 1.0}, {"a": 1})


def test_replay_problem_names_a_record_that_does_not_replay():
    record = Exxtra(["A", "B", "C"]).to_record() | {"steps": [{"do": "reroll"}]}
    assert "the dice must be rolled first" in replay_problem(record)
    assert replay_problem(None) == "no game on the board"
    assert replay_problem(None, required=False) is None


def test_scenario_dice_fit_exxtra_faces_given_as_numbers():
    dice = ScriptedDice()
    dice.push([7, "X"])
    dice.push([1, 2, 3, 4])
    assert dice.roll(Exxtra.dice(Exxtra(["A", "B", "C"]))) == ("7", "X")
    assert dice.roll([range(1, 7)] * 4) == (1, 2, 3, 4)
    with pytest.raises(LookupError, match="no roll left"):
        dice.roll([range(1, 7)] * 4)
