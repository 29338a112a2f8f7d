"""Bots against bots: seeded games of every game, level against level, with figures.

A development tool (not firmware): `python -m sim.arena --games 400 --seed 1 --jobs 2` prints
`name: value` lines, e.g. `levelx_strong_vs_medium_win_rate: 0.71`. Figures, per game:

- head to head, for each pair of levels (the stronger named first):
  LEVEL X and EXTRA!: two seats, one of each level, seats swapped every other game;
  EXXTRA (3 seats at least): one of the stronger level against two of the weaker
  (`..._1v2_...`, fair share 1/3) and the mirrored seating (`..._2v1_...`, fair share 2/3);
  figures are the stronger level's share of the wins (a shared win counts 1/k) and its
  standard error;
- one against the rest: one seat of each level (seats rotated), each level's win share;
- EXTRA! solo: mean score per level and its standard error (`--solo-games`);
- with `--vs-greedy`, instead: each level alone against the greedy baseline (`sim/greedy.py`, each game's `SPEC.baseline`) at
  every player count, seats rotated (`{game}_{level}_vs_greedy_{n}p_...`: win share, mean
  scores of the level and of greedy, each with its standard error, and the fair share);
- decision time per level: p50 and p99 in milliseconds, over every decision timed (the
  process's CPU time, so that other work on a shared machine does not count).

`run(args)` yields the figures as (name, value) pairs, `add_arguments(parser)` adds the options
(for `xtraboard bench bots`). Games are deterministic given `--seed`; only the times vary.
"""

from __future__ import annotations

import argparse
import random
import statistics
import sys
import time
from collections import defaultdict
from collections.abc import Iterator, Sequence
from multiprocessing import Pool
from typing import Any

from firmware.dice import SeededDice
from firmware.games.base import Decision
from firmware.games import Game, Player, find_game, game_names, new_game
from firmware.turns import Decide, dice_roll, play_out
from sim import greedy

MAX_STEPS = 20_000  # a game longer than this is a bug in a bot: stop and count it as stalled


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--games", type=int, default=200, help="games per seating and level pairing (default 200)")
    parser.add_argument(
        "--solo-games",
        type=int,
        default=None,
        help="solo games per level, for games that keep a solo record (default: --games)",
    )
    parser.add_argument("--seed", type=int, default=1, help="seed of the dice and the bots (default 1)")
    parser.add_argument("--jobs", type=int, default=1, help="worker processes (default 1)")
    parser.add_argument(
        "--instructions",
        action="store_true",
        help="instead: count the strongest level's decision (no movetime) in instructions "
        "with callgrind, p50/p99 over --positions seeded positions per game; slow",
    )
    parser.add_argument(
        "--movetime",
        default=None,
        metavar="MS[,MS...]",
        help="instead: the strongest level's answer time through an `xtraboard engine` process for "
        "each `go movetime MS` (and plain `go`), p50/p99/max over --positions seeded positions per game",
    )
    parser.add_argument(
        "--nice",
        type=int,
        default=0,
        help="with --movetime: run the engine at this niceness (below 0 needs root; default 0)",
    )
    parser.add_argument(
        "--positions", type=int, default=30, help="positions per game for --instructions and --movetime (default 30)"
    )
    parser.add_argument(
        "--game", action="append", choices=game_names(), help="only this game (repeatable; default: every game)"
    )
    parser.add_argument(
        "--levels", default=None, help="comma-separated levels to compare (default: every level of each game)"
    )
    parser.add_argument(
        "--vs-greedy",
        action="store_true",
        help="instead: each level alone against the greedy baseline (sim/greedy.py) at every "
        "player count, seats rotated, and greedy's solo mean; --games per level and count",
    )


def play(name: str, levels: Sequence[str], seed: str) -> tuple[list[float], list[int], dict[str, list[float]], bool]:
    """One seeded game with a bot of `levels[i]` in seat i: each seat's win share, the scores
    (EXTRA!/LEVEL X) or positions (EXXTRA), decision times per level, whether it stalled."""
    from firmware.bots import choose

    game = new_game(
        name, [Player(f"P{i}", bot=None if level == greedy.NAME else level) for i, level in enumerate(levels)]
    )
    rng = random.Random(f"arena-bot:{seed}")
    times: dict[str, list[float]] = defaultdict(list)

    def seat(level: str) -> Decide:
        def decide(game: Game) -> Decision:
            start = time.process_time()
            decision = greedy.choose(game, rng) if level == greedy.NAME else choose(game, rng, level)
            times[level].append(time.process_time() - start)
            return decision

        return decide

    play_out(game, dice_roll(SeededDice(f"arena:{seed}")), [seat(level) for level in levels], limit=MAX_STEPS)
    result = game.result()
    if result is None:
        return [0.0] * len(levels), [0] * len(levels), dict(times), True
    winners = result["winners"]
    shares = [1 / len(winners) if i in winners else 0.0 for i in range(len(levels))]
    score_key = find_game(name).ranking.score
    return shares, list(result[score_key]), dict(times), False


