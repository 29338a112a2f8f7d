"""EXXTRA: the rules engine (`rules`), its screens (`screens`), its bots (`bots`).

The game's entry in the registry (firmware/games/registry.py) is `SPEC`; importing this package
imports the engine only, never the screens (they are named by module path, resolved on first use).
"""

from __future__ import annotations

from firmware.games.exxtra.cells import LADDER, TRACK
from firmware.games.exxtra.rules import Exxtra
from firmware.errors import N_
from firmware.games.registry import GameSpec, Ranking

SPEC = GameSpec(
    Exxtra,
    view="firmware.games.exxtra.screens:VIEW",
    words="firmware.games.exxtra.text:WORDS",
    bots={
        "easy": "firmware.games.exxtra.bots:easy",
        "medium": "firmware.games.exxtra.bots:medium",
        "strong": "firmware.games.exxtra.bots:strong",
    },
    hint="firmware.games.exxtra.bots:hint_reason",
    evaluate="firmware.games.exxtra.bots:evaluate",
    outcome="firmware.games.exxtra.bots:outcome",
    unit=N_("spaces"),  # the final space on the track
    figures="firmware.games.exxtra.figures:figures",
    baseline="firmware.games.exxtra.greedy:greedy",
    ranking=Ranking(score="positions", high_scores=False),  # a race: wins rank, not positions
    lesson="firmware.games.exxtra.lesson:LESSON",
    cells=(TRACK, LADDER),  # besides the board's dice and seats
)
