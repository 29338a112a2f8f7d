"""EXXTRA's words on the board: the rules page's paragraphs and what a step did (`WORDS`, the
game's `firmware.games.words.Words`): its animations' captions, its options' labels and its
hints too, worded when asked, in the active language. What a step did is read from its events
alone (the engine already says it, this module only words it); an option, from the position.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING

from firmware.i18n import N_, _, ngettext, pgettext
from firmware.games.base import Event, Events
from firmware.games.exxtra.rules import Exxtra, Place, Reroll
from firmware.games.words import Label, Said, Words, hinted, kinds, name_of, rolled, spoken

if TYPE_CHECKING:
    from firmware.games.base import Game, Step

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


class ExxtraWords(Words):
    """EXXTRA's steps in words: a re-roll, a placement (and the pairs it kicks), an X after the
    first roll, a double; a plain roll is said but not shown (the dice show it)."""

    def said(self, names: Sequence[str], events: Events) -> Said | None:
        if not events:
            return None
        first = events[0]
        who = name_of(names, first.get("player"))
        if first["kind"] == "reroll":
            return Said(
                _("{who} rolls again").format(who=who),
                # Translators: EXXTRA: a player gives up the roll and rolls again, read aloud.
                _("{who} rolls again.").format(who=who),
                # Translators: EXXTRA: the game's log: a player rolled again.
                _("{who} rolled again").format(who=who),
            )
        if first["kind"] == "place":
            return _placed(names, events, first, who)
        if first["kind"] != "roll":
            return None
        if kinds(events, "invalid"):
            return _x_rolled(names, events, who)
        doubles = [e for e in kinds(events, "move") if e["cause"] == "double"]
        if doubles:
            return _double(events, doubles[0], who)
        return rolled(who, first["faces"])

    def said_to(self, names: Sequence[str], events: Events, seat: int) -> Said | None:
        first = events[0] if events else None
        if first is None or first["kind"] != "place" or first.get("player") == seat:
            return None
        yours = [e["combination"] for e in kinds(events, "remove") if e.get("player") == seat]
        if not yours:
            return None
        who = name_of(names, first.get("player"))
        # Translators: the round log, said to the player whose pair was kicked: "Blue 76 → rung 4: kicked your 50".
        line = _("{who} {combination} → rung {rung}: kicked your {yours}").format(
            who=who, combination=first["combination"], rung=first["rung"], yours=" & ".join(yours)
        )
        # Translators: EXXTRA, read aloud to the player whose pair was kicked: "Blue places 7 and 6 on rung 4 and knocks your 50 off."
        sentence = _("{who} places {combination} on rung {rung} and knocks your {yours} off.").format(
            who=who, combination=_digits(first["combination"]), rung=first["rung"], yours=spoken(yours)
        )
        return Said(line, sentence, line)

    def caption(self, names: Sequence[str], event: Event | None, events: Events, before: Game | None = None) -> str:
        """An X's cross, a counter's walk, a pair kicked off the ladder, the win."""
        if event is None:
            return ""
        who = name_of(names, event["player"]) if "player" in event else ""
        kind = event["kind"]
        if kind == "invalid":
            return _x_caption(who, event, events)
        if kind == "move":
            return {
                "double": _("Double! +{spaces}").format(spaces=event["to"] - event["from"]),
                "rung": _("{name} moves").format(name=who),
                "x": _("{name} back").format(name=who),
            }.get(event["cause"], who)
        if kind == "remove":
            return _("{pair} off rung {rung}").format(pair=event["combination"], rung=event["rung"])
        if kind == "win":
            return _("{name} wins!").format(name=who)
        return ""

    def option(self, names: Sequence[str], game: Game, decision: Step) -> Label | None:
        """A rung with how many pairs placing there kicks ("Rung 5", "kicks 1"); rolling again."""
        if isinstance(decision, Reroll):
            return Label(_("Roll again"))
        if not isinstance(decision, Place) or not isinstance(game, Exxtra):
            return None
        removed = game.would_remove(decision.rung)
        # Translators: EXXTRA: beside a rung option: placing there removes {n} pairs from lower rungs.
        kicks = ngettext("kicks {n}", "kicks {n}", len(removed)).format(n=len(removed)) if removed else ""
        return Label(_("Rung {rung}").format(rung=decision.rung), (kicks,) if kicks else ())

    def hint(self, game: Game, decision: Step, reason: str) -> str:
        """ "rung 5: ..." or "roll again: ..."."""
        if isinstance(decision, Place):
            # Translators: a hint: the rung it points at, "rung 5" (a reason follows).
            return hinted(pgettext("hint", "rung {rung}").format(rung=decision.rung), reason)
        # Translators: a hint: roll again (a reason follows).
        return hinted(pgettext("hint", "roll again"), reason) if isinstance(decision, Reroll) else reason


def _x_caption(who: str, invalid: Event, events: Events) -> str:
    """What an X after the first roll did, in plain words: "X! Red back 2", "Two X! Red back
    to the start" (an X-X from space 1 goes back one space, onto the start: never "back 1"), or
    "X! Red stays at start" when the counter could not go back."""
    move = next(
        (e for e in events if e["kind"] == "move" and e.get("cause") == "x" and e["player"] == invalid["player"]), None
    )
    back = move["from"] - move["to"] if move is not None else invalid["xs"]
    two = int(invalid.get("xs", 1)) == 2
    if not back:  # (one X or two: nothing moves, which is what the caption says)
        return _("X! {name} stays at start").format(name=who)
    if move is not None and move["to"] == 0:
        return (
            # Translators: EXXTRA: the animation's caption, X-X rolled: the counter is on the start again.
            _("Two X! {name} to start").format(name=who)
            if two
            # Translators: EXXTRA: the animation's caption, an X rolled: the counter is on the start again.
            else _("X! {name} to start").format(name=who)
        )
    return (
        # Translators: EXXTRA: the animation's caption, X-X rolled: the counter goes back {spaces}.
        _("Two X! {name} back {spaces}").format(name=who, spaces=back)
        if two
        else _("X! {name} back {spaces}").format(name=who, spaces=back)
    )


def _xs(events: Events) -> str:
    """The roll's Xs in plain words: "an X" or "two X" (not "X-X")."""
    if int(kinds(events, "invalid")[0].get("xs", 1)) == 2:
        # Translators: EXXTRA: both dice show X, as in "Red: two X, back to the start".
        return _("two X")
    # Translators: EXXTRA: one X rolled, as in "Red: an X, back 1".
    return _("an X")


