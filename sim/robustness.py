"""The standing robustness suite: seeded random button-mashing over every screen of every game,
with people, bots and children, electronic and physical dice, undo through the game menu and
power cuts, checked after every single action.

    python -m sim.robustness --seed 7 --actions 200000     # long, on demand
    python -m sim.robustness --seed 7 --actions 2000 --game levelx

A campaign plays "tables" one after another: every game with every seat count, in an order
the seed shuffles, each with random seats (person, bot, child) and dice (electronic or
physical), set up through the menus by button presses. On a table it mixes purposeful taps
(so games reach their end), the scenario runner's mashing (taps shorter than the debounce, holds
of every length, bounces, chords, pauses), undo through the game menu and power cuts (the
board dropped without any shutdown and a new one opened on the same state directory: the game
it resumes must be exactly the one that was kept). After every action:

- no step was refused (`BoardApp.problems` gained nothing) and nothing raised;
- the game's record in the journal replays to the engine's current state;
- no game is stranded (an open game always has its play screen; the main menu only without one);
- a dice-entry screen shows only while a person's roll is pending.

The first finding stops the campaign with `RobustnessError` naming the seed and the action; the
same seed and action count reproduce it exactly (the fake clock, dice and bots are seeded).
"""

from __future__ import annotations

import argparse
import random
import sys
import tempfile
from collections import Counter
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from functools import partial
from pathlib import Path

from firmware.errors import XtraboardError
from firmware.games import find_game, game_class, game_names
from firmware.journal import Journal
from firmware.hardware.config import BUTTON_NAMES
from firmware.records import replay_record
from firmware.ui.screen import MenuScreen
from sim.app import DemoError
from sim.app import choose as demo_choose
from sim.board import SimBoard

PLAY_BUTTONS = ("ok", "ok", "roll", "roll", "left", "right")  # taps that move a game on
KINDS = ("human", "bot", "kids")  # the seat screen's order: RIGHT steps to the next
TABLE_ACTIONS = (60, 600)  # actions on one table before it is abandoned (when not over yet)
MENU_ACTIONS = (0, 25)  # free mashing on the menus between tables (settings, rules, demo...)


class RobustnessError(XtraboardError):
    """A finding: a refused step, an exception, a record that does not replay, a stranded game."""


@dataclass(frozen=True)
class TableSetup:
    """One game to mash: the game, each seat's kind, and the dice."""

    game: str
    seats: tuple[str, ...]
    dice_mode: str

    def describe(self) -> str:
        counts = Counter(self.seats)
        people = ", ".join(f"{n} {kind}" for kind, n in counts.items())
        return f"{self.game} ({people}; {self.dice_mode} dice)"


def tables(rng: random.Random, games: Sequence[str] | None = None) -> list[TableSetup]:
    """Every game with every seat count once, in a shuffled order, seats and dice at random;
    about half of the tables use physical dice, a few are bots only."""
    chosen = []
    for game in games or game_names():
        cls = game_class(game)
        kids = "kids" in find_game(game).seat_options  # a children's seat where the game has one
        for count in range(cls.min_players, cls.max_players + 1):
            kinds = KINDS if kids else KINDS[:2]
            weights = (5, 3, 2) if kids else (5, 3)
            seats = tuple(rng.choices(kinds, weights, k=count))
            chosen.append(TableSetup(game, seats, rng.choice(("electronic", "physical"))))
    rng.shuffle(chosen)
    return chosen


# --- driving the menus by buttons ---------------------------------------------------------------


def choose(board: SimBoard, label: str) -> None:
    """Move the cursor of the menu on screen to `label` and press OK (as a person would)."""
    try:
        demo_choose(board, label)
    except DemoError as exc:  # the suite could not drive the board as planned
        raise RobustnessError(str(exc)) from exc


