"""The end-of-game review: each game played to its end by button presses on a simulated board
(twice, so the second game has records to beat), then its review paged through with RIGHT.
The figures on the pages are checked against figures computed here from the game's record, by
a count of its steps (and the engine's public state), not by the figures module's events; the
personal bests and high-score places against the two records' results.
"""

from __future__ import annotations

import random
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from firmware.players import add as keep_name
from firmware.games import find_game
from firmware.games.extra.rules import WALLS
from firmware.games.levelx.rules import ROWS, LevelX
from firmware.records import header_of
from firmware.table import Seat
from firmware.ui.play import MENU, REMATCH, ResultScreen
from sim.board import SimBoard
from tests.test_engines_at_board import seat_up

# Each seat's kind on the seat screen: a person of the board's names (Alexandra), a guest
# (a person keeping the seat colour's name) and bots.
KINDS = {
    "exxtra": ["name:Alexandra", "bot:easy", "human", "bot:medium"],
    "levelx": ["name:Alexandra", "human", "bot:easy"],
    "extra": ["name:Alexandra", "bot:easy", "human"],
}
SIZE = (128, 64)


def play_to_the_end(board: SimBoard, rng: random.Random) -> None:
    """Press as the people at the table would: ROLL when asked, a few LEFT/RIGHT, then OK."""
    app = board.app
    for _ in range(20_000):
        board.settle()
        if isinstance(app.screen, ResultScreen):
            return
        if app.session.awaiting_roll:
            board.tap("roll")
            continue
        for _move in range(rng.randrange(3)):
            board.tap(rng.choice(["left", "right"]))
        board.tap("ok")
    raise AssertionError("the game did not end")


def pages(board: SimBoard) -> Iterator[tuple[str, list[str]]]:
    """Every page of the result screen, paged with RIGHT from the first: (name, texts drawn)."""
    screen = board.app.screen
    assert isinstance(screen, ResultScreen) and screen.index == 0
    for _ in screen.pages:
        yield screen.page.name, board.app.canvas(SIZE).texts
        board.tap("right")
    assert screen.index == 0


def two_games(game: str, tmp_path: Path) -> tuple[SimBoard, list[dict[str, Any]]]:
    """Two games of `game` at one board, set up through the menus (Play, seat count, each
    seat's kind), the second a rematch from the result screen; the board (on the second's
    result screen) and both records."""
    board = SimBoard(seed=5, state_dir=tmp_path)
    keep_name(board.journal, "Alexandra")
    rng = random.Random(game)
    board.settle()
    seat_up(board, game, KINDS[game])
    records = []
    for _game in range(2):
        play_to_the_end(board, rng)
        records.append(board.app.session.record())
        if len(records) < 2:
            while board.app.screen.page.name != REMATCH:
                board.tap("right")
            board.tap("ok")
    return board, records


# --- figures computed from the record's steps -------------------------------------------------------
def exxtra_figures(record: dict[str, Any]) -> dict[str, list[str]]:
    """Turns, re-rolls, X's, pairs kicked and lost and rungs, by playing the steps on a ladder
    kept here: rung → (owner, combination value), rung 0 a set of owners."""
    seats = len(record["players"])
    turns, rerolls, xs, kicked, lost = ([0] * seats for _ in range(5))
    rungs = [[0] * 6 for _ in range(seats)]
    position, on_rung = [0] * seats, [None] * seats
    ladder: dict[int, tuple[int, int]] = {}
    player, rolls, value, over = 0, 0, -1, False

    def next_turn() -> bool:
        nonlocal player, rolls
        player, rolls = (player + 1) % seats, 0
        rung, on_rung[player] = on_rung[player], None
        if rung:
            del ladder[rung]
            position[player] += rung
        return position[player] >= 21

    for step in record["steps"]:
        assert not over
        if "roll" in step:
            a, b = step["roll"]
            first = rolls == 0
            rolls += 1
            turns[player] += first
            xs[player] += [a, b].count("X")
            if not first and "X" in (a, b):
                position[player] = max(0, position[player] - [a, b].count("X"))
                over = next_turn()
                continue
            high, low = sorted(0 if f == "X" else int(f) for f in (a, b))[::-1]
            value = 10 * high + low
            if a == b != "X":
                position[player] += int(a)
                over = position[player] >= 21
        elif step["do"] == "reroll":
            rerolls[player] += 1
        else:
            rung = step["rung"]
            rungs[player][rung] += 1
            for higher in range(rung + 1, 6):
                if higher in ladder and ladder[higher][1] <= value:
                    owner = ladder.pop(higher)[0]
                    on_rung[owner] = None
                    kicked[player] += 1
                    lost[owner] += 1
            on_rung[player] = rung
            if rung:
                ladder[rung] = (player, value)
            over = next_turn()
    assert over and max(position) >= 21
    return {
        "Turns": list(map(str, turns)),
        "Re-rolls": list(map(str, rerolls)),
        "X's rolled": list(map(str, xs)),
        "Pairs kicked": list(map(str, kicked)),
        "Pairs lost": list(map(str, lost)),
        "Rungs 0-5": [" ".join(map(str, r)) for r in rungs],
    }


