"""Presses per decision: how many button presses a person needs to pick what a bot would pick,
for each game, over seeded games played through the board's screens.

Every seat is a person; at each decision a bot (`--level`, default medium) says what it would
play, and the bench presses buttons on the real screens (ButtonEvents into the BoardApp, fake
clock) until the game applied that decision: the fewest presses that play an option doing it,
found by a breadth-first search over copies of the screen's own choice (its LEFT/RIGHT moves,
its OK — which may go on to a next stage — and its BACK), then pressed on the real board; an
option that opens a sub-screen is followed there, and a face-entry screen gets its faces by
the shorter way round. Rolls are not decisions and are not counted.

    $ xtraboard bench ui --games 2
    exxtra_presses_median: 2
    ...
"""

from __future__ import annotations

import argparse
import copy
import random
import statistics
from collections import deque
from collections.abc import Callable, Iterator
from typing import Any

from firmware.games.registry import find_game, game_names
from firmware.hardware.buttons import ButtonEvent
from firmware.loop import EventLoop, FakeClock
from firmware.table import Seat
from firmware.ui.app import BoardApp
from firmware.ui.colours import DEFAULT_ORDER
from firmware.ui.gameview import game_view
from firmware.ui.intents import table_in_play
from firmware.ui.play import FaceEntryScreen

STEP_GUARD = 40  # screens visited for one decision before the bench gives up on it


class Driver:
    """A board app on a fake clock, pressed through ButtonEvents; counts the presses."""

    def __init__(self, game: str, players: int, seed: int) -> None:
        self.clock = FakeClock()
        self.loop = EventLoop(self.clock)
        self.app = BoardApp(schedule=self.loop.call_later, seed=f"bench-ui:{seed}")
        seats = [Seat(DEFAULT_ORDER[i].capitalize(), DEFAULT_ORDER[i]) for i in range(players)]
        self.app.start_game(game, seats, "play")
        self.presses = 0

    def press(self, name: str, times: int = 1) -> None:
        for _ in range(times):
            self.presses += 1
            self.app.button(ButtonEvent(name, "press"))
            if name in ("back", "roll"):  # BACK and ROLL act on release
                self.app.button(ButtonEvent(name, "release"))
            self.settle()

    def settle(self) -> None:
        """Fire timers until only the cue's and notes' are left (animations done)."""
        for _ in range(10_000):
            if self.app.animation is None:
                return
            deadline = self.loop.next_deadline()
            if deadline is None:
                return
            self.clock.now = max(self.clock.now, deadline)
            self.loop.run_pending(self._queued)
        raise RuntimeError("bench ui: the board never came to rest")

    def _queued(self, event: object) -> None:
        if not isinstance(event, ButtonEvent):
            raise TypeError(f"bench ui: the loop's queue holds button events, not {event!r}")
        self.app.button(event)


class Unreachable(Exception):
    """The screens offer no way to the decision (a bug in a screen, or a screen the bench
    does not know how to drive)."""


def _distance(index: int, target: int, count: int) -> tuple[str, int]:
    ahead = (target - index) % count
    return ("right", ahead) if ahead <= count - ahead else ("left", count - ahead)


def _state(choice: Any) -> tuple[Any, ...]:
    """What tells two states of a choice apart: its plain attributes (cursor, stage, ...)."""
    return tuple(sorted((k, v) for k, v in vars(choice).items() if v is None or isinstance(v, (int, str))))


def route(choice: Any, wanted: Callable[[Any], bool]) -> list[str]:
    """The fewest presses that play an option `wanted` accepts, its final OK included: a
    breadth-first search over copies of the screen's own choice, pressed with its own `move`,
    `pick` (OK; a choice without one plays the option at once) and `back` (if it has one)."""
    start = copy.copy(choice)
    seen = {_state(start)}
    queue: deque[tuple[Any, list[str]]] = deque([(start, [])])
    while queue:
        state, path = queue.popleft()
        for button in ("left", "right", "ok", "back"):
            twin = copy.copy(state)
            if button == "ok":
                if getattr(twin, "pick", lambda: True)():
                    if wanted(twin.current.value):
                        return [*path, "ok"]
                    continue
            elif button == "back":
                if not hasattr(twin, "back"):
                    continue  # a plain list: BACK would leave it
                twin.back()
            else:
                twin.move(button)
            if _state(twin) not in seen:
                seen.add(_state(twin))
                queue.append((twin, [*path, button]))
    raise Unreachable(f"no option of {len(choice.options)} plays the decision")


def decide(driver: Driver, step: Any) -> None:
    """Press until the game applied `step` (or an option the game's view says does the same)."""
    app = driver.app
    session = table_in_play(app)
    start = len(session.game.history)
    view = game_view(session.game.name)

    def plays(value: Any) -> bool:
        return value == step or view.same_choice(session, value, step)

    for _ in range(STEP_GUARD):
        if len(session.game.history) > start:  # only options that play `step` were picked
            return
        screen = app.screen
        choice = getattr(screen, "choice", None)
        if choice is not None and getattr(choice, "options", None):
            for button in route(choice, plays):
                driver.press(button)
        elif isinstance(screen, FaceEntryScreen) and len(getattr(step, "faces", ())) == len(screen.values):
            for entry, face in enumerate(step.faces):
                faces = list(screen.choices[entry])
                button, times = _distance(faces.index(screen.values[entry]), faces.index(face), len(faces))
                driver.press(button, times)
                driver.press("ok")
        else:
            raise Unreachable(f"{session.game.name}: no way to {step!r} on {type(screen).__name__}")
    raise Unreachable(f"{session.game.name}: {step!r} not reached after {STEP_GUARD} screens")


def presses_per_decision(game: str, games: int, level: str, seed: int) -> list[int]:
    """The presses each person decision took, over `games` seeded games."""
    spec = find_game(game)
    policy = spec.policy(level)
    counts: list[int] = []
    for number in range(games):
        driver = Driver(game, spec.benchmark_players, seed + number)
        session = table_in_play(driver.app)
        for _ in range(100_000):
            driver.settle()
            if session.over:
                break
            if session.awaiting_roll:
                driver.press("roll")
                continue
            game_state = session.game
            rng = random.Random(f"bench-ui:{seed + number}:{len(game_state.history)}")
            step = policy(game_state.copy(), game_state.legal_decisions(), rng)
            before = driver.presses
            decide(driver, step)
            counts.append(driver.presses - before)
        else:
            raise RuntimeError(f"bench ui: {game} game {number} did not end")
    return counts


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--games", type=int, default=3, help="seeded games per game (default 3)")
    parser.add_argument("--level", default="medium", help="the bot whose decisions are picked (default medium)")
    parser.add_argument("--seed", type=int, default=1, help="the first game's seed (default 1)")


def run(args: Any) -> Iterator[tuple[str, float | int]]:
    if args.games < 1:
        raise SystemExit("bench ui: --games must be at least 1")
    for name in game_names():
        counts = presses_per_decision(name, args.games, args.level, args.seed)
        yield f"{name}_decisions", len(counts)
        yield f"{name}_presses_median", float(statistics.median(counts))
        yield f"{name}_presses_max", max(counts)
