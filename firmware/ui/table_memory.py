"""What the board remembers of the people at it: the names entered on the board and the last
table (game and seats: names, colours, bots and their levels), which the main menu offers first
as "Same table again".

At home both are kept in the journal's settings: the names in the players' list
(firmware/players.py), the last table as `last_table`. On a café's board (kiosk) they are kept
only where the operator allows it (the operator settings' `keep_names`); otherwise they live in
memory for the group at the board and are forgotten when the idle show starts, so the next group
never sees them. "Erase names" in the operator menu forgets both, kept and in memory.
"""

from __future__ import annotations

import logging
from collections.abc import Callable
from dataclasses import dataclass, field, replace
from typing import TYPE_CHECKING

from firmware import players
from firmware.games import game_names
from firmware.players import check_name
from firmware.table import Seat

if TYPE_CHECKING:
    from firmware.journal.protocol import SettingsStore

KEY = "last_table"  # {"game": ..., "seats": [{"name", "colour", "bot", "kids"}, ...]}

log = logging.getLogger("xtraboard.ui")


@dataclass(frozen=True)
class LastTable:
    game: str
    seats: tuple[Seat, ...]

    def fresh_seats(self) -> list[Seat]:
        """Copies of the seats, for a new game (the setup menus change seats in place)."""
        return [replace(seat) for seat in self.seats]

    def as_json(self) -> dict[str, object]:
        return {
            "game": self.game,
            "seats": [{"name": s.name, "colour": s.colour, "bot": s.bot, "kids": s.kids} for s in self.seats],
        }

    @classmethod
    def from_json(cls, value: object) -> LastTable | None:
        """The kept table, or None if there is none or it cannot be read (logged: a damaged
        entry only takes "Same table again" off the menu)."""
        if value is None:
            return None
        try:
            assert isinstance(value, dict)
            game, seats = value["game"], value["seats"]
            assert game in game_names() and isinstance(seats, list) and seats
            out = []
            for seat in seats:
                name, colour, bot, kids = seat["name"], seat["colour"], seat["bot"], seat["kids"]
                assert isinstance(name, str) and isinstance(colour, str) and colour in players.SEAT_COLOURS
                assert (bot is None or isinstance(bot, str)) and isinstance(kids, bool)
                out.append(Seat(name, colour, bot, kids))
        except (AssertionError, KeyError, TypeError) as exc:
            log.warning("last table: kept entry %r cannot be read (%s); not offered", value, exc)
            return None
        return cls(game, tuple(out))


@dataclass
class TableMemory:
    """The names and the last table of the people at the board; `keeps()`: kept in the journal
    (at home, or where the café's operator allows it), else only here, until `new_group`."""

    journal: SettingsStore | None
    keeps: Callable[[], bool] = lambda: True
    names_here: list[str] = field(default_factory=list)  # entered, not kept: the most recent last
    last_here: LastTable | None = None

    def _kept(self) -> SettingsStore | None:
        return self.journal if self.keeps() else None

    def recent_names(self) -> list[str]:
        """The names a seat may take, the most recent first."""
        kept = self._kept()
        return players.recent(kept) if kept is not None else self.names_here[::-1]

    def add_name(self, name: str) -> str:
        """Remember `name` (checked: PlayerNameError) as the most recent; returns it as kept."""
        kept = self._kept()
        if kept is not None:
            return players.keep(kept, name)
        name = check_name(name)
        self.names_here = [n for n in self.names_here if n.lower() != name.lower()] + [name]
        return name

    def sat_down(self, game: str, seats: list[Seat]) -> None:
        """A table of the setup menus began: its names are the most recent, it is the last table."""
        table = LastTable(game, tuple(replace(s) for s in seats))
        people = [s.name for s in seats if s.bot is None and not s.kids]
        kept = self._kept()
        if kept is not None:
            players.seated(kept, people)
            kept.set_setting(KEY, table.as_json())
        else:
            here = [n.lower() for n in people]
            moved = [n for n in self.names_here if n.lower() in here]
            self.names_here = [n for n in self.names_here if n not in moved] + moved
            self.last_here = table

    def last_table(self, offered: list[str]) -> LastTable | None:
        """The last table, if its game is still offered."""
        kept = self._kept()
        table = LastTable.from_json(kept.get_setting(KEY, None)) if kept is not None else self.last_here
        return table if table is not None and table.game in offered else None

    def new_group(self) -> bool:
        """The idle show began: what is not kept is forgotten (the next group starts afresh).
        Whether there was anything to forget."""
        forgot = bool(self.names_here) or self.last_here is not None
        self.names_here, self.last_here = [], None
        return forgot

    def erase(self) -> int:
        """Forget every name and the last table, kept or here; how many names were forgotten."""
        count = len(self.names_here)
        self.new_group()
        if self.journal is not None:
            count += players.forget_all(self.journal)
            self.journal.set_setting(KEY, None)
        return count
