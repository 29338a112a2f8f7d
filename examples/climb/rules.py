"""Climb's rules engine: pure (no I/O, no clock, no randomness: rolls come in as steps).

>>> game = Climb(["Ann", "Ben"])
>>> game.apply(Roll((5,))); game.legal_decisions()
[Up(), Again()]
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from firmware.errors import IllegalStepError, RecordError
from firmware.games.base import DECISION, OVER, ROLL, Game, Pending, Roll, parse_roll, winners_of

TOP = 9  # the stairs' top step; everyone starts at the foot, step 0
FACES = (1, 2, 3, 4, 5, 6)


def steps_for(face: int) -> int:
    """How far a kept die climbs: 1–2 one step, 3–4 two, 5–6 three."""
    return (face + 1) // 2


@dataclass(frozen=True)
class Up:
    """Climb by the die showing; the turn ends."""

    def to_json(self) -> dict[str, Any]:
        return {"do": "climb"}


@dataclass(frozen=True)
class Again:
    """Roll once more (once a turn); the next roll climbs."""

    def to_json(self) -> dict[str, Any]:
        return {"do": "again"}


class Climb(Game):
    """A race up ten steps: each turn roll one die, climb by it or roll once more (and climb by
    that). The first on the top step wins.

    Events: `{"kind": "roll", "player", "face"}`, `{"kind": "again", "player"}`,
    `{"kind": "climb", "player", "from", "to"}`.
    """

    name = "climb"
    title = "Climb"
    min_players = 1
    max_players = 3

    def _setup(self) -> None:
        self.steps = [0] * len(self.players)
        self.turns = 0
        self.face: int | None = None
        self.again_used = False
        self.events = []

    @property
    def current(self) -> int:
        return self.turns % len(self.players)

    def pending(self) -> Pending:
        if TOP in self.steps:
            return Pending(OVER)
        return Pending(DECISION if self.face is not None else ROLL, self.current)

    def dice(self) -> tuple[tuple[int, ...], ...]:
        return (FACES,)

    def legal_decisions(self) -> list[Any]:
        if self.face is None or self.pending().kind == OVER:
            return []
        return [Up()] if self.again_used else [Up(), Again()]

    def _apply(self, step: Any) -> None:
        player = self.current
        if isinstance(step, Roll):
            self.face = step.faces[0]
            self.events = [{"kind": "roll", "player": player, "face": self.face}]
        elif step not in self.legal_decisions():
            raise IllegalStepError(f"{step} is not allowed now")
        elif isinstance(step, Again):
            self.face, self.again_used = None, True
            self.events = [{"kind": "again", "player": player}]
        else:
            start = self.steps[player]
            self.steps[player] = min(TOP, start + steps_for(self.face or 1))
            self.face, self.again_used = None, False
            self.turns += 1
            self.events = [{"kind": "climb", "player": player, "from": start, "to": self.steps[player]}]

    def result(self) -> dict[str, Any] | None:
        if self.pending().kind != OVER:
            return None
        return {"scores": list(self.steps), "winners": winners_of(self.steps)}

    @classmethod
    def parse_step(cls, data: Any) -> Any:
        if isinstance(data, dict) and "roll" in data:
            return parse_roll(data, 1, int)
        if data == {"do": "climb"}:
            return Up()
        if data == {"do": "again"}:
            return Again()
        raise RecordError(f"not a Climb step: {data!r}")
