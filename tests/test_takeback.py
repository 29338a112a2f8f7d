"""Takeback (a short BACK), redo, bots that wait for people, the bot pace and the long-BACK bugs,
all driven through the board's buttons on a SimBoard (MockFactory pins, fake clock, a real journal).

Each reported defect has its test here (named after the bug); a scenario file in tests/scenarios/
shows the same through the scenario runner."""

from __future__ import annotations

import random
from collections import Counter
from pathlib import Path
from typing import Any

import pytest

from firmware.dice import ScriptedDice
from firmware.games import Roll
from firmware.ui.app import STUCK_S
from firmware.ui.menus import GameMenu
from firmware.ui.play import DiceEntryScreen, PlayScreen, ResultScreen
from sim.board import SimBoard
from sim import robustness
from sim.robustness import choose, labels
from sim.timing import TAP_S

BOARD_TOML = Path(__file__).resolve().parents[1] / "hardware" / "board.toml"


def stack(board: SimBoard) -> list[str]:
    return [type(screen).__name__ for screen in board.app.stack]


def history(board: SimBoard) -> list[Any]:
    return list(board.app.session.game.history)


def set_setting(board: SimBoard, name: str, value: Any) -> None:
    """Main menu → Settings → the setting `name`, OK until it shows `value`, BACK (as the
    robustness campaign does), and check it took."""
    robustness.set_setting(board, name, value)
    assert getattr(board.app.settings, name) == value


def seat_up(board: SimBoard, title: str, kinds: list[str]) -> None:
    """Play TITLE → N players → each seat a person ("p") or the easiest bot ("b")."""
    choose(board, f"Play {title}")
    choose(board, f"{len(kinds)} player{'s' if len(kinds) > 1 else ''}")
    for kind in kinds:
        if kind == "b":
            board.tap("right")
        board.tap("ok")
    assert stack(board) == ["MainMenu", "PlayScreen"]


def decide(board: SimBoard, rights: int = 0) -> None:
    """A person's decision: RIGHT `rights` times, then OK — at each stage of a staged choice
    (EXTRA!) — until the step is made (or a sub-screen opens: LEVEL X's turning ones)."""
    before = len(history(board))
    for _ in range(rights):
        board.tap("right")
    for _ in range(4):
        board.tap("ok")
        if len(history(board)) > before or type(board.app.screen) is not PlayScreen:
            return
    raise AssertionError("OK made no decision")


def red_decides_bots_next(board: SimBoard) -> list[Any]:
    """EXXTRA: Red (a person) rolls and decides; Blue and Green (bots) play next. Returns the
    history right after Red's decision."""
    seat_up(board, "EXXTRA", ["p", "b", "b"])
    board.tap("roll")
    board.settle()
    assert board.state("pending") == {"kind": "decision", "player": 0}
    board.tap("ok")
    return history(board)


# --- bug 3: with a bot to play next, takeback and the in-game menu are reachable -----------------
def test_bug3_the_game_menu_opens_before_a_bot_plays_at_the_default_pace(tmp_path):
    board = SimBoard(seed=1, state_dir=tmp_path)
    after = red_decides_bots_next(board)
    board.hold("back")  # 1 s: longer than the old 0.6 s pace
    assert stack(board) == ["MainMenu", "PlayScreen", "GameMenu"]
    assert history(board) == after  # no bot moved while BACK was down
    assert labels(board)[:3] == ["Back to game", "Bot pace", "Take back"]  # the bots' pace first: a bot plays
    choose(board, "Take back")
    assert history(board) == after[:-1] and board.state("pending.player") == 0
    board.close()


def test_a_short_back_right_after_a_decision_takes_it_back_before_the_bot_moves(tmp_path):
    board = SimBoard(seed=1, state_dir=tmp_path)
    after = red_decides_bots_next(board)
    board.wait(0.5)  # the person's moment: the bots wait longer after a person than after a bot
    board.tap("back")
    assert history(board) == after[:-1]
    assert board.state("pending") == {"kind": "decision", "player": 0}
    assert any(line.startswith("<") for line in board.screen_text())  # Red's options again
    assert board.journal.unfinished().record["steps"] == [s.to_json() for s in after[:-1]]
    board.close()


