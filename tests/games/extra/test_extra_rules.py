"""EXTRA! rules: the rulebook's examples, every rule and every refusal, records, perft counts."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from firmware.errors import IllegalStepError, RecordError
from firmware.games import new_game
from firmware.games.base import Pending, Player, Roll
from firmware.games.extra.rules import (
    COLUMN_SIZES,
    FACTORS,
    POINTS,
    ROW_SIZES,
    WALLS,
    Choice,
    Extra,
    Sheet,
    row_score,
)
from firmware.records import replay_record

EXAMPLE_SHEET = Path(__file__).parents[2] / "data" / "extra_example_sheet.json"
EXAMPLE_ROWS = {2: -200, 3: 0, 4: 420, 5: -200, 6: 80, 7: 0, 8: 0, 9: 0, 10: -200, 11: 210, 12: 100}


# --- helpers -------------------------------------------------------------------------------
def play(game: Extra, faces: tuple[int, ...], *choices: Choice) -> None:
    """One roll and the given decisions, in order."""
    game.apply(Roll(faces))
    for choice in choices:
        game.apply(choice)


def marie_with_numbers(kids: bool = False) -> Extra:
    """Solo Marie who has written 1 (column 0), 3 (column 1) and 6 (column 2), one cross each."""
    game = Extra([Player("Marie", kids=kids)])
    play(game, (1, 2, 2, 4, 4), Choice(0, 0, 0, ((1, 2), (3, 4))))
    play(game, (3, 2, 2, 4, 4), Choice(0, 0, 1, ((1, 2), (3, 4))))
    play(game, (6, 2, 2, 4, 4), Choice(0, 0, 2, ((1, 2), (3, 4))))
    return game


def refused(game: Extra, step: Any, *words: str) -> None:
    """`step` raises IllegalStepError whose message has every word, and nothing changes."""
    before = game.to_record()
    events = list(game.events)
    with pytest.raises(IllegalStepError) as caught:
        game.apply(step)
    for word in words:
        assert word in str(caught.value)
    assert game.to_record() == before
    assert game.events == events


# --- the rulebook's examples ---------------------------------------------------------------
def test_marie_example_roll_1_2_2_3_5_gives_4_6_and_extra_3() -> None:
    game = Extra(["Marie"])
    game.apply(Roll((1, 2, 2, 3, 5)))
    game.apply(Choice(0, 3, 0, ((1, 2), (0, 4))))
    sheet = game.sheets[0]
    assert sheet.crosses_in(4) == 1 and sheet.crosses_in(6) == 1
    assert sum(sheet.row_crosses) == 2
    assert sheet.numbers == (3, None, None) and sheet.column_crosses == (1, 0, 0)
    assert game.events == [
        {"kind": "extra", "player": 0, "die": 3, "face": 3, "column": 0, "new": True, "crossed": True},
        {"kind": "cross", "player": 0, "sum": 6, "box": 0},  # pairs in normalised order: (0, 4) first
        {"kind": "cross", "player": 0, "sum": 4, "box": 0},
    ]


def test_marie_example_roll_2_4_5_5_5_with_numbers_1_3_6_is_a_free_ride() -> None:
    game = marie_with_numbers()
    game.apply(Roll((2, 4, 5, 5, 5)))
    assert game.extra_dice() == [None]
    decisions = game.legal_decisions()
    assert len(decisions) == 15 and all(d.extra is None and d.column is None for d in decisions)
    game.apply(Choice(0, None, None, ((0, 1), (2, 3))))
    sheet = game.sheets[0]
    assert sheet.column_crosses == (1, 1, 1)
    assert sheet.crosses_in(6) == 1 and sheet.crosses_in(10) == 1
    assert game.events[0] == {"kind": "free_ride", "player": 0}


def test_example_eleven_crossed_seven_times_scores_70_times_3() -> None:
    game = Extra(["Marie"])
    play(game, (5, 6, 5, 6, 1), Choice(0, 4, 0, ((0, 1), (2, 3))))
    for _ in range(2):
        play(game, (5, 6, 5, 6, 1), Choice(0, 4, None, ((0, 1), (2, 3))))
    play(game, (5, 6, 2, 2, 1), Choice(0, 4, None, ((0, 1), (2, 3))))
    sheet = game.sheets[0]
    assert sheet.crosses_in(11) == 7
    assert sheet.row_score_of(11) == 70 * 3 == 210
    assert row_score(11, 7) == 210


def test_example_sheet_scores_exactly_the_rulebook_rows_and_210() -> None:
    """The example sheet's crosses. The picture's row 6 shows +80 = 40 × 2, i.e. 10 crosses."""
    sheet = Sheet.filled(
        {2: 1, 4: 10, 5: 3, 6: 10, 7: 8, 10: 2, 11: 7, 12: 5}, numbers=(6, 3, 1), column_crosses=(7, 3, 2)
    )
    assert sheet.row_scores == EXAMPLE_ROWS
    assert sum(s for s in sheet.row_scores.values() if s > 0) == 810
    assert sum(s for s in sheet.row_scores.values() if s < 0) == -600
    assert sheet.total == 210
    assert sheet.ended


def test_example_sheet_record_is_a_complete_legal_solo_game() -> None:
    record = json.loads(EXAMPLE_SHEET.read_text())
    game = replay_record(record)
    assert isinstance(game, Extra) and game.is_over()
    sheet = game.sheets[0]
    assert sheet.row_scores == EXAMPLE_ROWS and sheet.total == 210
    assert sheet.numbers == (6, 3, 1)
    assert sheet.crosses_in(11) == 7 and sheet.is_row_full(4)
    assert game.result() == record["result"]
    assert game.to_record() == record
    assert record["result"] == {"scores": [210], "rows": [{str(k): v for k, v in EXAMPLE_ROWS.items()}], "winners": [0]}


def test_example_complete_row_may_be_formed_but_takes_no_cross() -> None:
    game = Extra(["Marie"])
    play(game, (1, 1, 1, 1, 3), Choice(0, 4, 0, ((0, 1), (2, 3))))
    play(game, (1, 1, 1, 1, 3), Choice(0, 4, None, ((0, 1), (2, 3))))
    play(game, (1, 1, 1, 1, 3), Choice(0, 4, None, ((0, 1), (2, 3))))
    play(game, (1, 1, 1, 1, 3), Choice(0, 4, None, ((0, 1), (2, 3))))
    play(game, (1, 1, 1, 1, 3), Choice(0, 4, None, ((0, 1), (2, 3))))
    assert game.sheets[0].crosses_in(2) == ROW_SIZES[2] == 9
    assert game.sheets[0].is_row_full(2)
    assert game.events[1:] == [
        {"kind": "cross", "player": 0, "sum": 2, "box": 8},
        {"kind": "row_full", "player": 0, "sum": 2},
    ]
    play(game, (1, 1, 1, 1, 3), Choice(0, 4, None, ((0, 1), (2, 3))))
    assert game.sheets[0].crosses_in(2) == 9
    assert game.sheets[0].row_score_of(2) == 700


def test_example_children_write_a_new_number_without_a_cross() -> None:
    game = Extra([Player("Kid", kids=True), Player("Parent")])
    play(game, (1, 2, 2, 3, 5), Choice(0, 3, 0, ((1, 2), (0, 4))), Choice(1, 3, 0, ((1, 2), (0, 4))))
    assert game.sheets[0].numbers == (3, None, None) and game.sheets[0].column_crosses == (0, 0, 0)
    assert game.sheets[1].column_crosses == (1, 0, 0)
    play(game, (3, 2, 2, 4, 4), Choice(0, 0, None, ((1, 2), (3, 4))), Choice(1, 0, None, ((1, 2), (3, 4))))
    assert game.sheets[0].column_crosses == (1, 0, 0)
    assert game.events[0]["crossed"] is True and game.events[0]["new"] is False


def test_example_children_need_one_more_take_to_end_a_column() -> None:
    game = Extra([Player("Kid", kids=True)])
    for take in range(COLUMN_SIZES[0] + 1):
        assert not game.is_over()
        play(game, (3, 2, 2, 4, 4), Choice(0, 0, 0 if take == 0 else None, ((1, 2), (3, 4))))
    assert game.is_over() and game.sheets[0].column_crosses == (7, 0, 0)


def test_example_solo_negative_total_is_a_loss_zero_is_not() -> None:
    """Solo variant: the record's winners are [] for a negative total, [0] for 0 or more."""
    game = Extra(["Solo"])
    play(game, (3, 1, 1, 6, 6), Choice(0, 0, 0, ((1, 2), (3, 4))))
    for _ in range(COLUMN_SIZES[0] - 1):
        play(game, (3, 2, 5, 4, 4), Choice(0, 0, None, ((1, 2), (3, 4))))
    result = game.result()
    assert result is not None and result["scores"] == [-200 * 4] and result["winners"] == []
    game = Extra(["Solo"])
    play(game, (3, 1, 1, 6, 6), Choice(0, 0, 0, ((1, 2), (3, 4))))
    for _ in range(4):
        play(game, (3, 1, 1, 6, 6), Choice(0, 0, None, ((1, 2), (3, 4))))
    for _ in range(2):
        play(game, (3, 3, 4, 3, 4), Choice(0, 0, None, ((1, 2), (3, 4))))
    assert game.is_over()
    assert game.result() == {
        "scores": [0],
        "rows": [{**{str(s): 0 for s in range(2, 13)}, "2": 100, "7": -200, "12": 100}],
        "winners": [0],
    }


