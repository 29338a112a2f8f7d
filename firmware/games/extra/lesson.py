"""EXTRA!'s lesson: the learner and an easy bot, dice that bring each rule up early.

Each note comes the first time its rule applies, whoever's move it is (see
firmware/games/lesson.py); the dice are planned for a learner who takes the first option (the
lowest extra die, the lowest sums, the first free column) each time, but any other choice is
explained as well when it happens.
"""

from __future__ import annotations

from firmware.games.base import Game
from firmware.games.extra.rules import WALLS, Extra
from firmware.games.base import Events
from firmware.games.lesson import Lesson, Note, any_event, at_start, deciding
from firmware.i18n import N_


def _first_choice(game: Game, events: Events, me: int) -> bool:
    """The learner's first decision that takes an extra die (a free ride has its own note)."""
    return deciding(game, events, me) and isinstance(game, Extra) and game.extra_dice() != [None]


def _wall(game: Game, events: Events, me: int) -> bool:
    return any_event(events, "cross", player=me)


def _column(game: Game, events: Events, me: int) -> bool:
    """An owned number came up again and its column was crossed."""
    return any_event(events, "extra", new=False)


def _three(game: Game, events: Events, me: int) -> bool:
    """The learner owns three numbers, the most, and decides: before the free ride's note, as
    in the rules."""
    return deciding(game, events, me) and isinstance(game, Extra) and game.sheets[me].owned == 3


def _free_ride(game: Game, events: Events, me: int) -> bool:
    if any_event(events, "free_ride"):
        return True
    return deciding(game, events, me) and isinstance(game, Extra) and game.extra_dice() == [None]


def _past_wall(game: Game, events: Events, me: int) -> bool:
    return any(e["kind"] == "cross" and e["box"] >= WALLS[e["sum"]] for e in events)


def _ended(game: Game, events: Events, me: int) -> bool:
    return any_event(events, "ended")


def _over(game: Game, events: Events, me: int) -> bool:
    return game.is_over()


# Translators: the EXTRA! lesson's pages: a title (a few words) and short sentences (a 128×64
# display shows about 60 characters a page). Keep the game's terms: extra die, EXTRA table,
# column, row, wall, free ride.
NOTES = (
    Note(
        "goal",
        N_("Learn EXTRA!"),
        N_("One roll of five dice counts for everyone, each on their own sheet. Press OK, then ROLL."),
        at_start,
    ),
    Note(
        "extra",
        N_("The extra die"),
        N_("Take one die as extra die. A new number goes into an empty EXTRA column."),
        _first_choice,
    ),
    Note(
        "pairs",
        N_("Two pairs"),
        N_("The other four dice make two pairs: each sum gets a cross in its row."),
        _first_choice,
    ),
    Note(
        "wall",
        N_("The wall"),
        N_("A row's first boxes are its wall: a row with crosses only there costs 200."),
        _wall,
    ),
    Note(
        "past_wall",
        N_("Past the wall"),
        N_("Past the wall a row counts its points 1, 2, 3, 5 or 7 times."),
        _past_wall,
    ),
    Note(
        "three",
        N_("Three numbers"),
        N_("You own three numbers, the most: the extra die must show one of them."),
        _three,
    ),
    Note(
        "free_ride",
        N_("Free ride"),
        N_("None of your three numbers came: a free ride. Pick any four dice for pairs."),
        _free_ride,
    ),
    Note(
        "column",
        N_("Columns"),
        N_("An owned number taken again crosses the next box of its column."),
        _column,
    ),
    Note(
        "ended",
        N_("A full column"),
        N_("A full column ends that player's game; the others play on."),
        _ended,
    ),
    Note(
        "end",
        N_("The end"),
        N_("All games have ended: the highest total wins. Now you know EXTRA!"),
        _over,
    ),
)

# The five dice of each roll (the learner and the bot roll in turn; both decide on each). With
# the first option each time the learner writes 1, 2 and 3, takes a free ride, then fills the
# 1's column: both games end on roll 10.
ROLLS: tuple[tuple[int, ...], ...] = tuple(
    tuple(int(face) for face in roll.split())
    for roll in (
        "1 6 6 6 6",  # the extra die 1, two pairs of 12: crosses inside the wall
        "2 6 6 6 6",  # 2 in the second column; row 12 past its wall
        "3 5 5 6 6",  # the third number
        "4 4 5 5 6",  # none of 1, 2, 3: a free ride
        "1 4 4 5 5",  # the 1 again: its column is crossed (six times, to the end box)
        "1 4 4 5 5",
        "1 4 4 5 5",
        "1 4 4 5 5",
        "1 4 4 5 5",
        "1 4 4 5 5",
    )
)

LESSON = Lesson(bots=("easy",), rolls=ROLLS, notes=NOTES, seed="extra")
