"""Board descriptions that build on one another (`extends`): the display profiles in
hardware/boards/ hold only what differs from the default build, merge to what they were as whole
copies (plus the buzzer they had lost), and every mistake in a chain names the file and the key."""

from __future__ import annotations

import io
import subprocess
import sys
import tomllib
from contextlib import redirect_stderr, redirect_stdout
from dataclasses import replace
from pathlib import Path

import pytest

from firmware.cli import main
from firmware.errors import ConfigError
from firmware.hardware.config import (
    MAX_EXTENDS,
    BuzzerConfig,
    default_board_path,
    load_board,
    read_layered,
)

ROOT = Path(__file__).resolve().parents[1]
DEFAULT = default_board_path()
PROFILES = sorted((ROOT / "hardware" / "boards").glob("*.toml"))
# The profiles as whole copies of the default build, as they were before `extends`.
BEFORE = ROOT / "tests" / "data" / "profiles-before"


def write(folder: Path, name: str, text: str) -> Path:
    path = folder / name
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(text, encoding="utf-8")
    return path


def leaves(value: object, keys: tuple[str, ...] = ()) -> dict[tuple[str, ...], object]:
    """Every non-table value of a TOML document by its key path."""
    if not isinstance(value, dict):
        return {keys: value}
    found: dict[tuple[str, ...], object] = {}
    for key, inner in value.items():
        found |= leaves(inner, (*keys, key))
    return found


def run_cli(*argv: str) -> tuple[int, str, str]:
    out, err = io.StringIO(), io.StringIO()
    with redirect_stdout(out), redirect_stderr(err):
        code = main(list(argv))
    return code, out.getvalue(), err.getvalue()


# --- the shipped profiles ----------------------------------------------------------------------


@pytest.mark.parametrize("profile", PROFILES, ids=lambda p: p.name)
def test_a_profile_merges_to_what_it_was_plus_the_buzzer(profile: Path) -> None:
    merged = load_board(profile)
    before = load_board(BEFORE / profile.name)
    assert before.buzzer is None  # the whole copies had lost the default build's buzzer
    assert merged.buzzer == BuzzerConfig(pin=27, mid_tone="A5", octaves=2) == load_board().buzzer
    # Everything else as before; the operator's code stays beside the description loaded.
    assert replace(merged, path=before.path, operator=before.operator, buzzer=None) == before
    assert merged.operator is not None and merged.operator.code_file.parent == profile.parent


@pytest.mark.parametrize("profile", PROFILES, ids=lambda p: p.name)
def test_a_profile_holds_only_what_differs_from_what_it_extends(profile: Path) -> None:
    own = tomllib.loads(profile.read_text(encoding="utf-8"))
    assert own.pop("extends") == "../board.toml"
    own.pop("remove", None)
    base = leaves(tomllib.loads(DEFAULT.read_text(encoding="utf-8")))
    repeated = [keys for keys, value in leaves(own).items() if base.get(keys) == value]
    assert repeated == []
    assert len(profile.read_text(encoding="utf-8").splitlines()) <= 30


def test_the_spi_profile_moves_left_on_purpose_and_says_why() -> None:
    board = load_board(ROOT / "hardware" / "boards" / "ssd1322.toml")
    assert board.buttons.pins["left"] == 22 and load_board().buttons.pins["left"] == 19
    text = (ROOT / "hardware" / "boards" / "ssd1322.toml").read_text(encoding="utf-8")
    assert "left = 22  # moved on purpose: GPIO19 is SPI1 MISO here" in text


# --- what extending can do ---------------------------------------------------------------------


def test_a_description_changes_single_keys_adds_sections_and_removes_others(tmp_path: Path) -> None:
    path = write(
        tmp_path,
        "mine.toml",
        f'extends = "{DEFAULT}"\n'
        'remove = ["buzzer", "buttons.tilt", \'cells."seat.5".x\']\n'
        "[leds]\nbrightness = 0.25\n"
        '[cells]\n"seat.5" = { x = 20 }\n'
        '[fleet]\ntable = "t1"\nbroker = "127.0.0.1"\n',
    )
    board = load_board(path)
    assert board.leds.brightness == 0.25 and board.leds.count == 89  # one key changed, the rest kept
    assert board.buzzer is None and board.buttons.tilt is None
    assert board.leds.cells["seat.5"].x == 20 and board.leds.cells["seat.5"].leds == (86,)
    assert board.fleet is not None and board.fleet.table == "t1"  # a section the base has not


