"""EXXTRA on the board: roll, re-roll or accept, pick a free rung; track, ladder and dice LEDs."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from firmware.games.exxtra import FINISH, Place, Reroll
from firmware.ui.animation import Frame
from firmware.ui.colours import OFF, PLAYER_COLOURS, X_RED, dim
from firmware.ui.draw import Canvas
from firmware.ui.play import pip_cells
from firmware.ui.screen import Option

if TYPE_CHECKING:
    from firmware.ui.intents import App
    from firmware.ui.play import PlayScreen
    from firmware.ui.session import GameSession

RULES = """\
EXXTRA (Knizia), 3-6 players. First to the finish (space 21) wins.
Your turn: if your dice lie on rung r of the ladder, move r spaces and take them back.
Roll die A (1 2 3 4 7 X) and die B (1 2 3 5 6 X). Read the higher face first: 7-1 is 71.
First roll of the turn: X counts 0 (X-X is 00). Later rolls: any X ends the turn and you move back one space per X.
Doubles 1-1, 2-2, 3-3 move you 1, 2, 3 at once.
Roll again as often as you dare (ROLL), or accept: put the dice on rung 0 or any free rung 1-5.
Every pair on a higher rung that is equal or lower than yours goes back to its owner. Rung 0 holds any number of pairs and is never cleared."""

STEP_S = 0.15  # one space of a counter's walk
FLASH_S = 0.2


def options(app: App, session: GameSession) -> list[Option]:
    """Free rungs from the top (the usual wish) with what each removes; "Roll again" last
    (ROLL does it too)."""
    game = session.game
    legal = game.legal_decisions()
    result = []
    for decision in sorted((d for d in legal if isinstance(d, Place)), key=lambda d: -d.rung):
        removed = game.would_remove(decision.rung)
        detail = f"kicks {len(removed)}" if removed else ""
        result.append(Option(f"Rung {decision.rung}", decision, detail))
    if Reroll() in legal:
        result.append(Option("Roll again", Reroll()))
    return result


def on_roll(app: App, session: GameSession, play: PlayScreen) -> None:
    """ROLL while deciding = roll again (when allowed)."""
    if Reroll() in session.game.legal_decisions() and not session.pending_bot():
        app.step(Reroll())


def _name(session: GameSession, player: int) -> str:
    return session.game.players[player].name


def _initial(session: GameSession, player: int) -> str:
    return session.colours[player][0].upper()


def draw(canvas: Canvas, app: App, session: GameSession, play: PlayScreen) -> None:
    game = session.game
    player = game.current_player
    canvas.title(f"{_name(session, player)}", f"at {game.positions[player]}")
    if game.current_combination is not None:
        nth = "1st roll" if game.first_roll else f"roll {game.rolls_this_turn}"
        faces = "-".join(game.current_roll)
        canvas.line(1, f"{game.current_combination}  ({faces}) {nth}")
    if canvas.lines >= 6:  # room for the ladder and the standings; else roll and prompt only
        _draw_ladder(canvas, session)
    bottom = canvas.lines - 1
    if play.choice is not None:
        option = play.choice.current
        text = f"<{option.label}{(' ' + option.detail) if option.detail else ''}>"
        canvas.line(bottom, f"{text:<{canvas.columns - 4}}{play.choice.position():>4}", inverse=True)
    else:
        canvas.line(bottom, play.prompt())


def _draw_ladder(canvas: Canvas, session: GameSession) -> None:
    """Rungs 5..1 and 0 (combination and the owner's colour initial), then every counter."""
    game = session.game
    cells = []
    for rung in range(5, -1, -1):
        pairs = game.ladder[rung]
        if not pairs:
            cells.append(f"{rung}:---")
        elif rung == 0 and len(pairs) > 1:
            cells.append(f"0:x{len(pairs)}")
        else:
            cells.append(f"{rung}:{pairs[0].combination}{_initial(session, pairs[0].player)}")
    canvas.line(2, " ".join(cells[:3]))
    canvas.line(3, " ".join(cells[3:]))
    standings = " ".join(f"{_initial(session, p)}{pos}" for p, pos in enumerate(game.positions))
    canvas.line(4, standings)


def scene(app: App, session: GameSession, frame: dict[str, Any]) -> None:
    game = session.game
    on_space: dict[int, list] = {}
    for player, position in enumerate(game.positions):
        on_space.setdefault(position, []).append(PLAYER_COLOURS[session.colours[player]])
    for position, colours in on_space.items():
        frame[f"track.{position}"] = colours[0] if len(colours) == 1 else colours
    for rung, pairs in enumerate(game.ladder):
        if pairs:
            colours = [PLAYER_COLOURS[session.colours[p.player]] for p in pairs]
            frame[f"ladder.{rung}"] = colours[0] if len(colours) == 1 else colours
    if game.current_roll is not None:
        pip_cells(game.current_roll, frame)
    if not game.is_over():
        colour = PLAYER_COLOURS[session.colours[game.current_player]]
        frame[f"seat.{game.current_player}"] = [colour, dim(colour, 0.15)]


def animation(app: App, session: GameSession, events: list[dict[str, Any]]) -> list[Frame]:
    frames: list[Frame] = []
    for event in events:
        kind = event["kind"]
        who = _name(session, event["player"]) if "player" in event else ""
        colour = PLAYER_COLOURS[session.colours[event["player"]]] if "player" in event else OFF
        if kind == "invalid":
            crosses: dict[str, Any] = {}
            pip_cells(("X", "X"), crosses)
            frames += [Frame(FLASH_S, crosses, f"X! {who} back {event['xs']}"),
                       Frame(FLASH_S, {k: OFF for k in crosses}, f"X! {who} back {event['xs']}")] * 2
        elif kind == "move" and event["from"] != event["to"]:
            caption = {"double": f"Double! +{event['to'] - event['from']}", "rung": f"{who} moves",
                       "x": f"{who} back"}.get(event["cause"], who)
            step = 1 if event["to"] > event["from"] else -1
            for space in range(event["from"] + step, event["to"] + step, step):
                frames.append(Frame(STEP_S, {f"track.{space}": colour}, caption))
        elif kind == "remove":
            caption = f"{event['combination']} off rung {event['rung']}"
            frames += [Frame(FLASH_S, {f"ladder.{event['rung']}": colour}, caption),
                       Frame(FLASH_S, {f"ladder.{event['rung']}": OFF}, caption)] * 2  # a blink: red would be a player's hue
        elif kind == "win":
            frames += [Frame(FLASH_S, {f"track.{FINISH}": colour}, f"{who} wins!"),
                       Frame(FLASH_S, {f"track.{FINISH}": OFF}, f"{who} wins!")] * 3
    return frames


def result_lines(session: GameSession) -> list[str]:
    game = session.game
    result = game.result() or {}
    winners = result.get("winners", [])
    lines = [f"{_name(session, w)} wins!" for w in winners]
    order = sorted(range(len(game.players)), key=lambda p: -game.positions[p])
    lines += [f"{_name(session, p):<12}{game.positions[p]:>3}" for p in order]
    return lines