# --- the sheet -----------------------------------------------------------------------------
def test_sheet_constants_are_the_published_sheet() -> None:
    assert dict(POINTS) == {2: 100, 3: 70, 4: 60, 5: 50, 6: 40, 7: 30, 8: 40, 9: 50, 10: 60, 11: 70, 12: 100}
    assert dict(WALLS) == {2: 3, 3: 3, 4: 4, 5: 5, 6: 7, 7: 7, 8: 7, 9: 5, 10: 4, 11: 3, 12: 3}
    assert FACTORS == (0, 1, 2, 3, 5, 7)
    assert COLUMN_SIZES == (7, 8, 9)
    assert all(ROW_SIZES[s] == WALLS[s] + 6 for s in range(2, 13))


@pytest.mark.parametrize(
    ("total", "crosses", "score"),
    [
        (2, 0, 0),
        (2, 1, -200),
        (2, 3, -200),
        (2, 4, 0),
        (2, 5, 100),
        (2, 9, 700),
        (7, 7, -200),
        (7, 8, 0),
        (7, 12, 150),
        (7, 13, 210),
        (4, 4, -200),
        (4, 10, 420),
        (6, 10, 80),
        (12, 5, 100),
        (9, 6, 0),
        (9, 10, 250),
    ],
)
def test_row_score_no_crosses_wall_or_points_times_last_factor(total: int, crosses: int, score: int) -> None:
    assert row_score(total, crosses) == score
    assert Sheet.filled({total: crosses}).row_score_of(total) == score


