"""EXXTRA's evaluator for the strong bot: the round until the bot's next turn, and the race.

A decision is judged by the bot's chance to win the race, estimated in two steps:

1. The round. Each other player, in turn order, takes back their own pair (freeing its rung),
   then ends their turn with a combination drawn from a sensible player's turn (accept a first
   roll of at least "61", else roll once more) and places it by the rungs actually free at that
   moment: the highest free rung whose risk fits, else the lowest free one, else rung 0
   (`OpponentModel`). The free rungs are followed through the round as a distribution
   (`Position.round_of`), so a pair survives when no one who comes before the bot's next turn places an
   equal or better combination below it.
2. The race. Each player's progress per round is taken as normal with a mean and spread per
   player count (`Params`, `finish_curve`); the chance that the bot finishes first, with the others' turns coming
   before its own in every round, turns positions into a win chance. A pair the bot removes
   costs its owner the rung's spaces in that race, which is worth most against a leader.

Deterministic and pure Python: every table is built from exact counts of the 36 faces.
"""

from __future__ import annotations

import math
from functools import lru_cache
from typing import TYPE_CHECKING

from firmware.games.exxtra.rules import DIE_A, DIE_B, FINISH, TOP_RUNG

if TYPE_CHECKING:
    from firmware.games.exxtra.rules import Exxtra

ROUNDS = 40  # rounds the race looks ahead (a 6-player race lasts about 13)
ALL_FREE = (1 << TOP_RUNG) - 1  # free rungs 1–5 as bits: rung r is bit r − 1


def _first_value(a: str, b: str) -> int:
    va, vb = (0 if a == "X" else int(a)), (0 if b == "X" else int(b))
    return max(va, vb) * 10 + min(va, vb)


def _later_value(a: str, b: str) -> int:
    return -1 if "X" in (a, b) else _first_value(a, b)


FACES = tuple((a, b) for a in DIE_A for b in DIE_B)
# The 36 equally likely later rolls: (combination value or -1, X count, double's advance).
LATER = tuple((_later_value(a, b), (a == "X") + (b == "X"), int(a) if a == b and a != "X" else 0) for a, b in FACES)
# How many of the 36 first rolls rank at least `value` (X counted 0), for value 0..99.
AT_LEAST = tuple(sum(1 for a, b in FACES if _first_value(a, b) >= value) for value in range(100))


class Params:
    """The tuned numbers of one player count."""

    __slots__ = ("my_mean", "mean", "spread", "accept", "caution", "others_kick")

    def __init__(
        self,
        my_mean: float,
        mean: float,
        spread: float,
        accept: int = 61,
        caution: float = 0.5,
        others_kick: float = 1.0,
    ) -> None:
        self.my_mean = my_mean  # the bot's own progress per round
        self.mean = mean  # another player's progress per round
        self.spread = spread  # standard deviation of one round's progress
        self.accept = accept  # the opponents' first roll they keep
        self.caution = caution  # the opponents' rung rule: risk · rung < caution
        self.others_kick = others_kick  # 1: the others' pairs may be removed by those before them


# Per player count; the means and spreads start from greedy's own games (per round: 1.70 ± 2.15
# at 3 players, 1.43 ± 1.97, 1.17 ± 1.84, 0.92 ± 1.74 at 6).
PARAMS: dict[int, Params] = {
    3: Params(1.9, 1.7, 2.15),
    4: Params(1.6, 1.43, 1.97),
    5: Params(1.35, 1.17, 1.84),
    6: Params(1.1, 0.92, 1.74),
}


def params(players: int) -> Params:
    return PARAMS[min(max(players, 3), 6)]


class OpponentModel:
    """A sensible opponent's turn, for one player count: the combinations it ends its turn with
    (independent of the ladder) and where it puts each, given the free rungs."""

    def __init__(self, players: int, accept: int, caution: float) -> None:
        self.players = players
        first = [0] * 100
        later = [0] * 100
        for a, b in FACES:
            first[_first_value(a, b)] += 1
            value = _later_value(a, b)
            if value >= 0:
                later[value] += 1
        again = sum(first[v] for v in range(accept)) / 36
        # (value, chance) of the combination placed; the rest of the turn ends on an X
        self.placed = tuple(
            (v, (first[v] / 36 if v >= accept else 0.0) + again * later[v] / 36)
            for v in range(100)
            if (v >= accept and first[v]) or later[v]
        )
        limit = caution * 5 * 36  # risk · r < caution, risk = at_least/36 · (players − 1)/5
        self._fits = tuple(
            tuple(r for r in range(1, TOP_RUNG + 1) if AT_LEAST[v] * (players - 1) * r < limit) for v in range(100)
        )
        self._transitions: dict[int, tuple[tuple[int, float], ...]] = {}
        self._kicks: dict[tuple[int, int], list[float]] = {}
        self._expected: dict[int, float] = {}

    def rung(self, value: int, free: int) -> int:
        """Where the model puts `value` with the rungs of bit mask `free` free."""
        fitting = [r for r in self._fits[value] if free >> (r - 1) & 1]
        if fitting:
            return fitting[-1]
        for r in range(1, TOP_RUNG + 1):
            if free >> (r - 1) & 1:
                return r
        return 0

    def transitions(self, free: int) -> tuple[tuple[int, float], ...]:
        """(free rungs after the turn, chance) from `free` before it."""
        found = self._transitions.get(free)
        if found is None:
            after: dict[int, float] = {}
            expected = 0.0
            for value, chance in self.placed:
                r = self.rung(value, free)
                expected += chance * r
                mask = free & ~(1 << (r - 1)) if r else free
                after[mask] = after.get(mask, 0.0) + chance
            rest = 1.0 - sum(chance for _, chance in self.placed)
            after[free] = after.get(free, 0.0) + rest
            found = self._transitions[free] = tuple(sorted(after.items()))
            self._expected[free] = expected
        return found

    def expected_rung(self, free: int) -> float:
        """The rung the model's turn is expected to claim with `free` free (0 on rung 0 or an X)."""
        self.transitions(free)
        return self._expected[free]

    def kicks(self, free: int, rung: int) -> list[float]:
        """Per value v (0–99): the chance the turn places v or better below `rung`."""
        key = (free, rung)
        found = self._kicks.get(key)
        if found is None:
            found = [0.0] * 101
            for value, chance in self.placed:
                if self.rung(value, free) < rung:
                    found[value] += chance
            for v in range(99, -1, -1):
                found[v] += found[v + 1]
            self._kicks[key] = found
        return found


