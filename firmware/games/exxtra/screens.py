"""EXXTRA on the board: roll, re-roll or accept, pick a free rung; track, ladder and dice LEDs;
the result pages (standings, final track, final ladder).

Layouts per display size class: a short panel (128×32) shows the roll and the option; 128×64
adds the ladder in two lines and every counter's space; a wide one (256×64) adds the owners'
names on the ladder; a tall one (128×128) shows the race as bars under the ladder. A seat is
shown by its colour initial in a white box, never next to a digit it could be read as.
"""

from __future__ import annotations

from contextlib import nullcontext
from typing import TYPE_CHECKING

from firmware.games.base import Roll
from firmware.games.exxtra.cells import LADDER, TRACK
from firmware.games.exxtra.rules import FINISH, Exxtra, Place, Reroll
from firmware.games.exxtra import text
from firmware.i18n import _, ngettext, pgettext
from firmware.ui.kit import (
    CHAR_WIDTH,
    LINE_HEIGHT,
    OFF,
    PLAYER_COLOURS,
    App,
    Canvas,
    Events,
    Frame,
    GameView,
    LedFrame,
    Option,
    PlaySurface,
    Records,
    ResultPage,
    Standing,
    abbreviate,
    clip,
    dim,
    page_title,
    pip_cells,
    ranked_page,
    seat_tag,
)

if TYPE_CHECKING:
    from firmware.games.base import Game
    from firmware.table import Table


STEP_S = 0.15  # one space of a counter's walk
FLASH_S = 0.2


def _name(session: Table, player: int) -> str:
    return session.name(player)


def _ladder_cell(
    canvas: Canvas, x: int, y: int, session: Table, rung: int, *, names: bool, right: int | None = None
) -> int:
    """Rung `rung` at (x, y): "5:64" and its owner's tag (and name, when `names`), "3:---" when
    free; rung 0's several pairs each with its tag as far as they fit, then how many more
    ("0:31[R]42[B]+2"); returns the x after."""
    pairs = session.game_as(Exxtra).ladder[rung]
    if not pairs:
        text = f"{rung}:---"
        canvas.text(x, y, text)
        return x + len(text) * CHAR_WIDTH
    right = canvas.width if right is None else right
    prefix = f"{rung}:"
    for index, pair in enumerate(pairs):
        text = prefix + pair.combination
        left = len(pairs) - index - 1
        more = len(f"+{left}") if left else 0  # room kept to say how many more there are
        if x + (len(text) + 1 + more) * CHAR_WIDTH + 2 > right:
            text = f"{prefix}+{len(pairs) - index}"
            canvas.text(x, y, text)
            return x + len(text) * CHAR_WIDTH
        canvas.text(x, y, text)
        x = seat_tag(canvas, x + len(text) * CHAR_WIDTH + 1, y, session.colours[pair.player])
        name = _name(session, pair.player)
        if names and len(pairs) == 1 and len(name) <= (right - x - 2) // CHAR_WIDTH:  # else the tag says whose
            canvas.text(x + 2, y, name)
            x += 2 + len(name) * CHAR_WIDTH
        x += CHAR_WIDTH // 2
        prefix = ""
    return x


def _draw_positions(canvas: Canvas, session: Table, y: int, *, names: bool) -> None:
    """Every counter's space, seat by seat, spread over the width: tag and number ("[B]21"),
    with the names when they all fit."""
    game = session.game_as(Exxtra)
    count = len(game.players)
    slot = canvas.width // count
    for player, position in enumerate(game.positions):
        x = seat_tag(canvas, player * slot, y, session.colours[player]) + 1
        text = str(position)
        name = _name(session, player)
        if names and (len(name) + 1 + len(text)) * CHAR_WIDTH <= slot - (x - player * slot) - CHAR_WIDTH:
            text = f"{name} {text}"
        canvas.text(x, y, text)


