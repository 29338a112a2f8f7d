"""The board's settings: what the menu can change, their allowed values, and how they are kept
(the journal's key/value store, when there is one)."""

from __future__ import annotations

import logging
from dataclasses import asdict, dataclass, fields, replace
from typing import TYPE_CHECKING, Any

from firmware.i18n import LANGUAGES as SPOKEN
from firmware.i18n import NAMES, N_, _, decimal

if TYPE_CHECKING:
    from firmware.journal.protocol import SettingsStore

_UNSET = object()

# Any: each setting's values are of its own field's type (float, str or bool), read by its name
CHOICES: dict[str, tuple[Any, ...]] = {
    "brightness": (0.25, 0.4, 0.55, 0.7, 0.85, 1.0),  # as the eye sees it (gamma: firmware.ui.colours.duty)
    "led_budget_amps": (0.5, 1.0, 1.5, 2.0, 3.0),
    "dice_mode": ("electronic", "physical"),
    "idle_timeout_s": (0, 60, 120, 300, 600),
    "bot_pace": ("slow", "normal", "fast", "step"),
    "takeback": ("roll", "game"),
    "language": ("", *SPOKEN),  # "": the board's default (its description's `language`)
    "night": (False, True),  # night mode: the LEDs at the lowest step
    "palette": ("default", "contrast"),  # seat colours (firmware.ui.colours.PALETTES)
    "sound": ("off", "soft", "loud"),  # the buzzer's cues (firmware.ui.cues)
    "dice_word": ("seal", "ask"),  # before the first roll: show the dice seal only, or ask for a word too
}
LABELS = {  # shown through _(): see label()
    "brightness": N_("Brightness"),
    "led_budget_amps": N_("LED budget"),
    "dice_mode": N_("Dice"),
    "idle_timeout_s": N_("Idle show"),
    "bot_pace": N_("Bot pace"),
    "takeback": N_("Takeback"),
    "language": N_("Language"),
    "night": N_("Night mode"),
    "palette": N_("Colours"),
    "sound": N_("Sound"),
    # Translators: the setting whether the board asks the table for a word that mixes the dice.
    "dice_word": N_("Dice word"),
}
# What a guest may change in the middle of a game (the in-game menu's "Settings"), on a café's board
# too: nothing the operator sets up (the LED budget, the dice, the idle show). The operator's locks
# still hold: the brightness never goes above the operator's cap (BoardApp.choices).
IN_GAME = ("language", "bot_pace", "takeback", "brightness", "night", "sound", "palette")
# Seconds a bot waits before its roll or decision: after another bot's (or its own) step, and after
# a person's step, which leaves the person a moment to take it back (docs/board.md). At "step"
# a bot's roll or decision waits for OK (its decision right after its roll follows at "normal").
BOT_PACE_S: dict[str, tuple[float, float]] = {"slow": (2.0, 3.5), "normal": (0.8, 2.0), "fast": (0.3, 1.0)}
SHOWN = {  # shown through _()
    "slow": N_("slow"),
    "normal": N_("normal"),
    "fast": N_("fast"),
    "step": N_("step"),
    "roll": N_("this roll"),
    "game": N_("whole game"),
}


def label(name: str) -> str:
    """The setting's name in the active language."""
    return _(LABELS[name])