def test_bots_never_act_while_a_person_holds_a_button(tmp_path):
    board = SimBoard(seed=1, state_dir=tmp_path)
    after = red_decides_bots_next(board)
    board.press("left")  # held, whatever for (a hint, or just resting a finger)
    board.wait(STUCK_S - 1)
    assert history(board) == after and not board.app.busy
    board.release("left")
    board.settle()
    assert len(history(board)) > len(after)
    board.close()


def test_a_button_stuck_down_is_reported_and_the_bots_stop_waiting_for_it(tmp_path):
    board = SimBoard(seed=1, state_dir=tmp_path)
    after = red_decides_bots_next(board)
    board.press("left")  # a jammed key: no release ever comes
    board.wait(STUCK_S - 1)
    assert history(board) == after
    board.wait(2)
    assert any("LEFT seems stuck" in problem for problem in board.app.problems)
    board.settle()
    assert len(history(board)) > len(after)  # the game goes on (a kiosk never freezes on a key)
    board.close()


# --- bug 2: a long BACK that completes during an animation opens the menu ------------------------
@pytest.mark.parametrize(
    ("title", "seats"), [("EXXTRA", "3 players"), ("LEVEL X", "2 players"), ("EXTRA!", "2 players")]
)
def test_bug2_a_long_back_in_a_bots_only_game_always_opens_the_menu(tmp_path, title, seats):
    board = SimBoard(seed=1, state_dir=tmp_path)
    choose(board, "Demo")
    choose(board, title)
    choose(board, seats)
    tries = 0
    for i in range(30):  # at every phase of the bots' play: pace, tumble, counter walking...
        if board.app.session.over:
            break
        board.wait(0.3 + 0.037 * (i % 7))
        board.hold("back")
        tries += 1
        assert type(board.app.screen) is GameMenu, f"try {tries}: {stack(board)}"
        board.hold("back")  # and closed again: the bots play on
        assert type(board.app.screen) is not GameMenu
    assert tries >= 10
    board.close()


def test_a_hold_of_back_during_an_animation_skips_it_and_opens_the_menu(tmp_path):
    board = SimBoard(seed=2, state_dir=tmp_path)
    seat_up(board, "EXXTRA", ["p", "p", "p"])
    board.press("roll")
    board.wait(TAP_S)
    board.release("roll")  # a short ROLL rolls when let go
    board.wait(TAP_S)
    assert board.app.animation is not None  # the tumble
    board.press("back")  # the press skips the tumble: the roll is made...
    assert len(board.app.session.game.history) == 1
    board.wait(1.1)  # ...and the hold, even if it completes during the next show, opens the menu
    board.release("back")
    assert type(board.app.screen) is GameMenu and board.app.animation is None
    board.close()


# --- bug 1: a long BACK on the in-game menu, its rules page or question returns to the game -------
def open_game_menu(board: SimBoard) -> None:
    """A long BACK until the in-game menu is open (the first one does, now that bug 2 is fixed)."""
    for _ in range(10):
        board.hold("back")
        if type(board.app.screen) is GameMenu:
            return
    raise AssertionError(f"a long BACK does not open the in-game menu: {stack(board)}")


def test_bug1_the_game_menu_never_strands_the_game_and_the_idle_show_starts_behind_it(tmp_path):
    board = SimBoard(seed=1, state_dir=tmp_path)
    choose(board, "Demo")
    choose(board, "EXXTRA")
    choose(board, "3 players")
    session = board.app.session
    for opened in ("Rules", "Abandon game", None):
        open_game_menu(board)
        if opened is not None:
            choose(board, opened)
        board.hold("back")
        assert stack(board) == ["MainMenu", "PlayScreen"] and board.app.session is session
    open_game_menu(board)  # and left open, a bot to play next: nobody is playing
    steps = len(history(board))
    assert session.pending_bot() and not board.app.busy
    board.wait(board.app.settings.idle_timeout_s + 1)
    assert board.board.attract_phase is not None  # the idle show starts
    assert len(history(board)) == steps
    board.tap("ok")  # wakes the board, nothing else
    assert board.board.attract_phase is None and type(board.app.screen) is GameMenu
    board.hold("back")
    board.settle()
    assert session.over and board.app.problems == []
    board.close()


