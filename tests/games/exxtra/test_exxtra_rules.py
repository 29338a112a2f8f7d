"""EXXTRA: the rulebook's worked examples 1–7, every rule of docs/rules/exxtra.md with its error
paths, the record steps, and a perft-style count of the game tree."""

from __future__ import annotations

import json

import pytest

from firmware.errors import IllegalStepError, RecordError
from firmware.games import DECISION, OVER, ROLL, Pending, Roll, game_class, new_game
from firmware.games.exxtra.rules import (
    DIE_A,
    DIE_B,
    Exxtra,
    LadderPair,
    Place,
    Reroll,
    combination,
    combination_value,
)

NAMES = ["Alex", "Beatrice", "Carl", "Diana"]
ALEX, BEATRICE, CARL, DIANA = range(4)
ALL_ROLLS = [Roll((a, b)) for a in DIE_A for b in DIE_B]


def roll(a: str, b: str) -> Roll:
    return Roll((a, b))


def snapshot(game: Exxtra) -> tuple:
    """Everything an illegal step must leave alone: the record and the public state."""
    return (
        game.to_record(),
        game.pending(),
        game.positions,
        game.ladder,
        game.rung_of,
        game.current_roll,
        game.first_roll,
        game.rolls_this_turn,
        game.winner,
    )


def refused(game: Exxtra, step, *words: str) -> None:
    """`step` raises IllegalStepError naming `words` and changes nothing."""
    before, events = snapshot(game), list(game.events)
    with pytest.raises(IllegalStepError) as info:
        game.apply(step)
    for word in words:
        assert word in str(info.value)
    assert snapshot(game) == before and game.events == events


def walked(target: int, players: int = 3) -> Exxtra:
    """A game where player 0 stands on `target` and is about to roll, reached by real play:
    player 0 places "76" on rung min(left, 5), the others place "00" on rung 0 (removing
    nothing), until player 0's moves add up to `target`."""
    game = Exxtra([f"P{i}" for i in range(players)])
    while game.positions[0] < target or game.current_player != 0:
        if game.current_player == 0:
            game.apply(roll("7", "6"))
            game.apply(Place(min(target - game.positions[0], 5)))
        else:
            game.apply(roll("X", "X"))
            game.apply(Place(0))
    return game


# --- the rulebook's examples (one continuous game for Alex, Beatrice, Carl and Diana) -------


def play_example_1(game: Exxtra) -> None:
    game.apply(roll("X", "X"))
    game.apply(Reroll())
    game.apply(roll("4", "2"))
    game.apply(Reroll())
    game.apply(roll("7", "X"))


def play_example_2(game: Exxtra) -> None:
    game.apply(roll("4", "1"))
    game.apply(Reroll())
    game.apply(roll("3", "3"))
    game.apply(Reroll())
    game.apply(roll("4", "6"))
    game.apply(Place(5))


def play_example_3(game: Exxtra) -> None:
    game.apply(roll("3", "X"))
    game.apply(Reroll())
    game.apply(roll("4", "2"))
    game.apply(Reroll())
    game.apply(roll("4", "6"))
    game.apply(Place(4))


def play_example_4(game: Exxtra) -> None:
    game.apply(roll("7", "X"))
    game.apply(Place(5))


def play_example_5(game: Exxtra) -> None:
    game.apply(roll("2", "1"))
    game.apply(Reroll())
    game.apply(roll("1", "6"))
    game.apply(Place(3))


def play_example_6(game: Exxtra) -> None:
    game.apply(roll("3", "2"))
    game.apply(Reroll())
    game.apply(roll("X", "X"))


def play_example_7(game: Exxtra) -> None:
    game.apply(roll("7", "1"))
    game.apply(Place(2))


EXAMPLES = [
    play_example_1,
    play_example_2,
    play_example_3,
    play_example_4,
    play_example_5,
    play_example_6,
    play_example_7,
]


def game_before_example(number: int) -> Exxtra:
    game = Exxtra(NAMES)
    for play in EXAMPLES[: number - 1]:
        play(game)
    return game


