"""LEVEL X bots "easy" (at the end), "medium" and "strong": judge each distinct outcome of the roll by the position
it leads to.

Each outcome (the multiset of sums a grouping forms, see `firmware.games.levelx.rules.outcomes`) is
played out on a light copy of the public state, then judged, and every lucky-loser choice is
tried (the new faces, then the best outcome with them).

"strong" judges every player by a model of the chips they will take (`Model`, one per number of
players, tuned by paired seeded games against the greedy baseline): points in hand, plus for
each piece the expected chips of a Poisson number of hits of its row — the chance that four dice
(lucky loser included) can form the row's sum, times the rounds the three shortest stacks leave
— where the first hits bring the piece to its X field and the arriving hit and every later one
take a chip, at most the chips left; an X field with a rival one or two fields before it is
discounted; plus the next bonus tile times the chance of a chip of each value still missing
for the set. It plays for the largest lead over the others (ousting them counts), a lead
counting more the fewer rounds are left. "medium"
judges only its own position, by a blunter measure (more the nearer the X field, most on it).
Deterministic: ties go to the first outcome in `outcomes()` order; the rng is not needed.

The last bonus tile, when offered (`Bonus`): taking it ends the game at the end of the round,
so it is worth taking only to win. "strong" takes it when the game ends this round anyway, or
when with the tile it leads every other player by more than the chips they can take on their
X fields in their turns left of this round (and judges an outcome that entitles it to the tile
with the choice it would make); "medium" when with the tile it has the best score; "easy" always.

    >>> import random
    >>> from firmware.games import new_game, Roll
    >>> game = new_game("levelx", ["A", "B"]); game.apply(Roll((5, 5, 5, 5)))
    >>> strong(game, game.legal_decisions(), random.Random(1))   # 5+5 and 10: two pieces out, one moved on
    Groups(groups=((0,), (1,), (2, 3)))
"""

from __future__ import annotations

import math
import random
from dataclasses import dataclass
from itertools import combinations_with_replacement
from collections.abc import Sequence

from firmware.games.levelx.rules import (
    FACES,
    FIELDS,
    ROWS,
    STACKS_TO_END,
    Bonus,
    Decision,
    Groups,
    LevelX,
    TurnOnes,
    outcomes,
)
from firmware.i18n import _, ngettext

_LAST = tuple(n - 1 for n in FIELDS)
_WIDTH = len(ROWS)


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

    __slots__ = (
        "pieces",
        "x",
        "left",
        "counts",
        "bonus",
        "tiles",
        "supply",
        "lost",
        "closed",
        "ending",
        "held",
        "keep",
    )
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
    keep: int  # 1: the last bonus tile is not taken by `act` (it is the player's choice), 0: it is

    @classmethod
    def of(cls, game: LevelX) -> _State:
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
        state.keep = 0
        return state

    def copy(self) -> _State:
        twin = _State()
        twin.pieces = [list(rows) for rows in self.pieces]
        twin.x, twin.left = list(self.x), list(self.left)
        twin.counts = [list(c) for c in self.counts]
        twin.bonus, twin.tiles, twin.held = list(self.bonus), list(self.tiles), list(self.held)
        twin.supply, twin.lost = list(self.supply), list(self.lost)
        twin.closed, twin.ending, twin.keep = self.closed, self.ending, self.keep
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
        while sets > self.held[player] and len(self.tiles) > self.keep:
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


# --- strong: a model of the chips each piece is likely to take -------------------------------


@dataclass(frozen=True)
class Model:
    """The strong bot's judgement of a position (tuned by self-play against the greedy baseline)."""

    hit: float = 0.55  # share of a row's chance to be formed that a turn really gives it
    rounds: float = 0.55  # rounds left per chip left in the three shortest stacks, per player
    rounds_min: float = 1.0  # rounds left at least, while the end is not set
    oust: float = 0.5  # share of an X field's worth lost to a rival one field before it
    oust_far: float = 0.25  # ... two fields before it
    spare: float = 0.8  # worth of a piece still to be placed, as a share of a placed one
    tiles: float = 1.0  # the next bonus tile times the chance of the set, times this
    lost_piece: float = 0.0  # a piece gone for good, in points
    best_rival: float = 0.7  # the rivals' part of the lead: this much the best, the rest their mean
    spread: float = 0.0  # judge lead / sqrt(1 + spread * rounds left): a lead counts more near the end
    lookahead: int = 0  # the best this many outcomes are judged again by the expectation over the next roll