# --- bug 7: the LED budget, a saved game, physical dice with bots --------------------------------
def test_bug7_the_led_budget_menu_offers_nothing_above_the_boards_own(tmp_path):
    board = SimBoard(seed=1, state_dir=tmp_path)  # hardware/board.toml: budget_amps = 2.0
    choose(board, "Settings")
    while board.app.screen.choice.current.value != "led_budget_amps":
        board.tap("right")
    seen = set()
    for _ in range(8):
        board.tap("ok")
        seen.add(board.app.settings.led_budget_amps)
    assert seen == {0.5, 1.0, 1.5, 2.0}
    board.close()

    lower = tmp_path / "board.toml"
    lower.write_text(BOARD_TOML.read_text().replace("budget_amps = 2.0", "budget_amps = 1.2"))
    board = SimBoard(board_file=lower, seed=1, state_dir=tmp_path)
    assert board.app.settings.led_budget_amps == 1.0  # the kept 2 A is more than this board allows
    assert board.app.choices("led_budget_amps") == (0.5, 1.0)
    board.close()


def test_bug7_play_asks_before_a_saved_game_is_set_aside(tmp_path):
    board = SimBoard(seed=1, state_dir=tmp_path)
    seat_up(board, "EXXTRA", ["p", "p", "p"])
    board.tap("roll")
    board.settle()
    kept = board.app.session.journal_id
    board.close()

    board = SimBoard(seed=1, state_dir=tmp_path)  # the next day: "Resume EXXTRA" is offered
    assert labels(board)[0] == "Resume EXXTRA"
    choose(board, "Play LEVEL X")
    assert board.app.screen.title == "Saved EXXTRA" and labels(board) == ["Resume it", "Discard it", "Cancel"]
    choose(board, "Cancel")
    assert stack(board) == ["MainMenu"] and board.journal.unfinished().id == kept
    choose(board, "Demo")
    choose(board, "Resume it")
    assert board.app.session is not None and board.app.session.journal_id == kept
    board.hold("back")
    choose(board, "Abandon game")
    choose(board, "No")
    board.hold("back")
    board.close()

    board = SimBoard(seed=1, state_dir=tmp_path)
    choose(board, "Play LEVEL X")
    choose(board, "Discard it")
    assert board.app.screen.title.startswith("LEVEL X") and board.journal.unfinished() is None
    board.close()


def test_bug7_physical_dice_a_person_rolls_for_the_bot_and_keys_them_in(tmp_path):
    board = SimBoard(seed=1, state_dir=tmp_path)
    set_setting(board, "dice_mode", "physical")
    seat_up(board, "EXTRA!", ["b", "p"])  # the bot rolls first
    board.wait(30)
    assert board.app.session.game.history == [] and not board.app.busy  # no electronic roll for it
    assert "Red ROLL" in board.screen_text()  # Red is the bot: someone rolls for it
    board.tap("roll")
    assert type(board.app.screen) is DiceEntryScreen
    for _ in range(5):
        board.tap("ok")  # every die shows 1
    board.settle()
    game = board.app.session.game
    assert game.history[0] == Roll((1, 1, 1, 1, 1)) and game.actor(1) == 0  # and the bot decided on it
    assert board.app.session.header()["dice"]["physical"] is True
    board.close()


def test_a_demo_rolls_electronically_whatever_the_dice_setting(tmp_path):
    board = SimBoard(seed=1, state_dir=tmp_path)
    set_setting(board, "dice_mode", "physical")
    choose(board, "Demo")
    choose(board, "EXTRA!")
    choose(board, "1 player")
    board.settle()
    assert board.app.session.over and "physical" not in board.app.session.header()["dice"]
    board.close()


