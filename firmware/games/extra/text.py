"""EXTRA!'s words on the board: the rules page's paragraphs and what a step did (`WORDS`, the
game's `firmware.games.words.Words`), worded when asked, in the active language. Only events are
read: the engine already says what a step did, this module only words it.
"""

from __future__ import annotations

from collections.abc import Sequence

from firmware.i18n import N_, _
from firmware.games.base import Events
from firmware.games.words import Said, Words, joined, kinds, name_of, rolled, spoken

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


class ExtraWords(Words):
    """EXTRA!'s steps in words: a player's choice on the roll (the extra die or a free ride, the
    pairs crossed, full rows, the sheet finished); a plain roll is said but not shown."""

    def said(self, names: Sequence[str], events: Events) -> Said | None:
        if not events:
            return None
        first = events[0]
        who = name_of(names, first.get("player"))
        if first["kind"] == "roll":
            return rolled(who, first["faces"])
        if first["kind"] not in ("extra", "free_ride"):
            return None
        free = first["kind"] == "free_ride"
        sums = [str(e["sum"]) for e in kinds(events, "cross")]
        full = [str(e["sum"]) for e in kinds(events, "row_full")]
        ended = bool(kinds(events, "ended"))
        words = [_("free ride") if free else _("extra {face}").format(face=first["face"])]
        if sums:
            words.append(_("crosses {sums}").format(sums="+".join(sums)))
        words += [_("{sum} full").format(sum=row) for row in full]
        if ended:
            # Translators: EXTRA!: the player's sheet is finished
            words.append(_("done"))
        # Translators: EXTRA!: the game's log: "Ann took extra 3, crossed 7+9".
        logged = [_("had a free ride") if free else _("took extra {face}").format(face=first["face"])]
        if sums:
            # Translators: EXTRA!: the game's log: the pairs' sums crossed, "7+9".
            logged.append(_("crossed {sums}").format(sums="+".join(sums)))
        # Translators: EXTRA!: the game's log: a pair's row was full already.
        logged += [_("row {sum} full").format(sum=row) for row in full]
        if ended:
            # Translators: EXTRA!: the game's log: the player's sheet is finished.
            logged.append(_("sheet done"))
        # Translators: EXTRA!, read aloud: the player's extra die, "takes the extra die 3".
        said = [_("has a free ride") if free else _("takes the extra die {face}").format(face=first["face"])]
        if sums:
            # Translators: EXTRA!, read aloud: the pairs' sums crossed, "7 and 9".
            said.append(_("crosses {sums}").format(sums=spoken(sums)))
        # Translators: EXTRA!, read aloud: a pair's row was full already, no cross.
        said += [_("finds row {sum} full").format(sum=row) for row in full]
        if ended:
            # Translators: EXTRA!, read aloud: the player's sheet is finished.
            said.append(_("finishes the sheet"))
        return Said(
            _("{who}: {what}").format(who=who, what=joined(words)),
            _("{who} {what}.").format(who=who, what=spoken(said)),
            # Translators: EXTRA!: the game's log, who and what they did: "Ann took extra 3, crossed 7+9".
            _("{who} {what}").format(who=who, what=joined(logged)),
        )


WORDS = ExtraWords()