def _digits(combination: str) -> str:
    """A combination as said aloud: "62" → "6 and 2"."""
    return spoken(list(combination))


def _placed(names: Sequence[str], events: Events, first: Event, who: str) -> Said:
    kicked = [name_of(names, e["player"]) for e in kinds(events, "remove")]
    combination, rung = first["combination"], first["rung"]
    digits = _digits(combination)
    if kicked:
        short = _("{who}: {combination} on rung {rung}, kicks {kicked}").format(
            who=who, combination=combination, rung=rung, kicked=" & ".join(kicked)
        )
        # Translators: EXXTRA, read aloud: "Blue places 6 and 2 on rung 5 and knocks Red off."
        sentence = _("{who} places {combination} on rung {rung} and knocks {kicked} off.").format(
            who=who, combination=digits, rung=rung, kicked=spoken(kicked)
        )
        # Translators: EXXTRA: the game's log: "Blue placed 62 on rung 5, kicked Red".
        log = _("{who} placed {combination} on rung {rung}, kicked {kicked}").format(
            who=who, combination=combination, rung=rung, kicked=" & ".join(kicked)
        )
    else:
        short = _("{who}: {combination} on rung {rung}").format(who=who, combination=combination, rung=rung)
        # Translators: EXXTRA, read aloud: "Blue places 6 and 2 on rung 5."
        sentence = _("{who} places {combination} on rung {rung}.").format(who=who, combination=digits, rung=rung)
        # Translators: EXXTRA: the game's log: "Blue placed 62 on rung 5".
        log = _("{who} placed {combination} on rung {rung}").format(who=who, combination=combination, rung=rung)
    return Said(short, sentence + _coming_home(names, events), log)


