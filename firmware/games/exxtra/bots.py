"""EXXTRA bots "easy" (at the end), "medium" and "strong": expected spaces gained, over the dice distribution.

A placement on rung r is worth r spaces at the start of the bot's next turn if no other player
removes the pair first (they need an equal or higher combination placed on a lower rung), plus
the spaces it takes from the pairs it removes. A re-roll is worth the expectation over the 36
faces of the next roll: an X loses a space per X and ends the turn, a double advances at once,
any other roll is accepted or rolled again, whichever is worth more (a fixed point: the same
choice recurs). Near the finish, spaces beyond the finish are worth nothing and reaching it is
worth a bonus.

"strong" solves that expectation exactly (value iteration over the 36 outcomes) and weighs the
pairs it removes by how close their owners are to winning; "medium" uses the same placement
values but decides to re-roll by a plain threshold. Deterministic; the rng is not needed.

    >>> import random
    >>> from firmware.games import new_game, Roll
    >>> game = new_game("exxtra", ["A", "B", "C"]); game.apply(Roll(("7", "6")))
    >>> strong(game, game.legal_decisions(), random.Random(1))
    Place(rung=5)
"""

from __future__ import annotations

import random
from functools import lru_cache
from typing import Any

from firmware.games.exxtra.rules import DIE_A, DIE_B, FINISH, TOP_RUNG, Place, Reroll, combination_value
from firmware.i18n import _, fixed

WIN_BONUS = 6.0  # spaces a finish is worth beyond the spaces it takes
REMOVE_WEIGHT = 0.5  # an opponent's lost space against one of ours (several opponents share it)
ITERATIONS = 30


def _value(a: str, b: str, first: bool) -> int:
    """Combination as high*10+low; -1 when an X makes a later roll invalid."""
    if not first and "X" in (a, b):
        return -1
    va, vb = (0 if a == "X" else int(a)), (0 if b == "X" else int(b))
    return max(va, vb) * 10 + min(va, vb)


# The 36 equally likely later rolls: (combination value or -1, X count, double advance).
_LATER = tuple(
    (_value(a, b, False), (a == "X") + (b == "X"), int(a) if a == b and a != "X" else 0) for a in DIE_A for b in DIE_B
)


@lru_cache(maxsize=None)
def beat_chance(value: int) -> float:
    """Chance that one roll of a turn (first roll rules) shows `value` or better.

    >>> beat_chance(0)
    1.0
    """
    hits = sum(1 for a in DIE_A for b in DIE_B if _value(a, b, True) >= value)
    return hits / 36


class _View:
    """What the placement values read of the game, taken once per decision."""

    def __init__(self, game: Any) -> None:
        self.me = game.current_player
        self.players = len(game.players)
        self.positions = game.positions
        ladder = game.ladder
        self.free = [r == 0 or not ladder[r] for r in range(TOP_RUNG + 1)]
        # (rung, owner, combination value) of the other players' pairs on rungs 1-5
        self.pairs = [
            (r, pair.player, int(pair.combination))
            for r in range(1, TOP_RUNG + 1)
            for pair in ladder[r]
            if pair.player != self.me
        ]


def _survival(value: int, rung: int, view: _View, threat: float) -> float:
    """Chance the pair stays on `rung` until the bot's next turn: each other player may end
    their turn with an equal or better combination and place it below (rung 0 is always free)."""
    if rung == 0:
        return 1.0
    per_player = 1 - (1 - beat_chance(value)) ** threat
    survival: float = (1 - per_player * 0.85) ** (view.players - 1)  # (a float power is Any to mypy)
    return survival


def _gain(position: int, spaces: float) -> float:
    """Worth of moving `spaces` from `position`: capped at the finish, with a bonus for it."""
    room = FINISH - position
    return room + WIN_BONUS if spaces >= room else spaces


def _place_value(view: _View, rung: int, value: int, position: int, threat: float, weigh_leaders: bool) -> float:
    worth = _survival(value, rung, view, threat) * _gain(position, rung)
    for higher, owner, combination in view.pairs:
        if higher > rung and combination <= value:
            weight = REMOVE_WEIGHT
            if weigh_leaders:
                # A pair that would carry its owner near or over the finish is worth stopping.
                ahead = view.positions[owner] + higher
                weight *= 1 + max(0, ahead - 14) / 3
                if ahead >= FINISH:
                    weight += 2
            worth += weight * higher
    return worth


def _best_place(view: _View, value: int, position: int, threat: float, weigh_leaders: bool) -> tuple[float, int]:
    return max(
        (_place_value(view, r, value, position, threat, weigh_leaders), -r) for r in range(TOP_RUNG + 1) if view.free[r]
    )


