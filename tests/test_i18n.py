"""Languages: the catalogs are complete and current, placeholders survive translation, the
pseudo-locale, compiled catalogs (and the compile-on-first-use fallback), `--lang`, the board
description's `language`, the Language setting switching live, and the paged rules."""

from __future__ import annotations

import os
import re
import shutil
import time
from pathlib import Path

import pytest
from babel.messages.catalog import Catalog
from babel.messages.extract import extract_from_dir
from babel.messages.pofile import read_po, write_po

from firmware import i18n
from firmware.cli import main
from firmware.errors import ConfigError
from firmware.games import game_names
from firmware.hardware.config import load_board
from firmware.i18n import _, ngettext
from firmware.ui.gameview import game_view
from firmware.ui.rules_page import rules_pages
from firmware.ui.draw import Canvas, problems
from firmware.ui.menus import RulesScreen
from sim.app import start_demo
from sim.board import SimBoard

ROOT = Path(__file__).resolve().parents[1]
PROFILES = sorted((ROOT / "hardware" / "boards").glob("*.toml")) + [ROOT / "hardware" / "board.toml"]
KEYWORDS = {"_": None, "N_": None, "ngettext": (1, 2), "pgettext": ((1, "c"), 2), "npgettext": ((1, "c"), 2, 3)}


def catalog(path: Path) -> Catalog:
    with path.open("rb") as source:
        return read_po(source)


def ids(cat: Catalog) -> set[tuple[str | None, str]]:
    return {(m.context, m.id if isinstance(m.id, str) else m.id[0]) for m in cat if m.id}


# --- the catalogs ---------------------------------------------------------------------------------
@pytest.mark.parametrize("code", ["de", "fr"])
def test_every_string_is_translated_with_the_same_placeholders(code: str) -> None:
    assert i18n.catalog_problems(i18n.po_path(code)) == []


@pytest.mark.parametrize("code", ["de", "fr", "en"])
def test_each_language_holds_exactly_the_templates_strings(code: str) -> None:
    """`python -m firmware.i18n update` was run after the last extract."""
    assert ids(catalog(i18n.po_path(code))) == ids(catalog(i18n.POT))


def test_the_template_holds_every_string_the_source_marks() -> None:
    """A new `_()` string fails here until `python -m firmware.i18n extract` and `update` ran."""
    found: set[tuple[str | None, str]] = set()
    for folder in ("firmware", "sim"):
        for _file, _line, message, _comments, context in extract_from_dir(
            ROOT / folder, method_map=[("**.py", "python")], keywords=KEYWORDS
        ):
            found.add((context, message if isinstance(message, str) else message[0]))
    assert found == ids(catalog(i18n.POT))


def test_a_translation_missing_a_placeholder_or_a_plural_form_is_a_problem(tmp_path: Path) -> None:
    cat = Catalog(locale="de", domain="xtraboard")
    cat.add("Play {game}", "Spielen")  # {game} lost
    cat.add(("{n} player", "{n} players"), ("{n} Spieler", ""))  # a plural form missing
    cat.add("Yes", "Ja")
    cat.add("No", "Nein", flags=["fuzzy"])
    po = tmp_path / "de" / "LC_MESSAGES" / "xtraboard.po"
    po.parent.mkdir(parents=True)
    with po.open("wb") as out:
        write_po(out, cat)
    problems = i18n.catalog_problems(po)
    assert len(problems) == 3
    assert "placeholders [] in 'Spielen', expected ['game']" in problems[0]
    assert "not translated: '{n} player'" in problems[1] and "not translated (fuzzy): 'No'" in problems[2]


def test_plurals_follow_each_languages_rule() -> None:
    forms = {}
    for code in ("en", "de", "fr"):
        i18n.use(code)
        forms[code] = [ngettext("{n} player", "{n} players", n).format(n=n) for n in (0, 1, 2)]
    assert forms == {
        "en": ["0 players", "1 player", "2 players"],
        "de": ["0 Spieler", "1 Spieler", "2 Spieler"],
        "fr": ["0 joueur", "1 joueur", "2 joueurs"],
    }  # French: 0 takes the singular


