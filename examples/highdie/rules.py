"""High die's rules engine: pure (no I/O, no clock, no randomness: rolls come in as steps).

>>> game = HighDie(["Ann", "Ben"])
>>> game.apply(Roll((3,))); game.legal_decisions()
[Keep(), Again()]
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from firmware.errors import IllegalStepError, RecordError
from firmware.games.base import DECISION, OVER, ROLL, Game, Pending, Roll, parse_roll, winners_of

ROUNDS = 2
FACES = (1, 2, 3, 4, 5, 6)


@dataclass(frozen=True)
class Keep:
    """Keep the die showing: its face adds to the player's total; the turn ends."""

    def to_json(self) -> dict[str, Any]:
        return {"do": "keep"}


@dataclass(frozen=True)
class Again:
    """Roll once more (once a turn); the next roll is kept."""

    def to_json(self) -> dict[str, Any]:
        return {"do": "again"}


class HighDie(Game):
    """Each turn: roll one die, keep it or roll once more (and keep that). Two rounds; the
    highest total wins.

    Events: `{"kind": "roll", "player", "face"}`, `{"kind": "again", "player"}`,
    `{"kind": "keep", "player", "face", "total"}`.
    """

    name = "highdie"
    title = "High die"
    min_players = 1
    max_players = 3

    def _setup(self) -> None:
        self.totals = [0] * len(self.players)
        self.turns = 0
        self.face: int | None = None
        self.again_used = False
        self.events = []

    @property
    def current(self) -> int:
        return self.turns % len(self.players)

    @property
    def round_number(self) -> int:
        """The round being played, from 1 (the last one once the game is over)."""
        return min(ROUNDS, self.turns // len(self.players) + 1)

    def pending(self) -> Pending:
        if self.turns >= ROUNDS * len(self.players):
            return Pending(OVER)
        return Pending(DECISION if self.face is not None else ROLL, self.current)

    def dice(self) -> tuple[tuple[int, ...], ...]:
        return (FACES,)

    def legal_decisions(self) -> list[Any]:
        if self.face is None or self.pending().kind == OVER:
            return []
        return [Keep()] if self.again_used else [Keep(), Again()]

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
            face = self.face or 0
            self.totals[player] += face
            self.face, self.again_used = None, False
            self.turns += 1
            self.events = [{"kind": "keep", "player": player, "face": face, "total": self.totals[player]}]

    def result(self) -> dict[str, Any] | None:
        if self.pending().kind != OVER:
            return None
        return {"scores": list(self.totals), "winners": winners_of(self.totals)}

    @classmethod
    def parse_step(cls, data: Any) -> Any:
        if isinstance(data, dict) and "roll" in data:
            return parse_roll(data, 1, int)
        if data == {"do": "keep"}:
            return Keep()
        if data == {"do": "again"}:
            return Again()
        raise RecordError(f"not a High die step: {data!r}")
