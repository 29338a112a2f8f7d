"""LEVEL X's words on the board: the rules page's paragraphs and what a step did (`WORDS`, the
game's `firmware.games.words.Words`), worded when asked, in the active language. Only events are
read: the engine already says what a step did, this module only words it.
"""

from __future__ import annotations

from collections.abc import Sequence

from firmware.i18n import N_, _, ngettext
from firmware.games.base import Event, Events
from firmware.games.words import Said, Words, faces_text, joined, kinds, name_of, rolled, spoken

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


class LevelXWords(Words):
    """LEVEL X's steps in words: turned ones, the groups played (chips, pieces sent home, bonus
    tiles, rows closed), the last tile taken or left; a plain roll and a pass are said but not
    shown."""

    def said(self, names: Sequence[str], events: Events) -> Said | None:
        if not events:
            return None
        first = events[0]
        who = name_of(names, first.get("player"))
        kind = first["kind"]
        if kind == "roll":
            return rolled(who, first["faces"])
        if kind == "turn_ones":
            return _turned(first, who)
        if kind in ("bonus", "bonus_declined"):  # the last tile, taken or left by choice
            return _last_tile(first, who)
        groups = kinds(events, "group")
        if groups:
            return _played(names, events, groups, who)
        mover = name_of(names, _passer(names, events))
        return Said(
            # Translators: LEVEL X: a player played no group (nothing to group).
            _("{who} passes").format(who=mover),
            # Translators: LEVEL X, read aloud: a player played no group.
            _("{who} plays no row.").format(who=mover),
            # Translators: LEVEL X: the game's log: a player played no group.
            _("{who} passed").format(who=mover),
            shown=False,
        )

    def said_to(self, names: Sequence[str], events: Events, seat: int) -> Said | None:
        first = events[0] if events else None
        if first is None or first.get("player") == seat:
            return None
        rows = [str(e["row"]) for e in kinds(events, "oust") if e.get("player") == seat]
        if not rows:
            return None
        who = name_of(names, first.get("player"))
        # Translators: the round log, said to the player whose piece was sent home from the X field:
        # "Green took the X in row 8 — your piece went home"; {rows} is "8" or "8+9".
        line = ngettext(
            "{who} took the X in row {rows} — your piece went home",
            "{who} took the X in rows {rows} — your pieces went home",
            len(rows),
        ).format(who=who, rows="+".join(rows))
        # Translators: LEVEL X, read aloud to the player whose piece was sent home: {rows} is "8" or "8 and 9".
        sentence = ngettext(
            "{who} takes the X in row {rows} and sends your piece home.",
            "{who} takes the X in rows {rows} and sends your pieces home.",
            len(rows),
        ).format(who=who, rows=spoken(rows))
        return Said(line, sentence, line)

    def last_turn(self, names: Sequence[str], events: Events) -> str:
        """What the previous player did, in the few words under the roll prompt ("Blue played
        7+9"); "" when the events end no turn."""
        turn = next((e for e in events if e["kind"] in ("turn", "game_over")), None)
        if turn is None:
            return ""
        count = len(names)
        mover = (turn["player"] - 1) % count if turn["kind"] == "turn" else count - 1
        rows = sorted(e["row"] for e in events if e["kind"] == "group")
        name = name_of(names, mover)
        if events[0]["kind"] == "bonus":  # the last tile, taken by choice
            # Translators: LEVEL X: under the roll prompt, what the previous player did with the last bonus tile.
            return _("{name} took tile {tile}").format(name=name, tile=events[0]["tile"])
        if events[0]["kind"] == "bonus_declined":
            return _("{name} left tile {tile}").format(name=name, tile=events[0]["tile"])
        return (
            _("{name} played {rows}").format(name=name, rows="+".join(map(str, rows)))
            if rows
            else _("{name} passed").format(name=name)
        )


def _passer(names: Sequence[str], events: Events) -> int | None:
    """Who played a pass: its events name only what comes next (the next turn, the game's end,
    the offer of the last tile)."""
    for event in events:
        if event["kind"] == "turn":
            return (event["player"] - 1) % len(names) if names else None
        if event["kind"] == "game_over":
            return len(names) - 1
        if event["kind"] == "bonus_offer":
            return int(event["player"])
    return None


