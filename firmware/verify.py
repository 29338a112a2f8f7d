"""Dice anyone can verify (docs/dice.md): check a record's rolls against its revealed seed,
reveal the seed of a game that is over, and a fairness check over many games.

    >>> from firmware.dice import CommittedDice, commitment
    >>> from firmware.games import new_game
    >>> game = new_game("extra", ["Marie"])
    >>> roll = game.roll(CommittedDice("42"))
    >>> record = game.to_record() | {"dice": {"scheme": "hmac-sha256-v1", "commit": commitment("42"), "seed": "42"}}
    >>> check_record(record).problems
    []

Nothing here needs the board: a player can run the same checks on an exported record.
"""

from __future__ import annotations

import json
import math
from collections import Counter
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from typing import cast

from firmware.dice import (
    ELECTRONIC,
    PHYSICAL,
    SCHEME,
    SCHEME_BOUND,
    SCHEME_WORD,
    SCHEMES,
    Face,
    commitment,
    derive_roll,
)
from firmware.errors import N_, IllegalStepError, RecordError, Text
from firmware.games import Game, Player, Roll
from firmware.games.base import Step
from firmware.i18n import _, decimal, fixed, grouped, ngettext
from firmware.records import header_of

PLAYING = "playing"
SUSPICIOUS_P = 0.001  # a fairness p-value below this is worth a look (one game in a thousand by chance)


@dataclass
class Verification:
    """What `check_record` found: `problems` (one line each; empty = every roll matches and the
    stored result is the replay's) and `notes` (what could not be checked and why, e.g. the
    rolls a person keyed in with physical dice, and who they were for)."""

    rolls: int = 0
    matched: int = 0
    physical: bool = False
    keyed: int = 0  # rolls keyed in by a person (physical dice), not checked
    excused: set[int] = field(default_factory=set)  # their roll numbers
    problems: list[str] = field(default_factory=list)
    notes: list[str] = field(default_factory=list)

    @property
    def ok(self) -> bool:
        return not self.problems

    def summary(self) -> str:
        if self.problems:
            return ngettext("{n} problem", "{n} problems", len(self.problems)).format(n=len(self.problems))
        if self.physical:
            return _(
                "physical dice: {keyed} of {rolls} rolls were keyed in by the players and cannot be"
                " checked; the other {matched} match the seed"
            ).format(keyed=self.keyed, rolls=self.rolls, matched=self.matched)
        return ngettext("ok: {n} roll matches the seed", "ok: all {n} rolls match the seed", self.rolls).format(
            n=self.rolls
        )


@dataclass(frozen=True)
class _RollSeen:
    index: int  # the step's index in the record
    number: int  # the roll's number (0 = the game's first roll)
    faces: tuple[Face, ...]
    keyed: bool  # the record marks it keyed in by a person


