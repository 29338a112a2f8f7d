"""Dice anyone can verify: the board commits to a secret seed before a game, derives every roll
from it, reveals it in the exported record; `xtraboard verify` recomputes every roll."""

from __future__ import annotations

import hashlib
import hmac
import json
import random
from pathlib import Path
from typing import Any

import pytest

from firmware.bots import choose
from firmware.cli import main
from firmware.dice import ELECTRONIC, SCHEME, SCHEME_BOUND, CommittedDice, commitment, derive_roll, seal_lines
from firmware.errors import RecordError
from firmware.games import Roll, game_names, new_game
from firmware.journal import Journal
from firmware.records import replay_record
from firmware.ui.app import NOTE_S
from firmware.table import Seat, Table
from firmware.verify import chi2_p, check_record, fairness
from sim.board import SimBoard
from tests.support import play_on


def bot_seats(count: int) -> list[Seat]:
    colours = ["red", "blue", "green", "yellow", "purple", "orange"]
    return [Seat(f"Bot{i}", colours[i], "easy") for i in range(count)]


def play_session(session: Table, rng: random.Random) -> None:
    """Play a session to its end as the board does: rolls drawn by the session, bots decide."""
    while not session.over:
        if session.awaiting_roll:
            session.apply(session.draw_roll())
        else:
            session.apply(choose(session.game, rng))


def verify(capsys: pytest.CaptureFixture[str], path: Path) -> tuple[int, str]:
    code = main(["verify", str(path)])
    out, err = capsys.readouterr()
    return code, out + err


def test_derivation_is_the_documented_keyed_hash() -> None:
    # docs/dice.md, re-implemented here from its words: HMAC-SHA256(seed, "roll:<i>"), bytes
    # below 256 - 256 % n, face b % n.
    key, stream = b"table 3", hmac.new(b"table 3", b"roll:4", hashlib.sha256).digest()
    faces = [b % 6 + 1 for b in stream if b < 252][:5]
    assert derive_roll("table 3", 4, [(1, 2, 3, 4, 5, 6)] * 5) == tuple(faces)
    assert commitment("table 3") == "sha256:" + hashlib.sha256(key).hexdigest()
    # More dice than one block holds: the stream goes on with "roll:<i>:1".
    many = derive_roll("x", 0, [(1, 2, 3, 4, 5, 6)] * 40)
    more = hmac.new(b"x", b"roll:0", hashlib.sha256).digest() + hmac.new(b"x", b"roll:0:1", hashlib.sha256).digest()
    assert many == tuple(b % 6 + 1 for b in more if b < 252)[:40]


@pytest.mark.parametrize("name", game_names())
def test_every_record_the_board_writes_verifies(capsys, tmp_path: Path, name: str) -> None:
    journal = Journal(tmp_path / "state")
    session = Table.start(name, bot_seats(3), journal=journal)
    play_session_until_rolls(session, 2)
    # While the game is played the record holds the commitment, never the seed.
    stored = journal.unfinished()
    assert stored is not None and "seed" not in stored.record["dice"]
    assert stored.record["dice"] == {"scheme": SCHEME_BOUND, "commit": commitment(stored.meta["dice_seed"], ELECTRONIC)}
    # Resumed after a power cut, the dice go on from the same seed.
    session = Table.restore(stored, journal)
    play_session(session, random.Random(1))
    journal.close()
    out = tmp_path / "games.jsonl"
    assert main(["records", "export", "--state-dir", str(tmp_path / "state"), "--out", str(out)]) == 0
    record = json.loads(out.read_text())
    assert record["dice"]["seed"] == stored.meta["dice_seed"] and len(record["dice"]["seed"]) == 64
    replay_record(record)  # the strict reader accepts the dice block
    capsys.readouterr()
    code, text = verify(capsys, out)
    rolls = sum("roll" in step for step in record["steps"])
    assert (code, text) == (0, f"ok: all {rolls} rolls match the seed\n")


def play_session_until_rolls(session: Table, rolls: int) -> None:
    rng = random.Random(0)
    while sum(isinstance(s, Roll) for s in session.game.history) < rolls:
        if session.awaiting_roll:
            session.apply(session.draw_roll())
        else:
            session.apply(choose(session.game, rng))