def test_a_chain_merges_in_order_and_relative_names_are_beside_the_file_naming_them(tmp_path: Path) -> None:
    write(tmp_path, "base/shop.toml", f'extends = "{DEFAULT}"\n[operator]\ncode_file = "shop-code"\n')
    middle = write(tmp_path, "base/middle.toml", 'extends = "shop.toml"\n[leds]\nbrightness = 0.3\n')
    top = write(tmp_path, "top/board.toml", f'extends = "../base/{middle.name}"\n[leds]\nbrightness = 0.4\n')
    board = load_board(top)
    assert board.leds.brightness == 0.4
    assert board.operator is not None and board.operator.code_file == tmp_path / "base" / "shop-code"
    _, origins = read_layered(top)
    assert origins[("leds", "brightness")] == top and origins[("leds", "count")] == DEFAULT


def test_a_shipped_description_is_named_without_its_installed_path(tmp_path: Path) -> None:
    path = write(tmp_path, "board.toml", 'extends = "shipped:boards/ssd1327.toml"\n[leds]\nbrightness = 0.2\n')
    board = load_board(path)
    assert (board.display.driver, board.display.height, board.leds.brightness) == ("ssd1327", 128, 0.2)


# --- mistakes name the file and the key ---------------------------------------------------------

BAD = {
    "cycle": ({"a.toml": 'extends = "b.toml"\n', "b.toml": 'extends = "a.toml"\n'}, "b.toml: extends", "a cycle"),
    "itself": ({"a.toml": 'extends = "a.toml"\n'}, "a.toml: extends", "a cycle"),
    "missing base": ({"a.toml": 'extends = "nothere.toml"\n'}, "nothere.toml: cannot read", "readable TOML"),
    "not a string": ({"a.toml": "extends = 3\n"}, "a.toml: extends", "3 (an integer)"),
    "remove a typo": ({"a.toml": f'extends = "{DEFAULT}"\nremove = ["buzer"]\n'}, "a.toml: remove", '"buzer" is not in'),
    "remove alone": ({"a.toml": 'remove = ["buzzer"]\n'}, "a.toml: remove", "expected extends as well"),
    "remove not a path": ({"a.toml": f'extends = "{DEFAULT}"\nremove = ["a..b"]\n'}, "a.toml: remove", "not a key path"),
    "shipped escapes": ({"a.toml": 'extends = "shipped:../../etc/passwd"\n'}, "a.toml: extends", "leaves the shipped"),
    "shipped absolute": ({"a.toml": 'extends = "shipped:/etc/passwd"\n'}, "a.toml: extends", "leaves the shipped"),
    "base not toml": ({"a.toml": 'extends = "b.toml"\n', "b.toml": "[[[\n"}, "b.toml: not valid TOML", ""),
}  # fmt: skip


@pytest.mark.parametrize("case", BAD, ids=list(BAD))
def test_a_bad_chain_is_one_error_naming_the_file(case: str, tmp_path: Path) -> None:
    files, where, expected = BAD[case]
    for name, text in files.items():
        write(tmp_path, name, text)
    with pytest.raises(ConfigError) as error:
        load_board(tmp_path / "a.toml")
    assert f"{tmp_path}/{where}" in str(error.value) and expected in str(error.value), str(error.value)