# --- the pseudo-locale ------------------------------------------------------------------------------
def test_the_pseudo_locale_is_longer_accented_bracketed_and_keeps_placeholders() -> None:
    i18n.use("xx")
    text = _("Resume {game}")
    assert text.startswith("[") and text.endswith("]") and "{game}" in text
    assert text.format(game="EXXTRA").endswith(" EXXTRA]")
    assert re.search(r"[éüö]", text) and text.encode("latin-1")  # accented, within the fonts' Latin-1
    for message in [m for game in game_names() for m in game_view(game).rules]:
        assert len(i18n.pseudo(message)) >= 1.3 * len(message)
        assert i18n.placeholders(i18n.pseudo(message)) == i18n.placeholders(message)
    assert ngettext("{n} player", "{n} players", 2).format(n=2) == "[2 pláýérs····]"


# --- compiled catalogs ----------------------------------------------------------------------------
def test_a_missing_or_stale_mo_is_compiled_into_the_cache(tmp_path: Path) -> None:
    locale = tmp_path / "locale"
    shutil.copytree(ROOT / "firmware" / "locale" / "de", locale / "de", ignore=shutil.ignore_patterns("*.mo"))
    cache = tmp_path / "cache"
    assert i18n.load_translations("de", locale, cache).gettext("Settings") == "Einstellungen"
    (cached,) = (cache / "de" / "LC_MESSAGES").glob("xtraboard-*.mo")

    po = i18n.po_path("de", locale)  # a translator's edit: the cached copy is stale now
    po.write_text(po.read_text(encoding="utf-8").replace('"Einstellungen"', '"Optionen"'), encoding="utf-8")
    later = time.time() + 5
    os.utime(po, (later, later))
    assert i18n.load_translations("de", locale, cache).gettext("Settings") == "Optionen"
    # one per catalog's content: a checkout with the older .po still finds its own
    (edited,) = set((cache / "de" / "LC_MESSAGES").glob("xtraboard-*.mo")) - {cached}

    po.with_suffix(".mo").write_bytes(edited.read_bytes())  # a fresh .mo beside the .po wins
    os.utime(po.with_suffix(".mo"), (later + 5, later + 5))
    shutil.rmtree(cache)
    assert i18n.load_translations("de", locale, cache).gettext("Settings") == "Optionen"
    assert not cache.exists()


def test_a_read_only_cache_compiles_in_memory(tmp_path: Path) -> None:
    blocked = tmp_path / "cache"
    blocked.write_text("a file where the cache folder would be")
    locale = tmp_path / "locale"
    shutil.copytree(ROOT / "firmware" / "locale" / "fr", locale / "fr", ignore=shutil.ignore_patterns("*.mo"))
    assert i18n.load_translations("fr", locale, blocked).gettext("Yes") == "Oui"


@pytest.mark.parametrize("damage", ["truncated", "bad magic", "garbage"])
def test_a_damaged_mo_speaks_english_with_one_log_line(
    tmp_path: Path, damage: str, caplog: pytest.LogCaptureFixture
) -> None:
    locale = tmp_path / "locale"
    shutil.copytree(ROOT / "firmware" / "locale" / "de", locale / "de")
    mo = i18n.po_path("de", locale).with_suffix(".mo")
    good = i18n.compile_po(i18n.po_path("de", locale))
    mo.write_bytes(
        {"truncated": good[:30], "bad magic": b"\0" * 4 + good[4:], "garbage": good[:28] + b"\xff" * 40}[damage]
    )
    later = time.time() + 5
    os.utime(mo, (later, later))
    with caplog.at_level("WARNING", logger="xtraboard.i18n"):
        assert i18n.load_translations("de", locale, tmp_path / "cache").gettext("Settings") == "Settings"
    assert len(caplog.records) == 1 and "is damaged" in caplog.records[0].getMessage()


