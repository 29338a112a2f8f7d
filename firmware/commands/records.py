"""`xtraboard records export|list|best|audit`: the games kept on the board, read from its journal.

    xtraboard records export --out games.jsonl      # every finished game, JSON Lines, oldest first
    xtraboard records list --game extra              # one line per game, newest first
    xtraboard records best                           # high scores, EXXTRA wins, EXTRA! solo record
    xtraboard records audit [--csv]                  # the café's audits, or one CSV row per game

The journal is opened read-only: these commands never change or repair it, so they are safe
while the board runs.
"""

from __future__ import annotations

import argparse
import json
import sqlite3
import sys
from datetime import datetime
from pathlib import Path
from collections.abc import Mapping
from typing import TextIO

from firmware.commands import state_dir_options
from firmware.errors import RecordError
from firmware.games import game_class, game_names
from firmware.games.registry import find_game
from firmware.i18n import _, ngettext, tr
from firmware.journal import Journal, ScoreEntry, StoredGame
from firmware.paths import default_state_dir

MAX_LIMIT = 1_000_000


def limit(text: str) -> int:
    """argparse type of --limit: a whole number from 1 to MAX_LIMIT."""
    try:
        value = int(text)
    except ValueError:
        value = 0
    if not 1 <= value <= MAX_LIMIT:
        raise argparse.ArgumentTypeError(
            _("must be a whole number from 1 to {high}, not {text}").format(high=MAX_LIMIT, text=text[:40])
        )
    return value


def add_arguments(parser: argparse.ArgumentParser) -> None:
    common = state_dir_options()
    common.add_argument("--game", choices=game_names(), default=None, help=_("only this game"))
    actions = parser.add_subparsers(dest="action", required=True, metavar="ACTION")
    export = actions.add_parser("export", parents=[common], help=_("write every finished game's record as JSON Lines"))
    export.add_argument("--out", default="-", metavar="FILE", help=_("the file to write, or - for standard output"))
    listing = actions.add_parser(
        "list", parents=[common], help=_("one line per finished game: id, date, game, players, winners")
    )
    listing.add_argument("--limit", type=limit, default=None, metavar="N", help=_("only the N newest games"))
    best = actions.add_parser("best", parents=[common], help=_("high scores, wins and solo records"))
    best.add_argument("--limit", type=limit, default=5, metavar="N", help=_("entries per table (default 5)"))
    audit = actions.add_parser(
        "audit",
        parents=[common],
        help=_("the audits: plays, minutes, people and bots, busiest hours, game lengths, dice fairness"),
    )
    audit.add_argument("--csv", action="store_true", help=_("one CSV row per game in the journal instead"))


def run(args: argparse.Namespace) -> int:
    """Exit 0; 1 if the journal cannot be read or a finished game in it was skipped as damaged
    (each one named on standard error, the readable ones still listed or exported)."""
    state_dir = args.state_dir if args.state_dir is not None else default_state_dir()
    try:
        _check_state_dir(state_dir)
        journal = Journal(state_dir, read_only=True)
    except RecordError as exc:
        print(f"xtraboard records: {tr(exc)}", file=sys.stderr)
        return 1
    except OSError as exc:  # e.g. no permission to look into the state directory
        print(
            "xtraboard records: "
            + _("cannot read the state directory {folder}: {error}").format(
                folder=state_dir, error=exc.strerror or exc
            ),
            file=sys.stderr,
        )
        return 1
    with journal:
        try:
            if args.action == "export":
                return _export(journal, args.game, args.out)
            if args.action == "list":
                return _list(journal, args.game, args.limit, sys.stdout)
            if args.action == "audit":
                return _audit(journal, args.game, args.csv, sys.stdout)
            _best(journal, args.game, args.limit, sys.stdout)
        except (RecordError, sqlite3.Error) as exc:
            print(
                "xtraboard records: "
                + _("cannot read the journal {file}: {error}").format(file=journal.path, error=exc),
                file=sys.stderr,
            )
            return 1
        except RecursionError:  # a stored row nested too deeply for json.loads
            print(
                "xtraboard records: "
                + _("cannot read the journal {file}: a game in it is nested too deeply to read").format(
                    file=journal.path
                ),
                file=sys.stderr,
            )
            return 1
    return 0


