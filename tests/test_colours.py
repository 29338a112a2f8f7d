"""The seat colours and the board's signal colours stay apart for every eye, at every brightness.

Colours are compared as the LEDs show them: each game's real LED frames (the app's `frame()`
during seeded bots-only games, animations included) go through the LED chain (`LedChain` on a
`MemoryPixels`) at every brightness the settings allow; the bytes it pushes, divided by the
frame's light scale (the eye adapts to a dim board), are what an eye sees. Eyes: normal, and
protanopia, deuteranopia, tritanopia simulated with Machado et al. (2009) at severity 1.0.
Distance: CIEDE2000. Cells are compared within their group (seats, pieces on the track and
ladder, the grid, the dice): colours that mean different things side by side.
"""

from __future__ import annotations

import itertools
from collections.abc import Iterator
from typing import Any

import pytest

from firmware.hardware.config import load_board
from firmware.hardware.leds import LedChain, MemoryPixels
from firmware.players import SEAT_COLOURS
from firmware.ui.colours import (
    CLOSED,
    CVD_MATRICES,
    DEFAULT_ORDER,
    DIM,
    OFF,
    PALETTES,
    PIP,
    PLAYER_COLOURS,
    VISIONS,
    X_FIELD,
    chroma,
    ciede2000,
    delta_e,
    duty,
    initial,
    led_level,
    simulate,
    painting,
)
from firmware.ui.settings import BRIGHTNESS_CAPS, CHOICES, OperatorSettings, Settings
from sim.app import start_demo
from sim.board import SimBoard

MIN_DELTA_E = 12.0  # CIEDE2000: any two meaningful colours, every eye, every brightness
MIN_DELTA_E_CONTRAST = 20.0
MIN_CHROMA = 25.0  # CIELAB chroma of every seat colour but white: a hue, not a grey  # the high-contrast palette, for normal vision
LEVELS = sorted(
    {led_level(b, c, night) for b in CHOICES["brightness"] for c in BRIGHTNESS_CAPS for night in (False, True)}
)
CELLS = load_board().leds.cells
GROUPS = {"seat": "seats", "track": "pieces", "ladder": "pieces", "grid": "grid", "dice": "dice"}


# --- the colour science against its published references -----------------------------------
@pytest.mark.parametrize(
    "lab1, lab2, expected",
    [  # Sharma, Wu & Dalal (2005), table 1: pairs 1, 7, 17, 25
        ((50.0, 2.6772, -79.7751), (50.0, 0.0, -82.7485), 2.0425),
        ((50.0, 0.0, 0.0), (50.0, -1.0, 2.0), 2.3669),
        ((50.0, 2.5, 0.0), (73.0, 25.0, -18.0), 27.1492),
        ((60.2574, -34.0099, 36.2677), (60.4626, -34.1751, 39.4387), 1.2644),
    ],
)
def test_ciede2000_matches_the_published_test_data(lab1: Any, lab2: Any, expected: float) -> None:
    assert ciede2000(lab1, lab2) == pytest.approx(expected, abs=1e-4)
    assert ciede2000(lab2, lab1) == pytest.approx(expected, abs=1e-4)


def test_the_cvd_matrices_keep_greys_grey_and_merge_red_with_green() -> None:
    for vision in CVD_MATRICES:
        assert simulate((0.5, 0.5, 0.5), vision) == pytest.approx((0.5, 0.5, 0.5), abs=1e-3)
    # the classic confusion: pure red and a matching green are far apart normally, close for red-green eyes
    assert delta_e((255, 0, 0), (130, 110, 0)) > 30
    assert delta_e((255, 0, 0), (130, 110, 0), "deuteranopia") < 10


# --- the palettes -------------------------------------------------------------------------------
def test_every_pair_of_seat_colours_stays_apart_for_every_eye_at_every_brightness() -> None:
    """Players may pick any of the colours, so every pair counts, and the pips too (EXTRA!
    shows the extra die in the decider's colour beside white pips)."""
    colours = dict(PALETTES["default"]) | {"pip": PIP, "x field": X_FIELD, "closed row": CLOSED}
    worst = min(
        (_seen_delta(colours[a], colours[b], level, vision), a, b, level, vision)
        for level in LEVELS
        for vision in VISIONS
        for a, b in itertools.combinations(colours, 2)
        if not {a, b} <= {"pip", "x field", "closed row"}
    )
    assert worst[0] >= MIN_DELTA_E, f"{worst[1]} and {worst[2]} at level {worst[3]} for {worst[4]}: ΔE {worst[0]:.1f}"


