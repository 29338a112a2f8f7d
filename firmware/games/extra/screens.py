"""EXTRA! on the board: every player's sheet on the OLED, the shared roll on the dice LEDs.

A decision is made in stages (`StagedChoice`: the extra die, the pairs, the column of a new
number), at most 7 presses. While a person decides, a small display shows the focus view (the
rows and EXTRA column the option under the cursor touches, large); ROLL pages to their whole
sheet, then everyone else's. Wide and tall displays show the whole sheet with the option
previewed on it. The sheet's drawing and layouts per size class are in `sheet`.

    >>> sheet_layout(128, 64).size_class
    'small'
"""

from __future__ import annotations

import copy
from collections import Counter, deque
from dataclasses import dataclass, field
from typing import TYPE_CHECKING

from firmware.games.base import DECISION, ROLL, Roll
from firmware.games.extra.rules import Choice, Extra, Sheet
from firmware.games.extra import text
from firmware.games.extra.text import FREE_RIDE, crossed_sums, part_text, part_words
from firmware.i18n import _, pgettext
from firmware.games.extra.sheet import (
    SheetLayout,
    SheetMarks,
    draw_focus,
    draw_sheet,
    sheet_layout,
)
from firmware.ui.kit import (
    CHAR_WIDTH,
    OFF,
    PIP,
    PIPS,
    App,
    Canvas,
    Colour,
    Events,
    Frame,
    GameView,
    LedFrame,
    Option,
    PlaySurface,
    Records,
    ResultPage,
    Standing,
    dim,
    ranked_page,
    standings_page,
    tiny_width,
)
from firmware.ui.kit import Choice as ScreenChoice

if TYPE_CHECKING:
    from firmware.games.base import Game, Step
    from firmware.table import Table


# --- options ---------------------------------------------------------------------------------
Effect = tuple[int | None, int | None, tuple[int, ...]]  # extra face, new number's column, sums crossed


def effect(sheet: Sheet, faces: tuple[int, ...], choice: Choice) -> Effect:
    """What `choice` does to `sheet`: (extra face, column of a new number, sums crossed).

    Choices with the same effect leave the same sheet (a full row takes no cross), so the board
    offers one of them."""
    face = None if choice.extra is None else faces[choice.extra]
    column = choice.column if face is not None and sheet.column_of(face) is None else None
    return face, column, tuple(sorted(crossed_sums(sheet, [faces[a] + faces[b] for a, b in choice.pairs])))


@dataclass(frozen=True)
class StagedOption(Option):
    """An option with its three parts, each (key, text): the extra die ("x3", "free ride"), the
    pairs ("4+6") and the column of a new number (">B", or no part)."""

    parts: tuple[tuple[object, str], ...] = ()  # keys are only compared


STAGE_NAMES = ("EXTRA die", "pairs", "column")


