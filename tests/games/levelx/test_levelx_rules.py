"""LEVEL X: the rulebook's examples, every rule and its error paths, outcomes, records, perft."""

from __future__ import annotations

import json
from itertools import product
from typing import Any

import pytest

from firmware.errors import IllegalStepError, RecordError
from firmware.games import Pending, new_game
from firmware.games.base import Game
from firmware.games.base import Roll
from firmware.games.levelx.rules import BONUS_TILES, Bonus, Groups, LevelX, TurnOnes, outcomes

PASS_FACES = (2, 2, 2, 2)


# --- helpers ---------------------------------------------------------------------------------
def state(game: LevelX) -> tuple[Any, ...]:
    """Everything the UI can read, to prove a refused step changed nothing."""
    return (
        game.pending(), game.current_player, game.round_number, game.faces, game.ones_turned,
        game.pieces, game.x_holders, game.chips_left, game.chip_counts, game.bonus,
        game.tiles_left, game.supply, game.lost, game.end_triggered, game.bonus_pending, len(game.history),
    )  # fmt: skip


def turn(
    game: LevelX, faces: tuple[int, ...], groups: tuple[tuple[int, ...], ...] = (), ones: tuple[int, ...] | None = None
) -> None:
    """One whole turn: the roll, the optional lucky loser, the groups."""
    game.apply(Roll(faces))
    if ones is not None:
        game.apply(TurnOnes(ones))
    game.apply(Groups(groups))


def pass_turn(game: LevelX) -> None:
    turn(game, PASS_FACES, ())


def refused(game: LevelX, step: Any, words: str) -> None:
    """`step` raises IllegalStepError mentioning `words` and leaves the game as it was."""
    before, record = state(game), game.to_record()
    with pytest.raises(IllegalStepError, match=words):
        game.apply(step)
    assert state(game) == before
    assert game.to_record() == record


SINGLES = ((0,), (1,), (2,), (3,))
PAIRS = ((0, 1), (2, 3))


# --- the rulebook's examples -----------------------------------------------------------------
def test_example_groups_from_2_3_5_6() -> None:
    """English text: 2-3-5-5-6 (five dice); the German, Dutch and Spanish texts print 2-3-5-6,
    which fits the board's four dice. Every way to group them, as the player chooses."""
    labels = [o.label for o in outcomes((2, 3, 5, 6))]
    assert labels == [
        "5+5+6", "5+5", "5+6", "5+8", "5+9", "6+7", "6+8", "6+10", "7+9", "8+8",
        "5", "6", "7", "8", "9", "10", "none",
    ]  # fmt: skip
    game = LevelX(["Yellow", "Red"])
    turn(game, (2, 3, 5, 6), ((0, 1), (2,), (3,)))  # 2+3, 5, 6
    assert game.pieces[0] == (1, 0, None, None, None, None)


def test_example_yellow_5_5_6() -> None:
    """Yellow groups 5-5-6: a new piece in row 6, a new piece in row 5 moved on by the second 5."""
    game = LevelX(["Yellow", "Red"])
    turn(game, (5, 5, 6, 2), ((2,), (0,), (1,)))
    assert game.pieces[0][:2] == (1, 0)  # row 5 on its second field, row 6 on its first
    assert game.supply == (4, 6)
    kinds = [(e["kind"], e.get("row")) for e in game.events if e["kind"] in ("place", "move")]
    assert kinds == [("place", 6), ("place", 5), ("move", 5)]


def test_example_5_5_5_5_to_x_ousts_red() -> None:
    """Rulebook (English): 5-5-5-5-5; the German text and the board: 5-5-5-5 with four dice.
    Yellow goes straight to the X of row 5, takes a chip; Red's piece there goes home."""
    game = LevelX(["Yellow", "Red"])
    pass_turn(game)
    turn(game, (5, 5, 5, 5), SINGLES)  # Red reaches X first
    assert game.x_holders[0] == 1 and game.chips[1] == (5,)
    turn(game, (5, 5, 5, 5), SINGLES)
    assert game.x_holders[0] == 0
    assert game.pieces[0][0] == 3 and game.pieces[1][0] is None
    assert game.supply == (5, 6)
    assert game.chips == ((5,), (5,))
    assert {"kind": "oust", "player": 1, "row": 5, "by": 0} in game.events