@pytest.mark.parametrize(
    ("remove", "again", "by"),
    [('"buttons", "buttons.pins"', "buttons.pins", "buttons"), ('"buzzer", "buzzer"', "buzzer", "buzzer")],
)
def test_a_key_removed_twice_is_one_line_naming_it(tmp_path: Path, remove: str, again: str, by: str) -> None:
    """`remove` naming a key inside a section it removed before (or a key twice) used to end
    `wiring` (and the board's start) with a KeyError's traceback."""
    path = write(tmp_path, "a.toml", f'extends = "shipped:board.toml"\nremove = [{remove}]\n')
    done = subprocess.run(
        [sys.executable, "-m", "firmware", "wiring", "--board", str(path), "--merged"],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=120,
        stdin=subprocess.DEVNULL,
    )
    assert (done.returncode, done.stdout) == (2, ""), done.stderr
    assert done.stderr == (
        f'xtraboard wiring: {path}: remove: "{again}" is removed already, by "{by}"; expected each key once\n'
    )


def test_a_chain_too_long_is_refused(tmp_path: Path) -> None:
    write(tmp_path, "0.toml", f'extends = "{DEFAULT}"\n')
    for n in range(1, MAX_EXTENDS + 1):
        write(tmp_path, f"{n}.toml", f'extends = "{n - 1}.toml"\n')
    load_board(tmp_path / f"{MAX_EXTENDS - 2}.toml")
    with pytest.raises(ConfigError, match="more than 8 descriptions extend one another"):
        load_board(tmp_path / f"{MAX_EXTENDS}.toml")


def test_a_mistake_from_the_base_names_the_base_and_the_file_extending_it(tmp_path: Path) -> None:
    # An SPI display on SPI1 while the base keeps LEFT on GPIO19, SPI1's MISO.
    path = write(
        tmp_path,
        "spi.toml",
        f'extends = "{DEFAULT}"\nremove = ["display.address"]\n[display]\ninterface = "spi"\n',
    )
    with pytest.raises(ConfigError) as error:
        load_board(path)
    assert str(error.value).startswith(f"{DEFAULT} (as extended by {path}): buttons.pins.left: GPIO19 is reserved")


# --- `xtraboard wiring` -------------------------------------------------------------------------


def test_wiring_shows_the_merged_description(tmp_path: Path) -> None:
    profile = ROOT / "hardware" / "boards" / "ssd1322.toml"
    code, out, err = run_cli("wiring", "--board", str(profile), "--merged")
    assert code == 0 and err == ""
    shown = tomllib.loads(out)
    merged, _ = read_layered(profile)
    assert shown == merged and "extends" not in shown and "address" not in shown["display"]
    assert f"[display]  # {profile}" in out and f"[buzzer]  # {DEFAULT}" in out
    assert "left = 22\n" in out and f"right = 26  # {DEFAULT}" in out
    # What it shows loads as the same board.
    copy = write(tmp_path, "merged.toml", out)
    assert replace(load_board(copy), path=profile, operator=None) == replace(load_board(profile), operator=None)


def test_wiring_refuses_two_parts_on_one_pin_across_files(tmp_path: Path) -> None:
    path = write(tmp_path, "board.toml", f'extends = "{DEFAULT}"\n[buttons.pins]\nright = 27\n')
    for argv in (["--merged"], ["--out", str(tmp_path / "w.svg")]):
        code, out, err = run_cli("wiring", "--board", str(path), *argv)
        assert code == 2 and out == ""
        assert f"{DEFAULT} (as extended by {path}): buzzer.pin: GPIO27 is already used by buttons.pins.right" in err
    assert not (tmp_path / "w.svg").exists()


def test_every_description_in_the_repository_loads(monkeypatch: pytest.MonkeyPatch) -> None:
    from firmware.games.registry import GAMES_ENV, load_game_module, unregister_game

    monkeypatch.setenv(GAMES_ENV, "")
    plain = [DEFAULT, *PROFILES, *sorted(BEFORE.glob("*.toml"))]
    assert len(plain) == 11 and all(load_board(path).leds.cells for path in plain)
    for folder in sorted(p.parent for p in (ROOT / "examples").glob("*/board.toml")):
        spec = load_game_module(f"examples.{folder.name}")  # a game's own description needs the game
        try:
            assert {group.name for group in spec.cells} <= {g.name for g in load_board(folder / "board.toml").layout}
        finally:
            unregister_game(spec.name)
