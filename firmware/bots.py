"""Bots: a simple legal policy per game, using only the engines' protocol and public state.

    >>> from firmware.games import new_game, Roll
    >>> import random
    >>> game = new_game("exxtra", ["A", "B", "C"]); game.apply(Roll(("7", "6")))
    >>> choose(game, random.Random(1))
    Place(rung=5)

Level "easy": good enough to play a table through (demo mode) and to lose to attentive people.
Levels "medium" and "strong" live in firmware/ai/ (docs/bots.md).
"""

from __future__ import annotations

import random
from typing import Any

from firmware.games import Game, find_game


def choose(game: Game, rng: random.Random, level: str | None = None) -> Any:
    """The decision of the bot at `level` for the pending decision of `game`; always one of its
    legal decisions. Each game's registry entry names its levels. Without `level`: the level
    kept in the deciding seat (`Player.bot`), else the game's easiest."""
    decisions = game.legal_decisions()
    if not decisions:
        raise ValueError("no decision is pending")
    spec = find_game(game.name)
    if level is None:
        player = game.pending().player  # a decision is pending: whose
        seat = game.players[player].bot if player is not None else None
        level = seat if seat in spec.levels else spec.levels[0]
    policy = spec.policy(level)
    choice = policy(game, decisions, rng)
    return choice if choice in decisions else rng.choice(decisions)


def exxtra_easy(game: Any, decisions: list, rng: random.Random) -> Any:
    """Accept a strong roll on the highest free rung it will hold; else push luck a little."""
    from firmware.games.exxtra import Place, Reroll, combination_value

    value = combination_value(game.current_combination)
    places = [d for d in decisions if isinstance(d, Place)]
    risky = game.rolls_this_turn >= 2 or value >= combination_value("64")
    if not risky and Reroll() in decisions and (game.first_roll or value < combination_value("52")):
        return Reroll()
    # The highest rung whose pairs above it we would not leave stronger than us.
    best = max(places, key=lambda p: (p.rung if value >= combination_value("42") or p.rung <= 2 else -1,
                                      len(game.would_remove(p.rung))))
    return best


def levelx_easy(game: Any, decisions: list, rng: random.Random) -> Any:
    """Use as many dice as possible, preferring sums where we already stand near the X."""
    from firmware.games.levelx import outcomes

    if game.ones_to_turn:
        return rng.choice(decisions)  # turning ones: any new faces; the outcome is chosen next
    best = max(outcomes(game), key=lambda o: (len(o.sums), sum(_levelx_progress(game, s) for s in o.sums), rng.random()))
    return best.groups


def _levelx_progress(game: Any, row: int) -> int:
    index = row - 5
    field = game.pieces[game.current_player][index]
    return -1 if row in game.closed_rows else (field + 1 if field is not None else 0)


def extra_easy(game: Any, decisions: list, rng: random.Random) -> Any:
    """Prefer crosses on rows already out of the wall, and the extra column with most room."""
    from firmware.games.extra import WALLS

    player = game.undecided[0]
    sheet = game.sheets[player]
    faces = game.faces

    def value(choice: Any) -> float:
        score = 0.0
        for a, b in choice.pairs:
            total = faces[a] + faces[b]
            crosses = sheet.crosses_in(total)
            score += 2.0 if crosses >= WALLS[total] else 1.0 / (WALLS[total] - crosses + 1)
        return score + rng.random() * 0.01

    return max(decisions, key=value)
