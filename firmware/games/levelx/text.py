"""LEVEL X's words on the board: the rules page's paragraphs and what a move did, in one line
(worded when shown, in the active language: the language may change meanwhile). Only events are
read: the engine already says what a step did, this module only words it.
"""

from __future__ import annotations

from collections.abc import Sequence

from firmware.i18n import N_, _, ngettext
from firmware.ui.kit import Events, joined, kinds, name_of

# Translators: each paragraph is one rules page or more on a small display; keep the lines short
# words (the board wraps them) and the numbers as they are.
RULES: tuple[str, ...] = (
    N_("Roll four dice and group them into sums from 5 to 10. Each sum moves you up its row towards the X field."),
    N_("No piece in the row yet: one comes onto the first field. Otherwise your piece moves one field on."),
    N_("On the X field you take a chip worth the row's number; a piece already there goes back to its owner."),
    N_("Two or more ones: you may give new faces to all of those ones but one, once a turn."),
    N_("The last chip of a row closes it; every piece in it leaves the game."),
    N_("Six different chips make a set: each set earns the top bonus tile (15, 12, 9, 6)."),
    N_("The last tile you may take or leave: taking it ends the game with the round."),
    N_(
        "The game ends with the round in which a third row closes or the last bonus tile is "
        "taken. Chips and tiles add up: the highest score wins."
    ),
)

# Translators: the play screen's legend while deciding ("<>" are LEFT/RIGHT; ROLL shows the scores); 21 columns.
LEGEND = N_("<> OK ROLL:scores")


def describe(names: Sequence[str], events: Events) -> str | None:
    """What one step's events did, in one short line (the view's `describe`)."""
    first = events[0]
    who = name_of(names, first.get("player"))
    if first["kind"] == "turn_ones":
        count = len(first.get("dice", ()))
        if count == 1:  # "Red turns one 1", never "1 one"
            return _("{who} turns one 1").format(who=who)
        return ngettext("{who} turns {n} ones", "{who} turns {n} ones", count).format(who=who, n=count)
    if first["kind"] == "bonus":  # the last tile, taken by choice: the game ends with the round
        # Translators: LEVEL X: a player took the last bonus tile; the game ends after this round.
        return _("{who} takes the last tile {tile}: last round").format(who=who, tile=first["tile"])
    if first["kind"] == "bonus_declined":
        # Translators: LEVEL X: a player left the last bonus tile; the game goes on.
        return _("{who} leaves the last tile {tile}").format(who=who, tile=first["tile"])
    groups = kinds(events, "group")
    if not groups:
        return None
    rows = "+".join(str(g["row"]) for g in groups)
    words = [ngettext("row {rows}", "rows {rows}", len(groups)).format(rows=rows)]
    chips = [str(e["row"]) for e in kinds(events, "chip")]
    if chips:
        words.append(_("chip {rows}").format(rows="+".join(chips)))
    ousted = [name_of(names, e["player"]) for e in kinds(events, "oust")]
    if ousted:  # one verb for all of them: "ousts Red & Green", German "wirft Rot & Grün raus"
        # Translators: LEVEL X: the players whose pieces went home; {names} joined with " & ".
        words.append(_("ousts {names}").format(names=" & ".join(ousted)))
    words += [_("bonus {tile}").format(tile=e["tile"]) for e in kinds(events, "bonus")]
    words += [_("{row} closed").format(row=e["row"]) for e in kinds(events, "close")]
    # Translators: a move explained: "Blue: rows 5+10, chip 10" (what: its parts, comma-separated)
    return _("{who}: {what}").format(who=who, what=joined(words))


def describe_for(names: Sequence[str], events: Events, seat: int) -> str | None:
    """What one step did to `seat`, said to them first in the round log: "Green took the X in
    row 8 — your piece went home" (None: none of their pieces was sent home)."""
    first = events[0]
    if first.get("player") == seat:
        return None
    rows = [str(e["row"]) for e in kinds(events, "oust") if e.get("player") == seat]
    if not rows:
        return None
    # Translators: the round log, said to the player whose piece was sent home from the X field:
    # "Green took the X in row 8 — your piece went home"; {rows} is "8" or "8+9".
    return ngettext(
        "{who} took the X in row {rows} — your piece went home",
        "{who} took the X in rows {rows} — your pieces went home",
        len(rows),
    ).format(who=name_of(names, first.get("player")), rows="+".join(rows))
