"""The board's settings: what the menu can change, their allowed values, and how they are kept
(the journal's key/value store, when there is one)."""

from __future__ import annotations

from dataclasses import asdict, dataclass, fields, replace
from typing import Any

CHOICES: dict[str, tuple[Any, ...]] = {
    "brightness": (0.1, 0.2, 0.3, 0.5, 0.7, 1.0),
    "led_budget_amps": (0.5, 1.0, 1.5, 2.0, 3.0),
    "dice_mode": ("electronic", "physical"),
    "idle_timeout_s": (0, 60, 120, 300, 600),
    "bot_delay_s": (0.3, 0.6, 1.0, 2.0),
}
LABELS = {
    "brightness": "Brightness",
    "led_budget_amps": "LED budget",
    "dice_mode": "Dice",
    "idle_timeout_s": "Idle show",
    "bot_delay_s": "Bot pace",
}


@dataclass(frozen=True)
class Settings:
    brightness: float = 0.5
    led_budget_amps: float = 2.0
    dice_mode: str = "electronic"
    idle_timeout_s: int = 300  # 0 = never; then the LEDs play the attract animation
    bot_delay_s: float = 0.6

    def cycle(self, name: str, step: int) -> Settings:
        """The next (step=1) or previous (step=-1) allowed value of `name`."""
        values = CHOICES[name]
        current = getattr(self, name)
        index = values.index(current) if current in values else 0
        return replace(self, **{name: values[(index + step) % len(values)]})

    def shown(self, name: str) -> str:
        value = getattr(self, name)
        if name == "brightness":
            return f"{round(value * 100)}%"
        if name == "led_budget_amps":
            return f"{value:g} A"
        if name == "idle_timeout_s":
            return "never" if value == 0 else f"{value // 60} min" if value >= 60 else f"{value} s"
        if name == "bot_delay_s":
            return f"{value:g} s"
        return str(value)

    @classmethod
    def load(cls, journal: Any) -> Settings:
        """Kept settings; an unknown or out-of-range kept value falls back to its default."""
        if journal is None:
            return cls()
        kept = {}
        for f in fields(cls):
            value = journal.get_setting(f.name)
            if value in CHOICES[f.name]:
                kept[f.name] = value
        return cls(**kept)

    def save(self, journal: Any) -> None:
        if journal is not None:
            for name, value in asdict(self).items():
                journal.set_setting(name, value)
