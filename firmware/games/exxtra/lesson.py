"""EXXTRA's lesson: the learner and two easy bots, dice that bring each rule up early.

Each note comes the first time its rule applies, whoever's move it is (see
firmware/games/lesson.py); the dice are planned for a learner who takes the top free rung (OK)
each time, but any other choice is explained as well when it happens.
"""

from __future__ import annotations


from firmware.games.base import Game
from firmware.games.exxtra.rules import Exxtra, Place
from firmware.games.base import Events
from firmware.games.lesson import Lesson, Note, any_event, at_start, deciding
from firmware.i18n import N_


def _x_counts_zero(game: Game, events: Events, me: int) -> bool:
    return any(e["kind"] == "roll" and e["first"] and "X" in e["faces"] for e in events)


def _x_later(game: Game, events: Events, me: int) -> bool:
    return any_event(events, "invalid")


def _double(game: Game, events: Events, me: int) -> bool:
    return any_event(events, "move", cause="double")


def _kick(game: Game, events: Events, me: int) -> bool:
    """A pair was sent back, or the learner may send one back now."""
    if any_event(events, "remove"):
        return True
    if not deciding(game, events, me) or not isinstance(game, Exxtra):
        return False
    return any(game.would_remove(d.rung) for d in game.legal_decisions() if isinstance(d, Place))


def _rung_zero(game: Game, events: Events, me: int) -> bool:
    """A pair lies on rung 0 now, or the learner decides and rung 0 would kick a pair."""
    if not isinstance(game, Exxtra):
        return False
    return bool(game.ladder[0]) or deciding(game, events, me) and bool(game.would_remove(0))


def _rung_move(game: Game, events: Events, me: int) -> bool:
    return any_event(events, "move", cause="rung")


def _over(game: Game, events: Events, me: int) -> bool:
    return game.is_over()


# Translators: the EXXTRA lesson's pages: a title (a few words) and short sentences (a 128×64
# display shows about 60 characters a page). Keep the game's terms: rung, ladder, pair, double.
NOTES = (
    Note(
        "goal",
        N_("Learn EXXTRA"),
        N_("Race your counter to space 21 against two bots. Press OK, then ROLL."),
        at_start,
    ),
    Note(
        "x_zero",
        N_("X on the first roll"),
        N_("On the first roll of a turn an X counts 0: 7 and X make 70."),
        _x_counts_zero,
    ),
    Note(
        "number",
        N_("Your number"),
        N_("Two dice make a number, the higher first: 7 and 1 make 71. ROLL rolls again."),
        deciding,
    ),
    Note(
        "ladder",
        N_("The ladder"),
        N_("Put your pair on a free rung 1 to 5: your next turn starts by moving that far."),
        deciding,
    ),
    Note(
        "rung_move",
        N_("Moving on"),
        N_("A turn starts: the counter moves as many spaces as its pair's rung."),
        _rung_move,
    ),
    Note(
        "double",
        N_("A double"),
        N_("A double 1-1, 2-2 or 3-3 moves the counter on 1, 2 or 3 spaces at once."),
        _double,
    ),
    Note(
        "x_later",
        N_("X: back"),
        N_("An X on a later roll ends the turn: the counter goes back one space for each X."),
        _x_later,
    ),
    Note(
        "kick",
        N_("Kicking"),
        N_("Placing kicks the pairs on higher rungs whose number is equal or lower."),
        _kick,
    ),
    Note(
        "rung_zero",
        N_("Rung 0"),
        N_("Rung 0 holds any number of pairs. It moves you nothing, but it kicks."),
        _rung_zero,
    ),
    Note(
        "end",
        N_("The end"),
        N_("The first counter on space 21 wins. Now you know EXXTRA!"),
        _over,
    ),
)

# Die A then die B, in the order the table rolls them (the learner, then Blue, then Green; a
# bot that rolls again takes the next one). With the top free rung each time the learner wins
# on roll 15 with a double; the bots reroll their small numbers and meet an X.
ROLLS: tuple[tuple[str, ...], ...] = tuple(
    tuple(roll.split())
    for roll in (
        "7 X",  # the learner's first roll: X counts 0 (70); the number and the ladder
        "2 1",
        "1 2",  # Blue: rung 2
        "2 X",
        "3 1",  # Green: rung 1, kicking Blue's 21 from rung 2
        "3 3",  # the learner moves 5 (rung 5), then a double: 3 more; rung 0 would kick
        "2 1",
        "X 1",  # Blue rolls again and meets an X
        "2 1",
        "1 2",
        "7 6",  # the learner: 76 on rung 5
        "2 1",
        "1 5",
        "2 1",
        "1 2",
        "3 3",  # the learner: 18 + a double of 3: space 21, the end
    )
)

LESSON = Lesson(bots=("easy", "easy"), rolls=ROLLS, notes=NOTES, seed="exxtra")
