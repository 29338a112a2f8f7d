"""Records edited on purpose: a dice mode changed after the game, a stored result that is not the
replay's. `xtraboard verify` and `xtraboard replay` run as real processes and must name what was
changed and exit non-zero; genuine physical-dice games still verify and say who keyed what."""

from __future__ import annotations

import json
import random
import subprocess
import sys
from pathlib import Path
from typing import Any

from firmware.bots import choose
from firmware.dice import ELECTRONIC, PHYSICAL, SCHEME, SCHEME_BOUND, SCHEME_WORD, commitment, derive_roll
from firmware.games import Roll, new_game
from firmware.journal import Journal
from firmware.table import Seat, Table
from sim.board import SimBoard
from tests.test_takeback import seat_up, set_setting

ROOT = Path(__file__).resolve().parents[1]


def xtraboard(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "firmware", *args], cwd=ROOT, capture_output=True, text=True, check=False
    )


def seats(*kinds: str) -> list[Seat]:
    """ "b" a bot seat, "p" a person's, coloured in order."""
    colours = ["Red", "Blue", "Green", "Yellow"]
    return [Seat(c, c.lower(), "easy" if k == "b" else None) for c, k in zip(colours, kinds)]


def finished(table: Table, rng: random.Random, keyed_faces: bool = False) -> dict[str, Any]:
    """Play `table` to its end (every decision by the easy bot's chooser); with `keyed_faces`
    every roll is keyed in as a person would, faces not from the seed; the record as exported."""
    dice_rng = random.Random(5)
    while not table.over:
        if table.awaiting_roll and keyed_faces:
            table.apply(Roll(tuple(dice_rng.choice(list(f)) for f in table.game.dice())), keyed=True)
        elif table.awaiting_roll:
            table.apply(table.draw_roll())
        else:
            table.apply(choose(table.game, rng))
    return table.record()


def changed_first_roll(record: dict[str, Any]) -> tuple[dict[str, Any], int]:
    """`record` with one die of its first roll changed (the rest as played), and that step's index."""
    steps = [dict(s) for s in record["steps"]]
    index = next(i for i, s in enumerate(steps) if "roll" in s)
    faces = list(steps[index]["roll"])
    die = new_game(record["game"], [p["name"] for p in record["players"]]).dice()[0]
    faces[0] = die[(list(die).index(faces[0]) + 1) % len(die)]
    steps[index] = steps[index] | {"roll": faces}
    return record | {"steps": steps}, index


def write(tmp_path: Path, record: dict[str, Any], name: str = "record.json") -> Path:
    path = tmp_path / name
    path.write_text(json.dumps(record))
    return path


def test_physical_flipped_on_a_bots_only_game_is_refused_naming_the_roll(tmp_path: Path) -> None:
    record = finished(Table.start("extra", seats("b", "b"), seed="bots"), random.Random(1))
    assert record["dice"]["scheme"] == SCHEME_BOUND and "physical" not in record["dice"]
    tampered, index = changed_first_roll(record)
    tampered["dice"] = tampered["dice"] | {"physical": True}
    done = xtraboard("verify", str(write(tmp_path, tampered)))
    assert done.returncode == 1, done.stdout + done.stderr
    lines = done.stdout.splitlines()
    assert (
        "the 'dice' block says physical dice, but the board committed to electronic dice:"
        " its 'physical' was changed after the game"
    ) in lines
    assert any(line.startswith(f"step {index} (roll 0): recorded ") for line in lines), lines
    assert not any("keyed in" in line for line in lines)
    # The same edit of a genuine physical game the other way round: the mode is bound both ways.
    physical = finished(Table.start("extra", seats("p", "b"), seed="p", meta={"dice": "physical"}), random.Random(1))
    electronic = physical | {"dice": {k: v for k, v in physical["dice"].items() if k != "physical"}}
    done = xtraboard("verify", str(write(tmp_path, electronic, "flipped.json")))
    assert (
        done.returncode == 1 and "but the board committed to physical dice: its 'physical' was taken out" in done.stdout
    )


