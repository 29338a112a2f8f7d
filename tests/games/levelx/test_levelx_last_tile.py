"""LEVEL X's last bonus tile as a choice (record version 2) across the board: records of both
versions, the journal and resume, `replay` and `verify`, the engine protocol, the bots, the hint,
the explanation, and a game played through button presses on a simulated board."""

from __future__ import annotations

import json
import random
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from levelx_bonus import COMPLETING, PASS, offer_record, record, steps_before_offer, turn_steps

from firmware.cli import main
from firmware.dice import ScriptedDice, SeededDice
from firmware.errors import RecordError
from firmware.games import Pending, new_game
from firmware.games.levelx import bots
from firmware.games.levelx import screens as ui
from firmware.games.levelx.rules import BONUS_TILES, Bonus, Groups, LevelX
from firmware.hints import hint
from firmware.journal import Journal
from firmware.records import replay_record
from firmware.table import Table
from tests.support import explained as explain
from firmware.ui.play import PlayScreen, ResultScreen
from sim.board import SimBoard

DECLINE_THEN_TAKE = [
    {"bonus": False},
    *turn_steps(*PASS),
    *turn_steps((6, 1, 1, 2), [[0]]),
    {"bonus": True},  # a chip of 6: asked again, takes it
    *turn_steps(*PASS),
]


# --- records ----------------------------------------------------------------------------------
def test_version_2_record_round_trips_through_json_with_its_bonus_steps() -> None:
    data = offer_record()
    data["steps"] += DECLINE_THEN_TAKE
    game = replay_record(json.loads(json.dumps(data)))
    assert game.is_over() and game.result()["bonus"] == [list(BONUS_TILES), []]  # type: ignore[index]
    written = game.to_record()
    assert written["version"] == 2 and written["steps"] == data["steps"]
    assert replay_record(json.loads(json.dumps(written))).to_record() == written


def test_version_1_record_replays_with_the_last_tile_taken_at_once() -> None:
    data = record(steps_before_offer() + turn_steps(*COMPLETING) + turn_steps(*PASS), version=1)
    game = replay_record(data)
    assert isinstance(game, LevelX) and not game.last_tile_choice
    assert game.is_over() and game.bonus[0] == BONUS_TILES  # taken with the fourth set: the round ended
    assert game.to_record() == data | {"result": game.result()}  # written back as version 1
    at = len(data["steps"]) - 2  # where version 2 would ask: version 1 has no such step
    with pytest.raises(RecordError, match=rf"step {at}: illegal {{\"bonus\": true}}: the dice must be rolled first"):
        replay_record(record(data["steps"][:at] + [{"bonus": True}], version=1))


def test_version_2_record_without_the_choice_is_refused_at_that_step() -> None:
    data = offer_record()
    at = len(data["steps"])
    data["steps"] += turn_steps(*PASS)  # Red's roll while Yellow still has to choose
    with pytest.raises(RecordError, match=rf"step {at}: .*decision"):
        replay_record(data)


def test_exxtra_and_extra_records_of_version_1_stay_valid_and_keep_their_version() -> None:
    for name, players in (("exxtra", 3), ("extra", 2)):
        game = new_game(name, [f"P{i}" for i in range(players)])
        assert game.to_record()["version"] == 2
        old = game.to_record() | {"version": 1}
        assert replay_record(old).to_record() == old