def test_example_1_alex_xx_counts_00_then_7x_ends_his_turn_at_start():
    game = game_before_example(1)
    game.apply(roll("X", "X"))
    assert game.current_combination == "00" and game.pending() == Pending(DECISION, ALEX)
    assert Place(5) in game.legal_decisions()  # "00" could be placed: it is a valid combination
    game.apply(Reroll())
    game.apply(roll("4", "2"))
    assert game.current_combination == "42" and not game.first_roll
    game.apply(Reroll())
    game.apply(roll("7", "X"))
    assert game.events[1] == {"kind": "invalid", "player": ALEX, "xs": 1}
    assert game.positions[ALEX] == 0  # on the start space: cannot be retreated
    assert game.rung_of[ALEX] is None
    assert game.pending() == Pending(ROLL, BEATRICE)  # the turn ended without a step


def test_example_2_beatrice_double_33_advances_3_then_64_on_rung_5():
    game = game_before_example(2)
    game.apply(roll("4", "1"))
    assert game.current_combination == "41"
    game.apply(Reroll())
    game.apply(roll("3", "3"))
    assert game.positions[BEATRICE] == 3
    assert {"kind": "move", "player": BEATRICE, "from": 0, "to": 3, "cause": "double"} in game.events
    assert game.pending() == Pending(DECISION, BEATRICE)  # she may still re-roll
    game.apply(Reroll())
    game.apply(roll("4", "6"))
    assert game.current_combination == "64"
    game.apply(Place(5))
    assert game.ladder[5] == (LadderPair(BEATRICE, "64"),)
    assert game.positions == (0, 3, 0, 0)
    assert game.pending() == Pending(ROLL, CARL)


def test_example_3_carl_64_on_rung_4_removes_beatrices_equal_64_on_rung_5():
    game = game_before_example(3)
    game.apply(roll("3", "X"))
    assert game.current_combination == "30"
    game.apply(Reroll())
    game.apply(roll("4", "2"))
    game.apply(Reroll())
    game.apply(roll("4", "6"))
    game.apply(Place(4))
    assert game.ladder[4] == (LadderPair(CARL, "64"),)
    assert game.ladder[5] == ()
    assert game.rung_of[BEATRICE] is None
    assert {"kind": "remove", "player": BEATRICE, "rung": 5, "combination": "64", "by": CARL} in game.events


def test_example_4_diana_accepts_first_roll_7x_as_70_and_chooses_rung_5():
    game = game_before_example(4)
    game.apply(roll("7", "X"))
    assert game.current_combination == "70"
    assert game.would_remove(3) == (LadderPair(CARL, "64"),)  # rung 3 would remove Carl
    assert game.would_remove(5) == ()
    game.apply(Place(5))
    assert game.ladder[4] == (LadderPair(CARL, "64"),)  # Carl's dice remain
    assert game.ladder[5] == (LadderPair(DIANA, "70"),)
    assert game.pending() == Pending(ROLL, ALEX)


def test_example_5_alex_without_dice_on_the_ladder_does_not_move_and_places_61_on_rung_3():
    game = game_before_example(5)
    assert game.positions[ALEX] == 0 and game.rung_of[ALEX] is None
    game.apply(roll("2", "1"))
    assert game.current_combination == "21" and game.positions[ALEX] == 0
    game.apply(Reroll())
    game.apply(roll("1", "6"))
    game.apply(Place(3))
    assert game.ladder[3] == (LadderPair(ALEX, "61"),)
    assert game.rung_of == (3, None, 4, 5)


def test_example_6_beatrice_rerolls_into_xx_and_goes_back_2():
    game = game_before_example(6)
    assert game.positions[BEATRICE] == 3 and game.rung_of[BEATRICE] is None
    game.apply(roll("3", "2"))
    game.apply(Reroll())
    game.apply(roll("X", "X"))
    assert game.positions[BEATRICE] == 1
    assert game.events[1] == {"kind": "invalid", "player": BEATRICE, "xs": 2}
    assert game.rung_of[BEATRICE] is None


