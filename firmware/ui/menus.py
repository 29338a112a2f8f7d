"""The menus: main menu, game setup (seats, bots, colours), in-game menu, settings, rules,
records and demo."""

from __future__ import annotations

from dataclasses import replace
from collections.abc import Callable
from typing import TYPE_CHECKING

from firmware import i18n
from firmware.games import find_game, game_names
from firmware.games.registry import games
from firmware.i18n import _, ngettext, tr
from firmware.table import Seat
from firmware.ui.colours import DEFAULT_ORDER, PLAYER_COLOURS, LedFrame, dim
from firmware.ui.draw import LINE_HEIGHT, Canvas
from firmware.ui.intents import table_in_play
from firmware.ui.lesson_runner import LEAVE, has_lesson, leave_lesson, lesson_label, start_lesson
from firmware.ui.name_entry import NameEntryScreen
from firmware.ui.names import colour_name, default_name, level_name
from firmware.ui.rules_page import rules_pages
from firmware.ui.screen import ConfirmScreen, MenuScreen, Option, Screen, TextScreen
from firmware.ui.seal import seal_screen
from firmware.ui.settings import CHOICES, IN_GAME, label

if TYPE_CHECKING:
    from firmware.ui.intents import App


def title_of(game: str) -> str:
    return find_game(game).title


def bot_level(game: str) -> str:
    """The level a new bot seat gets: the game's easiest (the registry lists them)."""
    return find_game(game).levels[0]


class MainMenu(MenuScreen):
    title = "xtraboard"

    def __init__(self, app: App) -> None:
        super().__init__("xtraboard", self._options(app), self._pick)

    @staticmethod
    def _options(app: App) -> list[Option]:
        options = [
            Option(_("Play {game}").format(game=title_of(g)), ("play", g)) for g in app.operator.offered(game_names())
        ]
        last = app.tables.last_table(app.operator.offered(game_names()))
        if last is not None:  # the quickest way back to the table: OK, and the game is on
            options.insert(0, Option(_("Same table again"), ("again", last.game)))
        unfinished = app.journal.unfinished() if app.journal is not None else None
        if unfinished is not None:
            game = unfinished.record.get("game", "?")
            title = title_of(game) if game in game_names() else game
            options.insert(0, Option(_("Resume {game}").format(game=title), ("resume", None)))
        options += [
            Option(_("Demo"), ("demo", None)),
            Option(_("Rules"), ("rules", None)),
            Option(_("Records"), ("records", None)),
            Option(
                _("Settings"),
                ("settings", None),
                # Translators: after "Settings" on a café's board; "> Settings" and it share 21 columns.
                _("locked") if app.kiosk else "",
            ),
        ]
        return options

    def refresh(self, app: App) -> None:
        """Re-read what the menu offers (a game was finished or abandoned meanwhile)."""
        self.choice.options = self._options(app)
        self.choice.index = 0

    def relabel(self, app: App) -> None:
        """The same entries in the language now active (the cursor stays where it was)."""
        self.choice.options = self._options(app)

    def _pick(self, app: App, option: Option) -> None:
        action, game = option.value
        if action in ("play", "demo", "again") and app.journal is not None and app.journal.unfinished() is not None:
            app.push(SavedGameScreen(app, lambda a: self._pick(a, option)))  # never lost silently
        elif action == "play":
            app.push(SeatCountScreen(game, demo=False))
        elif action == "again":
            last = app.tables.last_table(app.operator.offered(game_names()))
            if last is not None:
                start_game(app, last.game, last.fresh_seats(), mode="play")
        elif action == "resume":
            resume(app)
        elif action == "demo":
            app.push(
                GameChoiceScreen(
                    _("Demo: which game?"),
                    lambda a, g: a.push(SeatCountScreen(g, demo=True)),
                    app.operator.offered(game_names()),
                )
            )
        elif action == "rules":
            app.push(GameChoiceScreen(_("Rules of"), lambda a, g: a.push(RulesScreen(g))))
        elif action == "records":
            app.push(TextScreen(_("Records"), records_text(app)))
        elif action == "settings" and app.kiosk:  # a café's board: the operator menu sets them
            app.push(TextScreen(_("Settings"), _("Locked: the staff set up this board.")))
        elif action == "settings":
            app.push(SettingsScreen(app))

    def press(self, app: App, button: str) -> bool:
        if button == "back":
            return False  # nowhere to go back to
        return super().press(app, button)


