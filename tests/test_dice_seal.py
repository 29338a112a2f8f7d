"""The dice seal players take part in (docs/dice.md), driven by button events on a SimBoard:
before the first roll of a game with the board's own random dice the seal is shown on a page of
its own, where ROLL plays the first roll and any other press goes to the game; with the setting
"Dice word: ask" (home Settings, or the operator's) the page offers the table's word too (LEFT,
RIGHT; BACK takes one back; OK or ROLL end it, ROLL with the first roll); the rolls then follow
hmac-sha256-v2 with it. On the game's first screen the seal is drawn only on empty lines, never
over who acts; it is in the game menu ("Dice seal"), in the MQTT state and in the exported
record, and `verify` checks both schemes. Seeded, scripted and demo games skip the page and keep
their rolls.

The seal shows 128 bits of the commitment (two lines of four groups of four hex digits) on every
display profile in every language, the same two lines wherever it is shown and in `verify
--seal`: two commitments alike in their first 48 bits (what a birthday search over some 2^25
seeds finds) no longer look alike."""

from __future__ import annotations

import json
import random
import re
from pathlib import Path
from typing import Any

import pytest

from firmware.bots import choose
from firmware.cli import main
from firmware.dice import ELECTRONIC, SCHEME, SCHEME_BOUND, SCHEME_WORD, commitment, derive_roll, seal_lines
from firmware.games import Roll
from firmware.hardware.config import default_board_path, load_board
from firmware.i18n import FIT_LANGUAGES
from firmware.journal import Journal
from firmware.table import Seat, Table
from firmware.ui.play import PlayScreen
from firmware.ui.draw import Canvas, clipped
from firmware.ui.menus import MainMenu
from firmware.ui.seal import WordScreen, draw_seal_bar
from firmware.i18n import _ as shown  # the texts as the board says them
from firmware.verify import check_record
from sim.board import SimBoard
from tests.mqtt_fixtures import Broker, Subscriber, board_file, wait_for

EXXTRA_FOR_THREE = ("ok", "ok", "ok", "ok", "ok")  # Play, EXXTRA, 3 players, three people


def text(board: SimBoard) -> str:
    return " ".join(board.screen_text())


GAMES = ("exxtra", "levelx", "extra")
BOARDS = sorted((default_board_path().parent / "boards").glob("*.toml")) + [default_board_path()]


def _size(path: Path) -> tuple[int, int]:
    display = load_board(path).display
    return (display.height, display.width) if display.rotate % 2 else (display.width, display.height)


SIZES = sorted({_size(path) for path in BOARDS})  # every display profile the fit test walks


def new_game_by_presses(board: SimBoard, game: str) -> None:
    """Play <game> from the main menu, every seat a person: OK until the seal's page."""
    for _ in range(GAMES.index(game)):
        board.tap("right")
    for _ in range(8):
        if isinstance(board.app.screen, WordScreen | PlayScreen):
            return
        board.tap("ok")


def ask_for_a_word_by_presses(board: SimBoard) -> None:
    """Home Settings → "Dice word" → ask, by presses (LEFT from the top wraps to Settings)."""
    board.tap("left")
    board.tap("ok")
    options = [o.value for o in board.app.screen.choice.options]
    for _ in range(options.index("dice_word")):
        board.tap("right")
    board.tap("ok")
    assert board.app.settings.dice_word == "ask"
    board.tap("back")
    board.tap("right")  # back to the top: Play EXXTRA
    assert isinstance(board.app.screen, MainMenu) and board.app.screen.choice.index == 0


@pytest.mark.parametrize("language", FIT_LANGUAGES)
@pytest.mark.parametrize("game", GAMES)
def test_a_new_game_shows_the_seal_on_its_own_page_and_a_first_roll_rolls(
    tmp_path: Path, game: str, language: str
) -> None:
    board = SimBoard(state_dir=tmp_path / "state", language=language)
    try:
        new_game_by_presses(board, game)
        screen = board.app.screen
        assert isinstance(screen, WordScreen) and not screen.ask  # the default: the seal only
        seal = seal_lines(board.journal.unfinished().record["dice"]["commit"])
        assert board.screen_text()[:3] == [shown("Dice seal"), *seal] and shown("ROLL: play!") in text(board)
        assert board.app.session.rolls_made() == 0
        board.tap("roll")
        board.settle()
        assert isinstance(board.app.screen, PlayScreen) and board.app.session.rolls_made() == 1
        [roll] = [s for s in board.app.session.game.history if isinstance(s, Roll)]
        secret = board.journal.unfinished().meta["dice_seed"]
        assert roll.faces == derive_roll(secret, 0, board.app.session.game.dice())  # no word: v1's roll
    finally:
        board.close()


