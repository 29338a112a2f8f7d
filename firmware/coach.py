"""The coach: strong's estimate of where each decision leads, calibrated, for the hint's figure,
`xtraboard analyse` and the board's "Key moments" (docs/bots.md, "Calibration").

A game's registry entry names its `evaluate` (strong's raw estimate, for the deciding player, of
the game's final outcome after each decision) and its `outcome` (that outcome, once the game is
over), in the game's `unit`: EXXTRA the final space on the track, LEVEL X the final lead over
the best other player, EXTRA! the final sheet total. The raw figures are the strong bot's
judgement of a position, not always an expectation of the outcome (EXTRA!'s one-step tables are
too pessimistic early on), so `estimate` maps them to the outcome, per game, player count and
decision index (the deciding player's own decisions so far): `value × slope + intercept`, a
mapping learnt from strong self-play and kept in `firmware/calibration.json`
(`xtraboard bench calibration --fit` remakes it). A game without a mapping shows its raw figures.

`rate` judges one decision: the value of the choice made, of the best choice, the loss, and what
the strong bot would have done; `analyse` rates every person's decision of a record, and
`key_moments` picks the costliest of each person.

    >>> from firmware.games import new_game, Roll
    >>> game = new_game("exxtra", ["A", "B", "C"]); game.apply(Roll(("7", "6")))
    >>> rating = rate(game, game.legal_decisions()[0])
    >>> rating.loss >= 0 and rating.best in game.legal_decisions()
    True
"""

from __future__ import annotations

import json
import random
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from functools import cache
from pathlib import Path

from firmware.errors import N_, RecordError, Text
from firmware.games import Game, find_game
from firmware.games.base import Step

CALIBRATION = Path(__file__).with_name("calibration.json")
CALIBRATION_FORMAT = "xtraboard-calibration"
KEY_MOMENTS = 3  # the costliest decisions shown per person
MIN_LOSS = 0.05  # a decision losing less than this (in the game's unit) is no key moment

Mapping_ = tuple[float, float]  # (slope, intercept)


class NoCoach(RecordError):
    """The game names no evaluator (a plug-in game without `evaluate`)."""


# --- the calibration -------------------------------------------------------------------------------
def calibration(path: Path | None = None) -> dict[str, dict[int, list[Mapping_]]]:
    """The learnt mappings (of `path`, default `CALIBRATION`): game → player count → per decision
    index (slope, intercept). A missing file is no mapping (raw figures); a damaged one is an
    error naming the file. Read once per file."""
    return _read(path or CALIBRATION)


@cache
def _read(path: Path) -> dict[str, dict[int, list[Mapping_]]]:
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
    except FileNotFoundError:
        return {}
    except (OSError, ValueError) as exc:
        raise ValueError(f"{path}: cannot read the calibration ({exc})") from exc
    if (
        not isinstance(data, dict)
        or data.get("format") != CALIBRATION_FORMAT
        or not isinstance(data.get("games"), dict)
    ):
        raise ValueError(f"{path}: not a calibration file (format {CALIBRATION_FORMAT!r})")
    out: dict[str, dict[int, list[Mapping_]]] = {}
    for game, counts in data["games"].items():
        out[game] = {int(count): [(float(a), float(b)) for a, b in fits] for count, fits in counts.items()}
    return out


def write_calibration(fits: Mapping[str, Mapping[int, Sequence[Mapping_]]], path: Path | None = None) -> None:
    """Write `fits` (merged over the games and player counts already in the file) and forget
    what was read of it."""
    path = path or CALIBRATION
    try:
        games = {g: {str(n): [list(f) for f in fs] for n, fs in c.items()} for g, c in calibration(path).items()}
    except ValueError:
        games = {}
    for game, counts in fits.items():
        kept = games.setdefault(game, {})
        kept.update({str(n): [[round(a, 5), round(b, 3)] for a, b in fs] for n, fs in counts.items()})
    text = json.dumps({"format": CALIBRATION_FORMAT, "version": 1, "games": games}, indent=1, sort_keys=True)
    path.write_text(text + "\n", encoding="utf-8")
    _read.cache_clear()


def mapping(game: str, players: int, index: int) -> Mapping_:
    """The (slope, intercept) for `game` at `players` seats and decision `index`: the nearest
    player count learnt, the last index learnt beyond it; (1, 0) when none was learnt."""
    counts = calibration().get(game)
    if not counts:
        return 1.0, 0.0
    fits = counts[min(counts, key=lambda n: (abs(n - players), n))]
    return fits[min(index, len(fits) - 1)] if fits else (1.0, 0.0)


# --- estimates ---------------------------------------------------------------------------------------
def decision_index(game: Game) -> int:
    """How many decisions the player deciding now made before in this game (0: their first)."""
    player = game.pending().player
    return sum(1 for i in range(len(game.history)) if player is not None and game.actor(i) == player)


def raw_values(game: Game, decisions: Sequence[Step]) -> list[float]:
    """The game's evaluator's figures for `decisions` (legal ones for the pending decision)."""
    spec = find_game(game.name)
    evaluator = spec.evaluator
    if evaluator is None:
        raise NoCoach(Text(N_("{game} has no evaluator: it cannot be analysed"), game=spec.title))
    return [float(v) for v in evaluator[0](game, list(decisions))]


