"""The board's exceptions: one root, each subclass also a builtin so callers may catch either.

A text a person may read later, in whatever language the board speaks then, is a `Text`: the
English sentence (what `str()`, logs and records see) that keeps its template and parameters,
so `firmware.i18n.tr` can say it again in the active language. Pure code (the rules engines)
marks such templates with `N_` from here and never imports the catalogs.
"""

from __future__ import annotations

from collections.abc import Callable


def N_(message: str) -> str:
    """Mark `message` for the catalogs without translating it (`python -m firmware.i18n extract`
    finds it); `firmware.i18n.tr` translates it where it is shown."""
    return message


class Text(str):
    """An English sentence made from a marked template and named parameters; it *is* that
    English string, and remembers how it was made for `firmware.i18n.tr`.

    >>> text = Text(N_("rung {rung} is taken"), rung=3)
    >>> text, text.template, text.params
    ('rung 3 is taken', 'rung {rung} is taken', {'rung': 3})
    """

    template: str
    params: dict[str, object]
    forms: tuple[str, str, int] | None = None  # (singular, plural, n) of a Text.ngettext

    def __new__(cls, template: str, /, **params: object) -> Text:
        self = super().__new__(cls, template.format(**params) if params else template)
        self.template = template
        self.params = params
        return self

    @classmethod
    def ngettext(cls, singular: str, plural: str, n: int, /, **params: object) -> Text:
        """A Text with a plural, chosen by the catalog's rule for `n` when shown (extraction
        reads this as `ngettext`).

        >>> Text.ngettext("kept {n} game", "kept {n} games", 2, n=2)
        'kept 2 games'
        """
        self = cls(singular if n == 1 else plural, **params)
        self.forms = (singular, plural, n)
        return self

    def __reduce__(self) -> tuple[Callable[..., Text], tuple[str, dict[str, object], tuple[str, str, int] | None]]:
        # copy and pickle keep the template
        return (_text, (self.template, self.params, self.forms))


def _text(template: str, params: dict[str, object], forms: tuple[str, str, int] | None = None) -> Text:
    return Text.ngettext(*forms, **params) if forms else Text(template, **params)


def text_of(exc: BaseException) -> str:
    """The `Text` an error was made from (to be shown translated later), else `str(exc)`."""
    # any exception: ours keep a Text in `text`, a few of the stdlib's (SyntaxError) a str
    text = getattr(exc, "text", None) or (exc.args[0] if len(exc.args) == 1 else None)
    return text if isinstance(text, Text) else str(exc)


class XtraboardError(Exception):
    """Root of every error the firmware raises on purpose."""


class IllegalStepError(XtraboardError, ValueError):
    """A step that the rules do not allow now; the game is left unchanged. The engines give a
    marked template and its parameters: `str(exc)` is the English sentence (logs, records, the
    engine protocol), `exc.text` a `Text` the board shows in its own language.

    >>> str(IllegalStepError(N_("rung {rung} is taken"), rung=3))
    'rung 3 is taken'
    """

    def __init__(self, message: str, /, **params: object) -> None:
        self.text = message if isinstance(message, Text) and not params else Text(message, **params)
        super().__init__(str(self.text))


class RecordError(XtraboardError, ValueError):
    """A game record that is malformed or does not replay; `index` is the step at fault, if any."""

    def __init__(self, message: str, index: int | None = None) -> None:
        self.index = index
        text = message if isinstance(message, Text) else Text(message)
        self.text = Text(N_("step {index}: {message}"), index=index, message=text) if index is not None else text
        super().__init__(str(self.text))


class ConfigError(XtraboardError, ValueError):
    """A configuration file that is missing, unreadable or has a bad key."""


class HardwareError(XtraboardError, RuntimeError):
    """A part of the board that is missing or does not answer."""
