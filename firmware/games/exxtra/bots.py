"""EXXTRA bots "easy" (at the end), "medium" and "strong".

"strong" plays for the chance to win (`firmware.games.exxtra.model`): a placement on rung r
brings r spaces at the start of the bot's next turn if no other player removes the pair first,
and removes the pairs above r that are no better; the round until the bot's next turn is
followed through the rungs actually free (each other player takes back their own pair and
places as a sensible player would), and a race model turns the spaces the bot gains and those it
takes from the others (a leader's most) into a chance to win. A re-roll is worth the
expectation over the 36 faces of the next roll: an X loses a space per X and ends the turn, a
double advances at once, any other roll is placed or rolled again, whichever is worth more (a
fixed point: the same choice recurs).

"medium" places as strong does, but re-rolls only from a first roll and looks one roll ahead
(the next roll is placed, whatever it shows). Deterministic; the rng is not needed.

    >>> import random
    >>> from firmware.games import new_game, Roll
    >>> game = new_game("exxtra", ["A", "B", "C"]); game.apply(Roll(("7", "6")))
    >>> strong(game, game.legal_decisions(), random.Random(1))
    Place(rung=5)
"""

from __future__ import annotations

import random
from collections.abc import Sequence

from firmware.games.exxtra.model import Position
from firmware.games.exxtra.rules import FINISH, Decision, Exxtra, Place, Reroll, combination_value
from firmware.i18n import _


def strong(game: Exxtra, decisions: Sequence[Decision], rng: random.Random) -> Decision:
    """The decision with the best chance to win: each placement judged through the round until
    the bot's next turn and the race (`model.Position`), a re-roll by the exact expectation over
    the next roll."""
    best = _strong_choice(Position(game), int(_combination(game)), decisions)[0]
    assert best is not None  # placing on rung 0 is always allowed
    return best


def _combination(game: Exxtra) -> str:
    """The combination being decided on (a bot is asked only while a decision is pending)."""
    combination = game.current_combination
    if combination is None:
        raise ValueError("no decision is pending: no combination to judge")
    return combination


def _strong_choice(position: Position, value: int, decisions: Sequence[Decision]) -> tuple[Decision | None, float]:
    best: Decision | None = None
    best_worth = -1.0
    for decision in decisions:
        if isinstance(decision, Place):
            worth = position.place(decision.rung, value, position.position)
            if worth > best_worth:
                best, best_worth = decision, worth
    if Reroll() in decisions:
        again = position.reroll()
        if again > best_worth:
            return Reroll(), again
    return best, best_worth


def evaluate(game: Exxtra, decisions: Sequence[Decision]) -> list[float]:
    """Strong's figure for each of `decisions` (legal ones for the pending decision), in spaces:
    the deciding player's space now plus the sure spaces that would give them the same chance to
    win as the decision does (`model.Position.spaces`).

    >>> from firmware.games import new_game, Roll
    >>> game = new_game("exxtra", ["A", "B", "C"]); game.apply(Roll(("7", "6")))
    >>> [round(v, 1) for v in evaluate(game, [Place(5), Reroll()])]
    [4.5, 2.1]
    """
    position = Position(game)
    value = int(_combination(game))
    worths = []
    for decision in decisions:
        if isinstance(decision, Reroll):
            worth = position.reroll()
        else:
            worth = position.place(decision.rung, value, position.position)
        worths.append(position.position + position.spaces(worth))
    return worths


def hint_reason(game: Exxtra, decision: Decision) -> str:
    """Why "strong" likes `decision`, in a few words (a hint on the board, after the decision's
    name: `firmware.games.exxtra.text.ExxtraWords.hint`): how safe a placement is, and the space
    on the track it is expected to end the game on (`evaluate`, calibrated: firmware/coach.py),
    a whole space on the track (start to finish: no estimate goes past them).

    >>> from firmware.games import new_game, Roll
    >>> game = new_game("exxtra", ["A", "B", "C"]); game.apply(Roll(("7", "6")))
    >>> hint_reason(game, Place(5)).startswith("91% safe, expect to end near space ")
    True
    """
    from firmware.coach import estimate

    value = int(_combination(game))
    position = Position(game)
    if isinstance(decision, Reroll):
        places = [d for d in game.legal_decisions() if isinstance(d, Place)]
        best = max(places, key=lambda d: position.place(d.rung, value, position.position))
        again, place = (on_track(space) for space in estimate(game, [decision, best]))
        # Translators: a hint to roll again: expected to end the game near space {again} of the track; placing now: near space {place}.
        return _("expect to end near space {again} (placing now: {place})").format(again=again, place=place)
    safe = position.survival(decision.rung, value, position.removed(decision.rung, value))
    # Translators: a hint for a rung: placing there survives the others' turns with {safe} % chance; the player is expected to end the game near space {space} of the track.
    return _("{safe}% safe, expect to end near space {space}").format(
        safe=round(safe * 100), space=on_track(estimate(game, [decision])[0])
    )


def on_track(space: float) -> int:
    """An estimated final space as a space of the track: a whole one, from the start to the finish."""
    return min(max(round(space), 0), FINISH)


def medium(game: Exxtra, decisions: Sequence[Decision], rng: random.Random) -> Decision:
    """Strong's placement; re-roll when placing whatever the next roll shows (one roll ahead,
    no more) is worth more."""
    position = Position(game)
    value = int(_combination(game))
    best, worth = _strong_choice(position, value, [d for d in decisions if isinstance(d, Place)])
    if Reroll() in decisions and game.rolls_this_turn < 2 and position.reroll(looks=1) > worth:
        return Reroll()
    assert best is not None  # placing on rung 0 is always allowed
    return best


def easy(game: Exxtra, decisions: Sequence[Decision], rng: random.Random) -> Decision:
    """Accept a strong roll on the highest free rung it will hold; else push luck a little."""
    value = combination_value(_combination(game))
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


# --- the outcome `evaluate` estimates (firmware/coach.py calibrates it) ------------------------------
def outcome(game: Exxtra, player: int) -> float:
    """What `evaluate` estimates, once the game is over: `player`'s final space on the track."""
    return float(game.positions[player])