def reroll_value(view: _View, position: int, threat: float, weigh_leaders: bool) -> float:
    """Expected worth (in spaces) of rolling again from `position` and playing on at best."""
    places = {}
    for value, _xs, _double in _LATER:
        if value >= 0 and value not in places:
            places[value] = _best_place(view, value, position, threat, weigh_leaders)[0]
    estimate = 0.0
    for _iteration in range(ITERATIONS):
        total = 0.0
        for value, xs, double in _LATER:
            if value < 0:
                total -= min(xs, position)
            elif double:
                if position + double >= FINISH:
                    total += _gain(position, double)
                else:
                    # The double's spaces come at once, whatever is decided next.
                    total += double + max(places[value], estimate)
            else:
                total += max(places[value], estimate)
        new = total / 36
        if abs(new - estimate) < 1e-4:
            return new
        estimate = new
    return estimate


def _decide(game: Any, decisions: list[Any], threat: float, exact: bool) -> Any:
    value = int(game.current_combination)
    view = _View(game)
    position = view.positions[view.me]
    place_worth, neg_rung = _best_place(view, value, position, threat, exact)
    best_place = Place(-neg_rung)
    if Reroll() not in decisions:
        return best_place
    if exact:
        again = reroll_value(view, position, threat, exact)
    else:
        # Medium: roll on while the best placement is worth under two spaces (once, from a first roll).
        again = 2.0 if game.rolls_this_turn < 2 else 0.0
    return Reroll() if again > place_worth else best_place


def strong(game: Any, decisions: list[Any], rng: random.Random) -> Any:
    """Re-roll exactly when the expected worth of rolling on beats the best placement."""
    return _decide(game, decisions, threat=1.6, exact=True)


def hint_reason(game: Any, decision: Any) -> str:
    """Why "strong" likes `decision`, in a few words (a hint on the board): how safe a placement
    is, and the final space on the track it leads to (`evaluate`, calibrated: firmware/coach.py).

    >>> from firmware.games import new_game, Roll
    >>> game = new_game("exxtra", ["A", "B", "C"]); game.apply(Roll(("7", "6")))
    >>> hint_reason(game, Place(5)).startswith("rung 5: 93% safe, exp. end: space ")
    True
    """
    from firmware.coach import estimate

    if isinstance(decision, Reroll):
        again, place = estimate(game, [decision, _best_place_decision(game)])
        # Translators: a hint: rolling on is expected to end the game on space {again}, placing on space {place}.
        return _("roll on: exp. end: space {again} vs {place}").format(again=fixed(again), place=fixed(place))
    view = _View(game)
    safe = _survival(int(game.current_combination), decision.rung, view, 1.6)
    # Translators: a hint: placing on rung {rung} survives the others' turns with {safe} % chance; the game is expected to end with the player on space {space}.
    return _("rung {rung}: {safe}% safe, exp. end: space {space}").format(
        rung=decision.rung, safe=round(safe * 100), space=fixed(estimate(game, [decision])[0])
    )


def _best_place_decision(game: Any) -> Place:
    """The placement strong likes best for the current roll."""
    view = _View(game)
    return Place(-_best_place(view, int(game.current_combination), view.positions[view.me], 1.6, True)[1])


def medium(game: Any, decisions: list[Any], rng: random.Random) -> Any:
    """Best placement by expected spaces; re-roll by a plain threshold."""
    return _decide(game, decisions, threat=1.0, exact=False)


def easy(game: Any, decisions: list[Any], rng: random.Random) -> Any:
    """Accept a strong roll on the highest free rung it will hold; else push luck a little."""
    value = combination_value(game.current_combination)
    places = [d for d in decisions if isinstance(d, Place)]
    risky = game.rolls_this_turn >= 2 or value >= combination_value("64")
    if not risky and Reroll() in decisions and (game.first_roll or value < combination_value("52")):
        return Reroll()
    # The highest rung whose pairs above it we would not leave stronger than us.
    best = max(
        places,
        key=lambda p: (
            p.rung if value >= combination_value("42") or p.rung <= 2 else -1,
            len(game.would_remove(p.rung)),
        ),
    )
    return best


# --- evaluate: the estimate the hint and the coach show (firmware/coach.py calibrates it) ----------
def evaluate(game: Any, decisions: list[Any]) -> list[float]:
    """Strong's raw estimate, for the deciding player, of their final space on the track after
    each of `decisions` (legal ones for the pending decision): their space now plus what strong
    expects the decision to gain (a placement's worth, or rolling on's). Raw: the worths
    weigh a finish and the pairs removed, so `firmware.coach` maps them to spaces by decision index.

    >>> from firmware.games import new_game, Roll
    >>> game = new_game("exxtra", ["A", "B", "C"]); game.apply(Roll(("7", "6")))
    >>> [round(v, 1) for v in evaluate(game, [Place(5), Reroll()])]
    [4.6, 1.8]
    """
    value = int(game.current_combination)
    view = _View(game)
    position = view.positions[view.me]
    again: float | None = None
    values = []
    for decision in decisions:
        if isinstance(decision, Reroll):
            if again is None:
                again = reroll_value(view, position, 1.6, True)
            values.append(position + again)
        else:
            values.append(position + _place_value(view, decision.rung, value, position, 1.6, True))
    return values


def outcome(game: Any, player: int) -> float:
    """What `evaluate` estimates, once the game is over: `player`'s final space on the track."""
    return float(game.positions[player])
