"""The game's log by button presses: after a power cut and "Resume" the explanation line, the
round log (LEFT at the roll prompt) and the in-game menu's "Round log" are back, rebuilt from
the journal's record; the whole game's log ("Game log" in the in-game menu and on the review
pages) reads every step back to the first, by round, what concerned the viewer marked "!"; a
takeback says what it took back, on the display and in that log. In every language, drawn
whole on every display profile."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import replace
from pathlib import Path

import pytest

from firmware import i18n
from firmware.hardware.config import default_board_path, load_board
from firmware.ui.game_log import GameLogScreen
from firmware.ui.menus import GameMenu
from firmware.ui.play import PlayScreen, ResultScreen
from firmware.ui.screen import TextScreen
from sim.board import SimBoard
from tests.support import red_then_two_bots_played

LANGUAGES = ("en", "de", "fr")
BOARDS = sorted((default_board_path().parent / "boards").glob("*.toml")) + [default_board_path()]


def _size(path: Path) -> tuple[int, int]:
    display = load_board(path).display
    return (display.height, display.width) if display.rotate % 2 else (display.width, display.height)


PROFILES = {path.stem: _size(path) for path in BOARDS}
# The words as each language says them (the catalogs' own, read back here by the board).
KICKED = {"en": "kicked your 50", "de": "wirft deine 50", "fr": "chasse ton 50"}


def pick(board: SimBoard, wanted: Callable[[object], bool]) -> None:
    """Move the cursor of the menu on screen to the option whose value is `wanted`, press OK:
    by value, so the same presses work in every language."""
    choice = board.app.screen.choice
    assert choice is not None
    values = [option.value for option in choice.options]
    target = next(i for i, value in enumerate(values) if wanted(value))
    while choice.index != target:
        board.tap("right")
    board.tap("ok")


def red_kicked(state: Path, language: str) -> SimBoard:
    """EXXTRA, seed 2: Red (a person) places 50 on rung 5, Blue's 76 kicks it, Green plays 64 on
    rung 5; back at Red's roll prompt."""
    board = SimBoard(seed=2, state_dir=state, language=language)
    board.settle()
    pick(board, lambda v: v == ("play", "exxtra"))
    pick(board, lambda v: v == 3)
    return red_then_two_bots_played(board)


def power_cut(board: SimBoard, state: Path, language: str) -> SimBoard:
    """Drop `board` without any shutdown, open a new one on the same state directory and
    resume the kept game (its first option)."""
    if board.lock is not None:  # the system drops a dead process's lock on its state directory
        board.lock.release()
    new = SimBoard(seed=2, state_dir=state, language=language)
    new.settle()
    pick(new, lambda v: v == ("resume", None))
    new.settle()
    board.close()
    return new


def drawn(board: SimBoard, size: tuple[int, int]) -> str:
    canvas = board.app.canvas(size)
    return " ".join(box.text for box in canvas.boxes if not box.hidden)


def menu_values(board: SimBoard) -> list[object]:
    board.hold("back")
    menu = board.app.screen
    assert isinstance(menu, GameMenu)
    values = [option.value for option in menu.choice.options]
    board.tap("back")
    return values


@pytest.mark.parametrize("profile", list(PROFILES))
@pytest.mark.parametrize("language", LANGUAGES)
def test_a_power_cut_brings_back_the_line_and_both_logs(tmp_path: Path, language: str, profile: str) -> None:
    size = PROFILES[profile]
    board = red_kicked(tmp_path, language)
    line_before = drawn(board, size)
    board.tap("left")
    log_before = board.app.screen
    assert isinstance(log_before, TextScreen)
    board.tap("ok")
    board = power_cut(board, tmp_path, language)
    try:
        assert isinstance(board.app.screen, PlayScreen)
        after = drawn(board, size)
        assert after == line_before, (line_before, after)  # the line naming the kick is back, whole
        assert KICKED[language] in after and "!" in after
        board.tap("left")  # not "not now": the round log is back
        log = board.app.screen
        assert isinstance(log, TextScreen) and log.title == log_before.title and log.text == log_before.text
        board.tap("ok")
        assert {"log", "game log"} <= set(menu_values(board))
    finally:
        board.close()