def test_row_score_refuses_more_crosses_than_boxes() -> None:
    with pytest.raises(IllegalStepError, match="row 7 has 13 boxes"):
        row_score(7, 14)


@pytest.mark.parametrize(
    ("kwargs", "words"),
    [
        ({"crosses": {13: 1}}, "no row 13"),
        ({"crosses": {4: 11}}, "row 4 has 10 boxes"),
        ({"crosses": {4: -1}}, "row 4"),
        ({"numbers": (1, 1, None)}, "different die faces"),
        ({"numbers": (7, None, None)}, "different die faces"),
        ({"numbers": (1, None)}, "3 columns"),
        ({"numbers": (1, None, None), "column_crosses": (8, 0, 0)}, "column 0"),
        ({"column_crosses": (0, 1, 0)}, "column 1"),
    ],
)
def test_sheet_filled_refuses_what_the_sheet_cannot_hold(kwargs: dict[str, Any], words: str) -> None:
    with pytest.raises(IllegalStepError, match=words):
        Sheet.filled(**kwargs)


def test_crosses_go_into_the_next_free_box_from_the_left() -> None:
    game = Extra(["Marie"])
    play(game, (5, 6, 5, 6, 1), Choice(0, 4, 0, ((0, 1), (2, 3))))
    assert [e["box"] for e in game.events if e["kind"] == "cross"] == [0, 1]
    play(game, (5, 6, 2, 2, 1), Choice(0, 4, None, ((0, 1), (2, 3))))
    assert game.events[1] == {"kind": "cross", "player": 0, "sum": 11, "box": 2}
    assert game.sheets[0].crosses_in(11) == 3


