"""LEVEL X's words on the board: the rules page's paragraphs and what a step did (`WORDS`, the
game's `firmware.games.words.Words`): its animations' captions, its options' labels and its
hints too, worded when asked, in the active language. What a step did is read from its events
alone (the engine already says it, this module only words it); an option, from the position.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING

from firmware.i18n import N_, _, ngettext, npgettext, pgettext
from firmware.games.base import Event, Events
from firmware.games.levelx.rules import FIELDS, ROWS, Bonus, Groups, LevelX, TurnOnes
from firmware.games.words import Label, Said, Words, faces_text, hinted, joined, kinds, name_of, rolled, spoken

if TYPE_CHECKING:
    from firmware.games.base import Game, Step

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

    def caption(self, names: Sequence[str], event: Event | None, events: Events, before: Game | None = None) -> str:
        """A group's dice and row, a piece entering or stepping on, an ousting, a chip, a row
        closing, a bonus tile, the last tile offered or left, the game's end; a pass (`event`
        None). `before` gives the dice a group sums and who passed."""
        faces = before.faces if isinstance(before, LevelX) else None
        if event is None:
            mover = before.current_player if isinstance(before, LevelX) else _passer(names, events)
            return _("{name} passes").format(name=name_of(names, mover))
        kind, row = event["kind"], event.get("row")
        who = name_of(names, event["player"]) if "player" in event else ""
        if kind == "turn_ones":
            return _("{name} turns the ones").format(name=who)
        if kind == "group":
            dice = "+".join(str(faces[d]) if faces is not None else "?" for d in event["dice"])
            return _("{sum} = row {row}").format(sum=dice, row=row)
        if kind == "place":
            return _("{name}: new piece").format(name=who)
        if kind == "move":
            at_x = row in ROWS and event["to"] == FIELDS[ROWS.index(row)] - 1
            return _("{name} reaches X").format(name=who) if at_x else _("{name} steps on").format(name=who)
        if kind == "oust":
            return _("{name} is ousted").format(name=who)
        if kind == "chip":
            # Translators: LEVEL X: a player takes a chip of row {row}.
            return _("{name} takes a {row}").format(name=who, row=row)
        if kind == "close":
            return _("Row {row} closes").format(row=row)
        if kind == "bonus":
            return _("Bonus tile {tile}!").format(tile=event["tile"])
        if kind == "bonus_offer":
            # Translators: LEVEL X: the player may take the last bonus tile (or leave it).
            return _("Tile {tile}: take it?").format(tile=event["tile"])
        if kind == "bonus_declined":
            return _("{name} leaves tile {tile}").format(name=who, tile=event["tile"])
        if kind == "no_effect":
            return _("Row {row} is closed").format(row=row) if event["reason"] == "closed" else _("No piece left")
        if kind == "end_triggered":
            return _("Last round!")
        if kind == "game_over":
            return _("Game over")
        return ""

    def option(self, names: Sequence[str], game: Game, decision: Step) -> Label | None:
        """Groups by their sums ("5+6", "pass") with what they do, in shorter and shorter
        wordings ("row 5: new piece, to X, chip" ... "5/6/7:step"); the last tile taken or left
        with what that does."""
        if not isinstance(game, LevelX):
            return None
        if isinstance(decision, Bonus):
            return _tile_option(game, decision)
        if not isinstance(decision, Groups) or game.faces is None:
            return None
        faces = game.faces
        sums = sorted(sum(faces[d] for d in group) for group in decision.groups)
        # Translators: LEVEL X: the option that groups no dice.
        text = "+".join(map(str, sums)) if sums else pgettext("LEVEL X option", "pass")
        twin = game.copy()
        twin.apply(decision)
        return Label(text, _effects(_row_effects(twin.events), names))

    def hint(self, game: Game, decision: Step, reason: str) -> str:
        """ "take it: ...", "decline: ...", "turn 1→6: ..."; groups: the option says them, the reason alone."""
        if isinstance(decision, Bonus):
            # Translators: a hint: take (or leave) the last LEVEL X bonus tile; a reason follows.
            return hinted(pgettext("hint", "take it") if decision.take else pgettext("hint", "decline"), reason)
        if isinstance(decision, TurnOnes):
            turned = ",".join(str(face) for face in decision.faces)
            # Translators: a hint: turn the dice showing 1 to these faces ({faces} is like "1→6" or "1→5,6"); a reason follows.
            return hinted(pgettext("hint", "turn {faces}").format(faces="1→" + turned), reason)
        return reason

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


def _tile_option(game: LevelX, decision: Bonus) -> Label:
    """Take or leave the last bonus tile, with what it does."""
    tile = game.tiles_left[0]
    if decision.take:
        # Translators: LEVEL X: what taking the last bonus tile does (the game ends when this round is
        # over); both at most 21 characters, like "the game goes on".
        ends = _("last round anyway") if game.end_triggered else _("game ends this round")
        # Translators: LEVEL X: the option that takes the last bonus tile, "Take tile 6".
        return Label(_("Take tile {tile}").format(tile=tile), (ends,))
    return Label(
        # Translators: LEVEL X: the option that leaves the last bonus tile; its effect follows.
        _("Leave tile {tile}").format(tile=tile),
        # Translators: LEVEL X: what declining the last bonus tile does.
        (_("the game goes on"),),
    )


def _effects(rows: dict[int, list[Event]], names: Sequence[str]) -> tuple[str, ...]:
    """What groups do, row by row, longest wording first: "row 5: new piece, to X, chip",
    "5: 2 chips; 10: new piece", "5: 2 chips  10: new", "5:2chips 10:new", "5/6/7:step"
    (rows with the same effect together); "nothing happens" alone when no row changes."""
    if not rows:
        return (_("nothing happens"),)
    long = [(row, _row_words(events, False, names)) for row, events in rows.items()]
    short = [(row, _row_words(events, True, names)) for row, events in rows.items()]
    candidates = [
        "; ".join(f"{row}: {', '.join(words)}" for row, words in long),
        "  ".join(f"{row}: {','.join(words)}" for row, words in short),
        " ".join(f"{row}:{'+'.join(words)}".replace(" ", "") for row, words in short),
        # Rows with the same effect together: "5/6/7:step".
        " ".join(f"{'/'.join(map(str, same))}:{text}" for text, same in _same_effect(short).items()),
    ]
    if len(long) == 1:
        # Translators: LEVEL X: one row's effect, "row 5: new piece, to X, chip".
        candidates.insert(0, _("row {effect}").format(effect=candidates[0]))
    return tuple(candidates)


def _row_effects(events: Events) -> dict[int, list[Event]]:
    """The events each row's groups caused, rows ascending (same-row groups in their order)."""
    rows: dict[int, list[Event]] = {}
    current: list[Event] | None = None
    for event in events:
        if event["kind"] == "group":
            current = rows.setdefault(event["row"], [])
        elif current is not None and event["kind"] not in ("turn", "game_over", "end_triggered"):
            current.append(event)
    return dict(sorted(rows.items()))


