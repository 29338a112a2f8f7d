"""Engines at the board and hints, driven only by button events on a SimBoard: tables mixing a
person, a built-in bot and an external engine (tests/engines/xdp_test_engine.py) play whole
games of each kind; every fault of the engine (crash, hang, illegal answer, garbage) hands its
seat to the strong bot with a note and a line in the record, and the game finishes; a long
LEFT/RIGHT points the options at the strong bot's choice and says why."""

from __future__ import annotations

import json
import sys
from pathlib import Path
from typing import Any

import pytest

from firmware.agents import EngineAgent
from firmware.errors import ConfigError
from firmware.games import new_game
from firmware.hardware.config import EngineConfig, default_board_path, load_board
from firmware.hints import hint
from firmware.records import replay_record
from firmware.ui.gameview import game_view
from firmware.ui.menus import SeatScreen
from firmware.ui.play import PlayScreen, ResultScreen
from sim.board import SimBoard

TEST_ENGINE = [sys.executable, str(Path(__file__).parent / "engines" / "xdp_test_engine.py")]
GAMES = ("exxtra", "levelx", "extra")


def board_file(tmp_path: Path, engines: str) -> Path:
    """The shipped board description with `engines` ([[engines]] tables) added."""
    path = tmp_path / "board.toml"
    shipped = default_board_path().read_text()
    # A bare key belongs at the top (before any table); [[engines]] tables go at the end.
    path.write_text(shipped + "\n" + engines if engines.startswith("[[") else engines + shipped)
    return path


def engine_entry(name: str = "test", flags: tuple[str, ...] = (), timeout_s: float = 0.5) -> str:
    command = ", ".join(json.dumps(part) for part in [*TEST_ENGINE, *flags])
    return f'[[engines]]\nname = "{name}"\ncommand = [{command}]\ntimeout_s = {timeout_s}\n'


def pick(board: SimBoard, value: Any) -> None:
    """RIGHT until the menu's current option is `value`, then OK."""
    for _ in range(len(board.app.screen.choice.options)):
        if board.app.screen.choice.current.value == value:
            board.tap("ok")
            return
        board.tap("right")
    raise AssertionError(f"no menu option {value!r}")


def seat_up(board: SimBoard, game: str, kinds: list[str]) -> list[str]:
    """Main menu → Play → seat count → each seat's kind (LEFT/RIGHT) → OK; the seat labels seen."""
    pick(board, ("play", game))
    pick(board, len(kinds))
    labels = []
    for kind in kinds:
        screen = board.app.screen
        assert isinstance(screen, SeatScreen)
        for _ in range(10):
            if screen.kind() == kind:
                break
            board.tap("right")
        assert screen.kind() == kind
        labels.append(board.screen_text()[1])
        board.tap("ok")
    assert isinstance(board.app.screen, PlayScreen)
    return labels


def play_out(board: SimBoard, notes: set[str], limit: int = 4000) -> None:
    """The person rolls with ROLL and takes the offered option with OK until the game ends."""
    for _ in range(limit):
        board.settle()
        if board.app.note is not None:
            notes.add(board.app.note)
        if isinstance(board.app.screen, ResultScreen):
            return
        pending = board.app.session.game.pending()
        board.tap("roll" if pending.kind == "roll" else "ok")
    raise AssertionError("the game did not end")


def mixed_table(
    tmp_path: Path, game: str, flags: tuple[str, ...] = (), seed: int = 5
) -> tuple[SimBoard, set[str], Any]:
    board = SimBoard(
        board_file=board_file(tmp_path, engine_entry(flags=flags)), seed=seed, state_dir=tmp_path / "state"
    )
    labels = seat_up(board, game, ["human", "bot:medium", "bot:engine:test"])
    assert labels[2] == "< Engine: test >"
    session = board.app.session
    notes: set[str] = set()
    play_out(board, notes)
    return board, notes, session


@pytest.mark.parametrize("game", GAMES)
def test_a_person_a_bot_and_an_engine_play_a_whole_game_through_buttons(tmp_path: Path, game: str) -> None:
    board, notes, session = mixed_table(tmp_path, game)
    try:
        assert session.over
        engine = session.agents[2]
        assert isinstance(engine, EngineAgent) and engine.failed is None
        record = board.journal.record(session.journal_id)
        assert record["players"][1]["bot"] == "medium" and record["players"][2]["bot"] == "engine:test"
        assert "notes" not in record
        assert replay_record(record).result() == record["result"]
        # The engine's decisions are its own: the test engine plays the first legal decision.
        game_ = new_game(game, [p["name"] for p in record["players"]])
        engine_steps = 0
        for step in record["steps"]:
            pending = game_.pending()
            if pending.kind == "decision" and pending.player == 2:
                assert step == game_.legal_decisions()[0].to_json()
                engine_steps += 1
            game_.apply_json(step)
        assert engine_steps > 0
    finally:
        board.close()


