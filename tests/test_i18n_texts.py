"""The last texts people see, in their language (issue 14): an engine's refusal on the board, a
board description's error, a damaged journal's note, the dice audit and `xtraboard verify` —
each in German or French where the board or the command line speaks it, while `str()` of an
engine's refusal (logs, records, the engine protocol) stays English."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from firmware import i18n
from firmware.cli import main
from firmware.dice import CommittedDice
from firmware.errors import ConfigError, IllegalStepError
from firmware.games import Roll, new_game
from firmware.games.levelx.rules import Groups
from firmware.hardware.config import load_board
from firmware.journal.schema import DB_NAME
from firmware.ui.menus import switch_language
from firmware.verify import Fairness, fairness
from firmware.xdp.server import EngineServer
from sim.board import SimBoard
from sim.robustness import choose
from tests.test_verify import play_record

ROOT = Path(__file__).resolve().parents[1]


def shown(board: SimBoard) -> str:
    """The display's texts as one line, runs of spaces as one (a banner wraps its note)."""
    return " ".join(" ".join(board.screen_text()).split())


# --- an engine's refusal ---------------------------------------------------------------------------
def test_a_refused_step_on_a_german_board_is_said_in_german_and_kept_in_english() -> None:
    board = SimBoard(seed=2, language="de")
    try:
        choose(board, "EXXTRA spielen")
        choose(board, "3 Spieler")
        for _seat in range(3):
            board.tap("ok")  # three people
        board.tap("roll")
        board.settle()
        session = board.app.session
        assert session.game.pending().kind == "decision"
        # Behind the screen's back (a scenario, another client, a bug) the decision is made, so
        # the option on the screen is stale: OK offers the engine a step it refuses.
        session.apply(board.app.screen.choice.current.value)
        board.tap("ok")
        assert "Nicht erlaubt: Erst würfeln" in shown(board)
        assert board.app.problems[-1] == "Not allowed: the dice must be rolled first"  # Records, logs
        switch_language(board.app, "fr")  # switched while the note is up (as the settings menu does) ...
        board.board.render()  # ... the next frame says it in French
        assert "Interdit : il faut d'abord lancer les dés" in shown(board)
    finally:
        board.close()


def test_the_boards_own_notes_follow_a_language_switch_too() -> None:
    board = SimBoard(seed=2, language="de")
    try:
        choose(board, "EXXTRA spielen")
        choose(board, "3 Spieler")
        for _seat in range(3):
            board.tap("ok")
        board.tap("back")  # a short BACK before the first roll: nothing to take back
        assert "Seit dem letzten Wurf nichts zurückzunehmen" in shown(board)
        switch_language(board.app, "fr")
        board.board.render()
        assert "Rien à annuler depuis le dernier lancer" in shown(board)
    finally:
        board.close()


def test_an_engines_refusal_is_english_text_with_a_translatable_template() -> None:
    i18n.use("de")
    game = new_game("levelx", ["Anna", "Ben"])
    game.apply(Roll((1, 1, 2, 3, 4, 5, 6)[: len(game.dice())]))
    with pytest.raises(IllegalStepError) as caught:
        game.apply(Groups(((0, 0),)))
    assert str(caught.value) == "groups: die 0 is in two groups (each die belongs to one group)"
    assert i18n.tr(caught.value) == "Gruppen: Würfel 0 ist in zwei Gruppen (jeder Würfel gehört zu einer Gruppe)"
    extra = new_game("extra", ["Anna"])
    with pytest.raises(IllegalStepError) as caught:
        extra.undo()
    assert str(caught.value) == "nothing to undo: no step has been played"
    assert i18n.tr(caught.value) == "nichts zurückzunehmen: noch kein Schritt gespielt"


def test_the_engine_protocol_reports_a_refusal_in_english_whatever_the_language() -> None:
    i18n.use("fr")
    game = new_game("exxtra", ["Anna", "Ben", "Cleo"])
    game.roll(CommittedDice("x"))
    record = game.to_record()
    record["steps"].append(record["steps"][0])  # a second roll where a decision is due
    server = EngineServer()
    lines = server.handle("position " + json.dumps(record)) + server.handle("go")
    assert lines[0].startswith("info string error step 1: ") and "has a decision to make; no roll now" in lines[0], (
        lines
    )


