"""The coach (firmware/coach.py): the strong evaluator's calibrated estimates, the rating of a
decision, `xtraboard analyse` on real records, the calibration's fit and table, and the board's
Key moments at the end of a game."""

from __future__ import annotations

import json
import random
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from firmware import coach
from firmware.coach import NoCoach, Rating, analyse, estimate, key_moments, mapping, rate, write_calibration
from firmware.dice import SeededDice
from firmware.games import Player, Roll, find_game, game_names, new_game
from firmware.games.exxtra.rules import Place, Reroll
from firmware.games.levelx.rules import TurnOnes
from firmware.hardware.buttons import ButtonEvent
from firmware.loop import EventLoop, FakeClock
from firmware.ui.app import BoardApp
from firmware.ui.colours import DEFAULT_ORDER
from firmware.ui.moments import KEY_MOMENTS, MomentsScreen, describe_both, describe_decision, moment_text, shown_dice
from firmware.ui.play import ResultScreen
from firmware.table import Seat
from sim.bench.calibration import exact_pass_share, fit, markdown, table_rows
from support import play_on

ROOT = Path(__file__).resolve().parent.parent


def record_of(game: str, players: list[Player], seed: int) -> dict:
    """A finished game: random decisions for the persons, the bots' own for bot seats."""
    from firmware.bots import choose

    rng = random.Random(seed)
    played = new_game(game, players)

    def decide(g):
        seat = g.players[g.pending().player]
        return choose(g, rng, seat.bot) if seat.bot else rng.choice(g.legal_decisions())

    return play_on(played, SeededDice(f"coach:{seed}"), decide=decide).to_record()


# --- estimates and ratings ----------------------------------------------------------------------------
@pytest.mark.parametrize("game", game_names())
def test_every_built_in_game_names_its_evaluator_and_the_hint_shows_its_figure(game: str) -> None:
    spec = find_game(game)
    assert spec.evaluator is not None
    played = new_game(game, [f"P{i}" for i in range(spec.benchmark_players)])
    played.roll(SeededDice("hint"))
    decisions = played.legal_decisions()
    values = estimate(played, decisions)
    assert len(values) == len(decisions) and all(isinstance(v, float) for v in values)
    figure = estimate(played, [decisions[0]])[0]
    reason = spec.hint_reason(played, decisions[0])
    shown = {
        "extra": f"{figure:.0f}",
        "exxtra": f"space {min(max(round(figure), 0), 21)}",  # a whole space of the track
        "levelx": f"end {abs(round(figure))} point",  # whole points ahead or behind
    }[game]
    assert shown in reason, (reason, figure)


def test_the_mapping_is_read_from_the_calibration_and_falls_back_to_the_raw_figure(tmp_path, monkeypatch) -> None:
    path = tmp_path / "calibration.json"
    write_calibration({"exxtra": {3: [(0.5, 4.0), (1.0, 1.0)], 5: [(2.0, 0.0)]}}, path)
    monkeypatch.setattr(coach, "CALIBRATION", path)
    coach._read.cache_clear()
    try:
        assert mapping("exxtra", 3, 0) == (0.5, 4.0)
        assert mapping("exxtra", 3, 7) == (1.0, 1.0)  # beyond the last index learnt: the last
        assert mapping("exxtra", 6, 0) == (2.0, 0.0)  # the nearest player count
        assert mapping("levelx", 2, 0) == (1.0, 0.0)  # none learnt: the raw figure
        game = new_game("exxtra", ["A", "B", "C"])
        game.apply(Roll(("7", "6")))
        raw = coach.raw_values(game, [Place(5)])[0]
        assert estimate(game, [Place(5)]) == [0.5 * raw + 4.0]
        path.write_text("{not json", encoding="utf-8")
        coach._read.cache_clear()
        with pytest.raises(ValueError, match="calibration"):
            mapping("exxtra", 3, 0)
    finally:
        coach._read.cache_clear()


