"""Issue 23, item 11: words a native speaker would use — the texts the issue lists, in German,
French and English, seen where the board shows them (menus through button presses, move
descriptions through the game's own `describe`), and the catalog entries behind the rest."""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from firmware import i18n
from firmware.games.levelx.text import describe
from firmware.i18n import _, ngettext, pgettext
from sim.board import SimBoard
from sim.robustness import choose


@pytest.fixture
def speak() -> Iterator[object]:
    def use(code: str) -> None:
        i18n.use(code)

    yield use
    i18n.use("en")


def shown(board: SimBoard) -> str:
    return " ".join(" ".join(board.screen_text()).split())


def test_german_menus_say_statistik_zuruecknehmen_leuchtshow_and_echte_wuerfel() -> None:
    board = SimBoard(seed=1, language="de")
    try:
        assert "Statistik" in [o.label for o in board.app.screen.choice.options]  # not "Rekorde": it holds history
        choose(board, "Einstellungen")
        labels = {o.value: (o.label, o.detail) for o in board.app.screen.choice.options}
        assert labels["takeback"][0] == "Zurücknehmen"  # "Zurück" read as the BACK button
        assert labels["idle_timeout_s"][0] == "Leuchtshow"
        choose(board, "Würfel")
        assert "echte Würfel" in shown(board)
    finally:
        board.close()


def test_french_game_menu_says_annuler_le_coup_and_retablir() -> None:
    board = SimBoard(seed=2, language="fr")
    try:
        choose(board, "Jouer à EXXTRA")
        choose(board, "3 joueurs")
        board.tap("ok")
        for _seat in range(2):
            board.tap("right")
            board.tap("ok")
        board.tap("roll")
        board.wait(1)
        board.tap("ok")  # Red places: a decision to take back
        board.hold("back")
        labels = [o.label for o in board.app.screen.choice.options]
        assert "Annuler le coup" in labels and "Reprendre" not in labels  # "Reprendre" is Resume
        choose(board, "Annuler le coup")
        board.hold("back")
        assert "Rétablir" in [o.label for o in board.app.screen.choice.options]  # not "Rejouer" (Rematch)
    finally:
        board.close()


@pytest.mark.parametrize(
    ("code", "names", "one", "two_ousted"),
    [
        ("en", ["Red", "Green", "Blue"], "Red turns one 1", "ousts Green & Blue"),
        ("de", ["Rot", "Grün", "Blau"], "Rot dreht eine 1 um", "wirft Grün & Blau raus"),
        ("fr", ["Rouge", "Vert", "Bleu"], "Rouge change un 1", "chasse Vert & Bleu"),
    ],
)
def test_levelx_moves_are_said_as_people_say_them(
    speak, code: str, names: list[str], one: str, two_ousted: str
) -> None:
    speak(code)
    assert describe(names, [{"kind": "turn_ones", "player": 0, "dice": [2]}]) == one
    said = describe(
        names,
        [
            {"kind": "group", "player": 0, "row": 7},
            {"kind": "oust", "player": 1, "row": 7},
            {"kind": "oust", "player": 2, "row": 7},
        ],
    )
    assert two_ousted in said and said.count(two_ousted.split()[0]) == 1  # one verb for both


@pytest.mark.parametrize(
    ("code", "context", "english", "native"),
    [
        ("de", "EXTRA! sheet", "done", "fertig"),
        ("de", None, "Clear high scores?", "Bestenliste löschen?"),
        ("de", None, "Clear high scores", "Bestenliste löschen"),
        ("de", None, "Reset all settings?", "Alles zurücksetzen?"),
        ("de", "EXTRA! column", "end", "Ende"),
        ("de", "LEVEL X", "new piece", "neuer Stein"),
        ("de", "LEVEL X", "step on", "Stein vor"),
        ("fr", None, "Rolling...", "Les dés roulent..."),  # "…" is not in the fonts (Latin-1)
        ("fr", None, "exp. {points} pts at the end", "prévu : {points} pts"),
        ("fr", "EXTRA! column", "new", "nouveau"),
        ("fr", "LEVEL X short", "new", "nouveau"),
        ("fr", None, "physical", "physiques"),
        ("fr", None, "none yet", "pas encore"),
        ("fr", None, "bots play  hold BACK", "bots jouent · BACK long"),
        ("fr", None, "Takeback", "Annuler"),
    ],
)
def test_the_listed_words_are_the_native_ones(speak, code: str, context: str | None, english: str, native: str) -> None:
    speak(code)
    assert (pgettext(context, english) if context else _(english)) == native


def test_french_winners_take_the_plural(speak) -> None:
    speak("fr")
    assert ngettext("{names} wins!", "{names} win!", 2).format(names="Rouge & Vert") == "Rouge & Vert gagnent !"