# --- the bot pace -------------------------------------------------------------------------------
def test_step_pace_each_bot_move_waits_for_ok(tmp_path):
    board = SimBoard(seed=3, state_dir=tmp_path)
    set_setting(board, "bot_pace", "step")
    choose(board, "Demo")
    choose(board, "EXXTRA")
    choose(board, "3 players")
    board.settle()
    assert history(board) == [] and not board.app.busy
    assert any("OK to play" in line for line in board.screen_text())
    moves = []
    for _ in range(6):
        board.tap("ok")
        board.settle()
        moves.append(len(history(board)))
        assert board.app.bot_waits_for() == "ok"  # waits again after each of its moves
    assert moves == sorted(moves) and moves[0] >= 1 and len(set(moves)) == len(moves)
    board.close()


@pytest.mark.parametrize("pace", ["slow", "normal", "fast"])
def test_every_pace_plays_a_bots_only_demo_without_a_press(tmp_path, pace):
    board = SimBoard(seed=3, state_dir=tmp_path)
    set_setting(board, "bot_pace", pace)
    choose(board, "Demo")
    choose(board, "EXTRA!")
    choose(board, "1 player")
    board.settle()
    assert board.app.session.over and type(board.app.screen) is ResultScreen
    board.close()
    board = SimBoard(seed=3, state_dir=tmp_path)
    assert board.app.settings.bot_pace == pace  # kept in the settings
    board.close()


def test_the_bots_wait_longer_after_a_person_than_after_a_bot(tmp_path):
    board = SimBoard(seed=1, state_dir=tmp_path)
    seat_up(board, "EXXTRA", ["p", "b", "b"])
    board.tap("roll")
    board.settle()
    board.press("ok")  # Red's decision
    board.release("ok")  # the bots' pace starts when the button is let go...
    after = history(board)
    after_person, after_bot = (board.app.settings.bot_delay_s(flag) for flag in (True, False))
    assert after_person > after_bot
    while board.app.animation is not None:  # ...or when Red's counter has walked
        board.wait(0.01)
    board.wait(after_person - 0.05)
    assert history(board) == after and board.app.animation is None  # the person's moment
    board.wait(0.1)
    assert board.app.animation is not None  # Blue's dice tumble
    board.close()


# --- takeback and redo ---------------------------------------------------------------------------
def test_redo_plays_the_taken_back_steps_again_until_a_new_step(tmp_path):
    board = SimBoard(seed=4, state_dir=tmp_path)
    seat_up(board, "EXTRA!", ["p", "b"])
    board.tap("roll")
    board.settle()
    decide(board, rights=1)  # Red's decision, then the bot's on the same roll
    for _ in range(200):
        if len(history(board)) == 3 and board.app.animation is None:
            break
        board.wait(0.05)
    done = history(board)
    assert board.app.session.game.actor(2) == 1 and len(done) == 3  # right after the bot's move
    board.tap("back")  # takes back the bot's decision and Red's
    assert history(board) == done[:1]
    board.hold("back")
    choose(board, "Redo")
    assert history(board) == done  # identical, the bot's decision too
    assert board.journal.unfinished().record["steps"] == [s.to_json() for s in done]
    board.tap("back")
    decide(board)  # a new step (another choice, or the same): redo is over
    board.hold("back")
    assert "Redo" not in labels(board)
    board.close()


def test_whole_game_house_rule_goes_past_the_dice_and_they_stay_as_rolled(tmp_path):
    dice = ScriptedDice([(3, 4, 5, 6, 6), (1, 2, 2, 3, 5), (6, 6, 5, 4, 1)])
    board = SimBoard(seed=4, state_dir=tmp_path, dice=dice)
    set_setting(board, "takeback", "game")
    seat_up(board, "EXTRA!", ["p"])
    board.tap("roll")
    board.settle()
    decide(board)
    board.settle()
    board.tap("roll")
    board.settle()
    first = history(board)
    assert first[2] == Roll((1, 2, 2, 3, 5))
    board.tap("back")  # past the second roll, back to the first decision
    assert history(board) == first[:1]
    decide(board, rights=1)  # another choice this time
    board.settle()
    board.tap("roll")
    board.settle()
    assert history(board)[2] == first[2]  # the same dice, not the next scripted roll
    assert dice.left == 1
    board.close()


