"""The typed ways in to the game a table plays, which replaced `type: ignore`s: a game's screens
ask for their own engine, screens that exist only during a game ask for the table in play. Asked
out of turn, each says what is wrong instead of failing later on a missing attribute."""

from __future__ import annotations

import pytest

from firmware.games.exxtra.rules import Exxtra
from firmware.games.levelx.rules import LevelX
from firmware.loop import EventLoop, FakeClock
from firmware.table import Seat, Table
from firmware.ui.app import BoardApp
from firmware.ui.intents import table_in_play


def test_a_table_gives_its_engine_typed_and_refuses_another() -> None:
    table = Table.start("levelx", [Seat("Red", "red"), Seat("Blue", "blue")], seed=1)
    assert table.game_as(LevelX) is table.game
    with pytest.raises(TypeError, match="the table plays levelx, not Exxtra"):
        table.game_as(Exxtra)


def test_the_table_in_play_or_a_clear_error() -> None:
    app = BoardApp(schedule=EventLoop(FakeClock()).call_later)
    with pytest.raises(RuntimeError, match="no table is being played"):
        table_in_play(app)
    app.start_game("levelx", [Seat("Red", "red"), Seat("Blue", "blue")], "play")
    assert table_in_play(app) is app.session