class SavedGameScreen(MenuScreen):
    """ "Play …" or "Demo" while a game waits to be resumed: a new game would set it aside, so
    ask first — resume it (the default: a stray OK loses nothing), discard it and go on, or cancel."""

    def __init__(self, app: App, then: Callable[[App], None]) -> None:
        stored = app.journal.unfinished() if app.journal is not None else None
        game = stored.record.get("game", "?") if stored is not None else "?"
        # Translators: the title of the question "Play …" asks while a game waits to be resumed.
        title = _("Saved {game}").format(game=title_of(game) if game in game_names() else game)
        options = [Option(_("Resume it"), "resume"), Option(_("Discard it"), "discard"), Option(_("Cancel"), "cancel")]
        super().__init__(title, options, self._pick)
        self.then = then

    def _pick(self, app: App, option: Option) -> None:
        app.pop()
        if option.value == "resume":
            resume(app)
        elif option.value == "discard":
            app.discard_saved()
            self.then(app)


def resume(app: App) -> None:
    """The journal's unfinished game, exactly where it stood (a saved game that no longer
    replays is set aside with a note)."""
    app.resume()


class GameChoiceScreen(MenuScreen):
    def __init__(self, title: str, then: Callable[[App, str], None], names: list[str] | None = None) -> None:
        names = list(game_names()) if names is None else names
        super().__init__(title, [Option(title_of(g), g) for g in names], lambda a, o: then(a, o.value))


class SeatCountScreen(MenuScreen):
    """How many seats: only counts the game allows are offered."""

    def __init__(self, game: str, demo: bool) -> None:
        spec = find_game(game)
        options = [Option(players_label(n), n) for n in spec.players]
        if not demo and has_lesson(game):  # a short game that teaches the rules as they apply
            options.append(Option(lesson_label(game), "learn"))
        super().__init__(_("{game} demo").format(game=spec.title) if demo else spec.title, options, self._pick)
        self.game, self.demo = game, demo

    def _pick(self, app: App, option: Option) -> None:
        if option.value == "learn":
            start_lesson(app, self.game)
            return
        count = option.value
        bot = bot_level(self.game) if self.demo else None
        seats = [Seat(default_name(DEFAULT_ORDER[i]), DEFAULT_ORDER[i], bot) for i in range(count)]
        if self.demo:
            start_game(app, self.game, seats, mode="demo")
        else:
            app.push(SeatScreen(self.game, seats, 0, tuple(app.agents.engines), tuple(app.tables.recent_names())))


SEAT_KINDS = ("human", "bot", "kids")
ENTER = "enter"  # the seat screen's "New name": OK opens the name entry