def test_example_red_two_5s_and_a_6_ousts_green_and_repeats_chips() -> None:
    """Red already on X in row 6 and one field before X in row 5, Green on X in row 5.
    Red groups 6, 5, 5: a 6 chip; moves onto X ousting Green, a 5 chip; a second 5 chip."""
    game = LevelX(["Red", "Green"])
    turn(game, (6, 6, 6, 6), SINGLES)  # Red onto X of row 6 (one 6 chip)
    pass_turn(game)
    turn(game, (5, 5, 5, 2), ((0,), (1,), (2,)))  # Red to field 2 of row 5
    turn(game, (5, 5, 5, 5), SINGLES)  # Green onto X of row 5
    assert game.pieces[0][0] == 2 and game.x_holders[0] == 1
    turn(game, (5, 5, 6, 2), ((2,), (0,), (1,)))
    assert game.chips == ((5, 5, 6, 6), (5,))
    assert game.x_holders[:2] == (0, 0)
    assert game.pieces[1][0] is None and game.supply[1] == 6
    effects = [(e["kind"], e.get("row")) for e in game.events if e["kind"] in ("chip", "move", "oust")]
    assert effects == [("chip", 6), ("move", 5), ("oust", 5), ("chip", 5), ("chip", 5)]


def test_example_no_chips_left_closes_row_and_removes_its_pieces() -> None:
    """The last chip of row 10 closes it; every piece there (the taker's too) leaves the game;
    later 10s have no effect there."""
    game = LevelX(["Yellow", "Red"])
    turn(game, (5, 5, 5, 5), PAIRS)  # Yellow: place and X, 1 chip (5 left of 6)
    turn(game, (5, 5, 1, 2), ((0, 1),))  # Red places in row 10
    for _ in range(2):
        turn(game, (5, 5, 5, 5), PAIRS)  # two chips each turn
        pass_turn(game)
    assert game.chips_left[5] == 1
    turn(game, (5, 5, 5, 5), PAIRS)
    assert game.chips_left[5] == 0 and game.closed_rows == (10,)
    assert game.pieces[0][5] is None and game.pieces[1][5] is None and game.x_holders[5] is None
    assert game.lost == (1, 1) and game.supply == (5, 5)
    assert game.chips[0] == (10,) * 6
    assert {"kind": "close", "row": 10, "lost": [0, 1]} in game.events
    assert game.events[-2] == {"kind": "no_effect", "player": 0, "row": 10, "reason": "closed"}
    turn(game, (5, 5, 5, 5), PAIRS)  # Red: row 10 is closed
    assert game.pieces[1][5] is None and game.supply == (5, 5) and game.chips[1] == ()


def test_example_lucky_loser_1_1_1_5_to_7_and_10() -> None:
    """Three 1s and a 5: one 1 turned to 5, one to 6, grouped as 7 (6+1) and 10 (5+5)."""
    game = LevelX(["Yellow", "Red"])
    game.apply(Roll((1, 1, 1, 5)))
    assert game.ones_to_turn == 2
    game.apply(TurnOnes((5, 6)))
    assert game.faces == (5, 6, 1, 5) and game.ones_turned and game.ones_to_turn == 0
    labels = [o.label for o in outcomes(game)]
    assert labels[:3] == ["5+5+6", "5+5+7", "5+6+6"] and "7+10" in labels
    game.apply(Groups(((1, 2), (0, 3))))
    assert game.pieces[0] == (None, None, 0, None, None, 0)


_ARRIVALS = [
    ((5, 5, 5, 5), SINGLES), ((6, 6, 6, 6), SINGLES),
    ((3, 4, 3, 4), PAIRS), ((3, 4, 3, 4), PAIRS),
    ((4, 4, 4, 4), PAIRS), ((4, 4, 4, 4), PAIRS),
    ((4, 5, 4, 5), PAIRS), ((5, 5, 5, 5), PAIRS),
]  # fmt: skip


def _reach_every_x(game: LevelX) -> None:
    """Player 0 reaches the X of every row (player 1 passes): chips 5, 6, 7, 7, 8, 8, 9, 10."""
    for faces, groups in _ARRIVALS:
        turn(game, faces, groups)
        pass_turn(game)


def _one_more_set(game: LevelX) -> None:
    """Player 0, on every X, takes one chip of each row in three turns (player 1 passes)."""
    for faces, groups in [((5, 6, 4, 5), ((0,), (1,), (2, 3))), ((5, 5, 3, 4), PAIRS), ((4, 4, 1, 2), ((0, 1),))]:
        turn(game, faces, groups)
        pass_turn(game)


def test_example_bonus_cards() -> None:
    """Six different chips: the top bonus card (15); a second complete set: the next (12)."""
    game = LevelX(["Yellow", "Red"])
    _reach_every_x(game)
    assert game.chips[0] == (5, 6, 7, 7, 8, 8, 9, 10)
    assert game.sets == (1, 0) and game.bonus == ((15,), ()) and game.tiles_left == (12, 9, 6)
    _one_more_set(game)
    assert game.sets == (2, 0) and game.bonus == ((15, 12), ()) and game.tiles_left == (9, 6)
    assert game.scores[0] == sum(game.chips[0]) + 27


