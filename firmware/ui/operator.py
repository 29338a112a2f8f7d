"""The operator menu (a café's board): audits, the operator's settings, the games offered,
clearing high scores, a factory reset of settings and, asked twice, clearing the records.

It opens only by the operator's code (firmware/operator_code.py), typed during the idle show or
on the code entry screen (firmware/board_loop.py); docs/kiosk.md says how to set it.
"""

from __future__ import annotations

from dataclasses import replace
from typing import TYPE_CHECKING, Any

from firmware.games import find_game, game_names
from firmware.i18n import N_, NAMES, _, ngettext
from firmware.ui.draw import Canvas
from firmware.ui.screen import ConfirmScreen, MenuScreen, Option, Screen, TextScreen
from firmware.ui.settings import BRIGHTNESS_CAPS, LANGUAGES, OperatorSettings, Settings, label, spoken

if TYPE_CHECKING:
    from firmware.ui.intents import App

NO_JOURNAL = N_("No records are kept on this board (no state directory).")


class OperatorMenu(MenuScreen):
    """LEFT/RIGHT choose, OK opens, BACK (or "Leave") closes the operator menu."""

    def __init__(self) -> None:
        super().__init__(_("Operator"), self._options(), self._pick)

    @staticmethod
    def _options() -> list[Option]:
        return [
            Option(_("Audits"), "audits"),
            Option(_("Settings"), "settings"),
            Option(_("Games offered"), "games"),
            Option(_("Clear high scores"), "scores"),
            Option(_("Reset settings"), "reset"),
            Option(_("Clear records"), "records"),
            Option(_("Leave"), "leave"),
        ]

    def relabel(self, app: App) -> None:
        self.title = _("Operator")
        self.choice.options = self._options()

    def _pick(self, app: App, option: Option) -> None:
        action = option.value
        if action == "audits":
            app.push(AuditScreen(audit_text(app)))
        elif action == "settings":
            app.push(OperatorSettingsScreen(app))
        elif action == "games":
            app.push(GamesOfferedScreen(app))
        elif action == "scores":
            app.push(ConfirmScreen(_("Clear high scores?"), clear_scores))
        elif action == "reset":
            app.push(ConfirmScreen(_("Reset all settings?"), reset_settings))
        elif action == "records":  # games are the café's history: asked twice
            app.push(
                ConfirmScreen(
                    _("Clear all records?"), lambda a: a.push(ConfirmScreen(_("Sure? Records gone"), clear_records))
                )
            )
        elif action == "leave":
            app.pop()


class CodeEntryScreen(Screen):
    """The operator's code, typed after OK + BACK held on the main menu or OK held at power-up.
    The board loop takes every press (firmware/board_loop.py); this only shows how many."""

    def __init__(self, length: int) -> None:
        self.title = _("Operator code")
        self.length = length
        self.typed = 0

    def draw(self, canvas: Canvas) -> None:
        canvas.title(self.title, "")
        canvas.line(1, "*" * self.typed + "_" * (self.length - self.typed))