@pytest.mark.parametrize("button", ["ok", "left", "right", "back"])
def test_on_the_seal_page_any_other_press_goes_to_the_game_without_rolling(tmp_path: Path, button: str) -> None:
    board = SimBoard(state_dir=tmp_path / "state")
    try:
        new_game_by_presses(board, "levelx")
        board.tap(button)
        assert isinstance(board.app.screen, PlayScreen) and board.app.session.rolls_made() == 0
        board.tap("roll")
        board.settle()
        assert board.app.session.rolls_made() == 1
    finally:
        board.close()


@pytest.mark.parametrize("language", FIT_LANGUAGES)
@pytest.mark.parametrize("game", GAMES)
def test_with_ask_the_word_is_offered_and_roll_ends_it_with_the_first_roll(
    tmp_path: Path, game: str, language: str
) -> None:
    board = SimBoard(state_dir=tmp_path / "state", language=language)
    try:
        ask_for_a_word_by_presses(board)
        new_game_by_presses(board, game)
        assert isinstance(board.app.screen, WordScreen) and board.app.screen.ask
        commit = board.journal.unfinished().record["dice"]["commit"]
        seal = seal_lines(commit)
        assert board.screen_text()[:4] == [shown("Mix the dice?"), *seal, shown("Mix: {word}").format(word="-")]
        for button in ("left", "right", "right", "back"):
            board.tap(button)
        assert shown("Mix: {word}").format(word="LR") in board.screen_text()
        secret = board.journal.unfinished().meta["dice_seed"]
        board.tap("roll")  # never a letter: it ends the word and rolls
        board.settle()
        assert isinstance(board.app.screen, PlayScreen) and board.app.session.rolls_made() == 1
        assert board.journal.unfinished().record["dice"] == {"scheme": SCHEME_BOUND, "commit": commit, "word": "LR"}
        [roll] = [s for s in board.app.session.game.history if isinstance(s, Roll)]
        assert roll.faces == derive_roll(secret, 0, board.app.session.game.dice(), "LR")
    finally:
        board.close()


def test_with_ask_ok_gives_the_word_and_the_game_menu_shows_it(tmp_path: Path) -> None:
    board = SimBoard(state_dir=tmp_path / "state")
    try:
        ask_for_a_word_by_presses(board)
        new_game_by_presses(board, "exxtra")
        for button in ("left", "right", "right", "ok"):
            board.tap(button)
        assert isinstance(board.app.screen, PlayScreen) and board.app.session.rolls_made() == 0
        commit = board.journal.unfinished().record["dice"]["commit"]
        assert board.journal.unfinished().record["dice"]["word"] == "LRR"
        board.hold("back")
        options = [o.value for o in board.app.screen.choice.options]
        for _ in range(options.index("seal")):
            board.tap("right")
        board.tap("ok")
        assert board.screen_text()[2:5] == [*seal_lines(commit), "Word: LRR"]  # under the title and its page count
    finally:
        board.close()