class SeatScreen(Screen):
    """One seat: LEFT/RIGHT choose person, a person of the board's names (the most recent first),
    bot of a level (easy, medium, strong), an external engine of the board description
    ("Engine: NAME"), "New name", where OK opens the name entry (firmware/ui/name_entry.py), or
    child (in EXTRA!; "New name" comes before it, so one LEFT from Person is still Child); ROLL
    the colour, OK the next seat, BACK the previous one."""

    def __init__(
        self, game: str, seats: list[Seat], index: int, engines: tuple[str, ...] = (), people: tuple[str, ...] = ()
    ) -> None:
        self.game, self.seats, self.index = game, seats, index
        self.engines = engines  # the board description's external engines, by name
        self.people = people  # the names entered on the board, the most recent first (app.tables)
        self.entering = False  # on "New name"

    @property
    def title(self) -> str:  # type: ignore[override]  # Screen.title is a class attribute; read-only here
        # Translators: the seat setup's title, "EXXTRA: seat 2/4".
        return _("{game}: seat {number}/{count}").format(
            game=title_of(self.game), number=self.index + 1, count=len(self.seats)
        )

    @property
    def seat(self) -> Seat:
        return self.seats[self.index]

    def kinds(self) -> tuple[str, ...]:
        """ "human", a "name:<name>" per kept name no other seat took, a "bot:<level>" per bot
        level (easiest first), a "bot:engine:<name>" per external engine, "enter" (the name
        entry), then the game's own options."""
        spec = find_game(self.game)
        taken = {s.name for s in self.seats if s is not self.seat}
        return (
            ("human",)
            + tuple(f"name:{n}" for n in self.people if n not in taken)
            + tuple(f"bot:{level}" for level in spec.levels)
            + tuple(f"bot:engine:{name}" for name in self.engines)
            + (ENTER,)
            + tuple(k for k in SEAT_KINDS[2:] if k in spec.seat_options)
        )

    def kind(self) -> str:
        seat = self.seat
        if self.entering:
            return ENTER
        if not seat.bot and not seat.kids and seat.name in self.people:
            return f"name:{seat.name}"
        return f"bot:{seat.bot}" if seat.bot else "kids" if seat.kids else "human"

    def press(self, app: App, button: str) -> bool:
        seat = self.seat
        before = (seat.bot, seat.kids, seat.name, seat.colour, self.entering)
        if button in ("left", "right"):
            kinds = self.kinds()
            kind = kinds[(kinds.index(self.kind()) + (1 if button == "right" else -1)) % len(kinds)]
            self.entering = kind == ENTER
            seat.bot = kind.partition(":")[2] if kind.startswith("bot:") else None
            seat.kids = kind == "kids"
            seat.name = kind[5:] if kind.startswith("name:") else default_name(seat.colour)
        elif button == "roll":
            taken = {s.colour for s in self.seats if s is not seat}
            free = [c for c in PLAYER_COLOURS if c not in taken]
            named = seat.name in self.people and not seat.bot and not seat.kids
            seat.colour = free[(free.index(seat.colour) + 1) % len(free)]
            seat.name = seat.name if named else default_name(seat.colour)
        elif button == "ok" and self.entering:
            app.push(self.name_entry())
            return True
        elif button == "ok":
            if self.index + 1 < len(self.seats):
                app.push(SeatScreen(self.game, self.seats, self.index + 1, self.engines, self.people))
            else:
                start_game(app, self.game, self.seats, mode="play")
            return True
        elif button == "back":
            app.pop()
            return True
        return (seat.bot, seat.kids, seat.name, seat.colour, self.entering) != before

    def name_entry(self) -> NameEntryScreen:
        """The name entry for this seat: the names no other seat took, the most recent first."""
        taken = [s.name for s in self.seats if s is not self.seat and not s.bot and not s.kids]
        # Translators: the name entry's title, "Name of seat 2".
        title = _("Name of seat {number}").format(number=self.index + 1)
        return NameEntryScreen(title, self._named, self.people, taken, self.scene)

    def _named(self, app: App, name: str) -> None:
        """The name entry gave `name`: this seat's, remembered as the most recent."""
        name = app.tables.add_name(name)
        self.people = (name, *(p for p in self.people if p.lower() != name.lower()))
        seat = self.seat
        seat.name, seat.bot, seat.kids = name, None, False
        self.entering = False
        app.changed()

    def draw(self, canvas: Canvas) -> None:
        canvas.title(self.title)
        kind = self.kind()
        label = (
            _("Engine: {name}").format(name=kind[11:])
            if kind.startswith("bot:engine:")
            else _("Bot: {level}").format(level=level_name(kind[4:]))
            if kind.startswith("bot:")
            else kind[5:]
            if kind.startswith("name:")
            # Translators: the seat setup's choice that opens the name entry.
            else {"human": _("Person"), "kids": _("Child"), ENTER: _("New name")}[kind]
        )
        # What gives way when the line is short: the arrows, then the word "Bot".
        fitting = [f"< {label} >", label] + ([level_name(kind[4:])] if kind.startswith("bot:") else [])
        canvas.line(
            1,
            next((text for text in fitting if len(text) <= canvas.columns), fitting[-1]),
            align="center",
            critical=True,
        )
        colour = _("Colour: {colour}").format(colour=colour_name(self.seat.colour))
        canvas.line(2, colour if canvas.fits(colour) else colour_name(self.seat.colour))  # else the name says it
        taken = {s.colour for s in self.seats if s is not self.seat}
        free = [c for c in PLAYER_COLOURS if c not in taken]
        following = colour_name(free[(free.index(self.seat.colour) + 1) % len(free)])
        # Translators: the seat setup's help lines (buttons' names stay as printed on the board).
        # Where they do not fit: "ROLL: Blue" (the colour ROLL gives) and the buttons as arrows.
        help_lines = [(_("ROLL: next colour"), f"ROLL: {following}"), (_("OK next  BACK prev"), "OK >  BACK <")]
        if canvas.height - 3 * canvas.line_height < 2 * LINE_HEIGHT:  # a 128×32 panel: one line
            help_lines = help_lines[1:]
        canvas.footer(help_lines)

    def scene(self, app: App, frame: LedFrame) -> None:
        for i, seat in enumerate(self.seats[: self.index + 1]):  # (the seats after it keep their light)
            frame[f"seat.{i}"] = PLAYER_COLOURS[seat.colour]
        colour = PLAYER_COLOURS[self.seat.colour]
        frame[f"seat.{self.index}"] = [colour, dim(colour, 0.2)]  # the seat being set blinks


