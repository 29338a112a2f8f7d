"""Climb on the board: its view (firmware.ui.gameview.GameView). The LEDs show each player on the
stairs (the game's own cells), the die on the board's dice and whose turn it is on the seats."""

from __future__ import annotations

from typing import TYPE_CHECKING

from examples.climb.cells import STAIRS
from examples.climb.rules import TOP, Climb
from examples.climb.text import WORDS
from firmware.games.base import Game
from firmware.ui.kit import (
    PLAYER_COLOURS,
    App,
    Canvas,
    Colour,
    GameView,
    LedFrame,
    Option,
    PlaySurface,
    Records,
    pip_cells,
)

if TYPE_CHECKING:
    from firmware.table import Table


class ClimbView(GameView):
    """What the board shows of Climb."""

    rules = (
        "Roll one die. Climb by it (1-2: one step, 3-4: two, 5-6: three), or roll once more.",
        f"The first on step {TOP}, the top, wins.",
    )

    def options(self, app: App, table: Table) -> list[Option]:
        labels = [(WORDS.option(table.names, table.game, d), d) for d in table.game.legal_decisions()]
        return [Option(label.text, d) for label, d in labels if label is not None]

    def draw(self, canvas: Canvas, app: App, table: Table, play: PlaySurface) -> None:
        game = _game(table)
        canvas.title(game.title, f"top: {TOP}")
        canvas.line(1, "  ".join(f"{p.name[:3]} {s}" for p, s in zip(game.players, game.steps)))
        if game.face is not None:
            canvas.line(2, f"Die: {game.face}")
        if play.choice is not None:
            canvas.line(3, "> " + play.choice.current.label)
        canvas.line(canvas.lines - 1, play.prompt())

    def scene(self, app: App, table: Table, frame: LedFrame) -> None:
        game = _game(table)
        on_step: dict[int, list[Colour]] = {}
        for player, step in enumerate(game.steps):
            on_step.setdefault(step, []).append(PLAYER_COLOURS[table.colours[player]])
        for step, colours in on_step.items():
            frame[STAIRS.cell(step)] = colours[0] if len(colours) == 1 else colours
        if game.face is not None:
            pip_cells([game.face], frame)
        if not game.is_over():
            frame[f"seat.{game.current}"] = PLAYER_COLOURS[table.colours[game.current]]

    def result_lines(self, table: Table, records: Records) -> list[str]:
        game = _game(table)
        return [f"{p.name}: step {s}" for p, s in zip(game.players, game.steps)]

    def round_of(self, game: Game) -> int | None:
        return game.turns // len(game.players) + 1 if isinstance(game, Climb) else None


def _game(table: Table) -> Climb:
    game = table.game
    assert isinstance(game, Climb)
    return game


VIEW = ClimbView()
