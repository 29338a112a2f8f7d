"""EXXTRA in figures (`firmware.games.figures`), from a game's record: per player the turns
taken, re-rolls, X faces rolled, pairs sent home (kicked) and lost, and how often each rung
0–5 took their dice."""

from __future__ import annotations

from typing import TYPE_CHECKING

from firmware.errors import N_
from firmware.games.exxtra.rules import TOP_RUNG
from firmware.games.figures import FigurePage, figure, replay_events

if TYPE_CHECKING:
    from firmware.games.base import GameRecord


def figures(record: GameRecord) -> list[FigurePage]:
    """One page: Turns, Re-rolls, X's rolled, Pairs kicked, Pairs lost, Rungs 0-5."""
    seats = len(record["players"])
    turns, rerolls, xs, kicked, lost = ([0] * seats for _ in range(5))
    rungs = [[0] * (TOP_RUNG + 1) for _ in range(seats)]
    for _game, _step, events in replay_events(record):
        for event in events:
            kind, player = event["kind"], int(event.get("player", -1))
            if kind == "roll":
                turns[player] += bool(event["first"])
                xs[player] += list(event["faces"]).count("X")
            elif kind == "reroll":
                rerolls[player] += 1
            elif kind == "place":
                rungs[player][event["rung"]] += 1
            elif kind == "remove":
                lost[player] += 1
                kicked[event["by"]] += 1
    return [
        FigurePage(
            N_("Dice and ladder"),
            (
                figure(N_("Turns"), turns),
                figure(N_("Re-rolls"), rerolls),
                figure(N_("X's rolled"), xs),
                figure(N_("Pairs kicked"), kicked),
                figure(N_("Pairs lost"), lost),
                # Translators: how often each rung 0 to 5 took the player's dice, e.g. "3 1 2 0 4 1".
                figure(N_("Rungs 0-5"), rungs),
            ),
        )
    ]