@pytest.mark.parametrize("size", SIZES)
def test_the_seals_bar_takes_only_empty_lines_and_is_labelled(size: tuple[int, int]) -> None:
    lines = ("Dice seal", *seal_lines(commitment("7")))
    canvas = Canvas(size)
    canvas.title("EXTRA!")
    with canvas.asking():
        canvas.line(canvas.lines - 1, "Red: press ROLL")
    canvas.draw.point((canvas.width // 2, 2 * canvas.line_height + 1), fill=1)  # a sheet's pixel, no text
    first = draw_seal_bar(canvas, lines)
    rows = range(3, canvas.lines - 1)  # below the title, the pixel's line and above who acts
    if len(rows) < len(lines):
        assert first is None and [box.text for box in canvas.boxes] == ["EXTRA!", "Red: press ROLL"]
        return
    assert first is not None and first in rows and first + len(lines) - 1 in rows
    assert [box.text for box in canvas.boxes[2:]] == list(lines)  # the label first
    assert not any(box.hidden for box in canvas.boxes)
    full = Canvas(size)
    for row in range(full.lines):
        full.line(row, "x" * (row % 3 + 1))
    assert draw_seal_bar(full, lines) is None and len(full.boxes) == full.lines  # no room: drawn nowhere


@pytest.mark.parametrize("size", SIZES)
@pytest.mark.parametrize("game", GAMES)
def test_the_seal_on_a_games_first_screen_covers_nothing(tmp_path: Path, game: str, size: tuple[int, int]) -> None:
    """A seeded game (no seal page) shows the seal, labelled, until the first roll only on lines
    where nothing else is drawn: never over who acts, a sheet's rows, a total or the legend."""
    board = SimBoard(state_dir=tmp_path / "state", seed=7)
    try:
        seats = [Seat(c, c.lower()) for c in ("Red", "Blue", "Green")[: 3 if game == "exxtra" else 2]]
        board.app.start_game(game, seats, "play")
        board.settle()
        assert isinstance(board.app.screen, PlayScreen)
        bare = Canvas(size)
        board.app.screen.draw(bare)
        board.app.help.draw(bare, board.app)
        canvas = board.app.canvas(size)
        label = {shown("Dice seal"), *board.app.session.seal}
        sealed = [box for box in canvas.boxes if box.text in label and box.box is not None]
        others = [box for box in canvas.boxes if box not in sealed]
        assert not any(box.hidden for box in canvas.asks())
        assert [box.hidden for box in others] == [box.hidden for box in bare.boxes]  # nothing newly covered
        for seal_box in sealed:
            assert seal_box.box is not None
            x0, y0, x1, y1 = seal_box.box
            for box in others:
                if box.box is not None:
                    assert box.box[3] < y0 or box.box[1] > y1 or box.box[2] < x0 or box.box[0] > x1, box.text
        assert len(sealed) in (0, 3)  # the two lines with their label, or nowhere (the game menu has it)
    finally:
        board.close()


def test_the_bots_wait_for_the_word_and_ok_at_once_skips_it(tmp_path: Path) -> None:
    board = SimBoard(state_dir=tmp_path / "state")
    try:
        board.app.start_game("levelx", [Seat("Red", "red", "easy"), Seat("Blue", "blue", "easy")], "play")
        board.settle()
        board.wait(60)
        assert isinstance(board.app.screen, WordScreen) and board.app.session.rolls_made() == 0
        board.tap("ok")  # no word
        board.settle()
        session = board.app.session
        assert session.rolls_made() > 0
        assert session.header()["dice"] == {
            "scheme": SCHEME_BOUND,
            "commit": commitment(session.meta["dice_seed"], ELECTRONIC),
        }
        first = next(s for s in session.game.history if isinstance(s, Roll))
        assert first.faces == derive_roll(session.meta["dice_seed"], 0, session.game.dice())
    finally:
        board.close()


@pytest.mark.parametrize("kind", ["seeded", "scripted", "demo"])
def test_seeded_scripted_and_demo_games_skip_the_word_and_keep_their_rolls(tmp_path: Path, kind: str) -> None:
    from firmware.dice import ScriptedDice

    board = SimBoard(
        state_dir=tmp_path / "state",
        seed=7 if kind != "scripted" else None,
        dice=ScriptedDice([(7, "X")]) if kind == "scripted" else None,
    )
    try:
        if kind == "demo":
            board.app.start_game("exxtra", [Seat(c, c.lower(), "easy") for c in ("Red", "Blue", "Green")], "demo")
        else:
            for button in EXXTRA_FOR_THREE:
                board.tap(button)
        assert isinstance(board.app.screen, PlayScreen)
        if kind == "seeded":
            board.tap("roll")
            board.settle()
            first = next(s for s in board.app.session.game.history if isinstance(s, Roll))
            assert first.faces == derive_roll("7", 0, board.app.session.game.dice())  # as before the seal
    finally:
        board.close()


def test_a_game_resumed_before_its_first_roll_asks_again_and_after_the_word_keeps_it(tmp_path: Path) -> None:
    journal = Journal(tmp_path / "state")
    meta = {"mode": "play", "dice": "electronic"}
    table = Table.start("extra", [Seat("Red", "red")], journal=journal, meta=meta)
    assert table.asks_word()
    again = Table.restore(journal.unfinished(), journal)
    assert again.asks_word()
    again.set_word("RRLD")
    resumed = Table.restore(journal.unfinished(), journal)
    assert not resumed.asks_word() and resumed.word == "RRLD"
    roll = resumed.draw_roll()
    assert roll.faces == derive_roll(resumed.meta["dice_seed"], 0, resumed.game.dice(), "RRLD")
    resumed.apply(roll)
    with pytest.raises(ValueError, match="before the first roll"):
        resumed.set_word("L")
    journal.close()


def play_to_the_end(table: Table) -> None:
    rng = random.Random(4)
    while not table.over:
        table.apply(table.draw_roll() if table.awaiting_roll else choose(table.game, rng))


def test_the_exported_record_holds_the_word_and_verify_checks_both_schemes(capsys, tmp_path: Path) -> None:
    journal = Journal(tmp_path / "state")
    seats = [Seat("Red", "red", "easy"), Seat("Blue", "blue", "easy")]
    with_word = Table.start("levelx", seats, journal=journal, meta={"mode": "play", "dice": "electronic"})
    with_word.set_word("DLR")
    play_to_the_end(with_word)
    without = Table.start("levelx", seats, journal=journal, meta={"mode": "play", "dice": "electronic"})
    without.set_word(None)
    play_to_the_end(without)
    journal.close()
    out = tmp_path / "games.jsonl"
    assert main(["records", "export", "--state-dir", str(tmp_path / "state"), "--out", str(out)]) == 0
    first, second = (json.loads(line) for line in out.read_text().splitlines())
    assert (
        first["dice"]["scheme"] == SCHEME_BOUND and first["dice"]["word"] == "DLR" and len(first["dice"]["seed"]) == 64
    )
    assert second["dice"]["scheme"] == SCHEME_BOUND and "word" not in second["dice"]
    capsys.readouterr()
    assert main(["verify", str(out)]) == 0
    said = capsys.readouterr().out.splitlines()
    assert [line.split(": ", 1)[1] for line in said] == [
        f"ok: all {rolls(first)} rolls match the seed",
        f"ok: all {rolls(second)} rolls match the seed",
    ]
    # Another word, or none, and the rolls no longer match: the word is in every roll.
    for dice in (
        first["dice"] | {"word": "DLL"},
        {k: v for k, v in first["dice"].items() if k != "word"} | {"scheme": SCHEME},
    ):
        assert not check_record(first | {"dice": dice}).ok
    no_word = {k: v for k, v in first["dice"].items() if k != "word"}
    assert "the seed gives" in check_record(first | {"dice": no_word}).problems[0]  # v3: the word is in the rolls
    old_scheme = no_word | {"scheme": SCHEME_WORD}
    assert "needs the table's word" in check_record(first | {"dice": old_scheme}).problems[0]


def rolls(record: dict[str, Any]) -> int:
    return sum("roll" in step for step in record["steps"])


def test_the_seal_and_the_word_are_in_the_mqtt_state(tmp_path: Path) -> None:
    broker = Broker(tmp_path).start()
    board = None
    try:
        path = board_file(tmp_path, f'table = "table-3"\nbroker = "127.0.0.1"\nport = {broker.port}\n')
        board = SimBoard(board_file=path, state_dir=tmp_path / "state")
        watcher = Subscriber(broker)
        ask_for_a_word_by_presses(board)
        for button in EXXTRA_FOR_THREE:
            board.tap(button)
        commit = board.journal.unfinished().record["dice"]["commit"]

        def dice_states() -> list[Any]:
            return [json.loads(m.payload).get("dice") for m in watcher.on("xtraboard/table-3/state")]

        wait_for(lambda: {"scheme": SCHEME_BOUND, "commit": commit, "word": None} in dice_states(), "the seal")
        board.tap("right")
        board.tap("ok")
        wait_for(lambda: {"scheme": SCHEME_BOUND, "commit": commit, "word": "R"} in dice_states(), "the word")
        assert all("seed" not in (d or {}) for d in dice_states())
    finally:
        if board is not None:
            board.close()
        broker.stop()


# --- 128 bits, the same wherever the seal is shown --------------------------------------------
_GROUPS = re.compile(r"^[0-9a-f]{4}( [0-9a-f]{4})*$")


def shown_seal(canvas: Canvas) -> list[str]:
    """The lines of hex groups the canvas shows (in view, not covered), top to bottom."""
    boxes = [box for box in canvas.boxes if box.box is not None and not box.hidden and _GROUPS.match(box.text)]
    return [box.text for box in sorted(boxes, key=lambda box: (box.region[1], box.region[0]))]


def read_seal(canvas: Canvas, commit: str) -> str:
    """The hex digits the canvas shows, read back; they must be the commitment's first ones."""
    digits = "".join(shown_seal(canvas)).replace(" ", "")
    assert commit.removeprefix("sha256:").startswith(digits), (digits, commit)
    return digits


@pytest.mark.parametrize("language", FIT_LANGUAGES)
def test_the_seal_shows_128_bits_on_every_display_in_every_language(tmp_path: Path, language: str) -> None:
    for ask in (False, True):
        board = SimBoard(state_dir=tmp_path / f"state-{ask}", language=language)
        try:
            if ask:
                ask_for_a_word_by_presses(board)
            for button in EXXTRA_FOR_THREE:
                board.tap(button)
            commit = board.journal.unfinished().record["dice"]["commit"]
            seal = list(seal_lines(commit))
            for size in SIZES:  # the seal's page (with the word offered, before it and while it is made)
                canvas = board.app.canvas(size)
                assert len(read_seal(canvas, commit)) >= 32 and shown_seal(canvas) == seal, (size, shown_seal(canvas))
                assert not clipped(canvas), (size, ask)  # its help too
            board.tap("left")
            if ask:
                assert isinstance(board.app.screen, WordScreen)
                for size in SIZES:
                    assert shown_seal(board.app.canvas(size)) == seal and not clipped(board.app.canvas(size)), size
                board.tap("ok")
            assert isinstance(board.app.screen, PlayScreen)
            for size in SIZES:  # the game's first screen: the seal whole where it covers nothing, or not at all
                canvas = board.app.canvas(size)
                assert shown_seal(canvas) in (seal, []), size
                assert all(not box.hidden for box in canvas.asks()), size
                assert not [box.text for box in canvas.boxes if box.clipped and box.text in seal], size
        finally:
            board.close()


def open_the_dice_seal(board: SimBoard) -> None:
    """From the game: the game menu (a long BACK), RIGHT to "Dice seal", OK."""
    board.hold("back")
    options = [o.value for o in board.app.screen.choice.options]
    for _ in range(options.index("seal")):
        board.tap("right")
    board.tap("ok")


def test_the_seal_is_in_view_on_request_all_game_and_back_to_the_game_after(tmp_path: Path) -> None:
    board = SimBoard(state_dir=tmp_path / "state")
    try:
        for button in (*EXXTRA_FOR_THREE, "ok"):  # three people; no word
            board.tap(button)
        session = board.app.session
        commit = session.header()["dice"]["commit"]
        for _ in range(3):  # a few rolls and moves into the game
            board.tap("roll")
            board.settle()
            board.tap("ok")
            board.settle()
        assert session.rolls_made() >= 2 and not session.over
        assert not shown_seal(board.app.canvas((128, 64)))  # the first screen's seal is gone
        steps, asked = len(session.game.history), session.game.pending()
        open_the_dice_seal(board)
        for size in SIZES:
            canvas = board.app.canvas(size)
            assert len(read_seal(canvas, commit)) >= 32 and shown_seal(canvas) == list(seal_lines(commit)), size
        board.tap("ok")  # closes the page
        board.tap("back")  # the game menu: back to the game, as it stood
        board.settle()
        assert isinstance(board.app.screen, PlayScreen)
        assert len(session.game.history) == steps and session.game.pending() == asked  # nothing played meanwhile
        name = session.name(asked.player)
        assert any(name in box.text for box in board.app.canvas((128, 64)).asks() if not box.hidden)
    finally:
        board.close()


def test_commitments_alike_in_their_first_48_bits_no_longer_look_alike() -> None:
    # What the birthday search found: two seeds whose commitments share 12 hex digits, which was
    # all the board showed. It shows the first 32 now, so any two commitments that differ
    # anywhere in those (a birthday search for such a pair takes some 2^64 tries) look different.
    table = Table.start("extra", [Seat("Red", "red")], meta={"mode": "play", "dice": "electronic"})
    first = table.header()["dice"]["commit"]
    shown = table.seal
    assert shown is not None and "".join(shown).replace(" ", "") == first[7:39]
    for position in range(7 + 12, 7 + 32):
        other = first[:position] + format(int(first[position], 16) ^ 1, "x") + first[position + 1 :]
        assert other[:19] == first[:19] and seal_lines(other) != shown, position
    with pytest.raises(ValueError, match="64 lower-case hex digits"):
        seal_lines("sha256:" + first[7:40])


def test_verify_seal_prints_the_lines_the_board_showed(capsys, tmp_path: Path) -> None:
    # The board shows seal_lines(commit) (the tests above read it off every display); verify
    # --seal prints the same two lines from the exported record.
    journal = Journal(tmp_path / "state")
    seats = [Seat("Red", "red", "easy"), Seat("Blue", "blue", "easy")]
    table = Table.start("levelx", seats, journal=journal, meta={"mode": "play", "dice": "electronic"})
    shown = table.seal
    assert shown is not None and shown == seal_lines(table.header()["dice"]["commit"])
    table.set_word("R")
    play_to_the_end(table)
    journal.close()
    out = tmp_path / "games.jsonl"
    assert main(["records", "export", "--state-dir", str(tmp_path / "state"), "--out", str(out)]) == 0
    capsys.readouterr()
    assert main(["verify", "--seal", str(out)]) == 0
    said = capsys.readouterr().out.splitlines()
    assert said[0] == "seal: " + " / ".join(shown) and said[1].startswith("ok: all ")
    # A record without a well-formed commitment: said, and the check says why it fails.
    record = json.loads(out.read_text())
    broken = tmp_path / "broken.json"
    broken.write_text(json.dumps(record | {"dice": record["dice"] | {"commit": "sha256:9ece3feb0218"}}))
    assert main(["verify", "--seal", str(broken)]) == 1
    said = capsys.readouterr().out.splitlines()
    assert said[0] == "seal: none (the record has no dice commitment of 'sha256:' and 64 hex digits)"


@pytest.mark.parametrize("language", FIT_LANGUAGES)
def test_the_operator_chooses_ask_for_a_word_on_a_cafes_board_and_it_is_kept(tmp_path: Path, language: str) -> None:
    from sim.app import choose as choose_option
    from tests.test_operator import board_file as cafe_board_file
    from tests.test_operator import open_operator

    path = cafe_board_file(tmp_path)
    board = SimBoard(board_file=path, state_dir=tmp_path / "state", kiosk=True, language=language)
    try:
        open_operator(board)
        choose_option(board, shown("Settings"))
        options = [o.value for o in board.app.screen.choice.options]
        for _step in range(options.index("dice_word")):
            board.tap("right")
        assert board.app.screen.choice.current.detail == shown("off")  # the default: the seal only
        board.tap("ok")
        assert board.app.settings.dice_word == "ask" and board.app.screen.choice.current.detail == shown("ask")
    finally:
        board.close()
    board = SimBoard(board_file=path, state_dir=tmp_path / "state", kiosk=True, language=language)  # kept
    try:
        assert board.app.settings.dice_word == "ask"
        new_game_by_presses(board, "extra")
        assert isinstance(board.app.screen, WordScreen) and board.app.screen.ask
        assert board.screen_text()[0] == shown("Mix the dice?")
    finally:
        board.close()


def test_roll_on_the_word_page_when_a_bot_rolls_first_goes_to_the_game_and_the_bot_rolls(tmp_path: Path) -> None:
    board = SimBoard(state_dir=tmp_path / "state")
    try:
        ask_for_a_word_by_presses(board)
        board.app.start_game("levelx", [Seat("Blue", "blue", "easy"), Seat("Red", "red")], "play")
        board.settle()
        assert isinstance(board.app.screen, WordScreen) and board.app.session.rolls_made() == 0  # the bot waits
        board.tap("right")
        board.tap("roll")
        board.settle()
        session = board.app.session
        assert isinstance(board.app.screen, PlayScreen) and session.word == "R" and session.rolls_made() >= 1
        first = next(s for s in session.game.history if isinstance(s, Roll))  # the bot's, with the word
        assert first.faces == derive_roll(session.meta["dice_seed"], 0, session.game.dice(), "R")
    finally:
        board.close()
