"""firmware.fault_mode on a fake clock: the retries' growing delays, each reason said once, the
blink code, and the way out when GPIO answers (the process-level tests: tests/test_faults.py)."""

from __future__ import annotations

from firmware.errors import HardwareError
from firmware.fault_mode import BLINKS, RETRY_MAX_S, FaultBoard, blink_steps, retry_delays
from firmware.hardware.board import GpioMissing, open_outputs
from firmware.hardware.config import default_board_path, load_board
from firmware.loop import EventLoop, FakeClock


def test_the_board_tries_less_and_less_often_says_each_reason_once_and_starts_when_gpio_answers() -> None:
    config = load_board(default_board_path())
    clock = FakeClock()
    loop = EventLoop(clock)
    outputs = open_outputs(config, "mock")
    answers: list[BaseException | None] = [GpioMissing("no gpio")] * 3 + [HardwareError("other")] + [None]
    tried_at: list[float] = []

    def try_buttons() -> None:
        tried_at.append(clock())
        answer = answers.pop(0)
        if answer is not None:
            raise answer

    said: list[str] = []
    board = FaultBoard(GpioMissing("no gpio"), try_buttons, loop, outputs, say=said.append)
    board.start()
    lit: list[bool] = []
    while not board.recovered:
        loop.run_pending(lambda event: None)
        lit.append(any(colour != (0, 0, 0) for colour in outputs.leds.pixels.shown()))  # type: ignore[union-attr]
        clock.advance(0.1)
    assert [round(t) for t in tried_at] == [3, 9, 21, 45, 93]
    assert said[0].startswith("no gpio; the board waits for GPIO") and said[1:] == [
        "other",
        "buttons: GPIO answers after 6 tries; starting the board",
    ]
    assert outputs.display is not None and outputs.display.image is not None and outputs.display.image.getbbox()
    assert True in lit and False in lit
    board.close()
    assert set(outputs.leds.pixels.shown()) == {(0, 0, 0)}  # type: ignore[union-attr]
    outputs.close()


def test_the_delays_double_up_to_the_most_and_the_code_is_blinks_flashes() -> None:
    delays = retry_delays()
    firsts = [next(delays) for _ in range(12)]
    assert firsts == sorted(firsts) and firsts[-1] == RETRY_MAX_S and firsts[1] == 2 * firsts[0]
    assert sum(lit for lit, _ in blink_steps()) == BLINKS


def test_the_fault_screen_fits_every_shipped_display_in_every_language() -> None:
    from firmware.fault_mode import fault_screen
    from firmware.i18n import LANGUAGES

    boards = [default_board_path(), *sorted((default_board_path().parent / "boards").glob("*.toml"))]
    for size in {(cfg.display.width, cfg.display.height) for cfg in map(load_board, boards)}:
        for language in LANGUAGES:
            canvas = fault_screen(size, language)
            assert len(canvas.boxes) >= 2 and not any(box.clipped for box in canvas.boxes), (size, language)