def test_a_physical_game_checks_the_rolls_nobody_keyed_in(tmp_path: Path) -> None:
    table = Table.start("levelx", seats("p", "b"), seed="keyed", meta={"dice": "physical"})
    record = finished(table, random.Random(2), keyed_faces=True)
    keyed = [i for i, s in enumerate(record["steps"]) if s.get("keyed")]
    assert keyed and keyed == [i for i, s in enumerate(record["steps"]) if "roll" in s]
    unmarked = record | {"steps": [{k: v for k, v in s.items() if k != "keyed"} for s in record["steps"]]}
    done = xtraboard("verify", str(write(tmp_path, unmarked)))
    assert done.returncode == 1
    assert f"step {keyed[0]} (roll 0): recorded " in done.stdout  # the board's roll, not the seed's
    # A keyed-in mark in a game of electronic dice excuses nothing.
    electronic = finished(Table.start("levelx", seats("p", "b"), seed="e"), random.Random(2))
    marked = electronic | {"steps": [s | {"keyed": True} if "roll" in s else s for s in electronic["steps"]]}
    done = xtraboard("verify", str(write(tmp_path, marked, "marked.json")))
    assert done.returncode == 1
    assert "step 0 (roll 0): marked keyed in, but the board committed to electronic dice" in done.stdout


def test_a_swapped_result_is_named_by_verify_and_by_replay(tmp_path: Path) -> None:
    record = finished(Table.start("extra", seats("b", "b"), seed="swap2"), random.Random(3))
    result = record["result"]
    assert result["scores"][0] != result["scores"][1], "pick a seed whose scores differ"
    swapped = dict(result) | {"scores": result["scores"][::-1], "winners": [1 - w for w in result["winners"]]}
    path = write(tmp_path, record | {"result": swapped})
    done = xtraboard("verify", str(path))
    assert done.returncode == 1
    lines = done.stdout.splitlines()
    assert (
        f"the stored result's 'scores' is {json.dumps(swapped['scores'])}, the replay gives "
        + json.dumps(result["scores"])
        in lines
    )
    assert (
        f"the stored result's 'winners' is {json.dumps(swapped['winners'])}, the replay gives "
        + json.dumps(result["winners"])
        in lines
    )
    assert any(line.startswith("ok") for line in lines) is False
    done = xtraboard("replay", str(path))
    assert done.returncode == 1
    assert json.loads(done.stdout)["result"] == result  # what it prints is the replay's
    assert (
        f"xtraboard replay: the stored result's 'scores' is {json.dumps(swapped['scores'])}, the replay gives "
        + json.dumps(result["scores"])
    ) in done.stderr.splitlines()
    # The genuine record: both say nothing is wrong.
    genuine = write(tmp_path, record, "genuine.json")
    assert xtraboard("verify", str(genuine)).returncode == 0
    assert xtraboard("replay", str(genuine)).returncode == 0


def test_a_genuine_physical_game_verifies_and_lists_who_keyed_what(tmp_path: Path) -> None:
    journal = Journal(tmp_path / "state")
    table = Table.start("exxtra", seats("p", "b", "p"), journal=journal, meta={"mode": "play", "dice": "physical"})
    finished(table, random.Random(4), keyed_faces=True)
    journal.close()
    out = tmp_path / "games.jsonl"
    assert xtraboard("records", "export", "--state-dir", str(tmp_path / "state"), "--out", str(out)).returncode == 0
    record = json.loads(out.read_text())
    assert record["dice"]["physical"] is True and record["dice"]["commit"] == commitment(
        record["dice"]["seed"], PHYSICAL
    )
    done = xtraboard("verify", str(out))
    assert done.returncode == 0, done.stdout + done.stderr
    lines = done.stdout.splitlines()
    rolls = [i for i, s in enumerate(record["steps"]) if "roll" in s]
    assert lines[-1] == (
        f"physical dice: {len(rolls)} of {len(rolls)} rolls were keyed in by the players and cannot be"
        " checked; the other 0 match the seed"
    )
    faces = "[" + ", ".join(record["steps"][rolls[0]]["roll"]) + "]"
    assert f"step {rolls[0]} (roll 0): keyed in by a person at the board for Red: {faces}" in lines
    assert any(" keyed in by a person at the board for Blue (bot): " in line for line in lines)


