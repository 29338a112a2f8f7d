"""The players' names kept on the board, so records and high scores carry people, not colours.

The list is one entry of the journal's settings (`players`, a JSON list of texts, in the order
they were added or last sat at a table: the most recent last); `xtraboard players add|remove|list`
manages it, the seat screen offers it (the most recent first) and the board's name entry adds to
it. A name is 1–`MAX_LENGTH` characters the display's font can draw (printable Latin-1), not
one already kept (letter case aside) and not a seat colour's name (that is what an unnamed seat
is called).

    >>> check_name("  Anna ")
    'Anna'
    >>> check_name("Zoë")
    'Zoë'
    >>> check_name("Ŝ")
    Traceback (most recent call last):
    ...
    firmware.players.PlayerNameError: name 'Ŝ': the display cannot draw 'Ŝ' (letters, digits, spaces and Latin-1 signs only)
"""

from __future__ import annotations

import logging
from collections.abc import Iterable
from functools import lru_cache
from typing import TYPE_CHECKING

from firmware.errors import N_, Text, XtraboardError

if TYPE_CHECKING:
    from firmware.journal.protocol import SettingsStore

KEY = "players"
MAX_LENGTH = 10  # fits the play screen's title line beside the counter or round
MAX_PLAYERS = 50  # a list a seat screen can still cycle through

log = logging.getLogger("xtraboard.players")


class PlayerNameError(XtraboardError, ValueError):
    """A player name that cannot be kept, or one that is not kept."""


def drawable(char: str) -> bool:
    """Whether the display's fonts draw `char`: printable Latin-1 (no control characters)."""
    code = ord(char)
    return 0x20 <= code <= 0x7E or 0xA1 <= code <= 0xFF


# The seats' colours by name: every palette of the display and LEDs (firmware/ui/colours.py)
# gives each of them a value.
SEAT_COLOURS = ("red", "blue", "green", "yellow", "purple", "orange", "cyan", "white")


def seat_colour_names(colours: Iterable[str]) -> set[str]:
    """The seat colours' names in every language the board speaks, lower case: a kept name is
    shown whatever the language, so "Rot" would pass for the red seat on a German board."""
    from firmware import i18n

    found: set[str] = set()
    for code in i18n.LANGUAGES:
        catalog = i18n.translations(code)
        found.update(catalog.pgettext("colour", colour).lower() for colour in colours)
    return found


def shown(name: str, most: int = 24) -> str:
    """`name` as an error message echoes it: cut after `most` characters (a pasted page of text
    must not fill the terminal), with "…" saying so.

    >>> shown("Anna"), shown("x" * 10_000)
    ('Anna', 'xxxxxxxxxxxxxxxxxxxxxxxx…')
    """
    return name if len(name) <= most else name[:most] + "…"


def check_name(name: str) -> str:
    """`name` without surrounding spaces if it can be a player's name; PlayerNameError otherwise."""
    text = " ".join(name.split())
    if not text:
        raise PlayerNameError(Text(N_("a player name cannot be empty")))
    if len(text) > MAX_LENGTH:
        raise PlayerNameError(
            Text(
                N_("name {name!r} is {n} characters; at most {most} fit the display"),
                name=shown(text),
                n=len(text),
                most=MAX_LENGTH,
            )
        )
    bad = next((c for c in text if not drawable(c)), None)
    if bad is not None:
        raise PlayerNameError(
            Text(
                N_("name {name!r}: the display cannot draw {char!r} (letters, digits, spaces and Latin-1 signs only)"),
                name=text,
                char=bad,
            )
        )
    if text.lower() in seat_colour_names(SEAT_COLOURS):
        raise PlayerNameError(
            Text(N_("name {name!r} is a seat colour; unnamed seats are called by their colour"), name=text)
        )
    return text