def levelx_figures(record: dict[str, Any]) -> dict[str, list[str]]:
    """From the engine's public state step by step: pieces sent home are the other players'
    supply growing during a player's step; lost ones those plus the pieces out of the game."""
    cls, players = header_of(record)
    game = cls.for_record(players, record["version"])
    assert isinstance(game, LevelX)
    seats = len(players)
    sent, ousted, lucky = [0] * seats, [0] * seats, [0] * seats
    for data in record["steps"]:
        player, before = game.current_player, list(game.supply)
        lucky[player] += "turn_ones" in data
        game.apply(cls.parse_step(data))
        for other in range(seats):
            grew = game.supply[other] - before[other]
            if other != player and grew > 0:
                sent[player] += grew
                ousted[other] += grew
    chips = record["result"]["chips"]
    return {
        "Chips 5-10": [" ".join(str(values.count(row)) for row in ROWS) for values in chips],
        "Sent home": list(map(str, sent)),
        "Pieces lost": [str(ousted[p] + game.lost[p]) for p in range(seats)],
        "Bonus tiles": [" ".join(map(str, tiles)) or "-" for tiles in record["result"]["bonus"]],
        "Lucky loser": list(map(str, lucky)),
    }


def extra_figures(record: dict[str, Any]) -> dict[str, list[str]]:
    """Rows from the result; walls from the crosses counted per row; numbers, free rides and
    rolls from the decisions (a `column` writes the extra die's face)."""
    seats = len(record["players"])
    crosses = [dict.fromkeys(range(2, 13), 0) for _ in range(seats)]
    numbers: list[list[int | None]] = [[None] * 3 for _ in range(seats)]
    rides, rolls = [0] * seats, [0] * seats
    faces: list[int] = []
    for step in record["steps"]:
        if "roll" in step:
            faces = step["roll"]
            continue
        player = step["player"]
        rolls[player] += 1
        if step["extra"] is None:
            rides[player] += 1
        elif step.get("column") is not None:
            numbers[player][step["column"]] = faces[step["extra"]]
        for pair in step["pairs"]:
            crosses[player][faces[pair[0]] + faces[pair[1]]] += 1
    out = {f"{s}:": [str(rows[str(s)]) for rows in record["result"]["rows"]] for s in range(2, 13)}
    return out | {
        "Walls crossed": [str(sum(c[s] > WALLS[s] for s in c)) for c in crosses],
        "EXTRA numbers": [" ".join(str(n) for n in ns if n is not None) or "-" for ns in numbers],
        "Free rides": list(map(str, rides)),
        "Rolls played": list(map(str, rolls)),
    }


EXPECTED = {"exxtra": exxtra_figures, "levelx": levelx_figures, "extra": extra_figures}
PAGES_PER_SEAT = {"exxtra": 1, "levelx": 1, "extra": 2}  # EXTRA!: the rows, then the rest


def in_order(wanted: list[str], texts: list[str]) -> bool:
    """`wanted` appear in `texts` in that order (other texts between them allowed)."""
    it = iter(texts)
    return all(any(text == w for text in it) for w in wanted)


# --- the tests -------------------------------------------------------------------------------------
@pytest.mark.parametrize("game", ["exxtra", "levelx", "extra"])
def test_the_review_pages_show_each_players_figures_from_the_record(game: str, tmp_path: Path) -> None:
    board, records = two_games(game, tmp_path)
    record = records[1]
    expected = EXPECTED[game](record)
    names = [p["name"] for p in record["players"]]
    seen = dict(pages(board))
    figure_names = [name for name in seen if name.startswith("figures")]
    per_seat = PAGES_PER_SEAT[game]
    assert len(figure_names) == per_seat * len(names) >= len(names)  # every seat has its pages
    for seat, name in enumerate(names):
        shown = [text for index in range(per_seat) for text in seen[f"figures {index} seat {seat}"]]
        assert name in " ".join(shown)  # the page says whose figures they are
        pairs = [text for label, values in expected.items() for text in (label, values[seat])]
        assert in_order(pairs, shown), (name, pairs, shown)
    board.close()


def test_the_figures_function_agrees_with_the_counts_for_many_random_games() -> None:
    """Selfplay records of every game and seat count: figures_of's values are the counts."""
    from firmware.games.figures import figures_of
    from firmware.selfplay import selfplay_games

    for game, counts in (("exxtra", (3, 6)), ("levelx", (2, 4)), ("extra", (1, 6))):
        for seats in counts:
            for played in selfplay_games(game, seats, seed=seats, count=3):
                record = played.to_record()
                expected = EXPECTED[game](record)
                got = {f.label: list(f.values) for page in figures_of(record) for f in page.figures}
                assert got == expected, (game, seats)