def check_record(record: Mapping[str, object]) -> Verification:
    """Recompute every roll of `record` from its revealed seed (and the table's word), replay it
    and compare the stored result with the replay's. Every roll depends only on the seed, its
    number and the word, so all are checked before the replay: the first tampered roll is named
    even when it makes a later step illegal. A roll is excused only when it was keyed in by a
    person with physical dice: under hmac-sha256-v3 the commitment binds the dice mode and the
    record marks each keyed-in roll; under v1 the mode is not bound (said so), under v2 a game
    with physical dice cannot have been played (the board asks the word only of electronic dice).
    RecordError when the record itself is malformed or does not replay (as `xtraboard replay`
    would say)."""
    cls, players = header_of(record)
    report = Verification()
    dice = record.get("dice")
    if not isinstance(dice, Mapping):  # none: header_of refused any other kind
        report.problems.append(
            _("the record has no 'dice' block: its dice were not committed (an older or scripted game)")
        )
        return report
    claimed = dice.get("physical") is True
    scheme, commit, seed, word = dice.get("scheme"), dice.get("commit"), dice.get("seed"), dice.get("word")
    if scheme not in SCHEMES:
        report.problems.append(
            _("unknown dice scheme {scheme!r}; this verifier knows {known}").format(
                scheme=scheme, known=", ".join(repr(s) for s in SCHEMES)
            )
        )
        return report
    if scheme == SCHEME_WORD and word is None:
        report.problems.append(
            _("scheme {scheme!r} needs the table's word, and the 'dice' block has no 'word'").format(scheme=scheme)
        )
        return report
    if scheme == SCHEME and word is not None:
        report.problems.append(
            _("scheme {scheme!r} takes no word, yet the 'dice' block has a 'word'").format(scheme=scheme)
        )
        return report
    if commit is None:
        report.problems.append(_("the 'dice' block has no 'commit'"))
        return report
    if seed is None:
        report.problems.append(_("the seed is not revealed: the game is not over yet, or the record was cut short"))
        return report
    physical = _committed_mode(report, scheme, seed, commit, claimed)
    if physical is None:
        return report
    report.physical = physical
    try:
        game = cls.for_record(players, cast(int, record["version"]))  # header_of checked it
    except IllegalStepError as exc:
        raise RecordError(exc.text) from exc
    faces_of = game.dice()  # every game here rolls the same dice all game
    steps: list[Step] = []
    rolls: list[_RollSeen] = []
    for index, data in enumerate(cast(list[object], record["steps"])):  # a list: header_of checked it
        try:
            step = cls.parse_step(data)
        except IllegalStepError as exc:
            raise RecordError(Text(N_("illegal step: {reason}"), reason=exc.text), index) from exc
        steps.append(step)
        if isinstance(step, Roll):
            seen = _RollSeen(
                index, len(rolls), tuple(step.faces), isinstance(data, Mapping) and data.get("keyed") is True
            )
            rolls.append(seen)
            _check_roll(report, seen, derive_roll(seed, seen.number, faces_of, word), scheme)
    tampered = bool(report.problems)
    rollers: dict[int, int] = {}  # step index of a roll → the seat it was rolled for
    for index, step in enumerate(steps):
        pending = game.pending()
        if isinstance(step, Roll) and pending.player is not None:
            rollers[index] = pending.player
        try:
            game.apply(step)
        except IllegalStepError as exc:
            if not tampered:
                raise RecordError(Text(N_("illegal step: {reason}"), reason=exc.text), index) from exc
            # A tampered roll can make what follows illegal: the roll is the finding, not this.
            report.notes.append(
                _("step {index}: the replay stops here ({reason}), after the rolls above that do not match").format(
                    index=index, reason=str(exc)
                )
            )
            break
    else:
        report.problems += result_differences(record, game)
    report.notes += [_keyed_line(seen, players, rollers.get(seen.index)) for seen in rolls if _excused(seen, report)]
    return report


def _committed_mode(report: Verification, scheme: str, seed: str, commit: str, claimed: bool) -> bool | None:
    """Whether the rolls are to be checked as physical dice (True) or electronic (False): the
    mode the commitment binds (v3), else the record's word for it (v1, said so); None when the
    seed does not match the commitment at all (a problem added)."""
    if scheme == SCHEME_BOUND:
        mode, other = (PHYSICAL, ELECTRONIC) if claimed else (ELECTRONIC, PHYSICAL)
        if commitment(seed, mode) == commit:
            return claimed
        if commitment(seed, other) == commit:
            # The seed is the board's: the dice mode was changed after the game.
            report.problems.append(
                _(
                    "the 'dice' block says physical dice, but the board committed to electronic dice:"
                    " its 'physical' was changed after the game"
                )
                if claimed
                else _(
                    "the 'dice' block says electronic dice, but the board committed to physical dice:"
                    " its 'physical' was taken out after the game"
                )
            )
            return not claimed  # the rolls are checked as the board committed to them
        report.problems.append(
            _(
                "the revealed seed does not match the commitment: with this record's dice mode it commits to"
                " {sha}, the board committed to {commit}"
            ).format(sha=commitment(seed, mode), commit=commit)
        )
        return None
    bound = next((m for m in (ELECTRONIC, PHYSICAL) if seed.startswith(f"{m}:")), None)
    if bound is not None and commitment(seed) == commit:
        # The board's seeds are hex digits: "<mode>:<seed>" is what a v3 commitment hashes, so this
        # is a v3 record whose scheme was renamed (v1 would excuse every roll on its 'physical').
        report.problems.append(
            _(
                "the revealed seed begins with {prefix!r}, as the input of a {bound!r} commitment does:"
                " the record's scheme was changed from {bound!r} to {scheme!r} after the game"
            ).format(prefix=f"{bound}:", bound=SCHEME_BOUND, scheme=scheme)
        )
        return None
    if commitment(seed) != commit:
        report.problems.append(
            _(
                "the revealed seed does not match the commitment: its SHA-256 is {sha}, the board committed to {commit}"
            ).format(sha=commitment(seed), commit=commit)
        )
        return None
    if not claimed:
        return False
    if scheme == SCHEME_WORD:
        report.problems.append(
            _(
                "the 'dice' block says physical dice under {scheme!r}, which only games with the board's"
                " electronic dice have (the table's word is asked of them alone): every roll is checked"
            ).format(scheme=scheme)
        )
        return False
    report.notes.append(
        _(
            "scheme {scheme!r} does not bind the dice mode: nothing proves the board wrote this record's"
            " 'physical'; the rolls below that do not match the seed are excused on its word alone"
        ).format(scheme=scheme)
    )
    return True