def test_a_rating_never_finds_a_negative_loss_and_the_best_is_as_good_as_any() -> None:
    game = new_game("exxtra", ["A", "B", "C"])
    game.apply(Roll(("7", "6")))
    for decision in game.legal_decisions():
        rating = rate(game, decision)
        assert rating.loss >= 0 and rating.best_value >= rating.value
        assert rating.best_value == max(estimate(game, game.legal_decisions()))
        assert rating.strong in game.legal_decisions()
    assert game.history == [Roll(("7", "6"))]  # the game is left as it was


@pytest.mark.parametrize("game", game_names())
def test_analyse_rates_every_persons_decision_and_no_bots(game: str) -> None:
    spec = find_game(game)
    players = [Player("Alex"), Player("Bea", bot="medium")] + [
        Player(f"P{i}", bot="easy") for i in range(max(0, spec.players.start - 2))
    ]
    record = record_of(game, players, seed=4)
    final, ratings = analyse(record)
    person = [i for i in range(len(final.history)) if final.actor(i) == 0]
    assert [r.index for r in ratings] == person and {r.player for r in ratings} == {0}
    assert [r.turn for r in ratings] == list(range(len(person)))
    assert all(r.loss >= 0 for r in ratings)
    moments = key_moments(ratings)
    assert 0 < len(moments[0]) <= 3
    assert [m.loss for m in moments[0]] == sorted((m.loss for m in moments[0]), reverse=True)
    assert moments[0][0].loss == max(r.loss for r in ratings)
    _, bots = analyse(record, seats=[1])
    assert {r.player for r in bots} == {1}


def test_key_moments_are_the_costliest_three_of_each_person() -> None:
    def rating(index: int, player: int, loss: float) -> Rating:
        return Rating(index, player, index, Reroll(), -loss, Place(0), 0.0, Place(0), 0.0)

    ratings = [rating(1, 0, 2.0), rating(2, 0, 0.0), rating(3, 0, 5.0), rating(4, 0, 2.0), rating(5, 0, 1.0)]
    ratings += [rating(6, 1, 0.01)]  # too small to tell
    moments = key_moments(ratings)
    assert [r.index for r in moments[0]] == [3, 1, 4]
    assert 1 not in moments or moments[1] == []


def test_a_game_without_evaluator_cannot_be_analysed(monkeypatch: pytest.MonkeyPatch) -> None:
    from firmware.games.registry import load_game_module, unregister_game

    monkeypatch.syspath_prepend(str(ROOT))  # the examples' package
    spec = load_game_module("examples.highdie")
    try:
        assert spec.evaluator is None
        record = new_game(spec.name, ["A", "B"]).to_record()
        with pytest.raises(NoCoach, match="no evaluator"):
            analyse(record)
    finally:
        unregister_game(spec.name)


def test_a_decision_is_worded_as_the_board_says_it() -> None:
    game = new_game("exxtra", ["Alex", "Bea", "Carl"])
    game.apply(Roll(("7", "6")))
    assert describe_decision(game, Place(5)) == "Alex placed 76 on rung 5"
    assert describe_decision(game, Reroll()) == "Alex rolled again"
    assert shown_dice(game) == ("7", "6")
    levelx = new_game("levelx", ["Alex", "Bea"])
    levelx.apply(Roll((1, 1, 4, 4)))
    assert describe_both(levelx, TurnOnes((6,)), TurnOnes((5,))) == (
        "Alex turned one 1: 6 1 4 4",
        "Alex turned one 1: 5 1 4 4",
    )  # the log says the dice they leave


# --- the command ---------------------------------------------------------------------------------------
def run_analyse(*args: str, stdin: str | None = None, cache: Path | None = None) -> subprocess.CompletedProcess[str]:
    env = {"PATH": "/usr/bin:/bin", "LANG": "C.UTF-8"}
    if cache is not None:  # the catalogs compiled for this checkout, not another's in a shared cache
        env["XDG_CACHE_HOME"] = str(cache)
    return subprocess.run(
        [sys.executable, "-m", "firmware", "analyse", *args],
        cwd=ROOT,
        input=stdin,
        capture_output=True,
        text=True,
        timeout=300,
        env=env,
    )