def tampered_game(name: str, secret: str, at: int) -> dict[str, Any]:
    """A legal record whose roll number `at` is not the seed's (the rest are): bots play on."""
    game, rng, index = new_game(name, ["Anna", "Ben", "Cleo"]), random.Random(3), 0
    while not game.is_over():
        if game.pending().kind == "roll":
            faces = derive_roll(secret, index, game.dice())
            if index == at:
                first = game.dice()[0]
                faces = (first[(first.index(faces[0]) + 1) % len(first)], *faces[1:])  # one die changed
            game.apply(Roll(faces))
            index += 1
        else:
            game.apply(choose(game, rng))
    return game.to_record() | {"dice": {"scheme": SCHEME, "commit": commitment(secret), "seed": secret}}


@pytest.mark.parametrize("name", game_names())
def test_verify_names_the_tampered_roll(capsys, tmp_path: Path, name: str) -> None:
    record = tampered_game(name, "café", 3)
    step = [i for i, s in enumerate(record["steps"]) if "roll" in s][3]
    path = tmp_path / "record.json"
    path.write_text(json.dumps(record))
    code, text = verify(capsys, path)
    lines = text.splitlines()
    assert code == 1 and lines[-1] == "1 problem"
    assert lines[0].startswith(f"step {step} (roll 3): recorded {record['steps'][step]['roll']}".replace("'", ""))
    expected = derive_roll("café", 3, replay_until(record, step).dice())
    assert lines[0].endswith(f"the seed gives [{', '.join(map(str, expected))}]")


def replay_until(record: dict[str, Any], step: int) -> Any:
    return replay_record(record | {"steps": record["steps"][:step]})


def test_a_changed_seed_or_commit_and_an_unrevealed_seed_are_named(tmp_path: Path) -> None:
    record = tampered_game("extra", "s", at=-1)
    assert check_record(record).ok
    wrong = record | {"dice": record["dice"] | {"seed": "t"}}
    assert "does not match the commitment" in check_record(wrong).problems[0]
    hidden = record | {"dice": {"scheme": SCHEME, "commit": record["dice"]["commit"]}}
    assert check_record(hidden).problems == [
        "the seed is not revealed: the game is not over yet, or the record was cut short"
    ]
    assert "no 'dice' block" in check_record({k: v for k, v in record.items() if k != "dice"}).problems[0]


def test_physical_dice_games_are_recorded_and_verify_says_so(capsys, tmp_path: Path) -> None:
    journal = Journal(tmp_path / "state")
    session = Table.start("extra", bot_seats(1), journal=journal, meta={"dice": "physical"})
    assert session.header()["dice"]["physical"] is True
    record = tampered_game("extra", "p", at=0) | {
        "dice": {"scheme": SCHEME, "commit": commitment("p"), "seed": "p", "physical": True}
    }
    path = tmp_path / "physical.json"
    path.write_text(json.dumps(record))
    code, text = verify(capsys, path)
    rolls = sum("roll" in s for s in record["steps"])
    assert code == 0
    assert text.splitlines()[-1] == (
        f"physical dice: 1 of {rolls} rolls were keyed in by the players and cannot be"
        f" checked; the other {rolls - 1} match the seed"
    )
    journal.close()


def test_a_bad_dice_block_is_refused_by_the_strict_reader() -> None:
    record = new_game("extra", ["Anna"]).to_record()
    with pytest.raises(RecordError, match="unknown key 'salt' in 'dice'"):
        replay_record(record | {"dice": {"commit": "sha256:00", "salt": "x"}})
    with pytest.raises(RecordError, match="'dice' 'physical' must be true or false"):
        replay_record(record | {"dice": {"physical": "yes"}})


def test_verify_reads_json_lines_and_says_which_record(capsys, tmp_path: Path) -> None:
    good, bad = tampered_game("levelx", "a", at=-1), tampered_game("levelx", "b", at=0)
    path = tmp_path / "games.jsonl"
    path.write_text(json.dumps(good) + "\n" + json.dumps(bad) + "\n")
    code, text = verify(capsys, path)
    lines = text.splitlines()
    assert code == 1
    assert lines[0].startswith(f"record 1 ({path} line 1): ok: all ")
    assert lines[1].startswith(f"record 2 ({path} line 2): step 0 (roll 0): recorded ")
    assert (tmp_path / "missing.json").exists() is False
    assert main(["verify", str(tmp_path / "missing.json")]) == 2
    assert capsys.readouterr().err.startswith(f"xtraboard verify: cannot read {tmp_path / 'missing.json'}")


