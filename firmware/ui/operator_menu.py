"""The operator menu (a café's board): audits, the operator's settings, the games offered,
clearing high scores, erasing the players' names, a factory reset of settings and, asked twice,
clearing the records.

It opens only by the operator's code (firmware/operator_code.py), typed during the idle show or
on the code entry screen (`CodeEntry`, fed its presses by firmware/board_loop.py); docs/kiosk.md
says how to set it.
"""

from __future__ import annotations

import math
from collections.abc import Callable
from dataclasses import replace
from typing import TYPE_CHECKING, Any, Protocol

from firmware.games import find_game, game_names
from firmware.i18n import N_, NAMES, _, ngettext
from firmware.ui.draw import Canvas
from firmware.ui.screen import ConfirmScreen, MenuScreen, Option, Screen, TextScreen
from firmware.ui.settings import BRIGHTNESS_CAPS, LANGUAGES, OperatorSettings, Settings, label, spoken

if TYPE_CHECKING:
    from firmware.hardware.buttons import ButtonEvent
    from firmware.loop import Timer
    from firmware.operator_code import CodeGate
    from firmware.table import Table
    from firmware.ui.intents import App, ScreenLike

CODE_GAP_S = 5.0  # the operator's code: a longer pause in the idle show wakes the board, counting nothing
ENTRY_HOLD_S = 10.0  # OK + BACK held this long on the main menu: code entry
ENTRY_IDLE_S = 30.0  # code entry closes after this long without a press, counting nothing
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
            # Translators: the operator menu: forget every player name kept or entered on the board.
            Option(_("Erase names"), "names"),
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
        elif action == "names":
            app.push(ConfirmScreen(_("Erase all names?"), erase_names))
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
    `CodeEntry` takes every press; this only shows how many."""

    def __init__(self, length: int) -> None:
        self.title = _("Operator code")
        self.length = length
        self.typed = 0

    def draw(self, canvas: Canvas) -> None:
        canvas.title(self.title, "")
        canvas.line(1, "*" * self.typed + "_" * (self.length - self.typed))


class EntryApp(Protocol):
    """What code entry asks of the app (firmware.ui.app.BoardApp)."""

    session: Table | None
    stack: list[ScreenLike]

    def push(self, screen: ScreenLike) -> None: ...

    def home(self) -> None: ...

    def changed(self) -> None: ...

    def show_note(self, text: str) -> None: ...

    def open_operator(self) -> None: ...

    def let_go(self, name: str) -> None: ...


class EntryHost(Protocol):
    """The board code entry runs on (firmware.board_loop.Board): its app (a factory reset
    makes a new one), clock, timers and buttons."""

    @property
    def app(self) -> EntryApp: ...

    def clock(self) -> float: ...

    def call_later(self, delay: float, callback: Callable[[], None]) -> Timer: ...

    def is_pressed(self, name: str) -> bool: ...

    def stop_show(self) -> None: ...

    def render(self) -> None: ...


class CodeEntry:
    """The operator's way in, for a board with a code (`gate`): typed during the idle show,
    or on the code entry screen, opened by OK + BACK held ENTRY_HOLD_S on the main menu or by
    OK held at power-up. Every press counts the same until a whole code's length has been
    typed, so no single press tells whether it was right. `swallow` is the board's set of
    buttons whose release (and hold) it keeps for itself."""

    def __init__(self, gate: CodeGate, host: EntryHost, swallow: set[str]) -> None:
        self.gate = gate
        self.host = host
        self.swallow = swallow
        self.screen: CodeEntryScreen | None = None  # the code entry screen while it is open
        self._typed: list[str] = []  # presses typed so far during the idle show or in code entry
        self._timer: Timer | None = None  # the pause that ends a code typed half-way
        self._chord: Timer | None = None  # OK + BACK held on the main menu

    # --- during the idle show ------------------------------------------------------------
    def show_press(self, name: str) -> None:
        """A press during the idle show: it keeps the show going, whatever the button, until a
        whole code's length has been typed; then the operator menu opens or the board wakes.
        A pause of CODE_GAP_S wakes it too."""
        self._typed.append(name)
        self._arm(CODE_GAP_S, self._pause)
        if len(self._typed) < self.gate.length:
            return
        typed, self._typed = self._typed, []
        self.host.stop_show()
        self._typed_whole(typed)

    def show_stopped(self) -> None:
        """The idle show ended: a code typed half-way during it counts nothing."""
        if self._timer is not None and self.screen is None:
            self._timer.cancel()
            self._timer = None
        self._typed = []

    def _pause(self) -> None:
        """A code typed half-way, then a pause: the board wakes, counting nothing."""
        self._timer = None
        self.host.stop_show()
        self.host.render()

    def _typed_whole(self, typed: list[str], *, say_wrong: bool = False) -> None:
        """A whole code typed (idle show or code entry): the operator menu, or nothing but a
        note when code entry is locked (a wrong code only wakes the board, counted and logged)."""
        app, now = self.host.app, self.host.clock()
        result = self.gate.attempt(typed, now)
        if result == "open":
            app.open_operator()
        elif result == "locked" or self.gate.locked_for(now) > 0:
            self._say_locked(now)
        elif say_wrong:
            app.show_note(_("Wrong code"))

    def _say_locked(self, now: float) -> None:
        minutes = max(1, math.ceil(self.gate.locked_for(now) / 60))
        self.host.app.show_note(_("Code entry locked: {minutes} min").format(minutes=minutes))

    def _arm(self, delay: float, callback: Callable[[], None]) -> None:
        if self._timer is not None:
            self._timer.cancel()
        self._timer = self.host.call_later(delay, callback)

    # --- OK + BACK held on the main menu ---------------------------------------------------
    def chord_starts(self, name: str) -> bool:
        """OK pressed while BACK is down, or BACK while OK is down, with no game in play: the
        press does nothing (it is the start of the gesture) and ENTRY_HOLD_S later, if both are
        still down, code entry opens. No setting removes this way in."""
        other = {"ok": "back", "back": "ok"}.get(name)
        if other is None or self.host.app.session is not None or not self.host.is_pressed(other):
            return False
        self.swallow.update((name, other))  # neither acts on its own now (BACK's hold, its release)
        if self._chord is not None:
            self._chord.cancel()
        self._chord = self.host.call_later(ENTRY_HOLD_S, self._chord_held)
        return True

    def chord_let_go(self) -> None:
        """OK or BACK let go before ENTRY_HOLD_S: nothing."""
        if self._chord is not None:
            self._chord.cancel()
            self._chord = None

    def _chord_held(self) -> None:
        self._chord = None
        host = self.host
        if host.is_pressed("ok") and host.is_pressed("back") and host.app.session is None:
            self.swallow.update(("ok", "back"))  # their releases (and BACK's hold) do nothing
            host.app.home()
            self.open()
        host.render()

    # --- the code entry screen -------------------------------------------------------------
    def open(self) -> None:
        """The code entry screen: every press is one of the code's, until its length."""
        now = self.host.clock()
        if self.gate.locked_for(now) > 0:
            self._say_locked(now)
            return
        self.screen = CodeEntryScreen(self.gate.length)
        self._typed = []
        self.host.app.push(self.screen)
        self._arm(ENTRY_IDLE_S, self._close)

    def event(self, event: ButtonEvent) -> None:
        """A button event while the code entry screen is open: a press is one of the code's."""
        app = self.host.app
        if event.kind == "release":
            self.swallow.discard(event.name)
            app.let_go(event.name)
        if event.kind != "press" or self.screen is None:
            return
        self._typed.append(event.name)
        self.swallow.add(event.name)
        self.screen.typed = len(self._typed)
        app.changed()
        self._arm(ENTRY_IDLE_S, self._close)
        if len(self._typed) >= self.gate.length:
            typed = self._typed
            self._close()
            self._typed_whole(typed, say_wrong=True)

    def _close(self) -> None:
        if self._timer is not None:
            self._timer.cancel()
            self._timer = None
        screen, self.screen, self._typed = self.screen, None, []
        app = self.host.app
        if screen is not None and screen in app.stack:
            app.stack.remove(screen)
            app.changed()
        self.host.render()

    def reset(self) -> None:
        """No code entry open, no code half typed, no chord held (a factory reset)."""
        for timer in (self._timer, self._chord):
            if timer is not None:
                timer.cancel()
        self._timer = self._chord = None
        self.screen, self._typed = None, []


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

    return "\n".join(audit_lines(app.journal.all_games(), app.fleet_status, gate_counts(app.journal)))


