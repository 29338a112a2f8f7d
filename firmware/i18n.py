"""The board's languages: gettext catalogs, the active language, and a pseudo-locale.

Every string a person reads goes through `_()` (or `ngettext`, `pgettext`, `npgettext`) *when
it is shown*, so a language switched shows on the next frame: a render speaks the language it
is given (`speaking`), other code the process's (`use()`). Strings defined at
import time are marked with `N_()` and translated where they are used. docs/translating.md is
the how-to.

    >>> use("de"); _("Settings")
    'Einstellungen'
    >>> ngettext("{n} player", "{n} players", 3).format(n=3)
    '3 Spieler'
    >>> use("en")

Catalogs: `firmware/locale/<lang>/LC_MESSAGES/xtraboard.po`, compiled to `.mo` beside them at
install (`./dev setup`, `systemd/install.sh`, the wheel build). A checkout whose `.mo` is missing
or older than its `.po` compiles the `.po` on first use into the user's cache
($XDG_CACHE_HOME/xtraboard/locale, else ~/.cache/xtraboard/locale; in memory if that cannot be
written), with Babel; without Babel it speaks English and logs why. A cached catalog is named
by the content of the `.po` it was compiled from, so two checkouts (or a checkout before and
after an update) never take each other's.

The pseudo-locale `xx` is made from the English at run time: accented, each word about 45 %
longer (a third more in all), bracketed, placeholders kept: text like `[Séttîñgs····]` shows
clipped or untranslated strings at a glance.
"""

from __future__ import annotations

import gettext as _gettext
import hashlib
import io
import logging
import math
import os
import re
import struct
import sys
from collections.abc import Iterator, Mapping
from contextlib import contextmanager
from contextvars import ContextVar
from functools import lru_cache
from pathlib import Path

from firmware.errors import N_ as N_  # re-exported: marks a constant for the catalogs
from firmware.errors import ConfigError, Text, XtraboardError, text_of

DOMAIN = "xtraboard"
LANGUAGES = ("en", "de", "fr")  # the real languages, in the settings menu's order
PSEUDO = "xx"  # the pseudo-locale: for fit tests and translators, never offered in a menu
FIT_LANGUAGES = (*LANGUAGES, PSEUDO)  # what a fit test renders every screen in: `use(code)` for each
NAMES = {"en": "English", "de": "Deutsch", "fr": "Français", PSEUDO: "Pseudo"}  # each in its own language
LOCALE_DIR = Path(__file__).with_name("locale")
ROOT = Path(__file__).resolve().parent.parent  # the checkout, when this is one
ENV = "XTRABOARD_LANG"  # the CLI's language, before LANGUAGE, LC_ALL, LC_MESSAGES and LANG

log = logging.getLogger("xtraboard.i18n")


class LanguageError(ConfigError):
    """A language code that the board does not speak."""


def check_language(code: object) -> str:
    """`code` if the board speaks it, else LanguageError naming it and the choices.

    >>> check_language("fr")
    'fr'
    >>> check_language("es")
    Traceback (most recent call last):
    ...
    firmware.i18n.LanguageError: language "es" is not known; expected one of "de", "en", "fr" (or "xx", the pseudo-locale)
    """
    if isinstance(code, str) and code in (*LANGUAGES, PSEUDO):
        return code
    shown = f'"{code}"' if isinstance(code, str) else repr(code)
    choices = ", ".join(f'"{c}"' for c in sorted(LANGUAGES))
    raise LanguageError(
        _('language {code} is not known; expected one of {choices} (or "{pseudo}", the pseudo-locale)').format(
            code=shown, choices=choices, pseudo=PSEUDO
        )
    )


def from_environment(environ: Mapping[str, str] | None = None) -> str:
    """The language asked for by the environment, as gettext reads it; English if none we speak.

    >>> from_environment({"LANG": "de_DE.UTF-8"}), from_environment({"LANGUAGE": "nl:fr", "LANG": "de_DE"})
    ('de', 'fr')
    """
    env = os.environ if environ is None else environ
    for key in (ENV, "LANGUAGE", "LC_ALL", "LC_MESSAGES", "LANG"):
        value = env.get(key, "")
        if not value:
            continue
        for item in value.split(":"):
            code = item.split(".")[0].split("@")[0].split("_")[0].split("-")[0].lower()
            if code in LANGUAGES or code == PSEUDO:
                return code
        if key != "LANGUAGE":  # LANGUAGE is a list of fallbacks; the others decide alone
            return "en"
    return "en"


# --- the pseudo-locale ------------------------------------------------------------------------------
_ACCENTS = str.maketrans("aeiouyAEIOUYcCnN", "áéîöüýÅÉÎÖÜÝçÇñÑ")  # all Latin-1, like the board's fonts
_PIECES = re.compile(r"(\{[^{}]*\}|[A-Za-z]+)")  # a placeholder (kept as it is) or a word


