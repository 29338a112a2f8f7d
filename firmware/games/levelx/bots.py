"""LEVEL X bots "easy" (at the end), "medium" and "strong": judge each distinct outcome of the roll by the position
it leads to.

Each outcome (the multiset of sums a grouping forms, see `firmware.games.levelx.rules.outcomes`) is
played out on a light copy of the public state, then judged: points in hand (chips and tiles),
plus what each piece on the board is likely to bring (more the nearer its X field, most on it),
plus progress towards the next bonus tile; "strong" judges every player that way and plays for
the largest lead over the best opponent (ousting them counts), and tries every lucky-loser
choice (the new faces, then the best outcome with them). "medium" judges only its own position
and turns the ones only to the faces that help it most by the same blunt measure.
Deterministic: ties go to the first outcome in `outcomes()` order; the rng is not needed.

The last bonus tile, when offered (`Bonus`): taking it ends the game at the end of the round,
so it is worth taking only to win. "strong" takes it when the game ends this round anyway, or
when with the tile it leads every other player by more than the chips they can take on their
X fields in their turns left of this round; "medium" when with the tile it has the best score;
"easy" always.

    >>> import random
    >>> from firmware.games import new_game, Roll
    >>> game = new_game("levelx", ["A", "B"]); game.apply(Roll((5, 5, 5, 5)))
    >>> strong(game, game.legal_decisions(), random.Random(1))   # 10+10: a chip of 10, and on X
    Groups(groups=((0, 1), (2, 3)))
"""

from __future__ import annotations

import random
from dataclasses import dataclass
from itertools import combinations_with_replacement
from typing import Any

from firmware.games.levelx.rules import FACES, FIELDS, ROWS, STACKS_TO_END, Bonus, TurnOnes, outcomes
from firmware.i18n import _, fixed

_LAST = tuple(n - 1 for n in FIELDS)


@dataclass(frozen=True)
class Weights:
    on_x: float  # a piece on an X field, in chips of its row
    progress: float  # a piece before the X, per share of the way, in chips of its row
    tiles: float  # the next bonus tile, per (share of the rows towards it) squared
    rivals: bool  # judge the other players too and play for the lead
    lost_piece: float  # a piece gone for good, in points
    oust_risk: float = 0.0  # share of an X field's worth lost when a rival stands just before it
    closing: float = 0.0  # share of the pieces' worth lost per closed row (the end nears)


STRONG = Weights(on_x=0.6, progress=0.3, tiles=0.7, rivals=True, lost_piece=3.0, oust_risk=0.4)
MEDIUM = Weights(on_x=0.6, progress=0.3, tiles=0.0, rivals=False, lost_piece=0.0)


class _State:
    """The part of a LEVEL X position the bots play out: plain lists, copied cheaply."""

    __slots__ = ("pieces", "x", "left", "counts", "bonus", "tiles", "supply", "lost", "closed", "ending", "held")
    pieces: list[list[int | None]]  # per player, per row: the field a piece stands on, None: none
    x: list[int | None]  # per row: the player on its X field
    left: list[int]  # per row: chips left
    counts: list[list[int]]  # per player, per row: chips taken
    bonus: list[int]  # per player: points of the bonus tiles held...
    held: list[int]  # ...and how many
    tiles: list[int]  # the bonus tiles left, next first
    supply: list[int]  # per player: pieces not on the board
    lost: list[int]  # per player: pieces gone for good
    closed: int  # rows closed
    ending: bool  # the game's end is triggered

    @classmethod
    def of(cls, game: Any) -> _State:
        state = cls()
        state.pieces = [list(rows) for rows in game.pieces]
        state.x = list(game.x_holders)
        state.left = list(game.chips_left)
        state.counts = [list(c) for c in game.chip_counts]
        state.bonus = [sum(t) for t in game.bonus]
        state.held = [len(t) for t in game.bonus]
        state.tiles = list(game.tiles_left)
        state.supply = list(game.supply)
        state.lost = list(game.lost)
        state.closed = len(game.closed_rows)
        state.ending = game.end_triggered
        return state

    def copy(self) -> _State:
        twin = _State()
        twin.pieces = [list(rows) for rows in self.pieces]
        twin.x, twin.left = list(self.x), list(self.left)
        twin.counts = [list(c) for c in self.counts]
        twin.bonus, twin.tiles, twin.held = list(self.bonus), list(self.tiles), list(self.held)
        twin.supply, twin.lost = list(self.supply), list(self.lost)
        twin.closed, twin.ending = self.closed, self.ending
        return twin

    def act(self, player: int, row: int) -> None:
        """One group on row index `row`, as the engine plays it."""
        if self.left[row] == 0:
            return
        at = self.pieces[player][row]
        if at is None:
            if self.supply[player]:
                self.supply[player] -= 1
                self.pieces[player][row] = 0
            return
        if at < _LAST[row]:
            self.pieces[player][row] = at + 1
            if at + 1 < _LAST[row]:
                return
            ousted = self.x[row]
            if ousted is not None:
                self.pieces[ousted][row] = None
                self.supply[ousted] += 1
            self.x[row] = player
        self.left[row] -= 1
        self.counts[player][row] += 1
        if self.left[row] == 0:
            for owner, rows in enumerate(self.pieces):
                if rows[row] is not None:
                    rows[row] = None
                    self.lost[owner] += 1
            self.x[row] = None
            self.closed += 1
            if self.closed >= STACKS_TO_END:
                self.ending = True
        sets = min(self.counts[player])
        while sets > self.held[player] and self.tiles:
            self.bonus[player] += self.tiles.pop(0)
            self.held[player] += 1
            if not self.tiles:
                self.ending = True


