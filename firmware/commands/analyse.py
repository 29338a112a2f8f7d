"""`xtraboard analyse RECORD [--json]`: rate each person's decision of a game record with the
strong bot's evaluator (firmware/coach.py): the value of the choice made and of the best choice
(the expected final outcome, in the game's unit), the loss, and what the strong bot would have done."""

from __future__ import annotations

import argparse
import json
import sys
from firmware.games.base import Game

from firmware.commands import add_lang_option
from firmware.errors import RecordError
from firmware.i18n import _, fixed, tr


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("file", metavar="RECORD", help=_("a game record (JSON), or - for standard input"))
    parser.add_argument("--json", action="store_true", help=_("print one JSON object instead of text"))
    add_lang_option(
        parser, _("the language of the text: moves worded as the board words them (default: the environment's)")
    )
    parser.add_argument(
        "--seat",
        type=int,
        action="append",
        metavar="N",
        help=_("rate seat N (counted from 0) whoever played it; repeatable (default: every person's seat)"),
    )


def run(args: argparse.Namespace) -> int:
    from firmware.coach import analyse, key_moments
    from firmware.games import find_game
    from firmware.records import read_record
    from firmware.ui.moments import describe_both, shown_dice, unit_of

    try:
        record = read_record(args.file)
        game, ratings = analyse(record, args.seat)
    except RecordError as exc:
        print(f"xtraboard analyse: {tr(exc)}", file=sys.stderr)
        return 2
    seats = sorted(set(args.seat)) if args.seat else [s for s, p in enumerate(game.players) if p.bot is None]
    bad = [s for s in seats if not 0 <= s < len(game.players)]
    if bad:
        print(
            "xtraboard analyse: "
            + _("no seat {seat}: the game has seats 0 to {last}").format(seat=bad[0], last=len(game.players) - 1),
            file=sys.stderr,
        )
        return 2
    moments = key_moments(ratings)
    positions: dict[int, Game] = {}  # history index -> the position before it
    replay = type(game).for_record(game.players, game.record_version)
    wanted = {r.index for r in ratings}
    for index, step in enumerate(game.history):
        if index in wanted:
            positions[index] = replay.copy()
        replay.apply(step)
    unit = unit_of(game)
    names = [p.name for p in game.players]
    if args.json:
        summary = {
            "game": game.name,
            "unit": find_game(game.name).unit,  # English: a key, not a text
            "players": names,
            "seats": seats,
            "over": game.is_over(),
            "decisions": [{**r.to_json(), "dice": list(shown_dice(positions[r.index]))} for r in ratings],
            "key_moments": {str(s): [r.index for r in moments.get(s, [])] for s in seats},
            "loss": {str(s): round(sum(r.loss for r in ratings if r.player == s), 2) for s in seats},
        }
        print(json.dumps(summary, ensure_ascii=False))
        return 0
    if not seats:
        print(_("{game}: no person played; rate a bot's seat with --seat N").format(game=game.title))
        return 0
    print(_("{game}: values are the strong bot's expected final outcome, in {unit}").format(game=game.title, unit=unit))
    for seat in seats:
        mine = [r for r in ratings if r.player == seat]
        total = sum(r.loss for r in mine)
        print()
        print(
            _("{name} (seat {seat}): {n} decisions, {loss} {unit} lost in all").format(
                name=names[seat], seat=seat, n=len(mine), loss=fixed(total), unit=unit
            )
        )
        for r in mine:
            past = positions[r.index]
            dice = " ".join(str(f) for f in shown_dice(past))
            # Translators: xtraboard analyse: a person's decision {n} (counted from 1), the dice, the move and its value.
            line = "  " + _("{n}. dice {dice}: {played} ({value})").format(
                n=f"{r.turn + 1:>3}",
                dice=dice,
                played=describe_both(past, r.played, r.best)[0],
                value=fixed(r.value),
            )
            if r.loss > 0:
                line += "  " + _("best: {best} ({value}), loss {loss}").format(
                    best=describe_both(past, r.best, r.played)[0], value=fixed(r.best_value), loss=fixed(r.loss)
                )
            if r.strong != r.played:
                line += "  " + _("strong: {move}").format(move=describe_both(past, r.strong, r.played)[0])
            print(line)
        if moments.get(seat):
            worst = ", ".join(
                _("decision {n} (-{loss})").format(n=r.turn + 1, loss=fixed(r.loss)) for r in moments[seat]
            )
            print("  " + _("Key moments: {moments}").format(moments=worst))
    return 0
