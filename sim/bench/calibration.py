"""The hint's calibration: in strong self-play, does the figure the hint shows (the coach's
estimate of the final outcome, firmware/coach.py) match the outcome, decision by decision?

`xtraboard bench calibration [--game G] [--games N] [--players P] [--jobs J] [--fit] [--docs]`
plays N seeded games of strong bots only per game and prints, per decision index (the deciding
player's own decisions so far) with at least 100 samples, the mean figure shown, the mean actual
outcome, their gap and its standard error, and the allowance max(10 % of |mean outcome|, 3 units)
as a markdown table. `--fit` first plays N other games (other seeds), learns the mapping from the
evaluator's raw figures to the outcome and writes it to firmware/calibration.json; the table is
then measured on games the fit never saw. `--docs` also writes each game's table into
docs/bots.md (between its `<!-- calibration GAME -->` markers).

`run(args)` yields summary figures as (name, value) pairs (the table itself is printed).
"""

from __future__ import annotations

import argparse
import random
import re
import statistics
from collections import defaultdict
from collections.abc import Iterator, Sequence
from multiprocessing import Pool
from pathlib import Path
from typing import Any

from firmware.coach import mapping, outcome, raw_values, write_calibration
from firmware.dice import SeededDice
from firmware.games.base import Decision
from firmware.games import Game, Player, find_game, game_names, new_game
from firmware.turns import Decide, dice_roll, play_out

MIN_SAMPLES = 100  # a decision index with fewer samples is not in the table
MIN_FIT = 30  # ... nor fitted (the last fitted index's mapping serves beyond)
PRIOR = 0.5  # the slope's shrinkage towards the common slope, in shares of the raw figures' variance
MAX_STEPS = 20_000
DOCS = Path(__file__).resolve().parents[2] / "docs" / "bots.md"

# (decision index, raw figure, outcome[, game]): a game's seats share its dice, so the gap's
# standard error is taken over games, not over samples, where the game is known
Sample = tuple[int, float, float] | tuple[int, float, float, int]


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument(
        "--game", action="append", choices=game_names(), help="only this game (repeatable; default: every game)"
    )
    parser.add_argument("--games", type=int, default=2000, help="strong self-play games per game (default 2000)")
    parser.add_argument("--players", type=int, default=None, help="seats (default: the game's benchmark count)")
    parser.add_argument("--seed", type=int, default=1, help="seed of the dice (default 1)")
    parser.add_argument("--jobs", type=int, default=1, help="worker processes (default 1)")
    parser.add_argument(
        "--fit",
        action="store_true",
        help="first learn the mapping on --games other games, write firmware/calibration.json",
    )
    parser.add_argument("--fit-games", type=int, default=None, help="games to learn from with --fit (default: --games)")
    parser.add_argument("--docs", action="store_true", help="also write the table into docs/bots.md")


def play(task: tuple[str, int, str, int]) -> list[Sample]:
    """One seeded game of strong bots: per decision, the decider's index, the raw figure of the
    decision played, the decider's final outcome and the game's number."""
    from firmware.bots import choose

    name, players, seed, number = task
    spec = find_game(name)
    strongest = spec.levels[-1]
    game = new_game(name, [Player(f"P{i}", bot=strongest) for i in range(players)])
    rng = random.Random(f"calibration-bot:{seed}")
    made: dict[int, int] = defaultdict(int)
    seen: list[tuple[int, int, float]] = []

    def seat(player: int) -> Decide:
        def decide(game: Game) -> Decision:  # the raw figure of the decision played, kept
            decision = choose(game, rng, strongest)
            seen.append((player, made[player], raw_values(game, [decision])[0]))
            made[player] += 1
            return decision

        return decide

    play_out(game, dice_roll(SeededDice(f"calibration:{seed}")), [seat(p) for p in range(players)], limit=MAX_STEPS)
    if not game.is_over():
        return []
    final = {p: outcome(game, p) for p in range(players)}
    return [(index, raw, final[player], number) for player, index, raw in seen]