def test_the_analyse_command_prints_text_and_json_for_a_real_record(tmp_path) -> None:
    record = record_of("levelx", [Player("Alex"), Player("Bea", bot="strong")], seed=2)
    path = tmp_path / "game.json"
    path.write_text(json.dumps(record), encoding="utf-8")
    text = run_analyse(str(path))
    assert text.returncode == 0, text.stderr
    assert "Alex (seat 0)" in text.stdout and "Bea (seat 1)" not in text.stdout
    assert "Key moments" in text.stdout and "lost in all" in text.stdout
    german = run_analyse("--lang", "de", str(path), cache=tmp_path / "cache")
    assert german.returncode == 0 and "Entscheidungen" in german.stdout and "gespielt" not in german.stdout
    out = run_analyse("--json", "-", stdin=json.dumps(record))
    assert out.returncode == 0, out.stderr
    data = json.loads(out.stdout)
    _, ratings = analyse(record)
    assert data["game"] == "levelx" and data["seats"] == [0] and data["unit"] == "pts"
    assert [d["step"] for d in data["decisions"]] == [r.index for r in ratings]
    assert all(d["loss"] >= 0 and d["best_value"] >= d["value"] for d in data["decisions"])
    assert data["loss"]["0"] == pytest.approx(sum(r.loss for r in ratings), abs=0.05)
    assert set(data["decisions"][0]) >= {"played", "best", "strong", "value", "best_value", "loss", "dice"}


@pytest.mark.parametrize(
    ("content", "message"),
    [
        ("{not json", "is not valid JSON"),
        ('{"format": "xtraboard-record", "version": 2, "game": "chess", "players": [], "steps": []}', "'game'"),
        (
            '{"format": "xtraboard-record", "version": 2, "game": "exxtra", "players": '
            '[{"name": "A"}, {"name": "B"}, {"name": "C"}], "steps": [{"do": "reroll"}]}',
            "step 0",
        ),
    ],
)
def test_a_bad_record_is_one_clear_line_and_exit_2(tmp_path, content: str, message: str) -> None:
    path = tmp_path / "bad.json"
    path.write_text(content, encoding="utf-8")
    result = run_analyse(str(path))
    assert result.returncode == 2 and result.stdout == ""
    assert result.stderr.startswith("xtraboard analyse: ") and message in result.stderr
    assert len(result.stderr.strip().splitlines()) == 1


# --- the calibration -----------------------------------------------------------------------------------
def test_the_fit_learns_the_line_from_raw_figure_to_outcome_through_the_means() -> None:
    rng = random.Random(1)
    samples = []
    for _ in range(400):
        for index in range(3):
            raw = rng.uniform(-100, 100)
            samples.append((index, raw, 0.5 * raw - 40 + 10 * index))
    fits = fit(samples)
    assert len(fits) == 3
    for index, (slope, intercept) in enumerate(fits):
        assert slope == pytest.approx(0.5, abs=0.01) and intercept == pytest.approx(-40 + 10 * index, abs=0.5)
    assert fit([(0, 1.0, 2.0)] * 5) == []  # too few samples to learn from
    # an index where the raw figure hardly varies borrows the slope the others share
    flat = [(0, 7.0 + rng.uniform(-0.01, 0.01), rng.uniform(-50, 50)) for _ in range(200)]
    slope, intercept = fit(flat + [s for s in samples if s[0] == 1])[0]
    assert slope == pytest.approx(0.5, abs=0.05)


