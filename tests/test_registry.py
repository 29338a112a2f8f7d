"""A fourth game needs its own code and one registry entry, nothing else.

"High die", defined entirely in this file, is registered and then reached the way a person and
the rest of the board reach the real games: the main menu, seats, a whole game through button
events, the journal's records and high scores, `records best`, replay, selfplay, the engine
benchmark and scenario dice. docs/architecture.md walks through the same steps.
"""

from __future__ import annotations

import io
import json
import random
from collections.abc import Iterator
from contextlib import redirect_stdout
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest

from firmware.cli import main
from firmware.dice import SeededDice
from firmware.errors import IllegalStepError, RecordError
from firmware.games import Game, Pending, Roll, find_game, game_names, new_game
from firmware.games.base import DECISION, OVER, ROLL, parse_roll, winners_of
from firmware.games.registry import GameSpec, Ranking, games, register_game, unregister_game
from firmware.records import replay_record
from firmware.selfplay import selfplay_games
from firmware.ui.screen import Option
from sim.app import choose
from sim.board import SimBoard
from sim.scenario import parse_scenario

ROUNDS = 2


# --- the toy game: its engine ----------------------------------------------------------------
@dataclass(frozen=True)
class Keep:
    def to_json(self) -> dict[str, Any]:
        return {"do": "keep"}


@dataclass(frozen=True)
class Again:
    def to_json(self) -> dict[str, Any]:
        return {"do": "again"}


class HighDie(Game):
    """Each turn: roll one die, keep it or roll once more (and keep that). Two rounds; the
    highest total wins."""

    name = "highdie"
    title = "High die"
    min_players = 1
    max_players = 3

    def _setup(self) -> None:
        self.totals = [0] * len(self.players)
        self.turns = 0
        self.face: int | None = None
        self.again_used = False
        self.events: list[dict[str, Any]] = []

    @property
    def current(self) -> int:
        return self.turns % len(self.players)

    def pending(self) -> Pending:
        if self.turns >= ROUNDS * len(self.players):
            return Pending(OVER)
        return Pending(DECISION if self.face is not None else ROLL, self.current)

    def dice(self) -> tuple[tuple[int, ...], ...]:
        return ((1, 2, 3, 4, 5, 6),)

    def legal_decisions(self) -> list[Any]:
        if self.face is None or self.pending().kind == OVER:
            return []
        return [Keep()] if self.again_used else [Keep(), Again()]

    def _apply(self, step: Any) -> None:
        if isinstance(step, Roll):
            self.face = step.faces[0]
        elif step not in self.legal_decisions():
            raise IllegalStepError(f"{step} is not allowed now")
        elif isinstance(step, Again):
            self.face, self.again_used = None, True
        else:
            self.totals[self.current] += self.face or 0
            self.face, self.again_used = None, False
            self.turns += 1
        self.events = [{"kind": type(step).__name__.lower()}]

    def result(self) -> dict[str, Any] | None:
        if self.pending().kind != OVER:
            return None
        return {"scores": list(self.totals), "winners": winners_of(self.totals)}

    @classmethod
    def parse_step(cls, data: Any) -> Any:
        if isinstance(data, dict) and "roll" in data:
            return parse_roll(data, 1, int)
        if data == {"do": "keep"}:
            return Keep()
        if data == {"do": "again"}:
            return Again()
        raise RecordError(f"not a High die step: {data!r}")


# --- its screens (the contract of firmware.ui.gamescreens) and its bot ------------------------
class HighDieUI:
    RULES = "High die: roll one die; keep it or roll once more. Two rounds; the highest total wins."

    @staticmethod
    def options(app: Any, session: Any) -> list[Option]:
        return [Option("Keep" if isinstance(d, Keep) else "Roll again", d) for d in session.game.legal_decisions()]

    @staticmethod
    def draw(canvas: Any, app: Any, session: Any, play: Any) -> None:
        game = session.game
        canvas.title(game.title, f"round {min(ROUNDS, game.turns // len(game.players) + 1)}")
        canvas.line(1, "  ".join(f"{p.name[:3]} {t}" for p, t in zip(game.players, game.totals)))
        if game.face is not None:
            canvas.line(2, f"Die: {game.face}")
        if play.choice is not None:
            canvas.line(3, "> " + play.choice.current.label)
        canvas.line(canvas.lines - 1, play.prompt())

    @staticmethod
    def scene(app: Any, session: Any, frame: dict[str, Any]) -> None:
        pass  # no LEDs of its own beyond the seats

    @staticmethod
    def animation(app: Any, session: Any, events: Any) -> list[Any]:
        return []

    @staticmethod
    def on_roll(app: Any, session: Any, play: Any) -> None:
        pass

    @staticmethod
    def result_lines(session: Any) -> list[str]:
        game = session.game
        return [f"{p.name}: {t}" for p, t in zip(game.players, game.totals)]


