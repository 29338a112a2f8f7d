"""EXTRA!: the rules engine (`rules`), its screens (`screens`) and the sheet's drawing (`sheet`),
its bots (`bots`) with the strong bot's model, search and learnt tables (`model`, `search`,
`learnt`, reading the data file `learnt.bin`).

The game's entry in the registry (firmware/games/registry.py) is `SPEC`; importing this package
imports the engine only, never the screens (they are named by module path, resolved on first use).
"""

from __future__ import annotations

from firmware.games.extra.rules import Extra
from firmware.games.registry import GameSpec, Ranking

SPEC = GameSpec(
    Extra,
    view="firmware.games.extra.screens:VIEW",
    words="firmware.games.extra.text:WORDS",
    bots={
        "easy": "firmware.games.extra.bots:easy",
        "medium": "firmware.games.extra.bots:medium",
        "strong": "firmware.games.extra.bots:strong",
    },
    anytime=frozenset({"strong"}),  # strong searches for as long as `go movetime` gives it
    hint="firmware.games.extra.bots:hint_reason",
    evaluate="firmware.games.extra.bots:evaluate",
    outcome="firmware.games.extra.bots:outcome",
    figures="firmware.games.extra.figures:figures",
    baseline="firmware.games.extra.greedy:greedy",
    ranking=Ranking(score="scores", solo_record=True, kids_table=True),
    seat_options=("kids",),
    optional_step_keys=frozenset({"column"}),  # a record may leave out or null EXTRA!'s column
    lesson="firmware.games.extra.lesson:LESSON",
)
