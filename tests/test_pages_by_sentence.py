"""Pages by sentence and by item, never mid-sentence: the rules pages, every lesson page and the
Key moments, read off the display of a simulated board driven by its buttons, in every language
and on every display profile. A sentence longer than a page may go over pages at its clauses
(after a comma, semicolon or colon), and only a clause longer than a page between two words.
The same runs check that a Key moment says its two moves apart in words (EXTRA!'s EXTRA column
too) and that the lessons' first page names the buttons that start the game."""

from __future__ import annotations

import re
from dataclasses import dataclass
from pathlib import Path

import pytest

from firmware.games import game_names
from firmware.games.registry import find_game
from firmware.hardware.config import default_board_path, load_board
from firmware.i18n import FIT_LANGUAGES, PSEUDO, _
from firmware.ui.draw import Canvas, font, sentences, text_pages, wrap
from firmware.ui.lesson_runner import LessonPage
from firmware.ui.menus import MainMenu, RulesScreen, SeatCountScreen
from firmware.ui.rules_page import rules_paragraphs
from firmware.ui.moments import KEY_MOMENTS, MomentsScreen
from firmware.ui.play import PlayScreen, ResultScreen
from firmware.ui.screen import MenuScreen
from sim.board import SimBoard

BOARDS = sorted((default_board_path().parent / "boards").glob("*.toml")) + [default_board_path()]
PROFILES = {("default" if path == default_board_path() else path.stem): path for path in BOARDS}
_WORDS = re.compile(r"[ \t]+")
_CLAUSE = re.compile(r"(?<=[,;:])[ \t]+")


def size_of(path: Path) -> tuple[int, int]:
    display = load_board(path).display
    return (display.height, display.width) if display.rotate % 2 else (display.width, display.height)


@dataclass(frozen=True)
class Gap:
    """The gap after a word of a text: whether a page may end there, and why."""

    sentence_end: bool  # the end of a sentence or of an item
    clause_end: bool
    long_sentence: bool  # its sentence does not fit a page
    long_clause: bool  # its clause does not fit a page


def gaps(text: str, columns: int, rows: int) -> tuple[list[str], list[Gap]]:
    """`text`'s words in order and the gap after each."""
    words: list[str] = []
    after: list[Gap] = []
    for item in text.split("\n"):
        for sentence in sentences(item):
            long_sentence = len(wrap(sentence, columns)) > rows
            for clause in _CLAUSE.split(sentence):
                long_clause = len(wrap(clause, columns)) > rows
                clause_words = [w for w in _WORDS.split(clause) if w]
                for n, word in enumerate(clause_words):
                    words.append(word)
                    last = n == len(clause_words) - 1
                    after.append(Gap(False, last, long_sentence, long_clause))
            if after:
                after[-1] = Gap(True, True, long_sentence, after[-1].long_clause)
    return words, after


def bad_breaks(text: str, pages: list[list[str]], columns: int, rows: int) -> list[str]:
    """Where `pages` (each its lines as drawn) break `text` badly: a word lost or added, or a page
    ending inside a sentence that would fit a page (or inside a clause that would)."""
    words, after = gaps(text, columns, rows)
    shown = [[w for line in page for w in _WORDS.split(line) if w] for page in pages]
    if [w for page in shown for w in page] != words:
        return [f"the pages do not hold the text's words: {shown} for {text!r}"]
    problems, count = [], 0
    for page in shown[:-1]:
        count += len(page)
        gap = after[count - 1]
        fine = gap.sentence_end or (gap.clause_end and gap.long_sentence) or gap.long_clause
        if not fine:
            problems.append(f"a page ends at {' '.join(words[max(0, count - 4) : count])!r} in {text!r}")
    return problems


def body(texts: list[str], *drop: str) -> list[str]:
    """A page's text lines as drawn: the texts without the title, the page counter and `drop`."""
    return [t for t in texts[1:] if t not in drop and not re.fullmatch(r"\d+/\d+", t)]


def pick(board: SimBoard, value: object) -> None:
    screen = board.app.screen
    assert isinstance(screen, MenuScreen), screen
    target = next(i for i, option in enumerate(screen.choice.options) if option.value == value)
    while screen.choice.index != target:
        board.tap("right")
    board.tap("ok")
    board.settle()


def test_text_pages_take_whole_sentences_and_items() -> None:
    text = "Red, decision 2: dice 2 6 6 6 6\nplayed: Red took extra 2 into column B, crossed 12+12\ncost 2.2 pts"
    pages = text_pages(text, 21, 4)
    assert pages == [
        ["Red, decision 2: dice", "2 6 6 6 6"],
        ["played: Red took", "extra 2 into column", "B, crossed 12+12", "cost 2.2 pts"],
    ]
    assert bad_breaks(text, pages, 21, 4) == []
    # A sentence longer than a page goes on at a clause; a clause longer than a page, evenly by lines.
    long = "One two three four five six seven eight nine ten eleven twelve, thirteen. Next."
    assert text_pages(long, 10, 2) == [
        ["One two", "three four"],
        ["five six", "seven"],
        ["eight nine", "ten eleven"],
        ["twelve,", "thirteen."],
        ["Next."],
    ]
    assert bad_breaks(long, text_pages(long, 10, 2), 10, 2) == []
    assert bad_breaks("Press OK. Then ROLL.", [["Press OK. Then"], ["ROLL."]], 21, 4)  # the check bites


