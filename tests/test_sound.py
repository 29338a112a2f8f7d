"""The optional buzzer: its board description, gpiozero's TonalBuzzer on MockFactory PWM pins,
tunes played on the loop's timers (never blocking), the cues a game calls for, volume and off."""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest
from gpiozero.pins.mock import MockFactory, MockPWMPin
from gpiozero.tones import Tone

from firmware.errors import ConfigError
from firmware.hardware.board import open_hardware
from firmware.hardware.config import BuzzerConfig, default_board_path, load_board
from firmware.hardware.sound import Sound, check_tune, open_buzzer
from firmware.loop import EventLoop, FakeClock
from firmware.ui.cues import TUNES, VOLUMES, CueWatcher, cue
from firmware.ui.settings import Settings
from sim.app import start_demo
from sim.board import SimBoard

CONFIG = load_board()


def board_text(*changes: tuple[str, str]) -> str:
    text = default_board_path().read_text(encoding="utf-8")
    for old, new in changes:
        assert old in text
        text = text.replace(old, new)
    return text


# --- the board description ------------------------------------------------------------------
def test_the_default_board_has_a_buzzer() -> None:
    assert CONFIG.buzzer == BuzzerConfig(pin=27, mid_tone="A5", octaves=2)


@pytest.mark.parametrize(
    "change, message",
    [
        (("pin = 27", "pin = 5"), "buzzer.pin: GPIO5 is already used by buttons.pins.roll"),
        (("pin = 27", "pin = 10"), "buzzer.pin: GPIO10 is reserved: the LED data line"),
        (("pin = 27", "pin = 16"), "buzzer.pin: GPIO16 is already used by buttons.tilt"),
        (('mid_tone = "A5"', 'mid_tone = "H9"'), 'buzzer.mid_tone: "H9" is not a note'),
        (("octaves = 2", "octaves = 5"), "buzzer.octaves: 5 is out of range"),
        (("octaves = 2", "octave = 2"), "buzzer"),
    ],
)
def test_a_bad_buzzer_section_names_the_key(tmp_path: Path, change: tuple[str, str], message: str) -> None:
    path = tmp_path / "board.toml"
    path.write_text(board_text(change), encoding="utf-8")
    with pytest.raises(ConfigError, match=message.replace("(", r"\(")):
        load_board(path)


def test_without_the_section_there_is_no_buzzer(tmp_path: Path) -> None:
    path = tmp_path / "board.toml"
    text = board_text()
    start = text.index("[buzzer]")
    path.write_text(text[:start] + text[text.index("# Every cell the games light") :], encoding="utf-8")
    config = load_board(path)
    assert config.buzzer is None
    with open_hardware(config, "mock") as hardware:
        assert hardware.buzzer is None and hardware.problems == []


# --- the buzzer on MockFactory PWM pins -------------------------------------------------------
def test_every_cue_is_within_the_buzzers_range() -> None:
    for tune in TUNES.values():
        check_tune(tune, CONFIG.buzzer)
    assert len({tune for tune in TUNES.values()}) == len(TUNES)  # each cue its own tune


def test_a_pin_without_pwm_is_noted_and_the_board_plays_on() -> None:
    problems: list[str] = []
    assert open_buzzer(CONFIG.buzzer, MockFactory(), problems) is None  # MockPin: no PWM
    assert problems and problems[0].startswith("buzzer: GPIO27 could not play tones")


@dataclass
class Buzzer:
    """A board's buzzer on gpiozero's PWM mock pins, played on a loop with a fake clock."""

    clock: FakeClock
    loop: EventLoop
    hardware: Any
    pin: Any
    sound: Sound


@pytest.fixture
def buzzer() -> Iterator[Buzzer]:
    factory = MockFactory(pin_class=MockPWMPin)
    clock = FakeClock()
    loop = EventLoop(clock)
    with open_hardware(CONFIG, "mock", pin_factory=factory, clock=clock) as hardware:
        yield Buzzer(clock, loop, hardware, factory.pin(27), Sound(hardware.buzzer, loop.call_later))


