"""A game that lights cells of its own is its folder: `examples/climb/` declares ten stairs in
its spec (`cells.py`), maps them in its own description (`board.toml`, extending the default
build), and the config check, the simulator, the self-test and `xtraboard wiring` show them
without a line of theirs changed (docs/adding-a-game.md, "Cells of its own")."""

from __future__ import annotations

import os
import re
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest

from examples.climb import SPEC
from examples.climb.cells import STAIRS
from firmware.errors import ConfigError
from firmware.games.registry import GAMES_ENV, GameSpec, load_game_module, unregister_game
from firmware.hardware.config import BOARD_ENV, default_board_path, load_board
from sim.app import choose
from sim.board import SimBoard
from sim.render import LED_OFF, BoardRenderer, cell_colours, lit_colour, snapshot
from sim.wiring.docs import led_groups
from tests.test_game_cells import mentions, owned_groups

ROOT = Path(__file__).resolve().parent.parent
FOLDER = ROOT / "examples" / "climb"
DESCRIPTION = FOLDER / "board.toml"


@pytest.fixture
def climb(monkeypatch: pytest.MonkeyPatch) -> Iterator[GameSpec]:
    monkeypatch.setenv(GAMES_ENV, "")
    monkeypatch.delenv(BOARD_ENV, raising=False)
    spec = load_game_module("examples.climb")
    yield spec
    unregister_game(spec.name)


def xtraboard(*args: str) -> subprocess.CompletedProcess[str]:
    env = {k: v for k, v in os.environ.items() if k not in ("GPIOZERO_PIN_FACTORY", BOARD_ENV, GAMES_ENV)}
    return subprocess.run(
        [sys.executable, "-m", "firmware", "--game-module", "examples.climb", *args],
        cwd=ROOT,
        env=env,
        capture_output=True,
        text=True,
        timeout=120,
    )


# --- its declaration and its description ---------------------------------------------------------


def test_its_description_adds_the_stairs_to_the_default_build(climb: GameSpec) -> None:
    board = load_board(DESCRIPTION)
    assert STAIRS in board.layout and SPEC.cells == (STAIRS,)
    stairs = [board.leds.cells[name] for name in STAIRS.names()]
    assert [cell.leds for cell in stairs] == [(89 + i,) for i in range(10)]  # the end of the chain
    assert [cell.y for cell in stairs] == sorted((cell.y for cell in stairs), reverse=True)  # they climb
    assert board.leds.count == 99 and board.size_mm == (400, 360)
    text = DESCRIPTION.read_text(encoding="utf-8")
    assert text.count("\n") < 40 and 'extends = "../../hardware/board.toml"' in text


def test_the_default_board_lacks_the_stairs_and_says_which_game_needs_them(climb: GameSpec) -> None:
    with pytest.raises(ConfigError) as error:
        load_board(default_board_path())
    assert str(error.value) == (
        f'{default_board_path()}: cells."stairs.0": missing: Climb lights it (10 cells of its own missing: '
        "stairs.0, stairs.1, stairs.2, stairs.3, stairs.4, stairs.5, …); "
        "expected { leds = [...], x = ..., y = ... } for each"
    )


def test_its_description_without_the_game_maps_cells_no_game_declares(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv(GAMES_ENV, "")
    with pytest.raises(ConfigError) as error:
        load_board(DESCRIPTION)
    message = str(error.value)
    assert message.startswith(f'{DESCRIPTION}: cells."stairs.0": unknown cell: no game declares it; expected one of ')
    assert "track.0–21" in message and "seat.0–5" in message


# --- the simulator, the self-test, the wiring -----------------------------------------------------


def test_the_simulator_shows_a_player_climbing_the_stairs(climb: GameSpec, tmp_path: Path) -> None:
    board = SimBoard(board_file=DESCRIPTION, seed=2, state_dir=tmp_path)
    choose(board, "Play Climb")
    choose(board, "2 players")
    board.tap("ok")
    board.tap("ok")  # both seats people
    game = board.app.session.game
    board.tap("roll")
    board.settle()
    board.tap("ok")  # climb by the die
    board.settle()
    step = game.steps[0]
    assert step >= 1 and board.led(STAIRS.cell(step)) == board.led("seat.0") != (0, 0, 0)
    renderer = BoardRenderer(board.config, 2.0)
    picture = renderer.render(snapshot(board))
    shown = cell_colours(board.config, board.hardware.leds.pixels)
    for name in STAIRS.names():
        expected = lit_colour(shown[name]) if any(shown[name]) else LED_OFF
        assert tuple(picture.get_at(renderer.cell_centre(name)))[:3] == expected, name
    assert any(shown[STAIRS.cell(step)]) and not any(shown[STAIRS.cell(9)])
    board.close()


def test_the_selftest_lights_the_stairs_as_a_segment_of_their_own() -> None:
    done = xtraboard("selftest", "--board", str(DESCRIPTION), "--backend", "mock", "--timeout", "0.01", "--step", "0")
    assert done.returncode == 1, done.stderr  # nobody pressed the buttons
    assert "LEDs lit: seats 6, track 24, ladder 6, grid 18, stairs 10, dice 35" in done.stdout
    assert "LEDs: stairs lit (10 cells, 10 LEDs)" in done.stdout


def test_wiring_counts_the_stairs_and_a_demo_plays_on_them(tmp_path: Path, climb: GameSpec) -> None:
    assert led_groups(load_board(DESCRIPTION))["stairs"] == 10
    done = xtraboard("wiring", "--board", str(DESCRIPTION), "--out", str(tmp_path / "climb.svg"))
    assert done.returncode == 0, done.stderr
    shot = tmp_path / "demo.png"
    done = xtraboard(
        "sim", "--headless", "--demo", "climb", "--seats", "2", "--seed", "4", "--board", str(DESCRIPTION),
        "--screenshot", str(shot), "--state-dir", str(tmp_path / "state"),
    )  # fmt: skip
    assert done.returncode == 0, done.stderr
    assert '"game": "climb"' in done.stdout and shot.stat().st_size > 0


# --- it needed nothing else -------------------------------------------------------------------------


def test_it_needed_no_line_outside_its_folder() -> None:
    """Nothing the board runs or ships names the game or its cells: not the firmware, the
    simulator, the shipped descriptions, the installer or the packaging (the docs may tell of
    it, the tests test it)."""
    # Its module, its name as a string, its cells ("to climb" is a word the lessons use, too).
    words = re.compile(r"examples[./]climb|[\"']climb[\"']|\bstairs\b", re.IGNORECASE)
    places = [ROOT / top for top in ("firmware", "sim", "hardware", "systemd", "scripts")]
    files = [p for place in places for p in place.rglob("*") if p.is_file() and "__pycache__" not in p.parts]
    files += [ROOT / name for name in ("pyproject.toml", "build_hooks.py", "dev", "examples/__init__.py")]
    found = [
        str(path.relative_to(ROOT))
        for path in files
        if path.suffix not in (".png", ".mo", ".bin")
        and words.search(path.read_text(encoding="utf-8", errors="replace"))
    ]
    assert found == []
    assert sorted(p.name for p in FOLDER.iterdir() if p.suffix in (".py", ".toml")) == [
        "__init__.py",
        "board.toml",
        "bots.py",
        "cells.py",
        "rules.py",
        "screens.py",
        "text.py",
    ]
    # The code scan of tests/test_game_cells.py, for its cells too: firmware/ and sim/ name none.
    owned = owned_groups([SPEC])
    assert [
        line for top in ("firmware", "sim") for p in (ROOT / top).rglob("*.py") for line in mentions(p, owned)
    ] == []