@pytest.mark.parametrize("profile", list(PROFILES))
@pytest.mark.parametrize("language", LANGUAGES)
def test_a_takeback_says_what_it_took_back(tmp_path: Path, language: str, profile: str) -> None:
    board = red_kicked(tmp_path, language)
    try:
        board.tap("roll")
        board.settle()
        board.tap("ok")  # Red decides; the bots wait their pace: a short BACK takes it back
        board.tap("back")  # (the first press skips the move's animation)
        board.tap("back")
        assert board.state("pending") == {"kind": "decision", "player": 0}
        took = board.app.note  # in the board's language when it was said
        assert took is not None
        prefix = {"en": "Took back: Red placed", "de": "Zurückgenommen: Rot", "fr": "Coup annulé : Rouge"}[language]
        assert took.startswith(prefix), took
        shown = drawn(board, PROFILES[profile])
        assert " ".join(took.split()) in " ".join(shown.split()), (took, shown)  # drawn whole
        assert "~" not in shown
        pick_game_log(board)
        screen = board.app.screen
        assert isinstance(screen, GameLogScreen)
        board.app.canvas(PROFILES[profile])
        assert took in [line.text for line in screen.lines()]
    finally:
        board.close()


@pytest.mark.parametrize("profile", list(PROFILES))
@pytest.mark.parametrize("language", LANGUAGES)
def test_a_takebacks_line_comes_back_after_a_power_cut(tmp_path: Path, language: str, profile: str) -> None:
    """Issue 37, item 5: Red takes a decision back, then the power goes (the journal has the
    game cut back to before it). After "Resume" the game's log still says "Took back: ...",
    in its place; and a second takeback after the resume is added to it, not in its stead."""
    board = red_kicked(tmp_path, language)
    size = PROFILES[profile]
    try:
        board.tap("roll")
        board.settle()
        board.tap("ok")
        board.tap("back")  # (skips the move's animation)
        board.tap("back")  # takes Red's decision back
        took = board.app.note
        assert took is not None and board.state("pending") == {"kind": "decision", "player": 0}
        pick_game_log(board)
        board.app.canvas(size)
        before = [line.text for line in board.app.screen.lines()]
        assert took in before
        board.tap("ok")
    except BaseException:
        board.close()
        raise
    board = power_cut(board, tmp_path, language)
    try:
        assert board.state("pending") == {"kind": "decision", "player": 0}
        pick_game_log(board)
        screen = board.app.screen
        assert isinstance(screen, GameLogScreen)
        board.app.canvas(size)
        assert [line.text for line in screen.lines()] == before  # the takeback's line in its place
        assert took in " ".join(drawn(board, size).split()) or screen.count > 1
        board.tap("ok")
        board.tap("ok")  # Red decides again, and takes it back again
        board.tap("back")
        board.tap("back")
        again = board.app.note
        assert again is not None and again.startswith(took.split(":")[0])
        pick_game_log(board)
        board.app.canvas(size)
        lines = [line.text for line in board.app.screen.lines()]
        assert lines.count(took) + (again != took) * lines.count(again) >= 2
    finally:
        board.close()


def pick_game_log(board: SimBoard) -> None:
    board.hold("back")
    pick(board, lambda v: v == "game log")