def choose_value(board: SimBoard, value: object, what: str) -> None:
    """Move the cursor of the menu on screen to the option standing for `value` and press OK:
    by value, so it works in whatever language the mashing left the board in."""
    choice = getattr(board.app.screen, "choice", None)
    if choice is None:
        raise RobustnessError(f"looking for {what!r}, the board shows {type(board.app.screen).__name__}, not a menu")
    for _tap in range(len(choice.options)):
        if choice.current.value == value:
            board.tap("ok")
            return
        board.tap("right")
    raise RobustnessError(f"menu {board.app.screen.title!r} has no {what!r}")


def labels(board: SimBoard) -> list[str]:
    choice = getattr(board.app.screen, "choice", None)
    return [option.label for option in choice.options] if choice is not None else []


def go_home(board: SimBoard) -> None:
    """Back to the main menu when no game is open (a long BACK; a note or result closes first)."""
    for _ in range(10):
        if len(board.app.stack) == 1:
            return
        board.settle()
        board.hold("back")
    raise RobustnessError(f"a long BACK does not reach the main menu from {type(board.app.screen).__name__}")


def set_dice_mode(board: SimBoard, mode: str) -> None:
    """Settings → Dice, OK until it shows `mode`, BACK."""
    set_setting(board, "dice_mode", mode)


def set_setting(board: SimBoard, name: str, value: object) -> None:
    """Settings → the setting `name`, OK until it shows `value`, BACK."""
    choose_value(board, ("settings", None), "Settings")
    menu = board.app.screen
    assert isinstance(menu, MenuScreen), menu  # the settings are a menu
    index = next(i for i, o in enumerate(menu.choice.options) if o.value == name)
    while menu.choice.index != index:
        board.tap("right")
    for _ in range(8):
        if getattr(board.app.settings, name) == value:
            break
        board.tap("ok")
    board.tap("back")


def seat_up(
    board: SimBoard, table: TableSetup, rng: random.Random | None = None
) -> list[tuple[str, Callable[[], None]]]:
    """The presses that start `table`: Play GAME → N players → each seat's kind (LEFT/RIGHT),
    sometimes another colour (ROLL) → OK. Returned as (what, do) pairs, to be done in order."""
    count = len(table.seats)
    title = game_class(table.game).title
    presses: list[tuple[str, Callable[[], None]]] = [
        (f"choose Play {title}", lambda: choose_value(board, ("play", table.game), f"Play {title}")),
        (f"choose {count} players", lambda: choose_value(board, count, f"{count} players")),
    ]
    for seat, kind in enumerate(table.seats, start=1):
        presses += [(f"seat {seat}: right", lambda: board.tap("right"))] * KINDS.index(kind)
        if rng is not None and rng.random() < 0.3:
            presses.append((f"seat {seat}: roll (colour)", lambda: board.tap("roll")))
        presses.append((f"seat {seat}: ok", lambda: board.tap("ok")))
    return presses


# --- the campaign ---------------------------------------------------------------------------


@dataclass
class Summary:
    seed: int | str
    actions: int = 0
    tables: int = 0
    finished: int = 0
    abandoned: int = 0
    undos: int = 0
    power_cuts: int = 0
    refused: int = 0  # problems the board reported (a refused step is one)
    screens: Counter[str] = field(default_factory=Counter)  # screen on top after each action
    seatings: set[tuple[str, int]] = field(default_factory=set)  # (game, seats) of the tables
    physical: int = 0  # tables with physical dice
    seat_kinds: Counter[str] = field(default_factory=Counter)

    def line(self) -> str:
        return (
            f"robustness: seed {self.seed}, {self.actions} actions, {self.tables} tables, "
            f"{self.finished} games finished, {self.abandoned} abandoned, {self.undos} undos, "
            f"{self.power_cuts} power cuts, {len(self.screens)} kinds of screen, "
            f"refused steps: {self.refused}"
        )


