"""The dice seal players take part in (docs/dice.md), driven by button events on a SimBoard:
before the first roll of a game with the board's own random dice the seal is shown and the
table's word asked (LEFT, RIGHT, ROLL; BACK takes one back; OK done or skip); the rolls then
follow hmac-sha256-v2 with it; the seal and word stay on the first screen until the first roll,
are in the game menu ("Dice seal"), in the MQTT state and in the exported record, and `verify`
checks both schemes. Seeded, scripted and demo games skip the screen and keep their rolls."""

from __future__ import annotations

import json
import random
from pathlib import Path
from typing import Any

import pytest

from firmware.bots import choose
from firmware.cli import main
from firmware.dice import ELECTRONIC, SCHEME, SCHEME_BOUND, SCHEME_WORD, commitment, derive_roll
from firmware.games import Roll
from firmware.journal import Journal
from firmware.table import Seat, Table
from firmware.ui.play import PlayScreen
from firmware.ui.seal import WordScreen
from firmware.verify import check_record
from sim.board import SimBoard
from tests.mqtt_fixtures import Broker, Subscriber, board_file, wait_for

EXXTRA_FOR_THREE = ("ok", "ok", "ok", "ok", "ok")  # Play, EXXTRA, 3 players, three people


def text(board: SimBoard) -> str:
    return " ".join(board.screen_text())


def test_before_the_first_roll_the_board_shows_the_seal_and_asks_the_tables_word(tmp_path: Path) -> None:
    board = SimBoard(state_dir=tmp_path / "state")
    try:
        for button in EXXTRA_FOR_THREE:
            board.tap(button)
        assert isinstance(board.app.screen, WordScreen)
        commit = board.journal.unfinished().record["dice"]["commit"]
        assert f"Seal {commit[7:19]}" in text(board) and "Word: -" in text(board) and "OK: skip" in text(board)
        for button in ("left", "right", "roll", "roll", "back"):
            board.tap(button)
        assert "Word: LRD" in text(board) and "OK: done" in text(board)
        board.tap("ok")
        assert isinstance(board.app.screen, PlayScreen)
        # The seal and the word stay on the game's first screen until the first roll...
        assert f"Seal {commit[7:19]}" in text(board) and "word LRD" in text(board)
        board.wait(30)
        assert "word LRD" in text(board)
        stored = board.journal.unfinished()
        assert stored.record["dice"] == {"scheme": SCHEME_BOUND, "commit": commit, "word": "LRD"}
        secret = stored.meta["dice_seed"]
        board.tap("roll")
        board.settle()
        # ...and the roll is the seed's with the word (not the one without it).
        [roll] = [s for s in board.app.session.game.history if isinstance(s, Roll)]
        dice = board.app.session.game.dice()
        assert roll.faces == derive_roll(secret, 0, dice, "LRD")
        assert "Seal" not in text(board)
        # The game menu shows the seal at any time: the whole commitment, the word, the scheme.
        board.hold("back")
        options = [o.value for o in board.app.screen.choice.options]
        for _ in range(options.index("seal")):
            board.tap("right")
        board.tap("ok")
        assert "Dice seal" in text(board) and "Word: LRD" in text(board)
        page = board.app.screen.text
        assert " ".join(commit[i : i + 8] for i in range(7, 71, 8)) in page and SCHEME_BOUND in page
    finally:
        board.close()


def test_the_bots_wait_for_the_word_and_ok_at_once_skips_it(tmp_path: Path) -> None:
    board = SimBoard(state_dir=tmp_path / "state")
    try:
        board.app.start_game("levelx", [Seat("Red", "red", "easy"), Seat("Blue", "blue", "easy")], "play")
        board.settle()
        board.wait(60)
        assert isinstance(board.app.screen, WordScreen) and board.app.session.rolls_made() == 0
        board.tap("ok")  # no word
        board.settle()
        session = board.app.session
        assert session.rolls_made() > 0
        assert session.header()["dice"] == {
            "scheme": SCHEME_BOUND,
            "commit": commitment(session.meta["dice_seed"], ELECTRONIC),
        }
        first = next(s for s in session.game.history if isinstance(s, Roll))
        assert first.faces == derive_roll(session.meta["dice_seed"], 0, session.game.dice())
    finally:
        board.close()


@pytest.mark.parametrize("kind", ["seeded", "scripted", "demo"])
def test_seeded_scripted_and_demo_games_skip_the_word_and_keep_their_rolls(tmp_path: Path, kind: str) -> None:
    from firmware.dice import ScriptedDice

    board = SimBoard(
        state_dir=tmp_path / "state",
        seed=7 if kind != "scripted" else None,
        dice=ScriptedDice([(7, "X")]) if kind == "scripted" else None,
    )
    try:
        if kind == "demo":
            board.app.start_game("exxtra", [Seat(c, c.lower(), "easy") for c in ("Red", "Blue", "Green")], "demo")
        else:
            for button in EXXTRA_FOR_THREE:
                board.tap(button)
        assert isinstance(board.app.screen, PlayScreen)
        if kind == "seeded":
            board.tap("roll")
            board.settle()
            first = next(s for s in board.app.session.game.history if isinstance(s, Roll))
            assert first.faces == derive_roll("7", 0, board.app.session.game.dice())  # as before the seal
    finally:
        board.close()


