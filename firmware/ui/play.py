"""The play screen every game shares, physical-dice entry, the tumble and the result screen.

What is particular to a game (its options, drawing, LED scene, animations) lives in
`firmware/ui/games/<game>.py`, behind the contract described in `firmware/ui/games/__init__.py`.
"""

from __future__ import annotations

from dataclasses import dataclass
from collections.abc import Callable, Sequence
from typing import TYPE_CHECKING, Any

from firmware.games import Roll
from firmware.ui.animation import Frame
from firmware.ui.colours import OFF, PIP, X_RED
from firmware.ui.draw import Canvas
from firmware.ui.games import game_ui
from firmware.ui.screen import Choice, Screen

if TYPE_CHECKING:
    from firmware.ui.intents import App
    from firmware.ui.session import GameSession

# Pip LEDs of a die: 0 top-left, 1 top-right, 2 mid-left, 3 centre, 4 mid-right, 5 bottom-left,
# 6 bottom-right. EXXTRA's 7 lights all seven; its X is a red cross.
PIPS: dict[Any, tuple[int, ...]] = {
    1: (3,), 2: (0, 6), 3: (0, 3, 6), 4: (0, 1, 5, 6), 5: (0, 1, 3, 5, 6), 6: (0, 1, 2, 4, 5, 6),
    7: (0, 1, 2, 3, 4, 5, 6), "X": (0, 1, 3, 5, 6),
}


def pip_cells(faces: Any, frame: dict[str, Any], colour: tuple[int, int, int] = PIP) -> None:
    """Light the pip LEDs of dice 0.. for `faces` (ints or EXXTRA's strings)."""
    for die, face in enumerate(faces):
        key = int(face) if isinstance(face, str) and face.isdigit() else face
        for pip in PIPS.get(key, ()):
            frame[f"dice.{die}.{pip}"] = X_RED if key == "X" else colour


@dataclass(frozen=True)
class Open:
    """An option that opens a sub-screen (e.g. turning LEVEL X ones) instead of being a step."""

    screen: Callable[[App], Screen]


class PlayScreen(Screen):
    in_game = True

    def __init__(self, app: App) -> None:
        self.app = app
        self.ui = game_ui(app.session.game.name)
        self.title = app.session.game.title
        self.choice: Choice | None = None
        self.view: int | None = None  # whose sheet is shown, when flipping through (EXTRA!)
        self.position: tuple[int, Any] | None = None  # the game position the screens above belong to

    @property
    def session(self) -> GameSession:
        return self.app.session

    def refresh(self, app: App) -> None:
        """New options for the pending human decision (only legal ones), or none; screens
        opened from an earlier position (dice entry, turning ones) close: an undo or a step
        took that position away, and what they would enter no longer fits."""
        session = self.session
        history = session.game.history
        position = (len(history), history[-1] if history else None)
        if position != self.position:
            self.position = position
            drop_screens_above(app, self)
        pending = session.game.pending()
        self.view = None
        if pending.kind == "decision" and not session.pending_bot():
            make = getattr(self.ui, "choice", Choice)  # a game may choose in stages (EXTRA!)
            self.choice = make(self.ui.options(app, session))
        else:
            self.choice = None

    def press(self, app: App, button: str) -> None:
        session = self.session
        if button == "back":  # a short BACK takes back the last decision of a person...
            back = getattr(self.ui, "on_back", None)  # ...unless the game's screen uses it (EXTRA!: a stage back)
            if back is None or session is None or not back(app, session, self):
                app.takeback()
            return
        if session is None or session.over or session.pending_bot():
            waits = app.bot_waits_for()
            if button == "roll" and waits == "roll":
                app.roll()  # physical dice: a person rolls the bot's dice and keys them in
            elif button == "ok" and waits == "ok":
                app.bot_go()  # the "step" pace: one bot move per OK
            elif button == "roll" and session is not None and not session.over:
                self.ui.on_roll(app, session, self)  # e.g. flip sheets while bots play
            return
        if button == "roll":
            if session.awaiting_roll:
                app.roll()
            else:
                self.ui.on_roll(app, session, self)
        elif button in ("left", "right") and self.choice is not None:
            self.choice.move(button)
            self.view = None
        elif button == "ok" and self.choice is not None and self.choice.pick():
            value = self.choice.current.value
            if isinstance(value, Open):
                app.push(value.screen(app))
            else:
                app.step(value)

    def point_at(self, step: Any) -> bool:
        """Move the cursor to the option that plays `step` (a hint): the option holding it, else
        one the game's UI says does the same (`same_choice`, optional). False if none does."""
        if self.choice is None:
            return False
        same = getattr(self.ui, "same_choice", None)
        for test in (lambda value: value == step,
                     lambda value: same is not None and same(self.session, value, step)):
            for index, option in enumerate(self.choice.options):
                if test(option.value):
                    self.choice.jump(index)
                    self.view = None
                    return True
        return False

    def draw(self, canvas: Canvas) -> None:
        self.ui.draw(canvas, self.app, self.session, self)

    def prompt(self) -> str:
        """The bottom line: what the board waits for."""
        session = self.session
        pending = session.game.pending()
        name = session.game.players[pending.player].name if pending.player is not None else ""
        if pending.kind == "over":
            return "Game over"
        if session.pending_bot():
            waits = self.app.bot_waits_for()
            if waits == "roll":
                return f"Roll for {name}: ROLL"
            return f"{name} (bot): OK to play" if waits == "ok" else f"{name} (bot) plays..."
        if pending.kind == "roll":
            return f"{name}: press ROLL"
        return ""