@pytest.mark.parametrize("language", LANGUAGES)
def test_the_game_log_goes_back_to_the_first_step_also_after_a_resume(tmp_path: Path, language: str) -> None:
    """Opened on the latest page; LEFT pages back to the first step of the game; what
    concerned Red (asked now) is said to them and marked; OK is back at the game."""
    board = power_cut(red_kicked(tmp_path, language), tmp_path, language)
    try:
        pick_game_log(board)
        screen = board.app.screen
        assert isinstance(screen, GameLogScreen)
        size = PROFILES["ssd1306"]
        texts = drawn(board, size)
        assert screen.count > 1 and f"{screen.count}/{screen.count}" in texts  # the latest page
        for _page in range(screen.count - 1):
            board.tap("left")
        first = drawn(board, size)
        with i18n.speaking(language):
            rolled = {"en": "Red rolled", "de": "Rot würfelte", "fr": "Rouge a lancé"}[language]
            heading = i18n._("Round {n}").format(n=1)
        assert f"1/{screen.count}" in first and heading in first and rolled in first, first
        lines = screen.lines()
        assert lines[0].text.startswith(rolled) and lines[0].round == 1
        marked = [line for line in lines if line.concerns]
        assert len(marked) == 1 and marked[0].text.startswith("! ") and KICKED[language] in marked[0].text
        board.tap("ok")
        assert isinstance(board.app.screen, PlayScreen)
        assert board.state("pending") == {"kind": "roll", "player": 0}
    finally:
        board.close()


@pytest.mark.parametrize("language", LANGUAGES)
def test_the_review_pages_open_the_game_log_from_its_first_page(language: str) -> None:
    board = SimBoard(seed=1, language=language)
    try:
        board.settle()
        pick(board, lambda v: v == ("play", "extra"))
        pick(board, lambda v: v == 1)
        board.tap("ok")
        board.settle()
        for _press in range(500):
            if isinstance(board.app.screen, ResultScreen):
                break
            session = board.app.session
            assert session is not None
            board.tap("roll" if session.awaiting_roll else "ok")
            board.settle()
        result = board.app.screen
        assert isinstance(result, ResultScreen)
        while result.page.name != "game log":
            board.tap("right")
        board.tap("ok")
        screen = board.app.screen
        assert isinstance(screen, GameLogScreen)
        shown = drawn(board, PROFILES["ssd1306"])
        assert f"1/{screen.count}" in shown and screen.count > 1
        lines = screen.lines()
        session = board.app.session
        assert session is not None
        history = session.game.history
        assert len(lines) >= len(history) // 2 and not any(line.concerns for line in lines)
        board.tap("back")
        assert board.app.screen is result
    finally:
        board.close()


def test_takebacks_back_past_each_other_keep_their_lines_in_order(tmp_path: Path) -> None:
    """Under the house rule "whole game" a second takeback goes back past the first: both
    lines stay in the log, as they happened, after the step each went back to."""
    board = SimBoard(seed=0, state_dir=tmp_path)
    try:
        board.settle()
        pick(board, lambda v: v == ("play", "exxtra"))
        pick(board, lambda v: v == 3)
        for _seat in range(3):
            board.tap("ok")
        board.app.settings = replace(board.app.settings, takeback="game")
        for _player in range(2):  # Red, then Blue: a roll and the first option
            board.tap("roll")
            board.settle()
            board.tap("ok")
            board.settle()
        board.tap("back")  # Blue's placing
        board.tap("back")  # Red's, past Blue's roll
        assert board.state("pending") == {"kind": "decision", "player": 0}
        pick_game_log(board)
        screen = board.app.screen
        assert isinstance(screen, GameLogScreen)
        lines = [line.text for line in screen.lines()]
        took = [line for line in lines if line.startswith("Took back: ")]
        assert [line.split()[2] for line in took] == ["Blue", "Red"], lines
        assert lines[0].startswith("Red rolled") and lines[-1] == took[-1]
    finally:
        board.close()


def test_a_redo_brings_the_moves_line_back(tmp_path: Path) -> None:
    """The in-game menu's "Redo" plays the taken-back steps again: their line is back too."""
    board = red_kicked(tmp_path, "en")
    try:
        board.tap("roll")
        board.settle()
        board.tap("ok")
        board.tap("back")  # (skips the animation)
        board.tap("back")  # took back
        assert board.app.help.explanation is None or not board.app.help.explanation.startswith("Red")
        board.hold("back")
        pick(board, lambda v: v == "redo")
        said = board.app.help.explanation
        assert said is not None and said.startswith("Red: 21 on rung 3"), said
        assert "Red: 21 on rung 3" in drawn(board, PROFILES["ssd1306"])
    finally:
        board.close()
