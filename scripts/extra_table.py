"""Learn the EXTRA! "strong" bot's tables by self-play (approximate policy iteration).

Each round plays seeded solo games with the current row table (one step ahead, without
strong's look-ahead over the next roll: as good a table, far faster) and records, after every
decision, for each row not yet full, empty rows included: (row index, crosses, expected rolls
to come, other rows in play, the row's group under the EXTRA numbers owned) and the row's final
score. The averages (shrunk towards the previous round's value, or towards a pessimistic prior
for a new entry), moved `--step` of the way from the previous round's value (policy iteration
swings between two styles of play without it), are the next round's table; the mean of the
last `--average` rounds' tables is shipped. `--search-rounds` adds rounds played with strong's
own search (about fifty times slower; three such rounds did not help before). The last round's games also
give the EXTRA-numbers table: the final total of the games that ended with each set of
numbers, against the average. `--joint-games` then plays that many games with strong's own
search on the new tables and learns the joint correction: the mean of (final total − the
tables' value of the sheet) after each decision, by `search.joint_key` (rows still empty,
rolls to come), shrunk towards 0; `--keep-tables` learns it alone on the shipped tables.
Writes firmware/games/extra/learnt.bin (a binary data file with the command that made it and a
checksum in its header: firmware/games/extra/learnt.py); the shipped one was made by

    python scripts/extra_table.py --rounds 16 --games 8000 --seed 1 --jobs 2 --average 4 --step 0.5
    python scripts/extra_table.py --keep-tables --joint-games 4000 --seed 1 --jobs 2

(the first about ten minutes on two cores, the second about five; neither depends on `--jobs`).
"""

from __future__ import annotations

import argparse
import itertools
import statistics
import sys
from collections import defaultdict
from multiprocessing import Pool
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from firmware.games.extra import bots as ai  # noqa: E402
from firmware.games.extra.rules import SUMS  # noqa: E402
from firmware.dice import SeededDice  # noqa: E402
from firmware.games import Roll, new_game  # noqa: E402
from firmware.games.extra import learnt  # noqa: E402
from firmware.turns import dice_roll, play_out  # noqa: E402

OUT = learnt.PATH
SHRINK = 8  # pseudo-observations of the prior for each row-table entry
NUMBERS_SHRINK = 50  # the same for the EXTRA-numbers table (one observation per game)
JOINT_SHRINK = 50  # the same for the joint correction (towards no correction)


def play(job: tuple[int, int, str, dict, dict | None]) -> tuple[dict, dict, list]:
    """Play games [start, stop) with the tables (one step ahead, or strong's search when given an
    EXTRA-numbers table); per-key sums and weights of final row scores, and (EXTRA numbers,
    final total) per game."""
    start, stop, seed, table, numbers = job
    sums: dict = defaultdict(float)
    counts: dict = defaultdict(float)
    finals = []

    def decide(game):
        if numbers is None:
            return ai._decide(game, game.legal_decisions(), ai.STRONG, table or None)
        return ai.search(game, game.legal_decisions(), table, numbers)

    for index in range(start, stop):
        game = new_game("extra", ["Solo"])
        seen: list[tuple] = []

        def observe(game, step, seen=seen):  # after each decision: every row not yet full, and its future
            sheet = game.sheets[0]
            if isinstance(step, Roll) or sheet.ended:
                return
            crosses = sheet.row_crosses
            room = tuple(sorted(size - c for size, c in zip(ai.COLUMN_SIZES, sheet.column_crosses)))
            rolls = ai.remaining_rolls(room)
            low = int(rolls)
            active = sum(1 for i, c in enumerate(crosses) if 0 < c < ai._SIZE[i])
            group = ai.groups(tuple(sorted(n for n in sheet.numbers if n is not None)))
            for i, c in enumerate(crosses):
                if c < ai._SIZE[i]:
                    # an empty row too: what the rolls to come will make of it
                    others = min(active - (c > 0), ai.MAX_OTHERS)
                    for n, weight in ((low, 1 - (rolls - low)), (low + 1, rolls - low)):
                        if weight > 0 and n > 0:
                            seen.append(((i, c, n, others, group[i]), weight))

        play_out(game, dice_roll(SeededDice(f"extra-table:{seed}:{index}")), [decide], observe=observe)
        sheet = game.sheets[0]
        finals.append((tuple(sorted(n for n in sheet.numbers if n is not None)), sheet.total))
        for key, weight in seen:
            sums[key] += weight * sheet.row_score_of(SUMS[key[0]])
            counts[key] += weight
    return dict(sums), dict(counts), finals