def test_a_game_resumed_before_its_first_roll_asks_again_and_after_the_word_keeps_it(tmp_path: Path) -> None:
    journal = Journal(tmp_path / "state")
    meta = {"mode": "play", "dice": "electronic"}
    table = Table.start("extra", [Seat("Red", "red")], journal=journal, meta=meta)
    assert table.asks_word()
    again = Table.restore(journal.unfinished(), journal)
    assert again.asks_word()
    again.set_word("RRLD")
    resumed = Table.restore(journal.unfinished(), journal)
    assert not resumed.asks_word() and resumed.word == "RRLD"
    roll = resumed.draw_roll()
    assert roll.faces == derive_roll(resumed.meta["dice_seed"], 0, resumed.game.dice(), "RRLD")
    resumed.apply(roll)
    with pytest.raises(ValueError, match="before the first roll"):
        resumed.set_word("L")
    journal.close()


def play_to_the_end(table: Table) -> None:
    rng = random.Random(4)
    while not table.over:
        table.apply(table.draw_roll() if table.awaiting_roll else choose(table.game, rng))


def test_the_exported_record_holds_the_word_and_verify_checks_both_schemes(capsys, tmp_path: Path) -> None:
    journal = Journal(tmp_path / "state")
    seats = [Seat("Red", "red", "easy"), Seat("Blue", "blue", "easy")]
    with_word = Table.start("levelx", seats, journal=journal, meta={"mode": "play", "dice": "electronic"})
    with_word.set_word("DLR")
    play_to_the_end(with_word)
    without = Table.start("levelx", seats, journal=journal, meta={"mode": "play", "dice": "electronic"})
    without.set_word(None)
    play_to_the_end(without)
    journal.close()
    out = tmp_path / "games.jsonl"
    assert main(["records", "export", "--state-dir", str(tmp_path / "state"), "--out", str(out)]) == 0
    first, second = (json.loads(line) for line in out.read_text().splitlines())
    assert (
        first["dice"]["scheme"] == SCHEME_BOUND and first["dice"]["word"] == "DLR" and len(first["dice"]["seed"]) == 64
    )
    assert second["dice"]["scheme"] == SCHEME_BOUND and "word" not in second["dice"]
    capsys.readouterr()
    assert main(["verify", str(out)]) == 0
    said = capsys.readouterr().out.splitlines()
    assert [line.split(": ", 1)[1] for line in said] == [
        f"ok: all {rolls(first)} rolls match the seed",
        f"ok: all {rolls(second)} rolls match the seed",
    ]
    # Another word, or none, and the rolls no longer match: the word is in every roll.
    for dice in (
        first["dice"] | {"word": "DLL"},
        {k: v for k, v in first["dice"].items() if k != "word"} | {"scheme": SCHEME},
    ):
        assert not check_record(first | {"dice": dice}).ok
    no_word = {k: v for k, v in first["dice"].items() if k != "word"}
    assert "the seed gives" in check_record(first | {"dice": no_word}).problems[0]  # v3: the word is in the rolls
    old_scheme = no_word | {"scheme": SCHEME_WORD}
    assert "needs the table's word" in check_record(first | {"dice": old_scheme}).problems[0]


def rolls(record: dict[str, Any]) -> int:
    return sum("roll" in step for step in record["steps"])


def test_the_seal_and_the_word_are_in_the_mqtt_state(tmp_path: Path) -> None:
    broker = Broker(tmp_path).start()
    board = None
    try:
        path = board_file(tmp_path, f'table = "table-3"\nbroker = "127.0.0.1"\nport = {broker.port}\n')
        board = SimBoard(board_file=path, state_dir=tmp_path / "state")
        watcher = Subscriber(broker)
        for button in EXXTRA_FOR_THREE:
            board.tap(button)
        commit = board.journal.unfinished().record["dice"]["commit"]

        def dice_states() -> list[Any]:
            return [json.loads(m.payload).get("dice") for m in watcher.on("xtraboard/table-3/state")]

        wait_for(lambda: {"scheme": SCHEME_BOUND, "commit": commit, "word": None} in dice_states(), "the seal")
        board.tap("right")
        board.tap("ok")
        wait_for(lambda: {"scheme": SCHEME_BOUND, "commit": commit, "word": "R"} in dice_states(), "the word")
        assert all("seed" not in (d or {}) for d in dice_states())
    finally:
        if board is not None:
            board.close()
        broker.stop()