# One game to play: (game, figure label, seat levels, seed).
Task = tuple[str, str, tuple[str, ...], str]


def _job(task: Task) -> tuple[str, str, tuple[str, ...], Any]:
    name, label, levels, seed = task
    return name, label, levels, play(name, levels, seed)


def _tasks(name: str, levels: Sequence[str], games: int, solo_games: int, seed: int) -> list[Task]:
    """Every game to play for `name`: (game, figure label, seat levels, seed)."""
    spec = find_game(name)
    low = spec.players.start
    tasks: list[Task] = []

    def add(label: str, seatings: list[tuple[str, ...]], count: int) -> None:
        for index in range(count):
            seats = seatings[index % len(seatings)]
            tasks.append((name, label, seats, f"{seed}:{name}:{label}:{index}"))

    pairs = [(levels[j], levels[i]) for i in range(len(levels)) for j in range(i + 1, len(levels))]
    for strong, weak in pairs:
        if low <= 2:
            add(f"{strong}_vs_{weak}", [(strong, weak), (weak, strong)], games)
        else:
            others = low - 1
            add(f"{strong}_1v{others}_{weak}", [_rotate((strong,) + (weak,) * others, k) for k in range(low)], games)
            add(f"{strong}_{others}v1_{weak}", [_rotate((weak,) + (strong,) * others, k) for k in range(low)], games)
    if len(levels) > 1:
        seats = max(len(levels), low)
        lineup = tuple(levels[i % len(levels)] for i in range(seats))
        add("all_levels", [_rotate(lineup, k) for k in range(seats)], games)
    if spec.ranking.solo_record and 1 in spec.players:
        for level in levels:
            add(f"solo_{level}", [(level,)], solo_games)
    return tasks


def _greedy_tasks(name: str, levels: Sequence[str], games: int, solo_games: int, seed: int) -> list[Task]:
    """Every game of `--vs-greedy` for `name`: one seat of each level against greedy in every
    other seat, at every player count (seats rotated); solo games of greedy and each level."""
    spec = find_game(name)
    tasks: list[Task] = []
    for level in levels:
        for count in spec.players:
            if count == 1:
                continue
            label = f"{level}_vs_greedy_{count}p"
            seatings = [_rotate((level,) + (greedy.NAME,) * (count - 1), k) for k in range(count)]
            tasks += [
                (name, label, seatings[index % count], f"{seed}:{name}:{label}:{index}") for index in range(games)
            ]
    if spec.ranking.solo_record and 1 in spec.players:
        for level in (greedy.NAME, *levels):
            label = f"solo_{level}"
            tasks += [(name, label, (level,), f"{seed}:{name}:{label}:{index}") for index in range(solo_games)]
    return tasks


def _rotate(seats: tuple[str, ...], k: int) -> tuple[str, ...]:
    return seats[k:] + seats[:k]


def _mean_se(values: Sequence[float]) -> tuple[float, float]:
    mean = statistics.fmean(values)
    se = statistics.stdev(values) / len(values) ** 0.5 if len(values) > 1 else 0.0
    return mean, se


def _percentile(values: Sequence[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(q * len(ordered)))]