def test_example_end_of_game_third_stack_completes_the_round() -> None:
    """Yellow empties a third stack (rows 10, 9, 8); Red still plays the round, then it ends."""
    game = LevelX(["Yellow", "Red"])
    for faces, first, more in [((5, 5, 5, 5), 1, 3), ((4, 5, 4, 5), 1, 3), ((4, 4, 4, 4), 2, 3)]:
        for _ in range(first + more):
            turn(game, faces, PAIRS)
            if game.end_triggered:
                break
            pass_turn(game)
    assert game.closed_rows == (8, 9, 10) and game.end_triggered
    assert {"kind": "end_triggered", "reason": "stacks"} in game.events
    assert game.pending() == Pending("roll", 1) and game.result() is None
    turn(game, (5, 5, 5, 5), SINGLES)  # Red's last turn of the round
    assert game.is_over() and game.pending() == Pending("over")
    assert game.events[-1] == {"kind": "game_over", "winners": [0]}
    assert game.result() == {
        "scores": [60 + 63 + 64, 5],
        "chips": [[8] * 8 + [9] * 7 + [10] * 6, [5]],
        "bonus": [[], []],
        "winners": [0],
    }
    refused(game, Roll((1, 2, 3, 4)), "game is over")


# --- set-up and turn order -------------------------------------------------------------------
def test_setup_four_players() -> None:
    game = new_game("levelx", ["A", "B", "C", "D"])
    assert isinstance(game, LevelX)
    assert game.chips_left == (12, 11, 10, 9, 8, 7) and game.chips_start == (12, 11, 10, 9, 8, 7)
    assert game.tiles_left == BONUS_TILES == (15, 12, 9, 6)
    assert game.supply == (6, 6, 6, 6) and game.lost == (0, 0, 0, 0)
    assert game.pieces == ((None,) * 6,) * 4 and game.x_holders == (None,) * 6
    assert game.pending() == Pending("roll", 0) and game.round_number == 1 and game.faces is None
    assert game.legal_decisions() == [] and game.result() is None and game.scores == (0, 0, 0, 0)


@pytest.mark.parametrize("players", [2, 3])
def test_setup_two_or_three_players_one_chip_fewer_per_row(players: int) -> None:
    game = LevelX([str(i) for i in range(players)])
    assert game.chips_left == (11, 10, 9, 8, 7, 6)


@pytest.mark.parametrize("players", [1, 5])
def test_player_count_is_two_to_four(players: int) -> None:
    with pytest.raises(IllegalStepError, match="2 to 4 players"):
        LevelX([str(i) for i in range(players)])


def test_turn_order_and_rounds() -> None:
    game = LevelX(["A", "B", "C"])
    pass_turn(game)
    assert game.pending() == Pending("roll", 1) and game.round_number == 1
    pass_turn(game)
    pass_turn(game)
    assert game.pending() == Pending("roll", 0) and game.round_number == 2
    assert game.events[-1] == {"kind": "turn", "player": 0, "round": 2}


def test_roll_then_decision_by_the_same_player() -> None:
    game = LevelX(["A", "B"])
    game.apply(Roll((3, 4, 5, 6)))
    assert game.pending() == Pending("decision", 0) and game.faces == (3, 4, 5, 6)
    assert game.events == [{"kind": "roll", "player": 0, "faces": [3, 4, 5, 6]}]


# --- rolls -----------------------------------------------------------------------------------
def test_roll_refusals() -> None:
    game = LevelX(["A", "B"])
    refused(game, Roll((1, 2, 3)), "4 dice")
    refused(game, Roll((1, 2, 3, 7)), "no face 7")
    refused(game, Roll((0, 2, 3, 4)), "no face 0")
    refused(game, Roll((True, 2, 3, 4)), "integers")
    refused(game, Groups(()), "rolled first")
    refused(game, TurnOnes((5,)), "rolled first")
    game.apply(Roll((1, 1, 3, 4)))
    refused(game, Roll((1, 2, 3, 4)), "decision to make")


def test_unknown_step_is_refused() -> None:
    game = LevelX(["A", "B"])
    game.apply(Roll((1, 2, 3, 4)))
    refused(game, "pass", "not a LEVEL X step")