def test_every_palette_colours_every_seat_colour_and_no_other() -> None:
    # A player's name may not be a seat colour's (firmware.players checks names against these).
    assert {name: tuple(colours) for name, colours in PALETTES.items()} == {name: SEAT_COLOURS for name in PALETTES}


def test_the_high_contrast_palette_is_far_apart_for_normal_vision() -> None:
    colours = PALETTES["contrast"]
    worst = min((delta_e(colours[a], colours[b]), a, b) for a, b in itertools.combinations(colours, 2))
    assert worst[0] >= MIN_DELTA_E_CONTRAST, worst


def test_markers_have_no_hue_so_they_never_share_one_with_a_piece() -> None:
    for marker in (CLOSED, X_FIELD, DIM, PIP):
        assert len(set(marker)) == 1, marker  # grey or white
    for name, colour in PALETTES["default"].items():
        if name != "white":
            assert chroma(colour) >= MIN_CHROMA, name  # a clear hue


def test_every_colour_has_its_own_letter() -> None:
    for names in (list(PALETTES["default"]), list(DEFAULT_ORDER)):
        assert len({initial(n) for n in names}) == len(names)


def test_the_letters_stay_unmistakable_in_the_oled_font() -> None:
    from firmware.ui.draw import font

    def glyph(letter: str) -> set[tuple[int, int]]:
        mask = font("small").mask(letter)  # the font the screens draw these letters in
        return {(x, y) for x in range(mask.width) for y in range(mask.height) if mask.getpixel((x, y))}

    glyphs = {initial(n): glyph(initial(n)) for n in PALETTES["default"]}
    for a, b in itertools.combinations(glyphs, 2):  # at least a whole stroke (R's leg, B's middle bar)
        assert len(glyphs[a] ^ glyphs[b]) >= 4, f"{a} and {b} differ in only {len(glyphs[a] ^ glyphs[b])} pixels"


def test_no_colour_goes_dark_at_the_lowest_brightness() -> None:
    """A dim colour that rounds to 0 on every channel would be an LED off: a marker lost."""
    lowest = duty(min(LEVELS))
    for colour in (*PALETTES["default"].values(), CLOSED, X_FIELD, DIM, PIP):
        assert any(int(c * lowest) for c in colour), colour


# --- brightness: even steps, a cap that bounds everything ---------------------------------------
def test_brightness_steps_look_even_and_the_cap_bounds_every_setting() -> None:
    levels = CHOICES["brightness"]
    steps = [b - a for a, b in zip(levels, levels[1:])]
    assert max(steps) - min(steps) < 1e-9  # even in perceived level …
    lights = [duty(level) for level in levels]
    assert lights == sorted(lights) and lights[-1] == 1.0  # … which takes more light at each step up
    for cap in BRIGHTNESS_CAPS:
        for brightness in levels:
            for night in (False, True):
                assert led_level(brightness, cap, night) <= cap
                assert led_level(brightness, cap, True) == min(levels[0], cap)


def test_the_board_applies_gamma_night_mode_and_the_cap() -> None:
    board = SimBoard(seed=1)
    leds = board.hardware.leds
    assert leds.brightness == pytest.approx(duty(Settings().brightness))
    board.app.settings = Settings(brightness=1.0)
    board.app.operator = OperatorSettings(brightness_cap=0.55)
    board.board.render()
    assert leds.brightness == pytest.approx(duty(0.55)) and leds.level == pytest.approx(0.55)
    assert not board.hardware.display.night
    board.app.settings = Settings(brightness=1.0, night=True)
    board.board.render()
    assert leds.brightness == pytest.approx(duty(CHOICES["brightness"][0]))
    assert board.hardware.display.night  # the OLED is dimmed too (its bytes: test_hw_display)
    board.close()


def test_a_brightness_kept_as_a_share_of_light_becomes_a_level_no_brighter(tmp_path: Any) -> None:
    from firmware.journal import Journal

    journal = Journal(tmp_path)
    journal.set_setting("brightness", 0.3)  # kept by an earlier version: 30 % of the light
    problems: list[str] = []
    assert Settings.load(journal, problems).brightness == 0.55 and problems == []  # 0.3 ** (1/2.2) = 0.58
    assert duty(0.55) <= 0.3
    journal.close()


def test_the_palette_setting_recolours_the_seats() -> None:
    board = SimBoard(seed=1)
    start_demo(board, "exxtra", 3)
    try:
        board.app.settings = Settings(palette="contrast")
        board.app.changed()
        board.board.render()
        assert board.led("seat.1") == PALETTES["contrast"]["blue"]
        board.app.settings = Settings()
        board.app.changed()
        board.board.render()
        assert board.led("seat.1") == PALETTES["default"]["blue"]
    finally:
        board.close()
    assert PLAYER_COLOURS == PALETTES["default"]  # the board drew in its palette: nobody else's changed