@dataclass
class StagedChoice(ScreenChoice):
    """EXTRA!'s decision in up to three stages: the extra die, then the pairs, then the column of
    a new number. LEFT/RIGHT change the current stage's part (the later parts stay as far as they
    still fit), OK goes on to the next stage and on the last one plays the option, BACK goes a
    stage back; a stage with one possibility is skipped. The cursor is always on one whole
    option, which the sheet previews. Worst case 7 presses: five faces (2 moves + OK), three
    pairings (1 + OK), three columns (1 + OK).

        >>> parts = lambda f, p, c: ((f, f"x{f}"), (p, p), (c, ">" + "AB"[c]))
        >>> staged = StagedChoice([StagedOption(str(i), i, parts=parts(f, p, c))
        ...                        for i, (f, p, c) in enumerate([(1, "4+8", 0), (1, "4+8", 1), (2, "3+8", 0)])])
        >>> staged.stage_name(), staged.move("right"), staged.current.value, staged.stage_name()
        ('EXTRA die', True, 2, 'EXTRA die')
        >>> staged.move("right"), staged.pick(), staged.stage_name(), staged.position()
        (True, False, 'column', '1/2')
    """

    level: int = 0  # which of `stages()` LEFT/RIGHT change
    keys: list[tuple[object, ...]] = field(init=False, repr=False)  # each option's parts' keys

    def __post_init__(self) -> None:
        super().__post_init__()
        if not all(isinstance(o, StagedOption) and len(o.parts) == len(STAGE_NAMES) for o in self.options):
            raise ValueError("a staged choice needs options with one part per stage")
        self.keys = [tuple(key for key, _ in o.parts) for o in self.options if isinstance(o, StagedOption)]

    def _keys(self, index: int) -> tuple[object, ...]:
        return self.keys[index]

    def _values(self, stage: int) -> list[object]:
        """The keys of part `stage` among the options that share the current one's earlier parts."""
        prefix = self._keys(self.index)[:stage]
        values: list[object] = []
        for index in range(len(self.options)):
            keys = self._keys(index)
            if keys[:stage] == prefix and keys[stage] not in values:
                values.append(keys[stage])
        return values

    def stages(self) -> list[int]:
        """The stages with a choice in them, for the option under the cursor."""
        return [stage for stage in range(len(STAGE_NAMES)) if len(self._values(stage)) > 1]

    def stage(self) -> int | None:
        stages = self.stages()
        return stages[min(self.level, len(stages) - 1)] if stages else None

    def stage_name(self) -> str:
        stage = self.stage()
        return "" if stage is None else STAGE_NAMES[stage]

    def move(self, button: str) -> bool:
        stage = self.stage()
        if button not in ("left", "right") or stage is None:
            return False
        values = self._values(stage)
        keys = self._keys(self.index)
        wanted = values[(values.index(keys[stage]) + (1 if button == "right" else -1)) % len(values)]
        group = [
            i
            for i in range(len(self.options))
            if self._keys(i)[:stage] == keys[:stage] and self._keys(i)[stage] == wanted
        ]

        def kept(index: int) -> tuple[bool, ...]:  # the later parts that stay the same, in order
            return tuple(self._keys(index)[s] == keys[s] for s in range(stage + 1, len(keys)))

        self.index = max(group, key=lambda i: (kept(i), -i))
        return True

    def position(self) -> str:
        stage = self.stage()
        if stage is None:
            return "1/1"
        values = self._values(stage)
        return f"{values.index(self._keys(self.index)[stage]) + 1}/{len(values)}"

    def pick(self) -> bool:
        if self.level + 1 >= len(self.stages()):
            return True
        self.level += 1
        return False

    def back(self) -> bool:
        if self.level == 0:
            return False
        self.level = min(self.level, len(self.stages())) - 1
        return True

    def jump(self, index: int) -> None:
        super().jump(index)
        self.level = max(0, len(self.stages()) - 1)

    def route(self, index: int) -> list[str]:
        """The fewest presses from here that play option `index`, its final OK included (for
        benches and tests: a breadth-first search over this choice's own states)."""
        start = (self.index, self.level)
        paths: dict[tuple[int, int], list[str]] = {start: []}
        queue = deque([start])
        while queue:
            state = queue.popleft()
            for button in ("left", "right", "ok", "back"):
                twin = copy.copy(self)
                twin.index, twin.level = state
                if button == "ok" and twin.pick():
                    if twin.index == index:
                        return paths[state] + ["ok"]
                    continue
                if button == "back":
                    twin.back()
                elif button != "ok":
                    twin.move(button)
                if (twin.index, twin.level) not in paths:
                    paths[twin.index, twin.level] = paths[state] + [button]
                    queue.append((twin.index, twin.level))
        raise ValueError(f"option {index} of {len(self.options)} cannot be reached")


# --- the screens ---------------------------------------------------------------------------------
def marks_for(game: Extra, player: int, choice: Choice) -> SheetMarks:
    """The boxes `choice` would cross on `player`'s sheet (and the number it would write)."""
    sheet = game.sheets[player]
    faces = game.faces or ()
    crossed = crossed_sums(sheet, [faces[a] + faces[b] for a, b in choice.pairs])
    if choice.extra is None:
        return SheetMarks(Counter(crossed))
    face = faces[choice.extra]
    owned = sheet.column_of(face)
    if owned is not None:
        return SheetMarks(Counter(crossed), owned)
    return SheetMarks(Counter(crossed), choice.column, number=face, cross=not game.players[player].kids)


def option_parts(option: Option) -> list[str]:
    """The option's parts as the stages choose them: "x3", "4+6", ">B"."""
    if isinstance(option, StagedOption):
        return [text for _, text in option.parts]
    return [option.label, "", ""]