def _player_value(state: _State, player: int, weights: Weights, horizon: float) -> float:
    """Points in hand plus what the pieces and the next tile are likely to bring."""
    counts = state.counts[player]
    value = float(sum(row * c for row, c in zip(ROWS, counts)) + state.bonus[player])
    for i, at in enumerate(state.pieces[player]):
        if at is None or state.left[i] == 0:
            continue
        if at == _LAST[i]:
            threatened = weights.oust_risk and any(
                rows[i] == _LAST[i] - 1 for p, rows in enumerate(state.pieces) if p != player
            )
            value += horizon * weights.on_x * ROWS[i] * (1 - weights.oust_risk if threatened else 1)
        else:
            value += horizon * weights.progress * ROWS[i] * (at + 1) / FIELDS[i]
    if weights.tiles and state.tiles:
        sets = min(counts)
        ready = 0
        possible = True
        for i, c in enumerate(counts):
            if c > sets:
                ready += 1
            elif state.left[i] == 0:
                possible = False  # a closed row we lack: no further set
        if possible:
            value += horizon * weights.tiles * state.tiles[0] * (ready / len(ROWS)) ** 2
    value -= weights.lost_piece * state.lost[player]
    return value


def _judge(state: _State, me: int, weights: Weights) -> float:
    horizon = 0.15 if state.ending else max(0.15, 1 - weights.closing * state.closed)
    mine = _player_value(state, me, weights, horizon)
    if not weights.rivals:
        return mine
    others = [_player_value(state, p, weights, horizon) for p in range(len(state.pieces)) if p != me]
    return mine - max(others)


def _best_outcome(
    game: Any, faces: tuple[int, ...], base: _State, me: int, weights: Weights, cache: dict[tuple[int, ...], float]
) -> tuple[float, Any]:
    best: tuple[float, Any] = (float("-inf"), None)
    for outcome in outcomes(faces):
        value = cache.get(outcome.sums)
        if value is None:
            state = base.copy()
            for total in outcome.sums:
                state.act(me, total - ROWS[0])
            value = cache[outcome.sums] = _judge(state, me, weights)
        if value > best[0]:
            best = (value, outcome.groups)
    return best


def _decide(game: Any, decisions: list[Any], weights: Weights) -> Any:
    me = game.current_player
    base = _State.of(game)
    cache: dict[tuple[int, ...], float] = {}
    value, groups = _best_outcome(game, game.faces, base, me, weights, cache)
    best = groups
    need = game.ones_to_turn
    if need:
        ones = [i for i, f in enumerate(game.faces) if f == 1][:need]
        for new in combinations_with_replacement(FACES, need):
            faces = list(game.faces)
            for index, face in zip(ones, new):
                faces[index] = face
            turned, _ = _best_outcome(game, tuple(faces), base, me, weights, cache)
            if turned > value:
                value, best = turned, TurnOnes(new)
    return best if best in decisions else decisions[-1]


def strong(game: Any, decisions: list[Any], rng: random.Random) -> Any:
    """The largest expected lead over the best opponent, lucky loser included; the last tile
    only when it wins."""
    if game.bonus_pending:
        return Bonus(_tile_wins(game))
    return _decide(game, decisions, STRONG)


def _lead_with_tile(game: Any) -> int:
    """The current player's lead over the best other player if they take the offered tile."""
    me = game.current_player
    scores = game.scores
    return int(scores[me] + game.tiles_left[0] - max(s for p, s in enumerate(scores) if p != me))


def _threat(game: Any, player: int) -> int:
    """The most `player` can be expected to add in one turn: a chip for each of their pieces on
    (or one field before) an X of an open row, the best two (a turn rarely forms more groups)."""
    chips = sorted(
        (
            row
            for row, at, last, left in zip(ROWS, game.pieces[player], _LAST, game.chips_left)
            if at is not None and at >= last - 1 and left
        ),
        reverse=True,
    )
    return sum(chips[:2])


