"""`xtraboard verify` on records that were tampered with or are not what they should be: every
roll is checked against the seal before the replay (a changed roll that makes a later step
illegal is still named as the changed roll), text that is no Unicode is one line, and a JSON
Lines file's errors name the line they are on."""

from __future__ import annotations

import json
import os
import re
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from tests.support import run_capped
from firmware.cli import main
from firmware.errors import RecordError
from firmware.records import MAX_RECORD_FILE_BYTES, parse_record_text, replay_record
from tests.test_verify import tampered_game, verify

ROOT = Path(__file__).resolve().parents[1]


def tampered_so_the_replay_breaks(record: dict) -> tuple[dict, int]:
    """`record` with one roll changed so that a later step becomes illegal: (record, step)."""
    rolls = [i for i, step in enumerate(record["steps"]) if "roll" in step]
    for step in rolls:
        faces = record["steps"][step]["roll"]
        for die in range(len(faces)):
            for face in (1, 2, 3, 4, 5, 6):
                if face == faces[die]:
                    continue
                steps = [dict(s) for s in record["steps"]]
                steps[step]["roll"] = [*faces[:die], face, *faces[die + 1 :]]
                changed = record | {"steps": steps}
                try:
                    replay_record(changed)
                except RecordError:
                    return changed, step
    raise AssertionError("no single changed face breaks this game")


def test_a_changed_roll_that_makes_a_later_step_illegal_is_named_as_the_changed_roll(capsys, tmp_path: Path) -> None:
    record, step = tampered_so_the_replay_breaks(tampered_game("levelx", "honest", at=-1))
    path = tmp_path / "record.json"
    path.write_text(json.dumps(record))
    code, text = verify(capsys, path)
    lines = text.splitlines()
    assert code == 1, text
    roll = sum("roll" in s for s in record["steps"][:step])
    assert lines[0].startswith(f"step {step} (roll {roll}): recorded "), text
    assert "the replay stops here" in text and lines[-1] == "1 problem"


@pytest.mark.parametrize(
    ("where", "edit"),
    [
        ("dice.seed", lambda r: r["dice"].__setitem__("seed", "\ud800")),
        ("players.1.name", lambda r: r["players"][1].__setitem__("name", "Ben\udfff")),
        ("notes.0", lambda r: r.__setitem__("notes", ["ok", "\ud83d"][1:])),
    ],
)
def test_text_that_is_no_unicode_is_one_line_not_a_traceback(capsys, tmp_path: Path, where: str, edit) -> None:
    record = tampered_game("extra", "s", at=-1)
    edit(record)
    path = tmp_path / "record.json"
    path.write_text(json.dumps(record))  # json escapes the lone surrogate: "\ud800" is valid JSON
    code = main(["verify", str(path)])
    out, err = capsys.readouterr()
    assert code == 2 and out == ""
    assert err.count("\n") == 1 and "Traceback" not in err
    assert f"'{where}' holds text that is not valid Unicode (\\u" in err


def test_a_lone_surrogate_in_a_key_is_named_too() -> None:
    with pytest.raises(RecordError, match="holds text that is not valid Unicode"):
        parse_record_text('{"format": "xtraboard-record", "\\ud800": 1}', "x")


def test_json_lines_errors_name_the_line_they_are_on(capsys, tmp_path: Path) -> None:
    good = tampered_game("levelx", "a", at=-1)
    odd = json.loads(json.dumps(good))
    odd["players"][0]["name"] = "Anna\u2028Bea\x85"  # JSON lets both stand as they are
    lines = [json.dumps(odd, ensure_ascii=False), "", json.dumps(good), json.dumps(good)[:-9], json.dumps(good)]
    path = tmp_path / "games.jsonl"
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")
    code = main(["verify", str(path)])
    out, err = capsys.readouterr()
    said = out.splitlines()
    assert code == 2 and len(said) == 3
    assert said[0].startswith(f"record 1 ({path} line 1): ok: all ")
    assert said[1].startswith(f"record 2 ({path} line 3): ok: all ")
    assert said[2].startswith(f"record 4 ({path} line 5): ok: all ")
    assert err.startswith(f"xtraboard verify: record 3 ({path} line 4): {path} line 4 is not valid JSON: ")
    assert re.search(r" at column \d+\n$", err) and err.count("\n") == 1


def test_a_record_written_over_several_lines_is_one_record(capsys, tmp_path: Path) -> None:
    path = tmp_path / "pretty.json"
    path.write_text(json.dumps(tampered_game("exxtra", "p", at=-1), indent=2))
    code, text = verify(capsys, path)
    assert code == 0 and text.startswith("ok: all ")


# --- what is not a record file of bounded size: refused before it is read ----------------------
def run_command(*argv: str, stdin: Any = subprocess.DEVNULL) -> subprocess.CompletedProcess[str]:
    return run_capped([sys.executable, "-m", "firmware", *argv], stdin=stdin)


def not_a_record_file(tmp_path: Path, make: str) -> tuple[Path, str]:
    """(path, the reason the refusal gives) for a device, a FIFO, a directory or a huge file."""
    if make == "device":
        return Path("/dev/zero"), "not a regular file (a character device)"
    if make == "fifo":
        os.mkfifo(tmp_path / "records.jsonl")
        return tmp_path / "records.jsonl", "not a regular file (a FIFO)"
    if make == "directory":
        (tmp_path / "records").mkdir()
        return tmp_path / "records", "not a regular file (a directory)"
    path = tmp_path / "records.jsonl"  # sparse: 65 MiB of zero bytes that take no room on disk
    with path.open("wb") as file:
        file.truncate(MAX_RECORD_FILE_BYTES + 1024 * 1024)
    return path, f"larger than {MAX_RECORD_FILE_BYTES} bytes"


@pytest.mark.parametrize("command", ["verify", "replay", "analyse"])
@pytest.mark.parametrize("make", ["device", "fifo", "directory", "huge"])
def test_what_is_not_a_record_file_of_bounded_size_is_refused_in_one_line(
    tmp_path: Path, command: str, make: str
) -> None:
    path, reason = not_a_record_file(tmp_path, make)
    done = run_command(command, str(path))
    assert done.returncode == 2 and done.stdout == "", done.stderr
    assert "Traceback" not in done.stderr and done.stderr.count("\n") == 1, done.stderr
    assert done.stderr == (f"xtraboard {command}: {path}: {reason}; expected a record file (JSON or JSON Lines)\n"), (
        done.stderr
    )


@pytest.mark.parametrize("command", ["verify", "replay", "analyse"])
def test_endless_standard_input_is_refused_after_the_limit(command: str) -> None:
    with open("/dev/zero", "rb") as zero:
        done = run_command(command, "-", stdin=zero)
    assert done.returncode == 2 and done.stdout == "", done.stderr
    assert done.stderr == (
        f"xtraboard {command}: standard input: larger than {MAX_RECORD_FILE_BYTES} bytes; "
        "expected a record file (JSON or JSON Lines)\n"
    ), done.stderr
