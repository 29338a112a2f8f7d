"""A fourth game needs its own package and one line to load it, nothing else.

`examples/highdie/` ("High die") is built step by step as docs/adding-a-game.md says: the engine
(`rules.py`), the view (`screens.py`), its words (`text.py`), the bots (`bots.py`), `SPEC` in `__init__.py`. This file
follows the walkthrough's last steps with it: loaded as a plug-in (`load_game_module`,
`--game-module`, `XTRABOARD_GAMES`), it is reached the way a person and the rest of the board reach
the built-in games: the main menu, the rules page, seats, a whole game through button events with
the legend, the explanation of each move and a hint, the fleet's view of the table, the journal's
records and high scores, `records export`/`best`, `replay`, `selfplay`, `bench engines`/`bots`,
`xtraboard engine` and scenario dice.
"""

from __future__ import annotations

import io
import json
import os
import re
import subprocess
import sys
from collections.abc import Iterator
from contextlib import redirect_stderr, redirect_stdout
from pathlib import Path

import pytest

from examples.highdie import SPEC
from examples.highdie.rules import Again, Keep
from firmware.cli import main
from firmware.dice import SeededDice
from firmware.errors import ConfigError, RecordError
from firmware.fleet import table_state
from firmware.games import Roll, find_game, game_names, new_game
from firmware.games.registry import GAMES_ENV, GameSpec, games, load_game_module, unregister_game
from firmware.records import replay_record
from firmware.selfplay import selfplay_games
from sim.app import choose
from sim.board import SimBoard
from sim.scenario import parse_scenario

ROOT = Path(__file__).resolve().parent.parent
DOC = ROOT / "docs" / "adding-a-game.md"


@pytest.fixture
def toy(monkeypatch: pytest.MonkeyPatch) -> Iterator[GameSpec]:
    """High die loaded as the walkthrough's plug-in step says; gone again afterwards (the
    environment too: `--game-module` sets it for the processes a command starts)."""
    monkeypatch.setenv(GAMES_ENV, "")
    spec = load_game_module("examples.highdie")
    yield spec
    unregister_game(spec.name)


def run_cli(*argv: str) -> tuple[int, str, str]:
    out, err = io.StringIO(), io.StringIO()
    with redirect_stdout(out), redirect_stderr(err):
        code = main(["--game-module", "examples.highdie", *argv])
    return code, out.getvalue(), err.getvalue()


# --- the walkthrough as written ----------------------------------------------------------------
def test_the_walkthrough_names_the_files_and_hooks_the_example_has() -> None:
    text = DOC.read_text(encoding="utf-8")
    for name in (
        "rules.py",
        "screens.py",
        "text.py",
        "bots.py",
        "__init__.py",
        "GameView",
        "Words",
        "register_game",
        "--game-module",
        GAMES_ENV,
        "BUILTIN",
        "examples/highdie",
    ):
        assert name in text, name
    folder = ROOT / "examples" / "highdie"
    assert {"__init__.py", "rules.py", "screens.py", "text.py", "bots.py"} <= {p.name for p in folder.iterdir()}
    assert "examples.highdie.screens:VIEW" == SPEC.view and "examples.highdie.text:WORDS" == SPEC.words


def test_the_registry_describes_the_builtin_games_once() -> None:
    assert game_names() == ("exxtra", "levelx", "extra")
    extra = find_game("extra")
    assert (extra.title, extra.players, len(extra.dice), extra.seat_options) == ("EXTRA!", range(1, 7), 5, ("kids",))
    assert find_game("exxtra").ranking.high_scores is False  # a race
    assert all(spec.levels for spec in games())
    with pytest.raises(RecordError, match="unknown game 'go'"):
        find_game("go")


def test_a_module_that_is_not_a_game_is_refused_in_one_line() -> None:
    with pytest.raises(ConfigError, match="game module 'examples' defines no SPEC"):
        load_game_module("examples")
    buffer = io.StringIO()
    with redirect_stderr(buffer):
        assert main(["--game-module", "nope.game", "selfplay", "highdie"]) == 2
    assert buffer.getvalue() == "xtraboard: game module 'nope.game' cannot be imported: No module named 'nope'\n"


# --- the board: menu, rules page, a whole game by buttons ---------------------------------------
def test_its_rules_page_opens_from_the_main_menu(toy: GameSpec, tmp_path: Path) -> None:
    board = SimBoard(seed=1, state_dir=tmp_path)
    choose(board, "Rules")
    choose(board, "High die")
    assert type(board.app.screen).__name__ == "RulesScreen"
    text = board.screen_text()
    assert text[0] == "High die" and "Roll one die. Keep it, or" in " ".join(text)
    pages = len(board.app.screen.pages)
    assert f"1/{pages}" in text
    seen = " ".join(text)
    for _page in range(pages - 1):
        board.tap("right")
        seen += " " + " ".join(board.screen_text()[1:])
    assert "The highest total wins." in " ".join(seen.split())
    board.tap("ok")
    assert type(board.app.screen).__name__ != "RulesScreen"
    board.close()


