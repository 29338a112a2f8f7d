"""The short rules page of each game, as the board shows it: paragraphs in the translation
catalogs (so one workflow translates them, the catalog tests check them and the pseudo-locale
stretches them like every other string), laid out in pages of the display's size.

The full rules are docs/rules/<game>.md; these pages are the table-side summary in the board's
own words.

    >>> pages = rules_pages("exxtra", columns=21, lines=5)
    >>> len(pages) > 1 and all(len(page) <= 5 for page in pages)
    True
"""

from __future__ import annotations

from firmware.i18n import N_, _

# Translators: each paragraph is one rules page or more on a small display; keep the lines short
# words (the board wraps them) and the numbers as they are.
RULES: dict[str, tuple[str, ...]] = {
    "exxtra": (
        N_("Race your counter from the start to space 21. Each player has a pair of dice: "
           "die A shows 1 2 3 4 7 X, die B 1 2 3 5 6 X."),
        N_("A roll reads as two digits, the higher first: 7 and 1 make 71. On the first roll "
           "of a turn an X counts 0."),
        N_("On a later roll an X ends your turn: your counter goes back one space for each X, "
           "but never behind the start."),
        N_("A double 1-1, 2-2 or 3-3 moves you on 1, 2 or 3 spaces at once."),
        N_("Roll again as often as you dare, or place the roll on rung 0 or on an empty rung "
           "1 to 5 of the ladder."),
        N_("Every pair on a higher rung whose number is equal or lower goes back to its owner."),
        N_("At the start of your turn your counter moves as many spaces as the rung your dice "
           "lie on. The first to reach the finish wins."),
    ),
    "levelx": (
        N_("Roll four dice and group them into sums from 5 to 10. Each sum moves you up its row "
           "towards the X field."),
        N_("No piece in the row yet: one comes onto the first field. Otherwise your piece moves "
           "one field on."),
        N_("On the X field you take a chip worth the row's number; a piece already there goes "
           "back to its owner."),
        N_("Two or more ones: you may give new faces to all of those ones but one, once a turn."),
        N_("The last chip of a row closes it; every piece in it leaves the game."),
        N_("Six different chips make a set: each set earns the top bonus tile (15, 12, 9, 6)."),
        N_("The last tile you may take or leave: taking it ends the game with the round. Left, "
           "it is offered again after your next turn with a chip."),
        N_("The game ends with the round in which a third row closes or the last bonus tile is "
           "taken. Chips and tiles add up: the highest score wins."),
    ),
    "extra": (
        N_("One roll of five dice counts for every player. Each player uses it on their own sheet."),
        N_("First take one die as your extra die: its number goes into your EXTRA table, where "
           "you may own up to three numbers. Each time one comes up again, cross its column."),
        N_("Own three and the roll shows none of them: a free ride. Pick any four dice."),
        N_("Split the other four dice into two pairs. Each pair's sum gets a cross in its row, "
           "2 to 12."),
        N_("A row scores nothing while its crosses are inside the wall: that costs 200 points. "
           "Beyond it the row's points count 1, 2, 3, 5 or 7 times."),
        N_("Your game ends when a column of your EXTRA table is full. The highest total wins."),
    ),
}


def rules_paragraphs(game: str) -> list[str]:
    """The game's rules paragraphs in the active language."""
    return [_(paragraph) for paragraph in RULES[game]]


def rules_pages(game: str, columns: int, lines: int) -> list[list[str]]:
    """The rules laid out in pages of `lines` lines of at most `columns` characters.

    Paragraphs share a page (a blank line between them) when they fit whole; one that does not
    starts a new page, and one longer than a page is spread evenly over as few pages as it
    needs (no page of one stray line).
    """
    from firmware.ui.draw import wrap

    pages: list[list[str]] = []
    for paragraph in rules_paragraphs(game):
        wrapped = wrap(paragraph, columns)
        if pages and len(pages[-1]) + 1 + len(wrapped) <= lines:
            pages[-1] += ["", *wrapped]
            continue
        count = -(-len(wrapped) // lines)
        size = -(-len(wrapped) // count)
        pages += [wrapped[i: i + size] for i in range(0, len(wrapped), size)]
    return pages or [[]]
