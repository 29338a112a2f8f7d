"""LEVEL X in figures (`firmware.games.figures`), from a game's record: per player the chips
of each row 5–10, the pieces they sent home (ousted from an X field), the pieces they lost
(sent home by others, or gone with a closed row), their bonus tiles and lucky-loser turns."""

from __future__ import annotations

from typing import TYPE_CHECKING

from firmware.errors import N_
from firmware.games.figures import FigurePage, figure, replay_events

if TYPE_CHECKING:
    from firmware.games.base import GameRecord
from firmware.games.levelx.rules import ROWS


def figures(record: GameRecord) -> list[FigurePage]:
    """One page: Chips 5-10, Sent home, Pieces lost, Bonus tiles, Lucky loser."""
    seats = len(record["players"])
    chips = [[0] * len(ROWS) for _ in range(seats)]
    sent, lost, lucky = ([0] * seats for _ in range(3))
    tiles: list[list[int]] = [[] for _ in range(seats)]
    for _game, _step, events in replay_events(record):
        for event in events:
            kind = event["kind"]
            if kind == "chip":
                chips[event["player"]][ROWS.index(event["row"])] += 1
            elif kind == "oust":
                sent[event["by"]] += 1
                lost[event["player"]] += 1
            elif kind == "close":
                for player in event["lost"]:
                    lost[player] += 1
            elif kind == "bonus":
                tiles[event["player"]].append(event["tile"])
            elif kind == "turn_ones":
                lucky[event["player"]] += 1
    return [
        FigurePage(
            N_("Rows and pieces"),
            (
                # Translators: the chips a player took in each row 5 to 10, e.g. "3 2 1 0 0 4".
                figure(N_("Chips 5-10"), chips),
                # Translators: other players' pieces this player sent home from an X field.
                figure(N_("Sent home"), sent),
                # Translators: this player's pieces sent home by others or gone with a closed row.
                figure(N_("Pieces lost"), lost),
                figure(N_("Bonus tiles"), tiles),
                # Translators: turns in which the player turned ones (the "lucky loser" rule).
                figure(N_("Lucky loser"), lucky),
            ),
        )
    ]