def _draw_race(canvas: Canvas, session: Table, top: int, bottom: int) -> None:
    """Each counter as a bar from the start to its space (the finish is the bar's right end),
    seat by seat between y = `top` and `bottom` (inclusive): tag, bar, space number."""
    game = session.game_as(Exxtra)
    count = len(game.players)
    pitch = min(2 * LINE_HEIGHT, max(LINE_HEIGHT - 1, (bottom + 1 - top) // max(1, count)))
    left = CHAR_WIDTH + 3
    right = canvas.width - 2 * CHAR_WIDTH - 3
    thick = 4 if pitch < 12 else 6
    for player, position in enumerate(game.positions):
        y = top + player * pitch
        if y + LINE_HEIGHT - 1 > bottom + 1:
            break
        seat_tag(canvas, 0, y, session.colours[player])
        bar = y + (LINE_HEIGHT - thick) // 2
        end = left + (right - left) * min(position, FINISH) // FINISH
        canvas.draw.rectangle((left, bar, right, bar + thick - 1), outline=1)  # the track
        canvas.draw.rectangle((left, bar, end, bar + thick - 1), fill=1)  # how far along it
        text = str(position)
        canvas.text(canvas.width - len(text) * CHAR_WIDTH, y, text)


def _order(session: Table) -> list[int]:
    """Players by position, best first (seat order among equals)."""
    positions = session.game_as(Exxtra).positions
    return sorted(range(len(positions)), key=lambda p: -positions[p])


def _track_page(canvas: Canvas, session: Table, position: str) -> None:
    page_title(canvas, _("Final track"), position)
    _draw_race(canvas, session, canvas.line_height, canvas.height - 1)


def _ladder_page(canvas: Canvas, session: Table, position: str) -> None:
    """Rungs 5..0: one a line with the owner's name where the panel has the lines, else two
    columns; rung 0 lists its pairs as far as they fit."""
    page_title(canvas, _("Final ladder"), position)
    top = canvas.line_height  # under the title, in whichever font the panel's class uses
    if canvas.height - top >= 6 * LINE_HEIGHT:
        for row, rung in enumerate(range(5, -1, -1)):
            _ladder_cell(canvas, 0, top + row * LINE_HEIGHT, session, rung, names=True)
        return
    half = canvas.width // 2
    for index, rung in enumerate(range(5, -1, -1)):
        column, row = divmod(index, 3)
        wide = canvas.columns >= 40 or rung == 0
        _ladder_cell(
            canvas,
            column * half,
            top + row * LINE_HEIGHT,
            session,
            rung,
            names=wide,
            right=(column + 1) * half - CHAR_WIDTH,
        )


# --- the view: what the board asks of EXXTRA (firmware.ui.gameview.GameView) -------------------
class ExxtraView(GameView):
    """EXXTRA's screens, LEDs, words and rules page."""

    rules = text.RULES

    def options(self, app: App, session: Table) -> list[Option]:
        """Free rungs from the top (the usual wish) with what each removes; "Roll again" last
        (ROLL does it too)."""
        game = session.game_as(Exxtra)
        legal = game.legal_decisions()
        places = sorted((d for d in legal if isinstance(d, Place)), key=lambda d: -d.rung)
        offered: list[Place | Reroll] = [*places, Reroll()] if Reroll() in legal else list(places)
        result = []
        for decision in offered:
            label = text.WORDS.option(session.names, game, decision)
            if label is not None:
                result.append(Option(label.text, decision, label.detail))
        return result

    def draw(self, canvas: Canvas, app: App, session: Table, play: PlaySurface) -> None:
        game = session.game_as(Exxtra)
        player = game.current_player
        # Translators: EXXTRA: the title's right side, the player's space on the track: "at 12".
        at = pgettext("EXXTRA track", "at {space}").format(space=game.positions[player])
        deciding = play.choice is not None  # the name on top is who decides; a prompt below names its player
        with canvas.asking() if deciding else nullcontext():
            canvas.title(f"{_name(session, player)}", at)
        if game.current_combination is not None and game.current_roll is not None:  # (both or neither)
            # Translators: EXXTRA: which roll of the turn this is, after the roll: "71  (7-1) 1st roll", "roll 2".
            nth = _("1st roll") if game.first_roll else _("roll {n}").format(n=game.rolls_this_turn)
            faces = "-".join(game.current_roll)
            room = canvas.width // CHAR_WIDTH if canvas.size_class == "tall" else canvas.columns
            roll = f"{game.current_combination}  ({faces}) {nth}"
            if len(roll) > room:  # a long "1st roll": one space, then its words cut to stems (deliberate)
                head = f"{game.current_combination} ({faces}) "
                roll = head + abbreviate(nth, room - len(head))
            if canvas.size_class == "tall":  # the small font: the race below needs the room
                canvas.text(0, canvas.line_height + 1, clip(roll, room))
            else:
                canvas.line(1, roll)
        bottom = canvas.lines - 1
        # What the board waits for, on the bottom line (two where it does not fit one): the option
        # with its position, or whole without it, or the prompt.
        below, inverse = play.prompt(), False
        if play.choice is not None:
            option = play.choice.current
            below, inverse = f"<{option.label}{(' ' + option.detail) if option.detail else ''}>", True
            room = canvas.columns if len(below) + 5 <= canvas.columns else canvas.width // CHAR_WIDTH
            if len(below) + 5 <= room:
                below = f"{below:<{room - 4}}{play.choice.position():>4}"
        first = bottom - len(canvas.wrapped(below)) + 1
        if canvas.size_class == "tall":  # the roll, the ladder in two rows (small font), the race as bars
            top = canvas.line_height + LINE_HEIGHT + 1
            for row, rungs in enumerate(((5, 4, 3), (2, 1, 0))):
                x = 0
                for rung in rungs:
                    x = _ladder_cell(canvas, x, top + row * LINE_HEIGHT, session, rung, names=False) + CHAR_WIDTH
            _draw_race(canvas, session, top + 2 * LINE_HEIGHT + 2, first * canvas.line_height - 1)
        elif canvas.lines >= 6 and canvas.columns >= 40:  # wide: the ladder with its owners' names
            third = canvas.width // 3
            for index, rung in enumerate(range(5, -1, -1)):
                row, column = divmod(index, 3)
                _ladder_cell(
                    canvas,
                    column * third,
                    (row + 2) * LINE_HEIGHT,
                    session,
                    rung,
                    names=True,
                    right=(column + 1) * third - CHAR_WIDTH,
                )
            _draw_positions(canvas, session, 4 * LINE_HEIGHT, names=True)
        elif canvas.lines >= 6:  # room for the ladder and the standings; else roll and prompt only
            for row, rungs in ((2, (5, 4, 3)), (3, (2, 1, 0))):
                x = 0
                for rung in rungs:
                    x = _ladder_cell(canvas, x, row * LINE_HEIGHT, session, rung, names=False) + CHAR_WIDTH
            _draw_positions(canvas, session, 4 * LINE_HEIGHT, names=False)
        with canvas.asking():
            canvas.block(bottom, below, inverse=inverse)  # on 128×64, two lines cover the counters' row

    def result_lines(self, session: Table, records: Records) -> list[str]:
        game = session.game_as(Exxtra)
        result = game.result() or {}
        winners = result.get("winners", [])
        lines = [_("{name} wins!").format(name=_name(session, w)) for w in winners]
        lines += [f"{_name(session, p):<12}{game.positions[p]:>3}" for p in _order(session)]
        return lines

    def scene(self, app: App, session: Table, frame: LedFrame) -> None:
        game = session.game_as(Exxtra)
        on_space: dict[int, list[tuple[int, int, int]]] = {}
        for player, position in enumerate(game.positions):
            on_space.setdefault(position, []).append(PLAYER_COLOURS[session.colours[player]])
        for position, colours in on_space.items():
            frame[TRACK.cell(position)] = colours[0] if len(colours) == 1 else colours
        for rung, pairs in enumerate(game.ladder):
            if pairs:
                colours = [PLAYER_COLOURS[session.colours[p.player]] for p in pairs]
                frame[LADDER.cell(rung)] = colours[0] if len(colours) == 1 else colours
        if game.current_roll is not None:
            pip_cells(game.current_roll, frame)
        if not game.is_over():
            colour = PLAYER_COLOURS[session.colours[game.current_player]]
            frame[f"seat.{game.current_player}"] = [colour, dim(colour, 0.15)]

    def animation(self, app: App, session: Table, events: Events) -> list[Frame]:
        frames: list[Frame] = []
        names = session.names
        for event in events:
            kind = event["kind"]
            colour = PLAYER_COLOURS[session.colours[event["player"]]] if "player" in event else OFF
            caption = text.WORDS.caption(names, event, events)
            if kind == "invalid":
                crosses: LedFrame = {}
                pip_cells(("X", "X"), crosses)
                frames += [Frame(FLASH_S, crosses, caption), Frame(FLASH_S, {k: OFF for k in crosses}, caption)] * 2
            elif kind == "move" and event["from"] != event["to"]:
                step = 1 if event["to"] > event["from"] else -1
                for space in range(event["from"] + step, event["to"] + step, step):
                    frames.append(Frame(STEP_S, {TRACK.cell(space): colour}, caption))
            elif kind == "remove":
                frames += [
                    Frame(FLASH_S, {LADDER.cell(event["rung"]): colour}, caption),
                    Frame(FLASH_S, {LADDER.cell(event["rung"]): OFF}, caption),
                ] * 2  # a blink: red would be a player's hue
            elif kind == "win":
                frames += [
                    Frame(FLASH_S, {TRACK.cell(FINISH): colour}, caption),
                    Frame(FLASH_S, {TRACK.cell(FINISH): OFF}, caption),
                ] * 3
        return frames

    def on_roll(self, app: App, session: Table, play: PlaySurface) -> None:
        """ROLL while deciding = roll again, at once (when allowed): one press, as docs/board.md says."""
        if Reroll() in session.game.legal_decisions() and not session.pending_bot():
            app.step(Reroll())
            if app.session is session and session.awaiting_roll and app.animation is None:
                app.roll()

    def result_pages(self, session: Table, records: Records) -> list[ResultPage]:
        """The standings (every player, ranked), the final track (the race as bars) and the final
        ladder (every rung with its pair and owner)."""
        game = session.game_as(Exxtra)
        positions = game.positions
        standings = [
            Standing(
                1 + sum(q > positions[p] for q in positions), session.colours[p], _name(session, p), str(positions[p])
            )
            for p in _order(session)
        ]
        winners = (game.result() or {}).get("winners", [])
        names = " & ".join(_name(session, w) for w in winners)
        # Translators: the result's headline; {names} is one name or several joined with " & ".
        headline = (
            ngettext("{names} wins!", "{names} win!", len(winners)).format(names=names) if winners else _("Game over")
        )
        return [
            ranked_page((_("{game}: result").format(game=game.title), game.title), headline, standings),
            ResultPage("track", lambda canvas, position: _track_page(canvas, session, position)),
            ResultPage("ladder", lambda canvas, position: _ladder_page(canvas, session, position)),
        ]

    def legend(self) -> str:
        return _(text.LEGEND)

    def round_of(self, game: Game) -> int | None:
        """One round is a turn of each player; a turn starts with a roll that is not a reroll."""
        history = game.history
        turns = sum(
            1 for i, step in enumerate(history) if isinstance(step, Roll) and (i == 0 or history[i - 1] != Reroll())
        )
        return (max(turns, 1) - 1) // len(game.players) + 1


VIEW = ExxtraView()
