"""EXTRA!'s words on the board: the rules page's paragraphs and what a step did (`WORDS`, the
game's `firmware.games.words.Words`): its animations' captions, its options' labels and its
hints too, worded when asked, in the active language. What a step did is read from its events
alone (the engine already says it, this module only words it); an option, from the position.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from typing import TYPE_CHECKING

from firmware.i18n import N_, _, pgettext
from firmware.games.base import Event, Events
from firmware.games.extra.rules import ROW_SIZES, Choice, Extra, Sheet
from firmware.games.words import Label, Said, Words, joined, kinds, name_of, rolled, spoken

if TYPE_CHECKING:
    from firmware.games.base import Game, Step

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

# Translators: the legend while deciding ("<>" are LEFT/RIGHT, which pick; ROLL flips through the sheets); 21 columns.
LEGEND = N_("<> pick  ROLL: sheets")

COLUMN_NAMES = "ABC"  # the EXTRA table's columns, as the sheet and the options name them
FREE_RIDE = "free ride"  # an option's part key and text for a decision without an extra die


def part_text(part: str, short: bool = False) -> str:
    """An option's part as shown: the free ride in the active language (`short`: one word, where
    room is scarce); dice and sums ("x3", "4+6", ">B") as they are."""
    if part != FREE_RIDE:
        return part
    # Translators: EXTRA!: a decision without an extra die; short, it shares a line with "(10)+(12) 1/4".
    return pgettext("EXTRA!", "free") if short else pgettext("EXTRA!", "free ride")


def part_words(part: str) -> str:
    """An option's part in plain words, for the part a player is choosing now: "extra 3" for
    "x3", "column B" for ">B"; the pairs and the free ride as `part_text` says them."""
    if part.startswith("x") and part[1:].isdigit():
        # Translators: EXTRA!: the extra die's face while the player chooses it ("x3" where room is short).
        return pgettext("EXTRA!", "extra {face}").format(face=part[1:])
    if part.startswith(">") and part[1:] in COLUMN_NAMES:
        # Translators: EXTRA!: the column a new number goes into while the player chooses it (">B" where room is short).
        return pgettext("EXTRA!", "column {column}").format(column=part[1:])
    return part_text(part)


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
        logged = [_("had a free ride") if free else took_extra(first)]
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

    def caption(self, names: Sequence[str], event: Event | None, events: Events, before: Game | None = None) -> str:
        """The sheet's header while a decision's crosses blink ("4+(6) x3", "free: 7+9"), and
        when the player's game ends."""
        if event is None:
            return ""
        if event["kind"] == "ended":
            # Translators: EXTRA!: a sheet's header when that player's game ends.
            return _("game ends")
        if event["kind"] not in ("extra", "free_ride", "cross", "row_full"):
            return ""
        pairs = sorted((e for e in events if e["kind"] in ("cross", "row_full")), key=lambda e: e["sum"])
        sums = "+".join(str(e["sum"]) if e["kind"] == "cross" else f"({e['sum']})" for e in pairs)
        extra = next((e for e in events if e["kind"] == "extra"), None)
        return free_text(sums) if extra is None else f"{sums} x{extra['face']}"

    def option(self, names: Sequence[str], game: Game, decision: Step) -> Label | None:
        """A choice on the roll as a player says it ("4+6 x3>B"), in its three parts: the extra
        die ("x3", or the free ride), the pairs ("4+6"), the column of a new number (">B", or "")."""
        if not isinstance(game, Extra) or not isinstance(decision, Choice) or not game.undecided:
            return None
        sheet, faces = game.sheets[game.undecided[0]], game.faces or ()
        face = None if decision.extra is None else faces[decision.extra]
        new = face is not None and sheet.column_of(face) is None and decision.column is not None
        parts = (
            FREE_RIDE if face is None else f"x{face}",
            pairs_text(sheet, faces, decision),
            f">{COLUMN_NAMES[decision.column]}" if new and decision.column is not None else "",
        )
        return Label(label(sheet, faces, decision), parts=parts)


def took_extra(event: Event) -> str:
    """The log's extra die, naming the EXTRA column a new number goes into: two choices on one
    roll can differ in that alone."""
    if event.get("new") and isinstance(event.get("column"), int):
        # Translators: EXTRA!: the game's log: a new number's extra die and the EXTRA column it goes into, "took extra 3 into column B".
        return _("took extra {face} into column {column}").format(
            face=event["face"], column=COLUMN_NAMES[event["column"]]
        )
    return _("took extra {face}").format(face=event["face"])


def crossed_sums(sheet: Sheet, sums: list[int]) -> list[int]:
    """Those of `sums` that get a cross, in order (a full row takes none)."""
    added: Counter[int] = Counter()
    crossed = []
    for total in sums:
        if sheet.crosses_in(total) + added[total] < ROW_SIZES[total]:
            added[total] += 1
            crossed.append(total)
    return crossed


def label(sheet: Sheet, faces: tuple[int, ...], choice: Choice) -> str:
    """How a player says it: "4+6 x3", "4+6 x3>B" (new number into column B), "free: 7+9";
    a sum whose row is full (no cross) in brackets: "(4)+6 x3"."""
    pairs = pairs_text(sheet, faces, choice)
    if choice.extra is None:
        return free_text(pairs)
    face = faces[choice.extra]
    new = f">{COLUMN_NAMES[choice.column]}" if sheet.column_of(face) is None and choice.column is not None else ""
    return f"{pairs} x{face}{new}"


def free_text(pairs: str) -> str:
    """A free ride's pairs in the active language: "free: 7+9"."""
    # Translators: EXTRA!: a decision without an extra die and its two sums ("7+9"); keep it short.
    return pgettext("EXTRA!", "free: {pairs}").format(pairs=pairs)


def pairs_text(sheet: Sheet, faces: tuple[int, ...], choice: Choice) -> str:
    """The option's two sums, "4+6"; a sum whose row is full in brackets: "(4)+6"."""
    sums = sorted(faces[a] + faces[b] for a, b in choice.pairs)
    crossed = Counter(crossed_sums(sheet, sums))
    parts = []
    for total in sums:
        if crossed[total]:
            crossed[total] -= 1
            parts.append(str(total))
        else:
            parts.append(f"({total})")
    return "+".join(parts)


WORDS = ExtraWords()
