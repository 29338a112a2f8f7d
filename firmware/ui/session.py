"""A game being played on the board: the engine, the seats' colours, the dice, the bots and the
journal. Every step goes through `apply`, which commits it to the journal before anything shows
it (the caller renders afterwards)."""

from __future__ import annotations

import random
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

from firmware.dice import DiceSource, SeededDice, SystemDice
from firmware.games import ROLL, Game, Player, Roll, new_game
from firmware.records import replay_record


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
class GameSession:
    game: Game
    colours: list[str]
    dice: DiceSource
    journal: Any = None  # firmware.journal.Journal, or None when nothing is kept
    journal_id: int | None = None
    seed: int | str | None = None  # set for reproducible sessions (demo, tests): dice and bots
    meta: dict[str, Any] = field(default_factory=dict)

    @classmethod
    def start(cls, name: str, seats: Sequence[Seat], *, seed: int | str | None = None,
              journal: Any = None, meta: dict[str, Any] | None = None) -> GameSession:
        game = new_game(name, [s.player() for s in seats])
        meta = dict(meta or {}) | {"colours": [s.colour for s in seats], "seed": seed}
        session = cls(game, [s.colour for s in seats], dice_for(seed, 0), journal, None, seed, meta)
        if journal is not None:
            header = {k: v for k, v in game.to_record().items() if k not in ("steps", "result")}
            session.journal_id = journal.start_game(header, meta)
        return session

    @classmethod
    def restore(cls, stored: Any, journal: Any) -> GameSession:
        """A session from the journal's unfinished game (exactly where it stood)."""
        game = replay_record(stored.record)
        meta = dict(stored.meta or {})
        colours = meta.get("colours") or default_colours(len(game.players))
        seed = meta.get("seed")
        _check_meta(colours, seed, len(game.players))
        rolls = sum(isinstance(s, Roll) for s in game.history)
        return cls(game, list(colours), dice_for(seed, rolls), journal, stored.id, seed, meta)

    # --- steps -----------------------------------------------------------------------------
    def apply(self, step: Any) -> None:
        """Apply a step (IllegalStepError leaves everything unchanged), then journal it."""
        self.game.apply(step)
        if self.journal is not None and self.journal_id is not None:
            self.journal.append_step(self.journal_id, len(self.game.history) - 1, step.to_json())
            if self.game.is_over():
                self.journal.finish(self.journal_id, self.game.result())

    def draw_roll(self) -> Roll:
        """The dice for the pending roll (not applied yet: the tumble animation shows first)."""
        return Roll(tuple(self.dice.roll(self.game.dice())))

    def undo_target(self) -> int | None:
        """How many steps remain after undoing the last human decision, if that is allowed:
        only decisions since the last roll can be taken back (dice once seen stay seen)."""
        history = self.game.history
        length = len(history)
        while length and not isinstance(history[length - 1], Roll):
            length -= 1
            if self._decider(length) is not None and not self._is_bot(self._decider(length)):
                return length
        return None

    def undo(self) -> bool:
        target = self.undo_target()
        if target is None:
            return False
        while len(self.game.history) > target:
            self.game.undo()
        if self.journal is not None and self.journal_id is not None:
            self.journal.truncate(self.journal_id, target)
        return True

    def _decider(self, index: int) -> int | None:
        """Who made step `index` (None for a roll); used only for undo."""
        return self.game.actor(index)

    def _is_bot(self, player: int) -> bool:
        return self.game.players[player].bot is not None

    def pending_bot(self) -> bool:
        """Whether the pending roll or decision belongs to a bot seat."""
        pending = self.game.pending()
        return pending.player is not None and pending.kind != "over" and self._is_bot(pending.player)

    def bot_rng(self) -> random.Random:
        """Bots' randomness: derived from the seed and the step count, so a restored demo plays
        on exactly as it would have."""
        if self.seed is None:
            return random.Random()
        return random.Random(f"xtraboard-bot:{self.seed}:{len(self.game.history)}")

    def abandon(self) -> None:
        if self.journal is not None and self.journal_id is not None and not self.game.is_over():
            self.journal.abandon(self.journal_id)

    @property
    def over(self) -> bool:
        return self.game.is_over()

    @property
    def awaiting_roll(self) -> bool:
        return self.game.pending().kind == ROLL


def dice_for(seed: int | str | None, rolls_made: int) -> DiceSource:
    return SystemDice() if seed is None else SeededDice(seed, rolls_made)


def _check_meta(colours: Any, seed: Any, seats: int) -> None:
    """A damaged journal's meta must not reach the screens: RecordError (a ValueError) instead."""
    from firmware.errors import RecordError
    from firmware.ui.colours import PLAYER_COLOURS

    if (not isinstance(colours, list) or len(colours) != seats
            or any(not isinstance(c, str) or c not in PLAYER_COLOURS for c in colours)):
        raise RecordError(f"saved colours {colours!r} do not fit {seats} seats")
    if seed is not None and type(seed) not in (int, str):
        raise RecordError(f"saved seed {seed!r} is not a number or text")


def default_colours(count: int) -> list[str]:
    from firmware.ui.colours import DEFAULT_ORDER

    return list(DEFAULT_ORDER[:count])
