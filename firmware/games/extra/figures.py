"""EXTRA! in figures (`firmware.games.figures`), from a game's record: per player each row's
score, then the walls crossed (rows whose crosses went past the penalty wall), their EXTRA
numbers in column order, free rides and the rolls they played."""

from __future__ import annotations

from typing import TYPE_CHECKING

from firmware.errors import N_
from firmware.games.extra.rules import SUMS, WALLS, Extra
from firmware.games.figures import Figure, FigurePage, figure, replay_events

if TYPE_CHECKING:
    from firmware.games.base import GameRecord


def figures(record: GameRecord) -> list[FigurePage]:
    """Two pages: "Rows" (each sum's score) and "EXTRA" (Walls crossed, EXTRA numbers, Free
    rides, Rolls)."""
    seats = len(record["players"])
    walls, rides, rolls = ([0] * seats for _ in range(3))
    game: Extra | None = None
    for played, _step, events in replay_events(record):
        assert isinstance(played, Extra)  # the record is an EXTRA! one: figures are per game
        game = played
        for event in events:
            kind = event["kind"]
            if kind == "cross" and event["box"] == WALLS[event["sum"]]:
                walls[event["player"]] += 1
            elif kind == "free_ride":
                rides[event["player"]] += 1
            if kind in ("extra", "free_ride"):
                rolls[event["player"]] += 1
    sheets = game.sheets if game is not None else Extra([str(p["name"]) for p in record["players"]]).sheets
    numbers = [[n for n in sheet.numbers if n is not None] for sheet in sheets]
    return [
        # Translators: the title of the page of each row's score, beside the player's name.
        FigurePage(
            N_("Rows"), tuple(Figure(f"{s}:", tuple(str(sheet.row_score_of(s)) for sheet in sheets)) for s in SUMS)
        ),
        FigurePage(
            N_("EXTRA table"),
            (
                # Translators: rows whose crosses went past the penalty wall.
                figure(N_("Walls crossed"), walls),
                figure(N_("EXTRA numbers"), numbers),
                figure(N_("Free rides"), rides),
                figure(N_("Rolls played"), rolls),
            ),
        ),
    ]