class Campaign:
    """`actions` seeded actions on a simulated board keeping its games in `state_dir`."""

    def __init__(
        self,
        seed: int | str,
        actions: int,
        state_dir: str | Path,
        games: Sequence[str] | None = None,
        log: Callable[[str], None] | None = None,
        table_actions: tuple[int, int] = TABLE_ACTIONS,
    ) -> None:
        self.seed = seed
        self.budget = actions
        self.table_actions = table_actions
        self.state_dir = Path(state_dir)
        self.rng = random.Random(f"xtraboard-robustness:{seed}")
        self.games = tuple(games or game_names())
        self.log = log or (lambda line: None)
        self.summary = Summary(seed)
        self.board = self._open()
        self._dead: list[SimBoard] = []  # boards "without power": never shut down, kept unclosed
        self._problems = len(self.board.app.problems)

    def _open(self) -> SimBoard:
        from sim.scenario import Runner

        board = SimBoard(seed=self.seed, state_dir=self.state_dir)
        self.runner = Runner(board, board.config.buttons.hold_s)
        return board

    # --- running ------------------------------------------------------------------------
    def run(self) -> Summary:
        try:
            while self.summary.actions < self.budget:
                for table in tables(self.rng, self.games):
                    if self.summary.actions >= self.budget:
                        break
                    self.on_menus(self.rng.randint(*MENU_ACTIONS))
                    self.play(table)
        finally:
            self.close()
        return self.summary

    def act(self, what: str, action: Callable[[], None]) -> None:
        """Do one action and check the board afterwards; a finding raises RobustnessError."""
        self.summary.actions += 1
        n = self.summary.actions
        try:
            action()
        except RobustnessError as exc:  # the suite could not drive the board as planned
            raise RobustnessError(self._where(n, what) + str(exc)) from exc
        except Exception as exc:  # the finding: which action broke the board
            raise RobustnessError(self._where(n, what) + f"the board raised {type(exc).__name__}: {exc}") from exc
        trouble = self.trouble()
        if trouble is not None:
            raise RobustnessError(self._where(n, what) + trouble)
        self.summary.screens[type(self.board.app.screen).__name__] += 1

    def _where(self, n: int, what: str) -> str:
        return f"seed {self.seed}, action {n} ({what}): "

    def trouble(self) -> str | None:
        """What is wrong with the board now, or None."""
        from firmware.ui.menus import MainMenu
        from firmware.ui.play import DiceEntryScreen

        app = self.board.app
        if len(app.problems) > self._problems:
            new = app.problems[self._problems :]
            self.summary.refused += len(new)
            return f"the board reported {new}"
        session = app.session
        play = app.play_screen()
        if session is None:
            if play is not None:
                return "a play screen without a game"
            return None
        if play is None or isinstance(app.screen, MainMenu):
            return f"the open {session.game.name} game is unreachable (screens {self._stack()})"
        if any(isinstance(s, DiceEntryScreen) for s in app.stack) and (session.over or not session.awaiting_roll):
            return f"a dice entry open while {session.game.pending()} (screens {self._stack()})"
        assert session.journal_id is not None, "a game on the board is kept from its start"
        kept = self._journal(self.board).record(session.journal_id)
        try:
            replayed = replay_record(kept).to_record()
        except ValueError as exc:
            return f"the journal's record does not replay: {exc}"
        if replayed != session.game.to_record():
            return (
                f"the journal's record ({len(kept['steps'])} steps) replays to another game than the "
                f"board's ({len(session.game.history)} steps)"
            )
        return None

    def _stack(self) -> str:
        return " > ".join(type(s).__name__ for s in self.board.app.stack)

    def on_menus(self, count: int) -> None:
        """Free mashing away from a table: main menu, settings, rules, records, a demo."""
        for _ in range(count):
            if self.summary.actions >= self.budget:
                return
            self.mash()

    def play(self, table: TableSetup) -> None:
        """Set `table` up by buttons, then mash it until its game ends or its actions run out."""
        self.summary.tables += 1
        self.summary.seatings.add((table.game, len(table.seats)))
        self.summary.physical += table.dice_mode == "physical"
        self.summary.seat_kinds.update(table.seats)
        self.log(f"table {self.summary.tables}: {table.describe()} at action {self.summary.actions}")
        self.leave_game()
        self.act("long BACK home", lambda: go_home(self.board))
        self.act(f"dice {table.dice_mode}", lambda: set_dice_mode(self.board, table.dice_mode))
        # Mashed BACKs take decisions back; the "whole game" house rule (the menus' mashing may
        # have set it) would let them undo a table faster than it plays: this roll only.
        self.act("takeback this roll", lambda: set_setting(self.board, "takeback", "roll"))
        for what, press in seat_up(self.board, table, self.rng):
            self.act(what, press)
        session = self.board.app.session
        if session is None or session.game.name != table.game:
            raise RobustnessError(self._where(self.summary.actions, "set up") + f"no {table.game} game started")
        left = self.rng.randint(*self.table_actions)
        while left > 0 and self.summary.actions < self.budget:
            left -= 1
            session = self.board.app.session
            if session is None:
                return
            if session.over:
                self.summary.finished += 1
                self.act("OK on the result, then Menu", partial(self.taps, "ok", "right", "ok"))
                return
            r = self.rng.random()
            if r < 0.03:
                self.undo()
            elif r < 0.045:
                self.power_cut()
            elif r < 0.5:
                button = self.rng.choice(PLAY_BUTTONS)
                self.act(f"tap {button}", partial(self.board.tap, button))
            elif r < 0.58:
                seconds = self.rng.choice((0.3, 1.0, 3.0, 30.0))
                self.act(f"wait {seconds:g}", partial(self.board.wait, seconds))
            else:
                self.mash()

    def taps(self, *buttons: str) -> None:
        for button in buttons:
            self.board.tap(button)

    @staticmethod
    def _journal(board: SimBoard) -> Journal:
        """A campaign's boards keep their journal in the campaign's state directory."""
        if board.journal is None:
            raise RobustnessError("the board has no journal")
        return board.journal

    def mash(self) -> None:
        r = self.rng.random()
        if r < 0.08:  # holds of every length, BACK's long press included
            button = self.rng.choice(BUTTON_NAMES)
            seconds = 10 ** self.rng.uniform(-3, 1.5)
            self.act(f"hold {button} {seconds:.3f}s", lambda: self.board.hold(button, seconds))
            return
        what, action = self.runner.mash_action(self.rng, BUTTON_NAMES)
        self.act(what, action)

    def leave_game(self) -> None:
        """A table's time is up: abandon its game through the game menu ("Yes")."""
        app = self.board.app
        if app.session is None:
            return
        self.act("settle", self.board.settle)
        if app.session is not None and app.session.over:
            self.summary.finished += 1
            self.act("OK on the result", lambda: go_home(self.board))
        if app.session is None:
            return

        for _ in range(3):  # a long BACK opens the game menu (or first closes one left open)
            if type(app.screen).__name__ == "GameMenu":
                break
            self.act("long BACK", lambda: self.board.hold("back"))
        self.act("choose Abandon game", lambda: choose_value(self.board, "abandon", "Abandon game"))
        self.act("choose Yes", lambda: choose_value(self.board, True, "Yes"))
        if app.session is not None:
            raise RobustnessError(self._where(self.summary.actions, "abandon") + "the game is still open")
        self.summary.abandoned += 1

    def undo(self) -> None:
        """Long BACK, "Take back" when offered (else "Back to game")."""
        app = self.board.app
        if app.animation is not None or type(app.screen).__name__ == "GameMenu":
            return
        self.act("long BACK", lambda: self.board.hold("back"))
        if type(app.screen).__name__ != "GameMenu":
            return
        offered = [option.value for option in app.screen.choice.options] if isinstance(app.screen, MenuScreen) else []
        if "undo" in offered and app.session is not None:
            before = len(app.session.game.history)
            self.act("take back", lambda: choose_value(self.board, "undo", "Take back"))
            if app.session is not None and len(app.session.game.history) < before:
                self.summary.undos += 1
        else:
            self.act("back to game", lambda: choose_value(self.board, "back", "Back to game"))

    def power_cut(self) -> None:
        """Drop the board without any shutdown; a new one on the same state directory must
        offer the kept game and resume it exactly."""
        old = self.board
        session = old.app.session
        kept = (
            self._journal(old).record(session.journal_id)
            if session is not None and session.journal_id is not None and not session.over
            else None
        )
        settings = old.app.settings
        self._dead.append(old)
        if old.lock is not None:  # the system drops a dead process's lock on its state directory
            old.lock.release()
        self.summary.power_cuts += 1
        n = self.summary.actions
        self.board = self._open()
        self._problems = len(self.board.app.problems)
        app = self.board.app
        if app.settings != settings:
            raise RobustnessError(self._where(n, "power cut") + f"settings {settings} came back as {app.settings}")
        stored = self._journal(self.board).unfinished()
        if kept is None:
            if stored is not None:
                raise RobustnessError(self._where(n, "power cut") + "an unfinished game appeared")
            return
        if stored is None or stored.record != kept:
            raise RobustnessError(self._where(n, "power cut") + "the kept game differs after the cut")
        resume = labels(self.board)[0]
        screen = self.board.app.screen
        first = screen.choice.options[0].value if isinstance(screen, MenuScreen) else None
        if first != ("resume", None):  # (by value: the mashing may have switched the language)
            raise RobustnessError(self._where(n, "power cut") + f"the main menu offers {resume!r}, not Resume")
        self.act(resume, lambda: choose_value(self.board, ("resume", None), resume))
        if app.session is None or app.session.record() != kept:
            raise RobustnessError(self._where(self.summary.actions, resume) + "the resumed game is not the kept one")

    def close(self) -> None:
        for board in [*self._dead, self.board]:
            board.close()
        self._dead.clear()