# --- lucky loser -----------------------------------------------------------------------------
def test_turn_ones_replaces_lowest_indices_and_keeps_the_last_one() -> None:
    game = LevelX(["A", "B"])
    game.apply(Roll((3, 1, 1, 1)))
    game.apply(TurnOnes((6, 4)))
    assert game.faces == (3, 6, 4, 1)
    assert game.events == [{"kind": "turn_ones", "player": 0, "dice": [1, 2], "faces": [3, 6, 4, 1]}]
    assert game.pending() == Pending("decision", 0)


def test_turn_ones_four_ones_and_faces_may_stay_one() -> None:
    game = LevelX(["A", "B"])
    game.apply(Roll((1, 1, 1, 1)))
    assert game.ones_to_turn == 3
    game.apply(TurnOnes((1, 6, 1)))
    assert game.faces == (1, 6, 1, 1)
    refused(game, TurnOnes((5, 5)), "already turned")  # two ones remain: never a second time


def test_turn_ones_needs_two_ones() -> None:
    game = LevelX(["A", "B"])
    game.apply(Roll((1, 2, 3, 4)))
    assert game.ones_to_turn == 0
    refused(game, TurnOnes(()), "two or more dice showing 1")
    assert not any(isinstance(d, TurnOnes) for d in game.legal_decisions())


def test_turn_ones_refusals() -> None:
    game = LevelX(["A", "B"])
    game.apply(Roll((1, 1, 1, 5)))
    refused(game, TurnOnes((5,)), "2 new faces, not 1")
    refused(game, TurnOnes((5, 6, 6)), "2 new faces, not 3")
    refused(game, TurnOnes((5, 7)), "new face 7")
    refused(game, TurnOnes((0, 5)), "new face 0")
    refused(game, TurnOnes((True, 5)), "new face True")
    game.apply(TurnOnes((5, 6)))
    refused(game, TurnOnes((5, 6)), "already turned")


def test_turn_ones_after_groups_is_a_new_turn() -> None:
    game = LevelX(["A", "B"])
    turn(game, (1, 1, 2, 3), ((1, 2, 3),), ones=(1,))
    game.apply(Roll((1, 1, 4, 4)))
    assert game.ones_to_turn == 1 and not game.ones_turned


# --- groups ----------------------------------------------------------------------------------
def test_groups_refusals() -> None:
    game = LevelX(["A", "B"])
    game.apply(Roll((2, 3, 5, 6)))
    refused(game, Groups(((),)), "at least one die")
    refused(game, Groups(((4,),)), "die index 4 does not exist")
    refused(game, Groups(((-1, 2),)), "die index -1 does not exist")
    refused(game, Groups(((2,), (2, 0))), "die 2 is in two groups")
    refused(game, Groups(((2, 2),)), "die 2 is in two groups")
    refused(game, Groups(((0,),)), "sums to 2; a group must sum to 5–10")
    refused(game, Groups(((2,), (0, 1, 3))), "sums to 11; a group must sum to 5–10")
    with pytest.raises(IllegalStepError, match="must be an integer"):
        Groups(((0, "1"),))


def test_groups_equality_ignores_order_but_json_keeps_it() -> None:
    a, b = Groups(((3, 0), (2, 1))), Groups(((1, 2), (0, 3)))
    assert a == b and hash(a) == hash(b) and a != Groups(((0, 3),)) and a != TurnOnes((0, 3))
    assert a.to_json() == {"groups": [[3, 0], [2, 1]]} and a.canonical().to_json() == {"groups": [[0, 3], [1, 2]]}
    game = LevelX(["A", "B"])
    game.apply(Roll((1, 5, 4, 4)))
    assert a in game.legal_decisions()
    game.apply(a)
    assert game.to_record()["steps"][-1] == {"groups": [[3, 0], [2, 1]]}
    assert game.pieces[0] == (0, None, None, None, 0, None)  # 4+1 = 5 and 4+5 = 9


def test_empty_groups_uses_no_dice() -> None:
    game = LevelX(["A", "B"])
    game.apply(Roll((5, 5, 5, 5)))
    game.apply(Groups(()))
    assert game.pieces[0] == (None,) * 6 and game.pending() == Pending("roll", 1)


def test_place_move_and_other_players_share_fields() -> None:
    game = LevelX(["A", "B"])
    turn(game, (3, 4, 1, 6), ((0, 1),))  # A places in row 7
    turn(game, (3, 4, 1, 6), ((0, 1),))  # B places in row 7, same field
    assert game.pieces[0][2] == 0 and game.pieces[1][2] == 0
    turn(game, (3, 4, 1, 6), ((0, 1),))  # A moves on: its one piece in the row, not a second
    assert game.pieces[0][2] == 1 and game.supply == (5, 5)
    assert game.events == [
        {"kind": "group", "player": 0, "dice": [0, 1], "row": 7},
        {"kind": "move", "player": 0, "row": 7, "from": 0, "to": 1},
        {"kind": "turn", "player": 1, "round": 2},
    ]