# By the number of players (tuned with paired seeded games against greedy).
MODELS: dict[int, Model] = {
    2: Model(hit=0.65, spare=0.0, tiles=1.5, oust=0.35, spread=2.0),
    3: Model(hit=0.6, spare=0.4, tiles=1.2, oust=0.6, spread=1.5),
    4: Model(oust=0.8, spare=1.0, spread=1.0),
}


def _model_of(game: LevelX) -> Model:
    return MODELS[len(game.players)]


def _roll_table() -> tuple[tuple[float, tuple[tuple[int, ...], ...]], ...]:
    """Every distinct roll of four dice (a multiset) with its chance and the distinct outcomes
    (sums, ascending) it offers, lucky-loser choices included."""
    from collections import Counter
    from itertools import product

    counted = Counter(tuple(sorted(faces)) for faces in product(FACES, repeat=4))
    table = []
    for faces, count in sorted(counted.items()):
        found = {outcome.sums for outcome in outcomes(faces)}
        ones = faces.count(1)
        if ones >= 2:
            for new in combinations_with_replacement(FACES, ones - 1):
                turned = tuple(sorted(new + faces[ones - 1 :]))
                found.update(outcome.sums for outcome in outcomes(turned))
        table.append((count / 6**4, tuple(sorted(found, key=lambda sums: (-len(sums), sums)))))
    return tuple(table)


_TABLE = _roll_table()
# The chance that a roll (lucky loser included) can form each row's sum.
_REACH = tuple(sum(p for p, found in _TABLE if any(row in sums for sums in found)) for row in ROWS)


def _chips(hits: float, distance: int) -> float:
    """Expected chips from a piece `distance` hits before its X field (0: on it; the hit that
    arrives takes a chip too) when its row is hit a Poisson number of times with mean `hits`:
    E[max(0, H - distance + 1)], H ~ Poisson(hits)."""
    if distance <= 1:
        return hits
    e = math.exp(-hits)
    # lam - (d - 1) + sum_{k < d-1} (d - 1 - k) P(H = k)
    total = hits - (distance - 1)
    pk = e
    for k in range(distance - 1):
        total += (distance - 1 - k) * pk
        pk *= hits / (k + 1)
    return total


def _model_values(state: _State, mover: int, model: Model, out: list[float] | None = None) -> list[float]:
    """Each player's points in hand plus the chips and the bonus tile the model expects them
    to take, the turn of `mover` being over."""
    count = len(state.pieces)
    left = state.left
    if state.ending:
        turns = [1.0 if p > mover else 0.0 for p in range(count)]
    else:
        shortest = sorted(left)[:STACKS_TO_END]
        rounds = max(model.rounds_min, model.rounds * sum(shortest) / count)
        turns = [rounds + (1.0 if p > mover else 0.0) for p in range(count)]
    if out is not None:
        out.append(turns[mover])
    values = []
    pieces = state.pieces
    for p in range(count):
        rows = pieces[p]
        counts = state.counts[p]
        value = float(sum(row * c for row, c in zip(ROWS, counts)) + state.bonus[p])
        supply = state.supply[p]
        empty = sum(1 for i in range(_WIDTH) if left[i] and rows[i] is None)
        spare = model.spare * min(1.0, supply / empty) if empty else 0.0
        expected = [0.0] * _WIDTH
        t = turns[p] * model.hit
        for i in range(_WIDTH):
            if not left[i]:
                continue
            at = rows[i]
            hits = t * _REACH[i]
            if at is None:
                if not spare:
                    continue
                chips = spare * _chips(hits, FIELDS[i])
            else:
                distance = _LAST[i] - at
                chips = _chips(hits, distance)
                if distance == 0:
                    threat = 0.0
                    for q in range(count):
                        if q != p:
                            other = pieces[q][i]
                            if other is not None:
                                gap = _LAST[i] - other
                                threat += model.oust if gap == 1 else model.oust_far if gap == 2 else 0.0
                    if threat:
                        chips *= max(0.0, 1.0 - threat)
            if chips > left[i]:
                chips = float(left[i])
            expected[i] = chips
            value += ROWS[i] * chips
        if state.tiles and model.tiles:
            sets = min(counts)
            chance = 1.0
            for i in range(_WIDTH):
                if counts[i] == sets:
                    chance *= 1.0 - math.exp(-expected[i])
            value += model.tiles * state.tiles[0] * chance
        value -= model.lost_piece * state.lost[p]
        values.append(value)
    return values


def _model_lead(state: _State, me: int, model: Model, plain: bool = False) -> float:
    """The lead over the others (a mix of the best and their mean); unless `plain`, divided by
    the spread the rounds left give it (`Model.spread`)."""
    rounds: list[float] = []
    values = _model_values(state, me, model, rounds)
    others = values[:me] + values[me + 1 :]
    rival = model.best_rival * max(others) + (1 - model.best_rival) * sum(others) / len(others)
    if model.spread and rounds and not plain:
        return (values[me] - rival) / math.sqrt(1 + model.spread * rounds[0])
    return values[me] - rival


