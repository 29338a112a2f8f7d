"""Running a scenario (`sim.scenario.format`) against a board through the small `BoardDriver`
protocol — the simulator's `SimBoard` in CI, a real board on the bench through another driver.

    >>> scenario = load_scenario("tests/scenarios/menu.toml")         # doctest: +SKIP
    >>> run_scenario(scenario, SimBoard(seed=scenario.seed)).passed   # doctest: +SKIP
    True

Taps, holds, bounces and mashing are composed from press, release and wait, with the timings of
`sim.timing`; `run_scenario_file` is `xtraboard sim --headless --scenario FILE`.
"""

from __future__ import annotations

import random
import sys
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any, TextIO

from firmware.dice import ScriptedDice
from firmware.errors import ConfigError
from firmware.hardware.config import HOLD_S
from sim.scenario.format import BoardDriver, Expectation, Scenario, Step, _show, load_scenario
from firmware.state_reader import StateError, same
from sim.timing import BOUNCE_GAP_S, SETTLE_LIMIT_S, SETTLE_POLL_S, TAP_S, hold_press_s

# What a roll with no scripted roll left says: where the rolls come from, and the fix.
SCENARIO_DICE_EMPTY = "the scenario's scripted dice have no roll left; add a dice step before this roll"


@dataclass
class ScenarioResult:
    name: str
    steps: int = 0  # steps run
    expectations: int = 0  # expectations checked
    failure: str | None = None  # "step N (line L): expected …, got …"

    @property
    def passed(self) -> bool:
        return self.failure is None

    def summary(self) -> str:
        verdict = "passed" if self.passed else "failed"
        return f"scenario {self.name}: {self.steps} steps, {self.expectations} expectations, {verdict}"


class StepFailed(Exception):
    """An expectation that did not hold; the message is `expected …, got …`."""


@dataclass
class Runner:
    """Runs steps on a driver, composing taps, holds, bounces and mashing from press, release
    and wait — so a bench driver needs only those."""

    driver: BoardDriver
    hold_s: float = HOLD_S  # the board's long-press time (buttons.hold_s)
    checked: int = 0

    def run_step(self, step: Step) -> None:
        action, d, button = step.action, self.driver, step.button
        if action in ("press", "release", "tap", "hold", "bounce"):
            assert button is not None, "the scenario reader gives every button action its button"
            if action == "press":
                d.press(button)
            elif action == "release":
                d.release(button)
            else:
                for _ in range(step.times):
                    if action == "tap":
                        self.tap(button)
                    elif action == "hold":
                        self.tap(button, step.seconds if step.seconds is not None else hold_press_s(self.hold_s))
                    else:
                        self.bounce(button, step.edges)
        elif action == "wait":
            d.wait(step.seconds or 0.0)
        elif action == "settle":
            self.settle()
        elif action == "dice":
            for roll in step.rolls:
                d.queue_dice(roll)
        elif action == "expect":
            for expectation in step.expectations:
                self.check(expectation)
        elif action == "mash":
            self.mash(step)

    # --- composed inputs ----------------------------------------------------------------------
    def tap(self, button: str, seconds: float = TAP_S) -> None:
        self.driver.press(button)
        self.driver.wait(seconds)
        self.driver.release(button)
        self.driver.wait(TAP_S)

    def bounce(self, button: str, edges: int) -> None:
        """A noisy contact: `edges` level changes a few milliseconds apart, then a clean tap."""
        for i in range(edges):
            (self.driver.press if i % 2 == 0 else self.driver.release)(button)
            self.driver.wait(BOUNCE_GAP_S)
        self.tap(button)

    def settle(self) -> None:
        settle = getattr(self.driver, "settle", None)
        if callable(settle):
            settle()
            return
        waited = 0.0
        while self.driver.state("busy") and waited < SETTLE_LIMIT_S:
            self.driver.wait(SETTLE_POLL_S)
            waited += SETTLE_POLL_S

    # --- expectations ---------------------------------------------------------------------------
    def check(self, expectation: Expectation) -> None:
        self.checked += 1
        got = self.observe(expectation)
        if got is not None:
            raise StepFailed(f"expected {expectation.describe()}, got {got}")

    def observe(self, e: Expectation) -> str | None:
        """None when the expectation holds, else what the board showed instead."""
        d = self.driver
        if e.kind == "led":
            colour = tuple(d.led(e.target))
            return None if colour in e.value else str(colour)
        if e.kind == "text":
            texts = d.screen_text()
            return (
                None if any(e.target in line for line in texts) else " | ".join(map(_show, texts)) or "a blank display"
            )
        if e.kind == "image_sha":
            checksum = d.image_checksum()
            return None if checksum == e.target else checksum or "no image"
        if e.kind == "menu":
            label = d.state("menu")
            if label == e.target:
                return None
            return _show(label) if label is not None else f"no menu on {d.state('screen')}"
        if e.kind == "replays":
            return replay_problem(d.state("record"))
        try:
            value = d.state(e.target)
        except StateError as exc:
            return str(exc)
        if e.value is None:
            return None if value is None else _show(value)
        return None if same(value, e.value) else _show(value)

    # --- bad input ------------------------------------------------------------------------------
    def mash(self, step: Step) -> None:
        """`step.count` random taps, bounces, holds, chords and pauses (seeded); after each one
        the board must not have refused a step and its game's record must still replay."""
        rng = random.Random(f"xtraboard-mash:{step.seed}")
        problems = len(self.driver.state("problems"))
        for n in range(1, step.count + 1):
            what, act = self.mash_action(rng, step.buttons)
            try:
                act()
            except Exception as exc:  # the finding: say which action broke the board
                raise StepFailed(
                    f"no exception during mash action {n} ({what}), got {type(exc).__name__}: {exc}"
                ) from exc
            now = self.driver.state("problems")
            if len(now) > problems:
                raise StepFailed(f"no refused step during mash action {n} ({what}), got {_show(now[problems:])}")
            trouble = replay_problem(self.driver.state("record"), required=False)
            if trouble is not None:
                raise StepFailed(f"the game's record to replay after mash action {n} ({what}), got {trouble}")

    def mash_action(self, rng: random.Random, buttons: Sequence[str]) -> tuple[str, Callable[[], None]]:
        """One random action: what it is, and doing it."""
        d = self.driver
        button = rng.choice(buttons)
        kind = rng.random()
        if kind < 0.4:
            seconds = rng.uniform(0.001, 0.2)  # some taps shorter than the debounce window
            return f"tap {button}", lambda: self.tap(button, seconds)
        if kind < 0.55:
            edges = rng.randint(2, 9)
            return f"bounce {button}", lambda: self.bounce(button, edges)
        if kind < 0.65:
            seconds = self.hold_s + rng.uniform(0.05, 1.0)
            return f"hold {button}", lambda: self.tap(button, seconds)
        if kind < 0.75:
            other, gap, overlap = rng.choice(buttons), rng.uniform(0.0, 0.1), rng.uniform(0.0, 0.3)

            def chord() -> None:
                d.press(button)
                d.wait(gap)
                d.press(other)
                d.wait(overlap)
                d.release(button)
                d.release(other)
                d.wait(TAP_S)

            return f"chord {button}+{other}", chord
        pause = rng.choice((0.0, 0.05, 0.15, 0.4, 1.0))  # lands mid-animation, or lets a bot move
        return f"wait {pause:g}", lambda: d.wait(pause)