def play_joint(job: tuple[int, int, str, dict, dict]) -> tuple[dict, dict]:
    """Play games [start, stop) with strong's search on the tables; per joint key, the sums and
    counts of (final total − the tables' value of the sheet) after each decision."""
    from firmware.games.extra.search import Position, joint_key

    start, stop, seed, table, numbers = job
    sums: dict = defaultdict(float)
    counts: dict = defaultdict(float)

    def decide(game):
        return ai.search(game, game.legal_decisions(), table, numbers)

    for index in range(start, stop):
        game = new_game("extra", ["Solo"])
        seen: list[tuple] = []

        def observe(game, step, seen=seen):  # after each decision: the tables' value of the sheet
            sheet = game.sheets[0]
            if isinstance(step, Roll) or sheet.ended:
                return
            position = Position(sheet.row_crosses, sheet.numbers, sheet.column_crosses, False, table, numbers)
            room = tuple(sorted(position.room))
            owned = tuple(sorted(n for n in sheet.numbers if n is not None))
            value = position.base(room, position.active, position.groups) + numbers.get(owned, 0.0)
            seen.append((joint_key(position.empty, ai.remaining_rolls(room)), value))

        play_out(game, dice_roll(SeededDice(f"extra-table:{seed}:joint:{index}")), [decide], observe=observe)
        total = game.sheets[0].total
        for key, value in seen:
            sums[key] += total - value
            counts[key] += 1
    return dict(sums), dict(counts)


