"""The games the board plays: each describes itself once, in a `GameSpec`, and everything else —
menus, records, high scores, selfplay, benchmarks, scenarios, bots — asks this registry.

A built-in game is one line in `BUILTIN`: its package, `firmware/games/<game>/`, whose
`__init__.py` defines its `SPEC`. Anything else
(a plug-in, a test's toy game) calls `register_game(spec)`.

    >>> find_game("levelx").title
    'LEVEL X'
    >>> [spec.name for spec in games()]
    ['exxtra', 'levelx', 'extra']
    >>> find_game("chess")
    Traceback (most recent call last):
    ...
    firmware.errors.RecordError: unknown game 'chess': expected one of exxtra, levelx, extra

Fields that name other parts (the screens, the bots, the rules page) may be given as
"module" / "module:attribute" strings, resolved on first use, so that reading a record or
running an engine never imports the display code.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from functools import cached_property
from importlib import import_module
from typing import TYPE_CHECKING, Any

from firmware.errors import N_, RecordError, Text

if TYPE_CHECKING:
    from firmware.games.base import Game

# One line per built-in game: the package holding its SPEC. Seating order in menus follows it.
BUILTIN: tuple[str, ...] = (
    "firmware.games.exxtra",
    "firmware.games.levelx",
    "firmware.games.extra",
)

Policy = Callable[..., Any]  # (game, legal_decisions, rng) -> one of legal_decisions


@dataclass(frozen=True)
class Ranking:
    """How a game's finished results rank in the board's records.

    `score`: the result key holding one integer per seat ("scores", or EXXTRA's "positions").
    `high_scores`: the best single scores rank; False for a race, where only wins count.
    `solo_record`: one-player games keep a personal record. `kids_table`: the children's
    variant ranks on a table of its own.
    """

    score: str = "scores"
    high_scores: bool = True
    solo_record: bool = False
    kids_table: bool = False


@dataclass(frozen=True)
class GameSpec:
    """Everything the board needs to know about one game.

    `engine`: the rules engine class (its `name`, `title` and player range are the game's).
    `ui`: the game's screens — a module or object offering the contract of
    `firmware.ui.gamescreens` (options, draw, scene, animation, on_roll, result_lines, RULES).
    `bots`: bot level → policy `(game, legal_decisions, rng) -> decision`, easiest first.
    `ranking`: how results rank for high scores. `rules`: the rules page's text (default: the
    ui's `RULES`). `seat_options`: extra kinds of seat the setup menu offers (e.g. "kids").
    `bench_players`: the seat count benchmarks use (default: 4 within the game's range).
    """

    engine: type[Game]
    ui: Any
    bots: Mapping[str, Policy | str]
    ranking: Ranking = field(default_factory=Ranking)
    rules: str | None = None
    seat_options: tuple[str, ...] = ()
    bench_players: int | None = None

    @property
    def name(self) -> str:
        return self.engine.name

    @property
    def title(self) -> str:
        return self.engine.title

    @property
    def players(self) -> range:
        return range(self.engine.min_players, self.engine.max_players + 1)

    @property
    def levels(self) -> tuple[str, ...]:
        return tuple(self.bots)

    @cached_property
    def dice(self) -> tuple[tuple[Any, ...], ...]:
        """The faces of each die of a roll (every game here rolls the same dice all game)."""
        return self.engine([f"P{i}" for i in range(self.players.start)]).dice()

    @cached_property
    def view(self) -> Any:
        """The game's screens (imported on first use: engines never need them)."""
        return _resolve(self.ui)

    def policy(self, level: str) -> Policy:
        if level not in self.bots:
            raise RecordError(Text(N_("{game} has no bot level {level!r}: expected one of {levels}"), game=self.title,
                                   level=level, levels=", ".join(self.bots)))
        return _resolve(self.bots[level])

    @property
    def rules_text(self) -> str:
        return str(_resolve(self.rules)) if self.rules else str(self.view.RULES)

    @property
    def benchmark_players(self) -> int:
        if self.bench_players is not None:
            return self.bench_players
        return min(max(4, self.players.start), self.players.stop - 1)


_REGISTRY: dict[str, GameSpec] = {}
_loaded = False


def register_game(spec: GameSpec) -> GameSpec:
    """Add a game (or replace one of the same name); returns the spec."""
    _load_builtin()
    _REGISTRY[spec.name] = spec
    return spec


def unregister_game(name: str) -> None:
    """Remove a registered game (tests' toy games); unknown names are ignored."""
    _REGISTRY.pop(name, None)


def games() -> list[GameSpec]:
    """Every game, built-in ones first in their order."""
    _load_builtin()
    return list(_REGISTRY.values())


def game_names() -> tuple[str, ...]:
    return tuple(spec.name for spec in games())


def find_game(name: Any) -> GameSpec:
    """The spec of a record's `game` name; RecordError (a ValueError) names the known ones."""
    _load_builtin()
    spec = _REGISTRY.get(name) if isinstance(name, str) else None
    if spec is None:
        raise RecordError(Text(N_("unknown game {name!r}: expected one of {games}"), name=name, games=", ".join(_REGISTRY)))
    return spec


def _load_builtin() -> None:
    global _loaded
    if not _loaded:
        _loaded = True
        for module in BUILTIN:
            spec = import_module(module).SPEC
            _REGISTRY.setdefault(spec.name, spec)


def _resolve(target: Any) -> Any:
    """"pkg.module" → the module; "pkg.module:attr" → its attribute; anything else as it is."""
    if not isinstance(target, str):
        return target
    module, _, attribute = target.partition(":")
    loaded = import_module(module)
    return getattr(loaded, attribute) if attribute else loaded