def names(journal: SettingsStore | None) -> list[str]:
    """The kept names, in the order they were added; entries that are not valid are skipped
    (logged), so a damaged list never stops the seat screen."""
    if journal is None:
        return []
    kept = journal.get_setting(KEY, [])
    if not isinstance(kept, list):
        log.warning("players: kept list is %r, not a list; ignored", type(kept).__name__)
        return []
    out: list[str] = []
    for entry in kept:
        try:
            name = check_name(entry) if isinstance(entry, str) else None
        except PlayerNameError as exc:
            log.warning("players: kept name skipped: %s", exc)
            continue
        if name is not None and name.lower() not in (n.lower() for n in out):
            out.append(name)
    return out


def add(journal: SettingsStore, name: str) -> str:
    """Keep `name` (checked); returns it as kept."""
    name = check_name(name)
    kept = names(journal)
    same = next((n for n in kept if n.lower() == name.lower()), None)
    if same is not None:
        raise PlayerNameError(Text(N_("{name!r} is already on the board's list (as {same!r})"), name=name, same=same))
    if len(kept) >= MAX_PLAYERS:
        raise PlayerNameError(Text(N_("the board keeps at most {most} names; remove one first"), most=MAX_PLAYERS))
    journal.set_setting(KEY, [*kept, name])
    return name


def remove(journal: SettingsStore, name: str) -> str:
    """Forget `name` (letter case aside); its past records keep it. Returns it as it was kept."""
    wanted = " ".join(name.split()).lower()
    kept = names(journal)
    found = next((n for n in kept if n.lower() == wanted), None)
    if found is None:
        if not kept:
            raise PlayerNameError(Text(N_("{name!r} is not on the board's list (none kept)"), name=shown(name.strip())))
        raise PlayerNameError(
            Text(N_("{name!r} is not on the board's list ({listed})"), name=shown(name.strip()), listed=", ".join(kept))
        )
    journal.set_setting(KEY, [n for n in kept if n != found])
    return found


def recent(journal: SettingsStore | None) -> list[str]:
    """The kept names, the most recently added or seated first (as the seat screen offers them)."""
    return names(journal)[::-1]


def seated(journal: SettingsStore, seated_names: Iterable[str]) -> None:
    """`seated_names` sat at a table now: each kept one (letter case aside) becomes the most
    recent; a name not kept is not added (a seat called by its colour, a bot's)."""
    kept = names(journal)
    wanted = [n.lower() for n in seated_names]
    moved = [n for n in kept if n.lower() in wanted]
    if moved:
        journal.set_setting(KEY, [n for n in kept if n not in moved] + moved)


def keep(journal: SettingsStore, name: str) -> str:
    """Keep `name` (checked) as the most recent; a name already kept moves there, and when the
    list is full the oldest gives way (the board's name entry never refuses a good name)."""
    name = check_name(name)
    kept = [n for n in names(journal) if n.lower() != name.lower()]
    journal.set_setting(KEY, [*kept[max(0, len(kept) + 1 - MAX_PLAYERS) :], name])
    return name


def forget_all(journal: SettingsStore) -> int:
    """Forget every kept name (the operator's "Erase names"); their past records keep them.
    Returns how many there were."""
    count = len(names(journal))
    journal.set_setting(KEY, [])
    return count


def shown_name(name: str, colour: str) -> str:
    """A seat's name as the board shows it now: a seat nobody named is called by its colour in
    the active language, whichever language the game began in ("Rot" after a switch to French
    would read "Rot case 0" beside the French words: it is "Rouge"); a name a person gave stays.

    >>> from firmware import i18n
    >>> i18n.use("fr"); shown_name("Rot", "red"), shown_name("Rotkäppchen", "red")
    ('Rouge', 'Rotkäppchen')
    >>> i18n.use("en")
    """
    from firmware.i18n import language

    return _shown_name(name, colour, language())


@lru_cache(maxsize=256)  # every frame shows the names: looking through each catalog costs ~10 % of a step
def _shown_name(name: str, colour: str, code: str) -> str:
    """`shown_name` in the active language, `code` (the cache's key: it changes with it)."""
    from firmware.i18n import LANGUAGES, pgettext, translations

    def default(catalog_name: str) -> str:
        return catalog_name.capitalize()[:MAX_LENGTH]

    now = default(pgettext("colour", colour))
    if name == now:
        return name
    for other in LANGUAGES:
        if name == default(translations(other).pgettext("colour", colour)):
            return now
    return name
