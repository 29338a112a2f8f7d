"""Climb: a plug-in game that lights cells of its own (docs/adding-a-game.md, "Cells of its own").

A race up ten steps: each turn a player rolls one die and climbs by it (1–2: one step, 3–4: two,
5–6: three) or rolls once more and climbs by that; the first on the top step wins. The stairs are
the game's own cells, declared in `cells.py` and mapped to LEDs in `board.toml` beside this file,
a description that extends the default build by its stairs and nothing else.
`tests/test_example_cells.py` checks that it needed no line outside this folder.

    xtraboard --game-module examples.climb --board examples/climb/board.toml sim
"""

from __future__ import annotations

from examples.climb.cells import STAIRS
from examples.climb.rules import Climb
from firmware.errors import N_
from firmware.games.registry import GameSpec, Ranking

SPEC = GameSpec(
    Climb,
    view="examples.climb.screens:VIEW",
    words="examples.climb.text:WORDS",
    bots={"easy": "examples.climb.bots:easy"},
    hint="examples.climb.bots:hint_reason",
    ranking=Ranking(score="scores", high_scores=False),  # a race: wins rank
    unit=N_("steps"),
    cells=(STAIRS,),
)