def test_a_press_during_an_animation_only_skips_it_even_a_short_back(tmp_path):
    board = SimBoard(seed=4, state_dir=tmp_path)
    seat_up(board, "EXTRA!", ["p", "p"])
    board.tap("roll")
    board.settle()
    decide(board)  # Red's decision animates (the crosses)
    if board.app.animation is None:
        pytest.fail("expected Red's decision to animate")
    after = history(board)
    board.tap("back")  # skips the show; its release takes nothing back
    assert history(board) == after and board.app.animation is None
    board.tap("back")  # now it does
    assert history(board) == after[:-1]
    board.close()


def test_a_short_back_while_the_board_wakes_from_the_idle_show_takes_nothing_back(tmp_path):
    board = SimBoard(seed=4, state_dir=tmp_path)
    seat_up(board, "EXTRA!", ["p", "p"])
    board.tap("roll")
    board.settle()
    decide(board)
    board.settle()
    after = history(board)
    board.wait(board.app.settings.idle_timeout_s + 1)
    assert board.board.attract_phase is not None
    board.tap("back")
    assert board.board.attract_phase is None and history(board) == after
    board.close()


def test_takeback_at_the_game_end_reopens_the_game_in_the_journal(tmp_path):
    board = SimBoard(seed=5, state_dir=tmp_path)
    seat_up(board, "EXTRA!", ["p"])
    game_id = board.app.session.journal_id
    while not board.app.session.over:
        board.tap("roll" if board.app.session.awaiting_roll else "ok")
        board.settle()
    final = history(board)
    assert type(board.app.screen) is ResultScreen and board.journal.unfinished() is None
    board.tap("back")
    assert stack(board) == ["MainMenu", "PlayScreen"] and history(board) == final[:-1]
    assert board.journal.unfinished().id == game_id  # reopened, the result gone
    decide(board)
    board.settle()
    assert type(board.app.screen) is ResultScreen and board.journal.unfinished() is None
    assert board.journal.record(game_id)["steps"] == [s.to_json() for s in history(board)]
    board.close()


def test_takeback_right_after_a_resume_and_the_journal_has_exactly_the_remaining_steps(tmp_path):
    board = SimBoard(seed=1, state_dir=tmp_path)
    after = red_decides_bots_next(board)
    board.close()  # a power cut right after Red's decision (the journal has it)

    board = SimBoard(seed=1, state_dir=tmp_path)
    choose(board, "Resume EXXTRA")
    assert history(board) == after
    board.tap("back")
    assert history(board) == after[:-1]
    board.close()  # and another cut

    board = SimBoard(seed=1, state_dir=tmp_path)
    assert board.journal.unfinished().record["steps"] == [s.to_json() for s in after[:-1]]
    choose(board, "Resume EXXTRA")
    assert history(board) == after[:-1] and board.state("pending.player") == 0
    board.close()


# --- a whole game of each kind, with takebacks at awkward moments --------------------------------
GAMES = [("exxtra", "EXXTRA", ["p", "b", "b"]), ("levelx", "LEVEL X", ["p", "b"]), ("extra", "EXTRA!", ["p", "b"])]


def finish_sub_screens(board: SimBoard) -> None:
    """OK through a sub-screen a choice opened (LEVEL X: turning ones) back to the play screen."""
    for _ in range(10):
        if type(board.app.screen) is PlayScreen or board.app.session is None or board.app.session.over:
            return
        board.tap("ok")
        board.settle()