def test_example_7_carl_moves_4_then_71_on_rung_2_removes_diana_and_alex():
    game = game_before_example(7)
    # Beatrice's invalid roll passed the turn to Carl, whose dice on rung 4 came home: +4.
    assert game.positions[CARL] == 4 and game.rung_of[CARL] is None
    assert game.ladder[4] == ()
    game.apply(roll("7", "1"))
    game.apply(Place(2))
    assert game.ladder == ((), (), (LadderPair(CARL, "71"),), (), (), ())
    removed = [(e["player"], e["rung"], e["combination"]) for e in game.events if e["kind"] == "remove"]
    assert removed == [(ALEX, 3, "61"), (DIANA, 5, "70")]
    assert game.positions == (0, 1, 4, 0)


# --- combinations ---------------------------------------------------------------------------


def test_combination_is_written_higher_first_and_x_counts_zero_on_the_first_roll():
    assert combination(("1", "6"), first_roll=False) == "61"
    assert combination(("7", "6"), first_roll=False) == "76"
    assert combination(("X", "5"), first_roll=True) == "50"
    assert combination(("X", "X"), first_roll=True) == "00"


def test_combination_with_an_x_after_the_first_roll_is_invalid():
    for faces in [("X", "1"), ("7", "X"), ("X", "X")]:
        assert combination(faces, first_roll=False) is None


def test_combination_refuses_faces_the_dice_do_not_have():
    with pytest.raises(IllegalStepError, match="die A has no face '5'"):
        combination(("5", "1"), first_roll=True)
    with pytest.raises(IllegalStepError, match="die B has no face '7'"):
        combination(("1", "7"), first_roll=True)
    with pytest.raises(IllegalStepError, match="2 dice"):
        combination(("1",), first_roll=True)


def test_combinations_compare_by_higher_then_lower_face():
    assert combination_value("71") > combination_value("64")
    assert combination_value("32") > combination_value("31")
    assert combination_value("00") == 0
    with pytest.raises(IllegalStepError, match="higher first"):
        combination_value("17")


# --- turns, rolls and the X rule ------------------------------------------------------------


def test_player_0_starts_and_the_first_roll_is_compulsory():
    game = Exxtra(NAMES[:3])
    assert game.pending() == Pending(ROLL, 0) and game.first_roll and game.rolls_this_turn == 0
    assert game.legal_decisions() == []
    refused(game, Reroll(), "rolled first")
    refused(game, Place(0), "rolled first")


def test_dice_are_die_a_then_die_b_as_strings():
    assert Exxtra(NAMES).dice() == (("1", "2", "3", "4", "7", "X"), ("1", "2", "3", "5", "6", "X"))


def test_a_roll_with_faces_the_dice_lack_is_refused():
    game = Exxtra(NAMES)
    refused(game, roll("6", "1"), "die 0", "'6'")
    refused(game, roll("1", "4"), "die 1", "'4'")
    refused(game, Roll((7, 1)), "die 0")
    refused(game, Roll(("1", "2", "3")), "2 dice")


def test_no_roll_while_a_decision_is_pending():
    game = Exxtra(NAMES)
    game.apply(roll("4", "2"))
    refused(game, roll("4", "2"), "decision")


def test_player_counts_outside_3_to_6_are_refused():
    for count in (2, 7):
        with pytest.raises(IllegalStepError, match="3 to 6 players"):
            Exxtra([f"P{i}" for i in range(count)])
    assert game_class("exxtra") is Exxtra and new_game("exxtra", NAMES).title == "EXXTRA"


def test_first_roll_xx_is_a_valid_00_that_can_be_placed():
    game = Exxtra(NAMES)
    game.apply(roll("X", "X"))
    assert game.current_combination == "00" and game.positions[0] == 0  # X-X is no double
    game.apply(Place(1))
    assert game.ladder[1] == (LadderPair(0, "00"),)


def test_later_roll_with_one_x_goes_back_one_space_and_ends_the_turn():
    game = walked(5)
    assert game.current_player == 0 and game.positions[0] == 5
    game.apply(roll("4", "2"))
    game.apply(Reroll())
    assert not game.first_roll and game.rolls_this_turn == 1
    game.apply(roll("2", "X"))
    assert game.positions[0] == 4
    assert game.rung_of[0] is None  # dice not placed
    assert game.pending() == Pending(ROLL, 1)
    # player 1's "00" from rung 0 comes back as their turn starts
    assert [e["kind"] for e in game.events] == ["roll", "invalid", "move", "turn", "return"]