# --- the extra die -------------------------------------------------------------------------
def test_fewer_than_three_numbers_any_die_and_new_face_in_a_chosen_column() -> None:
    game = Extra(["Marie"])
    game.apply(Roll((1, 2, 2, 3, 5)))
    assert game.extra_dice() == [0, 1, 2, 3, 4]
    assert game.columns_for(4) == (0, 1, 2)
    game.apply(Choice(0, 4, 2, ((0, 1), (2, 3))))
    assert game.sheets[0].numbers == (None, None, 5)
    game.apply(Roll((1, 2, 5, 3, 6)))
    assert game.columns_for(2) == () and game.columns_for(0) == (0, 1)


def test_owned_face_crosses_its_column_without_a_column_given() -> None:
    game = Extra(["Marie"])
    play(game, (1, 2, 2, 3, 5), Choice(0, 3, 1, ((1, 2), (0, 4))))
    play(game, (3, 2, 2, 1, 5), Choice(0, 0, None, ((1, 2), (3, 4))))
    assert game.sheets[0].numbers == (None, 3, None) and game.sheets[0].column_crosses == (0, 2, 0)
    assert game.events[0] == {
        "kind": "extra",
        "player": 0,
        "die": 0,
        "face": 3,
        "column": 1,
        "new": False,
        "crossed": True,
    }


def test_a_column_given_for_an_owned_face_is_refused() -> None:
    game = Extra(["Marie"])
    play(game, (1, 2, 2, 3, 5), Choice(0, 3, 1, ((1, 2), (0, 4))))
    game.apply(Roll((3, 2, 2, 1, 5)))
    refused(game, Choice(0, 0, 1, ((1, 2), (3, 4))), "EXTRA column", "already the EXTRA number of column 1")
    refused(game, Choice(0, 0, 0, ((1, 2), (3, 4))), "EXTRA column")


def test_a_new_face_needs_an_empty_column() -> None:
    game = Extra(["Marie"])
    play(game, (1, 2, 2, 3, 5), Choice(0, 3, 1, ((1, 2), (0, 4))))
    game.apply(Roll((3, 2, 2, 1, 5)))
    refused(game, Choice(0, 3, None, ((0, 1), (2, 4))), "EXTRA column", "new EXTRA number")
    refused(game, Choice(0, 3, 1, ((0, 1), (2, 4))), "EXTRA column", "column 1 already holds")
    refused(game, Choice(0, 3, 3, ((0, 1), (2, 4))), "EXTRA column", "not a column")


def test_fewer_than_three_numbers_no_free_ride() -> None:
    game = Extra(["Marie"])
    game.apply(Roll((1, 2, 2, 3, 5)))
    refused(game, Choice(0, None, None, ((0, 1), (2, 3))), "free ride", "only with three")


def test_three_numbers_and_one_shown_must_take_it() -> None:
    game = marie_with_numbers()
    game.apply(Roll((2, 4, 3, 5, 5)))
    assert game.extra_dice() == [2]
    assert {d.extra for d in game.legal_decisions()} == {2}
    refused(game, Choice(0, 0, None, ((1, 2), (3, 4))), "extra die", "must be one of dice [2]")
    refused(game, Choice(0, None, None, ((0, 1), (3, 4))), "extra die", "must be one of dice [2]")
    refused(game, Choice(0, 0, 0, ((1, 2), (3, 4))), "extra die")
    game.apply(Choice(0, 2, None, ((0, 1), (3, 4))))
    assert game.sheets[0].column_crosses == (1, 2, 1)


def test_three_numbers_and_several_shown_the_player_chooses_among_them() -> None:
    game = marie_with_numbers()
    game.apply(Roll((6, 4, 3, 1, 3)))
    assert game.extra_dice() == [0, 2, 3, 4]
    assert len(game.legal_decisions()) == 4 * 3
    refused(game, Choice(0, 1, None, ((0, 2), (3, 4))), "extra die")
    game.apply(Choice(0, 0, None, ((1, 2), (3, 4))))
    assert game.sheets[0].column_crosses == (1, 1, 2)