def _coming_home(names: Sequence[str], events: Events) -> str:
    """The next player's pair coming home from the ladder, said after the move (" Red takes
    back 51 from rung 4 and moves on 4 spaces."); "" when none did."""
    home = kinds(events, "return")
    if not home:
        return ""
    back = home[0]
    who = name_of(names, back.get("player"))
    moved = [e for e in kinds(events, "move") if e["cause"] == "rung"]
    spaces = moved[0]["to"] - moved[0]["from"] if moved else 0
    if not spaces:  # from rung 0: home, no space on
        # Translators: EXXTRA, read aloud after a move: the next player's dice come home from rung 0 (no move).
        said = _("{who} takes back {combination} from rung {rung}.").format(
            who=who, combination=_digits(back["combination"]), rung=back["rung"]
        )
        return " " + said
    # Translators: EXXTRA, read aloud after a move: the next player's dice come home from the ladder.
    said = ngettext(
        "{who} takes back {combination} from rung {rung} and moves on {n} space.",
        "{who} takes back {combination} from rung {rung} and moves on {n} spaces.",
        spaces,
    ).format(who=who, combination=_digits(back["combination"]), rung=back["rung"], n=spaces)
    if kinds(events, "win"):
        # Translators: EXXTRA, read aloud: the player reached the finish.
        said += " " + _("{who} wins!").format(who=who)
    return " " + said


def _x_rolled(names: Sequence[str], events: Events, who: str) -> Said:
    moves = [e for e in kinds(events, "move") if e["cause"] == "x"]
    back = moves[0]["from"] - moves[0]["to"] if moves else 0
    xs = _xs(events)
    if back:
        short = (
            # Translators: EXXTRA: an X ("an X" or "two X") after the first roll sent the counter back onto the start.
            _("{who}: {xs}, back to the start").format(who=who, xs=xs)
            if moves[0]["to"] == 0
            # Translators: EXXTRA: an X ("an X" or "two X") after the first roll sent the counter back {n} spaces.
            else _("{who}: {xs}, back {n}").format(who=who, xs=xs, n=back)
        )
        return Said(
            short,
            # Translators: EXXTRA, read aloud: an X after the first roll sends the counter back.
            ngettext(
                "{who} rolls {xs}: back {n} space, and the turn is over.",
                "{who} rolls {xs}: back {n} spaces, and the turn is over.",
                back,
            ).format(who=who, xs=xs, n=back)
            + _coming_home(names, events),
            # Translators: EXXTRA: the game's log: an X ("an X" or "two X") after the first roll, the counter back on the start.
            _("{who} rolled {xs}, back to the start").format(who=who, xs=xs)
            if moves[0]["to"] == 0
            # Translators: EXXTRA: the game's log: an X ("an X" or "two X") after the first roll, the counter went back {n}.
            else _("{who} rolled {xs}, went back {n}").format(who=who, xs=xs, n=back),
        )
    return Said(
        _("{who}: X, turn over").format(who=who),
        # Translators: EXXTRA, read aloud: an X after the first roll, the counter is at the start already.
        _("{who} rolls an X, and the turn is over.").format(who=who) + _coming_home(names, events),
        # Translators: EXXTRA: the game's log: an X after the first roll ended the turn.
        _("{who} rolled X, turn over").format(who=who),
    )


def _double(events: Events, double: Event, who: str) -> Said:
    spaces = double["to"] - double["from"]
    if kinds(events, "win"):
        return Said(
            _("{who}: double, +{n} and wins").format(who=who, n=spaces),
            # Translators: EXXTRA, read aloud: a double moves the counter to the finish.
            ngettext(
                "{who} rolls a double, moves on {n} space and wins!",
                "{who} rolls a double, moves on {n} spaces and wins!",
                spaces,
            ).format(who=who, n=spaces),
            # Translators: EXXTRA: the game's log: a double moved the counter to the finish.
            _("{who} rolled a double, +{n}, won").format(who=who, n=spaces),
        )
    return Said(
        _("{who}: double, +{n}").format(who=who, n=spaces),
        # Translators: EXXTRA, read aloud: a double moves the counter on at once.
        ngettext(
            "{who} rolls a double and moves on {n} space.",
            "{who} rolls a double and moves on {n} spaces.",
            spaces,
        ).format(who=who, n=spaces),
        # Translators: EXXTRA: the game's log: a double moved the counter on.
        _("{who} rolled a double, +{n}").format(who=who, n=spaces),
    )


WORDS = ExxtraWords()