@lru_cache(maxsize=None)
def opponent_model(players: int) -> OpponentModel:
    p = params(players)
    return OpponentModel(players, p.accept, p.caution)


def _normal(x: float) -> float:
    return 0.5 * math.erfc(-x / math.sqrt(2))


@lru_cache(maxsize=None)
def finish_curve(distance: int, mean: float, spread: float) -> tuple[float, ...]:
    """P(finished by round t), t = 0..ROUNDS, for a player `distance` spaces from the finish
    once their pending pair (if any) has come back at the start of round 1; later rounds bring
    `mean` ± `spread` each."""
    curve = [0.0]
    for t in range(1, ROUNDS + 1):
        if distance <= 0:
            curve.append(1.0)
        elif t == 1:
            curve.append(0.0)
        else:
            n = t - 1
            curve.append(_normal((mean * n - distance + 0.5) / (spread * math.sqrt(n))))
    return tuple(curve)


@lru_cache(maxsize=None)
def my_steps(distance: int, mean: float, spread: float) -> tuple[float, ...]:
    """P(the bot finishes exactly in round t), t = 0..ROUNDS (the rest: never, within ROUNDS)."""
    curve = finish_curve(distance, mean, spread)
    return tuple([0.0] + [curve[t] - curve[t - 1] for t in range(1, ROUNDS + 1)])