def test_the_table_compares_the_figure_shown_with_the_outcome() -> None:
    samples = [(0, float(v), float(v) + 1) for v in range(200)] + [(1, 0.0, 50.0)] * 50
    rows = table_rows("levelx", 9, samples)  # no mapping learnt for 9 seats... the nearest count's
    slope, intercept = mapping("levelx", 9, 0)
    assert [row["index"] for row in rows] == [0]  # index 1 has too few samples
    assert rows[0]["samples"] == 200
    assert rows[0]["shown"] == pytest.approx(slope * 99.5 + intercept)
    assert rows[0]["outcome"] == pytest.approx(100.5)
    assert rows[0]["allowed"] == pytest.approx(10.05)
    text = markdown("levelx", 2, 10, rows)
    assert "| decision | samples |" in text and "LEVEL X" in text


def test_the_gaps_standard_error_counts_a_games_seats_as_one_draw() -> None:
    # four seats per game sharing the game's luck: the gap moves with the game, not the seat
    rng = random.Random(3)
    luck = [rng.gauss(0, 50) for _ in range(100)]
    shared = [(0, 0.0, luck[game] + rng.gauss(0, 1), game) for game in range(100) for _seat in range(4)]
    alone = [(index, raw, result) for index, raw, result, _game in shared]
    by_game, by_sample = table_rows("levelx", 4, shared)[0]["se"], table_rows("levelx", 4, alone)[0]["se"]
    assert by_game == pytest.approx(2 * by_sample, rel=0.1)  # √4 seats: the naive error is half


def test_the_pass_share_says_how_often_the_outcomes_noise_lets_an_exact_figure_pass() -> None:
    # the figure is off by a constant (taken away), the outcome varies game by game around 100
    rng = random.Random(5)

    def games(spread: float) -> list[tuple[int, float, float, int]]:
        return [(index, 0.0, 100 + rng.gauss(0, spread), game) for game in range(400) for index in range(3)]

    assert exact_pass_share("levelx", 2, games(5.0), draws=200) == 1.0  # s.e. 0.25 against 10
    assert exact_pass_share("levelx", 2, games(400.0), draws=200) < 0.5  # s.e. 20 against 10


def test_the_docs_hold_a_calibration_table_for_every_game() -> None:
    docs = (ROOT / "docs" / "bots.md").read_text(encoding="utf-8")
    for game in game_names():
        start, end = f"<!-- calibration {game} -->", f"<!-- /calibration {game} -->"
        assert start in docs and end in docs
        table = docs.split(start)[1].split(end)[0]
        assert "| decision | samples | mean shown | mean outcome |" in table


# --- Key moments on the board ---------------------------------------------------------------------------
def press(app: BoardApp, *buttons: str) -> None:
    for button in buttons:
        app.button(ButtonEvent(button, "press"))
        app.button(ButtonEvent(button, "release"))


def settle(app: BoardApp, loop: EventLoop) -> None:
    for _ in range(100_000):
        deadline = loop.next_deadline()
        if deadline is None:
            return
        loop.clock.now = max(loop.clock.now, deadline)
        loop.run_pending(app.button)
    raise AssertionError("the board never came to rest")


def person_game(game: str, seed: int) -> tuple[BoardApp, EventLoop]:
    """A game with a person on seat 0 (always OK: the first option) and easy bots, to its result."""
    loop = EventLoop(FakeClock())
    app = BoardApp(schedule=loop.call_later, seed=seed)
    seats = [Seat("Alex", DEFAULT_ORDER[0], None)] + [
        Seat(c.capitalize(), c, "easy") for c in DEFAULT_ORDER[1 : find_game(game).benchmark_players]
    ]
    app.start_game(game, seats, "play")
    for _ in range(5000):
        settle(app, loop)
        if isinstance(app.screen, ResultScreen):
            return app, loop
        session = app.session
        assert session is not None
        press(app, "roll" if session.awaiting_roll else "ok")
    raise AssertionError("the game never ended")