# --- a board description's error -----------------------------------------------------------------
def test_a_board_description_error_under_lang_fr_is_french_and_names_the_key(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    text = (ROOT / "hardware" / "board.toml").read_text(encoding="utf-8")
    bad = tmp_path / "board.toml"
    bad.write_text(text.replace("[leds]\n", "[leds]\nbrightnes = 0.5\n", 1), encoding="utf-8")
    assert main(["run", "--lang", "fr", "--board", str(bad)]) == 1
    err = capsys.readouterr().err
    assert err.startswith(
        f"xtraboard run: {bad}: leds.brightnes: clé inconnue (une faute de frappe ?) ; attendu : l'une de "
    )
    assert "brightness" in err and err.count("\n") == 1


def test_a_pin_clash_is_said_in_german_with_the_pin_and_key_as_they_are(tmp_path: Path) -> None:
    text = (ROOT / "hardware" / "board.toml").read_text(encoding="utf-8")
    bad = tmp_path / "board.toml"
    start = text.index("[buzzer]")
    bad.write_text(text[:start] + text[start:].replace("pin = 27", "pin = 10", 1), encoding="utf-8")
    i18n.use("de")
    with pytest.raises(
        ConfigError,
        match=r"board\.toml: buzzer\.pin: GPIO10 ist reserviert: die LED-Datenleitung "
        r"\(leds\.pin\); erwartet: ein eigener freier GPIO$",
    ):
        load_board(bad)


# --- a damaged journal ---------------------------------------------------------------------------
def test_a_corrupt_journal_is_reported_in_german_on_the_display(tmp_path: Path) -> None:
    (tmp_path / DB_NAME).write_bytes(bytes(range(256)) * 40)
    board = SimBoard(seed=1, state_dir=tmp_path, language="de")
    try:
        assert "Journal unlesbar: neu angefangen" in shown(board)
        assert board.app.problems == ["journal unreadable: started afresh"]  # English in Records' log
    finally:
        board.close()


@pytest.mark.parametrize("language", ["de", "fr"])
def test_the_journals_notes_fit_two_lines_in_every_language(language: str, tmp_path: Path) -> None:
    from firmware.journal import storage
    from firmware.journal.rescue import salvage_note

    i18n.use(language)
    notes = [
        storage.FULL,
        storage.READ_ONLY,
        storage.UNAVAILABLE,
        storage.DAMAGED,
        storage.FAILING,
        salvage_note(0, 0),
        salvage_note(1, 0),
        salvage_note(13, 2),
    ]
    for note in notes:
        text = i18n.tr(note)
        assert text != str(note) and len(text) <= 2 * 21, text


def test_a_salvage_note_read_back_from_the_journal_is_translated_again(tmp_path: Path) -> None:
    from firmware.journal.rescue import note_of

    i18n.use("de")
    assert i18n.tr(note_of("journal damaged: kept 11 games, lost 2")) == "Journal defekt: 11 Spiele gerettet, 2 weg"
    assert i18n.tr(note_of("journal unreadable: started afresh")) == "Journal unlesbar: neu angefangen"
    assert note_of("something else") == "something else"


# --- the dice audit and `xtraboard verify` --------------------------------------------------------
def test_the_dice_fairness_line_in_german_and_french() -> None:
    result = Fairness(games=40, dice=5000, chi2=4.21, df=9, p=0.8967)
    assert result.line() == "dice fairness: 5,000 dice in 40 games, chi² 4.2 on 9 df, p = 0.897 (no sign of bias)"
    i18n.use("de")
    assert (
        result.line()
        == "Würfelfairness: 5.000 Würfel in 40 Spielen, Chi² 4,2 bei 9 FG, p = 0,897 (kein Anzeichen von Verzerrung)"
    )
    i18n.use("fr")
    assert (
        result.line()
        == "équité des dés : 5\u00a0000 dés en 40 parties, khi² 4,2 pour 9 ddl, p = 0,897 (aucun signe de biais)"
    )
    assert Fairness(games=1, dice=1, chi2=0.0, df=5, p=1.0).line().startswith("équité des dés : 1 dé en 1 partie,")
    i18n.use("de")
    assert fairness([]).line() == "Würfelfairness: noch keine elektronischen Würfe"
    assert fairness([play_record("extra", "s:1")]).line().startswith("Würfelfairness: ")


def test_xtraboard_verify_speaks_german(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    record = play_record("exxtra", "v:1")
    good = tmp_path / "good.json"
    good.write_text(json.dumps(record), encoding="utf-8")
    bad = tmp_path / "bad.json"
    bad.write_text(json.dumps(record | {"dice": record["dice"] | {"seed": "other"}}), encoding="utf-8")
    monkeypatch.setenv(i18n.ENV, "de")
    assert main(["verify", str(good)]) == 0
    rolls = sum(1 for step in record["steps"] if "roll" in step)
    assert capsys.readouterr().out == f"ok: alle {rolls} Würfe passen zum Seed\n"
    assert main(["verify", str(bad)]) == 1
    out = capsys.readouterr().out
    assert out.startswith("der aufgedeckte Seed passt nicht zur Festlegung: Sein SHA-256 ist ") and out.endswith(
        "\n1 Problem\n"
    )


# --- records and names on the command line --------------------------------------------------------
def test_a_record_that_does_not_replay_is_refused_in_the_cli_language(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    record = new_game("exxtra", ["Anna", "Ben", "Cleo"]).to_record() | {"steps": [{"roll": ["9", "9"]}]}
    path = tmp_path / "bad.json"
    path.write_text(json.dumps(record), encoding="utf-8")
    assert main(["replay", str(path)]) == 2
    english = (
        "step 0: illegal {\"roll\": [\"9\", \"9\"]}: die 0 has no face '9' (faces: ['1', '2', '3', '4', '7', 'X'])"
    )
    assert capsys.readouterr().err == f"xtraboard replay: {english}\n"
    monkeypatch.setenv(i18n.ENV, "fr")
    assert main(["replay", str(path)]) == 2
    assert capsys.readouterr().err == (
        'xtraboard replay: étape 0 : étape interdite {"roll": ["9", "9"]} : le dé 0 '
        "n'a pas de face '9' (faces : ['1', '2', '3', '4', '7', 'X'])\n"
    )
    server = EngineServer()  # the same record over the engine protocol: English, whatever the CLI speaks
    assert server.handle("position " + json.dumps(record)) == []
    assert server.handle("go")[0] == f"info string error {english}"


def test_a_player_name_the_board_refuses_is_said_in_german(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv(i18n.ENV, "de")
    assert main(["players", "add", "Maximilian-Alexander", "--state-dir", str(tmp_path)]) != 0
    assert capsys.readouterr().err == (
        "xtraboard players add: Name 'Maximilian-Alexander' hat 20 Zeichen; höchstens 10 passen aufs Display\n"
    )