def test_later_roll_xx_goes_back_two_but_never_below_start():
    game = walked(1)
    game.apply(roll("4", "2"))
    game.apply(Reroll())
    game.apply(roll("X", "X"))
    assert game.positions[0] == 0
    assert game.events[2] == {"kind": "move", "player": 0, "from": 1, "to": 0, "cause": "x"}


def test_rerolls_are_unlimited_and_count_the_rolls_of_the_turn():
    game = Exxtra(NAMES)
    for count in range(1, 21):
        game.apply(roll("4", "2"))
        assert game.rolls_this_turn == count and game.first_roll == (count == 1)
        game.apply(Reroll())
        assert game.pending() == Pending(ROLL, 0) and not game.first_roll
    assert game.events == [{"kind": "reroll", "player": 0}]


@pytest.mark.parametrize(("face", "spaces"), [("1", 1), ("2", 2), ("3", 3)])
def test_a_valid_double_advances_at_once_and_may_then_be_rerolled_or_placed(face, spaces):
    game = Exxtra(NAMES)
    game.apply(roll(face, face))
    assert game.positions[0] == spaces
    assert game.legal_decisions() == [Reroll()] + [Place(r) for r in range(6)]
    game.apply(Reroll())
    game.apply(roll(face, face))  # a double on a later roll counts too
    assert game.positions[0] == 2 * spaces
    game.apply(Place(2))
    assert game.ladder[2] == (LadderPair(0, face * 2),)


def test_a_double_keeps_its_advance_when_a_later_roll_is_invalid():
    game = Exxtra(NAMES)
    game.apply(roll("2", "2"))
    game.apply(Reroll())
    game.apply(roll("X", "1"))
    assert game.positions[0] == 1  # +2 for the double, then back 1 for the X
    assert game.pending() == Pending(ROLL, 1)


def test_a_double_that_reaches_the_finish_wins_mid_turn():
    game = walked(19)
    game.apply(roll("3", "3"))
    assert game.positions[0] == 21  # overshooting is fine: the counter stands on 21
    assert game.winner == 0 and game.is_over() and game.pending() == Pending(OVER)
    assert game.legal_decisions() == [] and game.current_roll is None
    assert game.result() == {"positions": [21, *game.positions[1:]], "winners": [0]}
    assert game.events[-1] == {"kind": "win", "player": 0}
    refused(game, roll("1", "1"), "over")
    refused(game, Place(0), "over")


# --- placing and removing -------------------------------------------------------------------


def test_decisions_are_reroll_place_0_then_each_free_rung_ascending():
    game = game_before_example(5)  # rungs 4 and 5 taken
    game.apply(roll("2", "1"))
    assert game.legal_decisions() == [Reroll(), Place(0), Place(1), Place(2), Place(3)]


def test_placing_on_a_taken_rung_is_refused_and_names_the_rung():
    game = game_before_example(5)
    game.apply(roll("2", "1"))
    refused(game, Place(4), "rung 4 is taken", "player 2")
    refused(game, Place(5), "rung 5 is taken")


@pytest.mark.parametrize("rung", [-1, 6, True, "3", 2.0])
def test_placing_on_a_rung_outside_0_to_5_is_refused(rung):
    game = Exxtra(NAMES)
    game.apply(roll("2", "1"))
    refused(game, Place(rung), "rung must be 0–5")


def test_a_step_of_another_kind_is_refused():
    game = Exxtra(NAMES)
    game.apply(roll("2", "1"))
    refused(game, {"do": "reroll"}, "not an EXXTRA step")


def test_rung_0_holds_any_number_of_pairs_and_is_always_offered():
    game = Exxtra(NAMES)
    for faces in [("4", "1"), ("7", "5"), ("1", "2")]:
        game.apply(roll(*faces))
        assert Place(0) in game.legal_decisions()
        game.apply(Place(0))
    assert game.ladder[0] == (LadderPair(0, "41"), LadderPair(1, "75"), LadderPair(2, "21"))
    game.apply(roll("X", "X"))
    game.apply(Place(0))
    # player 0's turn again: their pair comes back, the others stay
    assert game.ladder[0] == (LadderPair(1, "75"), LadderPair(2, "21"), LadderPair(3, "00"))
    assert game.rung_of == (None, 0, 0, 0)