def test_a_game_is_offered_and_played_through_the_buttons(toy: GameSpec, tmp_path: Path) -> None:
    board = SimBoard(seed=3, state_dir=tmp_path)
    assert "Play High die" in [o.label for o in board.app.screen.choice.options]
    choose(board, "Play High die")
    choose(board, "2 players")
    board.tap("right")  # seat 1: person -> bot
    board.tap("ok")
    board.tap("ok")  # seat 2 stays a person
    app = board.app
    state = table_state(app, attract=False)
    assert (state["status"], state["game"], state["title"], state["round"]) == ("playing", "highdie", "High die", 1)
    explained, legend, hinted, rounds = [], False, False, set()
    presses = 0
    while app.session is not None and not app.session.over and presses < 200:
        session = app.session
        line = app.help.shown_explanation(session)
        if line is not None and app.animation is None:
            explained.append(line)
            assert line[:12] in " ".join(board.screen_text())
        if session.game.legal_decisions() and not session.pending_bot() and not legend:
            board.hold("roll")  # the legend of the play screen while a person decides
            board.settle()
            assert app.help.legend and "<> choose  OK pick" in " ".join(board.screen_text())
            board.hold("roll")
            legend = True
        if session.game.legal_decisions() and not session.pending_bot() and not hinted:
            board.press("left")  # LEFT and RIGHT together: the strongest bot's hint
            board.press("right")
            board.release("right")
            board.release("left")
            board.wait(0.1)
            assert re.fullmatch(r"Hint: \d is (good|low): keep 4 or more", app.note or ""), app.note
            hinted = True
        rounds.add(table_state(app, attract=False)["round"])
        board.tap("roll" if session.awaiting_roll else "ok")
        board.wait(2.0)  # the bot's pace
        presses += 1
    game = app.session.game
    assert game.is_over() and "High die: result" in app.screen.title
    assert legend and hinted and rounds == {1, 2}
    assert any(re.fullmatch(r"\w+ keeps \d \(\d+\)", line) for line in explained), explained

    over = table_state(app, attract=False)
    names = [p.name for p in game.players]
    assert over["status"] == "over" and over["result"]["scores"] == game.result()["scores"]
    assert over["result"]["summary"].endswith("High die") and over["result"]["players"] == names

    stored = board.journal.finished()[0]
    assert stored.record["game"] == "highdie" and stored.record["players"][0]["bot"] == "easy"
    assert replay_record(stored.record).result() == game.result()
    best = board.journal.best_scores("highdie")
    assert [e.name for e in best] == [game.players[1].name]  # people only
    board.close()

    code, out, _err = run_cli("records", "best", "--state-dir", str(tmp_path), "--game", "highdie")
    assert code == 0 and out.startswith("High die\n  high scores:\n   1. ")
    export = tmp_path / "export.jsonl"
    code, _out, err = run_cli("records", "export", "--state-dir", str(tmp_path), "--out", str(export))
    assert code == 0 and "1 game record written" in err
    record = tmp_path / "game.json"
    record.write_text(export.read_text(encoding="utf-8").splitlines()[0], encoding="utf-8")
    code, out, _err = run_cli("replay", str(record))
    assert code == 0 and json.loads(out)["result"] == game.result()


# --- the commands: selfplay, bench, engine -------------------------------------------------------
def test_selfplay_bench_and_scenarios_take_it(toy: GameSpec) -> None:
    played = list(selfplay_games("highdie", 2, seed=5, count=3))
    assert all(replay_record(g.to_record()).result() == g.result() for g in played)

    code, out, _err = run_cli("selfplay", "highdie", "--players", "1", "--seed", "1")
    assert code == 0 and json.loads(out)["game"] == "highdie"

    code, out, _err = run_cli("bench", "engines", "--seconds", "0.02")
    figures = dict(line.split(": ") for line in out.splitlines())
    assert code == 0 and float(figures["highdie_games_per_s"]) > 0

    code, out, _err = run_cli("bench", "bots", "--games", "2", "--solo-games", "2", "--game", "highdie")
    figures = dict(line.split(": ") for line in out.splitlines())
    assert code == 0 and float(figures["highdie_solo_easy_mean_score"]) > 0

    text = 'name = "toy"\ndescription = "High die by scripted dice"\ndice = "scripted"\n[[step]]\ndice = [[6]]\n'
    assert parse_scenario(text, Path("toy.toml")).steps[0].rolls == ((6,),)


@pytest.mark.parametrize("how", ["--game-module", GAMES_ENV])
def test_the_engine_protocol_plays_it(toy: GameSpec, how: str) -> None:
    game = new_game("highdie", ["Ann", "Ben"])
    game.apply(Roll((3,)))
    position = "position " + json.dumps(game.to_record())
    argv = [sys.executable, "-m", "firmware", "engine"]
    env = dict(os.environ, **{GAMES_ENV: "examples.highdie"}) if how == GAMES_ENV else dict(os.environ)
    if how == "--game-module":
        argv[3:3] = ["--game-module", "examples.highdie"]
    done = subprocess.run(
        argv,
        input=f"xdp\n{position}\ngo\nquit\n",
        capture_output=True,
        text=True,
        cwd=ROOT,
        env=env,
        timeout=60,
        check=True,
    )
    assert done.stderr == ""
    move = json.loads(done.stdout.splitlines()[-1].removeprefix("bestmove "))
    assert move == {"do": "again"}  # a 3 is low: the easy (and strongest) level rolls again


def test_a_new_game_gets_undo_and_copy_without_writing_them(toy: GameSpec) -> None:
    game = new_game("highdie", ["A", "B"])
    game.apply(Roll((3,)))
    twin = game.copy()
    game.apply(Again())
    game.apply(Roll((6,)))
    game.apply(Keep())
    assert game.totals == [6, 0] and twin.totals == [0, 0] and twin.legal_decisions() == [Keep(), Again()]
    for _ in range(3):
        game.undo()
    assert (game.face, game.again_used, game.totals) == (3, False, [0, 0])
    assert replay_record(game.to_record()).legal_decisions() == game.legal_decisions()

    fresh = new_game("highdie", ["Solo"])
    fresh.roll(SeededDice(2))
    assert fresh.legal_decisions() == [Keep(), Again()]
