"""LEVEL X: the rules engine (`rules`), its screens (`screens`), its bots (`bots`).

The game's entry in the registry (firmware/games/registry.py) is `SPEC`; importing this package
imports the engine only, never the screens (they are named by module path, resolved on first use).
"""

from __future__ import annotations

from firmware.games.levelx.cells import GRID
from firmware.games.levelx.rules import LevelX
from firmware.games.registry import GameSpec, Ranking

SPEC = GameSpec(
    LevelX,
    view="firmware.games.levelx.screens:VIEW",
    words="firmware.games.levelx.text:WORDS",
    bots={
        "easy": "firmware.games.levelx.bots:easy",
        "medium": "firmware.games.levelx.bots:medium",
        "strong": "firmware.games.levelx.bots:strong",
    },
    hint="firmware.games.levelx.bots:hint_reason",
    evaluate="firmware.games.levelx.bots:evaluate",
    outcome="firmware.games.levelx.bots:outcome",
    figures="firmware.games.levelx.figures:figures",
    baseline="firmware.games.levelx.greedy:greedy",
    ranking=Ranking(score="scores"),
    lesson="firmware.games.levelx.lesson:LESSON",
    cells=(GRID,),  # besides the board's dice and seats
)