@pytest.mark.parametrize(
    ("fault", "why"),
    [
        ("crash", "exited (code 3)"),
        ("hang", "sent no bestmove in time"),
        ("illegal", "not a legal decision"),
        ("garbage", "not a step as JSON"),
    ],
)
def test_an_engine_that_fails_hands_its_seat_to_the_strong_bot_and_the_game_goes_on(
    tmp_path: Path, fault: str, why: str
) -> None:
    board, notes, session = mixed_table(tmp_path, "exxtra", (f"--{fault}-at", "2"))
    try:
        assert session.over
        engine = session.agents[2]
        assert isinstance(engine, EngineAgent) and engine.failed is not None and why in engine.failed
        assert "Engine test failed: strong bot plays" in board.app.problems
        record = board.journal.record(session.journal_id)
        assert record["players"][2]["bot"] == "engine:test"
        [note] = record["notes"]
        assert why in note and "the strong bot plays seat 2 (Green) from here" in note
        assert replay_record(record).is_over()
        assert session.record()["notes"] == record["notes"]
    finally:
        board.close()


def test_a_well_formed_step_that_is_not_legal_is_an_engine_failure() -> None:
    from firmware.agents import AgentAnswer, checked_engine_answer
    from firmware.table import Seat, Table

    table = Table.start("exxtra", [Seat("Red", "red"), Seat("Blue", "blue"), Seat("Green", "green")], seed=1)
    table.apply(table.draw_roll())
    checked = checked_engine_answer(table.game, AgentAnswer(table.token, engine="e", sent={"do": "place", "rung": 9}))
    assert checked.error is not None and "not a legal decision" in checked.error
    legal = table.game.legal_decisions()[0]
    assert checked_engine_answer(table.game, AgentAnswer(table.token, engine="e", sent=legal.to_json())).step == legal


def test_the_failure_note_shows_on_the_oled(tmp_path: Path) -> None:
    board = SimBoard(board_file=board_file(tmp_path, engine_entry(flags=("--crash-at", "1"))), seed=5)
    try:
        seat_up(board, "exxtra", ["bot:engine:test", "human", "human"])
        seen = []
        for _ in range(300):  # the bot pace, the roll, the engine asked and crashing
            board.wait(0.1)
            seen.append(" ".join(board.screen_text()))
            if "Engine test failed: strong bot plays" in seen[-1]:
                break
        else:
            raise AssertionError(f"no note on the display: {seen[-1]!r}")
        board.settle()
        assert board.app.session.game.pending().player == 1  # the strong bot moved for seat 0
    finally:
        board.close()


def test_an_engine_the_board_does_not_know_is_said_and_played_by_the_strong_bot(tmp_path: Path) -> None:
    board = SimBoard(seed=5)  # no [[engines]]: a seat kept as "engine:gone" (e.g. resumed)
    try:
        from firmware.table import Seat

        board.app.start_game(
            "exxtra", [Seat("Red", "red", "engine:gone"), Seat("Blue", "blue"), Seat("Green", "green")], "play"
        )
        assert "Engine gone failed: strong bot plays" in board.app.problems
        board.settle()
        assert any("not in this board's description" in n for n in board.app.session.notes)
    finally:
        board.close()


# --- hints -----------------------------------------------------------------------------------
@pytest.mark.parametrize("game", GAMES)
def test_left_and_right_together_point_at_the_strong_bots_choice_and_say_why(game: str) -> None:
    board = SimBoard(seed=11)
    try:
        seat_up(board, game, ["human", "human", "human"])
        board.tap("roll")
        board.settle()
        play = board.app.screen
        assert isinstance(play, PlayScreen) and play.choice is not None
        session = board.app.session
        expected, reason = hint(session.game.copy(), session.bot_rng())
        board.press("left")  # the cursor moves as usual; RIGHT joining it makes the chord
        board.press("right")
        board.release("right")
        board.release("left")
        board.wait(0.1)
        assert board.app.note == f"Hint: {reason}"
        assert f"Hint: {reason}"[:10] in " ".join(board.screen_text())
        value = play.choice.current.value
        assert value == expected or game_view(game).same_choice(session, value, expected)
        if game != "exxtra":
            assert any(ch.isdigit() for ch in reason)  # a number: points expected
        before = len(session.game.history)
        board.tap("ok")  # OK plays the hinted option (or opens turning the ones)
        board.settle()
        assert len(session.game.history) > before or not isinstance(board.app.screen, PlayScreen)
    finally:
        board.close()


