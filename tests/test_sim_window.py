"""The simulator window, the board picture and screenshots, under SDL's dummy video driver.

The window tests use a SimBoard on a fake clock: each window frame advances it by 1/30 s, so
debounce and long presses behave exactly as on the board, with no sleeps.
"""

from __future__ import annotations

import os
from collections.abc import Iterator
from pathlib import Path

import pytest

from firmware.cli import main
from firmware.hardware.config import cell_names, load_board
from sim.board import SimBoard
from sim.render import LED_OFF, BoardRenderer, cell_colours, lit_colour, snapshot
from sim.screenshot import save_screenshot
from sim.window import FPS, SimWindow, fit_scale

os.environ.setdefault("PYGAME_HIDE_SUPPORT_PROMPT", "1")
import pygame  # noqa: E402  (after the prompt is hidden)

SCALE = 1.5  # small pictures: fast tests


@pytest.fixture(autouse=True)
def dummy_video(monkeypatch: pytest.MonkeyPatch) -> Iterator[None]:
    monkeypatch.setenv("SDL_VIDEODRIVER", "dummy")
    yield
    pygame.display.quit()


@pytest.fixture
def board() -> Iterator[SimBoard]:
    sim = SimBoard(seed=3)
    yield sim
    sim.close()


@pytest.fixture
def window(board: SimBoard) -> Iterator[SimWindow]:
    win = SimWindow(board, scale=SCALE)
    pygame.event.clear()
    yield win
    win.close()


def frames(window: SimWindow, count: int = 1) -> None:
    for _ in range(count):
        window.step()


def key(window: SimWindow, code: int, down_frames: int = 2) -> None:
    """Press a key, keep it down for `down_frames` frames, let go, and let a few frames pass."""
    pygame.event.post(pygame.event.Event(pygame.KEYDOWN, key=code, mod=0, unicode="", scancode=0))
    frames(window, down_frames)
    pygame.event.post(pygame.event.Event(pygame.KEYUP, key=code, mod=0, unicode="", scancode=0))
    frames(window, 3)


def screen_name(board: SimBoard) -> str:
    return type(board.app.screen).__name__


def pixel(surface: pygame.Surface, at: tuple[int, int]) -> tuple[int, int, int]:
    return tuple(surface.get_at(at))[:3]


# --- the window -------------------------------------------------------------------------------
def test_the_window_runs_frames_and_saves_a_screenshot_at_exit(tmp_path: Path) -> None:
    shot = tmp_path / "exit.png"
    assert main(["sim", "--frames", "30", "--seed", "1", "--screenshot", str(shot)]) == 0
    picture = pygame.image.load(str(shot))
    assert picture.get_size() == BoardRenderer(load_board()).size


def test_frames_must_be_positive(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["sim", "--frames", "0"]) == 2
    assert "--frames must be at least 1" in capsys.readouterr().err


def test_enter_key_moves_the_firmware_into_the_seat_count_screen(board: SimBoard, window: SimWindow) -> None:
    assert screen_name(board) == "MainMenu"
    pygame.event.post(pygame.event.Event(pygame.KEYDOWN, key=pygame.K_RETURN, mod=0, unicode="\r", scancode=0))
    frames(window)
    assert snapshot(board).pressed == {"ok"}  # the OK pin is low while the key is down
    pygame.event.post(pygame.event.Event(pygame.KEYUP, key=pygame.K_RETURN, mod=0, unicode="\r", scancode=0))
    frames(window, 3)
    assert snapshot(board).pressed == frozenset()
    assert screen_name(board) == "SeatCountScreen"
    assert board.screen_text()[0] == "EXXTRA"


def test_arrow_keys_move_the_menu_cursor(board: SimBoard, window: SimWindow) -> None:
    key(window, pygame.K_RIGHT)
    key(window, pygame.K_RIGHT)
    key(window, pygame.K_LEFT)
    assert board.app.screen.choice.current.label == "Play LEVEL X"


def test_holding_backspace_opens_the_menu_like_the_board(board: SimBoard, window: SimWindow) -> None:
    key(window, pygame.K_RETURN)
    key(window, pygame.K_RETURN)  # 3 players: the first seat's screen
    assert screen_name(board) == "SeatScreen"
    key(window, pygame.K_BACKSPACE)  # a short BACK: one screen back
    assert screen_name(board) == "SeatCountScreen"
    key(window, pygame.K_RETURN)
    hold_frames = round(board.config.buttons.hold_s * FPS) + 3
    key(window, pygame.K_BACKSPACE, down_frames=hold_frames)  # held: the menu (home, outside a game)
    assert screen_name(board) == "MainMenu"


def test_r_rolls_in_a_game(board: SimBoard, window: SimWindow) -> None:
    for _ in range(5):  # Play EXXTRA, 3 players, three people
        key(window, pygame.K_RETURN)
    assert screen_name(board) == "PlayScreen"
    key(window, pygame.K_r)
    frames(window, 30)  # the tumble
    assert board.app.session.game.current_roll is not None