def keep_high(game: HighDie, decisions: list[Any], rng: random.Random) -> Any:
    return Keep() if (game.face or 0) >= 4 or Again() not in decisions else Again()


SPEC = GameSpec(HighDie, ui=HighDieUI, bots={"easy": keep_high}, ranking=Ranking("scores", solo_record=True))


@pytest.fixture
def toy() -> Iterator[GameSpec]:
    register_game(SPEC)
    yield SPEC
    unregister_game(SPEC.name)


# --- the rest of the board finds it -----------------------------------------------------------
def test_the_registry_describes_the_builtin_games_once() -> None:
    assert game_names() == ("exxtra", "levelx", "extra")
    extra = find_game("extra")
    assert (extra.title, extra.players, len(extra.dice), extra.seat_options) == ("EXTRA!", range(1, 7), 5, ("kids",))
    assert find_game("exxtra").ranking.high_scores is False  # a race
    assert all(spec.levels and spec.rules_text for spec in games())
    with pytest.raises(RecordError, match="unknown game 'go'"):
        find_game("go")


def test_a_registered_game_is_offered_and_played_through_the_buttons(toy: GameSpec, tmp_path: Path) -> None:
    board = SimBoard(seed=3, state_dir=tmp_path)
    assert "Play High die" in [o.label for o in board.app.screen.choice.options]
    choose(board, "Play High die")
    choose(board, "2 players")
    board.tap("right")  # seat 1: person -> bot
    board.tap("ok")
    board.tap("ok")  # seat 2 stays a person
    presses = 0
    while board.app.session is not None and not board.app.session.over and presses < 200:
        board.tap("roll" if board.app.session.awaiting_roll else "ok")
        board.wait(2.0)  # the bot's pace
        presses += 1
    game = board.app.session.game
    assert game.is_over() and "High die: result" in board.app.screen.title

    stored = board.journal.finished()[0]
    assert stored.record["game"] == "highdie" and stored.record["players"][0]["bot"] == "easy"
    assert replay_record(stored.record).result() == game.result()
    best = board.journal.best_scores("highdie")
    assert [e.name for e in best] == [board.app.session.game.players[1].name]  # people only
    board.close()

    out = io.StringIO()
    with redirect_stdout(out):
        assert main(["records", "best", "--state-dir", str(tmp_path), "--game", "highdie"]) == 0
    assert out.getvalue().startswith("High die\n  high scores:\n   1. ")


def test_a_registered_game_has_records_selfplay_bench_and_scenarios(toy: GameSpec) -> None:
    played = list(selfplay_games("highdie", 2, seed=5, count=3))
    assert all(replay_record(g.to_record()).result() == g.result() for g in played)

    out = io.StringIO()
    with redirect_stdout(out):
        assert main(["selfplay", "highdie", "--players", "1", "--seed", "1"]) == 0
    assert json.loads(out.getvalue())["game"] == "highdie"

    from sim.bench.engines import measure

    assert measure("highdie", 0.01)["highdie_games_played"] >= 1

    game = new_game("highdie", ["Solo"])
    game.roll(SeededDice(2))
    assert game.legal_decisions() == [Keep(), Again()]

    text = 'name = "toy"\ndescription = "High die by scripted dice"\ndice = "scripted"\n[[step]]\ndice = [[6]]\n'
    assert parse_scenario(text, Path("toy.toml")).steps[0].rolls == ((6,),)


def test_a_new_game_gets_undo_and_copy_without_writing_them(toy: GameSpec) -> None:
    game = new_game("highdie", ["A", "B"])
    game.apply(Roll((3,)))
    twin = game.copy()
    game.apply(Again())
    game.apply(Roll((6,)))
    game.apply(Keep())
    assert game.totals == [6, 0] and twin.totals == [0, 0] and twin.legal_decisions() == [Keep(), Again()]
    for _ in range(3):
        game.undo()
    assert (game.face, game.again_used, game.totals) == (3, False, [0, 0])
    assert replay_record(game.to_record()).legal_decisions() == game.legal_decisions()
