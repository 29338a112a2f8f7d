"""High die: a toy fourth game, built the way docs/adding-a-game.md says, outside `firmware/`.

Each turn a player rolls one die and keeps it or rolls once more (and keeps that); after two
rounds the highest total wins. `tests/test_adding_a_game.py` follows the walkthrough with it and
reaches every place the built-in games reach.

Load it with `xtraboard --game-module examples.highdie ...`, `XTRABOARD_GAMES=examples.highdie`,
or `register_game(SPEC)` in-process. Importing this package imports the engine only.
"""

from __future__ import annotations

from examples.highdie.rules import HighDie
from firmware.games.registry import GameSpec, Ranking

SPEC = GameSpec(
    HighDie,  # the engine: name, title, player range
    view="examples.highdie.screens:VIEW",  # its screens (imported only when drawn)
    words="examples.highdie.text:WORDS",  # what a step did, in words
    bots={"easy": "examples.highdie.bots:easy"},  # one level: it is also the strongest
    hint="examples.highdie.bots:hint_reason",  # why the strongest level decides as it does
    ranking=Ranking(score="scores", solo_record=True),
)
