"""One line saying what a step did, from the engine's events, for all three games.

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
        return f"{who} rolls again"
    if first["kind"] == "place":
        kicked = [_name(names, e["player"]) for e in _kinds(events, "remove")]
        text = f"{who}: {first['combination']} on rung {first['rung']}"
        return text + (f", kicks {' & '.join(kicked)}" if kicked else "")
    if first["kind"] == "roll":
        invalid = _kinds(events, "invalid")
        if invalid:
            moves = [e for e in _kinds(events, "move") if e["cause"] == "x"]
            back = moves[0]["from"] - moves[0]["to"] if moves else 0
            return f"{who}: X, back {back}" if back else f"{who}: X, turn over"
        doubles = [e for e in _kinds(events, "move") if e["cause"] == "double"]
        if doubles:
            move = doubles[0]
            text = f"{who}: double, +{move['to'] - move['from']}"
            return text + (" and wins" if _kinds(events, "win") else "")
    return None


# --- LEVEL X --------------------------------------------------------------------------------
def _levelx(names: list[str], events: Events) -> str | None:
    first = events[0]
    who = _name(names, first.get("player"))
    if first["kind"] == "turn_ones":
        count = len(first.get("dice", ()))
        return f"{who} turns {count} one{'s' if count != 1 else ''}"
    groups = _kinds(events, "group")
    if not groups:
        return None
    words = ["rows " + "+".join(str(g["row"]) for g in groups) if len(groups) > 1 else f"row {groups[0]['row']}"]
    chips = [str(e["row"]) for e in _kinds(events, "chip")]
    if chips:
        words.append("chip " + "+".join(chips))
    words += [f"ousts {_name(names, e['player'])}" for e in _kinds(events, "oust")]
    words += [f"bonus {e['tile']}" for e in _kinds(events, "bonus")]
    words += [f"{e['row']} closed" for e in _kinds(events, "close")]
    return f"{who}: {_and(words)}"


# --- EXTRA! ---------------------------------------------------------------------------------
def _extra(names: list[str], events: Events) -> str | None:
    first = events[0]
    if first["kind"] not in ("extra", "free_ride"):
        return None
    who = _name(names, first.get("player"))
    words = ["free ride" if first["kind"] == "free_ride" else f"extra {first['face']}"]
    sums = [str(e["sum"]) for e in _kinds(events, "cross")]
    if sums:
        words.append("crosses " + "+".join(sums))
    words += [f"{e['sum']} full" for e in _kinds(events, "row_full")]
    if _kinds(events, "ended"):
        words.append("done")
    return f"{who}: {_and(words)}"


_WORDINGS: dict[str, Callable[[list[str], Events], str | None]] = {
    "exxtra": _exxtra, "levelx": _levelx, "extra": _extra,
}
