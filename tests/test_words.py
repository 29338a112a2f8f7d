"""Issue 23, item 11: words a native speaker would use — the texts the issue lists, in German,
French and English, seen where the board shows them (menus through button presses, move
descriptions through the game's own words), and the catalog entries behind the rest."""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from firmware import i18n
from tests.support import explained
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
    assert explained("levelx", names, [{"kind": "turn_ones", "player": 0, "dice": [2]}]) == one
    said = explained(
        "levelx",
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
        ("fr", None, "expect about {points} points at the end", "prévu : environ {points} points à la fin"),
        ("fr", "EXTRA! column", "new", "nouveau"),
        ("fr", "LEVEL X short", "new", "nouveau"),
        ("fr", None, "physical", "physiques"),
        ("fr", None, "none yet", "pas encore"),
        ("fr", None, "bots play  hold BACK", "bots jouent · BACK long"),
        ("fr", None, "Takeback", "Annuler le coup"),
    ],
)
def test_the_listed_words_are_the_native_ones(speak, code: str, context: str | None, english: str, native: str) -> None:
    speak(code)
    assert (pgettext(context, english) if context else _(english)) == native


def test_french_winners_take_the_plural(speak) -> None:
    speak("fr")
    assert ngettext("{names} wins!", "{names} win!", 2).format(names="Rouge & Vert") == "Rouge & Vert gagnent !"


def _short_labels(code: str) -> dict[str, set[str]]:
    """The catalog's short labels (a menu's, a setting's, a button's word) by translation."""
    from babel.messages.pofile import read_po

    with (i18n.LOCALE_DIR / code / "LC_MESSAGES" / "xtraboard.po").open("rb") as source:
        catalog = read_po(source)
    by_text: dict[str, set[str]] = {}
    for message in catalog:
        if not message.id or isinstance(message.id, (list, tuple)) or message.context:
            continue
        if len(message.id) <= 24 and "{" not in message.id and message.id[:1].isupper():
            by_text.setdefault(message.string, set()).add(message.id)
    return by_text


@pytest.mark.parametrize("code", ["de", "fr"])
def test_two_different_labels_never_read_the_same(code: str) -> None:
    """French said "Annuler" for the takeback setting and for Cancel: one word, two meanings on
    the same board. A translation stands for one English label (its spellings aside: the
    setting "Takeback" is the action "Take back")."""
    for text, ids in _short_labels(code).items():
        meanings = {english.casefold().replace(" ", "") for english in ids}
        assert len(meanings) == 1, f"{code}: {text!r} stands for {sorted(ids)}"


def test_french_settings_say_annuler_le_coup_and_the_resume_question_annuler() -> None:
    board = SimBoard(seed=1, language="fr")
    try:
        choose(board, "Réglages")
        labels = {o.value: o.label for o in board.app.screen.choice.options}
        assert labels["takeback"] == "Annuler le coup"
    finally:
        board.close()
    i18n.use("fr")
    try:
        assert _("Cancel") == "Annuler"
    finally:
        i18n.use("en")


def _pick(board: SimBoard, wanted: object) -> None:
    screen = board.app.screen
    target = next(i for i, option in enumerate(screen.choice.options) if option.value == wanted)
    while screen.choice.index != target:
        board.tap("right")
    board.tap("ok")
    board.settle()


@pytest.mark.parametrize(("start", "steps", "name", "words"), [("en", 1, "Rot", "auf 0"), ("de", 1, "Rouge", "case 0")])
def test_a_language_switch_mid_game_renames_the_seats_nobody_named(
    tmp_path, start: str, steps: int, name: str, words: str
) -> None:
    """A seat nobody named is called by its colour: after a switch from German to French the
    header read "Rot case 0" (the name kept from the game's start beside the new words)."""
    board = SimBoard(seed=2, state_dir=tmp_path, language=start)
    try:
        _pick(board, ("play", "exxtra"))
        _pick(board, 3)
        for kind in ("person", "bot", "bot"):
            if kind == "bot":
                board.tap("right")
            board.tap("ok")
        board.settle()
        board.hold("back")  # the in-game menu, its settings, the language one step on
        board.settle()
        _pick(board, "settings")
        for _step in range(steps):
            _pick(board, "language")
        board.tap("back")
        board.settle()
        board.tap("back")
        board.settle()
        texts = board.screen_text()
        assert name in texts and words in texts, texts
        assert not {"Red", "Rot", "Rouge"} - {name} & set(texts), texts
    finally:
        board.close()
        i18n.use("en")