def learn_joint(games: int, seed: int, jobs: int, table: dict, numbers: dict) -> dict:
    """The joint correction: per joint key, the tables' mean error under strong's own play."""
    chunks = [(k * games // jobs, (k + 1) * games // jobs, str(seed), table, numbers) for k in range(jobs)]
    with Pool(jobs) as pool:
        results = pool.map(play_joint, chunks)
    sums: dict = defaultdict(float)
    counts: dict = defaultdict(float)
    for part_sums, part_counts in results:
        for key, value in part_sums.items():
            sums[key] += value
            counts[key] += part_counts[key]
    # rounded to 0.1: the order of the sums (by `--jobs`) does not show
    return {key: round(sums[key] / (counts[key] + JOINT_SHRINK), 1) for key in sorted(counts)}


def numbers_table(finals: list) -> dict:
    """EXTRA numbers → mean final total of the games ending with them, less the overall mean;
    a partial set gets the mean over the full sets containing it."""
    mean = statistics.fmean(total for _, total in finals)
    by_set: dict = defaultdict(list)
    for owned, total in finals:
        by_set[owned].append(total - mean)
    table = {}
    for owned in itertools.combinations(range(1, 7), 3):
        values = by_set.get(owned, [])
        table[owned] = round(sum(values) / (len(values) + NUMBERS_SHRINK), 1)
    for size in (0, 1, 2):
        for owned in itertools.combinations(range(1, 7), size):
            table[owned] = round(
                statistics.fmean(v for k, v in table.items() if len(k) == 3 and set(owned) <= set(k)), 1
            )
    return table


def learn(
    rounds: int,
    games: int,
    seed: int,
    jobs: int,
    average: int = 1,
    search_rounds: int = 0,
    search_games: int = 0,
    step: float = 1.0,
) -> tuple[dict, dict]:
    table: dict = {}
    finals: list = []
    last: list[dict] = []  # the last `average` rounds' tables
    for round_ in range(rounds + search_rounds):
        searching = round_ >= rounds
        played = search_games if searching else games
        numbers = numbers_table(finals) if searching else None
        chunks = [
            (k * played // jobs, (k + 1) * played // jobs, f"{seed}:{round_}", table, numbers) for k in range(jobs)
        ]
        with Pool(jobs) as pool:
            results = pool.map(play, chunks)
        sums: dict = defaultdict(float)
        counts: dict = defaultdict(float)
        finals: list = []
        for part_sums, part_counts, part_finals in results:
            finals.extend(part_finals)
            for key, value in part_sums.items():
                sums[key] += value
                counts[key] += part_counts[key]
        new = {}
        for key, count in counts.items():
            i, c, n = key[:3]
            # towards last round's value; a new entry towards "no further crosses" (pessimistic)
            prior = table.get(key, ai.row_value(i, c, n, 0))
            estimate = (sums[key] + SHRINK * prior) / (count + SHRINK)
            # a step short of the estimate where the key was known: damps the policy's swings
            new[key] = round(prior + (step if key in table else 1.0) * (estimate - prior), 1)
        mean = statistics.fmean(total for _, total in finals)
        how = "search" if searching else "one step"
        print(f"round {round_} ({how}): mean solo score {mean:.1f} over {played} games; {len(new)} entries", flush=True)
        table = new
        last = (last + [new])[-average:]
    # Policy iteration wobbles from round to round: the mean of the last tables is steadier.
    keys = set().union(*last)
    mean = {k: round(statistics.fmean(t[k] for t in last if k in t), 1) for k in keys}
    return mean, numbers_table(finals)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rounds", type=int, default=11)
    parser.add_argument("--games", type=int, default=4000, help="solo games per round")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--jobs", type=int, default=2)
    parser.add_argument("--average", type=int, default=1, help="ship the mean of the last N rounds' tables")
    parser.add_argument(
        "--search-rounds",
        type=int,
        default=0,
        help="further rounds played with strong's search (slower, on the bot's own policy)",
    )
    parser.add_argument("--search-games", type=int, default=2000, help="solo games per search round")
    parser.add_argument(
        "--step", type=float, default=1.0, help="move each known entry this share of the way to the round's estimate"
    )
    parser.add_argument(
        "--joint-games",
        type=int,
        default=0,
        help="games played with strong's search to learn the joint correction (0: none)",
    )
    parser.add_argument(
        "--keep-tables",
        action="store_true",
        help="keep the shipped row and EXTRA-numbers tables, learn only the joint correction",
    )
    parser.add_argument("--out", type=Path, default=OUT)
    args = parser.parse_args()
    command = (
        f"python scripts/extra_table.py --rounds {args.rounds} --games {args.games} --seed {args.seed}"
        f" --average {args.average} --step {args.step}"
        + (f" --search-rounds {args.search_rounds} --search-games {args.search_games}" if args.search_rounds else "")
    )
    if args.keep_tables:
        shipped = learnt.load(args.out)
        table, numbers = shipped.rows, shipped.numbers
        # the shipped tables' own command comes first
        command = next(line for line in shipped.command.splitlines() if "--rounds" in line)
        command += f"\npython scripts/extra_table.py --keep-tables --joint-games {args.joint_games} --seed {args.seed}"
    else:
        table, numbers = learn(
            args.rounds,
            args.games,
            args.seed,
            args.jobs,
            args.average,
            args.search_rounds,
            args.search_games,
            args.step,
        )
        if args.joint_games:
            command += f" --joint-games {args.joint_games}"
    joint = learn_joint(args.joint_games, args.seed, args.jobs, table, numbers) if args.joint_games else {}
    learnt.dump(
        args.out,
        dict(sorted(table.items())),
        dict(sorted(numbers.items(), key=lambda kv: (len(kv[0]), kv[0]))),
        joint,
        command,
    )
    print(f"wrote {args.out}")


if __name__ == "__main__":
    main()
