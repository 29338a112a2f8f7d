"""`xtraboard sim`: the simulator, in a window (default) or headless.

xtraboard sim                                   # the window (keys: R roll, Enter OK,
                                                #   Backspace back, arrows; or click)
xtraboard sim --headless --scenario FILE [--screenshot out.png]
xtraboard sim --headless --demo GAME --seats N --seed S --record OUT.json [--screenshot out.png]
xtraboard sim --headless --debug-port PORT      # a board for `xtraboard hil` (docs/hil.md)
xtraboard sim --headless --demo GAME --board hardware/boards/ssd1322.toml --display-image oled.png
xtraboard sim --headless --demo GAME --lang de  # in German (de, en, fr; xx: the pseudo-locale)
"""

from __future__ import annotations

import argparse
import json
import math
import sys
from pathlib import Path
from typing import TYPE_CHECKING

from firmware.commands import add_board_option, add_lang_option, add_state_dir_option
from firmware.errors import ConfigError, XtraboardError
from firmware.games import game_class, game_names
from firmware.i18n import _, tr

if TYPE_CHECKING:
    from sim.board import SimBoard


class DemoError(XtraboardError, RuntimeError):
    """The demo could not find its way through the board's menus."""


def speed(text: str) -> float | None:
    """argparse type of --speed: a positive factor; 0 means as fast as possible (None: the fake clock).

    >>> speed("2.5"), speed("0")
    (2.5, None)
    """
    try:
        value = float(text)
    except ValueError:
        value = math.nan
    if not math.isfinite(value) or value < 0:
        raise argparse.ArgumentTypeError(
            _("must be a number above 0 (or 0: as fast as possible), not {text}").format(text=text[:40])
        )
    return value or None


def screenshot(text: str) -> Path:
    """argparse type of --screenshot: a file to write in a folder that exists (checked up front,
    so a long demo does not end in an error)."""
    path = Path(text)
    if path.is_dir():
        raise argparse.ArgumentTypeError(_("{file} is a folder; name the PNG file to write").format(file=text))
    if not path.parent.is_dir():
        raise argparse.ArgumentTypeError(_("the folder {folder} does not exist").format(folder=path.parent))
    return path


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--headless", action="store_true", help=_("no window: run a scenario or a demo"))
    parser.add_argument("--scenario", type=Path, metavar="FILE", help=_("a scenario (TOML, see docs/scenarios.md)"))
    parser.add_argument("--demo", choices=game_names(), metavar="GAME", help=_("a bots-only game of GAME"))
    parser.add_argument("--seats", type=int, metavar="N", help=_("seats in the demo"))
    parser.add_argument("--seed", type=int, metavar="S", help=_("dice and bots seed (reproducible)"))
    parser.add_argument("--record", type=Path, metavar="OUT", help=_("write the demo's game record here"))
    parser.add_argument(
        "--screenshot", type=screenshot, metavar="PNG", help=_("save the simulator's picture at the end")
    )
    parser.add_argument(
        "--display-image",
        type=screenshot,
        metavar="PNG",
        help=_("headless: save the display's own pixels 1:1 at the end (the panel's width × height)"),
    )
    add_state_dir_option(parser, _("keep games here (journal); a killed demo restarted with it continues"))
    add_board_option(parser)
    parser.add_argument(
        "--speed",
        type=speed,
        metavar="X",
        help=_(
            "demo: run its clock X times faster than real time instead of instantly (0: instantly, as without --speed)"
        ),
    )
    parser.add_argument("--kiosk", action="store_true", help=_("resume the unfinished game at start"))
    add_lang_option(
        parser,
        _(
            "the board's language: de, en or fr (xx: the pseudo-locale; default: its settings,"
            " else the board description's language)"
        ),
    )
    parser.add_argument("--frames", type=int, metavar="N", help=_("window: quit after N frames (tests, smoke runs)"))
    parser.add_argument(
        "--true-size",
        action="store_true",
        help=_("window: show the OLED at its physical size beside the board (docs/simulator.md)"),
    )
    parser.add_argument(
        "--dpi",
        type=float,
        metavar="DPI",
        help=_("window: your screen's pixels per inch for --true-size (default: from SDL, else 96)"),
    )
    parser.add_argument(
        "--debug-port",
        type=int,
        metavar="PORT",
        help=_(
            "headless: serve a simulated board's debug service on 127.0.0.1:PORT for "
            "`xtraboard hil` (0: any free port); its clock is fake unless --speed is given"
        ),
    )