def test_on_x_every_group_takes_a_chip() -> None:
    game = LevelX(["A", "B"])
    turn(game, (5, 5, 5, 5), PAIRS)
    pass_turn(game)
    turn(game, (5, 5, 5, 5), PAIRS)
    assert game.chips[0] == (10, 10, 10) and game.pieces[0][5] == 1 and game.chips_left[5] == 3


def test_empty_supply_means_every_open_row_holds_an_own_piece() -> None:
    """Why "no piece left to place" never arises: a closure loses at most one own piece, so
    with an empty supply every open row still holds one (docs/rules/levelx.md)."""
    game = LevelX(["A", "B"])
    turn(game, (5, 6, 3, 4), ((0,), (1,), (2, 3)))  # A: rows 5, 6, 7
    pass_turn(game)
    turn(game, (4, 4, 4, 5), ((0, 1),))  # A: row 8
    pass_turn(game)
    turn(game, (4, 5, 5, 5), ((0, 1), (2, 3)))  # A: rows 9 and 10 (supply 0)
    turn(game, (5, 5, 1, 2), ((0, 1),))  # B: row 10
    for _ in range(2):  # A onto X of row 10 and on, two chips a turn (6 in the stack)
        turn(game, (5, 5, 5, 5), PAIRS)
        pass_turn(game)
    assert game.closed_rows == () and game.chips_left[5] == 2
    turn(game, (5, 5, 5, 5), PAIRS)  # last chip: row 10 closes, A's and B's pieces there are lost
    assert game.closed_rows == (10,) and game.lost == (1, 1) and game.supply == (0, 5)
    pass_turn(game)
    # A's six pieces: five on the board, one lost; row 10 is closed, every other row occupied.
    assert game.pieces[0][:5] == (0, 0, 0, 0, 0)
    turn(game, (5, 5, 4, 5), ((0,),))  # row 5: move, not place
    assert game.pieces[0][0] == 1 and game.supply[0] == 0
    assert all(game.pieces[0][r] is not None for r in range(6) if game.chips_left[r])


def test_bonus_goes_to_whoever_completes_a_set_next() -> None:
    game = LevelX(["Yellow", "Red"])
    _reach_every_x(game)
    for faces, groups in _ARRIVALS:  # Red does the same, ousting Yellow from every X
        pass_turn(game)
        turn(game, faces, groups)
    assert {"kind": "bonus", "player": 1, "tile": 12} in game.events
    assert game.x_holders == (1,) * 6
    assert game.sets == (1, 1) and game.bonus == ((15,), (12,)) and game.tiles_left == (9, 6)


def test_version_1_takes_the_last_bonus_tile_at_once_and_ends_after_the_round() -> None:
    """Record version 1's rules (`last_tile_choice=False`): the last tile is taken like the others."""
    game = LevelX(["Yellow", "Red"], last_tile_choice=False)
    _reach_every_x(game)
    for _ in range(2):
        _one_more_set(game)
    assert game.bonus[0] == (15, 12, 9) and not game.end_triggered
    for faces, groups in [((5, 6, 4, 5), ((0,), (1,), (2, 3))), ((5, 5, 3, 4), PAIRS), ((4, 4, 1, 2), ((0, 1),))]:
        turn(game, faces, groups)
        if game.end_triggered:
            break
        pass_turn(game)
    assert game.bonus[0] == BONUS_TILES and game.tiles_left == ()
    assert {"kind": "end_triggered", "reason": "bonus"} in game.events
    assert game.pending() == Pending("roll", 1)
    turn(game, (5, 5, 5, 5), SINGLES)
    assert game.is_over()
    result = game.result()
    assert result is not None and result["bonus"] == [[15, 12, 9, 6], []] and result["winners"] == [0]
    assert result["scores"][0] == sum(result["chips"][0]) + 42
    assert result["chips"][0] == sorted(result["chips"][0])


# --- the last bonus tile: a choice (record version 2) -----------------------------------------
FOURTH_SET = ((5, 5, 3, 4), PAIRS)  # after `_three_sets`: the chips of 10 and 7 complete a fourth set


def _three_sets(game: LevelX) -> None:
    """The acting player (player 0, or player 1 after a first pass) holds three sets and the
    tiles 15, 12, 9, and all but a 10 of a fourth set; the other player passes."""
    _reach_every_x(game)
    for _ in range(2):
        _one_more_set(game)
    turn(game, (5, 6, 4, 5), ((0,), (1,), (2, 3)))
    pass_turn(game)


