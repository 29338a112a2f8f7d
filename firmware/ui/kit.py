"""What a game's screens may use of the board's display code, in one place: a game package
(`firmware/games/<game>/`) imports `firmware.ui.kit` and nothing else of `firmware.ui`
(tests/games/test_game_packages.py checks it), so the rest of `firmware/ui` can change without
touching the games.

- the view: `GameView`, `VIEW`'s base class, with what its hooks are given and give back
  (`App`, `PlaySurface`, `Events`, `LedFrame`, `Records`, `ResultPage`, `Option`, `Choice`,
  `Frame`) and `table_in_play`;
- drawing: `Canvas` and its small font's metrics (`CHAR_WIDTH`, `LINE_HEIGHT`), text fitting
  (`abbreviate`, `clip`, `wrap`, `tiny_width`);
- the shared parts of play and result screens: `page_title`, `seat_tag`, `ROW_PITCH`,
  `Standing`, `ranked_page`, `standings_page`, `Open` (an option that opens a sub-screen),
  `FaceEntryScreen`;
- LEDs: the dice's pips (`PIPS`, `pip_cells`), the seat colours (`PLAYER_COLOURS`), the fixed
  signal colours (`OFF`, `PIP`, `DIM`, `CLOSED`, `X_FIELD`), `Colour` and `dim`;
- words: `colour_name`, `is_default_name` (a game words its moves in its text.py, through
  `firmware.games.words`, which imports no display code).
"""

from __future__ import annotations

from firmware.ui.animation import Frame
from firmware.ui.colours import CLOSED, DIM, OFF, PIP, PLAYER_COLOURS, X_FIELD, Colour, dim
from firmware.ui.draw import CHAR_WIDTH, LINE_HEIGHT, Canvas, abbreviate, clip, tiny_width, wrap
from firmware.ui.gameview import Events, GameView, LedFrame, PlaySurface, Records, ResultPage
from firmware.ui.intents import App, table_in_play
from firmware.ui.names import colour_name, is_default_name
from firmware.ui.pips import PIPS, pip_cells
from firmware.ui.play import (
    ROW_PITCH,
    FaceEntryScreen,
    Open,
    Standing,
    page_title,
    ranked_page,
    seat_tag,
    standings_page,
)
from firmware.ui.screen import Choice, Option

__all__ = [
    "CHAR_WIDTH",
    "CLOSED",
    "DIM",
    "LINE_HEIGHT",
    "OFF",
    "PIP",
    "PIPS",
    "PLAYER_COLOURS",
    "ROW_PITCH",
    "X_FIELD",
    "App",
    "Canvas",
    "Choice",
    "Colour",
    "Events",
    "FaceEntryScreen",
    "Frame",
    "GameView",
    "LedFrame",
    "Open",
    "Option",
    "PlaySurface",
    "Records",
    "ResultPage",
    "Standing",
    "abbreviate",
    "clip",
    "colour_name",
    "dim",
    "is_default_name",
    "page_title",
    "pip_cells",
    "ranked_page",
    "seat_tag",
    "standings_page",
    "table_in_play",
    "tiny_width",
    "wrap",
]
