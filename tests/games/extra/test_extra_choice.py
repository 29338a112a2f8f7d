"""EXTRA!'s decision in stages (the extra die, the pairs, the column): every legal effect is
offered and reachable, and the worst case over every reachable decision of many seeded games is
under 8 presses, OK presses counted; a hint lands on a whole option that one OK plays; the pip
LEDs show how the option under the cursor uses the dice."""

from __future__ import annotations

import copy
import random
from collections import Counter, deque
from typing import Any

from firmware.bots import choose
from firmware.games.base import Player
from firmware.games.extra.rules import Choice, Extra, Sheet
from firmware.hints import hint
from firmware.dice import SeededDice
from firmware.ui.colours import PIP, PLAYER_COLOURS, dim
from firmware.games.extra import screens as ui
from firmware.ui.play import PlayScreen
from firmware.ui.screen import Option
from firmware.table import Table
from sim.board import SimBoard
from tests.support import decisions_of

RED = PLAYER_COLOURS["red"]


def presses_to_play(options: list[Option]) -> dict[int, int]:
    """The fewest presses (LEFT, RIGHT, OK, BACK; the final OK counted) that play each option,
    from the cursor as the play screen starts it: a breadth-first search over the choice's own
    states (option under the cursor, stage)."""
    start = ui.VIEW.choice(options)
    cost = {(start.index, start.level): 0}
    queue = deque(cost)
    played: dict[int, int] = {}
    while queue:
        state = queue.popleft()
        for button in ("left", "right", "ok", "back"):
            staged = copy.copy(start)
            staged.index, staged.level = state
            if button == "ok":
                if staged.pick():
                    played.setdefault(staged.index, cost[state] + 1)
                    continue
            elif button == "back":
                staged.back()
            else:
                staged.move(button)
            after = (staged.index, staged.level)
            if after not in cost:
                cost[after] = cost[state] + 1
                queue.append(after)
    return played


def decisions(games: int) -> Any:
    """Every decision of `games` seeded games (1-4 seats, some child seats, random and strong
    bots' play), as (game, options)."""
    for seed in range(games):
        rng = random.Random(seed)
        seats = [Player(f"P{i}", kids=rng.random() < 0.2) for i in range(1 + seed % 4)]
        for game in decisions_of(Extra(seats), SeededDice(seed)):
            options = ui.VIEW.options(None, Table(game, ["red"] * len(seats), None))  # type: ignore[arg-type]
            yield game, options
            game.apply(choose(game, rng, "easy" if seed % 3 else "strong"))


def test_every_legal_option_is_played_in_fewer_than_8_presses() -> None:
    worst: Counter[int] = Counter()
    count = 0
    for game, options in decisions(60):
        legal = game.legal_decisions()
        assert all(option.value in legal for option in options)  # legal-only
        played = presses_to_play(options)
        assert sorted(played) == list(range(len(options))), "an option cannot be reached"
        worst[max(played.values())] += 1
        count += 1
    print(f"\n{count} decisions; the worst case per decision (presses: decisions): {dict(sorted(worst.items()))}")
    assert count > 1000 and max(worst) < 8
    assert max(worst) == 7  # a first roll of five faces: 2 moves + OK, 1 + OK, 1 + OK


def test_the_first_roll_takes_the_extra_die_then_the_pairs_then_the_column() -> None:
    game = Extra(["Marie"])
    game.apply(game.parse_step({"roll": [1, 2, 2, 3, 5]}))
    options = ui.VIEW.options(None, Table(game, ["red"], None))  # type: ignore[arg-type]
    staged = ui.VIEW.choice(options)
    assert len(options) == 27 and staged.stage_name() == "EXTRA die" and staged.position() == "1/4"
    staged.move("left")  # the 5
    assert staged.current.label == "3+5 x5>A" and staged.position() == "4/4"
    staged.move("left")  # the 3: pairs and column stay where they fit
    assert staged.current.label == "3+7 x3>A" and staged.position() == "3/4"
    assert not staged.pick() and staged.stage_name() == "pairs" and staged.position() == "1/2"
    staged.move("right")
    assert staged.current.label == "4+6 x3>A"
    assert not staged.pick() and staged.stage_name() == "column"
    staged.move("right")
    assert staged.current.label == "4+6 x3>B" and staged.position() == "2/3"
    assert staged.back() and staged.stage_name() == "pairs"
    staged.move("left")  # a new pairing keeps column B
    assert staged.current.label == "3+7 x3>B"
    assert staged.back() and not staged.back() and staged.stage_name() == "EXTRA die"