def test_every_command_works_with_a_damaged_catalog(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    locale = tmp_path / "locale"
    shutil.copytree(ROOT / "firmware" / "locale", locale)
    mo = i18n.po_path("de", locale).with_suffix(".mo")
    mo.write_bytes(mo.read_bytes()[:30])  # a card write cut short
    later = time.time() + 5
    os.utime(mo, (later, later))
    monkeypatch.setattr(i18n, "LOCALE_DIR", locale)
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "cache"))
    monkeypatch.setenv("XTRABOARD_LANG", "de")
    i18n.translations.cache_clear()
    try:
        with pytest.raises(SystemExit) as exit_:
            main(["--help"])
        assert exit_.value.code == 0
        assert "The xtraboard dice-game board." in capsys.readouterr().out
        with pytest.raises(SystemExit) as exit_:
            main(["records", "--help"])
        assert exit_.value.code == 0
        assert main(["selfplay", "exxtra", "--players", "9"]) == 2
        assert capsys.readouterr().err == "xtraboard selfplay: EXXTRA is for 3 to 6 players, not 9\n"
        (tmp_path / "state").mkdir()
        assert main(["records", "list", "--state-dir", str(tmp_path / "state")]) == 1
        assert "xtraboard records: no journal at" in capsys.readouterr().err
    finally:
        i18n.translations.cache_clear()
        i18n.use("en")


def test_an_unknown_language_is_one_clear_line() -> None:
    with pytest.raises(ConfigError, match=r'^language "es" is not known; expected one of "de", "en", "fr"'):
        i18n.use("es")


