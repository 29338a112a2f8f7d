"""High die's words: what a step did (`WORDS`, its `firmware.games.words.Words`). A plug-in's
strings stay in its own language (English here); a built-in game marks them for the catalogs."""

from __future__ import annotations

from collections.abc import Sequence

from examples.highdie.rules import Keep
from firmware.games.base import Game, Step
from firmware.games.words import Events, Label, Said, Words, name_of, rolled


class HighDieWords(Words):
    """A kept die, a second roll asked for; a plain roll is said but not shown."""

    def said(self, names: Sequence[str], events: Events) -> Said | None:
        if not events:
            return None
        event = events[0]
        who = name_of(names, event.get("player"))
        if event["kind"] == "keep":
            return Said(
                f"{who} keeps {event['face']} ({event['total']})",
                f"{who} keeps the {event['face']}, {event['total']} in all.",
                f"{who} kept {event['face']} ({event['total']})",
            )
        if event["kind"] == "again":
            return Said(f"{who} rolls again", f"{who} rolls again.", f"{who} rolled again")
        if event["kind"] == "roll":
            return rolled(who, [event["face"]])
        return None

    def option(self, names: Sequence[str], game: Game, decision: Step) -> Label | None:
        """Keep the die, or roll again."""
        return Label("Keep" if isinstance(decision, Keep) else "Roll again")


WORDS = HighDieWords()