def pseudo(text: str) -> str:
    """`text` in the pseudo-locale: accented, each word about 45 % longer (a third more in all),
    bracketed; placeholders such as `{name}` or `{score:>3}` stay as they are.

    >>> pseudo("Play {game}")
    '[Pláý·· {game}]'
    """

    def stretch(match: re.Match[str]) -> str:
        piece = match.group(0)
        if piece.startswith("{"):
            return piece
        return piece.translate(_ACCENTS) + "·" * math.ceil(len(piece) * 0.45)  # ~35 % of the whole text

    return "[" + _PIECES.sub(stretch, text) + "]" if text else text


class PseudoTranslations(_gettext.NullTranslations):
    """The pseudo-locale as a gettext translations object: English plural rules, text through
    `pseudo()`."""

    def gettext(self, message: str) -> str:
        return pseudo(message)

    def ngettext(self, msgid1: str, msgid2: str, n: int) -> str:
        return pseudo(msgid1 if n == 1 else msgid2)

    def pgettext(self, context: str, message: str) -> str:
        return pseudo(message)

    def npgettext(self, context: str, msgid1: str, msgid2: str, n: int) -> str:
        return pseudo(msgid1 if n == 1 else msgid2)


# --- catalogs ---------------------------------------------------------------------------------------
def po_path(code: str, locale_dir: Path = LOCALE_DIR) -> Path:
    return locale_dir / code / "LC_MESSAGES" / f"{DOMAIN}.po"


def cache_dir(environ: Mapping[str, str] | None = None) -> Path:
    env = os.environ if environ is None else environ
    xdg = env.get("XDG_CACHE_HOME", "")
    base = Path(xdg) if xdg and Path(xdg).is_absolute() else Path(env.get("HOME") or Path.home()) / ".cache"
    return base / "xtraboard" / "locale"


def _fresh(mo: Path, po: Path, check_age: bool = True) -> bool:
    """`mo` is there and, if `check_age`, not older than `po`."""
    try:
        built = mo.stat().st_mtime
    except OSError:
        return False
    if not check_age:
        return True
    try:
        return built >= po.stat().st_mtime
    except OSError:
        return True


def compile_po(po: Path) -> bytes:
    """The `.mo` bytes of the catalog `po` (Babel; fuzzy entries are left out, as msgfmt does)."""
    from babel.messages.mofile import write_mo
    from babel.messages.pofile import read_po

    with po.open("rb") as source:
        catalog = read_po(source, locale=po.parent.parent.name, domain=DOMAIN)
    out = io.BytesIO()
    write_mo(out, catalog, use_fuzzy=False)
    return out.getvalue()


def compile_catalogs(locale_dir: Path = LOCALE_DIR, into: Path | None = None) -> list[Path]:
    """Compile every `<lang>/LC_MESSAGES/xtraboard.po` under `locale_dir` to a `.mo` beside it (or
    under `into`, the same layout); returns the files written."""
    written = []
    for po in sorted(locale_dir.glob(f"*/LC_MESSAGES/{DOMAIN}.po")):
        target = (into / po.relative_to(locale_dir)).with_suffix(".mo") if into else po.with_suffix(".mo")
        target.parent.mkdir(parents=True, exist_ok=True)
        target.write_bytes(compile_po(po))
        written.append(target)
    return written


@lru_cache(maxsize=None)
def translations(code: str) -> _gettext.NullTranslations:
    """The translations of `code` (cached): its compiled catalog, compiled now if need be."""
    if check_language(code) == PSEUDO:
        return PseudoTranslations()
    # Installed from a wheel, the compiled catalogs are the build's (pip gives every file the
    # install time, so ages say nothing there); in a checkout a translator's edit makes them stale.
    return load_translations(code, LOCALE_DIR, cache_dir(), check_age=(ROOT / "pyproject.toml").exists())