def _excused(seen: _RollSeen, report: Verification) -> bool:
    return seen.number in report.excused


def _check_roll(report: Verification, seen: _RollSeen, expected: tuple[Face, ...], scheme: str) -> None:
    """A roll against the seed. With physical dice a roll the record marks keyed in is not checked
    (v1 records mark none: there a roll that does not match is taken as keyed in); every other
    roll is the board's and must match."""
    report.rolls += 1
    if seen.keyed and not report.physical:
        report.problems.append(
            _("step {index} (roll {roll}): marked keyed in, but the board committed to electronic dice").format(
                index=seen.index, roll=seen.number
            )
        )
    elif report.physical and (seen.keyed or (scheme == SCHEME and seen.faces != expected)):
        report.keyed += 1
        report.excused.add(seen.number)
        return
    if seen.faces == expected:
        report.matched += 1
    else:
        report.problems.append(
            _("step {index} (roll {roll}): recorded {faces}, the seed gives {expected}").format(
                index=seen.index, roll=seen.number, faces=_faces(seen.faces), expected=_faces(expected)
            )
        )


def _keyed_line(seen: _RollSeen, players: list[Player], seat: int | None) -> str:
    """Who a keyed-in roll was for: a person at the board keyed it in, for their own seat or for a bot's."""
    if seat is None or seat >= len(players):
        return _("step {index} (roll {roll}): keyed in by a person at the board: {faces}").format(
            index=seen.index, roll=seen.number, faces=_faces(seen.faces)
        )
    player = players[seat]
    if player.bot is not None:
        # Translators: physical dice: a person rolled a bot's dice and keyed them in.
        text = _("step {index} (roll {roll}): keyed in by a person at the board for {name} (bot): {faces}")
    else:
        text = _("step {index} (roll {roll}): keyed in by a person at the board for {name}: {faces}")
    return text.format(index=seen.index, roll=seen.number, name=player.name, faces=_faces(seen.faces))


def result_differences(record: Mapping[str, object], game: Game) -> list[str]:
    """One line per way the record's stored `result` differs from the replay's (none when the
    record stores no result): which field, stored vs replayed."""
    if "result" not in record:
        return []
    stored, result = record["result"], game.result()
    if result is None:
        return [_("the record stores a 'result', but its steps do not end the game")]
    replayed = _as_json(result)
    if not isinstance(stored, Mapping):
        return [
            _("the stored 'result' is {stored}, the replay gives {replayed}").format(
                stored=_json(stored), replayed=_json(replayed)
            )
        ]
    return [
        _("the stored result's {key!r} is {stored}, the replay gives {replayed}").format(
            key=key,
            stored=_json(stored[key]) if key in stored else _("missing"),
            replayed=_json(replayed[key]) if key in replayed else _("missing"),
        )
        for key in [*replayed, *(k for k in stored if k not in replayed)]
        if stored.get(key, _MISSING) != replayed.get(key, _MISSING)
    ]


_MISSING = object()


def _as_json(value: Mapping[str, object]) -> dict[str, object]:
    """`value` as JSON reads it back (tuples become lists), to compare with a stored record."""
    read: dict[str, object] = json.loads(json.dumps(value))
    return read


def _json(value: object) -> str:
    text = json.dumps(value, ensure_ascii=False)
    return text if len(text) <= 120 else text[:119] + "…"


def _faces(faces: Iterable[object]) -> str:
    return "[" + ", ".join(str(f) for f in faces) + "]"


def revealed(record: Mapping[str, object], meta: object, status: str) -> dict[str, object]:
    """`record` with its seed revealed once the game is over (finished or abandoned): the seed
    is kept in the journal's meta while the game is played.

    >>> revealed({"dice": {"commit": "sha256:…"}}, {"dice_seed": "42"}, "finished")["dice"]["seed"]
    '42'
    """
    out = dict(record)
    dice = record.get("dice")
    secret = meta.get("dice_seed") if isinstance(meta, Mapping) else None
    if status != PLAYING and isinstance(dice, Mapping) and isinstance(secret, str):
        out["dice"] = dict(dice) | {"seed": secret}
    return out


