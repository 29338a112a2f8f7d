"""Pictures of the simulated board for the docs: docs/screenshots/<scene>.png.

    .venv/bin/python scripts/screenshots.py                 # all scenes into docs/screenshots/
    .venv/bin/python scripts/screenshots.py OUT_DIR menu    # only some scenes, elsewhere

"extra-sheet-true-size", "review-true-size" and "learn-true-size" are the display alone: an EXTRA!
sheet, a page of the end-of-game review, a page of Learn EXXTRA, zoomed beside its physical size
on a 96 dpi screen (the default board's panel; sim.truesize).

Each picture comes from a seeded SimBoard (fake clock) driven by button taps, as a person at
the board would press them, so the pictures are the same on every run. A scene whose game
screens are not in the firmware yet is skipped with a note (exit status 1).
"""

from __future__ import annotations

import argparse
import importlib.util
import sys
from collections.abc import Callable
from pathlib import Path

from firmware.games import game_class
from firmware.ui.play import PlayScreen
from sim.app import choose
from sim.board import SimBoard
from sim.screenshot import save_screenshot, save_true_size_image

DEFAULT_DIR = Path(__file__).resolve().parents[1] / "docs" / "screenshots"
SEED = 2024
LIMIT_TAPS = 400  # a scene that needs more taps than this is stuck: say so instead of looping


class SceneError(RuntimeError):
    """A scene did not reach the state it was meant to show."""


# --- driving the board by its buttons ----------------------------------------------------------
def set_up(board: SimBoard, game: str, bots: list[bool]) -> None:
    """Main menu → Play GAME → N players → each seat a person or a bot (RIGHT toggles), OK."""
    choose(board, f"Play {game_class(game).title}")
    choose(board, f"{len(bots)} player{'s' if len(bots) > 1 else ''}")
    for bot in bots:
        if bot:
            board.tap("right")  # Person → Bot
        board.tap("ok")
    board.settle()
    if not isinstance(board.app.screen, PlayScreen):
        raise SceneError(f"{game}: expected the play screen after the seats, got {type(board.app.screen).__name__}")


def play(board: SimBoard, decisions: int) -> None:
    """Play on like a decisive person: ROLL when asked, OK on the first real choice. Stops at
    the next decision after `decisions` were made (bots play in between)."""
    made = 0
    for _ in range(LIMIT_TAPS):
        board.settle()
        session = board.app.session
        screen = board.app.screen
        if session is None or session.over:
            raise SceneError("the game ended before the scene was reached; use fewer decisions")
        if not isinstance(screen, PlayScreen):
            board.tap("ok")  # a sub-screen a choice opened (e.g. turning LEVEL X ones): accept it
        elif session.awaiting_roll:
            board.tap("roll")
        elif screen.choice is not None:
            if made == decisions:
                return
            skip_openers(board, screen)
            board.tap("ok")
            made += 1
    raise SceneError(f"no decision reached after {LIMIT_TAPS} taps")


def skip_openers(board: SimBoard, screen: PlayScreen) -> None:
    """Move past options that open a sub-screen, to the first plain choice."""
    from firmware.ui.play import Open

    for _ in range(len(screen.choice.options)):
        if not isinstance(screen.choice.current.value, Open):
            return
        board.tap("right")


def bright_phase(board: SimBoard) -> None:
    """Wait for the LED cycle's first colour (a blinking seat lit, shared cells in order)."""
    cycle = board.hardware.leds.cycle_s
    period = 12 * cycle  # 1, 2, 3, 4 and 6 colours all start over here
    board.wait(period - board.clock() % period + cycle / 2)


# --- the scenes ------------------------------------------------------------------------------
def menu(board: SimBoard) -> None:
    board.settle()


def exxtra(board: SimBoard) -> None:
    set_up(board, "exxtra", [False, True, False, True])
    play(board, decisions=14)


def levelx(board: SimBoard) -> None:
    set_up(board, "levelx", [False, True, True])
    play(board, decisions=5)


def extra(board: SimBoard) -> None:
    set_up(board, "extra", [False, True])
    play(board, decisions=4)


def extra_sheet(board: SimBoard) -> None:
    set_up(board, "extra", [False, True])
    play(board, decisions=14)  # late in the game: the sheets fill up
    board.tap("roll")  # ROLL while deciding: the decider's whole sheet, then the next player's
    board.tap("roll")
    board.settle()


def exxtra_kicked(board: SimBoard) -> None:
    set_up(board, "exxtra", [False, True, True])
    board.tap("roll")  # Red's roll, placed on rung 5; Blue's 76 on rung 4 kicks it, Green plays on
    board.settle()
    board.tap("ok")
    board.settle()