def test_a_tune_plays_note_by_note_on_the_loops_timers(buzzer: Buzzer) -> None:
    clock, loop, hardware, pin, sound = buzzer.clock, buzzer.loop, buzzer.hardware, buzzer.pin, buzzer.sound
    sound.play("refused", TUNES["refused"], volume=VOLUMES["soft"])  # A4, rest, A4
    # It returned at once: the first note sounds, the rest waits on a timer.
    assert pin.frequency == pytest.approx(Tone("A4").frequency) and pin.state == VOLUMES["soft"]
    assert sound.playing and loop.next_deadline() == pytest.approx(0.08)
    clock.advance(0.08)
    loop.run_pending(lambda event: None)
    assert pin.frequency is None or pin.state == 0  # the rest: silent
    clock.advance(0.04)
    loop.run_pending(lambda event: None)
    assert pin.frequency == pytest.approx(Tone("A4").frequency) and pin.state == VOLUMES["soft"]
    clock.advance(0.08)
    loop.run_pending(lambda event: None)
    assert not sound.playing and hardware.buzzer.value is None and pin.state == 0
    assert sound.notes == 2 and list(sound.played) == ["refused"]


def test_loud_is_half_duty_and_a_new_cue_cuts_the_last_short(buzzer: Buzzer) -> None:
    clock, loop, pin, sound = buzzer.clock, buzzer.loop, buzzer.pin, buzzer.sound
    sound.play("end", TUNES["end"], volume=VOLUMES["loud"])
    assert pin.state == 0.5 and pin.frequency == pytest.approx(Tone("C6").frequency)
    sound.play("choice", TUNES["choice"], volume=VOLUMES["loud"])
    assert pin.frequency == pytest.approx(Tone("A6").frequency)
    clock.advance(1.0)
    loop.run_pending(lambda event: None)
    assert sound.notes == 2 and not sound.playing  # the fanfare's other notes never came
    with pytest.raises(ValueError, match="volume is the PWM duty"):
        sound.play("choice", TUNES["choice"], volume=0.9)


# --- cues in the game ---------------------------------------------------------------------------
def played_during(game: str, seats: int, settings: Settings | None = None) -> list[str]:
    board = SimBoard(seed=3)
    if settings is not None:
        board.app.settings = settings
    try:
        start_demo(board, game, seats)
        board.settle()
        assert board.app.session.over
        return list(board.board.sound.played)
    finally:
        board.close()


def test_a_game_cues_its_rolls_choices_turns_and_end() -> None:
    played = played_during("extra", 2)
    assert set(played) == {"roll", "choice", "turn", "end"}
    assert played[-1] == "end" and played.count("end") == 1


def test_exxtra_cues_rolls_and_turns() -> None:
    played = played_during("exxtra", 3)
    assert {"roll", "turn"} <= set(played) and played[-1] == "end"


def test_sound_off_plays_nothing() -> None:
    assert played_during("exxtra", 3, Settings(sound="off")) == []


def test_refused_is_a_call_for_screens_and_unknown_cues_are_errors() -> None:
    board = SimBoard(seed=1)
    try:
        cue(board.app, "refused")
        assert list(board.board.sound.played) == ["refused"]
        assert board.hardware.buzzer is not None and board.hardware.buzzer.value is not None  # sounding
        with pytest.raises(ValueError, match="no cue 'boo'"):
            cue(board.app, "boo")
    finally:
        board.close()


def test_a_takeback_is_no_cue() -> None:
    board = SimBoard(seed=3)
    try:
        start_demo(board, "extra", 2)
        board.settle()
        watcher = CueWatcher()
        app = board.app
        watcher.watch(app)
        sound = board.board.sound
        before = list(sound.played)
        app.session.game.history.pop()  # as a takeback shortens the history
        watcher.watch(app)
        assert list(sound.played) == before
    finally:
        board.close()