@pytest.mark.parametrize("game", ["exxtra", "levelx", "extra"])
def test_the_review_shows_personal_bests_and_the_high_score_place(game: str, tmp_path: Path) -> None:
    board, records = two_games(game, tmp_path)
    seen = dict(pages(board))
    players = records[1]["players"]
    kinds = [{"human": "guest", "name:Alexandra": ""}.get(kind, "bot") for kind in KINDS[game]]
    assert [p["name"] == "Alexandra" for p in players] == [kind == "" for kind in kinds]
    if not find_game(game).ranking.high_scores:  # a race: the wins of each person on this board
        wins = [
            sum(
                seat in r["result"]["winners"]
                for r in records
                for seat, p in enumerate(r["players"])
                if p["name"] == q["name"]
            )
            for q in players
        ]
        rows = [kind or str(count) for kind, count in zip(kinds, wins)]
        assert "bests" not in seen and "place" not in seen
        assert in_order([t for p, row in zip(players, rows) for t in (p["name"], row)], seen["wins"])
        board.close()
        return
    # Every score of a person or guest in both games, in the table's order: best first, earlier first.
    entries = [
        (-r["result"]["scores"][seat], order, seat, p["name"])
        for order, r in enumerate(records)
        for seat, p in enumerate(r["players"])
        if not p.get("bot")
    ]
    entries.sort()
    mine = [-e[0] for e in entries if e[3] == "Alexandra"]
    best = max(mine)
    new = records[1]["result"]["scores"][0] > records[0]["result"]["scores"][0]
    bests = [kind or f"{best}{'*' if new else ''}" for kind in kinds]
    places = [
        "bot" if kind == "bot" else f"#{entries.index((-records[1]['result']['scores'][seat], 1, seat, p['name'])) + 1}"
        for seat, (p, kind) in enumerate(zip(players, kinds))
    ]
    assert in_order([t for p, row in zip(players, bests) for t in (p["name"], row)], seen["bests"]), seen["bests"]
    assert ("* set in this game" in seen["bests"]) == new
    assert in_order([t for p, row in zip(players, places) for t in (p["name"], row)], seen["place"]), seen["place"]
    board.close()


def test_a_bots_only_game_has_figures_but_no_records_pages(tmp_path: Path) -> None:
    board = SimBoard(seed=2, state_dir=tmp_path)
    board.settle()
    board.app.start_game("levelx", [Seat("Red", "red", "easy"), Seat("Blue", "blue", "easy")], "demo")
    play_to_the_end(board, random.Random(1))
    names = [page.name for page in board.app.screen.pages]
    assert "figures 0 seat 1" in names and not {"bests", "place", "wins"} & set(names)
    board.close()


def test_another_kind_of_review_page_is_one_more_entry(tmp_path: Path) -> None:
    """The review's pages are a list: a page added to it comes after the board's own, before
    the choice."""
    from firmware.ui.gameview import ResultPage
    from firmware.ui.review import REVIEW, add_review, figure_pages

    def moments(app: Any, table: Any) -> list[ResultPage]:
        return [ResultPage("moments", lambda canvas, position: canvas.title("Key moments", position))]

    add_review(moments)
    try:
        board, _records = two_games("levelx", tmp_path)
        names = [page.name for page in board.app.screen.pages]
        assert names[-3:] == ["moments", REMATCH, MENU] and names.index("place") < names.index("moments")
        board.close()
    finally:
        REVIEW.remove(moments)
    assert figure_pages in REVIEW


@pytest.fixture
def toy(monkeypatch: pytest.MonkeyPatch) -> Iterator[Any]:
    """The walkthrough's plug-in game, High die, which names no figures."""
    from firmware.games.registry import GAMES_ENV, load_game_module, unregister_game

    monkeypatch.setenv(GAMES_ENV, "")
    spec = load_game_module("examples.highdie")
    yield spec
    unregister_game(spec.name)


def test_a_game_without_figures_still_has_its_review(toy: Any, tmp_path: Path) -> None:
    """A plug-in game with no `figures` in its SPEC: no figures pages, the records pages still
    (the guest's score takes its place in the list, first at a new board)."""
    assert toy.figures is None
    board = SimBoard(seed=3, state_dir=tmp_path)
    board.settle()
    seat_up(board, toy.name, ["bot:easy", "human"])
    play_to_the_end(board, random.Random(3))
    seen = dict(pages(board))
    assert not any(name.startswith("figures") for name in seen)
    guest = board.app.session.game.players[1].name
    assert in_order([guest, "guest"], seen["bests"]) and in_order([guest, "#1"], seen["place"])
    assert list(seen)[-2:] == [REMATCH, MENU]
    board.close()