def test_replay_and_verify_commands_read_both_versions(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    for version, steps in ((1, turn_steps(*PASS)), (2, DECLINE_THEN_TAKE)):
        data = record(steps_before_offer() + turn_steps(*COMPLETING) + steps, version)
        path = tmp_path / f"v{version}.json"
        path.write_text(json.dumps(data))
        assert main(["replay", str(path)]) == 0
        assert main(["verify", str(path)]) in (0, 1)  # no dice block: said, not an error of the reader
        out, err = capsys.readouterr()
        assert "version" not in err and "Traceback" not in err


# --- the journal: an unfinished version-1 game goes on under version-1 rules --------------------
def stored_game(state: Path, version: int, steps: list[dict[str, Any]], red_bot: str | None = None) -> None:
    with Journal(state) as journal:
        header = record([], version, red_bot)
        del header["steps"]
        gid = journal.start_game(header, {"colours": ["yellow", "red"]})
        for index, step in enumerate(steps):
            journal.append_step(gid, index, step)


@pytest.mark.parametrize("version", [1, 2])
def test_an_unfinished_game_resumes_under_the_rules_of_its_version(tmp_path: Path, version: int) -> None:
    stored_game(tmp_path, version, steps_before_offer())
    with Journal(tmp_path) as journal:
        stored = journal.unfinished()
        assert stored is not None and stored.record["version"] == version
        table = Table.restore(stored, journal, ["yellow", "red"])
        table.apply(table.game.parse_step({"roll": list(COMPLETING[0])}))
        table.apply(Groups(tuple(map(tuple, COMPLETING[1]))))
        assert table.game.bonus_pending == (version == 2)  # type: ignore[attr-defined]
        assert table.record()["version"] == version
        again = journal.unfinished()
        assert again is not None and again.record["version"] == version
        assert replay_record(again.record).to_record()["steps"] == table.game.to_record()["steps"]


def test_a_new_game_is_written_as_version_2(tmp_path: Path) -> None:
    with Journal(tmp_path) as journal:
        from firmware.table import Seat

        table = Table.start("levelx", [Seat("A", "red"), Seat("B", "blue")], journal=journal)
        assert table.header()["version"] == 2
        assert journal.unfinished().record["version"] == 2  # type: ignore[union-attr]


# --- bots, the hint, the explanation ------------------------------------------------------------
def offered() -> LevelX:
    game = replay_record(offer_record())
    assert isinstance(game, LevelX) and game.bonus_pending
    return game


def test_every_bot_level_decides_the_offer() -> None:
    game = offered()
    rng = random.Random(1)
    # Yellow leads by far and Red, still to play this round, has no piece near an X: take it.
    assert bots.strong(game, game.legal_decisions(), rng) == Bonus(True)
    assert bots.medium(game, game.legal_decisions(), rng) == Bonus(True)
    assert bots.easy(game, game.legal_decisions(), rng) == Bonus(True)


def test_a_trailing_or_threatened_strong_bot_declines_and_the_end_makes_it_take() -> None:
    # Red (seat 1) reaches every X while Yellow passes: Red's first set, the last tile offered
    # to Red; Yellow holds three sets and leads by far: Red declines at every level but easy.
    data = offer_record()
    data["steps"] += [{"bonus": False}]
    game = replay_record(data)
    for faces, groups in [
        ((5, 5, 5, 5), [[0], [1], [2], [3]]),
        ((6, 6, 6, 6), [[0], [1], [2], [3]]),
        ((3, 4, 3, 4), [[0, 1], [2, 3]]),
        ((3, 4, 3, 4), [[0, 1], [2, 3]]),
        ((4, 4, 4, 4), [[0, 1], [2, 3]]),
        ((4, 4, 4, 4), [[0, 1], [2, 3]]),
        ((4, 5, 4, 5), [[0, 1], [2, 3]]),
        ((5, 5, 5, 5), [[0, 1], [2, 3]]),
    ]:
        game.apply_json({"roll": list(faces)})
        game.apply_json({"groups": groups})
        if game.bonus_pending:
            break
        game.apply_json({"roll": [2, 2, 2, 2]})
        game.apply_json({"groups": []})
    assert game.pending() == Pending("decision", 1) and game.scores[1] < game.scores[0]
    rng = random.Random(1)
    assert bots.strong(game, game.legal_decisions(), rng) == Bonus(False)
    assert bots.medium(game, game.legal_decisions(), rng) == Bonus(False)
    assert bots.easy(game, game.legal_decisions(), rng) == Bonus(True)
    decision, reason = hint(game, rng)
    assert decision == Bonus(False) and reason.startswith("decline: with it ") and reason.endswith("behind at the end")
    # Red, on every X, closes rows 10, 8 and 9 in three turns (asked after each: declines while
    # the game goes on); with the third closed stack the game ends this round: the tile is
    # points for nothing, so even trailing Red takes it.
    game.apply(Bonus(False))
    for faces, groups in [
        ((5, 5, 4, 4), [[0, 1], [2, 3]]),
        ((4, 4, 4, 5), [[0, 1], [2, 3]]),
        ((4, 5, 3, 4), [[0, 1], [2, 3]]),
    ]:
        game.apply_json({"roll": [2, 2, 2, 2]})
        game.apply_json({"groups": []})
        game.apply_json({"roll": list(faces)})
        game.apply_json({"groups": groups})
        assert game.bonus_pending
        if not game.end_triggered:
            assert bots.strong(game, game.legal_decisions(), rng) == Bonus(False)
            game.apply(Bonus(False))
    assert game.closed_rows == (8, 9, 10) and game.scores[1] < game.scores[0]
    assert bots.strong(game, game.legal_decisions(), rng) == Bonus(True)
    assert hint(game, rng) == (Bonus(True), "take it: last round anyway")
    game.apply(Bonus(True))
    assert game.is_over()  # Red sits last: the round, and the game, end with its turn


def test_hint_and_explanations_of_the_choice() -> None:
    game = offered()
    decision, reason = hint(game, random.Random(1))
    assert decision == Bonus(True) and reason.startswith("take it: end ") and reason.endswith("ahead")
    names = [p.name for p in game.players]
    twin = game.copy()
    twin.apply(Bonus(False))
    assert explain("levelx", names, twin.events) == "Yellow leaves the last tile 6"
    game.apply(Bonus(True))
    assert explain("levelx", names, game.events) == "Yellow takes the last tile 6: last round"


@settings(max_examples=40, deadline=None)
@given(seed=st.integers(0, 2**32 - 1))
def test_random_play_from_the_offer_never_raises_and_undo_restores(seed: int) -> None:
    """From the offer on, random legal play (declines and takes, offers again) to the end; every
    step taken back restores the record and the offered decisions exactly."""
    game = offered()
    dice, rng = SeededDice(seed), random.Random(seed)
    offers = 0
    while not game.is_over():
        if game.pending().kind == "roll":
            game.roll(dice)
            continue
        offers += game.bonus_pending
        legal = game.legal_decisions()
        before, record = legal, game.to_record()
        step = rng.choice(legal)
        game.apply(step)
        assert game.events is not None  # built through the plain path from the undo record
        assert game.undo() == step and game.to_record() == record and game.legal_decisions() == before
        game.apply(step)
        assert len(game.history) < 2000
    assert offers >= 1 and replay_record(game.to_record()).to_record() == game.to_record()


# --- the engine protocol ----------------------------------------------------------------------
def test_the_engine_answers_the_offer_with_a_bonus_step() -> None:
    v2 = json.dumps(offer_record())
    v1 = json.dumps(offer_record(version=1))
    lines = [f"position {v2}", "go", "setoption name Level value easy", "go", f"position {v1}", "go", "quit"]
    done = subprocess.run(
        [sys.executable, "-m", "firmware", "engine"],
        input="".join(f"{line}\n" for line in lines),
        capture_output=True,
        text=True,
        timeout=60,
        check=True,
    )
    moves = [line for line in done.stdout.splitlines() if line.startswith("bestmove")]
    assert moves == ['bestmove {"bonus":true}', 'bestmove {"bonus":true}', "bestmove none"]  # v1: Red to roll


# --- the board: declined through the buttons, then taken ----------------------------------------
def pick_option(board: SimBoard, wanted: Any) -> None:
    """Move the play screen's cursor to the option playing `wanted`, then OK."""
    play = board.app.screen
    assert isinstance(play, PlayScreen) and play.choice is not None
    for _ in range(len(play.choice.options)):
        value = play.choice.current.value
        if value == wanted or ui.VIEW.same_choice(board.app.session, value, wanted):
            board.tap("ok")
            board.settle()
            return
        board.tap("right")
    raise AssertionError(f"no option plays {wanted!r}: {[o.label for o in play.choice.options]}")


def turn(board: SimBoard, faces: tuple[int, ...], groups: list[list[int]]) -> None:
    board.queue_dice(faces)
    board.tap("roll")
    board.settle()
    pick_option(board, Groups(tuple(map(tuple, groups))))


def test_a_person_declines_the_last_tile_then_takes_it_through_the_buttons(tmp_path: Path) -> None:
    stored_game(tmp_path, 2, steps_before_offer())
    board = SimBoard(seed=1, state_dir=tmp_path, dice=ScriptedDice())
    try:
        board.settle()
        menu = board.app.screen
        assert menu.choice.current.value == ("resume", None)
        board.tap("ok")
        board.settle()
        turn(board, *COMPLETING)
        play = board.app.screen
        assert isinstance(play, PlayScreen) and play.choice is not None
        labels = [(o.label, o.detail) for o in play.choice.options]
        assert labels == [("Take tile 6", "game ends this round"), ("Leave tile 6", "the game goes on")]
        # The hint (LEFT and RIGHT together) points at "take" and says why.
        board.tap("right")  # the cursor on "decline" first: the hint moves it
        board.press("left")
        board.wait(0.05)
        board.press("right")
        board.wait(0.1)
        board.release("left")
        board.release("right")
        board.wait(0.1)
        board.settle()
        assert play.choice.current.value == Bonus(True)
        assert (board.app.note or "").startswith("Hint: take it: end ")
        board.app.dismiss_note()
        pick_option(board, Bonus(False))
        session = board.app.session
        assert session.game.tiles_left == (6,) and session.game.pending() == Pending("roll", 1)
        assert board.app.help.shown_explanation(session) == "Yellow leaves the last tile 6"
        turn(board, *PASS)  # Red
        turn(board, (6, 1, 1, 2), [[0]])  # Yellow takes a chip of 6: asked again
        assert [o.value for o in board.app.screen.choice.options] == [Bonus(True), Bonus(False)]
        pick_option(board, Bonus(True))
        assert board.app.help.shown_explanation(session) == "Yellow takes the last tile 6: last round"
        turn(board, *PASS)  # Red ends the round: the game is over
        assert isinstance(board.app.screen, ResultScreen) and not board.app.problems
        finished = board.journal.finished("levelx")[0].record
        assert finished["version"] == 2
        assert finished["steps"][-len(DECLINE_THEN_TAKE) :] == DECLINE_THEN_TAKE
        assert replay_record(finished).result() == finished["result"]
        assert finished["result"]["bonus"] == [list(BONUS_TILES), []]
    finally:
        board.close()
