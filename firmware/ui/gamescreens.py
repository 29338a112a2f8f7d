"""The contract of a game's screens: what is particular to each game on the board, one module
per game (`firmware/games/<game>/screens.py`), each offering:

- `RULES: str` — the short rules summary shown from the menus;
- `options(app, session) -> list[Option]` — the pending human decision's choices, only legal
  ones, each `Option(label, step)` or `Option(label, Open(screen_factory))`;
- `draw(canvas, app, session, play)` — the play screen (`play.choice`, `play.view`,
  `play.prompt()`);
- `scene(app, session, frame)` — the LED cells for the game's state (colour or list of colours);
- `animation(app, session, events) -> list[Frame]` — what the last step's events look like;
- `on_roll(app, session, play)` — the ROLL button while a decision is pending;
- `result_lines(session) -> list[str]` — the result in a few lines (the default result page);
- `result_pages(session) -> list[ResultPage]` (optional) — the result screen's pages, the
  standings first (`firmware.ui.play.ranked_page`), then the game's own (final track, grid,
  sheets); each `ResultPage(name, draw)` draws a whole page, `draw(canvas, "2/5")`. Without it
  the result screen shows `result_lines`. The screen adds the choice "Rematch" / "Menu";
- optional: `choice(options) -> Choice` — a choice made otherwise than one flat list (EXTRA!'s
  stages); `on_back(app, session, play) -> bool` — a short BACK on the play screen, True when
  the game's screen used it.

`app` is `firmware.ui.intents.App`, `session` a `firmware.table.Table`, `Frame` is
`firmware.ui.animation.Frame`; these modules never import `firmware.ui.app`.
"""

from __future__ import annotations

from typing import Any

from firmware.games.registry import find_game


def game_ui(name: str) -> Any:
    """The screens of game `name`, as its registry entry names them."""
    return find_game(name).view