def header(name: str, status: str, room: int) -> str:
    """`name` and `status` within `room` characters. A name is never cut while it fits alone:
    the status gives way (a 10-letter name on 128×64 leaves no room for "ROLL")."""
    if not status:
        return name[:room]
    if len(name) + 1 + len(status) <= room:
        return f"{name} {status}"
    if len(name) <= room:
        return name
    return name[:room]


def header_room(layout: SheetLayout) -> int:
    """Characters of the 3×5 font that fit above the first block's labels and walls."""
    return max(1, (layout.blocks[0].factor_x - 2) // 4)  # 4n - 1 px, 2 px clear of the factors


def draw_option(canvas: Canvas, layout: SheetLayout, parts: list[str], stage: int | None, right: str) -> None:
    """The option under the cursor beside (wide: above block two's walls) or below (tall) the
    sheet, the part LEFT/RIGHT change now inverted (below the sheet in plain words where they
    fit: "column B"), then `right` (its place among the stage's)."""
    parts = [part for part in parts if part] + [right]
    stage_text = parts[stage] if stage is not None and stage < len(parts) - 1 else None
    if layout.size_class == "tall":
        x, y = 0, layout.below + 3
        worded = [
            part_words(part) if index == stage and part == stage_text else part for index, part in enumerate(parts)
        ]
        if (sum(len(part) for part in worded) + len(worded) - 1) * CHAR_WIDTH <= canvas.width:
            parts, stage_text = worded, worded[stage] if stage_text is not None and stage is not None else None
        for index, part in enumerate(parts):
            width = len(part) * CHAR_WIDTH
            if part == stage_text and index == stage:
                canvas.draw.rectangle((x, y, x + width + 1, y + 10), fill=1)
            canvas.text(x + 1, y + 1, part, fill=0 if part == stage_text and index == stage else 1)
            x += width + CHAR_WIDTH
        return
    if layout.size_class != "wide" or len(layout.blocks) < 2:
        return
    block = layout.blocks[1]
    x, limit = block.left, block.factor_x - 2
    parts = [part_text(part, short=True) for part in parts]  # room for the pairs
    for index, part in enumerate(parts):
        if x + tiny_width(part) > limit:
            break
        if index == stage:
            canvas.draw.rectangle((x - 1, 0, x + tiny_width(part), 5), fill=1)
        canvas.tiny(x, 0, part, fill=0 if index == stage else 1)
        x += tiny_width(part) + 5


def sheet_page(
    canvas: Canvas, layout: SheetLayout, sheet: Sheet, marks: SheetMarks | None, name: str, status: str
) -> None:
    """A whole sheet with whose it is and what goes on: in the header, or (tall) below."""
    if layout.size_class == "tall":
        draw_sheet(canvas, sheet, marks, name[: header_room(layout)])
        with canvas.asking():
            canvas.text(0, layout.below + 4, status)
    else:
        draw_sheet(canvas, sheet, marks, header(name, status, header_room(layout)))


@dataclass
class SheetFrame(Frame):
    """An animation frame that also shows `player`'s sheet with `marks` and what was chosen."""

    player: int = 0
    marks: SheetMarks | None = None
    header: str = ""


# --- LEDs --------------------------------------------------------------------------------------
def die_cells(die: int, face: int, colour: Colour, frame: LedFrame) -> None:
    for pip in PIPS[face]:
        frame[f"dice.{die}.{pip}"] = colour


# --- the result ----------------------------------------------------------------------------------
def final_order(session: Table) -> list[int]:
    """The players best total first (seat order among equals): the order of the final sheets."""
    sheets = session.game_as(Extra).sheets
    return sorted(range(len(sheets)), key=lambda p: (-sheets[p].total, p))


def draw_final_sheet(canvas: Canvas, session: Table, player: int, position: str = "") -> None:
    """`player`'s final sheet as a result page: the whole sheet, their name and `position` (the
    page's place, e.g. "2/5")."""
    game = session.game_as(Extra)
    layout = sheet_layout(canvas.width, canvas.height)
    sheet_page(canvas, layout, game.sheets[player], None, session.name(player), position)


# --- the view: what the board asks of EXTRA! (firmware.ui.gameview.GameView) -------------------
class ExtraView(GameView):
    """EXTRA!'s screens, LEDs, words and rules page."""

    rules = text.RULES
    log_by_round = True  # everyone plays each roll: the log is everyone's choices on it

    def options(self, app: App, session: Table) -> list[Option]:
        """One option per distinct effect, ordered by extra face, then sums, then column."""
        game = session.game_as(Extra)
        sheet = game.sheets[game.undecided[0]]
        faces = game.faces or ()
        chosen: dict[Effect, Choice] = {}
        for choice in game.legal_decisions():
            chosen.setdefault(effect(sheet, faces, choice), choice)

        def order(item: tuple[Effect, Choice]) -> tuple[int, list[int], int]:
            (face, column, _pairs), choice = item
            sums = sorted(faces[a] + faces[b] for a, b in choice.pairs)
            return (face or 0, sums, -1 if column is None else column)

        made: list[Option] = []
        for (face, column, _pairs), choice in sorted(chosen.items(), key=order):
            label = text.WORDS.option(session.names, game, choice)
            if label is None:
                continue
            keys = (FREE_RIDE if face is None else face, label.parts[1], column)  # the pairs as shown: "(4)+6"
            made.append(StagedOption(label.text, choice, parts=tuple(zip(keys, label.parts, strict=True))))
        return made

    def draw(self, canvas: Canvas, app: App, session: Table, play: PlaySurface) -> None:
        """While a person decides: on small displays the focus view, on wide and tall ones the whole
        sheet with the option previewed. ROLL pages to the decider's whole sheet (small), then
        everyone else's; otherwise the sheet of whoever rolls or decides."""
        game = session.game_as(Extra)
        names = session.names
        layout = sheet_layout(canvas.width, canvas.height)
        room = header_room(layout)
        current = app.animation.current if app.animation is not None else None
        if isinstance(current, SheetFrame):
            sheet = game.sheets[current.player]
            if layout.size_class == "small" and current.marks is not None:
                draw_focus(canvas, sheet, current.marks, [current.header], None, "", names[current.player])
            else:
                sheet_page(canvas, layout, sheet, current.marks, names[current.player], current.header)
            return
        pending = game.pending()
        if pending.kind not in (ROLL, DECISION) or pending.player is None:
            canvas.title(_("Game over"))
            return
        home = pending.player
        shown = play.view if play.view is not None else home
        sheet = game.sheets[shown]
        choice = play.choice if pending.kind == DECISION else None
        if choice is not None and shown == home:
            option = choice.current
            marks = marks_for(game, home, option.value)
            parts = option_parts(option)
            stage = choice.stage() if isinstance(choice, StagedChoice) else None
            if layout.size_class == "small" and play.view is None:
                draw_focus(canvas, sheet, marks, parts, stage, choice.position(), names[home])
                return
            if layout.size_class in ("wide", "tall"):
                draw_sheet(canvas, sheet, marks, header(names[home], "", room))
                draw_option(canvas, layout, parts, stage, choice.position())
            else:  # the decider's whole sheet: whose it is, then as much of the option as fits;
                # a name too long to leave room for any of it gives way to the option
                short = [part_text(part, short=True) for part in parts if part]
                beside = next(
                    (
                        " ".join(short[:n])
                        for n in range(len(short), 0, -1)
                        if len(names[home]) + 1 + len(" ".join(short[:n])) <= room
                    ),
                    None,
                )
                text = header(names[home], beside, room) if beside else header(" ".join(short), "", room)
                draw_sheet(canvas, sheet, marks, text)
            return
        if shown != home:  # flipping through the sheets
            # Translators: EXTRA!: a sheet's header while flipping through them, "Anna end 2/4" (that
            # player's game has ended) and "Anna done 2/4" (decided this roll); at most 4 letters.
            state = (
                pgettext("EXTRA! sheet", "end")
                if sheet.ended
                else pgettext("EXTRA! sheet", "done")
                if pending.kind == DECISION and shown not in game.undecided
                else pgettext("EXTRA! header", "plays")
                # a bot still deciding says so: its sheet is not empty for good, it has not crossed yet
                if pending.kind == DECISION and game.players[shown].bot
                else ""
            )
            # The name whole first, then the state, then the page: what gives way is the page number.
            position = f"{shown + 1}/{len(names)}"
            room_left = room - len(names[shown]) - 1
            status = next((s for s in (f"{state} {position}".strip(), state, position) if len(s) <= room_left), state)
        elif pending.kind == ROLL:
            waits = app.bot_waits_for()  # a bot's physical dice: a person rolls them; "step" pace: OK
            status = (
                "OK"
                if waits == "ok"
                else "ROLL"
                if waits == "roll"
                else "rolls"
                if session.pending_bot() or app.animation is not None
                else "ROLL"
            )
        else:
            status = "OK" if app.bot_waits_for() == "ok" else "plays"
        if layout.size_class == "tall":  # room for whole words below the sheet
            status = {"ROLL": _("press ROLL"), "rolls": _("rolls..."), "plays": _("plays..."), "OK": _("press OK")}.get(
                status, status
            )
        else:  # in the sheet's header: a word of at most 5 letters (ROLL and OK are the buttons' names)
            # Translators: EXTRA!: in a sheet's header beside the player's name; at most 5 letters.
            status = {
                "rolls": pgettext("EXTRA! header", "rolls"),
                # Translators: EXTRA!: in a sheet's header beside the player's name; at most 5 letters.
                "plays": pgettext("EXTRA! header", "plays"),
            }.get(status, status)
        sheet_page(canvas, layout, sheet, None, names[shown], status)

    def result_lines(self, session: Table, records: Records) -> list[str]:
        """Who won, then every total, best first (`*` marks winners), a line each with the whole
        name (the result page draws them with `ranked_page`, a row per player)."""
        game = session.game_as(Extra)
        result = game.result() or {"scores": [s.total for s in game.sheets], "winners": []}
        scores, winners = result["scores"], result["winners"]
        names = session.names
        if len(names) == 1:
            lines = [
                _("{name}: {score}").format(name=names[0], score=scores[0]),
                _("Won!") if winners else _("Lost (below 0)"),
            ]
            if winners and records.solo_record:
                lines.append(_("New solo record!"))
            return lines
        if len(winners) == 1:
            lines = [_("{name} wins!").format(name=names[winners[0]])]
        else:
            # Translators: the winners of a tie, "Anna & Ben share"; {names} is joined with " & ".
            lines = [_("{names} share").format(names=" & ".join(names[w] for w in winners))]
        ranked = sorted(range(len(names)), key=lambda p: (-scores[p], p))
        return lines + [f"{'*' if p in winners else ' '}{names[p]} {scores[p]}" for p in ranked]

    def scene(self, app: App, session: Table, frame: LedFrame) -> None:
        """Dice: the roll being decided; while a person chooses, the option under the cursor shows
        how it uses the dice: its extra die in the decider's colour, the pair of the lower sum white,
        the other pair dim. Seats: the decider blinks, the roller (while a roll is pending) alternates
        with white, ended players dim."""
        game = session.game_as(Extra)
        pending = game.pending()
        for player in range(len(game.players)):
            colour = app.colour_of(player)
            frame[f"seat.{player}"] = dim(colour) if game.sheets[player].ended else colour
        if pending.kind == ROLL and pending.player is not None:
            frame[f"seat.{pending.player}"] = [app.colour_of(pending.player), PIP]
            return
        if pending.kind != DECISION or pending.player is None or game.faces is None:
            return
        decider = pending.player
        frame[f"seat.{decider}"] = [app.colour_of(decider), OFF]
        for die, face in enumerate(game.faces):
            die_cells(die, face, PIP, frame)
        play = app.play_screen()
        if play is not None and play.choice is not None:
            choice = play.choice.current.value
            if isinstance(choice, Choice):
                faces = game.faces
                second = max(choice.pairs, key=lambda pair: faces[pair[0]] + faces[pair[1]])  # as labelled
                for die in second:
                    die_cells(die, faces[die], dim(PIP), frame)
                if choice.extra is not None:
                    die_cells(choice.extra, game.faces[choice.extra], app.colour_of(decider), frame)

    def animation(self, app: App, session: Table, events: Events) -> list[Frame]:
        """A decision: its new crosses blink on the player's sheet (cross-to-be, crossed) while the
        dice show the extra die in the player's colour; when a player's game ends their seat flashes."""
        game = session.game_as(Extra)
        made = [e for e in events if e["kind"] in ("extra", "free_ride", "cross", "row_full")]
        if not made:
            return []  # a roll: the tumble has shown it
        player = made[0]["player"]
        colour = app.colour_of(player)
        leds: LedFrame = {f"dice.{d}.{p}": OFF for d in range(5) for p in range(7)}
        for die, face in enumerate(game.faces or ()):
            die_cells(die, face, PIP, leds)
        leds[f"seat.{player}"] = colour
        names, column = session.names, None
        header = text.WORDS.caption(names, made[0], events)
        for event in made:
            if event["kind"] == "extra":
                die_cells(event["die"], event["face"], colour, leds)
                column = event["column"] if event["crossed"] else None
        marks = SheetMarks(Counter(e["sum"] for e in made if e["kind"] == "cross"), column, made=True)
        frames: list[Frame] = [SheetFrame(0.2, leds, "", player, shown, header) for shown in (marks, None, marks, None)]
        ended = next((e for e in events if e["kind"] == "ended"), None)
        if ended is not None:
            frames += [
                SheetFrame(
                    0.3, leds | {f"seat.{player}": lit}, "", player, None, text.WORDS.caption(names, ended, events)
                )
                for lit in (OFF, colour, OFF, colour)
            ]
        return frames

    def on_roll(self, app: App, session: Table, play: PlaySurface) -> None:
        """ROLL while a decision is pending: the next page. While a person chooses: their own whole
        sheet, then everyone else's; while a bot decides, everyone else's. After a full round the
        decider's view again."""
        game = session.game_as(Extra)
        pending = game.pending()
        if pending.player is None:
            return
        home = pending.player
        if play.choice is not None and play.view is None:
            play.view = home
            return
        if len(game.players) < 2:
            play.view = None
            return
        shown = play.view if play.view is not None else home
        following = (shown + 1) % len(game.players)
        play.view = None if following == home else following

    def result_pages(self, session: Table, records: Records) -> list[ResultPage]:
        """The result screen's pages: the standings (`result_lines`), then every player's final
        sheet, best total first."""
        title = _("{game}: result").format(game=session.game.title)
        lines = self.result_lines(session, records)
        if len(session.game.players) == 1:  # solo: the score, won or lost, a record
            pages = [standings_page(title, lines)]
        else:  # a row per player, whole names (ranked_page never cuts one)
            game = session.game_as(Extra)
            scores = (game.result() or {"scores": [sheet.total for sheet in game.sheets]})["scores"]
            standings = [
                Standing(
                    1 + sum(other > scores[p] for other in scores), session.colours[p], session.name(p), str(scores[p])
                )
                for p in final_order(session)
            ]
            pages = [ranked_page((title, session.game.title), lines[0], standings)]
        for player in final_order(session):

            def draw(canvas: Canvas, position: str, player: int = player) -> None:
                draw_final_sheet(canvas, session, player, position)

            pages.append(ResultPage(f"sheet {player}", draw))
        return pages

    def legend(self) -> str:
        return _(text.LEGEND)

    def choice(self, options: list[Option]) -> StagedChoice:
        """The play screen's choice for EXTRA!'s options: in stages (see `StagedChoice`)."""
        return StagedChoice(options)

    def on_back(self, app: App, session: Table, play: PlaySurface) -> bool:
        """A short BACK on the play screen: a stage back while a person chooses; False when the
        choice is at its first stage (the press is the board's, not EXTRA!'s)."""
        return isinstance(play.choice, StagedChoice) and play.choice.back()

    def same_choice(self, session: Table, value: object, step: Step) -> bool:
        """Whether the option `value` plays `step` (a hint): the board offers one choice per effect."""
        game = session.game_as(Extra)
        if not isinstance(value, Choice) or not isinstance(step, Choice):
            return False
        sheet = game.sheets[game.undecided[0]]
        faces = game.faces or ()
        return effect(sheet, faces, value) == effect(sheet, faces, step)

    def round_of(self, game: Game) -> int | None:
        """Every player uses each roll: a round is a roll."""
        return max(1, sum(isinstance(step, Roll) for step in game.history))


VIEW = ExtraView()