class OperatorSettingsScreen(MenuScreen):
    """The café's settings: OK steps the value (kept at once)."""

    NAMES = ("brightness_cap", "led_budget_amps", "language", "bot_pace", "idle_timeout_s", "dice_word", "keep_names")

    def __init__(self, app: App) -> None:
        super().__init__(_("Operator settings"), self._options(app), self._pick)

    def _options(self, app: App) -> list[Option]:
        op = app.operator
        # The café's language, each in its own name ("" follows the board description's).
        language = NAMES[op.language or app.default_language]
        shown = {
            "brightness_cap": (_("Brightness cap"), f"{round(op.brightness_cap * 100)}%"),
            "language": (label("language"), language),
            # Translators: the operator's setting: names and the last table kept for the next group.
            "keep_names": (_("Keep names"), _("on") if op.keep_names else _("off")),
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
        elif name == "keep_names":  # off: what this group entered is forgotten with them
            app.operator = _replace(op, keep_names=not op.keep_names)
            _refresh_main_menu(app)
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


def erase_names(app: App) -> None:
    """Every player name kept or entered on the board, and the last table; records keep theirs."""
    count = app.tables.erase()
    _refresh_main_menu(app)
    app.show_note(ngettext("{n} name erased", "{n} names erased", count).format(n=count))


def reset_settings(app: App) -> None:
    """Every setting back to its default (the guests' and the operator's); records stay."""
    if app.journal is not None:
        app.journal.clear_settings()  # keeps the operator code's wrong codes and lock: audits, not settings
    app.settings = Settings()
    app.operator = OperatorSettings()
    app.tables.new_group()  # the names and last table held for this group go with the kept ones
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
    app.stack[0].refresh(app)


def _next(values: tuple[Any, ...], current: Any) -> Any:  # Any: a setting's values, as settings.CHOICES
    return values[(values.index(current) + 1) % len(values)] if current in values else values[0]


# Any: field values by name, each of its field's type (what dataclasses.replace takes)
def _replace_settings(settings: Settings, **changes: Any) -> Settings:
    return replace(settings, **changes)


def _replace(op: OperatorSettings, **changes: Any) -> OperatorSettings:  # Any: as _replace_settings
    return replace(op, **changes)