def players_label(count: int) -> str:
    """ "2 players", in the active language (the seat-count menu's entries)."""
    return ngettext("{n} player", "{n} players", count).format(n=count)


def start_game(app: App, game: str, seats: list[Seat], mode: str) -> None:
    if mode == "play":  # (a demo's bots are nobody's table)
        app.tables.sat_down(game, seats)
    app.start_game(game, seats, mode)


class GameMenu(MenuScreen):
    """The in-game menu (a long BACK): back to the game, the bots' pace (with a bot at the
    table; OK steps it), take back (as a short BACK on the play screen does), redo what was
    taken back, rules, the settings a guest may change mid-game,
    the dice seal, abandon."""

    def __init__(self, app: App) -> None:
        super().__init__(_("Game menu"), self._options(app), self._pick)

    @staticmethod
    def _options(app: App) -> list[Option]:
        session = app.session
        options = [Option(_("Back to game"), "back")]
        if session is not None and any(player.bot is not None for player in session.game.players):
            # The bots' pace right here, OK stepping it (as in Settings): one RIGHT and at most
            # three OKs reach any pace, where Settings › Bot pace took eight to ten presses.
            options.append(Option(label("bot_pace"), "pace", app.settings.shown("bot_pace")))
        if session is not None and session.undo_target(app.settings.takeback == "game") is not None:
            options.append(Option(_("Take back"), "undo"))
        if session is not None and session.can_redo():
            options.append(Option(_("Redo"), "redo"))
        # Settings after Rules: RIGHT still reaches Rules first, LEFT (wrapping) Abandon.
        options += [Option(_("Rules"), "rules"), Option(_("Settings"), "settings")]
        if session is not None and app.help.round_log(session):
            # Translators: the in-game menu: the round log (every move since your last one); short.
            options.append(Option(_("Round log"), "log"))
        if session is not None and session.game.history:
            # Translators: the in-game menu: every step of the game from the first, by round; short.
            options.append(Option(_("Game log"), "game log"))
        if session is not None and session.seal is not None:
            options.append(Option(_("Dice seal"), "seal"))
        if app.lesson is not None:  # a lesson is left at once: nothing of it is kept
            options.append(Option(_(LEAVE), "leave"))
        else:
            options.append(Option(_("Abandon game"), "abandon"))
        return options

    def relabel(self, app: App) -> None:
        """In the language now active, and offering "Take back" as the takeback rule now allows;
        the cursor stays on the same entry."""
        current = self.choice.current.value
        self.title = _("Game menu")
        self.choice.options = self._options(app)
        values = [o.value for o in self.choice.options]
        self.choice.index = values.index(current) if current in values else 0

    def _pick(self, app: App, option: Option) -> None:
        if option.value == "back":
            app.pop()
            app.advance()
        elif option.value == "pace":
            app.settings = app.settings.cycle("bot_pace", 1, app.choices("bot_pace"))
            app.settings.save(app.journal)
            self.relabel(app)
            app.changed()
        elif option.value in ("undo", "redo"):
            app.pop()
            if not (app.undo() if option.value == "undo" else app.redo()):
                app.advance()
        elif option.value == "settings":
            app.push(SettingsScreen(app, IN_GAME))
        elif option.value == "rules":
            app.push(RulesScreen(table_in_play(app).game.name))
        elif option.value == "log":
            from firmware.ui.play import open_round_log

            app.pop()  # read from the game: OK there closes it back to the game
            if not open_round_log(app, table_in_play(app)):
                app.advance()
        elif option.value == "game log":
            from firmware.ui.game_log import GameLogScreen, viewer_of

            table = table_in_play(app)
            app.pop()  # as the round log: OK there closes it back to the game
            app.push(GameLogScreen(table, app.help.takebacks(table), viewer_of(table)))
        elif option.value == "seal":
            app.push(seal_screen(app))
        elif option.value == "abandon":
            app.push(ConfirmScreen(_("Abandon game?"), abandon))
        elif option.value == "leave":
            leave_lesson(app)


def abandon(app: App) -> None:
    app.abandon()