def test_pairs_on_rung_0_are_never_removed():
    game = Exxtra(NAMES)
    game.apply(roll("1", "2"))
    game.apply(Place(0))
    game.apply(roll("7", "6"))
    game.apply(Place(1))
    assert game.ladder[0] == (LadderPair(0, "21"),)
    game.apply(roll("7", "6"))
    game.apply(Place(0))  # an equal "76" on rung 0 does not remove the other rung-0 pair
    assert game.ladder[0] == (LadderPair(0, "21"), LadderPair(2, "76"))


def test_placing_on_rung_0_removes_equal_or_lower_pairs_on_rungs_1_to_5():
    game = Exxtra(NAMES)
    for faces, rung in [(("3", "1"), 1), (("7", "2"), 3), (("4", "5"), 5)]:
        game.apply(roll(*faces))
        game.apply(Place(rung))
    game.apply(roll("4", "6"))  # "64"
    assert game.would_remove(0) == (LadderPair(0, "31"), LadderPair(2, "54"))
    game.apply(Place(0))
    assert game.rung_of == (None, 3, None, 0)
    assert game.ladder[3] == (LadderPair(1, "72"),)


def test_removal_takes_equal_and_lower_pairs_on_higher_rungs_only():
    game = Exxtra(NAMES)
    for faces, rung in [(("2", "1"), 1), (("4", "6"), 3), (("7", "1"), 4)]:
        game.apply(roll(*faces))
        game.apply(Place(rung))
    game.apply(roll("4", "6"))  # "64" on rung 2: rung 1 is lower (stays), 64 on 3 goes, 71 stays
    assert game.would_remove(2) == (LadderPair(1, "64"),)
    game.apply(Place(2))
    assert game.ladder[2:] == ((LadderPair(3, "64"),), (), (LadderPair(2, "71"),), ())
    assert game.rung_of == (None, None, 4, 2)  # then player 0's turn: rung 1 came home, +1
    assert [e["kind"] for e in game.events] == ["place", "remove", "turn", "return", "move"]
    assert game.positions[0] == 1


def test_a_lower_combination_removes_nothing():
    game = Exxtra(NAMES)
    game.apply(roll("1", "5"))
    game.apply(Place(5))
    game.apply(roll("1", "3"))  # "31" below "51"
    assert game.would_remove(1) == ()
    game.apply(Place(1))
    assert game.rung_of[:2] == (5, 1)


# --- start of the turn and the end of the game ----------------------------------------------


def test_dice_on_rung_r_move_the_counter_r_and_come_back_at_the_start_of_the_turn():
    game = Exxtra(NAMES[:3])
    game.apply(roll("7", "6"))
    game.apply(Place(5))
    game.apply(roll("2", "1"))
    game.apply(Place(0))
    game.apply(roll("2", "1"))
    game.apply(Place(1))
    assert game.positions == (5, 0, 0)  # player 0 moved when the turn came back to them
    assert game.rung_of == (None, 0, 1)
    assert game.events == [
        {"kind": "place", "player": 2, "rung": 1, "combination": "21"},
        {"kind": "turn", "player": 0},
        {"kind": "return", "player": 0, "rung": 5, "combination": "76"},
        {"kind": "move", "player": 0, "from": 0, "to": 5, "cause": "rung"},
    ]
    game.apply(roll("2", "1"))
    game.apply(Place(2))
    assert game.positions == (5, 0, 0)  # rung 0: no move, but the dice come back
    assert game.rung_of == (2, None, 1)
    assert game.ladder[0] == ()
    assert game.events[-1] == {"kind": "return", "player": 1, "rung": 0, "combination": "21"}


