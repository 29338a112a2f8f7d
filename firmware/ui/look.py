"""What a frame is drawn with besides the app's state: the seat colours' palette, the language
and the time. A render is given one and draws in it alone, so the LED frame and the OLED image
computed twice from the same state and the same `Look` are equal, whatever the process's
language or another board's palette.

    >>> from firmware.i18n import _
    >>> from firmware.ui.colours import PLAYER_COLOURS
    >>> look = Look(palette="contrast", language="de", now=0.0)
    >>> with look.applied(): _("Settings"), PLAYER_COLOURS["blue"]
    ('Einstellungen', (0, 0, 255))
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping
from contextlib import contextmanager
from dataclasses import dataclass
from typing import Protocol

from PIL import Image

from firmware.hardware.leds import CellColours
from firmware.i18n import speaking
from firmware.ui.colours import painting
from firmware.ui.settings import Settings


class Drawn(Protocol):
    """What a render draws: the app (firmware.ui.app.BoardApp)."""

    settings: Settings
    language: str

    def frame(self) -> Mapping[str, CellColours]: ...

    def image(self, size: tuple[int, int], mode: str = "1") -> Image.Image: ...


@dataclass(frozen=True)
class Look:
    palette: str  # firmware.ui.colours.PALETTES
    language: str  # firmware.i18n.LANGUAGES (or the pseudo-locale)
    now: float  # the loop's clock: which colour a multi-colour cell shows

    @classmethod
    def of(cls, app: Drawn, now: float) -> Look:
        """The look the app's settings ask for, at `now`."""
        return cls(app.settings.palette, app.language, now)

    @contextmanager
    def applied(self) -> Iterator[None]:
        """`_()` and PLAYER_COLOURS speak and paint this look inside the block (this context only)."""
        with speaking(self.language), painting(self.palette):
            yield


def frame_of(app: Drawn, look: Look) -> Mapping[str, CellColours]:
    """The LED frame of the app's state, drawn in `look`."""
    with look.applied():
        return app.frame()


def image_of(app: Drawn, look: Look, size: tuple[int, int], mode: str = "1") -> Image.Image:
    """The display image of the app's state, drawn in `look`."""
    with look.applied():
        return app.image(size, mode)