def test_seeded_sessions_stay_reproducible_and_the_seed_is_the_secret() -> None:
    one = Table.start("levelx", bot_seats(2), seed=5)
    two = Table.start("levelx", bot_seats(2), seed=5)
    play_session(one, random.Random(2))
    play_session(two, random.Random(2))
    assert one.game.to_record() == two.game.to_record()
    assert one.header()["dice"]["commit"] == commitment("5", ELECTRONIC)
    record = one.game.to_record() | {"dice": one.header()["dice"] | {"seed": "5"}}
    assert check_record(record).ok


def test_the_board_shows_the_commitment_before_the_first_roll(tmp_path: Path) -> None:
    board = SimBoard(state_dir=tmp_path / "state")
    for button in ("ok", "ok", "ok", "ok", "ok"):  # EXXTRA for three people
        board.tap(button)
    seal = seal_lines(board.journal.unfinished().record["dice"]["commit"])  # its first 32 hex digits
    assert set(seal) <= set(board.screen_text())  # on the seal's own page
    board.wait(NOTE_S * 2)  # not a note that goes: it stays until a press
    assert set(seal) <= set(board.screen_text())
    board.tap("ok")  # to the game; the game menu has it all game
    board.hold("back")
    options = [o.value for o in board.app.screen.choice.options]
    for _ in range(options.index("seal")):
        board.tap("right")
    board.tap("ok")
    assert set(seal) <= set(board.screen_text())
    board.close()


def test_fairness_on_seeded_games_and_on_loaded_dice() -> None:
    fair = [play_record("extra", f"fair:{i}") for i in range(60)]
    result = fairness(fair)
    assert (
        result.games == 60 and result.df == 5 and result.dice == 5 * sum("roll" in s for r in fair for s in r["steps"])
    )
    assert not result.suspicious and result.line().startswith(f"dice fairness: {result.dice:,} dice in 60 games, chi² ")
    loaded = [load(r) for r in fair]
    assert fairness(loaded).suspicious and fairness(loaded).line().endswith("(suspicious, worth a look)")
    # Physical-dice games and games without committed dice are left out.
    assert fairness([r | {"dice": r["dice"] | {"physical": True}} for r in loaded]).games == 0
    assert fairness([]).line() == "dice fairness: no electronic rolls yet"
    exxtra = fairness([play_record("exxtra", f"x:{i}") for i in range(20)])
    assert exxtra.df == 10  # two kinds of die, six faces each


def play_record(name: str, secret: str) -> dict[str, Any]:
    game, dice, rng = new_game(name, ["Anna", "Ben", "Cleo"]), CommittedDice(secret), random.Random(secret)
    play_on(game, dice, decide=lambda g: choose(g, rng))
    return game.to_record() | {"dice": {"scheme": SCHEME, "commit": commitment(secret), "seed": secret}}


def load(record: dict[str, Any]) -> dict[str, Any]:
    """The same game's decisions with a die that shows 6 for every 1 it rolled (bots re-choose)."""
    game, rng, dice = (
        new_game(record["game"], [p["name"] for p in record["players"]]),
        random.Random(0),
        CommittedDice(record["dice"]["seed"]),
    )
    while not game.is_over():
        if game.pending().kind == "roll":
            game.apply(Roll(tuple(6 if f == 1 else f for f in dice.roll(game.dice()))))
        else:
            game.apply(choose(game, rng))
    return game.to_record() | {"dice": record["dice"]}


def test_chi_square_p_values() -> None:
    assert chi2_p(0.0, 3) == 1.0
    assert chi2_p(11.0705, 5) == pytest.approx(0.05, abs=1e-4)
    assert chi2_p(3.841, 1) == pytest.approx(0.05, abs=1e-3)
    assert chi2_p(100.0, 5) < 1e-15


def test_the_simulators_demo_record_verifies(capsys, tmp_path: Path) -> None:
    record = tmp_path / "demo.json"
    assert main(["sim", "--headless", "--demo", "levelx", "--seats", "2", "--record", str(record)]) == 0
    capsys.readouterr()
    assert json.loads(record.read_text())["dice"]["seed"] == "0"  # the demo's default seed is the secret
    code, text = verify(capsys, record)
    assert code == 0 and text.startswith("ok: all ")