# --- the command line -------------------------------------------------------------------------------
def test_the_cli_speaks_the_environments_language(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.setenv("XTRABOARD_LANG", "de")
    assert main(["selfplay", "exxtra", "--players", "9"]) == 2
    assert capsys.readouterr().err == "xtraboard selfplay: EXXTRA ist für 3 bis 6 Spieler, nicht 9\n"
    monkeypatch.setenv("XTRABOARD_LANG", "")
    monkeypatch.setenv("LANG", "fr_FR.UTF-8")
    monkeypatch.delenv("LANGUAGE", raising=False)
    monkeypatch.delenv("LC_ALL", raising=False)
    monkeypatch.delenv("LC_MESSAGES", raising=False)
    assert main(["selfplay", "exxtra", "--players", "3", "--games", "-1"]) == 2
    assert capsys.readouterr().err == "xtraboard selfplay: --games doit valoir 0 ou plus\n"


def test_a_bad_lang_is_refused_in_one_line(capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit) as exit_:
        main(["sim", "--headless", "--demo", "exxtra", "--lang", "klingon"])
    assert exit_.value.code == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and 'argument --lang: language "klingon" is not known' in err


def test_a_german_demo_plays_through_german_menus(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    board = SimBoard(seed=3, language="de")
    try:
        assert {"EXXTRA spielen", "Demo", "Regeln", "Einstellungen"} <= {
            o.label for o in board.app.screen.choice.options
        }
        assert "> EXXTRA spielen" in board.screen_text()
        start_demo(board, "exxtra", 3)  # finds "Demo", the game and "3 Spieler" by their German labels
        board.settle()
        assert board.app.session is not None and board.app.session.over
    finally:
        board.close()
    assert (
        main(
            [
                "sim",
                "--headless",
                "--demo",
                "levelx",
                "--seats",
                "2",
                "--seed",
                "1",
                "--lang",
                "de",
                "--display-image",
                str(tmp_path / "oled.png"),
            ]
        )
        == 0
    )
    assert i18n.language() == "de" and (tmp_path / "oled.png").exists()
    assert '"game": "levelx"' in capsys.readouterr().out


# --- the board's language ---------------------------------------------------------------------------
def board_file(tmp_path: Path, language: str) -> Path:
    text = (ROOT / "hardware" / "board.toml").read_text(encoding="utf-8")
    path = tmp_path / "board.toml"
    path.write_text(text.replace("[board]\n", f'[board]\nlanguage = "{language}"\n', 1), encoding="utf-8")
    return path


def test_the_board_description_sets_the_default_language(tmp_path: Path) -> None:
    assert load_board().language == "en"
    board = SimBoard(board_file=board_file(tmp_path, "fr"))
    try:
        assert board.app.screen.choice.current.label == "Jouer à EXXTRA"
    finally:
        board.close()
    # The board left French active: a description's error speaks the active language, its names kept.
    with pytest.raises(
        ConfigError, match=r'board.toml: board.language: "es" est inconnu ; attendu : l\'un de "en", "de", "fr"'
    ):
        load_board(board_file(tmp_path, "es"))
    i18n.use("en")
    with pytest.raises(
        ConfigError, match=r'board.toml: board.language: "es" is not known; expected one of "en", "de", "fr"'
    ):
        load_board(board_file(tmp_path, "es"))


def walk_to(board: SimBoard, label: str) -> None:
    for _tap in range(len(board.app.screen.choice.options)):
        if board.app.screen.choice.current.label == label:
            return
        board.tap("right")
    raise AssertionError(f"no {label!r} in {board.app.screen.title!r}")


def shown(board: SimBoard) -> list[str]:
    """The display's texts, each with its runs of spaces as one (menu lines pad to the width)."""
    return [" ".join(text.split()) for text in board.screen_text()]


def test_the_settings_menu_switches_the_language_live_and_keeps_it(tmp_path: Path) -> None:
    board = SimBoard(state_dir=tmp_path, board_file=board_file(tmp_path, "fr"))
    try:
        walk_to(board, "Réglages")
        board.tap("ok")
        walk_to(board, "Langue")
        assert "> Langue Français" in shown(board)
        board.tap("ok")  # Français → English: the next frame is English
        assert shown(board)[0] == "Settings" and "> Language English" in shown(board)
        board.tap("ok")  # → Deutsch
        assert shown(board)[0] == "Einstellungen" and "> Sprache Deutsch" in shown(board)
        # "Zurücknehmen" (issue 23: "Zurück" read as the BACK button) takes a line of its own
        assert "Nachtmodus aus" in shown(board) and "Zurücknehmen" in shown(board) and "dieser Wurf" in shown(board)
        board.tap("back")  # the main menu under it was relabelled too
        assert "> Einstellungen" in shown(board) and "EXTRA! spielen" in shown(board)
    finally:
        board.close()
    again = SimBoard(state_dir=tmp_path, board_file=board_file(tmp_path, "fr"))  # kept over the board's default
    try:
        assert again.app.settings.language == "de" and "> EXXTRA spielen" in shown(again)
    finally:
        again.close()


def test_the_operators_language_is_the_boards_for_its_guests(tmp_path: Path) -> None:
    from firmware.ui.operator_menu import OperatorSettingsScreen

    board = SimBoard(state_dir=tmp_path)
    try:
        board.app.open_operator()
        walk_to(board, "Settings")
        board.tap("ok")
        assert isinstance(board.app.screen, OperatorSettingsScreen)
        walk_to(board, "Language")
        board.tap("ok")  # "" (the board description's: English) → English
        board.tap("ok")  # → Deutsch, at once, the menus under it too
        assert board.app.operator.language == "de" and board.screen_text()[0] == "Betreiberoptionen"
        assert [type(s).__name__ for s in board.app.stack][-2:] == ["OperatorMenu", "OperatorSettingsScreen"]
        assert board.app.stack[-2].title == "Betreiber"
    finally:
        board.close()


# --- the rules pages --------------------------------------------------------------------------------
@pytest.mark.parametrize("profile", PROFILES, ids=[p.stem for p in PROFILES])
@pytest.mark.parametrize("code", i18n.FIT_LANGUAGES)
def test_the_rules_fit_every_display_in_pages(profile: Path, code: str) -> None:
    i18n.use(code)
    display = load_board(profile).display
    canvas = Canvas((display.width, display.height))
    for game in game_names():
        pages = rules_pages(game, canvas.columns, canvas.lines - 1)
        assert all(0 < len(page) <= canvas.lines - 1 for page in pages)
        assert all(len(line) <= canvas.columns for page in pages for line in page), (game, code)
        assert " ".join(w for page in pages for w in " ".join(page).split()) == " ".join(
            " ".join(_(p).split()) for p in game_view(game).rules
        )  # nothing lost, nothing added


def test_the_rules_screen_flips_pages(tmp_path: Path) -> None:
    board = SimBoard(language="de")
    try:
        board.app.push(RulesScreen("levelx"))
        board.board.render()
        screen = board.app.screen
        total = len(screen.pages)
        assert board.screen_text()[:2] == ["LEVEL X", f"1/{total}"] and board.screen_text()[2] == "Wirf vier Würfel und"
        board.tap("right")
        board.tap("roll")
        assert f"3/{total}" in board.screen_text()
        board.tap("left")
        assert f"2/{total}" in board.screen_text()
        for _tap in range(total + 2):
            board.tap("right")
        assert f"{total}/{total}" in board.screen_text()  # the last page stays
        board.tap("ok")
        assert board.app.screen is not screen
    finally:
        board.close()


# --- the translated screens fit -----------------------------------------------------------------------
def translated_screens(code: str) -> list:
    """Every menu this session translated, built in language `code`."""
    from firmware.loop import EventLoop, FakeClock
    from firmware.ui.app import BoardApp
    from firmware.ui.menus import GameChoiceScreen, SeatCountScreen, SettingsScreen
    from firmware.ui.operator_menu import GamesOfferedScreen, OperatorMenu, OperatorSettingsScreen
    from firmware.ui.screen import ConfirmScreen

    app = BoardApp(schedule=EventLoop(FakeClock()).call_later, language=code, kiosk=True)
    questions = ("Clear high scores?", "Reset all settings?", "Clear all records?", "Sure? Records gone")
    return [
        app.stack[0],
        SettingsScreen(app),
        OperatorMenu(),
        OperatorSettingsScreen(app),
        GamesOfferedScreen(app),
        GameChoiceScreen(_("Demo: which game?"), None),
        GameChoiceScreen(_("Rules of"), None),
        *(SeatCountScreen(game, demo) for game in game_names() for demo in (False, True)),
        *(ConfirmScreen(_(question), lambda app: None) for question in questions),
    ]


@pytest.mark.parametrize("profile", PROFILES, ids=[p.stem for p in PROFILES])
@pytest.mark.parametrize("code", ["de", "fr"])
def test_the_translated_menus_fit_every_display(profile: Path, code: str) -> None:
    """No line clipped, no title running into its "1/7" (the pseudo-locale is for the fit test
    of every screen, tests/test_fit.py)."""
    display = load_board(profile).display
    for screen in translated_screens(code):
        for index in range(len(screen.choice.options)):
            screen.choice.index = index
            canvas = Canvas((display.width, display.height))
            screen.draw(canvas)
            assert not [text for text in canvas.texts if text.endswith("~")], (type(screen).__name__, canvas.texts)
            assert problems(canvas) == [], screen.title  # nothing touches its "1/7" or leaves the panel


def test_the_readmes_german_screenshot_is_what_the_documented_command_makes(tmp_path: Path) -> None:
    from PIL import Image, ImageChops

    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    command = (
        "xtraboard sim --headless --scenario docs/screenshots/menu-de.toml --lang de"
        " --display-image docs/screenshots/menu-de.png"
    )
    assert command in readme and "docs/screenshots/menu-de.png" in readme
    out = tmp_path / "menu-de.png"
    argv = command.split()[1:]
    argv[argv.index("docs/screenshots/menu-de.toml")] = str(ROOT / "docs" / "screenshots" / "menu-de.toml")
    argv[-1] = str(out)
    assert main(argv) == 0
    with Image.open(out) as made, Image.open(ROOT / "docs" / "screenshots" / "menu-de.png") as kept:
        assert made.size == kept.size == (128, 64)
        assert ImageChops.difference(made.convert("L"), kept.convert("L")).getbbox() is None