def _row_words(events: Events, short: bool, names: Sequence[str]) -> list[str]:
    """What happened in one row, merged: "new piece", "2 steps", "to X", "oust Blue", "3 chips",
    "closes", "tile 15" (short: "new", "2 steps", "X", "oust", "3 chips", "shut", "+15")."""
    count = {kind: sum(e["kind"] == kind for e in events) for kind in ("place", "move", "chip")}
    last = FIELDS[ROWS.index(events[0]["row"])] - 1 if events else -1
    at_x = any(e["kind"] == "move" and e["to"] == last for e in events)
    words = []
    # Translators: LEVEL X: the words of an option's effect, listed per row ("5: new piece, to X,
    # chip"); the short ones are for narrow lines ("5: new,X,chip"), keep them one short word.
    if count["place"]:
        words.append(pgettext("LEVEL X short", "new") if short else pgettext("LEVEL X", "new piece"))
    steps = count["move"]
    if steps and not at_x:  # reaching X says enough about the steps before it
        words.append(
            pgettext("LEVEL X short", "step")
            if steps == 1 and short
            else pgettext("LEVEL X", "step on")
            if steps == 1
            else npgettext("LEVEL X", "{n} step", "{n} steps", steps).format(n=steps)
        )
    if at_x:
        words.append("X" if short else pgettext("LEVEL X", "to X"))
    for event in events:
        if event["kind"] == "oust":
            words.append(
                pgettext("LEVEL X short", "oust")
                if short
                else pgettext("LEVEL X", "oust {name}").format(name=name_of(names, event["player"]))
            )
    if count["chip"]:
        words.append(
            pgettext("LEVEL X", "chip")
            if count["chip"] == 1
            else npgettext("LEVEL X", "{n} chip", "{n} chips", count["chip"]).format(n=count["chip"])
        )
    for event in events:
        if event["kind"] == "close":
            words.append(pgettext("LEVEL X short", "shut") if short else pgettext("LEVEL X", "closes"))
        elif event["kind"] == "bonus":
            words.append(
                f"+{event['tile']}" if short else pgettext("LEVEL X", "tile {tile}").format(tile=event["tile"])
            )
        elif event["kind"] == "no_effect":
            words.append(
                (pgettext("LEVEL X short", "shut") if short else pgettext("LEVEL X", "closed"))
                if event["reason"] == "closed"
                else pgettext("LEVEL X", "no piece")
            )
    return words


def _same_effect(short: Sequence[tuple[int, list[str]]]) -> dict[str, list[int]]:
    """The rows of `short` by their effect's words ("step": [5, 6, 7]), in the rows' order."""
    same: dict[str, list[int]] = {}
    for row, words in short:
        same.setdefault("+".join(words).replace(" ", ""), []).append(row)
    return same


WORDS = LevelXWords()