def counter(texts: list[str]) -> int:
    """The page count a screen's title shows ("2/5": 5), 1 without one."""
    return next((int(t.split("/")[1]) for t in texts if re.fullmatch(r"\d+/\d+", t)), 1)


@pytest.mark.parametrize("language", FIT_LANGUAGES)
@pytest.mark.parametrize("profile", list(PROFILES))
def test_rules_pages_break_between_sentences(profile: str, language: str) -> None:
    canvas = Canvas(size_of(PROFILES[profile]))
    board = SimBoard(seed=1, board_file=PROFILES[profile], language=language)
    try:
        board.settle()
        assert isinstance(board.app.screen, MainMenu)
        pick(board, ("rules", None))
        for game in game_names():
            pick(board, game)
            assert isinstance(board.app.screen, RulesScreen), board.app.screen
            read = [body(board.screen_text())]
            for _page in range(counter(board.screen_text()) - 1):
                board.tap("right")
                read.append(body(board.screen_text()))
            text = "\n".join(rules_paragraphs(game))
            assert bad_breaks(text, read, canvas.columns, canvas.lines - 1) == [], (game, read)
            board.tap("back")
    finally:
        board.close()


def lesson_rows(canvas: Canvas) -> int:
    """The text lines of a lesson page (between its title and its help line)."""
    return (canvas.height - font("small").line_height - canvas.line_height) // LessonPage.pitch(canvas)


@pytest.mark.parametrize("language", FIT_LANGUAGES)
@pytest.mark.parametrize("profile", list(PROFILES))
@pytest.mark.parametrize("game", game_names())
def test_lesson_and_key_moments_pages_break_between_sentences_and_items(game: str, profile: str, language: str) -> None:
    """Learn <game> by the buttons (OK on each page and decision, ROLL to roll, the lucky loser's
    1 into a 6 as advised), every page read; then the Key moments, every page read."""
    canvas = Canvas(size_of(PROFILES[profile]))
    board = SimBoard(seed=1, board_file=PROFILES[profile], language=language)
    try:
        board.settle()
        app = board.app
        pick(board, ("play", game))
        assert isinstance(app.screen, SeatCountScreen)
        pick(board, "learn")
        notes = 0
        for _step in range(600):
            screen, session = app.screen, app.session
            if isinstance(screen, ResultScreen):  # the lesson's last page, over the result, read
                break
            assert session is not None
            if isinstance(screen, LessonPage):
                footers = (_("OK: play on"), _("OK: read on"))
                read = []
                while app.screen is screen:
                    read.append(body(board.screen_text(), *footers))
                    board.tap("ok")
                    board.settle()
                assert bad_breaks(screen.text(), read, canvas.columns, lesson_rows(canvas)) == [], read
                notes += 1
                if screen.note.key == "goal":
                    # The first page says OK, then ROLL: OK went back to the game, and ROLL rolls.
                    if language != PSEUDO:  # the pseudo-locale accents the button names too
                        assert 0 <= screen.text().find("OK") < screen.text().find("ROLL"), screen.text()
                    assert isinstance(app.screen, PlayScreen) and not session.game.history
                    board.tap("roll")
                    board.settle()
                    assert len(session.game.history) == 1, "ROLL rolled the first roll"
            elif type(screen).__name__ == "TurnOnesScreen":
                for button in ("right",) * 5 + ("ok",):
                    board.tap(button)
                board.settle()
            elif isinstance(screen, PlayScreen) and session.awaiting_roll and not session.pending_bot():
                board.tap("roll")
                board.settle()
            else:
                board.tap("ok")
                board.settle()
        result = app.screen
        assert isinstance(result, ResultScreen), result
        assert notes == len(find_game(game).lesson_script().notes)
        while result.page.name != KEY_MOMENTS:
            board.tap("right")
        board.settle()
        board.tap("ok")
        moments = app.screen
        assert isinstance(moments, MomentsScreen), moments
        pages: dict[int, list[list[str]]] = {}
        for _page in range(counter(board.screen_text())):
            pages.setdefault(moments.shown, []).append(body(board.screen_text()))
            board.tap("right")
        assert sorted(pages) == list(range(len(moments.moments)))  # each moment on pages of its own
        for number, (text, _dice) in enumerate(moments.moments):
            assert bad_breaks(text, pages[number], canvas.columns, canvas.lines - 1) == [], pages[number]
            lines = text.split("\n")
            if len(lines) >= 3:  # "played: …" and "better: …": two moves, said apart
                assert lines[1].split(" ", 1)[1] != lines[2].split(" ", 1)[1], text
            assert "{" not in text, text
        if game == "extra":  # decision 2 on 2 6 6 6 6: the new 2 into column B, or C
            column = _("took extra {face} into column {column}")
            said = " ".join(text for text, _dice in moments.moments)
            assert column.format(face=2, column="B") in said and column.format(face=2, column="C") in said, said
    finally:
        board.close()