class Position:
    """One decision's position as the evaluator needs it, with caches for the decision."""

    def __init__(self, game: Exxtra) -> None:
        self.me = me = game.current_player
        self.players = n = len(game.players)
        self.params = params(n)
        self.model = opponent_model(n)
        self.positions = positions = game.positions
        self.position = positions[me]
        self.order = [(me + k) % n for k in range(1, n)]  # the others, in the order they play
        rung_of = game.rung_of
        self.own = {j: (rung_of[j] or 0) for j in self.order}  # each other's pending rung
        self.value_on = [-1] * (TOP_RUNG + 1)  # the combination on each rung 1–5 (-1: free)
        free = ALL_FREE
        for r in range(1, TOP_RUNG + 1):
            pairs = game.ladder[r]
            if pairs:
                self.value_on[r] = int(pairs[0].combination)
                free &= ~(1 << (r - 1))
        self.free = free
        self._round: dict[tuple[int, int], list[list[tuple[int, float]]]] = {}
        self._survival: dict[tuple[int, int, int], float] = {}
        self._others: dict[tuple[int, int], tuple[float, ...]] = {}
        self._worth: dict[tuple[int, int, int], float] = {}

    def removed(self, rung: int, value: int) -> int:
        """Bit mask of the rungs whose pairs placing `value` on `rung` removes."""
        mask = 0
        for r in range(rung + 1, TOP_RUNG + 1):
            if 0 <= self.value_on[r] <= value:
                mask |= 1 << (r - 1)
        return mask

    def round_of(self, rung: int, removed: int) -> list[list[tuple[int, float]]]:
        """For each other player in turn order: (free rungs when they place, chance), with the
        bot's pair on `rung` and the pairs of mask `removed` gone."""
        key = (rung, removed)
        found = self._round.get(key)
        if found is not None:
            return found
        free = self.free | removed
        if rung:
            free &= ~(1 << (rung - 1))
        states = {free: 1.0}
        found = []
        model = self.model
        for j in self.order:
            back = self.own[j]
            if back and not removed >> (back - 1) & 1:
                bit = 1 << (back - 1)
                states = {mask | bit: chance for mask, chance in states.items()}
            found.append(list(states.items()))
            after: dict[int, float] = {}
            for mask, chance in states.items():
                for new, p in model.transitions(mask):
                    after[new] = after.get(new, 0.0) + chance * p
            states = after
        self._round[key] = found
        return found

    def survival(self, rung: int, value: int, removed: int) -> float:
        """Chance the bot's pair `value` on `rung` is still there at its next turn."""
        if rung == 0:
            return 1.0
        key = (rung, value, removed)
        found = self._survival.get(key)
        if found is None:
            found = 1.0
            kicks = self.model.kicks
            for states in self.round_of(rung, removed):
                found *= 1.0 - sum(chance * kicks(mask, rung)[value] for mask, chance in states)
            self._survival[key] = found
        return found

    def others(self, rung: int, removed: int) -> tuple[float, ...]:
        """Per round t: the chance that no other player has finished by their turn of round t,
        with the bot's pair on `rung` and the pairs of mask `removed` taken from their owners."""
        key = (rung, removed)
        found = self._others.get(key)
        if found is None:
            p = self.params
            product = [1.0] * (ROUNDS + 1)
            states = self.round_of(rung, removed)
            kicks = self.model.kicks
            for index, j in enumerate(self.order):
                back = self.own[j]
                if back and removed >> (back - 1) & 1:
                    back = 0
                distance = FINISH - self.positions[j]
                curve = finish_curve(distance - back, p.mean, p.spread)
                kept = 1.0
                if back and p.others_kick:  # the players before j may remove j's pair first
                    value = self.value_on[back]
                    for before in states[:index]:
                        kept *= 1.0 - sum(chance * kicks(mask, back)[value] for mask, chance in before)
                if kept < 1.0:
                    lost = finish_curve(distance, p.mean, p.spread)
                    for t in range(ROUNDS + 1):
                        product[t] *= 1.0 - (kept * curve[t] + (1.0 - kept) * lost[t])
                else:
                    for t in range(ROUNDS + 1):
                        product[t] *= 1.0 - curve[t]
            found = self._others[key] = tuple(product)
        return found

    def win(self, position: int, rung: int, removed: int) -> float:
        """The bot's chance to win with `position` at the start of its next turn, its pair on
        `rung` during the round."""
        key = (position, rung, removed)
        found = self._worth.get(key)
        if found is None:
            p = self.params
            steps = my_steps(FINISH - position, p.my_mean, p.spread)
            others = self.others(rung, removed)
            found = self._worth[key] = sum(s * o for s, o in zip(steps, others))
        return found

    def place(self, rung: int, value: int, position: int) -> float:
        """Win chance of placing `value` on `rung` from `position`."""
        removed = self.removed(rung, value)
        kept = self.survival(rung, value, removed)
        return kept * self.win(position + rung, rung, removed) + (1.0 - kept) * self.win(position, rung, removed)

    def best_place(self, value: int, position: int) -> tuple[float, int]:
        """(win chance, rung) of the best placement of `value` from `position`; the lowest rung
        wins a tie."""
        best, where = self.place(0, value, position), 0
        for r in range(1, TOP_RUNG + 1):
            if self.free >> (r - 1) & 1:
                worth = self.place(r, value, position)
                if worth > best:
                    best, where = worth, r
        return best, where

    def reroll(self, looks: int = 60) -> float:
        """Win chance of rolling again and playing on at best (a fixed point: after any valid
        roll the same choice comes back). A double moves at once; the chance of rolling on
        after it is shifted by what its spaces are worth. `looks` = 1: the next roll is placed
        whatever it shows (one roll ahead, no more)."""
        position = self.position
        placed: dict[int, float] = {}
        stopped = {xs: self.win(max(0, position - xs), 0, 0) for xs in (1, 2)}
        bonus: dict[int, tuple[float, float | None]] = {}
        for value, _xs, double in LATER:
            if value < 0:
                continue
            if double:
                if position + double >= FINISH:
                    bonus[double] = (1.0, None)
                else:
                    shift = self.win(position + double, 0, 0) - self.win(position, 0, 0)
                    bonus[double] = (self.best_place(value, position + double)[0], shift)
            elif value not in placed:
                placed[value] = self.best_place(value, position)[0]
        estimate = sum(placed.values()) / max(1, len(placed)) if looks > 1 else 0.0
        for _iteration in range(looks):
            total = 0.0
            for value, xs, double in LATER:
                if value < 0:
                    total += stopped[xs]
                elif double:
                    now, gained = bonus[double]
                    total += now if gained is None else max(now, estimate + gained)
                else:
                    total += max(placed[value], estimate)
            new = total / 36
            if abs(new - estimate) < 1e-9:
                return new
            estimate = new
        return estimate

    def spaces(self, worth: float) -> float:
        """A win chance as the sure spaces (from the bot's position, with nothing removed) that
        would be worth as much: the unit the hints speak in."""
        base = self.win(self.position, 0, 0)
        if worth >= base:
            low, high = self.position, FINISH
            step = 1
        else:
            low, high = self.position, 0
            step = -1
        previous = base
        for target in range(low + step, high + step, step):
            now = self.win(target, 0, 0)
            if (step > 0 and now >= worth) or (step < 0 and now <= worth):
                gap = now - previous
                part: float = (worth - previous) / gap if gap else 0.0
                return float(target - step - self.position) + step * part
            previous = now
        return float(high - self.position)