def test_three_numbers_and_none_shown_free_ride_refuses_an_extra_die_or_column() -> None:
    game = marie_with_numbers()
    game.apply(Roll((2, 4, 5, 5, 5)))
    refused(game, Choice(0, 0, None, ((1, 2), (3, 4))), "free ride", "no extra die")
    refused(game, Choice(0, 0, 1, ((1, 2), (3, 4))), "free ride")
    refused(game, Choice(0, None, 1, ((1, 2), (3, 4))), "EXTRA column", "free ride writes no")
    game.apply(Choice(0, None, None, ((0, 4), (2, 3))))  # any four of the five dice
    assert game.sheets[0].crosses_in(7) == 1 and game.sheets[0].crosses_in(10) == 1


def test_kids_three_numbers_follow_the_same_extra_rules() -> None:
    game = marie_with_numbers(kids=True)
    assert game.sheets[0].column_crosses == (0, 0, 0)
    game.apply(Roll((2, 4, 3, 5, 5)))
    assert game.extra_dice() == [2]
    game.apply(Choice(0, 2, None, ((0, 1), (3, 4))))
    assert game.sheets[0].column_crosses == (0, 1, 0)


# --- pairs and turn order ------------------------------------------------------------------
@pytest.mark.parametrize(
    ("pairs", "words"),
    [
        (((0, 1), (1, 2)), "four different dice"),
        (((0, 0), (1, 2)), "four different dice"),
        (((0, 1), (2, 3)), "extra die 3 cannot also be in a pair"),
        (((0, 1), (2, 5)), "dice indices are 0 to 4"),
        (((0, 1),), "two pairs"),
        (((0, 1, 2), (3, 4)), "two pairs"),
        (((0, "1"), (2, 4)), "two pairs"),
        ("01 24", "two pairs"),
    ],
)
def test_pairs_must_be_two_disjoint_pairs_without_the_extra_die(pairs: Any, words: str) -> None:
    game = Extra(["Marie"])
    game.apply(Roll((1, 2, 2, 3, 5)))
    refused(game, Choice(0, 3, 0, pairs), words)


@pytest.mark.parametrize(
    ("extra", "words"), [(5, "not a die index"), (-1, "not a die index"), (True, "not a die index")]
)
def test_extra_must_be_a_die_index(extra: Any, words: str) -> None:
    game = Extra(["Marie"])
    game.apply(Roll((1, 2, 2, 3, 5)))
    refused(game, Choice(0, extra, 0, ((1, 2), (0, 4))), words)


def test_pairs_are_normalised_so_equal_decisions_compare_equal() -> None:
    one = Choice(0, 3, 0, [[4, 0], [2, 1]])
    other = Choice(0, 3, 0, ((1, 2), (0, 4)))
    assert one == other and hash(one) == hash(other)
    assert one.pairs == ((0, 4), (1, 2))


def test_one_decision_per_player_in_seating_order() -> None:
    game = Extra(["A", "B", "C"])
    game.apply(Roll((1, 2, 2, 3, 5)))
    assert game.pending() == Pending("decision", 0) and game.undecided == (0, 1, 2)
    refused(game, Choice(1, 3, 0, ((1, 2), (0, 4))), "turn order", "player 0 decides now")
    game.apply(Choice(0, 3, 0, ((1, 2), (0, 4))))
    assert game.pending() == Pending("decision", 1)
    refused(game, Roll((1, 1, 1, 1, 1)), "player 1 has a decision")
    game.apply(Choice(1, 0, 2, ((1, 2), (3, 4))))
    game.apply(Choice(2, 4, 1, ((0, 1), (2, 3))))
    assert game.pending() == Pending("roll", 1) and game.roller == 1
    assert [s.numbers for s in game.sheets] == [(3, None, None), (None, None, 1), (None, 5, None)]


def test_decision_before_the_roll_and_foreign_steps_are_refused() -> None:
    game = Extra(["A", "B"])
    refused(game, Choice(0, 3, 0, ((1, 2), (0, 4))), "rolled first")
    refused(game, Roll((1, 2, 3, 4)), "5 dice")
    refused(game, Roll((1, 2, 3, 4, 7)), "die 4 has no face 7")
    game.apply(Roll((1, 2, 2, 3, 5)))
    refused(game, {"player": 0}, "Roll or a Choice")
    refused(game, Choice("0", 3, 0, ((1, 2), (0, 4))), "turn order")  # type: ignore[arg-type]