def run(args: argparse.Namespace) -> int:
    try:
        if args.demo:
            return run_demo(args)
        if args.headless and args.debug_port is not None:
            from sim.hil.serve import run_served

            return run_served(args)
        if args.scenario:
            from sim.scenario import run_scenario_file

            return run_scenario_file(
                args.scenario,
                board_file=args.board,
                screenshot=args.screenshot,
                state_dir=args.state_dir,
                display_image=args.display_image,
                language=args.lang,
            )
        if args.headless:
            print(_("xtraboard sim --headless needs --scenario FILE or --demo GAME"), file=sys.stderr)
            return 2
        from sim.window import run_window

        return run_window(args)
    except (ConfigError, XtraboardError, OSError) as exc:
        print(f"xtraboard sim: {tr(exc)}", file=sys.stderr)
        return 2


def run_demo(args: argparse.Namespace) -> int:
    """A bots-only game through the whole firmware: menu presses, screens, LED scenes."""
    from sim.board import SimBoard

    cls = game_class(args.demo)
    seats = args.seats if args.seats is not None else cls.min_players
    if not cls.min_players <= seats <= cls.max_players:
        print(
            "xtraboard sim: "
            + _("{game} is for {low} to {high} players, not {count}").format(
                game=cls.title, low=cls.min_players, high=cls.max_players, count=seats
            ),
            file=sys.stderr,
        )
        return 2
    seed = args.seed if args.seed is not None else 0
    board = SimBoard(
        board_file=args.board,
        seed=seed,
        state_dir=args.state_dir,
        speed=args.speed,
        language=args.lang,
        kiosk=args.kiosk,
    )
    try:
        if not resume_same_demo(board, args.demo, seats, seed):
            waiting = board.journal.unfinished() if board.journal is not None else None
            if waiting is not None:
                name = waiting.record.get("game")
                title = game_class(name).title if name in game_names() else str(name)[:40]
                print(
                    "xtraboard sim: "
                    + _(
                        "the unfinished {game} game (game {id} in the journal) is set aside for the "
                        "demo; the journal keeps it"
                    ).format(game=title, id=waiting.id),
                    file=sys.stderr,
                )
            start_demo(board, args.demo, seats)
        board.settle()
        session = board.app.session
        if session is None or not session.over:
            print("xtraboard sim: " + _("the demo did not finish"), file=sys.stderr)
            return 1
        record = session.record()  # with the revealed dice seed: `xtraboard verify` checks it
        if args.record:
            args.record.write_text(json.dumps(record, indent=1) + "\n", encoding="utf-8")
        if args.screenshot:
            from sim.screenshot import save_screenshot

            save_screenshot(board, args.screenshot)
        if args.display_image:
            from sim.screenshot import save_display_image

            save_display_image(board, args.display_image)
        print(
            json.dumps(
                {"game": args.demo, "steps": len(record["steps"]), "result": record["result"]}
                | ({"kiosk": board.app.kiosk} if args.kiosk else {})
            )
        )
        return 0
    finally:
        board.close()


def resume_same_demo(board: SimBoard, game: str, seats: int, seed: int) -> bool:
    """Continue the journal's unfinished demo if it is this one (same game, seats and seed)."""
    journal = board.journal
    stored = journal.unfinished() if journal is not None else None
    if stored is None:
        return False
    meta = stored.meta or {}
    same = (
        stored.record.get("game") == game
        and len(stored.record.get("players", ())) == seats
        and meta.get("mode") == "demo"
        and meta.get("seed") == seed
    )
    if not same:
        return False
    from firmware.ui.menus import resume

    resume(board.app)
    board.board.render()
    return board.app.session is not None


def start_demo(board: SimBoard, game: str, seats: int) -> None:
    """Main menu → Demo → GAME → N players, by button presses like a person (in the board's
    language: the labels are the menus' own)."""
    from firmware.ui.menus import SavedGameScreen, players_label

    choose(board, _("Demo"))
    if isinstance(board.app.screen, SavedGameScreen):  # a game waits to be resumed: the board asks
        choose(board, _("Discard it"))  # set aside, kept in the journal (run_demo says so)
    choose(board, game_class(game).title)
    choose(board, players_label(seats))


def choose(board: SimBoard, label: str) -> None:
    """Move the cursor of the menu on screen to `label` and press OK, as a person would. (A note
    is a banner over the screen, never a screen of its own, so it cannot hide the menu.)"""
    choice = getattr(board.app.screen, "choice", None)
    if choice is None:
        raise DemoError(
            _("the demo looks for {label} but the board shows {title}, not a menu").format(
                label=repr(label), title=repr(board.app.screen.title)
            )
        )
    for _tap in range(len(choice.options)):
        if choice.current.label == label:
            board.tap("ok")
            return
        board.tap("right")
    raise DemoError(_("menu {title} has no {label}").format(title=repr(board.app.screen.title), label=repr(label)))
