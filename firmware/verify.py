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

import math
from collections import Counter
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from typing import Any

from firmware.dice import SCHEME, commitment, derive_roll
from firmware.errors import N_, IllegalStepError, RecordError, Text
from firmware.games import Roll
from firmware.i18n import _, decimal, fixed, grouped, ngettext
from firmware.records import header_of

PLAYING = "playing"
SUSPICIOUS_P = 0.001  # a fairness p-value below this is worth a look (one game in a thousand by chance)


@dataclass
class Verification:
    """What `check_record` found: `problems` (one line each; empty = every roll matches) and
    `notes` (what could not be checked and why, e.g. physical dice keyed in by the players)."""

    rolls: int = 0
    matched: int = 0
    physical: bool = False
    problems: list[str] = field(default_factory=list)
    notes: list[str] = field(default_factory=list)

    @property
    def ok(self) -> bool:
        return not self.problems

    def summary(self) -> str:
        if self.problems:
            return ngettext("{n} problem", "{n} problems", len(self.problems)).format(n=len(self.problems))
        if self.physical:
            keyed = self.rolls - self.matched
            return _(
                "physical dice: {keyed} of {rolls} rolls were keyed in by the players and cannot be"
                " checked; the other {matched} match the seed"
            ).format(keyed=keyed, rolls=self.rolls, matched=self.matched)
        return ngettext("ok: {n} roll matches the seed", "ok: all {n} rolls match the seed", self.rolls).format(
            n=self.rolls
        )


def check_record(record: Mapping[str, Any]) -> Verification:
    """Recompute every roll of `record` from its revealed seed. RecordError when the record
    itself is malformed or does not replay (as `xtraboard replay` would say)."""
    cls, players = header_of(record)
    report = Verification()
    dice = record.get("dice")
    if dice is None:
        report.problems.append(
            _("the record has no 'dice' block: its dice were not committed (an older or scripted game)")
        )
        return report
    report.physical = dice.get("physical") is True
    scheme, commit, seed = dice.get("scheme"), dice.get("commit"), dice.get("seed")
    if scheme != SCHEME:
        report.problems.append(
            _("unknown dice scheme {scheme!r}; this verifier knows {known!r}").format(scheme=scheme, known=SCHEME)
        )
        return report
    if commit is None:
        report.problems.append(_("the 'dice' block has no 'commit'"))
        return report
    if seed is None:
        report.problems.append(_("the seed is not revealed: the game is not over yet, or the record was cut short"))
        return report
    if commitment(seed) != commit:
        report.problems.append(
            _(
                "the revealed seed does not match the commitment: its SHA-256 is {sha}, the board committed to {commit}"
            ).format(sha=commitment(seed), commit=commit)
        )
        return report
    try:
        game = cls(players)
    except IllegalStepError as exc:
        raise RecordError(exc.text) from exc
    for index, data in enumerate(record["steps"]):
        try:
            step = cls.parse_step(data)
            if isinstance(step, Roll):
                expected = derive_roll(seed, report.rolls, game.dice())
                if tuple(step.faces) == expected:
                    report.matched += 1
                elif report.physical:
                    report.notes.append(
                        _("step {index} (roll {roll}): keyed in: {faces}").format(
                            index=index, roll=report.rolls, faces=_faces(step.faces)
                        )
                    )
                else:
                    report.problems.append(
                        _("step {index} (roll {roll}): recorded {faces}, the seed gives {expected}").format(
                            index=index, roll=report.rolls, faces=_faces(step.faces), expected=_faces(expected)
                        )
                    )
                report.rolls += 1
            game.apply(step)
        except IllegalStepError as exc:
            raise RecordError(Text(N_("illegal step: {reason}"), reason=exc.text), index) from exc
    return report


def _faces(faces: Iterable[Any]) -> str:
    return "[" + ", ".join(str(f) for f in faces) + "]"


def revealed(record: Mapping[str, Any], meta: Any, status: str) -> dict[str, Any]:
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


def fairness(records: Iterable[Mapping[str, Any]]) -> Fairness:
    """The chi-square of faces over the electronic rolls of `records` (games with committed
    dice; physical-dice games and records without a dice block are left out, as are records
    that do not replay). Dice with the same faces are pooled (every d6 of every game)."""
    counts: dict[tuple[Any, ...], Counter[Any]] = {}
    games = 0
    for record in records:
        dice = record.get("dice")
        if not isinstance(dice, Mapping) or dice.get("physical") is True:
            continue
        try:
            cls, players = header_of(record)
            game = cls(players)
            tallies: list[tuple[tuple[Any, ...], Any]] = []
            for data in record["steps"]:
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
