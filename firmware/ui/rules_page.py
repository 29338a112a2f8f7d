"""The short rules page of each game, as the board shows it: the paragraphs of the game's view
(`GameView.rules`, in the translation catalogs, so one workflow translates them, the catalog
tests check them and the pseudo-locale stretches them like every other string), laid out in
pages of the display's size.

The full rules are docs/rules/<game>.md; these pages are the table-side summary in the board's
own words.

    >>> pages = rules_pages("exxtra", columns=21, lines=5)
    >>> len(pages) > 1 and all(len(page) <= 5 for page in pages)
    True
"""

from __future__ import annotations

from firmware.ui.draw import wrap
from firmware.ui.gameview import game_view


def rules_paragraphs(game: str) -> list[str]:
    """The game's rules paragraphs in the active language."""
    return game_view(game).rules_paragraphs()


def rules_pages(game: str, columns: int, lines: int) -> list[list[str]]:
    """The rules laid out in pages of `lines` lines of at most `columns` characters.

    Paragraphs share a page (a blank line between them) when they fit whole; one that does not
    starts a new page, and one longer than a page is spread evenly over as few pages as it
    needs (no page of one stray line).
    """
    pages: list[list[str]] = []
    for paragraph in rules_paragraphs(game):
        wrapped = wrap(paragraph, columns)
        if pages and len(pages[-1]) + 1 + len(wrapped) <= lines:
            pages[-1] += ["", *wrapped]
            continue
        count = -(-len(wrapped) // lines)
        size = -(-len(wrapped) // count)
        pages += [wrapped[i : i + size] for i in range(0, len(wrapped), size)]
    return pages or [[]]
