"""What a board publishes, as pure functions of its application state (docs/fleet.md).

>>> from firmware.loop import EventLoop, FakeClock
>>> from firmware.ui.app import BoardApp
>>> table_state(BoardApp(schedule=EventLoop(FakeClock()).call_later), attract=False)["status"]
'idle'
"""

from __future__ import annotations

from typing import TYPE_CHECKING, TypedDict

from firmware.games import Roll
from firmware.games.registry import find_game

if TYPE_CHECKING:
    from firmware.games.base import Game
    from firmware.table import Table
    from firmware.ui.app import BoardApp

IDLE, ATTRACT, PLAYING, OVER = "idle", "attract", "playing", "over"

# A finished game's result message: its score key is the game's own ("scores", "positions").
ResultMessage = dict[str, object]


class Seat(TypedDict):
    name: str
    bot: str | None


class DiceSeal(TypedDict):
    scheme: str
    commit: str
    word: str | None


class TableState(TypedDict):
    """The `state` topic's message (docs/fleet.md)."""

    status: str
    game: str | None
    title: str | None
    mode: object  # the table's meta "mode", as the app set it
    round: int | None
    rolls: int
    players: list[Seat]
    turn: str | None
    result: ResultMessage | None
    dice: DiceSeal | None


def table_state(app: BoardApp, attract: bool) -> TableState:
    """The table as the café sees it: `status` (idle, attract, playing, over), the game, its
    round, the players and whose turn it is; `result` once the game is over; `dice`, its seal."""
    session = app.session
    if session is None:
        return {
            "status": ATTRACT if attract else IDLE,
            "game": None,
            "title": None,
            "mode": None,
            "round": None,
            "rolls": 0,
            "players": [],
            "turn": None,
            "result": None,
            "dice": None,
        }
    game = session.game
    pending = game.pending()
    over = session.over
    return {
        "status": ATTRACT if attract else OVER if over else PLAYING,
        "game": game.name,
        "title": game.title,
        "mode": session.meta.get("mode"),
        "round": round_of(game),
        "rolls": sum(isinstance(step, Roll) for step in game.history),
        "players": [{"name": p.name, "bot": p.bot} for p in game.players],
        "turn": None if over or pending.player is None else game.players[pending.player].name,
        "result": result_message(session) if over else None,
        "dice": dice_seal(session),
    }


def dice_seal(session: Table) -> DiceSeal | None:
    """The game's dice seal as the café may check it (docs/dice.md): the scheme, the commitment
    and the table's word (null until given, or skipped); null for scripted dice. Never the seed."""
    dice = session.header().get("dice")
    if dice is None:
        return None
    return {"scheme": dice["scheme"], "commit": dice["commit"], "word": dice.get("word")}


def round_of(game: Game) -> int | None:
    """The round being played, counted from 1, as the game's view counts it (None if it has none)."""
    from firmware.ui.gameview import game_view  # only a board with a game in play loads the views

    return game_view(game.name).round_of(game)


def result_message(session: Table) -> ResultMessage:
    """A finished game's result for the fleet: who played, who won, the scores, a summary line."""
    game = session.game
    result = game.result() or {}
    names = [p.name for p in game.players]
    winners = [names[i] for i in result.get("winners", [])]
    key = find_game(game.name).ranking.score
    if len(winners) == 1:
        summary = f"{winners[0]} won {game.title}"
    elif winners:
        summary = f"{' & '.join(winners)} shared {game.title}"
    else:
        summary = f"nobody won {game.title}"
    return {
        "game": game.name,
        "title": game.title,
        "id": session.journal_id,
        "players": names,
        "winners": winners,
        key: result.get(key),
        "rolls": sum(isinstance(step, Roll) for step in game.history),
        "summary": summary,
    }
