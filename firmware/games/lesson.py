"""A lesson: a short game that teaches one game's rules as they first apply, as data.

Each game may keep one in `firmware/games/<game>/lesson.py` and name it in its registry entry
(`GameSpec.lesson = "firmware.games.<game>.lesson:LESSON"`); a game without one simply has no
"Learn" entry. The board's lesson runner (`firmware/ui/lesson_runner.py`) plays it: the learner on seat
0, bots of `bots` levels on the other seats, the dice from `rolls` in order (then from `seed`),
and each `Note` shown once, the first time its `when` says it applies.

A note's `when` reads only what the engine shows anyone: the game after the step, the events of
that step, and the learner's seat; so a lesson works whatever the learner decides (the dice of
the script still come, and every rule is explained when it first applies, or not at all if it
never does).

    >>> from firmware.games.base import Roll
    >>> dice = LessonDice([(1, 2)], seed="x")
    >>> dice.roll([(1, 2, 3)] * 2), dice.roll([(1, 2, 3)] * 2) in {(a, b) for a in (1, 2, 3) for b in (1, 2, 3)}
    ((1, 2), True)
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING

from firmware.dice import Face, Faces, SeededDice, fit_roll

from firmware.games.base import Events

if TYPE_CHECKING:
    from firmware.games.base import Game, Step

# (game after the step, the step's events — empty at the start —, the learner's seat) -> applies now
When = Callable[["Game", Events, int], bool]
# (the game at the learner's decision, a legal step) -> the step does what the note advises
Advice = Callable[["Game", "Step"], bool]

LEARNER = 0  # the learner's seat: they roll first in every game here


def any_event(events: Events, kind: str, **keys: object) -> bool:
    """Whether one of `events` is of `kind` with these values (a note's usual test)."""
    return any(e["kind"] == kind and all(e.get(k) == v for k, v in keys.items()) for e in events)


def at_start(game: Game, events: Events, me: int) -> bool:
    """A `when`: before the first step."""
    return not game.history


def deciding(game: Game, events: Events, me: int) -> bool:
    """A `when`: the learner has a decision to make."""
    pending = game.pending()
    return pending.kind == "decision" and pending.player == me


@dataclass(frozen=True)
class Note:
    """One explanation: `key` names it (tests, the record of what was shown), `title` and `text`
    are message ids (`N_`), translated when shown; `when` says whether it applies now. A note
    whose text advises a move says which steps follow it (`advice`): the lesson's tests check
    that the strong bot plays such a step there, so the lesson never teaches what the coach
    (Key moments, the hint) then calls a mistake."""

    key: str
    title: str
    text: str
    when: When
    advice: Advice | None = None


@dataclass(frozen=True)
class Lesson:
    """A game's lesson. `bots`: the bot level of seats 1.. (the learner is seat 0), so the seat
    count is `len(bots) + 1`. `rolls`: the faces of the game's rolls, in order (roll n of the
    game is `rolls[n]`, whoever rolls it; a roll taken back comes again). `seed`: the dice after
    the script, and the bots' randomness. `notes`: in the order they are shown when several
    apply at once."""

    bots: tuple[str, ...]
    rolls: tuple[tuple[Face, ...], ...]
    notes: tuple[Note, ...]
    seed: str

    def due(self, game: Game, events: Events, shown: set[str]) -> list[Note]:
        """The notes not shown yet that apply now."""
        return [note for note in self.notes if note.key not in shown and note.when(game, events, LEARNER)]


class LessonDice:
    """Roll n is the script's `rolls[n]` while it has one (and it fits the dice asked for), else
    the seeded roll n: the table sets `rolls_made` before each roll, so a taken-back roll, or a
    game that went another way than the script expected, still gets roll n."""

    def __init__(self, rolls: Sequence[Sequence[Face]], seed: str, rolls_made: int = 0) -> None:
        self.rolls = [tuple(faces) for faces in rolls]
        self.seed = seed
        self.rolls_made = rolls_made

    def roll(self, dice: Sequence[Faces]) -> tuple[Face, ...]:
        index = self.rolls_made
        self.rolls_made += 1
        if index < len(self.rolls):
            try:
                return fit_roll(self.rolls[index], dice, "lesson roll")
            except ValueError:
                pass  # not the dice this roll needs: the seeded roll instead
        return SeededDice(f"lesson:{self.seed}", index).roll(dice)