def test_entitled_player_chooses_and_taking_ends_the_game_after_the_round() -> None:
    game = LevelX(["Yellow", "Red"])
    _three_sets(game)
    assert game.bonus[0] == (15, 12, 9) and game.tiles_left == (6,) and game.sets[0] == 3
    turn(game, *FOURTH_SET)  # the fourth set: the last tile is offered, not taken
    assert game.sets[0] == 4 and game.tiles_left == (6,) and game.bonus[0] == (15, 12, 9)
    assert game.bonus_pending and game.pending() == Pending("decision", 0) and game.faces is None
    assert game.legal_decisions() == [Bonus(True), Bonus(False)]
    assert {"kind": "bonus_offer", "player": 0, "tile": 6} in game.events
    assert not game.end_triggered and not any(e["kind"] == "turn" for e in game.events)
    refused(game, Roll((5, 5, 5, 5)), "decision")
    refused(game, Groups(()), "bonus")
    game.apply(Bonus(True))
    assert game.bonus[0] == BONUS_TILES and game.tiles_left == () and game.end_triggered
    assert game.events == [
        {"kind": "bonus", "player": 0, "tile": 6},
        {"kind": "end_triggered", "reason": "bonus"},
        {"kind": "turn", "player": 1, "round": game.round_number},
    ]
    assert game.actor(-1) == 0 and game.pending() == Pending("roll", 1)
    turn(game, (5, 5, 5, 5), SINGLES)  # Red completes the round
    assert game.is_over() and game.result()["bonus"] == [[15, 12, 9, 6], []]  # type: ignore[index]


def test_taking_the_last_tile_in_the_last_seat_ends_the_game_at_once() -> None:
    game = LevelX(["Yellow", "Red"])
    pass_turn(game)  # from here Red plays the turns the helpers give player 0
    _three_sets(game)
    turn(game, *FOURTH_SET)
    assert game.pending() == Pending("decision", 1) and game.bonus_pending
    game.apply(Bonus(True))
    assert game.is_over() and game.events[-1]["kind"] == "game_over"


def test_declined_tile_stays_and_is_offered_again_after_a_later_chip() -> None:
    game = LevelX(["Yellow", "Red"])
    _three_sets(game)
    turn(game, *FOURTH_SET)
    game.apply(Bonus(False))
    assert game.events[0] == {"kind": "bonus_declined", "player": 0, "tile": 6}
    assert game.tiles_left == (6,) and game.bonus[0] == (15, 12, 9) and not game.end_triggered
    assert game.pending() == Pending("roll", 1)
    pass_turn(game)
    turn(game, (2, 3, 1, 1), ((0, 1),))  # 2+3: a chip of 5 on the X; still entitled: asked again
    assert game.bonus_pending
    game.apply(Bonus(False))
    pass_turn(game)
    turn(game, (1, 1, 1, 2), ())  # no chip this turn: not asked, though still entitled
    assert not game.bonus_pending and game.pending() == Pending("roll", 1)
    pass_turn(game)
    turn(game, (6, 1, 1, 2), ((0,),))  # a chip of 6: asked again, and this time takes it
    assert game.pending() == Pending("decision", 0)
    game.apply(Bonus(True))
    assert game.bonus[0] == BONUS_TILES and game.end_triggered
    pass_turn(game)
    assert game.is_over()


def test_another_player_is_asked_once_entitled_and_a_player_not_entitled_never() -> None:
    game = LevelX(["Yellow", "Red"])
    _three_sets(game)
    turn(game, (5, 5, 5, 5), SINGLES)  # a chip, no fourth set: not entitled, not asked
    assert not game.bonus_pending and game.pending() == Pending("roll", 1)
    for faces, groups in _ARRIVALS:  # Red reaches every X (ousting Yellow): a first set
        turn(game, faces, groups)
        if game.bonus_pending:
            break
        pass_turn(game)
    assert game.sets[1] == 1 and game.bonus[1] == () and game.pending() == Pending("decision", 1)
    game.apply(Bonus(False))
    pass_turn(game)  # Yellow (three sets, three tiles): nothing to choose
    turn(game, (6, 1, 1, 2), ((0,),))  # Red on the X of row 6: a chip, asked again
    assert game.pending() == Pending("decision", 1)


def test_bonus_step_refusals() -> None:
    game = LevelX(["Yellow", "Red"])
    refused(game, Bonus(True), "roll")
    game.apply(Roll((5, 5, 5, 5)))
    refused(game, Bonus(False), "no bonus tile is offered")
    with pytest.raises(IllegalStepError, match="true or false"):
        Bonus(1)  # type: ignore[arg-type]
    v1 = LevelX(["Yellow", "Red"], last_tile_choice=False)
    _three_sets(v1)
    turn(v1, *FOURTH_SET)  # version 1: the tile is taken at once, nothing to choose
    assert v1.bonus[0] == BONUS_TILES and not v1.bonus_pending and v1.pending() == Pending("roll", 1)
    refused(v1, Bonus(True), "roll")
    assert v1.to_record()["version"] == 1 and LevelX(["A", "B"]).to_record()["version"] == 2