class AuditScreen(TextScreen):
    """The audits, a page at a time: RIGHT/ROLL the next page, LEFT the previous one."""

    def __init__(self, text: str) -> None:
        super().__init__(_("Audits"), text)
        self.page = 1  # lines per page, known once drawn

    def press(self, app: App, button: str) -> bool:
        if button in ("right", "roll"):
            return self.scroll(self.top + self.page)
        if button == "left":
            return self.scroll(self.top - self.page)
        return super().press(app, button)

    def draw(self, canvas: Canvas) -> None:
        self.page = canvas.lines - 1
        lines = self._lines(canvas.columns)
        pages = max(1, -(-len(lines) // self.page))
        self.last_top = (pages - 1) * self.page
        self.top = min(self.top - self.top % self.page, self.last_top)
        canvas.title(self.title, f"{self.top // self.page + 1}/{pages}")
        for row, text in enumerate(lines[self.top : self.top + self.page], start=1):
            canvas.line(row, text)


def audit_text(app: App) -> str:
    if app.journal is None:
        return _(NO_JOURNAL)
    from firmware.audit import audit_lines

    from firmware.operator_code import gate_counts

    return "\n".join(audit_lines(app.journal.all_games(), getattr(app, "fleet_status", None), gate_counts(app.journal)))


class OperatorSettingsScreen(MenuScreen):
    """The café's settings: OK steps the value (kept at once)."""

    NAMES = ("brightness_cap", "led_budget_amps", "language", "bot_pace", "idle_timeout_s")

    def __init__(self, app: App) -> None:
        super().__init__(_("Operator settings"), self._options(app), self._pick)

    def _options(self, app: App) -> list[Option]:
        op = app.operator
        # The café's language, each in its own name ("" follows the board description's).
        language = NAMES[op.language or app.default_language]
        shown = {
            "brightness_cap": (_("Brightness cap"), f"{round(op.brightness_cap * 100)}%"),
            "language": (label("language"), language),
        }
        return [
            Option(shown[n][0], n, shown[n][1]) if n in shown else Option(label(n), n, app.settings.shown(n))
            for n in self.NAMES
        ]

    def relabel(self, app: App) -> None:
        self.title = _("Operator settings")
        self.choice.options = self._options(app)

    def _pick(self, app: App, option: Option) -> None:
        name = option.value
        op = app.operator
        if name == "brightness_cap":
            app.operator = _replace(op, brightness_cap=_next(BRIGHTNESS_CAPS, op.brightness_cap))
        elif name == "language":  # English, Deutsch, Français, then the board description's again
            app.operator = _replace(op, language=_next(LANGUAGES, op.language))
            app.settings = _replace_settings(app.settings, language="")  # the café's choice is the guests'
            app.settings.save(app.journal)
            from firmware.ui.menus import switch_language

            switch_language(app, spoken(app.settings, app.operator, app.default_language))
        else:
            app.settings = app.settings.cycle(name, 1, app.choices(name))
            app.settings.save(app.journal)
        app.operator.save(app.journal)
        self.choice.options = self._options(app)


class GamesOfferedScreen(MenuScreen):
    """One line per game, on or off: OK switches it (one game always stays on)."""

    def __init__(self, app: App) -> None:
        super().__init__(_("Games offered"), self._options(app), self._pick)

    @staticmethod
    def _options(app: App) -> list[Option]:
        offered = app.operator.offered(game_names())
        return [Option(find_game(g).title, g, _("on") if g in offered else _("off")) for g in game_names()]

    def relabel(self, app: App) -> None:
        self.title = _("Games offered")
        self.choice.options = self._options(app)

    def _pick(self, app: App, option: Option) -> None:
        app.operator = app.operator.toggle_game(option.value, game_names())
        app.operator.save(app.journal)
        self.choice.options = self._options(app)
        _refresh_main_menu(app)


def clear_scores(app: App) -> None:
    if app.journal is not None:
        app.journal.clear_scores()
    app.show_note(_("High scores cleared"))


def reset_settings(app: App) -> None:
    """Every setting back to its default (the guests' and the operator's); records stay."""
    if app.journal is not None:
        app.journal.clear_settings()  # keeps the operator code's wrong codes and lock: audits, not settings
    app.settings = Settings()
    app.operator = OperatorSettings()
    _refresh_main_menu(app)
    for screen in app.stack:
        if isinstance(screen, OperatorSettingsScreen | GamesOfferedScreen):
            screen.choice.options = screen._options(app)
    from firmware.ui.menus import switch_language

    switch_language(app, spoken(app.settings, app.operator, app.default_language))
    app.show_note(_("Settings reset"))


def clear_records(app: App) -> None:
    """Every game that is over, with its scores (the game being played stays)."""
    count = app.journal.clear_records() if app.journal is not None else 0
    _refresh_main_menu(app)
    app.show_note(ngettext("{n} record cleared", "{n} records cleared", count).format(n=count))


def _refresh_main_menu(app: App) -> None:
    refresh: Any = getattr(app.stack[0], "refresh", None)
    if refresh is not None:
        refresh(app)


def _next(values: tuple[Any, ...], current: Any) -> Any:
    return values[(values.index(current) + 1) % len(values)] if current in values else values[0]


def _replace_settings(settings: Settings, **changes: Any) -> Settings:
    return replace(settings, **changes)


def _replace(op: OperatorSettings, **changes: Any) -> OperatorSettings:
    return replace(op, **changes)
