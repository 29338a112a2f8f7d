"""The board's sound cues: which short tune says what, and when the game calls for one.

Cues: "roll" (the dice tumble), "choice" (a decision taken), "refused" (a press that does
nothing now), "turn" (the dice pass to another player), "end" (the game is over). The board loop
watches the app after each event (`CueWatcher.watch`) for all but "refused"; screens that
refuse a press call `cue(app, "refused")`. The setting `sound` picks the volume or off.

>>> sorted(TUNES)
['choice', 'end', 'refused', 'roll', 'turn']
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from firmware.hardware.sound import Note

if TYPE_CHECKING:
    from firmware.ui.intents import App

# What the watcher compares between two looks: the table, its steps, whose turn, over, awaiting
# a roll, the dice tumbling.
Look = tuple[int, int, int | None, bool, bool, bool]

TUNES: dict[str, tuple[Note, ...]] = {
    "roll": (("C6", 0.03), ("E6", 0.03), ("G6", 0.03), ("C7", 0.04)),  # a quick rising rattle
    "choice": (("A6", 0.05),),  # one short high blip
    "refused": (("A4", 0.08), (None, 0.04), ("A4", 0.08)),  # two low buzzes: "no"
    "turn": (("E6", 0.06), ("A6", 0.09)),  # up a fourth: "you"
    "end": (("C6", 0.1), ("E6", 0.1), ("G6", 0.1), ("C7", 0.3)),  # a fanfare
}
VOLUMES = {"off": 0.0, "soft": 0.05, "loud": 0.5}  # PWM duty on the piezo (see firmware.hardware.sound)


def cue(app: App, name: str) -> None:
    """Play cue `name` at the volume of the app's `sound` setting (off: nothing). Returns at once."""
    if name not in TUNES:
        raise ValueError(f"cues: no cue {name!r}; expected one of {', '.join(sorted(TUNES))}")
    sound = app.sound
    volume = VOLUMES[app.settings.sound]
    if sound is not None and volume > 0:
        sound.play(name, TUNES[name], volume)


class CueWatcher:
    """Plays the cues the table's changes call for; `watch(app)` after each event and timer."""

    def __init__(self) -> None:
        self._seen: Look | None = None
        self._roller: int | None = None  # who rolled last: "turn" when the dice pass on

    def watch(self, app: App) -> None:
        session = app.session
        if session is None:
            self._seen = None
            return
        game = session.game
        rolling = app.animation is not None and session.awaiting_roll and not session.over
        now: Look = (
            id(session),
            len(game.history),
            game.pending().player,
            session.over,
            session.awaiting_roll,
            rolling,
        )
        before, self._seen = self._seen, now
        roller, self._roller = self._roller, (now[2] if session.awaiting_roll else self._roller)
        if before is None or before[0] != now[0]:
            return  # a new or resumed table: nothing happened yet
        _, steps, player, over, awaiting_roll, was_rolling = before
        if now[1] > steps:  # a step was taken (fewer: a takeback, no cue)
            if now[3] and not over:
                cue(app, "end")
            elif now[4] and now[2] != roller:  # the dice pass to another player
                cue(app, "turn")
            elif not awaiting_roll:
                cue(app, "choice")
            elif not was_rolling:
                cue(app, "roll")  # physical dice keyed in: no tumble came first
        elif rolling and not was_rolling:
            cue(app, "roll")