def test_a_stage_with_one_possibility_is_skipped() -> None:
    game = Extra(["Marie"])
    game.apply(game.parse_step({"roll": [4, 4, 4, 4, 4]}))
    options = ui.VIEW.options(None, Table(game, ["red"], None))  # type: ignore[arg-type]
    staged = ui.VIEW.choice(options)
    assert [o.label for o in options] == ["8+8 x4>A", "8+8 x4>B", "8+8 x4>C"]
    assert staged.stage_name() == "column" and presses_to_play(options) == {0: 1, 1: 2, 2: 2}


def test_a_hint_points_at_a_whole_option_that_one_ok_plays() -> None:
    board = SimBoard(seed=5)
    try:
        for value in (("play", "extra"), 2):
            while board.app.screen.choice.current.value != value:
                board.tap("right")
            board.tap("ok")
        board.tap("ok")  # two people
        board.tap("ok")
        board.tap("roll")
        board.settle()
        play = board.app.screen
        assert isinstance(play, PlayScreen) and isinstance(play.choice, ui.StagedChoice)
        board.tap("right")
        board.tap("ok")  # mid-way: another extra die, on to the pairs
        session = board.app.session
        game: Extra = session.game  # type: ignore[assignment]
        expected, _ = hint(game.copy(), session.bot_rng())
        board.press("left")  # LEFT and RIGHT together: the hint
        board.press("right")
        board.release("right")
        board.release("left")
        board.wait(0.1)
        assert ui.VIEW.same_choice(session, play.choice.current.value, expected)
        sheet, faces = game.sheets[0], game.faces
        history = len(game.history)
        board.tap("ok")
        assert ui.effect(sheet, faces, game.history[history]) == ui.effect(sheet, faces, expected)  # type: ignore[arg-type]
    finally:
        board.close()


def test_the_pip_leds_show_the_extra_die_and_the_two_pairs_of_the_option_under_the_cursor() -> None:
    board = SimBoard(seed=5)
    try:
        board.app.start_session(Table(Extra(["Marie"]), ["red"], None))  # type: ignore[arg-type]
        board.app.step(Extra.parse_step({"roll": [1, 2, 2, 3, 5]}))
        board.settle()
        play = board.app.screen
        assert isinstance(play, PlayScreen) and play.choice is not None
        for label in ("4+8 x1>A", "3+8 x2>A"):
            while play.choice.current.label != label:
                board.tap("right")
            frame = board.app.frame()
            choice: Choice = play.choice.current.value
            (low, high) = sorted(choice.pairs, key=lambda pair: sum((1, 2, 2, 3, 5)[d] for d in pair))
            assert {frame[f"dice.{d}.3" if (1, 2, 2, 3, 5)[d] % 2 else f"dice.{d}.0"] for d in low} == {PIP}
            assert {frame[f"dice.{d}.3" if (1, 2, 2, 3, 5)[d] % 2 else f"dice.{d}.0"] for d in high} == {dim(PIP)}
            extra = choice.extra
            assert frame[f"dice.{extra}.3" if (1, 2, 2, 3, 5)[extra] % 2 else f"dice.{extra}.0"] == RED
    finally:
        board.close()


def test_the_focus_view_header_never_runs_into_the_position() -> None:
    """For every option of many decisions (and a made-up longest one): the option's parts, as
    drawn, end left of the position at the right ("free ride" gives way to "free", then the
    position goes)."""
    from firmware.games.extra import text
    from firmware.ui.draw import Canvas

    def check(parts: list[str], stage: int | None, position: str) -> None:
        canvas = Canvas((128, 64))
        ui.draw_focus(canvas, Sheet(), ui.SheetMarks(), parts, stage, position)
        drawn = canvas.texts[: len([p for p in parts if p])]
        # the part being chosen may be said in words where the line has room ("extra 2", "column B")
        assert drawn[0] in (parts[0], "free", text.part_words(parts[0]))
        if canvas.texts[len(drawn)] == position:
            assert sum(len(t) + 1 for t in drawn) * 6 <= 128 - len(position) * 6, parts

    seen = 0
    for _, options in decisions(12):
        staged = ui.VIEW.choice(options)
        for index, option in enumerate(options):
            staged.jump(index)
            check(ui.option_parts(option), staged.stage(), staged.position())
            seen += 1
    check(["free ride", "(10)+(12)", ""], 1, "4/4")
    assert seen > 500