def drop_screens_above(app: App, play: PlayScreen) -> None:
    """Close the in-game screens stacked above `play` (they enter something for one position);
    notes and menus stay."""
    if play not in app.stack:
        return
    above = app.stack.index(play) + 1
    kept = [s for s in app.stack[above:] if not s.in_game]
    if len(kept) != len(app.stack) - above:
        app.stack[above:] = kept
        app.changed()


class FaceEntryScreen(Screen):
    """Set one face per entry: LEFT/RIGHT cycle the current entry's `choices`, OK goes on and,
    after the last entry, calls `finish(app, values)`; BACK returns to the previous entry (or
    cancels). Physical dice and LEVEL X's turned ones are both entered this way."""

    in_game = True

    def __init__(self, choices: Sequence[Sequence[Any]], values: list[Any],
                 finish: Callable[[App, list[Any]], None]) -> None:
        self.choices = choices
        self.values = values
        self.finish = finish
        self.index = 0

    def press(self, app: App, button: str) -> None:
        if button in ("left", "right"):
            faces = list(self.choices[self.index])
            step = 1 if button == "right" else -1
            self.values[self.index] = faces[(faces.index(self.values[self.index]) + step) % len(faces)]
        elif button == "ok":
            if self.index + 1 < len(self.values):
                self.index += 1
            else:
                app.pop()
                self.finish(app, list(self.values))
        elif button == "back":
            if self.index:
                self.index -= 1
            else:
                app.pop()


class DiceEntryScreen(FaceEntryScreen):
    """Physical dice: the players key in the faces they rolled, die by die."""

    title = "Enter dice"

    def __init__(self, app: App) -> None:
        dice = app.session.game.dice()
        super().__init__(dice, [faces[0] for faces in dice], lambda a, faces: a.step(Roll(tuple(faces))))

    def draw(self, canvas: Canvas) -> None:
        canvas.title(self.title, f"die {self.index + 1}/{len(self.values)}")
        shown = "  ".join(f"[{f}]" if i == self.index else f" {f} " for i, f in enumerate(self.values))
        bottom = canvas.footer(["<> face  OK next"])
        # The faces as large as the room between title and help allows (a headline number).
        canvas.fit((0, canvas.line_height + 1, canvas.width - 1, bottom - 2), shown, align="center", critical=True)

    def scene(self, app: App, frame: dict[str, Any]) -> None:
        for key in [k for k in frame if k.startswith("dice.")]:
            del frame[key]
        pip_cells(self.values[: self.index + 1], frame)


class ResultScreen(Screen):
    """The final result; OK returns to the main menu, a short BACK takes back the last decision
    (when the house rule allows; the game goes on)."""

    in_game = False

    def __init__(self, app: App) -> None:
        self.app = app
        self.title = f"{app.session.game.title}: result"
        self.lines = game_ui(app.session.game.name).result_lines(app.session)

    def press(self, app: App, button: str) -> None:
        if button == "ok":
            app.end_session()
        elif button == "back":
            app.takeback()

    def draw(self, canvas: Canvas) -> None:
        canvas.title(self.title)
        for row, text in enumerate(self.lines[: canvas.lines - 1], start=1):
            canvas.line(row, text)


def tumble_frames(app: App, session: GameSession, roll: Roll) -> list[Frame]:
    """The dice tumbling on the pip LEDs before the real faces show (cosmetic randomness)."""
    dice = session.game.dice()
    frames = []
    for _ in range(6):
        leds: dict[str, Any] = {f"dice.{d}.{p}": OFF for d in range(5) for p in range(7)}
        pip_cells([app.cosmetic.choice(list(faces)) for faces in dice], leds)
        frames.append(Frame(0.08, leds, "Rolling..."))
    return frames
