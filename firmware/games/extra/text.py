"""EXTRA!'s words on the board: the rules page's paragraphs and what a move did, in one line
(worded when shown, in the active language: the language may change meanwhile). Only events are
read: the engine already says what a step did, this module only words it.
"""

from __future__ import annotations

from collections.abc import Sequence

from firmware.i18n import N_, _
from firmware.ui.kit import Events, joined, kinds, name_of

# Translators: each paragraph is one rules page or more on a small display; keep the lines short
# words (the board wraps them) and the numbers as they are.
RULES: tuple[str, ...] = (
    N_("One roll of five dice counts for every player. Each player uses it on their own sheet."),
    N_(
        "First take one die as your extra die: its number goes into your EXTRA table, where "
        "you may own up to three numbers. Each time one comes up again, cross its column."
    ),
    N_("Own three and the roll shows none of them: a free ride. Pick any four dice."),
    N_("Split the other four dice into two pairs. Each pair's sum gets a cross in its row, 2 to 12."),
    N_(
        "A row scores nothing while its crosses are inside the wall: that costs 200 points. "
        "Beyond it the row's points count 1, 2, 3, 5 or 7 times."
    ),
    N_("Your game ends when a column of your EXTRA table is full. The highest total wins."),
)

# Translators: the play screen's legend while deciding ("<>" are LEFT/RIGHT; ROLL flips through the sheets); 21 columns.
LEGEND = N_("<> OK ROLL:sheets")


def describe(names: Sequence[str], events: Events) -> str | None:
    """What one step's events did, in one short line (the view's `describe`)."""
    first = events[0]
    if first["kind"] not in ("extra", "free_ride"):
        return None
    who = name_of(names, first.get("player"))
    words = [_("free ride") if first["kind"] == "free_ride" else _("extra {face}").format(face=first["face"])]
    sums = [str(e["sum"]) for e in kinds(events, "cross")]
    if sums:
        words.append(_("crosses {sums}").format(sums="+".join(sums)))
    words += [_("{sum} full").format(sum=e["sum"]) for e in kinds(events, "row_full")]
    if kinds(events, "ended"):
        # Translators: EXTRA!: the player's sheet is finished
        words.append(_("done"))
    return _("{who}: {what}").format(who=who, what=joined(words))
