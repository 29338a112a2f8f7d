"""A game being played at the table, free of any UI: the engine, the seats (colour, agent), the
dice, the journal, undo, and whose turn it is. Every step goes through `apply`, which commits it
to the journal before anything shows it (the caller renders afterwards).

Each position has a `token` (table id, generation); every apply, undo, redo and abandon moves
it on, so an agent's answer can be matched to the position it was computed for.

Takeback: `undo()` takes back the last decision of a person with the bots' steps after it — only
since the last roll, or (`whole_game=True`, a house rule) past rolls too; `redo()` plays the
taken-back steps again, identical, until a new step is applied. Rolls taken back are kept: the
same roll comes again (electronic dice derive roll n from the seed anyway; keyed-in and scripted
dice need it).

    >>> table = Table.start("exxtra", [Seat("Red", "red"), Seat("Blue", "blue", bot="easy"),
    ...                                Seat("Green", "green")], seed=1)
    >>> table.pending_bot(), table.awaiting_roll
    (False, True)
    >>> before = table.token
    >>> table.apply(table.draw_roll()); table.token == before
    False
"""

from __future__ import annotations

import itertools
import random
from collections.abc import Callable, Collection, Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, TypeVar

from firmware.agents import Agent, Question, Token
from firmware.dice import (
    ELECTRONIC,
    PHYSICAL,
    SCHEME,
    SCHEME_BOUND,
    SCHEME_WORD,
    CommittedDice,
    DiceSource,
    SeededDice,
    SystemDice,
    commitment,
    new_secret,
    seal_lines,
)
from firmware.errors import RecordError
from firmware.games import ROLL, Game, Player, Roll, new_game
from firmware.games.base import GameRecord, RecordHeader, Step
from firmware.records import replay_record

if TYPE_CHECKING:
    from firmware.journal.protocol import BoardJournal
    from firmware.journal.rows import StoredGame

_TABLE_IDS = itertools.count(1)
G = TypeVar("G", bound=Game)


@dataclass
class Seat:
    """A seat as the setup menu fills it in."""

    name: str
    colour: str
    bot: str | None = None
    kids: bool = False

    def player(self) -> Player:
        return Player(self.name, self.bot, self.kids)