def load_translations(code: str, locale_dir: Path, cache: Path, check_age: bool = True) -> _gettext.NullTranslations:
    """`code`'s catalog from `locale_dir`: its `.mo` if not older than its `.po` (any `.mo` when
    not `check_age`), else the copy compiled into `cache` if that is not older, else the `.po`
    compiled now (into `cache`, or in memory only when `cache` cannot be written). English when
    there is no catalog, or no Babel to compile one (logged)."""
    po = po_path(code, locale_dir)
    beside = po.with_suffix(".mo")
    if _fresh(beside, po, check_age):
        return _read_mo(beside, code)
    try:
        source = po.read_bytes()
    except OSError:
        log.warning("no catalog for %s (%s): the board speaks English", code, po)
        return _gettext.NullTranslations()
    # named by what it was compiled from: another checkout's catalog of the same language is another file
    cached = cache / code / "LC_MESSAGES" / f"{DOMAIN}-{hashlib.sha256(source).hexdigest()[:16]}.mo"
    if cached.exists():
        return _read_mo(cached, code)
    try:
        data = compile_po(po)
    except ImportError:
        log.warning(
            "catalog %s is not compiled and Babel is not installed: the board speaks English "
            "(run `python -m firmware.i18n compile`)",
            po,
        )
        return _gettext.NullTranslations()
    try:
        cached.parent.mkdir(parents=True, exist_ok=True)
        cached.write_bytes(data)
    except OSError as exc:  # a read-only home: the compiled catalog lives in memory only
        log.info("cannot cache the compiled catalog %s: %s", cached, exc)
    return _gettext.GNUTranslations(io.BytesIO(data))


# What gettext raises on a damaged .mo: a short file (struct.error), a bad magic number (OSError),
# a broken header or plural rule (ValueError, incl. UnicodeDecodeError), offsets past the end.
_DAMAGED_MO = (struct.error, OSError, ValueError, LookupError, SyntaxError, OverflowError, MemoryError)


def _read_mo(mo: Path, code: str) -> _gettext.NullTranslations:
    """The compiled catalog `mo`; English (and one log line) when it cannot be read, so a damaged
    file never stops a command, `--help` included, nor makes the service crash-loop."""
    try:
        with mo.open("rb") as source:
            return _gettext.GNUTranslations(source)
    except _DAMAGED_MO as exc:
        log.warning(
            "catalog %s is damaged (%s): the board speaks English instead of %s",
            mo,
            str(exc) or type(exc).__name__,
            code,
        )
        return _gettext.NullTranslations()


def catalog_problems(po: Path) -> list[str]:
    """What keeps the catalog `po` from being complete: each message without a translation (or
    with a fuzzy one, or an empty plural form), and each translation whose placeholders (`{name}`)
    differ from its msgid's. One line each; [] when the catalog is complete.
    """
    from babel.messages.pofile import read_po

    with po.open("rb") as source:
        catalog = read_po(source, locale=po.parent.parent.name, domain=DOMAIN)
    problems = []
    for message in catalog:
        if not message.id:
            continue
        ids = tuple(message.id) if isinstance(message.id, (list, tuple)) else (message.id,)
        strings = tuple(message.string) if isinstance(message.string, (list, tuple)) else (message.string or "",)
        if message.fuzzy or not all(strings):
            problems.append(f"{po}: not translated{' (fuzzy)' if message.fuzzy else ''}: {ids[0]!r}")
            continue
        wanted = set().union(*(placeholders(i) for i in ids))
        for string in strings:
            if placeholders(string) != wanted:
                problems.append(
                    f"{po}: placeholders {sorted(placeholders(string))} in {string!r}, "
                    f"expected {sorted(wanted)} as in {ids[0]!r}"
                )
    return problems


def placeholders(text: str) -> set[str]:
    """The names of the `str.format` fields in `text`.

    >>> sorted(placeholders("{prog}: {message} (see {prog} --help) {n:>3}"))
    ['message', 'n', 'prog']
    """
    import string

    return {name.split(".")[0].split("[")[0] for _, name, _, _ in string.Formatter().parse(text) if name is not None}


# --- the active language ----------------------------------------------------------------------------
# The process's language (`use`: the CLI's, the board's between frames), and a language scoped to
# one render (`speaking`): a frame is drawn in the language it is given, whatever the process's.
_language = "en"
_active: _gettext.NullTranslations = _gettext.NullTranslations()
_scoped: ContextVar[tuple[str, _gettext.NullTranslations] | None] = ContextVar("xtraboard_language", default=None)


def use(code: str) -> None:
    """Make `code` the active language (LanguageError if the board does not speak it)."""
    global _language, _active
    _active = translations(check_language(code))
    _language = code


@contextmanager
def speaking(code: str) -> Iterator[None]:
    """`code` is the active language inside the block, in this context only (a render's).

    >>> with speaking("de"): _("Settings")
    'Einstellungen'
    >>> _("Settings")
    'Settings'
    """
    token = _scoped.set((code, translations(check_language(code))))
    try:
        yield
    finally:
        _scoped.reset(token)


def language() -> str:
    """The active language's code."""
    scoped = _scoped.get()
    return scoped[0] if scoped is not None else _language


def _catalog() -> _gettext.NullTranslations:
    scoped = _scoped.get()
    return scoped[1] if scoped is not None else _active