def test_roller_rotates_clockwise_player_0_first() -> None:
    game = Extra(["A", "B", "C"])
    rollers = []
    for _ in range(4):
        rollers.append(game.pending().player)
        play(game, (1, 2, 2, 3, 5), *[Choice(p, 3, 0 if game.rolls == 0 else None, ((1, 2), (0, 4))) for p in range(3)])
    assert rollers == [0, 1, 2, 0]


# --- the end -------------------------------------------------------------------------------
def test_last_box_ends_that_players_game_and_that_rolls_sums_still_count() -> None:
    game = Extra(["A", "B"])
    play(game, (3, 2, 2, 4, 4), Choice(0, 0, 0, ((1, 2), (3, 4))), Choice(1, 0, 2, ((1, 2), (3, 4))))
    for _ in range(COLUMN_SIZES[0] - 2):
        play(game, (3, 2, 2, 4, 4), Choice(0, 0, None, ((1, 2), (3, 4))), Choice(1, 0, None, ((1, 2), (3, 4))))
    play(game, (3, 5, 6, 4, 4), Choice(0, 0, None, ((1, 2), (3, 4))), Choice(1, 0, None, ((1, 2), (3, 4))))
    assert game.sheets[0].ended and not game.sheets[1].ended
    assert game.sheets[0].crosses_in(11) == 1 and game.sheets[0].crosses_in(8) == 7
    assert game.in_game == (1,) and game.result() is None
    # player 0 is no longer asked; player 1 rolls every time now
    assert game.pending() == Pending("roll", 1)
    play(game, (3, 2, 2, 4, 4), Choice(1, 0, None, ((1, 2), (3, 4))))
    assert game.pending() == Pending("roll", 1) and game.undecided == ()
    play(game, (3, 2, 2, 4, 4), Choice(1, 0, None, ((1, 2), (3, 4))))
    assert game.sheets[1].ended and game.is_over() and game.roller is None
    assert game.events[-2:] == [
        {"kind": "ended", "player": 1, "column": 2},
        {"kind": "game_over", "winners": game.result()["winners"]},
    ]
    refused(game, Roll((1, 1, 1, 1, 1)), "game is over")
    assert game.legal_decisions() == [] and game.extra_dice() == []


def test_ending_player_events_in_order() -> None:
    game = Extra(["A", "B"])
    play(game, (3, 2, 2, 4, 4), Choice(0, 0, 0, ((1, 2), (3, 4))), Choice(1, 0, 2, ((1, 2), (3, 4))))
    for _ in range(COLUMN_SIZES[0] - 2):
        play(game, (3, 2, 2, 4, 4), Choice(0, 0, None, ((1, 2), (3, 4))), Choice(1, 0, None, ((1, 2), (3, 4))))
    play(game, (3, 5, 6, 4, 4), Choice(0, 0, None, ((1, 2), (3, 4))))
    assert game.events == [
        {"kind": "extra", "player": 0, "die": 0, "face": 3, "column": 0, "new": False, "crossed": True},
        {"kind": "cross", "player": 0, "sum": 11, "box": 0},
        {"kind": "cross", "player": 0, "sum": 8, "box": 6},
        {"kind": "ended", "player": 0, "column": 0},
    ]
    assert game.pending() == Pending("decision", 1)


def test_roller_skips_players_whose_game_ended() -> None:
    game = Extra(["A", "B", "C"])
    # B fills its 7-box column in 7 rolls; A and C use a 9-box column.
    first = [Choice(0, 0, 2, ((1, 2), (3, 4))), Choice(1, 0, 0, ((1, 2), (3, 4))), Choice(2, 0, 2, ((1, 2), (3, 4)))]
    play(game, (3, 2, 2, 4, 4), *first)
    for _ in range(COLUMN_SIZES[0] - 1):
        play(game, (3, 2, 2, 4, 4), *[Choice(p, 0, None, ((1, 2), (3, 4))) for p in range(3)])
    assert game.in_game == (0, 2) and game.rolls == 7
    # rolls so far by 0,1,2,0,1,2,0: the next roller after 0 skips B
    assert game.pending() == Pending("roll", 2)
    play(game, (3, 2, 2, 4, 4), *[Choice(p, 0, None, ((1, 2), (3, 4))) for p in (0, 2)])
    assert game.pending() == Pending("roll", 0)


