"""The café's audits, from the journal: plays per game and player count, finished against
abandoned, minutes played, people against bots, the busiest hours, a histogram of game
lengths, and a running fairness check of the dice (a chi-square of the faces). The operator
menu shows `audit_lines()` on the OLED; `xtraboard records audit` prints them, or with
`--csv` one row per game (`game_rows()`, `write_csv()`).

    >>> audit_lines([])[:3]
    ['Games: 0', ' finished 0', ' abandoned 0']
"""

from __future__ import annotations

import csv
from collections import Counter
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import astuple, dataclass, fields
from datetime import datetime
from typing import TextIO

from firmware.errors import RecordError
from firmware.games.registry import find_game
from firmware.i18n import N_, _, tr
from firmware.journal import StoredGame
from firmware.journal.schema import ABANDONED, FINISHED, PLAYING

# Upper bounds (minutes) of the game-length histogram's bins; the last bin is open-ended.
LENGTH_BINS = (5, 10, 20, 30, 60)


@dataclass(frozen=True)
class GameRow:
    """One game of the journal as the audit counts it (a row of `--csv`)."""

    id: int
    game: str
    status: str  # finished, abandoned or playing
    mode: str  # play or demo (what the menu started), "" if the journal does not say
    players: int
    people: int
    bots: int
    started: str  # ISO 8601 in the board's local time with its UTC offset, 2024-05-01T16:00:00+02:00
    ended: str  # when it finished or was abandoned; "" while it is being played
    minutes: float  # ended - started (so far, for the game being played: its last step)
    steps: int


def game_rows(games: Iterable[StoredGame]) -> list[GameRow]:
    """One row per game, in the order given (the journal's `all_games()`: oldest first)."""
    rows = []
    for stored in games:
        players = stored.record.get("players")
        players = players if isinstance(players, list) else []
        bots = sum(1 for p in players if isinstance(p, Mapping) and p.get("bot"))
        mode = stored.meta.get("mode", "") if isinstance(stored.meta, Mapping) else ""
        rows.append(
            GameRow(
                id=stored.id,
                game=str(stored.record.get("game", "")),
                status=stored.status,
                mode=str(mode),
                players=len(players),
                people=len(players) - bots,
                bots=bots,
                started=_time(stored.started),
                ended="" if stored.status == PLAYING else _time(stored.updated),
                minutes=round(max(0.0, stored.updated - stored.started) / 60, 1),
                steps=len(stored.record.get("steps", [])),
            )
        )
    return rows


def write_csv(rows: Sequence[GameRow], out: TextIO) -> None:
    """`rows` as CSV with a header line (the GameRow fields)."""
    writer = csv.writer(out, lineterminator="\n")
    writer.writerow([f.name for f in fields(GameRow)])
    writer.writerows(astuple(row) for row in rows)


def audit_lines(
    games: Sequence[StoredGame],
    fleet_status: Callable[[], Mapping[str, object]] | None = None,
    operator_code: tuple[int, int] | None = None,
) -> list[str]:
    """The audits as short lines (the OLED wraps them): totals, plays per game and player
    count, minutes, people and bots, busiest hours, game lengths, the dice's fairness,
    wrong operator codes and code entry locks (`operator_code`, when a code was ever tried) and,
    when the fleet is on, its broker counters."""
    rows = game_rows(games)
    status = Counter(row.status for row in rows)
    lines = [
        # Translators: the operator's audits, a line each; the leading space indents a detail.
        _("Games: {n}").format(n=len(rows)),
        " " + _("finished {n}").format(n=status[FINISHED]),
        " " + _("abandoned {n}").format(n=status[ABANDONED]),
    ]
    if status[PLAYING]:
        lines.append(" " + _("playing {n}").format(n=status[PLAYING]))
    for name in sorted({row.game for row in rows}):
        mine = [row for row in rows if row.game == name]
        counts = Counter(row.players for row in mine)
        done = sum(1 for row in mine if row.status == FINISHED)
        lines.append(_("{game}: {n} ({done} done)").format(game=_title(name), n=len(mine), done=done))
        lines.append(" " + ", ".join(f"{n}p {counts[n]}" for n in sorted(counts)))
    lines.append(_("Minutes played: {minutes}").format(minutes=f"{sum(row.minutes for row in rows):.0f}"))
    lines.append(
        _("People {people}, bots {bots}").format(
            people=sum(row.people for row in rows), bots=sum(row.bots for row in rows)
        )
    )
    hours = Counter(datetime.fromtimestamp(g.started).hour for g in games)
    busiest = sorted(hours.items(), key=lambda item: (-item[1], item[0]))[:3]
    lines.append(_("Busiest hours:"))
    lines.append(" " + (", ".join(f"{h:02d}h {n}" for h, n in busiest) or _("none yet")))
    lines.append(_("Game lengths (min):"))
    lengths = length_histogram(row.minutes for row in rows if row.status != PLAYING)
    widest = max(lengths.values(), default=0) or 1
    for label, count in lengths.items():
        lines.append(f" {label:>5} {count:>3} {'#' * round(8 * count / widest)}".rstrip())
    from firmware.verify import fairness, revealed

    lines.append(fairness(revealed(g.record, g.meta, g.status) for g in games if g.status == FINISHED).line())
    if operator_code is not None:
        lines.append(
            _("Operator code: {wrong} wrong, {locks} locks").format(wrong=operator_code[0], locks=operator_code[1])
        )
    if fleet_status is not None:
        lines.append(fleet_line(fleet_status()))
    return lines


def length_histogram(minutes: Iterable[float]) -> dict[str, int]:
    """Games per length bin, e.g. {"<5": 3, "5-10": 1, ..., "60+": 0}.

    >>> length_histogram([1, 7, 61])["5-10"]
    1
    """
    labels = (
        [f"<{LENGTH_BINS[0]}"] + [f"{a}-{b}" for a, b in zip(LENGTH_BINS, LENGTH_BINS[1:])] + [f"{LENGTH_BINS[-1]}+"]
    )
    counts = dict.fromkeys(labels, 0)
    for value in minutes:
        index = next((i for i, bound in enumerate(LENGTH_BINS) if value < bound), len(LENGTH_BINS))
        counts[labels[index]] += 1
    return counts


# The fleet publisher's counters as the audit names them (a counter not listed shows its key).
FLEET_COUNTERS = {
    "connects": N_("connects"),
    "refused": N_("refused"),
    "unreachable": N_("unreachable"),
    "disconnects": N_("disconnects"),
    "published": N_("published"),
    "dropped": N_("dropped"),
}


def fleet_line(status: Mapping[str, object]) -> str:
    """The fleet publisher's `status()` in one line: connected or not, the problem, its counters."""
    connected = bool(status.get("connected"))
    counters = ", ".join(
        f"{_(FLEET_COUNTERS[k]) if k in FLEET_COUNTERS else k} {v}"
        for k, v in status.items()
        if k not in ("connected", "problem")
    )
    if status.get("problem"):
        line = (_("Fleet: connected ({problem})") if connected else _("Fleet: not connected ({problem})")).format(
            problem=tr(status["problem"])
        )
    else:
        line = _("Fleet: connected") if connected else _("Fleet: not connected")
    return line + (f"; {counters}" if counters else "")


def _title(game: str) -> str:
    try:
        return find_game(game).title
    except RecordError:  # a name the registry no longer knows: show it as stored
        return game


def _time(timestamp: float) -> str:
    """ISO 8601 with the offset: a CSV read in another time zone (or after a clock change) still
    names the moment."""
    return datetime.fromtimestamp(timestamp).astimezone().isoformat(timespec="seconds")
