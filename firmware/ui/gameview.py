"""What is particular to one game on the board: its screens, LEDs, words and rules page, behind
one typed base class, `GameView`. Each game's `firmware/games/<game>/screens.py` defines a
subclass (taking it, like all it uses of `firmware/ui`, from `firmware.ui.kit`) and an instance
of it, named in the game's registry entry by module path
(`GameSpec.view = "firmware.games.<game>.screens:VIEW"`) so that engines, records and bots never
import display code; `game_view(name)` loads it on first use.

Everything the board asks of a game goes through these methods: the play screen, the result
screen, the rules page, the legend, the fleet's round. What a move did is the game's `Words`
(`firmware.games.words`), named by its registry entry beside the view. No
caller probes a view for optional attributes: every hook has a default here.
"""

from __future__ import annotations

from abc import ABC, abstractmethod
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from functools import cache
from importlib import import_module
from typing import TYPE_CHECKING, ClassVar

from firmware.errors import N_, ConfigError, Text
from firmware.games.registry import find_game
from firmware.i18n import _
from firmware.ui.animation import Frame
from firmware.ui.colours import LedFrame as LedFrame  # the kit's, for the views' hooks
from firmware.ui.draw import Canvas
from firmware.ui.intents import PlaySurface as PlaySurface  # the kit's, for the views' hooks
from firmware.ui.screen import Choice, Option

from firmware.games.base import Events as Events  # the kit's, for the views' hooks

if TYPE_CHECKING:
    from firmware.games.base import Game, Step
    from firmware.table import Table
    from firmware.ui.intents import App

PageDrawer = Callable[[Canvas, str], None]  # draws a whole result page; str = "2/5" for its title


@dataclass(frozen=True)
class Records:
    """What the board's records say of a finished game, looked up for the result screen so that a
    view never reads the journal. `solo_record`: a one-player game that set the board's best solo
    total (games whose ranking keeps one)."""

    solo_record: bool = False


@dataclass(frozen=True)
class ResultPage:
    """One page of the result screen: a name (for tests and scenarios), its drawer, and what
    OK does there (`ok(app)`, True when it did something; None: OK jumps to "What next?")."""

    name: str
    draw: PageDrawer
    ok: Callable[[App], bool] | None = None


class GameView(ABC):
    """The screens of one game. `app` is the board as screens see it
    (`firmware.ui.intents.App`), `table` the `firmware.table.Table` being played, `play` the play
    screen (`PlaySurface`). A view never imports `firmware.ui.app` and never touches the journal
    or the engine's state directly: it asks for intents (`app.step`, `app.push`, ...).

    A subclass **must** override:

    - `options(app, table)`: the pending person's decision as `Option(label, step)`s (or
      `Option(label, Open(screen_factory))` for a sub-screen), legal ones only;
    - `draw(canvas, app, table, play)`: the play screen;
    - `result_lines(table, records)`: the result in a few lines (the standings page unless
      `result_pages` says otherwise); `records` (`Records`) what the journal says of it.

    A subclass **may** override (the default in brackets):

    - `rules`: the rules page's paragraphs, each marked with `N_()` for the catalogs
      (none: an empty page); `rules_paragraphs()` translates them;
    - `scene(app, table, frame)`: the game's LED cells (none beyond the seats and dice);
    - `animation(app, table, events)`: the frames showing what the last step did (none);
    - `on_roll(app, table, play)`: ROLL while a decision is pending (nothing);
    - `choice(options)`: the `Choice` holding the options, e.g. one made in stages
      (`Choice(options)`: a flat list);
    - `on_back(app, table, play)`: a short BACK on the play screen; True when the view used it
      (False: BACK takes back the last decision);
    - `same_choice(table, value, step)`: an option's value that plays `step` although it is
      not equal to it (hints and benches point at it) (False);
    - `legend()`: the one-line legend of the play screen while a person decides
      ("<> choose  OK pick");
    - `log_by_round`: the round log holds everyone's moves of the latest round (EXTRA!: every
      choice on this roll) instead of the moves since the asked player's own (False);
    - `round_of(game)`: the round being played, counted from 1, for the fleet (None: unknown);
    - `result_pages(table, records)`: the result screen's pages, standings first
      (`firmware.ui.play.ranked_page`), then the game's own (final board, sheets)
      ([]: the standings of `result_lines`). The screen adds "Rematch" / "Menu" itself.
    """

    rules: ClassVar[Sequence[str]] = ()
    log_by_round: ClassVar[bool] = False

    # --- must ------------------------------------------------------------------------------
    @abstractmethod
    def options(self, app: App, table: Table) -> list[Option]:
        """The pending person's legal choices."""

    @abstractmethod
    def draw(self, canvas: Canvas, app: App, table: Table, play: PlaySurface) -> None:
        """Draw the play screen."""

    @abstractmethod
    def result_lines(self, table: Table, records: Records) -> list[str]:
        """The finished game's result in a few lines."""

    # --- may -------------------------------------------------------------------------------
    def rules_paragraphs(self) -> list[str]:
        """The rules page's paragraphs in the active language."""
        return [_(paragraph) for paragraph in self.rules]

    def scene(self, app: App, table: Table, frame: LedFrame) -> None:
        """Set the game's LED cells in `frame` (cell name → colour or list of colours)."""

    def animation(self, app: App, table: Table, events: Events) -> list[Frame]:
        """The frames that show what the last step's `events` did."""
        return []

    def on_roll(self, app: App, table: Table, play: PlaySurface) -> None:
        """ROLL pressed while a decision is pending (or while bots play)."""

    def choice(self, options: list[Option]) -> Choice:
        """The choice the play screen offers `options` in."""
        return Choice(options)

    def on_back(self, app: App, table: Table, play: PlaySurface) -> bool:
        """A short BACK on the play screen: True when the view used it."""
        return False

    def same_choice(self, table: Table, value: object, step: Step) -> bool:
        """True when the option `value` plays `step` though it is not equal to it."""
        return False

    def legend(self) -> str:
        """The play screen's one-line legend while a person decides (21 columns)."""
        return _("<> choose  OK pick")

    def round_of(self, game: Game) -> int | None:
        """The round `game` is in, counted from 1; None when the game has no rounds."""
        return None

    def result_pages(self, table: Table, records: Records) -> list[ResultPage]:
        """The result screen's pages; [] for the standings of `result_lines` alone."""
        return []


def game_view(name: str) -> GameView:
    """The view of game `name`, loaded from the module path its registry entry names
    (`"package.module:ATTRIBUTE"`, ATTRIBUTE defaulting to `VIEW`); ConfigError when that is not
    a `GameView`."""
    return _load(name, find_game(name).view)


@cache
def _load(name: str, path: str) -> GameView:
    module, _sep, attribute = path.partition(":")
    view = getattr(import_module(module), attribute or "VIEW", None)
    if not isinstance(view, GameView):
        raise ConfigError(Text(N_("the view of game {game!r}, {path!r}, is not a GameView"), game=name, path=path))
    return view