def test_highest_total_wins_and_equal_totals_share() -> None:
    game = Extra(["A", "B", "C"])
    play(
        game,
        (3, 6, 6, 1, 1),
        Choice(0, 0, 0, ((1, 2), (3, 4))),
        Choice(1, 0, 0, ((1, 2), (3, 4))),
        Choice(2, 0, 0, ((1, 3), (2, 4))),
    )
    for _ in range(COLUMN_SIZES[0] - 1):
        play(
            game,
            (3, 6, 6, 1, 1),
            Choice(0, 0, None, ((1, 2), (3, 4))),
            Choice(1, 0, None, ((1, 2), (3, 4))),
            Choice(2, 0, None, ((1, 3), (2, 4))),
        )
    result = game.result()
    assert result is not None
    assert result["scores"] == [600, 600, 210]  # rows 2 and 12 at 3× each; C: a full row 7
    assert result["winners"] == [0, 1]
    assert result["rows"][2]["7"] == 210 and result["rows"][0]["12"] == 300


def test_no_positive_total_the_smallest_loss_wins() -> None:
    game = Extra(["A", "B"])
    play(game, (3, 2, 5, 4, 4), Choice(0, 0, 0, ((1, 2), (3, 4))), Choice(1, 0, 0, ((1, 3), (2, 4))))
    for _ in range(COLUMN_SIZES[0] - 1):
        play(game, (3, 2, 5, 4, 4), Choice(0, 0, None, ((1, 2), (3, 4))), Choice(1, 0, None, ((1, 3), (2, 4))))
    result = game.result()
    assert result is not None and result["scores"] == [-400, -150] and result["winners"] == [1]


# --- records -------------------------------------------------------------------------------
def test_choice_to_json_is_the_record_shape_and_omits_a_missing_column() -> None:
    assert Choice(0, 3, 0, ((1, 2), (0, 4))).to_json() == {
        "player": 0,
        "extra": 3,
        "column": 0,
        "pairs": [[0, 4], [1, 2]],
    }
    assert list(Choice(0, 3, 0, ((1, 2), (0, 4))).to_json()) == ["player", "extra", "column", "pairs"]
    assert Choice(1, None, None, ((3, 4), (0, 2))).to_json() == {"player": 1, "extra": None, "pairs": [[0, 2], [3, 4]]}


def test_parse_step_accepts_rolls_and_choices_with_column_omitted_or_null() -> None:
    assert Extra.parse_step({"roll": [1, 2, 2, 3, 5]}) == Roll((1, 2, 2, 3, 5))
    expected = Choice(0, 1, None, ((0, 4), (2, 3)))
    assert Extra.parse_step({"player": 0, "extra": 1, "pairs": [[3, 2], [4, 0]]}) == expected
    assert Extra.parse_step({"player": 0, "extra": 1, "column": None, "pairs": [[0, 4], [2, 3]]}) == expected
    assert Extra.parse_step({"player": 2, "extra": None, "pairs": [[0, 4], [2, 3]]}).extra is None
    assert Extra.parse_step({"player": 0, "extra": 3, "column": 2, "pairs": [[0, 1], [2, 4]]}).column == 2


@pytest.mark.parametrize(
    ("data", "key"),
    [
        ([1, 2], "JSON object"),
        ({"roll": [1, 2, 3, 4]}, "'roll'"),
        ({"roll": [1, 2, 3, 4, "5"]}, "roll face"),
        ({"roll": [1, 2, 3, 4, True]}, "roll face"),
        ({"pairs": [[0, 1], [2, 3]]}, "'player'"),
        ({"player": "0", "extra": 1, "pairs": [[0, 4], [2, 3]]}, "'player'"),
        ({"player": -1, "extra": 1, "pairs": [[0, 4], [2, 3]]}, "'player'"),
        ({"player": 0, "pairs": [[0, 4], [2, 3]]}, "'extra' is missing"),
        ({"player": 0, "extra": 5, "pairs": [[0, 4], [2, 3]]}, "'extra'"),
        ({"player": 0, "extra": "1", "pairs": [[0, 4], [2, 3]]}, "'extra'"),
        ({"player": 0, "extra": 1, "column": 3, "pairs": [[0, 4], [2, 3]]}, "'column'"),
        ({"player": 0, "extra": 1, "column": False, "pairs": [[0, 4], [2, 3]]}, "'column'"),
        ({"player": 0, "extra": 1}, "'pairs'"),
        ({"player": 0, "extra": 1, "pairs": [[0, 4]]}, "'pairs'"),
        ({"player": 0, "extra": 1, "pairs": [[0, 4, 2], [3, 1]]}, "'pairs'"),
        ({"player": 0, "extra": 1, "pairs": [[0, 7], [2, 3]]}, "'pairs'"),
        ({"player": 0, "extra": 1, "pairs": "0-4 2-3"}, "'pairs'"),
    ],
)
def test_parse_step_refuses_malformed_json_naming_the_key(data: Any, key: str) -> None:
    with pytest.raises(RecordError) as caught:
        Extra.parse_step(data)
    assert key in str(caught.value)