# --- fairness: a chi-square test of the faces over many games ------------------------------------
@dataclass(frozen=True)
class Fairness:
    """A chi-square goodness-of-fit test of every die's faces against a uniform die."""

    games: int
    dice: int  # dice rolled (one roll of five dice counts five)
    chi2: float
    df: int  # degrees of freedom: faces - 1, summed over the kinds of dice
    p: float  # the chance of a chi-square this large from fair dice

    @property
    def suspicious(self) -> bool:
        return self.df > 0 and self.p < SUSPICIOUS_P

    def line(self) -> str:
        """One audit line in the active language: `dice fairness: 5,000 dice in 40 games, chi² 4.2
        on 9 df, p = 0.90 (no sign of bias)`."""
        if self.df == 0:
            return _("dice fairness: no electronic rolls yet")
        verdict = _("suspicious, worth a look") if self.suspicious else _("no sign of bias")
        # Translators: {dice} and {games} are "5,000 dice" and "40 games" (their own entries).
        return _("dice fairness: {dice} in {games}, chi² {chi2} on {df} df, p = {p} ({verdict})").format(
            dice=ngettext("{n} die", "{n} dice", self.dice).format(n=grouped(self.dice)),
            games=ngettext("{n} game", "{n} games", self.games).format(n=grouped(self.games)),
            chi2=fixed(self.chi2, 1),
            df=self.df,
            p=decimal(float(f"{self.p:.3g}")),
            verdict=verdict,
        )


def fairness(records: Iterable[Mapping[str, object]]) -> Fairness:
    """The chi-square of faces over the electronic rolls of `records` (games with committed
    dice; physical-dice games and records without a dice block are left out, as are records
    that do not replay). Dice with the same faces are pooled (every d6 of every game)."""
    counts: dict[tuple[Face, ...], Counter[Face]] = {}
    games = 0
    for record in records:
        dice = record.get("dice")
        if not isinstance(dice, Mapping) or dice.get("physical") is True:
            continue
        try:
            cls, players = header_of(record)
            game = cls(players)
            tallies: list[tuple[tuple[Face, ...], Face]] = []
            for data in cast(list[object], record["steps"]):  # a list: header_of checked it
                step = cls.parse_step(data)
                if isinstance(step, Roll):
                    tallies += zip(game.dice(), step.faces)
                game.apply(step)
        except (RecordError, IllegalStepError):
            continue
        games += 1
        for faces, face in tallies:
            counts.setdefault(tuple(faces), Counter())[face] += 1
    chi2, df, total = 0.0, 0, 0
    for faces, seen in counts.items():
        n = sum(seen.values())
        expected = n / len(faces)
        chi2 += sum((seen[f] - expected) ** 2 / expected for f in faces)
        df += len(faces) - 1
        total += n
    return Fairness(games, total, chi2, df, chi2_p(chi2, df) if df else 1.0)


def chi2_p(chi2: float, df: int) -> float:
    """P(X >= chi2) for a chi-square distribution with `df` degrees of freedom: the regularised
    upper incomplete gamma function Q(df/2, chi2/2).

    >>> round(chi2_p(11.07, 5), 3)
    0.05
    """
    return _gamma_q(df / 2, chi2 / 2)


def _gamma_q(a: float, x: float) -> float:
    if x <= 0:
        return 1.0
    log_front = -x + a * math.log(x) - math.lgamma(a)
    if x < a + 1:  # the series for P converges quickly here
        term = total = 1.0 / a
        n = a
        for _ in range(1000):
            n += 1
            term *= x / n
            total += term
            if abs(term) < abs(total) * 1e-15:
                break
        return max(0.0, 1.0 - total * math.exp(log_front))
    # Lentz's continued fraction for Q
    tiny = 1e-300
    b = x + 1 - a
    c = 1 / tiny
    d = 1 / b
    h = d
    for i in range(1, 1000):
        an = -i * (i - a)
        b += 2
        d = an * d + b
        d = tiny if abs(d) < tiny else d
        c = b + an / c
        c = tiny if abs(c) < tiny else c
        d = 1 / d
        delta = d * c
        h *= delta
        if abs(delta - 1) < 1e-15:
            break
    return min(1.0, math.exp(log_front) * h)