def _state_takes_tile(state: _State, me: int) -> bool:
    """Strong's choice of the last tile on a played-out state (as `_tile_wins` on the game)."""
    if state.ending:
        return True
    scores = [sum(row * c for row, c in zip(ROWS, counts)) + bonus for counts, bonus in zip(state.counts, state.bonus)]
    mine = scores[me] + state.tiles[0]
    for p, score in enumerate(scores):
        if p == me:
            continue
        threat = 0
        if p > me:
            near = sorted(
                (
                    row
                    for row, at, last, left in zip(ROWS, state.pieces[p], _LAST, state.left)
                    if at is not None and at >= last - 1 and left
                ),
                reverse=True,
            )
            threat = sum(near[:2])
        if score + threat >= mine:
            return False
    return True


def _after(base: _State, me: int, sums: tuple[int, ...]) -> _State:
    """The state after `me` plays these sums, the last tile taken or declined as strong would."""
    state = base.copy()
    for total in sums:
        state.act(me, total - ROWS[0])
    if state.keep and len(state.tiles) == 1 and min(state.counts[me]) > state.held[me]:
        if _state_takes_tile(state, me):
            state.bonus[me] += state.tiles.pop()
            state.held[me] += 1
            state.ending = True
    return state


def _turnings(faces: tuple[int, ...], need: int) -> list[tuple[int, ...]]:
    ones = [i for i, f in enumerate(faces) if f == 1][:need]
    found = []
    for new in combinations_with_replacement(FACES, need):
        turned = list(faces)
        for index, face in zip(ones, new):
            turned[index] = face
        found.append(tuple(turned))
    return found


def _strong_outcome(
    faces: tuple[int, ...], base: _State, me: int, model: Model, cache: dict[tuple[int, ...], float]
) -> tuple[float, Groups | None]:
    best: tuple[float, Groups | None] = (float("-inf"), None)
    for outcome in outcomes(faces):
        value = cache.get(outcome.sums)
        if value is None:
            value = cache[outcome.sums] = _model_lead(_after(base, me, outcome.sums), me, model)
        if value > best[0]:
            best = (value, outcome.groups)
    return best


def _faces(game: LevelX) -> tuple[int, ...]:
    """The faces being decided on (a bot is asked only after the roll)."""
    faces = game.faces
    if faces is None:
        raise ValueError("no roll to decide on")
    return faces


def _strong_base(game: LevelX) -> _State:
    base = _State.of(game)
    base.keep = 1 if game.last_tile_choice else 0
    return base


def _next_roll(state: _State, me: int, model: Model) -> float:
    """The expectation, over `me`'s next roll, of the best lead it offers (others not moving)."""
    if state.ending:
        return _model_lead(state, me, model)
    cache: dict[tuple[int, ...], float] = {}
    total = 0.0
    for chance, found in _TABLE:
        best = float("-inf")
        for sums in found:
            value = cache.get(sums)
            if value is None:
                value = cache[sums] = _model_lead(_after(state, me, sums), me, model)
            if value > best:
                best = value
        total += chance * best
    return total


def _strong_decide(game: LevelX, decisions: Sequence[Decision], model: Model) -> Decision:
    me = game.current_player
    base = _strong_base(game)
    cache: dict[tuple[int, ...], float] = {}
    if model.lookahead:
        _strong_outcome(_faces(game), base, me, model, cache)
        need = game.ones_to_turn
        if need:
            for faces in _turnings(_faces(game), need):
                _strong_outcome(faces, base, me, model, cache)
        ranked = sorted(cache, key=lambda sums: -cache[sums])[: model.lookahead]
        for sums in ranked:
            cache[sums] = 1000.0 + _next_roll(_after(base, me, sums), me, model)
    value, groups = _strong_outcome(_faces(game), base, me, model, cache)
    best: Decision | None = groups
    need = game.ones_to_turn
    if need:
        for new, faces in zip(combinations_with_replacement(FACES, need), _turnings(_faces(game), need)):
            turned, _ = _strong_outcome(faces, base, me, model, cache)
            if turned > value:
                value, best = turned, TurnOnes(new)
    return best if best is not None and best in decisions else decisions[-1]


def _best_outcome(
    game: LevelX, faces: tuple[int, ...], base: _State, me: int, weights: Weights, cache: dict[tuple[int, ...], float]
) -> tuple[float, Groups | None]:
    best: tuple[float, Groups | None] = (float("-inf"), None)
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