def test_a_click_on_the_drawn_ok_button_moves_into_the_seat_count_screen(board: SimBoard, window: SimWindow) -> None:
    x, y = window.renderer.at(board.config.button_positions["ok"])
    pos = (x + window.offset[0], y + window.offset[1])
    pygame.event.post(pygame.event.Event(pygame.MOUSEBUTTONDOWN, button=1, pos=pos))
    frames(window)
    assert snapshot(board).pressed == {"ok"}
    drawn = pixel(window.surface, (pos[0], pos[1] + window.renderer.px(2)))
    pygame.event.post(pygame.event.Event(pygame.MOUSEBUTTONUP, button=1, pos=(0, 0)))  # let go anywhere
    frames(window, 3)
    assert screen_name(board) == "SeatCountScreen"
    assert pixel(window.surface, (pos[0], pos[1] + window.renderer.px(2))) != drawn  # drawn pressed, then up


def test_a_click_beside_the_buttons_presses_nothing(board: SimBoard, window: SimWindow) -> None:
    pos = window.renderer.at((5.0, 5.0))
    pygame.event.post(pygame.event.Event(pygame.MOUSEBUTTONDOWN, button=1, pos=pos))
    frames(window)
    assert snapshot(board).pressed == frozenset()
    pygame.event.post(pygame.event.Event(pygame.MOUSEBUTTONUP, button=1, pos=pos))
    frames(window, 3)
    assert screen_name(board) == "MainMenu"


def test_key_and_mouse_hold_one_button_until_both_let_go(board: SimBoard, window: SimWindow) -> None:
    pos = window.renderer.at(board.config.button_positions["ok"])
    pygame.event.post(pygame.event.Event(pygame.KEYDOWN, key=pygame.K_RETURN, mod=0, unicode="\r", scancode=0))
    pygame.event.post(pygame.event.Event(pygame.MOUSEBUTTONDOWN, button=1, pos=pos))
    pygame.event.post(pygame.event.Event(pygame.KEYUP, key=pygame.K_RETURN, mod=0, unicode="\r", scancode=0))
    frames(window)
    assert snapshot(board).pressed == {"ok"}
    pygame.event.post(pygame.event.Event(pygame.MOUSEBUTTONUP, button=1, pos=pos))
    frames(window, 3)
    assert snapshot(board).pressed == frozenset()
    assert screen_name(board) == "SeatCountScreen"  # one press, not two


def test_losing_focus_lets_go_of_held_keys(board: SimBoard, window: SimWindow) -> None:
    pygame.event.post(pygame.event.Event(pygame.KEYDOWN, key=pygame.K_RIGHT, mod=0, unicode="", scancode=0))
    frames(window)
    pygame.event.post(pygame.event.Event(pygame.WINDOWFOCUSLOST))
    frames(window)
    assert snapshot(board).pressed == frozenset()


def test_escape_and_closing_the_window_quit(board: SimBoard, window: SimWindow) -> None:
    pygame.event.post(pygame.event.Event(pygame.KEYDOWN, key=pygame.K_ESCAPE, mod=0, unicode="", scancode=0))
    window.run(frames=100)
    assert not window.running and window.frames == 0
    window.running = True
    pygame.event.post(pygame.event.Event(pygame.QUIT))
    window.run(frames=100)
    assert not window.running


def test_the_scale_fits_the_window(board: SimBoard) -> None:
    config = board.config
    small = fit_scale(config, (800, 600))
    renderer = BoardRenderer(config, small, footer="help")
    assert renderer.size[0] <= 801 and renderer.size[1] <= 601
    assert fit_scale(config, (10_000, 10_000)) == 3.0


# --- the picture ------------------------------------------------------------------------------
def test_a_screenshot_shows_each_cell_in_the_colour_it_shows(board: SimBoard, tmp_path: Path) -> None:
    for _ in range(5):  # EXXTRA with three people: seats in their colours
        board.tap("ok")
    board.tap("roll")
    board.settle()  # the dice show their faces
    shot = save_screenshot(board, tmp_path / "game.png", scale=SCALE)
    picture = pygame.image.load(str(shot))
    renderer = BoardRenderer(board.config, SCALE)
    shown = cell_colours(board.config, board.hardware.leds.pixels)
    for name, colour in shown.items():
        expected = lit_colour(colour) if any(colour) else LED_OFF
        assert pixel(picture, renderer.cell_centre(name)) == expected, name
    blue = pixel(picture, renderer.cell_centre("seat.1"))
    assert board.led("seat.1") == (30, 95, 255)  # the second seat: blue, drawn blue
    assert blue[2] > blue[1] > blue[0] and blue[2] > 127
    assert sum(1 for name in shown if name.startswith("dice.") and any(shown[name])) >= 2  # pips of the roll


