"""How a game says what a step did: one interface, `Words`, that each game package implements
(the built-in ones in `firmware/games/<game>/text.py`), and the helpers those wordings share.

A step's events go in, a `Said` comes out, in the board's language (worded when asked: the
language may change meanwhile), in three forms:

- `short`: one line for the 128x64 display, the explanation line ("Blue: 62 on rung 5, kicks Red");
- `sentence`: a full sentence, for reading aloud ("Blue places 6 and 2 on rung 5 and knocks Red off.");
- `log`: a line of the game's history, the round log and Key moments ("Blue placed 62 on rung 5, kicked Red").

Two more forms word what the play screen shows: `caption`, the line under an animation while it
shows one event of a step ("Double! +2", "Red is ousted"), and `option`, a decision as an option
on the play screen (a `Label`: "Rung 5" with "kicks 1"); `hint` names the decision a hint points
at before the bots' reason ("rung 5: 91% safe, expect to end near space 14").

Every screen, page and command that words a move asks the game's `Words`
(`firmware.games.words_of(name)`, named by the registry entry's `words`); none reads an event
itself to word it. The rules
engines stay pure: this module and the games' wordings read their events, never the other way.

    >>> from firmware.games import words_of
    >>> said = words_of("exxtra").said(["Blue", "Red", "Green"], [
    ...     {"kind": "place", "player": 0, "rung": 5, "combination": "62"},
    ...     {"kind": "remove", "player": 1, "rung": 4, "combination": "51", "by": 0},
    ...     {"kind": "turn", "player": 1}])
    >>> said.short
    'Blue: 62 on rung 5, kicks Red'
    >>> said.sentence
    'Blue places 6 and 2 on rung 5 and knocks Red off.'
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING

from firmware.games.base import Event, Events
from firmware.i18n import _, pgettext

if TYPE_CHECKING:
    from firmware.games.base import Game, Step


@dataclass(frozen=True)
class Said:
    """One step in words, in its three forms. `shown` False: a step the display need not
    explain (a plain roll, which the dice show; LEVEL X's pass): the explanation line and the
    round log keep to the moves before it."""

    short: str
    sentence: str
    log: str
    shown: bool = True


@dataclass(frozen=True)
class Label:
    """A decision as the play screen offers it: `text` on the option bar; `details`, what it
    does, in shorter and shorter wordings (the view shows the longest that fits its line; none:
    nothing to add); `parts`, the texts of a choice made in stages (EXTRA!'s extra die, pairs and
    column), in the order of its stages."""

    text: str
    details: tuple[str, ...] = ()
    parts: tuple[str, ...] = ()

    @property
    def detail(self) -> str:
        """What the decision does, in its longest wording ("" for nothing to add)."""
        return self.details[0] if self.details else ""


class Words:
    """What a game says of its steps. A game's wording subclasses it and overrides `said` (and
    `said_to` where a step can concern a seat other than the mover's; `caption`, `option` and
    `hint` for what its play screen shows); `decision` comes with it. The base class says
    nothing: a game without wording still plays, its moves unexplained."""

    def said(self, names: Sequence[str], events: Events) -> Said | None:
        """What one step's `events` did (`names`: the seats' names); None when there is
        nothing to say (no events)."""
        return None

    def said_to(self, names: Sequence[str], events: Events, seat: int) -> Said | None:
        """What one step's `events` did to seat `seat`, said to them ("Blue 76 → rung 4: kicked
        your 50"), first in their round log and on the explanation line; None when the step
        does not concern them (their own moves never do)."""
        return None

    def caption(self, names: Sequence[str], event: Event | None, events: Events, before: Game | None = None) -> str:
        """What an animation says while it shows `event`, one of a step's `events` ("Double! +2");
        `event` None: the step as a whole, where none of its events is shown (LEVEL X's pass).
        `before`: the position the step was played from, where the words need it (the dice a
        group sums). "" when there is nothing to say."""
        return ""

    def option(self, names: Sequence[str], game: Game, decision: Step) -> Label | None:
        """`decision`, one of `game`'s legal ones, as the play screen offers it (`names`: the
        seats' names as shown); None when the game does not word its options."""
        return None

    def hint(self, game: Game, decision: Step, reason: str) -> str:
        """A hint for `decision` in `game`'s position: the decision named where the option
        pointed at does not say it all, then `reason`, the bots' few words of why (figures, no
        move: `firmware.hints`). The base class: the reason alone."""
        return reason

    def decision(self, game: Game, step: Step) -> Said | None:
        """What playing `step` would do in `game`'s position (the game is left as it was)."""
        twin = game.copy()
        twin.apply(step)
        return self.said([p.name for p in game.players], twin.events)


SILENT = Words()  # the wording of a game that names none


# --- what the wordings share ---------------------------------------------------------------------
def name_of(names: Sequence[str], player: object) -> str:
    """Seat `player`'s name, "?" for anything that is not a seat."""
    return names[player] if isinstance(player, int) and 0 <= player < len(names) else "?"


def kinds(events: Events, kind: str) -> list[Event]:
    """The events of `kind`, in order."""
    return [event for event in events if event.get("kind") == kind]


def joined(words: Sequence[str]) -> str:
    """Parts of a short description, comma-separated."""
    return ", ".join(words)


def spoken(items: Sequence[str]) -> str:
    """Items as a sentence lists them: "5, 3 and 2" (one alone as it is)."""
    if len(items) < 2:
        return "".join(items)
    # Translators: the last two items of a list in a sentence: "5, 3 and 2", "Red and Green".
    return _("{items} and {last}").format(items=", ".join(items[:-1]), last=items[-1])


def numbered(game: Game, step: Step) -> str:
    """A decision of a game that words none, as Key moments and the analysis name it: the
    deciding player and its place among the legal decisions ("Ann: choice 2 of 3")."""
    legal = game.legal_decisions()
    number = legal.index(step) + 1 if step in legal else len(legal) + 1
    name = game.players[game.pending().player or 0].name
    # Translators: a decision of a game that words none: the deciding player and its place among the legal ones.
    return _("{name}: choice {n} of {count}").format(name=name, n=number, count=len(legal))


def hinted(move: str, reason: str) -> str:
    """A hint's decision and its reason in one line: "rung 5: 91% safe, expect to end near space 14"."""
    # Translators: a hint: the decision ("rung 5", "take it") and why the strong bot picks it.
    return pgettext("hint", "{move}: {reason}").format(move=move, reason=reason)


def faces_text(faces: Sequence[object]) -> str:
    """Dice faces as the display shows them: "4 6 1 4"."""
    return " ".join(str(face) for face in faces)


def rolled(who: str, faces: Sequence[object]) -> Said:
    """A plain roll (`shown` False: the dice show it)."""
    return Said(
        # Translators: a plain roll in one line: "Blue rolls 7 6".
        _("{who} rolls {faces}").format(who=who, faces=faces_text(faces)),
        # Translators: a plain roll in a sentence, read aloud: "Blue rolls 7 and 6."
        _("{who} rolls {faces}.").format(who=who, faces=spoken([str(face) for face in faces])),
        # Translators: a plain roll in the game's log: "Blue rolled 7 6".
        _("{who} rolled {faces}").format(who=who, faces=faces_text(faces)),
        shown=False,
    )