def _turned(first: Event, who: str) -> Said:
    count = len(first.get("dice", ()))
    faces = [str(face) for face in first.get("faces", ())]
    if count == 1:  # "Red turns one 1", never "1 one"
        short = _("{who} turns one 1").format(who=who)
        # Translators: LEVEL X, read aloud: a player turned one of their ones; {faces} the dice now, "4, 6, 1 and 4".
        sentence = _("{who} turns one 1; the dice show {faces}.").format(who=who, faces=spoken(faces))
        # Translators: LEVEL X: the game's log: a player turned one of their ones; {faces} the dice now, "4 6 1 4".
        log = _("{who} turned one 1: {faces}").format(who=who, faces=faces_text(faces))
        return Said(short, sentence, log)
    return Said(
        ngettext("{who} turns {n} ones", "{who} turns {n} ones", count).format(who=who, n=count),
        # Translators: LEVEL X, read aloud: a player turned some of their ones; {faces} the dice now.
        ngettext(
            "{who} turns {n} ones; the dice show {faces}.", "{who} turns {n} ones; the dice show {faces}.", count
        ).format(who=who, n=count, faces=spoken(faces)),
        # Translators: LEVEL X: the game's log: a player turned some of their ones; {faces} the dice now.
        ngettext("{who} turned {n} ones: {faces}", "{who} turned {n} ones: {faces}", count).format(
            who=who, n=count, faces=faces_text(faces)
        ),
    )


def _last_tile(first: Event, who: str) -> Said:
    tile = first["tile"]
    if first["kind"] == "bonus":
        return Said(
            # Translators: LEVEL X: a player took the last bonus tile; the game ends after this round.
            _("{who} takes the last tile {tile}: last round").format(who=who, tile=tile),
            # Translators: LEVEL X, read aloud: a player took the last bonus tile; the game ends after this round.
            _("{who} takes the last bonus tile, {tile}: this is the last round.").format(who=who, tile=tile),
            # Translators: LEVEL X: the game's log: a player took the last bonus tile.
            _("{who} took the last tile {tile}").format(who=who, tile=tile),
        )
    return Said(
        # Translators: LEVEL X: a player left the last bonus tile; the game goes on.
        _("{who} leaves the last tile {tile}").format(who=who, tile=tile),
        # Translators: LEVEL X, read aloud: a player left the last bonus tile; the game goes on.
        _("{who} leaves the last bonus tile, {tile}.").format(who=who, tile=tile),
        # Translators: LEVEL X: the game's log: a player left the last bonus tile.
        _("{who} left the last tile {tile}").format(who=who, tile=tile),
    )


def _played(names: Sequence[str], events: Events, groups: list[Event], who: str) -> Said:
    """A turn's groups: the rows, and what came of them."""
    rows = [str(g["row"]) for g in groups]
    chips = [str(e["row"]) for e in kinds(events, "chip")]
    ousted = [name_of(names, e["player"]) for e in kinds(events, "oust")]
    tiles = [str(e["tile"]) for e in kinds(events, "bonus")]
    closed = [str(e["row"]) for e in kinds(events, "close")]
    head = [ngettext("row {rows}", "rows {rows}", len(rows)).format(rows="+".join(rows))]
    if chips:
        head.append(_("chip {rows}").format(rows="+".join(chips)))
    tail = [_("bonus {tile}").format(tile=tile) for tile in tiles]
    tail += [_("{row} closed").format(row=row) for row in closed]
    # One verb for all of them: "ousts Red & Green", German "wirft Rot & Grün raus".
    # Translators: LEVEL X: the players whose pieces went home; {names} joined with " & ".
    ousts = [_("ousts {names}").format(names=" & ".join(ousted))] if ousted else []
    # Translators: LEVEL X: the game's log: the players whose pieces went home; {names} joined with " & ".
    oust_logged = [_("ousted {names}").format(names=" & ".join(ousted))] if ousted else []
    # Translators: a move explained: "Blue: rows 5+10, chip 10" (what: its parts, comma-separated)
    short = _("{who}: {what}").format(who=who, what=joined(head + ousts + tail))
    # Translators: LEVEL X: the game's log, the parts as on the display: "Blue played rows 5+10, chip 10".
    log = _("{who} played {what}").format(who=who, what=joined(head + oust_logged + tail))
    # Translators: LEVEL X, read aloud: the rows a player moves up, "5 and 10".
    said = [ngettext("plays row {rows}", "plays rows {rows}", len(rows)).format(rows=spoken(rows))]
    if chips:
        # Translators: LEVEL X, read aloud: the rows whose chips a player takes, "10" or "8 and 10".
        said.append(
            ngettext("takes a chip of row {rows}", "takes chips of rows {rows}", len(chips)).format(rows=spoken(chips))
        )
    if ousted:
        # Translators: LEVEL X, read aloud: the players whose pieces a player sends home, "Red and Green".
        said.append(_("sends {names} home").format(names=spoken(ousted)))
    # Translators: LEVEL X, read aloud: a player earns a bonus tile.
    said += [_("earns the bonus tile {tile}").format(tile=tile) for tile in tiles]
    # Translators: LEVEL X, read aloud: a player's chip closed a row.
    said += [_("closes row {row}").format(row=row) for row in closed]
    # Translators: a sentence read aloud: who did what, "Blue plays rows 5 and 10 and takes a chip of row 10."
    sentence = _("{who} {what}.").format(who=who, what=spoken(said))
    return Said(short, sentence, log)


WORDS = LevelXWords()