def extra_sheet_true_size(board: SimBoard) -> None:
    set_up(board, "extra", [False, True])
    play(board, decisions=8)  # the sheets part filled
    board.tap("roll")  # ROLL while deciding: the whole sheet
    board.settle()


def finish(board: SimBoard) -> None:
    """Play on to the result screen like a decisive person (ROLL when asked, else OK)."""
    from firmware.ui.play import ResultScreen

    for _ in range(20 * LIMIT_TAPS):
        board.settle()
        if isinstance(board.app.screen, ResultScreen):
            return
        board.tap("roll" if board.app.session.awaiting_roll else "ok")
    raise SceneError("the game did not end")


def review(board: SimBoard) -> None:
    set_up(board, "exxtra", [False, True, True])
    finish(board)
    for _ in range(LIMIT_TAPS):  # RIGHT to the first player's figures (the review)
        if board.app.screen.page.name == "figures 0 seat 0":
            return
        board.tap("right")
    raise SceneError("the review has no figures page")


def review_true_size(board: SimBoard) -> None:
    review(board)


def learn_true_size(board: SimBoard) -> None:
    """Play EXXTRA → Learn EXXTRA; past its first page, roll: the page on X in a first roll."""
    from firmware.ui.lesson_runner import LessonPage

    choose(board, "Play EXXTRA")
    choose(board, "Learn EXXTRA")
    board.settle()
    board.tap("ok")  # the lesson's first page read
    board.settle()
    board.tap("roll")
    board.settle()
    if not isinstance(board.app.screen, LessonPage):
        raise SceneError(f"learn: expected a lesson page after the first roll, got {type(board.app.screen).__name__}")


# name → (game, seed, how); the seeds were picked for a lively board (pieces spread, rungs taken).
SCENES: dict[str, tuple[str | None, int, Callable[[SimBoard], None]]] = {
    "menu": (None, SEED, menu),
    "exxtra": ("exxtra", 5, exxtra),
    "levelx": ("levelx", SEED, levelx),
    "extra": ("extra", SEED, extra),
    "extra-sheet": ("extra", SEED, extra_sheet),
    "extra-sheet-true-size": ("extra", SEED, extra_sheet_true_size),
    "exxtra-kicked-true-size": ("exxtra", 2, exxtra_kicked),
    "review": ("exxtra", SEED, review),
    "review-true-size": ("exxtra", SEED, review_true_size),
    "learn-true-size": ("exxtra", SEED, learn_true_size),
}
TRUE_SIZE_DPI = 96.0  # the README's picture: what a 96 dpi screen shows at true size


def game_screens_exist(game: str) -> bool:
    return importlib.util.find_spec(f"firmware.games.{game}.screens") is not None


def shoot(name: str, out_dir: Path, seed: int | None = None) -> Path:
    """Play scene `name` on a fresh board (its own seed unless given) and save OUT_DIR/name.png."""
    _, own_seed, how = SCENES[name]
    board = SimBoard(seed=own_seed if seed is None else seed)
    try:
        how(board)
        bright_phase(board)
        if name.endswith("-true-size"):
            return save_true_size_image(board, out_dir / f"{name}.png", TRUE_SIZE_DPI)
        return save_screenshot(board, out_dir / f"{name}.png")
    finally:
        board.close()


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("out_dir", nargs="?", type=Path, default=DEFAULT_DIR, help="where the PNGs go")
    parser.add_argument("scenes", nargs="*", metavar="SCENE", help=f"some of: {', '.join(SCENES)} (default all)")
    parser.add_argument("--seed", type=int, help="dice and bots seed for every scene (default: each its own)")
    args = parser.parse_args(argv)
    unknown = [s for s in args.scenes if s not in SCENES]
    if unknown:
        parser.error(f"unknown scene {unknown[0]!r}; scenes: {', '.join(SCENES)}")
    args.out_dir.mkdir(parents=True, exist_ok=True)
    status = 0
    for name in args.scenes or list(SCENES):
        game = SCENES[name][0]
        if game is not None and not game_screens_exist(game):
            print(f"skipped {name}: firmware/games/{game}/screens.py is not there yet", file=sys.stderr)
            status = 1
            continue
        try:
            print(shoot(name, args.out_dir, args.seed))
        except (SceneError, ValueError) as exc:  # ValueError: the firmware refused a step
            print(f"{name}: {type(exc).__name__}: {exc}", file=sys.stderr)
            status = 1
    return status


if __name__ == "__main__":
    sys.exit(main())