def run_campaign(
    seed: int | str,
    actions: int,
    *,
    games: Sequence[str] | None = None,
    state_dir: str | Path | None = None,
    log: Callable[[str], None] | None = None,
    table_actions: tuple[int, int] = TABLE_ACTIONS,
) -> Summary:
    """Run a campaign (in a temporary state directory unless given); RobustnessError on a
    finding. Shorter `table_actions` visit more tables in the same number of actions."""
    if state_dir is not None:
        return Campaign(seed, actions, state_dir, games, log, table_actions).run()
    with tempfile.TemporaryDirectory(prefix="xtraboard-robustness-") as tmp:
        return Campaign(seed, actions, tmp, games, log, table_actions).run()


def progress(line: str) -> None:
    print(line, flush=True)  # shows as it happens when the output goes to a file


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        prog="python -m sim.robustness", description="Mash every screen of every game; stop at the first finding."
    )
    parser.add_argument("--seed", type=int, default=0, help="campaign seed (the same seed replays exactly)")
    parser.add_argument("--actions", type=int, default=5000, help="how many actions (default 5000)")
    parser.add_argument("--game", choices=game_names(), action="append", help="only this game (repeatable)")
    parser.add_argument("--state-dir", type=Path, help="keep the journal here (default: a temporary directory)")
    parser.add_argument("--verbose", action="store_true", help="print each table as it starts")
    args = parser.parse_args(argv)
    if args.actions < 1:
        parser.error(f"--actions must be at least 1, not {args.actions}")
    log = progress if args.verbose else None
    try:
        summary = run_campaign(
            args.seed, args.actions, games=args.game or game_names(), state_dir=args.state_dir, log=log
        )
    except RobustnessError as exc:
        print(f"FINDING {exc}", file=sys.stderr)
        print(
            f"reproduce: python -m sim.robustness --seed {args.seed} --actions {args.actions}"
            + "".join(f" --game {g}" for g in args.game or ()),
            file=sys.stderr,
        )
        return 1
    print(summary.line())
    return 0


if __name__ == "__main__":
    sys.exit(main())
