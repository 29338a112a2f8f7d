"""Every board description in hardware/boards/ runs every game in the simulator, and
`--display-image` writes the panel's own pixels 1:1 (the profile's width × height)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from PIL import Image

from firmware.cli import main
from firmware.games import game_class
from firmware.games.registry import games
from firmware.hardware.config import default_board_path, load_board
from sim.board import SimBoard
from sim.scenario import run_scenario_file
from sim.screenshot import save_display_image

BOARDS = sorted((default_board_path().parent / "boards").glob("*.toml"))
SCENARIOS = Path(__file__).parent / "scenarios"

# luma's greyscale drivers call Image.getdata(), deprecated in Pillow 13 (removed in 14): theirs, not ours.
pytestmark = pytest.mark.filterwarnings("ignore:Image.Image.getdata is deprecated:DeprecationWarning")


@pytest.mark.parametrize("game", [spec.name for spec in games()])
@pytest.mark.parametrize("board", BOARDS, ids=lambda path: path.stem)
def test_a_demo_on_every_profile_writes_the_display_image(
    board: Path, game: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    out = tmp_path / "oled.png"
    seats = str(game_class(game).min_players)
    code = main(
        [
            "sim",
            "--headless",
            "--demo",
            game,
            "--seats",
            seats,
            "--seed",
            "5",
            "--board",
            str(board),
            "--display-image",
            str(out),
        ]
    )
    printed, errors = capsys.readouterr()
    assert (code, errors) == (0, "")
    assert json.loads(printed)["game"] == game
    display = load_board(board).display
    with Image.open(out) as image:
        assert image.size == (display.width, display.height)
        assert image.mode == ("L" if display.mode == "L" else "1")
        assert image.getbbox() is not None  # the result screen is on it


def test_larger_panels_show_the_screens_at_their_own_size(tmp_path: Path) -> None:
    boards = default_board_path().parent / "boards"
    for name, size in (("ssd1322", (256, 64)), ("ssd1327", (128, 128))):
        board = SimBoard(seed=1, board_file=boards / f"{name}.toml")
        try:
            board.settle()
            save_display_image(board, tmp_path / f"{name}.png")
        finally:
            board.close()
        with Image.open(tmp_path / f"{name}.png") as menu:
            assert menu.size == size
            # The title's underline runs across the whole panel: drawn for it, not centred.
            assert menu.getbbox()[0] == 0 and menu.getbbox()[2] == size[0]


def test_a_scenario_writes_the_display_image_on_a_profile(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    out = tmp_path / "menu.png"
    code = run_scenario_file(SCENARIOS / "menu.toml", board_file=BOARDS[0], display_image=out)
    assert code == 0, capsys.readouterr().out
    with Image.open(out) as image:
        assert image.size == (load_board(BOARDS[0]).display.width, load_board(BOARDS[0]).display.height)


def test_display_image_refuses_a_missing_folder(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    try:
        main(["sim", "--headless", "--demo", "extra", "--display-image", str(tmp_path / "nowhere" / "x.png")])
    except SystemExit as exit_:
        assert exit_.code == 2
    assert "does not exist" in capsys.readouterr().err