def calibrate(game: Game, values: Sequence[float], index: int | None = None) -> list[float]:
    """Raw figures of `game`'s pending decision mapped to the outcome (`mapping`)."""
    slope, intercept = mapping(game.name, len(game.players), decision_index(game) if index is None else index)
    return [slope * v + intercept for v in values]


def estimate(game: Game, decisions: Sequence[Step]) -> list[float]:
    """Strong's calibrated estimate of the deciding player's final outcome after each decision
    (the hint's figure), in the game's unit."""
    return calibrate(game, raw_values(game, decisions))


def outcome(game: Game, player: int) -> float:
    """The outcome `estimate` estimates, for `player` of the finished `game`."""
    evaluator = find_game(game.name).evaluator
    if evaluator is None:
        raise NoCoach(Text(N_("{game} has no evaluator: it cannot be analysed"), game=game.title))
    return float(evaluator[1](game, player))


# --- rating decisions --------------------------------------------------------------------------------
@dataclass(frozen=True)
class Rating:
    """One decision judged by the strong evaluator: history `index` of the step, `player`,
    their `turn` (decision index, 0 = first), the decision `played` and its `value`, the `best`
    decision and its `best_value`, the `strong` bot's decision and its `strong_value`; values
    are calibrated estimates of the final outcome in the game's unit."""

    index: int
    player: int
    turn: int
    played: Step
    value: float
    best: Step
    best_value: float
    strong: Step
    strong_value: float

    @property
    def loss(self) -> float:
        """What the decision cost against the best one, in the game's unit (never negative)."""
        return max(0.0, self.best_value - self.value)

    @property
    def strong_loss(self) -> float:
        """What the decision cost against the move the strong bot plays there (the board's Key
        moments): nothing when it is that move, or when the evaluator rates it no lower."""
        if self.played == self.strong:
            return 0.0
        return max(0.0, self.strong_value - self.value)

    def to_json(self) -> dict[str, object]:
        return {
            "step": self.index,
            "player": self.player,
            "decision": self.turn,
            "played": self.played.to_json(),
            "value": round(self.value, 2),
            "best": self.best.to_json(),
            "best_value": round(self.best_value, 2),
            "loss": round(self.loss, 2),
            "strong": self.strong.to_json(),
            "strong_value": round(self.strong_value, 2),
        }


def rate(game: Game, decision: Step) -> Rating:
    """Judge `decision` for `game`'s pending decision (the game is left as it was)."""
    from firmware.bots import choose

    spec = find_game(game.name)
    player = game.pending().player
    if player is None or game.pending().kind != "decision":
        raise ValueError("no decision is pending")
    legal = game.legal_decisions()
    index = decision_index(game)
    values = calibrate(game, raw_values(game, legal), index)
    best = max(range(len(legal)), key=lambda n: (values[n], -n))  # ties: the first
    if decision in legal:
        value = values[legal.index(decision)]
    else:  # the same effect written otherwise (EXTRA!'s pairs in another order)
        value = calibrate(game, raw_values(game, [decision]), index)[0]
    strong = choose(game.copy(), random.Random(f"coach:{len(game.history)}"), spec.levels[-1])
    strong_value = values[legal.index(strong)] if strong in legal else value
    if value >= values[best]:  # played as well as the best: it is the best
        best_choice, best_value = decision, value
    else:
        best_choice, best_value = legal[best], values[best]
    return Rating(len(game.history), player, index, decision, value, best_choice, best_value, strong, strong_value)


def people(game: Game) -> list[int]:
    """The seats played by persons (no bot level, no engine)."""
    return [seat for seat, player in enumerate(game.players) if player.bot is None]


def analyse(record: Mapping[str, object], seats: Sequence[int] | None = None) -> tuple[Game, list[Rating]]:
    """Replay `record` (docs/records.md), rating each decision of `seats` (default: every
    person's) on the way; the game as the record leaves it, and the ratings in play order.
    RecordError for a bad record (`firmware.records.replay_record`'s) or a game without evaluator."""
    from firmware.records import replay_record

    final = replay_record(record)  # every check of a record first: its errors name the step
    if find_game(final.name).evaluator is None:
        raise NoCoach(Text(N_("{game} has no evaluator: it cannot be analysed"), game=final.title))
    rated = set(people(final) if seats is None else seats)
    game = type(final).for_record(final.players, final.record_version)
    ratings = []
    for index, step in enumerate(final.history):
        if final.actor(index) in rated and game.pending().kind == "decision":
            ratings.append(rate(game, step))
        game.apply(step)
    return final, ratings


def key_moments(
    ratings: Sequence[Rating], count: int = KEY_MOMENTS, against_strong: bool = False
) -> dict[int, list[Rating]]:
    """Per player: their `count` costliest decisions (loss of at least MIN_LOSS), costliest first
    (ties: the earlier). `against_strong`: the cost against the strong bot's own move
    (`Rating.strong_loss`, the board's Key moments), else against the evaluator's best."""

    def loss(rating: Rating) -> float:
        return rating.strong_loss if against_strong else rating.loss

    moments: dict[int, list[Rating]] = {}
    for rating in sorted(ratings, key=lambda r: (-loss(r), r.index)):
        if loss(rating) >= MIN_LOSS and len(moments.setdefault(rating.player, [])) < count:
            moments[rating.player].append(rating)
    return moments


def position_at(game: Game, index: int) -> Game:
    """`game` replayed up to (not including) history step `index`: the position a decision was made in."""
    past = type(game).for_record(game.players, game.record_version)
    for step in game.history[:index]:
        past.apply(step)
    return past