@dataclass(frozen=True)
class Settings:
    brightness: float = 0.7  # perceived level; the LEDs get 0.7 ** 2.2 = 46 % of full light
    led_budget_amps: float = 2.0
    dice_mode: str = "electronic"
    idle_timeout_s: int = 300  # 0 = never; then the LEDs play the attract animation
    bot_pace: str = "normal"  # BOT_PACE_S, or "step": each bot step waits for OK
    takeback: str = "roll"  # the house rule: take back decisions since the last "roll", or the whole "game"
    language: str = ""  # "" = the board's default language; else "en", "de" or "fr"
    night: bool = False  # night mode: the LEDs at the lowest step at most
    palette: str = "default"  # seat colours: "default" (colour-blind safe) or "contrast"
    sound: str = "soft"  # the buzzer's cues: "off", "soft" or "loud"
    dice_word: str = "seal"  # "seal": a first ROLL rolls; "ask": the table's word is asked first (docs/dice.md)

    # Any: as CHOICES
    def cycle(self, name: str, step: int, values: tuple[Any, ...] | None = None) -> Settings:
        """The next (step=1) or previous (step=-1) allowed value of `name` (among `values`, when
        this board allows fewer than CHOICES, e.g. a lower LED budget)."""
        values = CHOICES[name] if values is None else values
        current = getattr(self, name)
        index = values.index(current) if current in values else 0
        return replace(self, **{name: values[(index + step) % len(values)]})

    def shown(self, name: str) -> str:
        value = getattr(self, name)
        if name == "language":  # each language in its own name, whatever the active one
            from firmware.i18n import language

            return NAMES[value or language()]
        if name == "dice_mode":
            return {"electronic": _("electronic"), "physical": _("physical")}[value]
        if name == "brightness":
            return f"{round(value * 100)}%"
        if name == "night":
            return _("on") if value else _("off")
        if name == "palette":  # CB-safe: colour-blind safe (Okabe–Ito)
            return {"default": _("CB-safe"), "contrast": _("contrast")}[value]
        if name == "sound":
            return {"off": _("off"), "soft": _("soft"), "loud": _("loud")}[value]
        if name == "led_budget_amps":
            return f"{decimal(value)} A"
        if name == "idle_timeout_s":
            return _("never") if value == 0 else _("{n} min").format(n=value // 60) if value >= 60 else f"{value} s"
        if name == "dice_word":
            if value == "seal":  # the seal only: no word asked
                return _("off")
            # Translators: the dice word setting's value when the board asks the table for a word.
            return _("ask")
        if name in ("bot_pace", "takeback"):
            return _(SHOWN[value])
        return str(value)

    def bot_delay_s(self, after_person: bool) -> float:
        """How long a bot waits before its step ("step" waits for OK first, see BoardApp)."""
        return BOT_PACE_S.get(self.bot_pace, BOT_PACE_S["normal"])[1 if after_person else 0]

    @classmethod
    def load(cls, journal: SettingsStore | None, reset: list[str] | None = None) -> Settings:
        """Kept settings; a kept value that cannot be read, is of the wrong type or is not one
        of the allowed values falls back to its default, is logged, and its label is added to
        `reset` (for a note on the display)."""
        if journal is None:
            return cls()
        kept: dict[str, Any] = {}  # Any: each value checked against its field's CHOICES below
        for f in fields(cls):
            set_aside = len(journal.set_aside)
            value = _perceived(f.name, journal.get_setting(f.name, _UNSET))
            if value is _UNSET:  # never set, or unreadable (the journal set it aside and logged it)
                if len(journal.set_aside) > set_aside and reset is not None:
                    reset.append(LABELS[f.name])
            elif (
                type(value) in (int, float, str, bool)
                and value in CHOICES[f.name]
                and ((type(value) is bool) == (type(getattr(cls, f.name)) is bool))
            ):  # not True == 1.0
                kept[f.name] = value
            else:
                logging.getLogger("xtraboard.ui").warning(
                    "setting %s: kept value %r is not one of %s; using %r",
                    f.name,
                    value,
                    CHOICES[f.name],
                    getattr(cls, f.name),
                )
                if reset is not None:
                    reset.append(LABELS[f.name])
        return cls(**kept)

    def save(self, journal: SettingsStore | None) -> None:
        if journal is not None:
            for name, value in asdict(self).items():
                journal.set_setting(name, value)


def _perceived(name: str, value: Any) -> Any:  # Any: a kept JSON value; the caller checks it
    """A brightness kept as a share of light (before levels were perceived): the level that looks
    the same, rounded down to a step, so an update never makes the LEDs brighter."""
    if name != "brightness" or type(value) not in (int, float) or value in CHOICES[name] or not 0 < value <= 1:
        return value
    return max([c for c in CHOICES[name] if c <= value ** (1 / 2.2)] or CHOICES[name][:1])


def spoken(settings: Settings, operator: OperatorSettings, default: str = "en") -> str:
    """The language the board speaks: the guests' choice, else the operator's, else `default`
    (the board description's `language`).

    >>> spoken(Settings(), OperatorSettings(language="fr"), "de")
    'fr'
    """
    return settings.language or operator.language or default


# --- the operator's settings (the café's; the operator menu, firmware/ui/operator_menu.py) ---------------
OPERATOR_KEY = "operator"  # one JSON object in the journal's settings
BRIGHTNESS_CAPS = (0.4, 0.55, 0.7, 0.85, 1.0)  # perceived levels, as Settings.brightness
LANGUAGES = ("", *SPOKEN)  # "": the board description's `language` (firmware/i18n.py)


@dataclass(frozen=True)
class OperatorSettings:
    """What only the operator sets: the LEDs' brightness never goes above `brightness_cap`,
    `language` the café's language ("": the board description's; a guest's own choice in the
    settings menu wins), `games` the games the main menu offers (None: all of them), `keep_names`
    whether the names entered and the last table are kept for the next group
    (firmware/ui/table_memory.py)."""

    brightness_cap: float = 1.0
    language: str = ""
    games: tuple[str, ...] | None = None
    keep_names: bool = False

    def offered(self, names: tuple[str, ...] | list[str]) -> list[str]:
        """The games of `names` the main menu offers.

        >>> OperatorSettings(games=("extra",)).offered(["exxtra", "levelx", "extra"])
        ['extra']
        """
        return [n for n in names if self.games is None or n in self.games]

    def toggle_game(self, name: str, names: tuple[str, ...] | list[str]) -> OperatorSettings:
        """Offer `name` or stop offering it; the last game offered stays (the menu needs one)."""
        offered = self.offered(names)
        if name in offered:
            offered = offered if len(offered) == 1 else [n for n in offered if n != name]
        else:
            offered = [n for n in names if n in offered or n == name]
        return replace(self, games=None if len(offered) == len(names) else tuple(offered))

    @classmethod
    def load(cls, journal: SettingsStore | None) -> OperatorSettings:
        """Kept operator settings; a value that is not allowed falls back to its default (logged)."""
        kept = journal.get_setting(OPERATOR_KEY, None) if journal is not None else None
        if not isinstance(kept, dict):
            return cls()
        from firmware.games import game_names

        values: dict[str, Any] = {}  # Any: each value checked against its field just below
        cap, language, games = kept.get("brightness_cap"), kept.get("language"), kept.get("games")
        cap = cap if isinstance(cap, (int, float)) and not isinstance(cap, bool) else None
        if cap is not None and cap in BRIGHTNESS_CAPS:
            values["brightness_cap"] = cap
        elif cap is not None and 0 < cap <= 1:  # a cap kept before levels were perceived
            values["brightness_cap"] = max([c for c in BRIGHTNESS_CAPS if c <= cap ** (1 / 2.2)] or BRIGHTNESS_CAPS[:1])
        if language in LANGUAGES:
            values["language"] = language
        if isinstance(games, list) and games and all(g in game_names() for g in games):
            values["games"] = tuple(games)
        if isinstance(kept.get("keep_names"), bool):
            values["keep_names"] = kept["keep_names"]
        refused = {k: v for k, v in kept.items() if k not in values and v is not None}
        if refused:  # e.g. a game no longer known: its default is used
            logging.getLogger("xtraboard.ui").warning(
                "operator settings: kept values not allowed, using defaults: %r", refused
            )
        return cls(**values)

    def save(self, journal: SettingsStore | None) -> None:
        if journal is not None:
            journal.set_setting(
                OPERATOR_KEY,
                {
                    "brightness_cap": self.brightness_cap,
                    "language": self.language,
                    "games": None if self.games is None else list(self.games),
                    "keep_names": self.keep_names,
                },
            )