def test_a_hint_for_a_position_left_meanwhile_is_dropped() -> None:
    board = SimBoard(seed=11)
    try:
        seat_up(board, "exxtra", ["human", "human", "human"])
        board.tap("roll")
        board.settle()
        board.board.agents.runner.submit(lambda: None)
        board.app.ask_hint()
        board.app.session._moved()  # as an undo would: the hint's position is gone
        board.run_pending()
        assert board.app.note is None or not board.app.note.startswith("Hint")
        assert not board.app.thinking
    finally:
        board.close()


# --- the board description -------------------------------------------------------------------
def test_engines_in_the_board_description(tmp_path: Path) -> None:
    config = load_board(
        board_file(
            tmp_path,
            engine_entry() + '[[engines]]\nname = "deep"\ncommand = ["deep"]\n'
            'movetime_ms = 300\noptions = { Level = "strong" }\nmemory_mb = 1024\n',
        )
    )
    assert config.engines == (
        EngineConfig("test", tuple(TEST_ENGINE), 0.5),
        EngineConfig("deep", ("deep",), 5.0, 300, (("Level", "strong"),), memory_mb=1024),
    )
    assert config.engines[0].memory_mb == 512  # the default
    assert load_board().engines == ()


@pytest.mark.parametrize(
    ("entry", "message"),
    [
        ('[[engines]]\ncommand = ["x"]\n', r"engines\.0\.name: missing"),
        ('[[engines]]\nname = "a/b"\ncommand = ["x"]\n', r'engines\.0\.name: "a/b" is not a name'),
        ('[[engines]]\nname = "a"\ncommand = []\n', r"engines\.0\.command: expected a non-empty array"),
        ('[[engines]]\nname = "a"\ncommand = "x"\n', r"engines\.0\.command: expected a non-empty array"),
        ('[[engines]]\nname = "a"\ncommand = ["x"]\ntimeout_s = 0\n', r"engines\.0\.timeout_s: 0 is out of range"),
        ('[[engines]]\nname = "a"\ncommand = ["x"]\nlevel = 3\n', r"engines\.0\.level: unknown key"),
        (
            '[[engines]]\nname = "a"\ncommand = ["x"]\nmemory_mb = 16\n',
            r"engines\.0\.memory_mb: 16 is out of range; expected an integer from 64 to 65536",
        ),
        ('[[engines]]\nname = "a"\ncommand = ["x"]\nmemory_mb = "1G"\n', r"engines\.0\.memory_mb: expected an integer"),
        (
            '[[engines]]\nname = "a"\ncommand = ["x"]\noptions = { Level = 3 }\n',
            r"engines\.0\.options\.Level: expected text",
        ),
        (
            '[[engines]]\nname = "a"\ncommand = ["x"]\n[[engines]]\nname = "a"\ncommand = ["y"]\n',
            r'engines\.1\.name: "a" names two engines',
        ),
        ("engines = 3\n", r"engines: expected \[\[engines\]\] tables"),
    ],
)
def test_a_bad_engine_entry_is_one_clear_line(tmp_path: Path, entry: str, message: str) -> None:
    with pytest.raises(ConfigError, match=message) as caught:
        load_board(board_file(tmp_path, entry))
    assert "\n" not in str(caught.value)


# --- the record's notes ----------------------------------------------------------------------
def test_notes_in_a_record_are_texts_and_ignored_by_replay(tmp_path: Path) -> None:
    from firmware.errors import RecordError
    from firmware.journal import Journal

    game = new_game("exxtra", ["A", "B", "C"])
    record = game.to_record() | {"notes": ["step 0: engine 'x' crashed"]}
    assert replay_record(record).to_record()["players"] == record["players"]
    for bad in ("one note", [1], {"a": "b"}):
        with pytest.raises(RecordError, match="'notes' must be a list of texts"):
            replay_record(game.to_record() | {"notes": bad})
    journal = Journal(tmp_path)
    try:
        header = {k: v for k, v in game.to_record().items() if k != "steps"}
        game_id = journal.start_game(header)
        journal.add_note(game_id, "first")
        journal.add_note(game_id, "second")
        assert journal.record(game_id)["notes"] == ["first", "second"]
        journal.abandon(game_id)
        with pytest.raises(RecordError, match="abandoned: it takes no more notes"):
            journal.add_note(game_id, "third")
    finally:
        journal.close()