def test_undo_and_copy_across_the_bonus_choice() -> None:
    game = LevelX(["Yellow", "Red"])
    _three_sets(game)
    before = state(game)
    turn(game, *FOURTH_SET)
    offered = state(game)
    twin = game.copy()
    game.apply(Bonus(True))
    assert state(twin) == offered
    assert game.undo() == Bonus(True) and state(game) == offered
    game.apply(Bonus(False))
    assert game.undo() == Bonus(False) and state(game) == offered
    game.undo()
    game.undo()
    assert state(game) == before


def test_end_triggered_by_the_last_seat_ends_at_once() -> None:
    game = LevelX(["Yellow", "Red"])
    pass_turn(game)
    for faces, first, more in [((5, 5, 5, 5), 1, 3), ((4, 5, 4, 5), 1, 3), ((4, 4, 4, 4), 2, 3)]:
        for _ in range(first + more):
            turn(game, faces, PAIRS)  # Red
            if game.is_over():
                break
            pass_turn(game)  # Yellow
    assert game.is_over() and game.round_number == 13 and game.closed_rows == (8, 9, 10)
    assert game.legal_decisions() == [] and outcomes(game) == []


def test_tie_shares_the_win() -> None:
    """Rows 10 and 6 shared by alternating arrivals, row 9 4:3 for Red, Yellow's two 7s
    against Red's one 5: 101 each."""
    game = LevelX(["Yellow", "Red"])
    turn(game, (3, 4, 3, 4), PAIRS)
    turn(game, (5, 5, 5, 5), SINGLES)
    turn(game, (3, 4, 3, 4), PAIRS)
    pass_turn(game)
    for faces, groups, rounds in [((5, 5, 5, 5), PAIRS, 3), ((6, 6, 6, 6), SINGLES, 5)]:
        for _ in range(rounds):
            turn(game, faces, groups)
            turn(game, faces, groups)
    assert game.closed_rows == (6, 10)
    pass_turn(game)
    for _ in range(4):
        turn(game, (4, 5, 4, 5), PAIRS)  # Red arrives (ousting Yellow)
        if game.is_over():
            break
        turn(game, (4, 5, 4, 5), PAIRS)  # Yellow arrives (ousting Red)
    assert game.is_over()
    assert game.result() == {
        "scores": [101, 101],
        "chips": [[6] * 5 + [7, 7] + [9] * 3 + [10] * 3, [5] + [6] * 5 + [9] * 4 + [10] * 3],
        "bonus": [[], []],
        "winners": [0, 1],
    }


# --- legal decisions, outcomes, perft ----------------------------------------------------------
def _brute_groupings(faces: tuple[int, ...]) -> set[Groups]:
    """Every grouping, by labelling each die with a group 1–4 or 0 (unused)."""
    found = set()
    for labels in product(range(5), repeat=4):
        groups = [tuple(i for i in range(4) if labels[i] == g) for g in range(1, 5)]
        groups = [g for g in groups if g]
        if all(5 <= sum(faces[i] for i in g) <= 10 for g in groups):
            found.add(Groups(tuple(groups)))
    return found


@pytest.mark.parametrize(
    ("faces", "ones", "expected"),
    [
        ((1, 1, 1, 5), None, 36 + 9),
        ((1, 1, 1, 1), None, 216 + 1),
        ((1, 1, 1, 5), (5, 6), 1 + 7 + 11 + 4),  # counted by hand: none, 1, 2 and 3 groups
        ((2, 3, 5, 6), None, 1 + 8 + 10 + 1),
        ((5, 5, 5, 5), None, 43),  # blocks of one or two dice over any subset: sum C(4,k)·I(k)
        ((6, 6, 6, 6), None, 16),  # any subset of single dice
        ((5, 5, 1, 4), None, 1 + 10 + 12 + 1),
        ((1, 1, 4, 4), None, 6 + 1 + 10 + 2),
    ],
)
def test_perft_legal_decision_counts(faces: tuple[int, ...], ones: tuple[int, ...] | None, expected: int) -> None:
    game = LevelX(["A", "B"])
    game.apply(Roll(faces))
    if ones is not None:
        game.apply(TurnOnes(ones))
    decisions = game.legal_decisions()
    assert len(decisions) == expected
    groupings = [d for d in decisions if isinstance(d, Groups)]
    assert set(groupings) == _brute_groupings(game.faces or ())
    assert len(set(groupings)) == len(groupings)