def samples(name: str, players: int, games: int, seed: str, jobs: int) -> list[Sample]:
    tasks = [(name, players, f"{seed}:{name}:{players}:{n}", n) for n in range(games)]
    if jobs > 1:
        with Pool(jobs) as pool:
            played = pool.map(play, tasks, chunksize=max(1, len(tasks) // (jobs * 8)))
    else:
        played = [play(task) for task in tasks]
    return [sample for game in played for sample in game]


def fit(found: Sequence[Sample]) -> list[tuple[float, float]]:
    """Per decision index (while it has MIN_FIT samples): the least-squares line from raw figure
    to outcome through the index's means, its slope shrunk towards the slope common to every
    index (the more, the less the raw figures vary at that index: early in a game they hardly
    do, and the outcome's noise would make any slope) and kept within 0..2."""
    by_index: dict[int, list[tuple[float, float]]] = defaultdict(list)
    for index, raw, result, *_game in found:
        by_index[index].append((raw, result))
    sums = []  # per index: (n, mean raw, mean outcome, Sxx, Sxy)
    for index in range(max(by_index, default=-1) + 1):
        pairs = by_index.get(index, [])
        if len(pairs) < MIN_FIT:
            break
        mx = statistics.fmean(x for x, _ in pairs)
        my = statistics.fmean(y for _, y in pairs)
        sxx = sum((x - mx) ** 2 for x, _ in pairs)
        sxy = sum((x - mx) * (y - my) for x, y in pairs)
        sums.append((len(pairs), mx, my, sxx, sxy))
    total_sxx = sum(s[3] for s in sums)
    common = sum(s[4] for s in sums) / total_sxx if total_sxx else 1.0
    spread = total_sxx / sum(s[0] for s in sums) if sums else 0.0  # the raw figures' variance within an index
    fits = []
    for n, mx, my, sxx, sxy in sums:
        prior = PRIOR * spread * n
        slope = (sxy + prior * common) / (sxx + prior) if sxx + prior else common
        slope = min(2.0, max(0.0, slope))
        fits.append((slope, my - slope * mx))
    return fits


def _game(n: int, sample: Sample) -> Any:
    """The game sample number `n` comes from, or the sample itself when no game is given."""
    return sample[3] if len(sample) > 3 else ("sample", n)


def table_rows(name: str, players: int, found: Sequence[Sample]) -> list[dict[str, Any]]:
    """Per decision index with MIN_SAMPLES samples: mean shown, mean outcome, gap, its standard
    error (`clustered_se`), the allowance and whether the gap is within it."""
    by_index: dict[int, list[tuple[float, float, Any]]] = defaultdict(list)
    for n, (index, raw, result, *_) in enumerate(found):
        slope, intercept = mapping(name, players, index)
        by_index[index].append((slope * raw + intercept, result, _game(n, found[n])))
    rows = []
    for index in sorted(by_index):
        triples = by_index[index]
        if len(triples) < MIN_SAMPLES:
            continue
        shown = statistics.fmean(s for s, _, _ in triples)
        actual = statistics.fmean(r for _, r, _ in triples)
        allowed = max(0.1 * abs(actual), 3.0)
        rows.append(
            {
                "index": index,
                "samples": len(triples),
                "shown": shown,
                "outcome": actual,
                "gap": shown - actual,
                "se": clustered_se([(s - r, game) for s, r, game in triples]),
                "allowed": allowed,
                "ok": abs(shown - actual) <= allowed,
            }
        )
    return rows


def clustered_se(gaps: Sequence[tuple[float, Any]]) -> float:
    """The standard error of the mean of the gaps, each given with its cluster (its game): the
    seats of one game share its dice, so their gaps move together and count as one draw
    (the cluster-robust estimate, with the usual C / (C − 1) correction for C clusters).

    >>> round(clustered_se([(1.0, 0), (-1.0, 1), (1.0, 2), (-1.0, 3)]), 3)
    0.577
    >>> round(clustered_se([(1.0, 0), (1.0, 0), (-1.0, 1), (-1.0, 1)]), 3)
    1.0
    """
    mean = statistics.fmean(g for g, _ in gaps)
    by_cluster: dict[Any, float] = defaultdict(float)
    for gap, cluster in gaps:
        by_cluster[cluster] += gap - mean
    clusters = len(by_cluster)
    if clusters < 2:
        return float("nan")
    spread = sum(v * v for v in by_cluster.values()) * clusters / (clusters - 1)
    return float(spread**0.5) / len(gaps)


def exact_pass_share(name: str, players: int, found: Sequence[Sample], draws: int = 1000) -> float:
    """The share of bootstrap draws (the games drawn again with replacement) in which the figure,
    its mean error at each decision index taken away (a mapping exact on average), is within the
    allowance at every index of the table: how often as many games like these let even an
    exactly calibrated figure pass, as their outcomes' own noise decides. Seeded: the same
    every run."""
    import numpy as np

    rows = table_rows(name, players, found)
    columns = {row["index"]: k for k, row in enumerate(rows)}
    games: dict[Any, int] = {}
    for n, sample in enumerate(found):
        games.setdefault(_game(n, sample), len(games))
    errors = np.zeros((len(games), len(rows)))
    counts = np.zeros((len(games), len(rows)))
    results = np.zeros((len(games), len(rows)))
    for n, (index, raw, result, *_) in enumerate(found):
        k = columns.get(index)
        if k is None:
            continue
        slope, intercept = mapping(name, players, index)
        g = games[_game(n, found[n])]
        errors[g, k] += slope * raw + intercept - result - rows[k]["gap"]
        counts[g, k] += 1
        results[g, k] += result
    rng = np.random.default_rng(0)
    weights = rng.multinomial(len(games), np.full(len(games), 1 / len(games)), size=draws).astype(float)
    seen = weights @ counts
    gap = (weights @ errors) / seen
    allowed = np.maximum(0.1 * np.abs((weights @ results) / seen), 3.0)
    return float(np.mean(np.all(np.abs(gap) <= allowed, axis=1)))


def markdown(name: str, players: int, games: int, rows: Sequence[dict[str, Any]]) -> str:
    spec = find_game(name)
    unit = spec.unit
    lines = [
        f"**{spec.title}**, {players} strong bots, {games} games (unit: {unit}; decision = the "
        "deciding player's own decisions so far, counted from 0)",
        "",
        "| decision | samples | mean shown | mean outcome | gap ± s.e. | allowed | within |",
        "| ---: | ---: | ---: | ---: | ---: | ---: | :---: |",
    ]
    for row in rows:
        lines.append(
            f"| {row['index']} | {row['samples']} | {row['shown']:.1f} | {row['outcome']:.1f} | "
            f"{row['gap']:+.1f} ± {row['se']:.1f} | {row['allowed']:.1f} | {'yes' if row['ok'] else 'NO'} |"
        )
    return "\n".join(lines)


def write_docs(name: str, text: str, path: Path = DOCS) -> None:
    """Put `text` between game `name`'s table markers in docs/bots.md (they must be there)."""
    start, end = f"<!-- calibration {name} -->", f"<!-- /calibration {name} -->"
    docs = path.read_text(encoding="utf-8")
    pattern = re.compile(re.escape(start) + ".*?" + re.escape(end), re.S)
    if not pattern.search(docs):
        raise SystemExit(f"{path}: no {start} ... {end} markers to write the table between")
    path.write_text(pattern.sub(lambda _m: f"{start}\n{text}\n{end}", docs), encoding="utf-8")


def run(args: Any) -> Iterator[tuple[str, float]]:
    if min(args.games, args.jobs, args.players or 1, args.fit_games or 1) < 1:
        raise SystemExit("xtraboard bench calibration: --games, --fit-games, --jobs and --players must be at least 1")
    names = args.game or [spec.name for spec in map(find_game, game_names()) if spec.evaluator is not None]
    for name in names:
        spec = find_game(name)
        if spec.evaluator is None:
            raise SystemExit(f"xtraboard bench calibration: {spec.title} has no evaluator")
        players = args.players or spec.benchmark_players
        if players not in spec.players:
            raise SystemExit(
                f"xtraboard bench calibration: {spec.title} is for {spec.players.start}-{spec.players.stop - 1} players"
            )
        if args.fit:
            learnt = fit(samples(name, players, args.fit_games or args.games, f"fit:{args.seed}", args.jobs))
            write_calibration({name: {players: learnt}})
            yield f"{name}_fitted_decisions", len(learnt)
        checked = samples(name, players, args.games, f"check:{args.seed}", args.jobs)
        rows = table_rows(name, players, checked)
        table = markdown(name, players, args.games, rows)
        print(table + "\n", flush=True)
        if args.docs:
            write_docs(name, table)
        worst = max((abs(r["gap"]) / r["allowed"] for r in rows), default=0.0)
        yield f"{name}_calibration_decisions", len(rows)
        yield f"{name}_calibration_within", sum(r["ok"] for r in rows)
        yield f"{name}_calibration_worst_gap_share_of_allowed", worst
        yield f"{name}_calibration_exact_pass_share", exact_pass_share(name, players, checked)


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m sim.bench.calibration", description=__doc__)
    add_arguments(parser)
    args = parser.parse_args(argv)
    for name, value in run(args):
        print(f"{name}: {value:.6g}" if isinstance(value, float) else f"{name}: {value}", flush=True)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
