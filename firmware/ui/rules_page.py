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

from firmware.ui.draw import text_pages
from firmware.ui.gameview import game_view


def rules_paragraphs(game: str) -> list[str]:
    """The game's rules paragraphs in the active language."""
    return game_view(game).rules_paragraphs()


def rules_pages(game: str, columns: int, lines: int) -> list[list[str]]:
    """The rules laid out in pages of `lines` lines of at most `columns` characters.

    Paragraphs share a page (a blank line between them) when they fit whole; one that does not
    starts a new page and is paged by sentences (`text_pages`), never broken inside one.
    """
    pages: list[list[str]] = []
    for paragraph in rules_paragraphs(game):
        own = text_pages(paragraph, columns, lines)
        if pages and len(own) == 1 and len(pages[-1]) + 1 + len(own[0]) <= lines:
            pages[-1] += ["", *own[0]]
            continue
        pages += own
    return pages or [[]]
