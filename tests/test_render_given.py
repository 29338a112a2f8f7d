"""The board's render is a function of what it is given: the app's state and a `Look` (palette,
language, clock). Whatever buttons are mashed, the frame and the image the board pushed equal a
fresh render of the same state with the same look, and neither the process's language nor
another board's palette leaks into a frame."""

from __future__ import annotations

from dataclasses import replace

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from firmware import i18n
from firmware.ui.attract import attract_frame
from firmware.ui.colours import PALETTES, PLAYER_COLOURS
from firmware.ui.look import Look, frame_of, image_of
from sim.board import SimBoard
from sim.timing import TAP_S

BUTTONS = ("roll", "ok", "back", "left", "right")
STEPS = st.one_of(
    st.tuples(st.just("tap"), st.sampled_from(BUTTONS)),
    st.tuples(st.just("hold"), st.sampled_from(BUTTONS)),
    st.tuples(st.just("wait"), st.sampled_from((0.05, 0.5, 2.0, 30.0))),
    st.tuples(st.just("palette"), st.sampled_from(tuple(PALETTES))),
    st.tuples(st.just("language"), st.sampled_from(i18n.LANGUAGES)),
)


def assert_pushed_is_a_fresh_render(board: SimBoard) -> None:
    loop_board, app = board.board, board.app
    look = loop_board.look()
    display = board.hardware.display
    if loop_board.attract_phase is not None:
        assert loop_board._frame == attract_frame(board.config, loop_board.attract_phase, look.palette)
    else:
        assert loop_board._frame == frame_of(app, look)
    assert display is not None and display.image is not None
    fresh = image_of(app, look, display.canvas_size, display.mode)
    assert display.image.tobytes() == fresh.tobytes()


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(steps=st.lists(STEPS, min_size=5, max_size=40))
def test_button_mashing_pushes_what_a_fresh_render_draws(steps: list[tuple[str, object]]) -> None:
    board = SimBoard(seed=7)
    try:
        for verb, arg in steps:
            if verb == "tap":
                board.tap(str(arg))
            elif verb == "hold":
                board.hold(str(arg))
            elif verb == "wait":
                board.wait(float(str(arg)))
            elif verb == "palette":  # as the settings menu sets it (a press: the board renders after it)
                board.app.settings = replace(board.app.settings, palette=str(arg))
                board.app.changed()
                board.board.render()
            else:
                i18n.use(str(arg))  # the process's language (a CLI, another board): not the board's
                board.wait(TAP_S)
            assert_pushed_is_a_fresh_render(board)
    finally:
        board.close()


def test_the_same_state_and_look_draw_the_same_frame_and_image() -> None:
    board = SimBoard(seed=3)
    try:
        for button in ("ok", "ok", "ok", "ok", "ok", "roll"):  # EXXTRA for three, a roll
            board.tap(button)
        board.settle()
        look = Look("contrast", "fr", board.clock())
        display = board.hardware.display
        assert display is not None
        size, mode = display.canvas_size, display.mode
        first, image = frame_of(board.app, look), image_of(board.app, look, size, mode)
        i18n.use("de")
        assert frame_of(board.app, look) == first and image_of(board.app, look, size, mode).tobytes() == image.tobytes()
        assert first["seat.0"] != frame_of(board.app, replace(look, palette="default"))["seat.0"]
        assert PLAYER_COLOURS == PALETTES["default"] and i18n.language() == "de"  # neither render changed them
    finally:
        board.close()


def test_the_board_s_language_changes_the_next_render_without_a_global_switch() -> None:
    board = SimBoard(seed=5)
    try:
        board.tap("ok")  # Play EXXTRA
        board.tap("ok")  # three seats: the first seat's setup, worded when drawn
        assert board.screen_text()[2:4] == ["Colour: red", "ROLL: next colour"]
        board.app.language = "de"  # the board's language, as the settings menus keep it; no i18n.use
        board.app.changed()
        board.board.render()
        assert board.screen_text()[2:4] == ["Farbe: rot", "ROLL: nächste Farbe"]
        assert i18n.language() == "en" and i18n._("Settings") == "Settings"  # the process's is unchanged
    finally:
        board.close()