def test_the_board_marks_the_dice_a_person_keys_in(tmp_path: Path) -> None:
    board = SimBoard(seed=1, state_dir=tmp_path)
    try:
        set_setting(board, "dice_mode", "physical")
        seat_up(board, "EXTRA!", ["b", "p"])  # the bot rolls first: a person rolls for it
        board.wait(30)
        board.tap("roll")
        for _ in range(5):
            board.tap("ok")
        board.settle()
        stored = board.journal.unfinished()
        assert stored.record["steps"][0] == {"roll": [1, 1, 1, 1, 1], "keyed": True}
        assert stored.record["dice"]["scheme"] == SCHEME_BOUND and stored.record["dice"]["physical"] is True
        # Resumed after a power cut, the table still knows which rolls were keyed in.
        assert Table.restore(stored, board.journal).record()["steps"][0]["keyed"] is True
    finally:
        board.close()


def test_records_of_the_older_schemes_still_verify(tmp_path: Path) -> None:
    game, rng = new_game("levelx", ["Anna", "Ben"]), random.Random(6)
    rolls = 0
    while not game.is_over():
        if game.pending().kind == "roll":
            game.apply(Roll(derive_roll("old", rolls, game.dice(), "LR")))
            rolls += 1
        else:
            game.apply(choose(game, rng))
    v2 = game.to_record() | {"dice": {"scheme": SCHEME_WORD, "commit": commitment("old"), "word": "LR", "seed": "old"}}
    done = xtraboard("verify", str(write(tmp_path, v2, "v2.json")))
    assert (done.returncode, done.stdout) == (0, f"ok: all {rolls} rolls match the seed\n")
    # v1 does not bind the mode: a v1 physical record verifies as before, and says so.
    v1 = new_game("levelx", ["Anna", "Ben"]).to_record() | {
        "dice": {"scheme": SCHEME, "commit": commitment("old"), "seed": "old", "physical": True}
    }
    done = xtraboard("verify", str(write(tmp_path, v1, "v1.json")))
    assert done.returncode == 0 and "does not bind the dice mode" in done.stdout
    # v2 is never physical: the board asks the table's word only with electronic dice.
    v2_physical = v2 | {"dice": v2["dice"] | {"physical": True}}
    done = xtraboard("verify", str(write(tmp_path, v2_physical, "v2p.json")))
    assert done.returncode == 1 and "which only games with the board's electronic dice have" in done.stdout
    assert commitment("old", ELECTRONIC) != commitment("old")


def test_a_v3_record_renamed_to_v1_with_its_commitments_input_as_seed_is_refused(tmp_path: Path) -> None:
    # v3 commits to SHA-256("electronic:" + seed), v1 to SHA-256(seed): with "electronic:<seed>"
    # as the seed, the v3 commitment passes as a v1 one, and v1's "physical" excuses every roll.
    record = finished(Table.start("extra", seats("b", "b"), seed="bots"), random.Random(1))
    tampered, _index = changed_first_roll(record)
    game = new_game(record["game"], [p["name"] for p in record["players"]])
    for step in tampered["steps"]:
        game.apply(game.parse_step(step))
    tampered["result"] = json.loads(json.dumps(game.result()))  # the edited game's own result
    tampered["dice"] = record["dice"] | {"scheme": SCHEME, "seed": f"{ELECTRONIC}:bots", "physical": True}
    done = xtraboard("verify", str(write(tmp_path, tampered)))
    assert done.returncode == 1, done.stdout + done.stderr
    assert (
        "the revealed seed begins with 'electronic:', as the input of a 'hmac-sha256-v3' commitment does:"
        " the record's scheme was changed from 'hmac-sha256-v3' to 'hmac-sha256-v1' after the game"
    ) in done.stdout.splitlines()
    # The same with the prefix of physical dice: a physical v3 game cannot pass as v1 either.
    physical = record | {"dice": record["dice"] | {"commit": commitment("bots", PHYSICAL)}}
    physical["dice"] |= {"scheme": SCHEME, "seed": f"{PHYSICAL}:bots", "physical": True}
    done = xtraboard("verify", str(write(tmp_path, physical, "physical.json")))
    assert done.returncode == 1 and "the record's scheme was changed from 'hmac-sha256-v3'" in done.stdout