@pytest.mark.parametrize("game", game_names())
def test_the_result_offers_key_moments_and_ok_shows_them(game: str) -> None:
    app, loop = person_game(game, seed=5)
    screen = app.screen
    names = [page.name for page in screen.pages]
    assert names[-3:] == [KEY_MOMENTS, "Rematch", "Menu"]
    assert app.coach is not None and app.coach.done and app.coach.error is None  # inline: rated at once
    _, ratings = analyse(app.session.game.to_record())
    assert app.coach.ratings == ratings
    while screen.page.name != KEY_MOMENTS:
        press(app, "right")
    app.image((128, 64))
    assert "OK show" in app.texts
    press(app, "ok")
    moments = app.screen
    assert isinstance(moments, MomentsScreen)
    worst = key_moments(ratings, against_strong=True)[0]
    assert len(moments.moments) == len(worst) and moments.moments[0][1]  # the dice of the position
    app.image((128, 64))
    shown = " ".join(app.texts)
    assert "Alex, decision" in shown and "played:" in shown
    text = moments.moments[0][0]
    assert "the strong bot plays:" in text and f"cost {worst[0].strong_loss:.1f}" in text
    pages, read = moments.count, list(app.texts)
    for _ in range(pages):
        press(app, "right")
        app.image((128, 64))
        read += app.texts
    page_text = " ".join(read)
    assert "{" not in page_text and '"kind"' not in page_text  # moves in words, never their record
    press(app, "back")
    assert app.screen is screen


def test_a_bots_only_game_has_no_key_moments() -> None:
    loop = EventLoop(FakeClock())
    app = BoardApp(schedule=loop.call_later, seed=1)
    app.start_game("levelx", [Seat(c.capitalize(), c, "easy") for c in DEFAULT_ORDER[:2]], "demo")
    settle(app, loop)
    assert isinstance(app.screen, ResultScreen)
    assert KEY_MOMENTS not in [page.name for page in app.screen.pages]


def test_the_analysis_stops_when_the_table_moves_on() -> None:
    """A worker that holds the ratings back: a rematch before they are in stops the analysis."""
    from firmware.agents import Agents

    class Held:
        def __init__(self) -> None:
            self.jobs: list = []

        def think(self, thought, answer) -> None:
            self.jobs.append((thought, answer))

        def submit(self, job) -> None:
            job()

        def close(self) -> None:
            pass

    held = Held()
    loop = EventLoop(FakeClock())
    app = BoardApp(schedule=loop.call_later, seed=2)
    app.agents = Agents(app.answer, held)
    app.start_game(
        "exxtra", [Seat("Alex", "red", None), Seat("Bea", "blue", "easy"), Seat("Carl", "green", "easy")], "play"
    )
    for _ in range(5000):
        for thought, answer in held.jobs:  # the bots' questions are answered at once; ratings wait
            if thought.kind != "rate":
                from firmware.thinker import run_thought

                answer(run_thought(thought))
        held.jobs = [job for job in held.jobs if job[0].kind == "rate"]
        settle(app, loop)
        if isinstance(app.screen, ResultScreen):
            break
        press(app, "roll" if app.session.awaiting_roll else "ok")
    moments = app.coach
    assert moments is not None and moments.busy and len(held.jobs) == 1  # one rating asked at a time
    assert app.busy
    from firmware.thinker import run_thought

    thought, answer = held.jobs.pop()
    answer(run_thought(thought))
    assert len(moments.ratings) == 1 and len(held.jobs) == 1  # in: the next is asked
    press(app, "left", "left", "ok")  # Rematch
    thought, answer = held.jobs.pop(0)
    answer(run_thought(thought))
    assert len(moments.ratings) == 1 and not moments.busy  # the table moved on: dropped, no more asked
    assert not [job for job in held.jobs if job[0].kind == "rate"]


def test_the_calibration_bench_plays_strong_games_and_prints_the_table(capsys: pytest.CaptureFixture[str]) -> None:
    from firmware.cli import main

    assert main(["bench", "calibration", "--game", "levelx", "--games", "60", "--players", "2"]) == 0
    out = capsys.readouterr().out
    assert "**LEVEL X**, 2 strong bots, 60 games" in out and "| 0 | 120 |" in out
    figures = dict(line.split(": ") for line in out.splitlines() if line.startswith("levelx_calibration_"))
    assert int(figures["levelx_calibration_decisions"]) >= 5
    assert 0 <= int(figures["levelx_calibration_within"]) <= int(figures["levelx_calibration_decisions"])