def test_legal_decisions_order() -> None:
    game = LevelX(["A", "B"])
    game.apply(Roll((1, 1, 4, 4)))
    decisions = game.legal_decisions()
    assert decisions[:6] == [TurnOnes((f,)) for f in range(1, 7)]
    groupings = decisions[6:]
    assert groupings[0] == Groups(()) and groupings[0].groups == ()
    assert [g.groups for g in groupings] == sorted((g.groups for g in groupings), key=lambda gs: (len(gs), gs))
    assert all(g.groups == g.canonical().groups for g in groupings)


def test_outcomes_of_5_5_1_4() -> None:
    result = outcomes((5, 5, 1, 4))
    assert [o.label for o in result] == ["5+5+5", "5+5", "5+6", "5+9", "5+10", "6+9", "5", "6", "9", "10", "none"]
    assert len(result) == 11
    game = LevelX(["A", "B"])
    game.apply(Roll((5, 5, 1, 4)))
    legal = game.legal_decisions()
    for outcome in outcomes(game):
        assert outcome.groups in legal
        assert tuple(sorted(sum((5, 5, 1, 4)[i] for i in g) for g in outcome.groups.groups)) == outcome.sums
    assert result[-1].groups == Groups(()) and result[-1].sums == ()


def test_outcomes_refusals_and_phases() -> None:
    with pytest.raises(IllegalStepError, match="4 faces 1–6"):
        outcomes((1, 2, 3))
    with pytest.raises(IllegalStepError, match="4 faces 1–6"):
        outcomes((1, 2, 3, 7))
    game = LevelX(["A", "B"])
    assert outcomes(game) == []


# --- records ---------------------------------------------------------------------------------
def test_parse_step_shapes() -> None:
    assert LevelX.parse_step({"roll": [1, 1, 1, 5]}) == Roll((1, 1, 1, 5))
    assert LevelX.parse_step({"turn_ones": [5, 6]}) == TurnOnes((5, 6))
    step = LevelX.parse_step({"groups": [[0, 3], [1, 2]]})
    assert step == Groups(((0, 3), (1, 2))) and step.to_json() == {"groups": [[0, 3], [1, 2]]}
    assert LevelX.parse_step({"groups": []}) == Groups(())
    assert LevelX.parse_step({"bonus": True}) == Bonus(True) and Bonus(False).to_json() == {"bonus": False}


@pytest.mark.parametrize(
    ("data", "words"),
    [
        ([1, 2], "must be an object"),
        ({}, "exactly one of"),
        ({"roll": [1, 2, 3, 4], "groups": []}, "exactly one of"),
        ({"roll": [1, 2, 3]}, "'roll' must be a list of 4"),
        ({"roll": ["1", 2, 3, 4]}, "must be an integer"),
        ({"turn_ones": 5}, "'turn_ones' must be a list"),
        ({"turn_ones": [True]}, "'turn_ones' must be a list"),
        ({"groups": [0, 1]}, "'groups' must be a list of lists"),
        ({"groups": [[0, "1"]]}, "'groups' must be a list of lists"),
        ({"groups": None}, "'groups' must be a list of lists"),
        ({"bonus": 1}, "'bonus' must be true or false"),
        ({"bonus": "yes"}, "'bonus' must be true or false"),
        ({"bonus": True, "groups": []}, "exactly one of"),
    ],
)
def test_parse_step_refusals(data: Any, words: str) -> None:
    with pytest.raises(RecordError, match=words):
        LevelX.parse_step(data)


def test_record_round_trip_and_copy_and_undo() -> None:
    game = LevelX(["Yellow", "Red", "Green"])
    turn(game, (1, 1, 1, 5), ((1, 2), (0, 3)), ones=(5, 6))
    turn(game, (5, 5, 5, 5), SINGLES)
    game.apply(Roll((6, 6, 2, 3)))
    text = json.dumps(game.to_record())
    replay = LevelX(["Yellow", "Red", "Green"])
    for data in json.loads(text)["steps"]:
        replay.apply_json(data)
    assert replay.to_record() == game.to_record() and state(replay) == state(game)
    twin = game.copy()
    assert state(twin) == state(game) and state(Game.copy(game)) == state(game)
    twin.apply(Groups(((0,), (1,))))
    assert game.pending() == Pending("decision", 2) and twin.pending() == Pending("roll", 0)
    before = state(game)
    game.apply(Groups(((2, 3),)))
    assert game.undo() == Groups(((2, 3),)) and state(game) == before
