"""`xtraboard records export|list|best`: the games kept on the board, read from its journal.

    xtraboard records export --out games.jsonl      # every finished game, JSON Lines, oldest first
    xtraboard records list --game extra              # one line per game, newest first
    xtraboard records best                           # high scores, EXXTRA wins, EXTRA! solo record

The journal is opened read-only: these commands never change or repair it, so they are safe
while the board runs.
"""

from __future__ import annotations

import argparse
import json
import sys
from datetime import datetime
from pathlib import Path
from typing import Any, TextIO

from firmware.errors import RecordError
from firmware.games import game_class, game_names
from firmware.games.registry import find_game
from firmware.journal import Journal, ScoreEntry, StoredGame
from firmware.paths import default_state_dir


def add_arguments(parser: argparse.ArgumentParser) -> None:
    common = argparse.ArgumentParser(add_help=False)
    common.add_argument(
        "--state-dir", type=Path, default=None, metavar="DIR",
        help="the board's state directory (default: $STATE_DIRECTORY, else $XDG_STATE_HOME/xtraboard,"
        " else ~/.local/state/xtraboard)",
    )
    common.add_argument("--game", choices=game_names(), default=None, help="only this game")
    actions = parser.add_subparsers(dest="action", required=True, metavar="ACTION")
    export = actions.add_parser("export", parents=[common], help="write every finished game's record as JSON Lines")
    export.add_argument("--out", default="-", metavar="FILE", help="the file to write, or - for standard output")
    listing = actions.add_parser("list", parents=[common], help="one line per finished game: id, date, game, players, winners")
    listing.add_argument("--limit", type=int, default=None, metavar="N", help="only the N newest games")
    best = actions.add_parser("best", parents=[common], help="high scores, wins and the EXTRA! solo record")
    best.add_argument("--limit", type=int, default=5, metavar="N", help="entries per table (default 5)")


def run(args: argparse.Namespace) -> int:
    state_dir = args.state_dir if args.state_dir is not None else default_state_dir()
    try:
        journal = Journal(state_dir, read_only=True)
    except RecordError as exc:
        print(f"xtraboard records: {exc}", file=sys.stderr)
        return 1
    with journal:
        if args.action == "export":
            return _export(journal, args.game, args.out)
        if args.action == "list":
            _list(journal, args.game, args.limit, sys.stdout)
        else:
            _best(journal, args.game, args.limit, sys.stdout)
    return 0


def _export(journal: Journal, game: str | None, out: str) -> int:
    games = journal.finished(game)[::-1]  # oldest first, as they were played
    lines = "".join(json.dumps(g.record) + "\n" for g in games)
    if out == "-":
        sys.stdout.write(lines)
        return 0
    try:
        Path(out).write_text(lines, encoding="utf-8")
    except OSError as exc:
        print(f"xtraboard records: cannot write {out}: {exc.strerror or exc}", file=sys.stderr)
        return 1
    print(f"{len(games)} game records written to {out}", file=sys.stderr)
    return 0


def _list(journal: Journal, game: str | None, limit: int | None, out: TextIO) -> None:
    for stored in journal.finished(game, limit):
        out.write(list_line(stored) + "\n")


def list_line(stored: StoredGame) -> str:
    """`17  2024-05-01 14:03  EXTRA!  Marie, Robo (bot easy)  won: Marie`."""
    record = stored.record
    players = [_seat(p) for p in record["players"]]
    winners = [record["players"][i]["name"] for i in record.get("result", {}).get("winners", [])]
    return (
        f"{stored.id:>5}  {_date(stored.updated)}  {game_class(record['game']).title:<7}  "
        f"{', '.join(players)}  won: {', '.join(winners) or 'nobody'}"
    )


def _best(journal: Journal, game: str | None, limit: int, out: TextIO) -> None:
    for name in [game] if game else list(game_names()):
        spec = find_game(name)
        out.write(f"{spec.title}\n")
        if not spec.ranking.high_scores:  # a race: only wins rank
            wins = journal.wins(name, limit)
            out.write("  most wins:\n" if wins else "  no wins yet\n")
            out.writelines(f"  {rank:>2}. {who}  {n} {'win' if n == 1 else 'wins'}\n" for rank, (who, n) in enumerate(wins, 1))
            continue
        _table(out, "high scores", journal.best_scores(name, limit))
        if spec.ranking.kids_table:
            kids = journal.best_scores(name, limit, kids=True)
            if kids:
                _table(out, "high scores, children's variant", kids)
        if spec.ranking.solo_record:
            solo = journal.solo_best(game=name)
            out.write(f"  solo record: {_entry(solo)}\n" if solo else "  solo record: none yet\n")


def _table(out: TextIO, title: str, entries: list[ScoreEntry]) -> None:
    if not entries:
        out.write(f"  {title}: none yet\n")
        return
    out.write(f"  {title}:\n")
    out.writelines(f"  {rank:>2}. {_entry(e)}\n" for rank, e in enumerate(entries, 1))


def _entry(entry: ScoreEntry) -> str:
    seats = "solo" if entry.players == 1 else f"{entry.players} players"
    return f"{entry.name}  {entry.score}  ({_date(entry.date)}, {seats}, game {entry.game_id})"


def _seat(player: dict[str, Any]) -> str:
    notes = [f"bot {player['bot']}"] if player.get("bot") else []
    notes += ["kids"] if player.get("kids") else []
    return f"{player['name']} ({', '.join(notes)})" if notes else player["name"]


def _date(timestamp: float) -> str:
    return datetime.fromtimestamp(timestamp).strftime("%Y-%m-%d %H:%M")  # the board's local time
