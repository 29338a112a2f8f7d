"""One line saying what a step did, from the engine's events, for all three games, in the
active language (worded when shown: the language may change meanwhile).

The board shows it after every move (by a bot, an engine or the previous person) until the
next decision, so nobody has to watch the LEDs to know what happened. Only events are read:
the engines already say what a step did, this module only words it.

    >>> explain("exxtra", ["Blue", "Red", "Green"], [
    ...     {"kind": "place", "player": 0, "rung": 5, "combination": "62"},
    ...     {"kind": "remove", "player": 1, "rung": 4, "combination": "51", "by": 0},
    ...     {"kind": "turn", "player": 1}])
    'Blue: 62 on rung 5, kicks Red'
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

from firmware.i18n import _, ngettext

Events = Sequence[dict[str, Any]]


def explain(game: str, names: Sequence[str], events: Events) -> str | None:
    """What `events` (one step's) say, in one short line; None when there is nothing to tell
    (a plain roll: the dice show it)."""
    wording = _WORDINGS.get(game)
    if wording is None or not events:
        return None
    return wording(list(names), list(events))


def _name(names: list[str], player: Any) -> str:
    return names[player] if isinstance(player, int) and 0 <= player < len(names) else "?"


def _kinds(events: Events, kind: str) -> list[dict[str, Any]]:
    return [event for event in events if event.get("kind") == kind]


def _and(words: list[str]) -> str:
    return ", ".join(words)


# --- EXXTRA ---------------------------------------------------------------------------------
def _exxtra(names: list[str], events: Events) -> str | None:
    first = events[0]
    who = _name(names, first.get("player"))
    if first["kind"] == "reroll":
        return _("{who} rolls again").format(who=who)
    if first["kind"] == "place":
        kicked = [_name(names, e["player"]) for e in _kinds(events, "remove")]
        if kicked:
            return _("{who}: {combination} on rung {rung}, kicks {kicked}").format(
                who=who, combination=first["combination"], rung=first["rung"], kicked=" & ".join(kicked))
        return _("{who}: {combination} on rung {rung}").format(
            who=who, combination=first["combination"], rung=first["rung"])
    if first["kind"] == "roll":
        if _kinds(events, "invalid"):
            moves = [e for e in _kinds(events, "move") if e["cause"] == "x"]
            back = moves[0]["from"] - moves[0]["to"] if moves else 0
            if back:
                return _("{who}: X, back {n}").format(who=who, n=back)
            return _("{who}: X, turn over").format(who=who)
        doubles = [e for e in _kinds(events, "move") if e["cause"] == "double"]
        if doubles:
            spaces = doubles[0]["to"] - doubles[0]["from"]
            if _kinds(events, "win"):
                return _("{who}: double, +{n} and wins").format(who=who, n=spaces)
            return _("{who}: double, +{n}").format(who=who, n=spaces)
    return None


# --- LEVEL X --------------------------------------------------------------------------------
def _levelx(names: list[str], events: Events) -> str | None:
    first = events[0]
    who = _name(names, first.get("player"))
    if first["kind"] == "turn_ones":
        count = len(first.get("dice", ()))
        return ngettext("{who} turns {n} one", "{who} turns {n} ones", count).format(who=who, n=count)
    if first["kind"] == "bonus":  # the last tile, taken by choice: the game ends with the round
        # Translators: LEVEL X: a player took the last bonus tile; the game ends after this round.
        return _("{who} takes the last tile {tile}: last round").format(who=who, tile=first["tile"])
    if first["kind"] == "bonus_declined":
        # Translators: LEVEL X: a player left the last bonus tile; the game goes on.
        return _("{who} leaves the last tile {tile}").format(who=who, tile=first["tile"])
    groups = _kinds(events, "group")
    if not groups:
        return None
    rows = "+".join(str(g["row"]) for g in groups)
    words = [ngettext("row {rows}", "rows {rows}", len(groups)).format(rows=rows)]
    chips = [str(e["row"]) for e in _kinds(events, "chip")]
    if chips:
        words.append(_("chip {rows}").format(rows="+".join(chips)))
    words += [_("ousts {name}").format(name=_name(names, e["player"])) for e in _kinds(events, "oust")]
    words += [_("bonus {tile}").format(tile=e["tile"]) for e in _kinds(events, "bonus")]
    words += [_("{row} closed").format(row=e["row"]) for e in _kinds(events, "close")]
    # Translators: a move explained: "Blue: rows 5+10, chip 10" (what: its parts, comma-separated)
    return _("{who}: {what}").format(who=who, what=_and(words))


# --- EXTRA! ---------------------------------------------------------------------------------
def _extra(names: list[str], events: Events) -> str | None:
    first = events[0]
    if first["kind"] not in ("extra", "free_ride"):
        return None
    who = _name(names, first.get("player"))
    words = [_("free ride") if first["kind"] == "free_ride" else _("extra {face}").format(face=first["face"])]
    sums = [str(e["sum"]) for e in _kinds(events, "cross")]
    if sums:
        words.append(_("crosses {sums}").format(sums="+".join(sums)))
    words += [_("{sum} full").format(sum=e["sum"]) for e in _kinds(events, "row_full")]
    if _kinds(events, "ended"):
        # Translators: EXTRA!: the player's sheet is finished
        words.append(_("done"))
    return _("{who}: {what}").format(who=who, what=_and(words))


_WORDINGS: dict[str, Callable[[list[str], Events], str | None]] = {
    "exxtra": _exxtra, "levelx": _levelx, "extra": _extra,
}
