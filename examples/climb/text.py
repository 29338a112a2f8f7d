"""Climb's words: what a step did (`WORDS`, its `firmware.games.words.Words`), in English (a
plug-in's strings stay in its own language)."""

from __future__ import annotations

from collections.abc import Sequence

from examples.climb.rules import Climb, Up, steps_for
from firmware.games.base import Game, Step
from firmware.games.words import Events, Label, Said, Words, name_of, rolled


class ClimbWords(Words):
    """A climb, a second roll asked for; a plain roll is said but not shown."""

    def said(self, names: Sequence[str], events: Events) -> Said | None:
        if not events:
            return None
        event = events[0]
        who = name_of(names, event.get("player"))
        if event["kind"] == "climb":
            return Said(
                f"{who} climbs to {event['to']}",
                f"{who} climbs from step {event['from']} to step {event['to']}.",
                f"{who} climbed to {event['to']}",
            )
        if event["kind"] == "again":
            return Said(f"{who} rolls again", f"{who} rolls again.", f"{who} rolled again")
        if event["kind"] == "roll":
            return rolled(who, [event["face"]])
        return None

    def option(self, names: Sequence[str], game: Game, decision: Step) -> Label | None:
        """Climb by the die, or roll again."""
        face = game.face if isinstance(game, Climb) else None
        return Label(f"Climb {steps_for(face or 1)}" if isinstance(decision, Up) else "Roll again")


WORDS = ClimbWords()
