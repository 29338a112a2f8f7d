"""EXXTRA's words on the board: the rules page's paragraphs and what a move did, in one line
(worded when shown, in the active language: the language may change meanwhile). Only events are
read: the engine already says what a step did, this module only words it.
"""

from __future__ import annotations

from collections.abc import Sequence

from firmware.i18n import N_, _
from firmware.ui.kit import Events, kinds, name_of

# Translators: each paragraph is one rules page or more on a small display; keep the lines short
# words (the board wraps them) and the numbers as they are.
RULES: tuple[str, ...] = (
    N_(
        "Race your counter from the start to space 21. Each player has a pair of dice: "
        "die A shows 1 2 3 4 7 X, die B 1 2 3 5 6 X."
    ),
    N_("A roll reads as two digits, the higher first: 7 and 1 make 71. On the first roll of a turn an X counts 0."),
    N_("On a later roll an X ends your turn: your counter goes back one space for each X, but never behind the start."),
    N_("A double 1-1, 2-2 or 3-3 moves you on 1, 2 or 3 spaces at once."),
    N_("Roll again as often as you dare, or place the roll on rung 0 or on an empty rung 1 to 5 of the ladder."),
    N_("Every pair on a higher rung whose number is equal or lower goes back to its owner."),
    N_(
        "At the start of your turn your counter moves as many spaces as the rung your dice "
        "lie on. The first to reach the finish wins."
    ),
)

# Translators: the play screen's legend while deciding ("<>" are LEFT/RIGHT; ROLL rolls again); 21 columns.
LEGEND = N_("<> OK ROLL:again")


def describe(names: Sequence[str], events: Events) -> str | None:
    """What one step's events did, in one short line (the view's `describe`)."""
    first = events[0]
    who = name_of(names, first.get("player"))
    if first["kind"] == "reroll":
        return _("{who} rolls again").format(who=who)
    if first["kind"] == "place":
        kicked = [name_of(names, e["player"]) for e in kinds(events, "remove")]
        if kicked:
            return _("{who}: {combination} on rung {rung}, kicks {kicked}").format(
                who=who, combination=first["combination"], rung=first["rung"], kicked=" & ".join(kicked)
            )
        return _("{who}: {combination} on rung {rung}").format(
            who=who, combination=first["combination"], rung=first["rung"]
        )
    if first["kind"] == "roll":
        if kinds(events, "invalid"):
            moves = [e for e in kinds(events, "move") if e["cause"] == "x"]
            back = moves[0]["from"] - moves[0]["to"] if moves else 0
            if back:
                return _("{who}: X, back {n}").format(who=who, n=back)
            return _("{who}: X, turn over").format(who=who)
        doubles = [e for e in kinds(events, "move") if e["cause"] == "double"]
        if doubles:
            spaces = doubles[0]["to"] - doubles[0]["from"]
            if kinds(events, "win"):
                return _("{who}: double, +{n} and wins").format(who=who, n=spaces)
            return _("{who}: double, +{n}").format(who=who, n=spaces)
    return None


def describe_for(names: Sequence[str], events: Events, seat: int) -> str | None:
    """What one step did to `seat`, said to them first in the round log: "Blue 76 → rung 4:
    kicked your 50" (None: it did not touch their pairs)."""
    first = events[0]
    if first["kind"] != "place" or first.get("player") == seat:
        return None
    yours = [e["combination"] for e in kinds(events, "remove") if e.get("player") == seat]
    if not yours:
        return None
    # Translators: the round log, said to the player whose pair was kicked: "Blue 76 → rung 4: kicked your 50".
    return _("{who} {combination} → rung {rung}: kicked your {yours}").format(
        who=name_of(names, first.get("player")),
        combination=first["combination"],
        rung=first["rung"],
        yours=" & ".join(yours),
    )