def _decide(game: LevelX, decisions: Sequence[Decision], weights: Weights) -> Decision:
    me = game.current_player
    base = _State.of(game)
    cache: dict[tuple[int, ...], float] = {}
    value, groups = _best_outcome(game, _faces(game), base, me, weights, cache)
    best: Decision | None = groups
    need = game.ones_to_turn
    if need:
        ones = [i for i, f in enumerate(_faces(game)) if f == 1][:need]
        for new in combinations_with_replacement(FACES, need):
            faces = list(_faces(game))
            for index, face in zip(ones, new):
                faces[index] = face
            turned, _ = _best_outcome(game, tuple(faces), base, me, weights, cache)
            if turned > value:
                value, best = turned, TurnOnes(new)
    return best if best is not None and best in decisions else decisions[-1]


def strong(game: LevelX, decisions: Sequence[Decision], rng: random.Random) -> Decision:
    """The largest expected lead over the best opponent, lucky loser included; the last tile
    only when it wins."""
    if game.bonus_pending:
        return Bonus(_tile_wins(game))
    return _strong_decide(game, decisions, _model_of(game))


def _lead_with_tile(game: LevelX) -> int:
    """The current player's lead over the best other player if they take the offered tile."""
    me = game.current_player
    scores = game.scores
    return int(scores[me] + game.tiles_left[0] - max(s for p, s in enumerate(scores) if p != me))


def _threat(game: LevelX, player: int) -> int:
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


def _tile_wins(game: LevelX) -> bool:
    """Whether "strong" takes the last tile: the game ends this round anyway (the tile is points
    for nothing), or with it every other player stays behind even after their turns left in
    this round (those seated after the current player)."""
    if game.end_triggered:
        return True
    me = game.current_player
    scores = list(game.scores)
    scores[me] += game.tiles_left[0]
    return all(scores[p] + (_threat(game, p) if p > me else 0) < scores[me] for p in range(len(scores)) if p != me)


def hint_reason(game: LevelX, decision: Decision) -> str:
    """Why "strong" likes `decision`: the final lead over the best opponent it expects, in whole
    points (`evaluate`, calibrated: firmware/coach.py, within what the rules allow: `possible`);
    the decision's name goes before it on the board (`firmware.games.levelx.text.LevelXWords.hint`).

    >>> from firmware.games import new_game, Roll
    >>> from firmware.games.levelx.rules import Groups
    >>> game = new_game("levelx", ["A", "B"]); game.apply(Roll((5, 5, 5, 5)))
    >>> hint_reason(game, Groups(((0, 1), (2, 3)))).startswith("expect to end ")
    True
    """
    from firmware.coach import estimate

    if isinstance(decision, Bonus):
        lead = round(possible(game, Bonus(True), estimate(game, [Bonus(True)])[0]))
        if decision.take and game.end_triggered:
            return _("last round anyway")  # the words of the option (text.py)
        if decision.take and lead >= 0:
            # Translators: a hint to take the last LEVEL X bonus tile: the game then ends after this round, the player this many points ahead.
            return ngettext("end {n} point ahead", "end {n} points ahead", lead).format(n=lead)
        if decision.take:
            # Translators: a hint to take the last LEVEL X bonus tile: the game then ends after this round, the player this many points behind.
            return ngettext("end {n} point behind", "end {n} points behind", -lead).format(n=-lead)
        points = abs(lead)
        if lead >= 0:
            # Translators: a hint to decline the last LEVEL X bonus tile: taking it would end the game with the player only this many points ahead.
            return ngettext(
                "with it only {n} point ahead at the end", "with it only {n} points ahead at the end", points
            ).format(n=points)
        # Translators: a hint to decline the last LEVEL X bonus tile: taking it would end the game with the player this many points behind.
        return ngettext("with it {n} point behind at the end", "with it {n} points behind at the end", points).format(
            n=points
        )
    return expected_lead(round(possible(game, decision, estimate(game, [decision])[0])))


def expected_lead(lead: int) -> str:
    """The final lead over the best opponent a hint expects, in a newcomer's words."""
    points = abs(lead)
    if lead >= 0:
        # Translators: a LEVEL X hint: the player is expected to end the game this many points ahead of the best opponent.
        return ngettext("expect to end {n} point ahead", "expect to end {n} points ahead", points).format(n=points)
    # Translators: a LEVEL X hint: the player is expected to end the game this many points behind the best opponent.
    return ngettext("expect to end {n} point behind", "expect to end {n} points behind", points).format(n=points)