class SettingsScreen(MenuScreen):
    """LEFT/RIGHT pick a setting, OK steps its value (kept at once), BACK leaves. The language
    changes at once: this menu and the screens under it redraw in it. From the in-game menu it
    offers only `names` (settings.IN_GAME: what a guest may change mid-game, kiosk mode too)."""

    def __init__(self, app: App, names: tuple[str, ...] = tuple(CHOICES)) -> None:
        self.names = names
        super().__init__(_("Settings"), self._options(app), self._pick)

    def _options(self, app: App) -> list[Option]:
        return [Option(label(name), name, app.settings.shown(name)) for name in self.names]

    def relabel(self, app: App) -> None:
        self.title = _("Settings")
        self.choice.options = self._options(app)

    def _pick(self, app: App, option: Option) -> None:
        if option.value == "language":
            switch_language(app, next_language(app.language))
            app.settings = replace(app.settings, language=app.language)
        else:
            app.settings = app.settings.cycle(option.value, 1, app.choices(option.value))
        app.settings.save(app.journal)
        for screen in app.stack:  # the in-game menu under it offers "Take back" as the rule now says
            if isinstance(screen, GameMenu):
                screen.relabel(app)
        self.choice.options = self._options(app)
        app.changed()


def next_language(current: str) -> str:
    """The language after `current` in the settings menus' order (English after the pseudo-locale).

    >>> next_language("en"), next_language("fr")
    ('de', 'en')
    """
    return (
        i18n.LANGUAGES[(i18n.LANGUAGES.index(current) + 1) % len(i18n.LANGUAGES)]
        if current in i18n.LANGUAGES
        else i18n.LANGUAGES[0]
    )


def switch_language(app: App, code: str) -> None:
    """Speak `code` from the next frame on: every screen on the stack that built its labels in
    advance re-reads them (`relabel`); the others translate when they draw."""
    app.language = code
    i18n.use(code)
    for screen in app.stack:
        screen.relabel(app)
    app.changed()


class RulesScreen(Screen):
    """A game's rules in the active language, a page per screen: LEFT/RIGHT (and ROLL) flip
    pages, OK or BACK close. Paragraphs are kept whole on a page where they fit."""

    def __init__(self, game: str) -> None:
        self.game = game
        self.page = 0
        self.pages: list[list[str]] = []

    @property
    def title(self) -> str:  # type: ignore[override]  # Screen.title is a class attribute; read-only here
        return title_of(self.game)

    def press(self, app: App, button: str) -> bool:
        if button in ("ok", "back"):
            app.pop()
            return True
        page = self.page
        if button in ("right", "roll"):
            self.page = min(self.page + 1, max(0, len(self.pages) - 1)) if self.pages else self.page + 1
        elif button == "left":
            self.page = max(0, self.page - 1)
        return self.page != page

    def draw(self, canvas: Canvas) -> None:
        self.pages = rules_pages(self.game, canvas.columns, canvas.lines - 1)
        self.page = min(self.page, len(self.pages) - 1)
        canvas.title(self.title, f"{self.page + 1}/{len(self.pages)}")
        for row, text in enumerate(self.pages[self.page], start=1):
            canvas.line(row, text)


def records_text(app: App) -> str:
    """Solo records, most wins (races) and high scores per game, from the journal (how each game
    ranks comes from its registry entry); then the notes the board showed since it started."""
    journal = app.journal
    notes = "".join(
        "\n" + _("Note: {problem}").format(problem=tr(problem)) for problem in app.problems
    )  # kept to look up
    if journal is None:
        return _("No records are kept on this board (no state directory).") + notes
    specs = games()
    lines: list[str] = []
    for spec in specs:
        solo = journal.solo_best(game=spec.name) if spec.ranking.solo_record else None
        if solo is not None:
            lines.append(
                _("{game} solo record: {score} by {name}").format(game=spec.title, score=solo.score, name=solo.name)
            )
    for spec in specs:
        wins = [] if spec.ranking.high_scores else journal.wins(spec.name, limit=3)
        if wins:
            lines.append(_("{game} wins:").format(game=spec.title))
            lines += [f" {count} {name}" for name, count in wins]
    for spec in specs:
        best = journal.best_scores(spec.name, limit=3) if spec.ranking.high_scores else []
        if best:
            lines.append(_("{game} best:").format(game=spec.title))
            lines += [f" {entry.score} {entry.name}" for entry in best]
    played = journal.stats()
    if played:
        games_played = ", ".join(f"{title_of(g)} {n}" for g, n in played.items() if g in game_names())
        lines.append(_("Played: {games}").format(games=games_played))
    return ("\n".join(lines) or _("No games finished yet.")) + notes