# --- the games' real frames ---------------------------------------------------------------------
def game_frames(game: str, seats: int, seed: int, limit: int = 250) -> Iterator[dict[str, Any]]:
    """The app's LED frame after each change during a seeded bots-only game (at most `limit`)."""
    board = SimBoard(seed=seed)
    try:
        start_demo(board, game, seats)
        seen = -1
        for _ in range(limit):
            if board.app.version != seen:
                seen = board.app.version
                yield board.app.frame()
            session = board.app.session
            if session is None or (session.over and not board.busy()):
                return
            deadline = board.loop.next_deadline()
            board.wait(0.05 if deadline is None else max(0.0, deadline - board.clock()))
    finally:
        board.close()


def shown(frame: dict[str, Any], level: float, t: float) -> tuple[dict[str, tuple[float, float, float]], list[str]]:
    """What an adapted eye sees per cell (linear light, 0–1), and the lit cells that went dark."""
    config = load_board().leds
    pixels = MemoryPixels(config.count, byteorder=config.order)
    chain = LedChain(config.cells, pixels, config.budget_amps, config.ma_per_channel)
    chain.level = level
    chain.show(frame, t)
    leds = pixels.shown()
    seen, dark = {}, []
    for name, cell in config.cells.items():
        value = frame.get(name, OFF)
        colour = leds[cell.leds[0]]
        if isinstance(value, tuple) and value != OFF and colour == OFF:  # (a blink's dim phase may go dark)
            dark.append(name)
        elif colour != OFF and not _dim_phase(value, chain._colour_at(name, value, t)):
            seen[name] = tuple(c / 255.0 / chain.scale for c in colour)
    return seen, dark


@pytest.mark.parametrize("game, seats, seed", [("exxtra", 4, 3), ("levelx", 4, 5), ("extra", 3, 7), ("levelx", 2, 11)])
def test_meaningful_colours_in_every_game_frame_stay_apart(game: str, seats: int, seed: int) -> None:
    worst: tuple[float, str] = (1e9, "")
    frames = 0
    for frame in game_frames(game, seats, seed):
        frames += 1
        for level in (min(LEVELS), 0.55, 1.0):
            for t in (0.0, 0.5):  # both phases of the cells that blink or share
                seen, dark = shown(frame, level, t)
                assert not dark, f"{game}: lit cells went dark at level {level}: {dark}"
                by_group: dict[str, dict[tuple[float, ...], str]] = {}
                for name, colour in seen.items():
                    by_group.setdefault(GROUPS[name.partition(".")[0]], {})[tuple(round(c, 2) for c in colour)] = name
                for group, colours in by_group.items():
                    for a, b in itertools.combinations(colours, 2):
                        for vision in VISIONS:
                            d = delta_e(a, b, vision)  # type: ignore[arg-type]
                            if d < worst[0]:
                                worst = (d, f"{group}: {colours[a]} {a} vs {colours[b]} {b}, {vision}, level {level}")
    assert frames > 10
    assert worst[0] >= MIN_DELTA_E, f"{game}: ΔE {worst[0]:.1f} for {worst[1]}"


def _dim_phase(value: Any, current: tuple[int, int, int]) -> bool:
    """Whether `current` is the dim half of a blink (a fainter copy of another colour the cell
    shows in turn): it means "this cell blinks", not a colour of its own."""
    return isinstance(value, list) and any(
        other != current and all(c <= 0.35 * o + 1 for c, o in zip(current, other)) for other in value
    )


def _seen_delta(first: tuple[int, int, int], second: tuple[int, int, int], level: float, vision: str) -> float:
    light = duty(level)
    a = tuple(int(c * light) / 255.0 / light for c in first)
    b = tuple(int(c * light) / 255.0 / light for c in second)
    return delta_e(a, b, vision)  # type: ignore[arg-type]


def test_player_colours_are_the_default_palette() -> None:
    assert PLAYER_COLOURS == PALETTES["default"]


def test_player_colours_are_the_palette_being_painted_and_only_inside() -> None:
    with painting("contrast"):
        assert PLAYER_COLOURS == PALETTES["contrast"]
        assert list(PLAYER_COLOURS) == list(PALETTES["default"])  # the menus' order whatever the palette
    assert PLAYER_COLOURS == PALETTES["default"]
    with pytest.raises(ValueError, match="no palette"):
        with painting("neon"):
            pass