def _tile_wins(game: Any) -> bool:
    """Whether "strong" takes the last tile: the game ends this round anyway (the tile is points
    for nothing), or with it every other player stays behind even after their turns left in
    this round (those seated after the current player)."""
    if game.end_triggered:
        return True
    me = game.current_player
    scores = list(game.scores)
    scores[me] += game.tiles_left[0]
    return all(scores[p] + (_threat(game, p) if p > me else 0) < scores[me] for p in range(len(scores)) if p != me)


def hint_reason(game: Any, decision: Any) -> str:
    """Why "strong" likes `decision`: the final lead over the best opponent it expects, in points
    (`evaluate`, calibrated: firmware/coach.py).

    >>> from firmware.games import new_game, Roll
    >>> from firmware.games.levelx.rules import Groups
    >>> game = new_game("levelx", ["A", "B"]); game.apply(Roll((5, 5, 5, 5)))
    >>> hint_reason(game, Groups(((0, 1), (2, 3)))).startswith("exp. lead ")
    True
    """
    from firmware.coach import estimate

    if isinstance(decision, Bonus):
        lead = fixed(estimate(game, [Bonus(True)])[0], 0, sign=True)
        if decision.take and game.end_triggered:
            # Translators: a hint: take the last LEVEL X bonus tile: the game ends after this round anyway.
            return _("take it: last round anyway")
        if decision.take:
            # Translators: a hint: take the last LEVEL X bonus tile; the game then ends after this round, with this lead in points.
            return _("take it: lead {lead} at the end").format(lead=lead)
        # Translators: a hint: decline the last LEVEL X bonus tile; with it the lead would only be this (too little to end the game).
        return _("decline: with it lead {lead}").format(lead=lead)
    value = estimate(game, [decision])[0]
    if isinstance(decision, TurnOnes):
        # Translators: a hint: turning the dice showing 1 is expected to lead the best opponent by {lead}.
        return _("turn the 1s: exp. lead {lead} pts").format(lead=fixed(value, sign=True))
    # Translators: a hint: the expected lead over the best opponent at the end of the game, in points.
    return _("exp. lead {lead} pts").format(lead=fixed(value, sign=True))


def medium(game: Any, decisions: list[Any], rng: random.Random) -> Any:
    """The best own position by a blunter measure; the last tile when it gives the best score."""
    if game.bonus_pending:
        return Bonus(_lead_with_tile(game) >= 0)
    return _decide(game, decisions, MEDIUM)


def easy(game: Any, decisions: list[Any], rng: random.Random) -> Any:
    """Use as many dice as possible, preferring sums where we already stand near the X; take
    the last tile whenever it is offered."""
    if game.bonus_pending:
        return Bonus(True)
    if game.ones_to_turn:
        return rng.choice(decisions)  # turning ones: any new faces; the outcome is chosen next
    best = max(
        outcomes(game), key=lambda o: (len(o.sums), sum(_levelx_progress(game, s) for s in o.sums), rng.random())
    )
    return best.groups


def _levelx_progress(game: Any, row: int) -> int:
    index = row - 5
    field = game.pieces[game.current_player][index]
    return -1 if row in game.closed_rows else (field + 1 if field is not None else 0)


# --- evaluate: the estimate the hint and the coach show (firmware/coach.py calibrates it) ----------
def evaluate(game: Any, decisions: list[Any]) -> list[float]:
    """Strong's raw estimate, for the deciding player, of their final lead over the best other
    player (points) after each of `decisions`: strong's judgement of the position it leads to
    (turning ones: the best outcome of the new faces; the last tile: the position with it, the
    game ending, or without it). `firmware.coach` maps it to points by decision index.

    >>> from firmware.games import new_game, Roll
    >>> from firmware.games.levelx.rules import Groups
    >>> game = new_game("levelx", ["A", "B"]); game.apply(Roll((5, 5, 5, 5)))
    >>> [round(v, 1) for v in evaluate(game, [Groups(((0, 1), (2, 3))), Groups(())])]
    [16.3, 0.0]
    """
    me = game.current_player
    base = _State.of(game)
    values = []
    for decision in decisions:
        if isinstance(decision, Bonus):
            state = base.copy()
            if decision.take:
                state.bonus[me] += state.tiles.pop(0)
                state.held[me] += 1
                state.ending = True
            values.append(_judge(state, me, STRONG))
        elif isinstance(decision, TurnOnes):
            faces = list(game.faces)
            for index, face in zip([i for i, f in enumerate(faces) if f == 1], decision.faces):
                faces[index] = face
            values.append(_best_outcome(game, tuple(faces), base, me, STRONG, {})[0])
        else:
            state = base.copy()
            for group in decision.groups:
                state.act(me, sum(game.faces[i] for i in group) - ROWS[0])
            values.append(_judge(state, me, STRONG))
    return values


def outcome(game: Any, player: int) -> float:
    """What `evaluate` estimates, once the game is over: `player`'s lead over the best other player."""
    scores = game.scores
    return float(scores[player] - max(s for p, s in enumerate(scores) if p != player))
