"""Names the board shows for things it keeps in English: seat colours, bot levels, and the name
of a seat nobody named (its colour's, in the active language).

    >>> from firmware import i18n
    >>> i18n.use("de"); colour_name("purple"), default_name("green"), level_name("strong")
    ('lila', 'Grün', 'stark')
    >>> i18n.use("fr"); colour_initial("green"), colour_initial("yellow")
    ('V', 'J')
    >>> i18n.use("en")
"""

from __future__ import annotations

from firmware.i18n import pgettext
from firmware.players import MAX_LENGTH
from firmware.players import shown_name as shown_name  # a seat's name as shown now


def colour_name(colour: str) -> str:
    """A seat colour's name in the active language (unknown colours as they are)."""
    names = {
        "red": pgettext("colour", "red"),
        "blue": pgettext("colour", "blue"),
        "green": pgettext("colour", "green"),
        "yellow": pgettext("colour", "yellow"),
        "purple": pgettext("colour", "purple"),
        "orange": pgettext("colour", "orange"),
    }
    return names.get(colour, colour)


def colour_initial(colour: str) -> str:
    """The one letter that names a seat colour on a seat's badge, in the active language ("V"
    for vert in French); unknown colours by their own first letter."""
    initials = {
        # Translators: the one-letter badge of a seat colour; the six colours' letters must differ.
        "red": pgettext("colour initial", "R"),
        # Translators: the one-letter badge of a seat colour; the six colours' letters must differ.
        "blue": pgettext("colour initial", "B"),
        # Translators: the one-letter badge of a seat colour; the six colours' letters must differ.
        "green": pgettext("colour initial", "G"),
        # Translators: the one-letter badge of a seat colour; the six colours' letters must differ.
        "yellow": pgettext("colour initial", "Y"),
        # Translators: the one-letter badge of a seat colour; the six colours' letters must differ.
        "purple": pgettext("colour initial", "P"),
        # Translators: the one-letter badge of a seat colour; the six colours' letters must differ.
        "orange": pgettext("colour initial", "O"),
    }
    # one letter, whatever a translation wraps it in (the fit test's pseudo-locale: "[Ý·]")
    letters = [c for c in initials.get(colour, colour) if c.isalpha()] or [colour[:1]]
    return letters[0].upper()


def default_name(colour: str) -> str:
    """The name of a seat nobody named: its colour's, capitalised, as long as a name may be."""
    return colour_name(colour).capitalize()[:MAX_LENGTH]


def is_default_name(name: str, colour: str) -> bool:
    """Whether `name` is the colour's own name (then saying the colour beside it is redundant)."""
    return name.lower() in (default_name(colour).lower(), colour)


def level_name(level: str) -> str:
    """A bot level's name in the active language."""
    names = {
        "easy": pgettext("bot level", "easy"),
        "medium": pgettext("bot level", "medium"),
        "strong": pgettext("bot level", "strong"),
    }
    return names.get(level, level)