def test_record_keeps_kids_and_replays_the_same_game() -> None:
    game = new_game("extra", [Player("Kid", kids=True), Player("Parent")])
    play(game, (1, 2, 2, 3, 5), Choice(0, 3, 0, ((1, 2), (0, 4))), Choice(1, 3, 0, ((1, 2), (0, 4))))
    record = json.loads(json.dumps(game.to_record()))
    assert record["players"][0] == {"name": "Kid", "kids": True}
    again = replay_record(record)
    assert isinstance(again, Extra) and again.sheets == game.sheets
    assert again.sheets[0].column_crosses == (0, 0, 0)


def test_undo_takes_back_a_decision() -> None:
    game = Extra(["A", "B"])
    play(game, (1, 2, 2, 3, 5), Choice(0, 3, 0, ((1, 2), (0, 4))))
    before = game.to_record()
    step = Choice(1, 3, 0, ((1, 2), (0, 4)))
    game.apply(step)
    assert game.undo() == step
    assert game.to_record() == before and game.pending() == Pending("decision", 1)


# --- perft: legal decisions in fixed positions ---------------------------------------------
def test_perft_first_roll_five_dice_three_columns_three_splits() -> None:
    game = Extra(["Marie"])
    game.apply(Roll((1, 2, 2, 3, 5)))
    decisions = game.legal_decisions()
    assert len(decisions) == 45 and len(set(decisions)) == 45
    assert decisions[:4] == [
        Choice(0, 0, 0, ((1, 2), (3, 4))),
        Choice(0, 0, 0, ((1, 3), (2, 4))),
        Choice(0, 0, 0, ((1, 4), (2, 3))),
        Choice(0, 0, 1, ((1, 2), (3, 4))),
    ]


def test_perft_one_number_owned_and_shown() -> None:
    game = Extra(["Marie"])
    play(game, (1, 2, 2, 3, 5), Choice(0, 3, 1, ((1, 2), (0, 4))))
    game.apply(Roll((1, 2, 2, 3, 5)))
    assert len(game.legal_decisions()) == 4 * 2 * 3 + 3


def test_perft_three_numbers_positions() -> None:
    game = marie_with_numbers()
    game.apply(Roll((2, 4, 5, 5, 5)))
    assert len(game.legal_decisions()) == 15
    assert game.legal_decisions()[:3] == [
        Choice(0, None, None, ((1, 2), (3, 4))),
        Choice(0, None, None, ((1, 3), (2, 4))),
        Choice(0, None, None, ((1, 4), (2, 3))),
    ]
    game.apply(game.legal_decisions()[0])
    game.apply(Roll((6, 1, 3, 6, 3)))
    assert len(game.legal_decisions()) == 5 * 3
    game.apply(game.legal_decisions()[0])
    game.apply(Roll((6, 2, 4, 5, 5)))
    assert len(game.legal_decisions()) == 3


def test_perft_two_numbers_and_second_player() -> None:
    game = Extra(["A", "B"])
    play(game, (1, 2, 2, 3, 5), Choice(0, 3, 0, ((1, 2), (0, 4))), Choice(1, 3, 0, ((1, 2), (0, 4))))
    play(game, (6, 2, 2, 3, 5), Choice(0, 0, 1, ((1, 2), (3, 4))))
    assert game.pending() == Pending("decision", 1)
    # B owns 3: die 3 (no column) 3 splits; dice 0, 1, 2, 4 each 2 columns × 3 splits
    assert len(game.legal_decisions()) == 3 + 4 * 2 * 3
    assert all(d.player == 1 for d in game.legal_decisions())