def lead_bounds(game: LevelX, decision: Decision) -> tuple[int, int]:
    """The least and the most final lead over the best other player the rules leave the
    deciding player after `decision`: scores never fall, and only a player with a turn left can
    still score, at most every chip and tile left (in the last round: the current turn and those
    of the players seated after it; the game over: none).

    >>> from firmware.games import new_game, Roll
    >>> from firmware.games.levelx.rules import Groups
    >>> game = new_game("levelx", ["A", "B"]); game.apply(Roll((5, 5, 5, 5)))
    >>> lead_bounds(game, Groups(((0, 1), (2, 3))))
    (-387, 407)
    """
    twin = game.copy()
    twin.apply(decision)
    me, now = game.current_player, twin.current_player
    left = sum(row * count for row, count in zip(ROWS, twin.chips_left)) + sum(twin.tiles_left)

    def gain(player: int) -> int:
        if twin.is_over() or (twin.end_triggered and player < now):
            return 0
        return left

    scores = twin.scores
    others = [p for p in range(len(scores)) if p != me]
    low = scores[me] - max(scores[p] + gain(p) for p in others)
    high = scores[me] + gain(me) - max(scores[p] for p in others)
    return low, high


def possible(game: LevelX, decision: Decision, lead: float) -> float:
    """`lead`, an estimate of the final lead after `decision`, within what the rules allow
    (`lead_bounds`): a calibrated estimate may stray past a lead the position already fixes."""
    low, high = lead_bounds(game, decision)
    return min(max(lead, low), high)


def _decision_value(game: LevelX, decision: Decision, model: Model, plain: bool = False) -> float:
    """Strong's value of a grouping or lucky-loser decision (turning ones: of the outcome it
    would then play): what it maximises, or with `plain` its expected lead in points."""
    me = game.current_player
    base = _strong_base(game)
    if isinstance(decision, TurnOnes):
        faces = list(_faces(game))
        for index, face in zip([i for i, f in enumerate(faces) if f == 1], decision.faces):
            faces[index] = face
        value, groups = _strong_outcome(tuple(faces), base, me, model, {})
        if not plain:
            return value
        assert groups is not None  # every roll has an outcome, if only using no dice
        sums = tuple(sorted(sum(faces[i] for i in group) for group in groups.groups))
    else:
        assert isinstance(decision, Groups)  # the last tile's choice is not judged by its lead
        sums = tuple(sorted(sum(_faces(game)[i] for i in group) for group in decision.groups))
    return _model_lead(_after(base, me, sums), me, model, plain)


def medium(game: LevelX, decisions: Sequence[Decision], rng: random.Random) -> Decision:
    """The best own position by a blunter measure; the last tile when it gives the best score."""
    if game.bonus_pending:
        return Bonus(_lead_with_tile(game) >= 0)
    return _decide(game, decisions, MEDIUM)


def easy(game: LevelX, decisions: Sequence[Decision], rng: random.Random) -> Decision:
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


def _levelx_progress(game: LevelX, row: int) -> int:
    index = row - 5
    field = game.pieces[game.current_player][index]
    return -1 if row in game.closed_rows else (field + 1 if field is not None else 0)


# --- evaluate: the estimate the hint and the coach show (firmware/coach.py calibrates it) ----------
def evaluate(game: LevelX, decisions: Sequence[Decision]) -> list[float]:
    """Strong's raw estimate, for the deciding player, of their final lead over the other
    players (points) after each of `decisions`: its model's judgement of the position it leads
    to (turning ones: the best outcome of the new faces; the last tile: the position with it,
    the game ending, or without it). `firmware.coach` maps it to points by decision index.

    >>> from firmware.games import new_game, Roll
    >>> from firmware.games.levelx.rules import Groups
    >>> game = new_game("levelx", ["A", "B"]); game.apply(Roll((5, 5, 5, 5)))
    >>> [round(v, 1) for v in evaluate(game, [Groups(((0, 1), (2, 3))), Groups(())])]
    [38.4, 0.0]
    """
    model = _model_of(game)
    me = game.current_player
    values = []
    for decision in decisions:
        if isinstance(decision, Bonus):
            state = _strong_base(game)
            if decision.take:
                state.bonus[me] += state.tiles.pop(0)
                state.held[me] += 1
                state.ending = True
            values.append(_model_lead(state, me, model, plain=True))
        else:
            values.append(_decision_value(game, decision, model, plain=True))
    return values


def outcome(game: LevelX, player: int) -> float:
    """What `evaluate` estimates, once the game is over: `player`'s lead over the best other player."""
    scores = game.scores
    return float(scores[player] - max(s for p, s in enumerate(scores) if p != player))
