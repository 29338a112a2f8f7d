"""High die on the board: its view (firmware.ui.gameview.GameView). The LEDs show the die's pips
through the board's own dice cells; the game has no board cells of its own."""

from __future__ import annotations

from typing import TYPE_CHECKING

from examples.highdie.rules import ROUNDS, HighDie
from examples.highdie.text import WORDS
from firmware.games.base import Game
from firmware.ui.kit import App, Canvas, GameView, LedFrame, Option, PlaySurface, Records, pip_cells

if TYPE_CHECKING:
    from firmware.table import Table


class HighDieView(GameView):
    """What the board shows of High die."""

    rules = (
        "Roll one die. Keep it, or roll once more and keep that.",
        "Two rounds; what you keep adds up. The highest total wins.",
    )

    def options(self, app: App, table: Table) -> list[Option]:
        labels = [(WORDS.option(table.names, table.game, d), d) for d in table.game.legal_decisions()]
        return [Option(label.text, d) for label, d in labels if label is not None]

    def draw(self, canvas: Canvas, app: App, table: Table, play: PlaySurface) -> None:
        game = _game(table)
        canvas.title(game.title, f"round {game.round_number}/{ROUNDS}")
        canvas.line(1, "  ".join(f"{p.name[:3]} {t}" for p, t in zip(game.players, game.totals)))
        if game.face is not None:
            canvas.line(2, f"Die: {game.face}")
        if play.choice is not None:
            canvas.line(3, "> " + play.choice.current.label)
        canvas.line(canvas.lines - 1, play.prompt())

    def scene(self, app: App, table: Table, frame: LedFrame) -> None:
        face = _game(table).face
        if face is not None:
            pip_cells([face], frame)

    def result_lines(self, table: Table, records: Records) -> list[str]:
        game = _game(table)
        return [f"{p.name}: {t}" for p, t in zip(game.players, game.totals)]

    def round_of(self, game: Game) -> int | None:
        return game.round_number if isinstance(game, HighDie) else None


def _game(table: Table) -> HighDie:
    game = table.game
    assert isinstance(game, HighDie)
    return game


VIEW = HighDieView()
