"""LEVEL X's lesson: the learner and an easy bot, dice that bring each rule up early.

Each note comes the first time its rule applies, whoever's move it is (see
firmware/games/lesson.py); the dice are planned for a learner who takes the first option (the
most groups) each time and turns their one into a 6 (as the strong bot does), but any other choice is explained as well
when it happens.
"""

from __future__ import annotations

from firmware.games.base import Game, Step
from firmware.games.base import Events
from firmware.games.lesson import Lesson, Note, any_event, at_start, deciding
from firmware.games.levelx.rules import LevelX, TurnOnes
from firmware.i18n import N_


def _groups(game: Game, events: Events, me: int) -> bool:
    return deciding(game, events, me) and isinstance(game, LevelX) and not game.bonus_pending


def _lucky(game: Game, events: Events, me: int) -> bool:
    """The learner may turn ones now, or someone did."""
    return any_event(events, "turn_ones") or (
        _groups(game, events, me) and isinstance(game, LevelX) and game.ones_to_turn > 0
    )


def _a_six(game: Game, step: Step) -> bool:
    """The lucky loser's advice: the one turned into a 6, the strong bot's choice on the
    script's 1 1 5 5."""
    return isinstance(step, TurnOnes) and step.faces == (6,)


def _x_field(game: Game, events: Events, me: int) -> bool:
    return any_event(events, "chip")


def _oust(game: Game, events: Events, me: int) -> bool:
    return any_event(events, "oust")


def _sets(game: Game, events: Events, me: int) -> bool:
    """A bonus tile was taken, or someone holds chips of two rows: a set is on its way."""
    if any_event(events, "bonus") or any_event(events, "bonus_offer"):
        return True
    return isinstance(game, LevelX) and any(len(set(chips)) >= 2 for chips in game.chips)


def _close(game: Game, events: Events, me: int) -> bool:
    return any_event(events, "close")


def _last_round(game: Game, events: Events, me: int) -> bool:
    return any_event(events, "end_triggered")


def _over(game: Game, events: Events, me: int) -> bool:
    return game.is_over()


# Translators: the LEVEL X lesson's pages: a title (a few words) and short sentences (a 128×64
# display shows about 60 characters a page). Keep the game's terms: row, X field, chip, bonus tile.
NOTES = (
    Note(
        "goal",
        N_("Learn LEVEL X"),
        N_("Climb rows 5 to 10 to their X fields for chips, against a bot. Press OK, then ROLL."),
        at_start,
    ),
    Note(
        "lucky",
        N_("Lucky loser"),
        N_("Two or more 1s: once a turn you may turn all of them but one. Try a 6."),
        _lucky,
        _a_six,
    ),
    Note(
        "groups",
        N_("Groups"),
        N_("Group dice into sums 5 to 10. A sum puts your piece on its row, or moves it on."),
        _groups,
    ),
    Note(
        "x_field",
        N_("The X field"),
        N_("On the X field each sum of its row takes a chip worth the row's number."),
        _x_field,
    ),
    Note(
        "oust",
        N_("Ousted"),
        N_("The X field holds one piece: arriving there sends the other one home."),
        _oust,
    ),
    Note(
        "sets",
        N_("Bonus tiles"),
        N_("Chips of all six rows make a set: it earns the top bonus tile, 15, 12, 9, 6."),
        _sets,
    ),
    Note(
        "close",
        N_("A row closes"),
        N_("The last chip of a row closes it: every piece in it leaves the game."),
        _close,
    ),
    Note(
        "last_round",
        N_("Last round"),
        N_("A third row closed or the last tile taken: the game ends with this round."),
        _last_round,
    ),
    Note(
        "end",
        N_("The end"),
        N_("Chips and tiles add up; the highest score wins. Now you know LEVEL X!"),
        _over,
    ),
)

# The four dice of each turn, the learner's and the bot's in turn. Played with the first option
# each time (and the one turned into a 6) the learner closes rows 5 and 6, the bot row 8 (the
# third: the last round), after 20 rolls.
ROLLS: tuple[tuple[int, ...], ...] = tuple(
    tuple(int(face) for face in roll.split())
    for roll in (
        "5 5 5 5",  # the learner: four groups of 5 climb row 5 to its X field: a chip
        "2 3 4 6",
        "1 1 5 5",  # the lucky loser: one of the ones may be turned
        "4 6 4 6",
        "6 6 6 6",  # row 6 to its X field: chips of two rows
        "5 5 5 5",  # the bot climbs row 5 and ousts the learner from its X field
        "6 6 6 6",
        "4 6 4 6",
        "5 5 5 5",
        "4 6 4 6",
        "6 6 6 6",
        "5 5 5 5",
        "5 5 5 5",
        "4 4 4 4",
        "6 6 6 6",  # rows 5 and 6 are closed by now
        "4 4 4 4",
        "5 5 5 5",
        "4 4 4 4",
        "3 4 4 4",
        "4 4 4 4",  # the bot closes row 8, the third: the end
    )
)

LESSON = Lesson(bots=("easy",), rolls=ROLLS, notes=NOTES, seed="levelx")