@pytest.mark.parametrize("language", ["en", "de", "fr"])
def test_a_key_moment_is_never_the_strong_bots_own_move(language: str) -> None:
    """Issue 37, item 8. EXTRA! solo by buttons, the person playing what the strong bot plays at
    every decision: the evaluator's one-step best differs from strong's choice at some of them
    (the page showed those with a cost, "better: ..."), yet no key moment is the strong bot's
    own move, and every moment names the strong bot and costs something against its move."""
    from firmware import i18n
    from firmware.bots import choose
    from firmware.ui.gameview import game_view
    from firmware.ui.play import PlayScreen
    from sim.board import SimBoard

    board = SimBoard(seed=4, language=language)
    try:
        board.settle()
        app = board.app
        pick_value(board, ("play", "extra"))
        pick_value(board, 1)
        board.tap("ok")  # the one seat: a person
        board.settle()
        while not isinstance(app.screen, PlayScreen):
            board.tap("ok")
            board.settle()
        strong = find_game("extra").levels[-1]
        for _ in range(200):
            session = app.session
            assert session is not None
            if session.over:
                break
            if session.awaiting_roll:
                board.tap("roll")
                board.settle()
                continue
            game, play = session.game, app.screen
            assert isinstance(play, PlayScreen) and play.choice is not None
            move = choose(game.copy(), random.Random(f"coach:{len(game.history)}"), strong)
            view = game_view("extra")
            target = next(i for i, o in enumerate(play.choice.options) if view.same_choice(session, o.value, move))
            for button in play.choice.route(target):
                board.tap(button)
            board.settle()
        assert app.session is not None and app.session.over
        ratings = app.coach.ratings if app.coach is not None else []
        assert ratings and all(r.played == r.strong for r in ratings)
        assert any(r.loss >= coach.MIN_LOSS for r in ratings), "the case of the issue: best and strong differ"
        result = app.screen
        assert isinstance(result, ResultScreen)
        while result.page.name != KEY_MOMENTS:
            board.tap("right")
        board.tap("ok")
        moments = app.screen
        assert isinstance(moments, MomentsScreen)
        with i18n.speaking(language):
            well_played = i18n._("{name}: no costly decision. Well played!").format(name=app.session.name(0))
        assert [text for text, _dice in moments.moments] == [well_played]
    finally:
        board.close()


def test_a_key_moments_words_name_the_strong_bots_move_and_its_cost() -> None:
    """A decision that is not strong's own move: the page says what the strong bot plays there
    and the cost against it, not "better" (the evaluator's one-step best)."""
    game = new_game("exxtra", ["Alex", "Bo", "Cy"])
    game.apply(Roll(("3", "2")))
    past = game.copy()
    ratings = [rate(game, decision) for decision in game.legal_decisions()]
    worst = max(ratings, key=lambda r: r.strong_loss)
    assert worst.played != worst.strong and worst.strong_loss > 0
    text = moment_text(game, past, worst)
    assert "better" not in text
    assert f"the strong bot plays: {describe_both(past, worst.played, worst.strong)[1]}" in text
    assert f"cost {worst.strong_loss:.1f} spaces" in text
    same = rate(game, worst.strong)
    assert same.strong_loss == 0 and key_moments([same], against_strong=True) == {}


def pick_value(board: Any, value: object) -> None:
    """The menu's cursor to the option of `value` by RIGHT, then OK (the same in every language)."""
    choice = board.app.screen.choice
    target = next(i for i, option in enumerate(choice.options) if option.value == value)
    while choice.index != target:
        board.tap("right")
    board.tap("ok")
    board.settle()