def replay_problem(record: Any, *, required: bool = True) -> str | None:
    """None when `record` replays to a game with the same record, else what went wrong."""
    from firmware.records import replay_record

    if record is None:
        return "no game on the board" if required else None
    try:
        replayed = replay_record(record).to_record()
    except ValueError as exc:
        return f"{type(exc).__name__}: {exc}"
    if replayed.get("steps") != record.get("steps") or replayed.get("result") != record.get("result"):
        return "a replay that differs from the game"
    return None


def run_scenario(
    scenario: Scenario, driver: BoardDriver, *, hold_s: float = HOLD_S, out: TextIO | None = None
) -> ScenarioResult:
    """Run every step in order; stop at the first failed expectation (or an exception from the
    board), print `FAIL step N (line L): …` and the summary line."""
    out = out if out is not None else sys.stdout
    runner = Runner(driver, hold_s)
    result = ScenarioResult(scenario.name)
    for step in scenario.steps:
        result.steps += 1
        try:
            runner.run_step(step)
        except StepFailed as exc:
            result.failure = f"{step.where}: {exc}"
        except Exception as exc:  # the board (or a driver) broke: that is the finding
            result.failure = f"{step.where}: {step.action} made the board raise {type(exc).__name__}: {exc}"
        result.expectations = runner.checked
        if result.failure is not None:
            print(f"FAIL {result.failure}", file=out)
            break
    print(result.summary(), file=out)
    return result


def run_scenario_file(
    path: str | Path,
    *,
    board_file: str | Path | None = None,
    screenshot: str | Path | None = None,
    state_dir: str | Path | None = None,
    out: TextIO | None = None,
    display_image: str | Path | None = None,
    language: str | None = None,
) -> int:
    """`xtraboard sim --headless --scenario FILE`: 0 passed, 1 failed, 2 invalid file.
    `board_file` (the command line's --board) wins over the scenario's `board`; `screenshot`
    (the board's picture) and `display_image` (the display's pixels 1:1) are written at the end."""
    from firmware.hardware.config import load_board
    from sim.board import SimBoard

    out = out if out is not None else sys.stdout
    try:
        scenario = load_scenario(path)
        board_path = board_file if board_file is not None else scenario.board
        hold_s = load_board(board_path).buttons.hold_s
    except ConfigError as exc:
        print(f"xtraboard sim: {exc}", file=sys.stderr)
        return 2
    dice = ScriptedDice(empty=SCENARIO_DICE_EMPTY) if scenario.scripted_dice else None
    board = SimBoard(
        board_file=board_path,
        seed=scenario.seed if scenario.secret is None else None,
        state_dir=state_dir,
        dice=dice,
        language=language,
        dice_secret=scenario.secret,
    )
    try:
        result = run_scenario(scenario, board, hold_s=hold_s, out=out)
        if screenshot is not None:
            from sim.screenshot import save_screenshot

            save_screenshot(board, Path(screenshot))
        if display_image is not None:
            from sim.screenshot import save_display_image

            save_display_image(board, Path(display_image))
    finally:
        board.close()
    return 0 if result.passed else 1