@pytest.mark.parametrize("rule", ["roll", "game"])
@pytest.mark.parametrize(("name", "title", "kinds"), GAMES)
def test_a_whole_game_with_takebacks_at_awkward_moments(tmp_path, name, title, kinds, rule):
    rng = random.Random(f"{name}-{rule}")
    board = SimBoard(seed=7, state_dir=tmp_path)
    if rule != "roll":
        set_setting(board, "takeback", rule)
    seat_up(board, title, kinds)
    game_id = board.app.session.journal_id
    whole = rule == "game"
    tried: Counter[str] = Counter()  # takebacks asked for at each kind of moment
    done: Counter[str] = Counter()  # ... and made (the rule allowed one)

    def take_back(moment: str) -> None:
        tried[moment] += 1
        if board.app.animation is not None:  # the first BACK only skips the show
            before = history(board)
            board.tap("back")
            assert history(board)[: len(before)] == before  # (its end may make a step: a roll)
            done["mid-animation"] += 1
        session = board.app.session
        target = session.undo_target(whole)
        before = history(board)
        board.tap("back")
        if target is None:
            assert history(board) == before
            return
        assert history(board) == before[:target]
        assert board.state("pending.kind") == "decision"
        assert not board.app.session.pending_bot()
        done[moment] += 1

    for _ in range(3000):
        board.settle()
        session = board.app.session
        if session.over:
            if not tried["at the end"]:
                take_back("at the end")
                continue
            break
        if (
            session.game.history
            and session.game.actor(-1) is not None
            and session.pending_agent() is not None
            and rng.random() < 0.2
            and session.game.players[session.game.actor(-1)].bot is not None
        ):
            take_back("after a bot")
            continue
        if rng.random() < 0.05:  # a power cut, then the game is resumed and taken back at once
            board.close()
            board = SimBoard(seed=7, state_dir=tmp_path)
            choose(board, labels(board)[0])
            assert board.app.session.journal_id == game_id
            take_back("after a resume")
            continue
        if session.awaiting_roll:
            board.tap("roll")
            if board.app.animation is not None and rng.random() < 0.3:
                before = history(board)
                board.tap("back")  # skips the tumble (the roll is made), takes nothing back
                assert history(board)[: len(before)] == before and len(history(board)) == len(before) + 1
                done["mid-animation"] += 1
            continue
        decide(board, rng.randrange(len(board.app.screen.choice.options)))
        finish_sub_screens(board)
        if rng.random() < 0.4:
            board.wait(rng.choice((0.0, 0.2, 0.5)))  # within the person's moment
            take_back("after a person")
            if rng.random() < 0.5 and board.app.session.can_redo():
                board.hold("back")
                choose(board, "Redo")
                done["redo"] += 1
    session = board.app.session
    assert session.over, (tried, done)
    assert done["after a person"] >= 3 and done["mid-animation"] >= 1 and done["redo"] >= 1, (tried, done)
    assert tried["at the end"] and tried["after a bot"] and tried["after a resume"], tried
    if whole:  # the house rule reaches back past any roll
        assert done["at the end"] and done["after a bot"] and done["after a resume"], done
    kept = board.journal.record(game_id)
    assert kept["steps"] == [s.to_json() for s in session.game.history]
    assert kept["result"] == session.game.result()
    assert board.app.problems == []
    board.close()


# --- issue 23, item 6: the chance to take back is shown, and drains before a bot's roll ends it ---
def bar(board: SimBoard) -> int:
    """The takeback bar: lit pixels on the display's bottom row (no play screen draws there)."""
    image = board.app.image(board.board.hardware.display.canvas_size)
    y = image.height - 1
    return sum(1 for x in range(image.width) if image.getpixel((x, y)))


def test_the_takeback_bar_drains_until_the_bots_roll_and_back_works_exactly_while_it_shows(tmp_path):
    board = SimBoard(seed=2, state_dir=tmp_path)
    red_decides_bots_next(board)  # Blue (a bot) rolls next, which ends the chance ("this roll")
    full = bar(board)
    assert full > 0 and board.app.takeback_window() is not None
    board.wait(0.5)
    drained = bar(board)
    assert 0 < drained < full  # it drains with the bot's pace
    board.settle()  # the bots roll and play: nothing of Red's can be taken back any more
    assert board.state("pending")["player"] == 0
    assert bar(board) == 0 and board.app.takeback_window() is None
    before = history(board)
    board.tap("back")
    assert history(board) == before and board.app.note is not None  # "Nothing to take back..."
    board.close()


def test_with_the_whole_game_house_rule_the_bar_stays_full_while_anything_can_be_taken_back(tmp_path):
    board = SimBoard(seed=2, state_dir=tmp_path)
    set_setting(board, "takeback", "game")
    board.tap("back")
    red_decides_bots_next(board)
    width = board.app.image(board.board.hardware.display.canvas_size).width
    assert bar(board) == width
    board.settle()  # the bots play: Red's decision can still be taken back, and the bar says so
    assert board.state("pending")["player"] == 0 and bar(board) == width
    board.tap("back")
    assert len(history(board)) == 1  # back to Red's decision after the first roll
    board.close()