def _check_state_dir(state_dir: Path) -> None:
    """RecordError in one line when the state directory cannot be looked at or is not one."""
    try:
        for folder in (state_dir, *state_dir.parents):
            if folder.exists() and not folder.is_dir():
                raise RecordError(
                    _("the state directory {folder} cannot be read: {part} is not a directory").format(
                        folder=state_dir, part=folder
                    )
                )
    except OSError as exc:  # e.g. no permission to enter a folder, or a name too long
        raise RecordError(
            _("cannot read the state directory {folder}: {error}").format(folder=state_dir, error=exc.strerror or exc)
        ) from exc


def _readable(games: list[StoredGame]) -> tuple[list[StoredGame], int]:
    """The games whose stored record can be shown, and how many were skipped (each named on
    standard error: the journal is the board's, a damaged row must not hide the others)."""
    good = []
    for stored in games:
        problem = record_problem(stored.record)
        if problem is None:
            good.append(stored)
        else:
            print(
                "xtraboard records: " + _("game {id} skipped: {problem}").format(id=stored.id, problem=problem),
                file=sys.stderr,
            )
    return good, len(games) - len(good)


def record_problem(record: Mapping[str, object]) -> str | None:
    """What makes a finished game's stored record unfit to list or export, or None.

    >>> record_problem({"game": "extra", "players": [], "steps": [], "result": {}})
    'EXTRA! is for 1 to 6 players, not 0 players'
    """
    try:
        cls = game_class(str(record.get("game")))
    except (KeyError, ValueError, TypeError):
        return f"unknown game {str(record.get('game'))[:40]!r}"
    players = record.get("players")
    if not isinstance(players, list):
        return "its players are not a list"
    if not cls.min_players <= len(players) <= cls.max_players:
        return f"{cls.title} is for {cls.min_players} to {cls.max_players} players, not {len(players)} players"
    for seat, player in enumerate(players):
        if not isinstance(player, dict) or not isinstance(player.get("name"), str):
            return f"player {seat} has no name"
    result = record.get("result")
    if not isinstance(result, dict):
        return f"its result is not an object but {type(result).__name__}"
    winners = result.get("winners")
    if not isinstance(winners, list):
        return "its result has no list of winners"
    for winner in winners:
        if type(winner) is not int or not 0 <= winner < len(players):
            return f"its result names winner {str(winner)[:40]} but it had {len(players)} players"
    return None


def _export(journal: Journal, game: str | None, out: str) -> int:
    games, skipped = _readable(journal.finished(game)[::-1])  # oldest first, as they were played
    skipped += len(journal.skipped)  # unreadable rows: the journal's log says which
    from firmware.verify import revealed

    lines = "".join(json.dumps(revealed(g.record, g.meta, g.status)) + "\n" for g in games)
    if out == "-":
        sys.stdout.write(lines)
        return 1 if skipped else 0
    try:
        Path(out).write_text(lines, encoding="utf-8")
    except OSError as exc:
        print(
            "xtraboard records: " + _("cannot write {file}: {error}").format(file=out, error=exc.strerror or exc),
            file=sys.stderr,
        )
        return 1
    print(
        ngettext("{n} game record written to {file}", "{n} game records written to {file}", len(games)).format(
            n=len(games), file=out
        ),
        file=sys.stderr,
    )
    return 1 if skipped else 0


def _list(journal: Journal, game: str | None, limit: int | None, out: TextIO) -> int:
    games, skipped = _readable(journal.finished(game, limit))
    skipped += len(journal.skipped)  # unreadable rows: the journal's log says which
    for stored in games:
        out.write(list_line(stored) + "\n")
    return 1 if skipped else 0


def _audit(journal: Journal, game: str | None, as_csv: bool, out: TextIO) -> int:
    from firmware.audit import audit_lines, game_rows, write_csv

    games = [g for g in journal.all_games() if game is None or g.record.get("game") == game]
    if as_csv:
        write_csv(game_rows(games), out)
    else:
        from firmware.operator_code import gate_counts

        out.writelines(line + "\n" for line in audit_lines(games, operator_code=gate_counts(journal)))
    return 1 if journal.skipped else 0  # unreadable rows: the journal's log says which


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
            out.writelines(
                f"  {rank:>2}. {who}  {n} {'win' if n == 1 else 'wins'}\n" for rank, (who, n) in enumerate(wins, 1)
            )
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


def _seat(player: Mapping[str, object]) -> str:
    notes = [f"bot {player['bot']}"] if player.get("bot") else []
    notes += ["kids"] if player.get("kids") else []
    return (
        f"{player['name']} ({', '.join(notes)})" if notes else str(player["name"])
    )  # a name: record_problem checked it


def _date(timestamp: float) -> str:
    return datetime.fromtimestamp(timestamp).strftime("%Y-%m-%d %H:%M")  # the board's local time