def _(message: str) -> str:
    """`message` in the active language."""
    return _catalog().gettext(message)


def ngettext(singular: str, plural: str, n: int) -> str:
    """The form of `singular`/`plural` for `n` in the active language (placeholders are filled by
    the caller: `ngettext("{n} player", "{n} players", n).format(n=n)`)."""
    return _catalog().ngettext(singular, plural, n)


def pgettext(context: str, message: str) -> str:
    """`message` in the active language, told apart from the same English by `context`."""
    return _catalog().pgettext(context, message)


def npgettext(context: str, singular: str, plural: str, n: int) -> str:
    return _catalog().npgettext(context, singular, plural, n)


def decimal(value: float) -> str:
    """`value` as short as `:g` writes it, with the active language's decimal separator.

    >>> use("de"); decimal(0.6), decimal(2.0)
    ('0,6', '2')
    >>> use("en")
    """
    # Translators: the decimal separator: "," in German and French.
    return f"{value:g}".replace(".", pgettext("decimal separator", "."))


def fixed(value: float, digits: int = 1, sign: bool = False) -> str:
    """`value` with `digits` decimals (and a `+` when `sign` and not negative), with the active
    language's decimal separator.

    >>> use("fr"); fixed(4.6), fixed(16.25, sign=True), fixed(0.4, 0)
    ('4,6', '+16,2', '0')
    >>> use("en")
    """
    return f"{value:{'+' if sign else ''}.{digits}f}".replace(".", pgettext("decimal separator", "."))


def grouped(value: int) -> str:
    """`value` with the active language's thousands separator.

    >>> use("de"); grouped(12345)
    '12.345'
    >>> use("en"); grouped(12345)
    '12,345'
    """
    # Translators: the thousands separator: "." in German, a (non-breaking) space in French.
    return f"{value:,}".replace(",", pgettext("thousands separator", ","))


def tr(text: object) -> str:
    """`text` in the active language: a `Text` (or an error made from one, such as an engine's
    IllegalStepError) through its template's catalog entry, its `Text` parameters translated too;
    anything else as `str()` gives it (an OS error's words, a name).

    >>> from firmware.errors import IllegalStepError
    >>> use("de"); tr(IllegalStepError(N_("the dice must be rolled first")))
    'Erst würfeln'
    >>> use("en")
    """
    if isinstance(text, BaseException):
        text = text_of(text)
    if not isinstance(text, Text):
        return str(text)
    template = ngettext(*text.forms) if text.forms else _(text.template)
    if not text.params:
        return template
    params = {
        key: tr(value) if isinstance(value, (Text, XtraboardError)) else value for key, value in text.params.items()
    }
    return template.format(**params)


# --- `python -m firmware.i18n`: the translators' commands (docs/translating.md) --------------------
POT = LOCALE_DIR / f"{DOMAIN}.pot"
BABEL_CFG = LOCALE_DIR / "babel.cfg"


def _version() -> str:
    from firmware import __version__

    return __version__


def _pybabel(*args: str) -> int:
    from babel.messages.frontend import CommandLineInterface

    try:
        CommandLineInterface().run(["pybabel", "-q", *args])
    except SystemExit as exc:
        return int(exc.code or 0)
    return 0


def extract() -> int:
    """Write the template `xtraboard.pot` from the source (firmware/ and sim/)."""
    return _pybabel(
        "extract",
        "-F",
        str(BABEL_CFG),
        "-o",
        str(POT),
        "--project",
        "xtraboard",
        "--no-location",
        "--sort-output",
        "--width",
        "100",
        "--version",
        _version(),
        "--copyright-holder",
        "the xtraboard authors",
        "--add-comments",
        "Translators:",
        str(ROOT / "firmware"),
        str(ROOT / "sim"),
    )


def update() -> int:
    """Merge the template into every language's `.po` (new strings come in empty or fuzzy)."""
    return _pybabel(
        "update",
        "-i",
        str(POT),
        "-d",
        str(LOCALE_DIR),
        "-D",
        DOMAIN,
        "--width",
        "100",
        "--no-fuzzy-matching",
        "--ignore-pot-creation-date",
        "--ignore-obsolete",
    )


def main(argv: list[str] | None = None) -> int:
    argv = sys.argv[1:] if argv is None else argv
    usage = "usage: python -m firmware.i18n extract | update | compile [--into DIR]"
    if not argv or argv[0] not in ("extract", "update", "compile"):
        print(usage, file=sys.stderr)
        return 2
    if argv[0] == "extract":
        return extract()
    if argv[0] == "update":
        return update()
    into = Path(argv[2]) if argv[1:2] == ["--into"] and len(argv) > 2 else None
    for path in compile_catalogs(into=into):
        print(f"compiled {path}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