def test_reaching_the_finish_at_the_start_of_a_turn_wins_at_once():
    game = walked(18)
    game.apply(roll("7", "6"))
    game.apply(Place(5))
    for _ in range(2):
        game.apply(roll("2", "1"))
        game.apply(Place(0))
    assert game.winner == 0 and game.positions[0] == 21
    assert game.pending() == Pending(OVER) and game.current_player == 0
    assert game.result()["winners"] == [0]
    assert [e["kind"] for e in game.events][-4:] == ["turn", "return", "move", "win"]


def test_result_is_none_while_the_game_goes_on():
    game = Exxtra(NAMES)
    assert game.result() is None and game.winner is None
    assert "result" not in game.to_record()


# --- steps and records ----------------------------------------------------------------------


def test_steps_convert_to_the_record_shapes():
    assert Reroll().to_json() == {"do": "reroll"}
    assert Place(3).to_json() == {"do": "place", "rung": 3}
    assert roll("7", "X").to_json() == {"roll": ["7", "X"]}
    for step in [Reroll(), Place(0), Place(5), roll("X", "6")]:
        assert Exxtra.parse_step(json.loads(json.dumps(step.to_json()))) == step


@pytest.mark.parametrize(
    ("data", "words"),
    [
        (["roll"], "object"),
        ({"roll": ["7"]}, "'roll'"),
        ({"roll": [7, 1]}, "string"),
        ({"roll": ["7", "1"], "do": "reroll"}, "not both"),
        ({"do": "pass"}, "'do'"),
        ({}, "'do'"),
        ({"do": "place"}, "'rung'"),
        ({"do": "place", "rung": 6}, "'rung'"),
        ({"do": "place", "rung": "3"}, "'rung'"),
        ({"do": "place", "rung": True}, "'rung'"),
        ({"do": "reroll", "rung": 3}, "'rung'"),
    ],
)
def test_parse_step_names_what_is_malformed(data, words):
    with pytest.raises(RecordError) as info:
        Exxtra.parse_step(data)
    assert words in str(info.value)


def test_a_record_replays_to_the_same_state():
    game = game_before_example(8)
    text = json.dumps(game.to_record())
    twin = Exxtra(NAMES)
    for data in json.loads(text)["steps"]:
        twin.apply_json(data)
    assert snapshot(twin) == snapshot(game)


def test_undo_takes_back_a_decision_and_an_automatic_end_of_turn():
    game = game_before_example(7)
    before = snapshot(game)
    game.apply(roll("7", "1"))
    game.apply(Place(2))
    assert game.undo() == Place(2)
    assert game.undo() == roll("7", "1")
    assert snapshot(game) == before
    assert game.positions[CARL] == 4


# --- perft: the size of the game tree from fixed positions ----------------------------------


def perft(game: Exxtra, depth: int) -> int:
    """Number of step sequences of length `depth` (every roll outcome and every decision)."""
    if game.is_over():
        return 0
    steps = ALL_ROLLS if game.pending().kind == ROLL else game.legal_decisions()
    if depth == 1:
        return len(steps)
    total = 0
    for step in steps:
        game.apply(step)
        total += perft(game, depth - 1)
        game.undo()
    return total


def test_perft_from_the_start():
    """By hand: 36 first rolls, each valid with 7 decisions (252); each decision leads to a roll
    (9072). Depth 4 per first roll: reroll → 25 valid rolls × 7 + 11 invalid (turn passes) × 36;
    place 0 → 36 × 7; place 1–5 → 5 × 36 × 6; (571 + 252 + 1080) × 36 = 68508."""
    game = Exxtra(NAMES[:3])
    assert [perft(game, d) for d in (1, 2, 3)] == [36, 252, 9072]
    assert perft(game, 4) == 68508


def test_perft_after_the_first_round_of_the_examples():
    """Alex to roll with rungs 4 and 5 taken: 36 rolls × 5 decisions."""
    game = game_before_example(5)
    assert perft(game, 2) == 180
    game.apply(roll("2", "1"))
    assert perft(game, 1) == 5 and perft(game, 2) == 36 + 36 * 4


def test_perft_near_the_finish_counts_no_steps_after_a_win():
    """Player 0 on 19: doubles 2-2 and 3-3 win at once (no decisions), the other 34 rolls give 7."""
    game = walked(19)
    assert game.current_player == 0
    assert perft(game, 2) == 34 * 7