def figures(
    name: str, results: list[tuple[str, tuple[str, ...], Any]], levels: Sequence[str]
) -> Iterator[tuple[str, float]]:
    """The figures of one game from its played games."""
    by_label: dict[str, list[tuple[tuple[str, ...], Any]]] = defaultdict(list)
    times: dict[str, list[float]] = defaultdict(list)
    stalled = 0
    for label, seats, (shares, scores, timing, stall) in results:
        by_label[label].append((seats, (shares, scores)))
        stalled += stall
        for level, values in timing.items():
            times[level].extend(values)
    for label, played in by_label.items():
        if label.startswith("solo_"):
            mean, se = _mean_se([scores[0] for _, (_, scores) in played])
            yield f"{name}_{label}_mean_score", mean
            yield f"{name}_{label}_mean_score_se", se
            continue
        if "_vs_greedy_" in label:
            level = label.split("_vs_greedy_")[0]
            share = [sum(s for seat, s in zip(seats, shares) if seat == level) for seats, (shares, _) in played]
            mine = [
                statistics.fmean(v for seat, v in zip(seats, scores) if seat == level) for seats, (_, scores) in played
            ]
            theirs = [
                statistics.fmean(v for seat, v in zip(seats, scores) if seat == greedy.NAME)
                for seats, (_, scores) in played
            ]
            for figure, values in (("win_rate", share), ("mean_score", mine), ("greedy_mean_score", theirs)):
                mean, se = _mean_se(values)
                yield f"{name}_{label}_{figure}", mean
                yield f"{name}_{label}_{figure}_se", se
            yield f"{name}_{label}_fair_share", 1 / len(played[0][0])
            continue
        if label == "all_levels":
            for level in levels:
                share = [
                    sum(s for seat, s in zip(seats, shares) if seat == level) / seats.count(level)
                    for seats, (shares, _) in played
                ]
                mean, se = _mean_se(share)
                yield f"{name}_all_levels_{level}_win_rate", mean
                yield f"{name}_all_levels_{level}_win_rate_se", se
            continue
        strong = label.split("_")[0]
        share = [sum(s for seat, s in zip(seats, shares) if seat == strong) for seats, (shares, _) in played]
        mean, se = _mean_se(share)
        yield f"{name}_{label}_win_rate", mean
        yield f"{name}_{label}_win_rate_se", se
    for level in (*levels, greedy.NAME):
        if times.get(level):
            yield f"{name}_{level}_decision_ms_p50", 1000 * _percentile(times[level], 0.50)
            yield f"{name}_{level}_decision_ms_p99", 1000 * _percentile(times[level], 0.99)
            yield f"{name}_{level}_decisions_timed", float(len(times[level]))
    yield f"{name}_games_played", float(len(results))
    yield f"{name}_games_stalled", float(stalled)


def _movetimes(text: str) -> list[int]:
    """'0,20,100' → [0, 20, 100]; anything else is an error naming the option."""
    words = [word.strip() for word in text.split(",")]
    if not words or not all(word.isdigit() for word in words):
        raise ValueError(f"--movetime takes whole milliseconds separated by commas (e.g. 0,20,100), not {text!r}")
    return [int(word) for word in words]


def run(args: Any) -> Iterator[tuple[str, float]]:
    names = args.game or list(game_names())
    if getattr(args, "instructions", False):
        from sim.bench.instructions import decision_figures

        yield from decision_figures(names, max(1, args.positions), args.seed)
        return
    if getattr(args, "movetime", None):
        from sim.bench.movetime import answer_times

        yield from answer_times(names, max(1, args.positions), args.seed, _movetimes(args.movetime), args.nice)
        return
    games = max(1, args.games)
    solo_games = games if args.solo_games is None else max(1, args.solo_games)
    if getattr(args, "vs_greedy", False):
        unknown = [name for name in args.game or () if name not in greedy.game_names()]
        if unknown:
            raise ValueError(
                f"the greedy baseline has no policy for {', '.join(unknown)} (it plays {', '.join(greedy.game_names())})"
            )
        names = [name for name in names if name in greedy.game_names()]
    for name in names:
        spec = find_game(name)
        levels = spec.levels
        if args.levels:
            levels = tuple(level.strip() for level in args.levels.split(","))
            unknown = [level for level in levels if level not in spec.levels]
            if unknown:
                raise ValueError(
                    f"{spec.title} has no bot level {', '.join(map(repr, unknown))}: "
                    f"expected some of {', '.join(spec.levels)}"
                )
        make = _greedy_tasks if getattr(args, "vs_greedy", False) else _tasks
        tasks = make(name, levels, games, solo_games, args.seed)
        start = time.perf_counter()
        if args.jobs > 1:
            with Pool(args.jobs) as pool:
                played = pool.map(_job, tasks, chunksize=max(1, len(tasks) // (args.jobs * 8)))
        else:
            played = [_job(task) for task in tasks]
        yield from figures(name, [(label, seats, outcome) for _, label, seats, outcome in played], levels)
        yield f"{name}_seconds", time.perf_counter() - start


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m sim.arena", description="Bots against bots, with figures.")
    add_arguments(parser)
    args = parser.parse_args(argv)
    if args.games < 1 or (args.solo_games is not None and args.solo_games < 1) or args.jobs < 1:
        parser.error("--games, --solo-games and --jobs must be at least 1")
    try:
        for name, value in run(args):
            print(f"{name}: {value:.6g}", flush=True)
    except ValueError as exc:
        parser.error(str(exc))
    return 0


if __name__ == "__main__":
    sys.exit(main())