@dataclass
class Table:
    game: Game
    colours: list[str]
    dice: DiceSource
    journal: BoardJournal | None = None  # None when nothing is kept
    journal_id: int | None = None
    seed: int | str | None = None  # set for reproducible sessions (demo, tests): dice and bots
    # the journal's JSON meta of the table (mode, dice, colours, seed, ...), each key read as its own
    meta: dict[str, Any] = field(default_factory=dict)  # Any: JSON meta (see above)
    notes: list[str] = field(default_factory=list)  # the record's "notes" (docs/records.md)
    # One agent per seat, bound by the board app when play starts (empty until then).
    agents: list[Agent] = field(default_factory=list, init=False, repr=False)
    table_id: int = field(default_factory=lambda: next(_TABLE_IDS), init=False)
    generation: int = field(default=0, init=False)
    # Takeback: the steps each undo took back (the last undo last), played again by `redo`.
    redo_steps: list[list[Step]] = field(default_factory=list, init=False, repr=False)
    # Rolls taken back, by roll number: the dice stay as rolled when that roll comes again.
    kept_rolls: dict[int, Roll] = field(default_factory=dict, init=False, repr=False)
    # Physical dice: the numbers of the rolls a person keyed in at the board (the record marks
    # their steps "keyed"); a roll taken back and played again stays keyed.
    keyed: set[int] = field(default_factory=set, init=False, repr=False)

    @property
    def names(self) -> list[str]:
        """The seats' names as the board shows them (firmware.players.shown_name: a seat nobody
        named is called by its colour in the active language)."""
        return [self.name(seat) for seat in range(len(self.game.players))]

    def name(self, seat: int) -> str:
        """Seat `seat`'s name as the board shows it."""
        from firmware.players import shown_name

        colour = self.colours[seat] if seat < len(self.colours) else ""
        return shown_name(self.game.players[seat].name, colour)

    @classmethod
    def start(
        cls,
        name: str,
        seats: Sequence[Seat],
        *,
        seed: int | str | None = None,
        journal: BoardJournal | None = None,
        meta: dict[str, Any] | None = None,  # Any: JSON meta (see `meta`)
        secret: str | None = None,
    ) -> Table:
        """A new table. `secret`, for an unseeded game only: the dice's secret in place of a fresh
        one from the OS (a scenario's fixed `secret`: the seal's page as on a real board, the same
        every run); never set on a real board."""
        if secret is not None and seed is not None:
            raise ValueError("a seeded game's secret is its seed: give a seed or a secret, not both")
        game = new_game(name, [s.player() for s in seats])
        # Verifiable dice (docs/dice.md): the secret stays in the journal's meta (resume needs
        # it) and the record holds its commitment until the game is over. A given seed is the secret.
        secret = (secret if secret is not None else new_secret()) if seed is None else str(seed)
        meta = dict(meta or {}) | {"colours": [s.colour for s in seats], "seed": seed, "dice_seed": secret}
        meta["dice_scheme"] = SCHEME_BOUND  # a game sealed before v3 keeps its scheme when resumed
        table = cls(game, [s.colour for s in seats], CommittedDice(secret), journal, None, seed, meta)
        if journal is not None:
            table.journal_id = journal.start_game(table.header(), meta)
        return table

    @classmethod
    def restore(
        cls,
        stored: StoredGame,
        journal: BoardJournal | None,
        default_colours: Sequence[str] = (),
        colour_names: Collection[str] = (),
    ) -> Table:
        """A table from the journal's unfinished game (exactly where it stood); seats without a
        kept colour take `default_colours` in order; kept colours must be among `colour_names`
        (when given). RecordError (a ValueError) for meta that does not fit."""
        game = replay_record(stored.record)
        meta = dict(stored.meta or {})
        colours = meta.get("colours") or list(default_colours[: len(game.players)])
        seed = meta.get("seed")
        _check_meta(colours, seed, len(game.players), colour_names)
        rolls = sum(isinstance(s, Roll) for s in game.history)
        secret, word = meta.get("dice_seed"), meta.get("dice_word")
        if word is not None and not isinstance(word, str):
            raise RecordError(f"the table's word must be text, not {word!r}")
        dice = CommittedDice(secret, rolls, word) if isinstance(secret, str) else dice_for(seed, rolls)
        notes = [n for n in stored.record.get("notes", []) if isinstance(n, str)]
        table = cls(game, list(colours), dice, journal, stored.id, seed, meta, notes)
        rolls_data = [s for s in stored.record["steps"] if isinstance(s, dict) and "roll" in s]
        table.keyed = {n for n, data in enumerate(rolls_data) if data.get("keyed") is True}
        return table

    def header(self) -> RecordHeader:
        """The game's record without steps or result, with its dice block (docs/records.md):
        the commitment to the secret seed, and whether the players key in physical dice."""
        record = self.game.to_record()
        header: RecordHeader = {
            "format": record["format"],
            "version": record["version"],
            "game": record["game"],
            "players": record["players"],
        }
        secret, word = self.meta.get("dice_seed"), self.word
        if isinstance(secret, str) and self.meta.get("dice") != "scripted":  # scripted: no claim
            physical = self.meta.get("dice") == "physical"
            if self.meta.get("dice_scheme") == SCHEME_BOUND:  # the commitment binds the dice mode
                header["dice"] = {
                    "scheme": SCHEME_BOUND,
                    "commit": commitment(secret, PHYSICAL if physical else ELECTRONIC),
                }
            else:  # a game sealed by an older firmware, resumed: its seal as it was
                header["dice"] = {"scheme": scheme_for(word), "commit": commitment(secret)}
            if word is not None:
                header["dice"]["word"] = word
            if physical:
                header["dice"]["physical"] = True
        return header

    def record(self) -> GameRecord:
        """The game's record with its dice block (the seed is in it once the game is over) and
        its notes, if any."""
        record = self.game.to_record()
        record["steps"] = self.steps_json()
        dice = self.header().get("dice")
        if dice is not None:
            record["dice"] = dice | {"seed": self.meta["dice_seed"]} if self.over else dice.copy()
        if self.notes:
            record["notes"] = list(self.notes)
        return record

    # --- the seal players take part in (docs/dice.md) ----------------------------------------
    @property
    def word(self) -> str | None:
        """The table's word, if the players gave one before the first roll."""
        word = self.meta.get("dice_word")
        return word if isinstance(word, str) else None

    @property
    def seal(self) -> tuple[str, ...] | None:
        """The dice's seal as the board shows it, if sealed: the first 32 hex digits of the
        commitment on two lines of four groups (`seal_lines`)."""
        dice = self.header().get("dice")
        return seal_lines(dice["commit"]) if dice is not None else None

    def asks_word(self) -> bool:
        """Whether the seal's page (and, if the board's setting offers it, the table's word) is
        still to come: a game played with the board's own random seed and electronic dice, not
        past that page yet, before its first roll.
        Seeded, scripted, demo and physical-dice games keep their rolls as they are."""
        return (
            self.seed is None
            and isinstance(self.meta.get("dice_seed"), str)
            and self.meta.get("dice") == "electronic"
            and self.meta.get("mode") == "play"
            and "dice_word" not in self.meta
            and self._rolls_made() == 0
        )

    def set_word(self, word: str | None) -> None:
        """The table's word (None: skipped), before the first roll: from here the rolls follow
        hmac-sha256-v2 with it; the journal's record says so at once."""
        if self._rolls_made():
            raise ValueError("the table's word comes before the first roll")
        self.meta["dice_word"] = word
        if isinstance(self.dice, CommittedDice):
            self.dice.word = word
        if self.journal is not None and self.journal_id is not None:
            self.journal.reseal(self.journal_id, self.header(), self.meta)

    def add_note(self, note: str) -> None:
        """Say in the record (and the journal) what happened at the table, e.g. a failed engine."""
        self.notes.append(note)
        if self.journal is not None and self.journal_id is not None and not self.over:
            self.journal.add_note(self.journal_id, note)

    # --- the position -----------------------------------------------------------------------
    def game_as(self, engine: type[G]) -> G:
        """The game as its engine class: a game's own screens read that engine's state.
        TypeError if another game is being played."""
        if not isinstance(self.game, engine):
            raise TypeError(f"the table plays {self.game.name}, not {engine.__name__}")
        return self.game

    @property
    def token(self) -> Token:
        """This table's current position; answers computed for another one are stale."""
        return (self.table_id, self.generation)

    def _moved(self) -> None:
        self.generation += 1

    # --- steps -----------------------------------------------------------------------------
    def apply(self, step: Step, keyed: bool = False) -> None:
        """Apply a step (IllegalStepError leaves everything unchanged), then journal it. A new
        step ends what `redo` could play again. `keyed`: a roll a person keyed in (physical
        dice); a taken-back roll that comes again stays as it was."""
        rolls = self._rolls_made()
        again = isinstance(step, Roll) and self.kept_rolls.get(rolls) == step
        self._apply(step)
        if isinstance(step, Roll) and not again:
            (self.keyed.add if keyed else self.keyed.discard)(rolls)
        self.redo_steps.clear()
        self._journal_step(step)

    def _apply(self, step: Step) -> None:
        rolls = self._rolls_made()
        self.game.apply(step)
        if isinstance(step, Roll):
            self.kept_rolls.pop(rolls, None)  # this roll is seen now: a kept one is used up
        self._moved()

    def _step_json(self, step: Step, roll: int | None) -> dict[str, object]:
        """A step as the record writes it: roll number `roll` marked "keyed" if a person keyed it in."""
        data = step.to_json()
        return data | {"keyed": True} if isinstance(step, Roll) and roll in self.keyed else data

    def steps_json(self) -> list[dict[str, object]]:
        """The record's steps, keyed-in rolls marked (docs/records.md)."""
        out, rolls = [], 0
        for step in self.game.history:
            out.append(self._step_json(step, rolls))
            rolls += isinstance(step, Roll)
        return out

    def _journal_step(self, step: Step) -> None:
        """Commit the step just applied (and the result, if it ended the game)."""
        if self.journal is not None and self.journal_id is not None:
            data = self._step_json(step, self._rolls_made() - 1)
            self.journal.append_step(self.journal_id, len(self.game.history) - 1, data)
            if self.game.is_over():
                result = self.game.result()
                assert result is not None  # a game that is over has its result
                self.journal.finish(self.journal_id, result)

    def draw_roll(self) -> Roll:
        """The dice for the pending roll (not applied yet: the tumble animation shows first)."""
        kept = self.kept_roll()
        if kept is not None:
            return kept
        self.dice.rolls_made = self._rolls_made()  # roll n of the record (keyed-in rolls included) is index n
        return Roll(tuple(self.dice.roll(self.game.dice())))

    def kept_roll(self) -> Roll | None:
        """The roll taken back at this point, if it still fits the dice: it comes again."""
        kept = self.kept_rolls.get(self._rolls_made())
        dice = self.game.dice()
        if kept is None or len(kept.faces) != len(dice) or any(f not in d for f, d in zip(kept.faces, dice)):
            return None
        return kept

    def rolls_made(self) -> int:
        """Rolls in the game so far (taken-back ones not counted)."""
        return self._rolls_made()

    def _rolls_made(self) -> int:
        return sum(isinstance(s, Roll) for s in self.game.history)

    def undo_target(self, whole_game: bool = False) -> int | None:
        """How many steps remain after taking back the last decision of a person, if that is
        allowed: only decisions since the last roll (dice once seen stay seen), or any with the
        `whole_game` house rule."""
        history = self.game.history
        length = len(history)
        while length and (whole_game or not isinstance(history[length - 1], Roll)):
            length -= 1
            decider = self._decider(length)
            if decider is not None and not self._is_bot(decider):
                return length
        return None

    def undo(self, whole_game: bool = False, note: Callable[[Game, Step], object] | None = None) -> bool:
        """Take back the last decision of a person and the steps after it (kept for `redo`);
        False when `undo_target` allows none. `note(game, decision)`, given the game as it now
        stands and the decision taken back, says what to keep of it (JSON) in the meta's
        "takebacks", journaled with the shorter game in one transaction: a power cut loses
        neither or both."""
        target = self.undo_target(whole_game)
        if target is None:
            return False
        undone: list[Step] = []
        rolls = self._rolls_made()
        while len(self.game.history) > target:
            step = self.game.undo()
            undone.append(step)
            if isinstance(step, Roll):
                rolls -= 1
                self.kept_rolls[rolls] = step
        self.redo_steps.append(undone[::-1])
        self._moved()
        if note is not None:  # what was taken back, for the game's log: the record keeps only what stands
            taken = self.meta.get("takebacks")
            kept = taken if isinstance(taken, list) else []
            self.meta["takebacks"] = [*kept, note(self.game, undone[-1])]
        if self.journal is not None and self.journal_id is not None:
            self.journal.truncate(self.journal_id, target, self.meta if note is not None else None)
        return True

    def can_redo(self) -> bool:
        return bool(self.redo_steps)

    def redo(self) -> bool:
        """Play again the steps the last undo took back (journaled as any step); False if none."""
        if not self.redo_steps:
            return False
        for step in self.redo_steps.pop():
            self._apply(step)
            self._journal_step(step)
        return True

    def _decider(self, index: int) -> int | None:
        """Who made step `index` (None for a roll); used only for undo."""
        return self.game.actor(index)

    def abandon(self) -> None:
        self._moved()  # whatever an agent is working on is no longer wanted
        if self.journal is not None and self.journal_id is not None and not self.game.is_over():
            self.journal.abandon(self.journal_id)

    # --- whose turn, and asking agents ------------------------------------------------------
    def _is_bot(self, player: int) -> bool:
        return self.game.players[player].bot is not None

    def pending_bot(self) -> bool:
        """Whether the pending roll or decision belongs to a bot seat."""
        pending = self.game.pending()
        return pending.player is not None and pending.kind != "over" and self._is_bot(pending.player)

    def pending_agent(self) -> Agent | None:
        """The agent whose roll or decision is pending (None when over or not yet bound)."""
        pending = self.game.pending()
        if pending.player is None or pending.kind == "over" or pending.player >= len(self.agents):
            return None
        return self.agents[pending.player]

    def question(self) -> Question | None:
        """What to ask the pending bot seat's agent, or None when no bot decision is pending
        (a roll, a person, the end, agents not bound)."""
        pending = self.game.pending()
        if (
            pending.kind != "decision"
            or pending.player is None
            or self.pending_agent() is None
            or not self.pending_bot()
        ):
            return None
        return Question(self.token, pending.player, self.game.copy(), self.bot_rng())

    def ask(self, question: Question) -> None:
        """Hand `question` to its seat's agent (it answers later, through its `post`)."""
        self.agents[question.seat].ask(question)

    def bot_rng(self) -> random.Random:
        """Bots' randomness: derived from the seed and the step count, so a restored demo plays
        on exactly as it would have."""
        if self.seed is None:
            return random.Random()
        return random.Random(f"xtraboard-bot:{self.seed}:{len(self.game.history)}")

    @property
    def over(self) -> bool:
        return self.game.is_over()

    @property
    def awaiting_roll(self) -> bool:
        return self.game.pending().kind == ROLL


def scheme_for(word: str | None) -> str:
    """The scheme of a game sealed before hmac-sha256-v3: v2 once the table gave a word, else v1."""
    return SCHEME if word is None else SCHEME_WORD


def dice_for(seed: int | str | None, rolls_made: int) -> DiceSource:
    return SystemDice() if seed is None else SeededDice(seed, rolls_made)


def _check_meta(colours: object, seed: object, seats: int, colour_names: Collection[str] = ()) -> None:
    """A damaged journal's meta must not reach the screens: RecordError (a ValueError) instead."""
    if (
        not isinstance(colours, list)
        or len(colours) != seats
        or any(not isinstance(c, str) or (colour_names and c not in colour_names) for c in colours)
    ):
        raise RecordError(f"saved colours {colours!r} do not fit {seats} seats")
    if seed is not None and type(seed) not in (int, str):
        raise RecordError(f"saved seed {seed!r} is not a number or text")