def test_every_configured_cell_is_drawn_at_its_own_place(board: SimBoard) -> None:
    cells = list(board.config.leds.cells)
    # Dim, distinct colours: dark enough for the lift to keep them apart, one per cell.
    frame = {name: (2 + 2 * (i % 30), 2 + 2 * (i // 30), 0) for i, name in enumerate(cells)}
    board.hardware.leds.brightness = 0.5  # every value above stays lit and apart
    board.hardware.leds.show(frame, board.clock())  # the chain itself, as a scene would light it
    renderer = BoardRenderer(board.config, SCALE)
    picture = renderer.render(snapshot(board))
    shown = cell_colours(board.config, board.hardware.leds.pixels)
    sampled = {name: pixel(picture, renderer.cell_centre(name)) for name in cells}
    assert sampled == {name: lit_colour(shown[name]) for name in cells}
    assert len(set(sampled.values())) == len(cells) == len(cell_names())  # no cell hides another
    board.hardware.leds.off()
    dark = renderer.render(snapshot(board))
    assert {pixel(dark, renderer.cell_centre(name)) for name in cells} == {LED_OFF}


def test_lit_colour_lifts_dim_values_and_keeps_black() -> None:
    assert lit_colour((0, 0, 0)) == (0, 0, 0)
    assert lit_colour((255, 255, 255)) == (255, 255, 255)
    red = lit_colour((127, 0, 0))
    assert red[0] > 127 and red[1:] == (0, 0)


def test_the_oled_image_is_drawn_in_its_frame(board: SimBoard) -> None:
    renderer = BoardRenderer(board.config, 3.0)
    picture = renderer.render(snapshot(board))
    rect = renderer.oled_rect()
    image = board.image()
    lit = next((x, y) for y in range(image.height) for x in range(image.width) if image.getpixel((x, y)))
    dark = next((x, y) for y in range(image.height) for x in range(image.width) if not image.getpixel((x, y)))
    at = lambda p: (rect.left + p[0] * 3 + 1, rect.top + p[1] * 3 + 1)  # noqa: E731  (middle of a 3 px pixel)
    assert sum(pixel(picture, at(lit))) > 500 and sum(pixel(picture, at(dark))) < 60


def test_a_board_without_leds_or_display_still_draws(board: SimBoard) -> None:
    renderer = BoardRenderer(board.config, SCALE)
    picture = renderer.render(snapshot(board).__class__(leds={}, image=None, pressed=frozenset({"roll"})))
    assert pixel(picture, renderer.cell_centre("track.0")) == LED_OFF
    assert picture.get_size() == renderer.size


def test_the_renderer_refuses_a_bad_scale(board: SimBoard) -> None:
    with pytest.raises(ValueError, match="scale must be > 0"):
        BoardRenderer(board.config, 0)


def test_resizing_the_window_redraws_to_fit_and_clicks_still_hit(board: SimBoard, window: SimWindow) -> None:
    window.handle(pygame.event.Event(pygame.VIDEORESIZE, w=700, h=560, size=(700, 560)))
    assert window.renderer.scale == fit_scale(board.config, (700, 560))
    frames(window)
    x, y = window.renderer.at(board.config.button_positions["ok"])
    pos = (x + window.offset[0], y + window.offset[1])
    pygame.event.post(pygame.event.Event(pygame.MOUSEBUTTONDOWN, button=1, pos=pos))
    frames(window)
    assert snapshot(board).pressed == {"ok"}


def test_kiosk_starts_in_the_unfinished_game(tmp_path: Path) -> None:
    first = SimBoard(seed=1, state_dir=tmp_path)
    for _ in range(5):  # Play EXXTRA, 3 players, three people: a game in the journal
        first.tap("ok")
    first.close()
    shot = tmp_path / "kiosk.png"
    assert main(["sim", "--frames", "2", "--kiosk", "--state-dir", str(tmp_path), "--screenshot", str(shot)]) == 0
    picture = pygame.image.load(str(shot))
    renderer = BoardRenderer(first.config)
    seat = pixel(picture, renderer.cell_centre("seat.1"))
    assert seat[2] > seat[1] > seat[0]  # blue: the second player's seat, so the game is back


# --- the screenshots script -------------------------------------------------------------------
def load_script() -> object:
    import importlib.util

    path = Path(__file__).resolve().parents[1] / "scripts" / "screenshots.py"
    spec = importlib.util.spec_from_file_location("screenshots_script", path)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def test_the_screenshots_script_draws_its_scenes(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    script = load_script()
    assert script.main([str(tmp_path), "menu", "exxtra"]) == 0
    assert sorted(p.name for p in tmp_path.iterdir()) == ["exxtra.png", "menu.png"]
    renderer = BoardRenderer(load_board())
    picture = pygame.image.load(str(tmp_path / "exxtra.png"))
    lit = [
        name
        for name in renderer.config.leds.cells
        if name.startswith(("track.", "ladder.")) and pixel(picture, renderer.cell_centre(name)) != LED_OFF
    ]
    assert len(lit) >= 4  # a game in progress: pieces on the track, pairs on the ladder
    with pytest.raises(SystemExit):
        script.main([str(tmp_path), "chess"])
    assert "unknown scene 'chess'" in capsys.readouterr().err
