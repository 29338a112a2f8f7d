"""The games the board plays: each describes itself once, in a `GameSpec`, and everything else —
menus, records, high scores, selfplay, benchmarks, scenarios, bots — asks this registry.

A built-in game is one line in `BUILTIN`: its package, `firmware/games/<game>/`, whose
`__init__.py` defines its `SPEC`. A plug-in game is a package defining `SPEC` the same way,
anywhere on the import path, named in the environment variable `XTRABOARD_GAMES` (module
paths, comma-separated; `xtraboard --game-module MODULE` sets it) or registered in-process
with `register_game(spec)`.

    >>> find_game("levelx").title
    'LEVEL X'
    >>> [spec.name for spec in games()]
    ['exxtra', 'levelx', 'extra']
    >>> find_game("chess")
    Traceback (most recent call last):
    ...
    firmware.errors.RecordError: unknown game 'chess': expected one of exxtra, levelx, extra

Fields that name other parts (the bots, the hint's reason) may be given as "module:attribute"
strings, resolved on first use; the view (the game's screens) is always such a string, loaded by
`firmware.ui.gameview.game_view`, so that reading a record or running an engine never imports
the display code.
"""

from __future__ import annotations

import os
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from functools import cached_property
from importlib import import_module
from typing import TYPE_CHECKING, Any

from firmware.errors import N_, ConfigError, RecordError, Text

from firmware.games.layout import BOARD_CELLS, CellGroup

if TYPE_CHECKING:
    from firmware.games.base import Decision, Dice, Game
    from firmware.games.lesson import Lesson
    from firmware.games.words import Words

# One line per built-in game: the package holding its SPEC. Seating order in menus follows it.
BUILTIN: tuple[str, ...] = (
    "firmware.games.exxtra",
    "firmware.games.levelx",
    "firmware.games.extra",
)

GAMES_ENV = "XTRABOARD_GAMES"  # plug-in games: their packages' module paths, comma-separated

# The arguments are the game's own engine and decisions (each game's functions name them), so
# the parameters are left open; what comes back is fixed.
Policy = Callable[..., "Decision"]  # (game, legal_decisions, rng) -> one of legal_decisions
HintReason = Callable[..., str]  # (game, decision) -> why the strongest bot picks it, in a few words
Evaluate = Callable[..., list[float]]  # (game, decisions) -> strong's estimate of the final outcome after each
Outcome = Callable[..., float]  # (finished game, player) -> the outcome `evaluate` estimates


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
    `view`: where its screens are, "package.module:ATTRIBUTE", a `firmware.ui.gameview.GameView`
    (loaded only when drawn). `bots`: bot level → policy `(game, legal_decisions, rng) ->
    decision` (or its "module:attribute"), easiest first; `anytime`: the levels whose policy also
    takes `deadline=` (a `firmware.bots.Deadline`) and answers by then. `ranking`: how results rank for high
    scores. `hint`: `(game, decision) -> str`, why the strongest level picks a decision (the
    board's hint; None: the hint gives no reason). `seat_options`: extra kinds of seat the setup
    menu offers (e.g. "kids"). `optional_step_keys`: keys a record's step may hold besides those
    the step writes itself. `baseline`: the arena's fixed yardstick policy (not a level players pick; None: the game has
    none). `lesson`: the game's lesson, a `firmware.games.lesson.Lesson` or its
    "module:attribute" (the board's "Learn" entry; None: the game has none). `bench_players`: the seat count benchmarks use (default: 4 within the
    game's range). `figures`: `record -> list[FigurePage]` (or its "module:attribute"), the
    finished game's figures for the review (`firmware.games.figures`; None: the game has none).
    `evaluate`: `(game, decisions) -> list[float]`, the strongest level's estimate, for the
    deciding player, of the game's final outcome after each decision, and `outcome`:
    `(finished game, player) -> float`, that outcome, in `unit` (a `N_` text: "pts",
    "spaces"); the hint's figure, `xtraboard analyse` and the Key moments come from them,
    calibrated by `firmware.coach` (None: the game has no coach). `cells`: the groups of LED
    cells the game lights besides the board's dice and seats (`firmware.games.layout.CellGroup`):
    every board description maps them, the simulator and the self-test show them. `words`: how
    the game says what a step did, a `firmware.games.words.Words` or its "module:attribute"
    (every screen, log and page that words a move asks it; None: the game's moves go unsaid).
    """

    engine: type[Game]
    view: str
    bots: Mapping[str, Policy | str]
    anytime: frozenset[str] = frozenset()
    ranking: Ranking = field(default_factory=Ranking)
    hint: HintReason | str | None = None
    seat_options: tuple[str, ...] = ()
    optional_step_keys: frozenset[str] = frozenset()
    bench_players: int | None = None
    baseline: Policy | str | None = None
    evaluate: Evaluate | str | None = None
    outcome: Outcome | str | None = None
    unit: str = N_("pts")
    lesson: Lesson | str | None = None  # or its "module:attribute"
    # (record) -> list[firmware.games.figures.FigurePage]; not imported here: figures reads the registry
    figures: Callable[..., Sequence[object]] | str | None = None
    cells: tuple[CellGroup, ...] = ()
    words: Words | str | None = None

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
    def dice(self) -> Dice:
        """The faces of each die of a roll (every game here rolls the same dice all game)."""
        return self.engine([f"P{i}" for i in range(self.players.start)]).dice()

    def baseline_policy(self) -> Policy | None:
        """The arena's yardstick policy (`baseline`), loaded; None when the game has none."""
        return None if self.baseline is None else _resolve(self.baseline)

    def policy(self, level: str) -> Policy:
        if level not in self.bots:
            raise RecordError(
                Text(
                    N_("{game} has no bot level {level!r}: expected one of {levels}"),
                    game=self.title,
                    level=level,
                    levels=", ".join(self.bots),
                )
            )
        policy: Policy = _resolve(self.bots[level])
        return policy

    def lesson_script(self) -> Lesson | None:
        """The game's lesson (`firmware.games.lesson.Lesson`), loaded; None when it has none."""
        return None if self.lesson is None else _resolve(self.lesson)

    @property
    def figures_function(self) -> Callable[..., Sequence[object]] | None:
        """The game's figures function (`figures`), loaded; None when the game has none."""
        return None if self.figures is None else _resolve(self.figures)

    @property
    def wording(self) -> Words:
        """The game's `words`, loaded; the silent base `Words` when it names none."""
        from firmware.games.words import SILENT, Words

        words = SILENT if self.words is None else _resolve(self.words)
        if not isinstance(words, Words):
            raise ConfigError(
                Text(N_("the words of game {game!r}, {words!r}, are not a Words"), game=self.name, words=self.words)
            )
        return words

    @property
    def hint_reason(self) -> HintReason | None:
        """The function giving the reason of the strongest level's decision, if the game has one."""
        return None if self.hint is None else _resolve(self.hint)

    @property
    def evaluator(self) -> tuple[Evaluate, Outcome] | None:
        """The game's `evaluate` and `outcome`, loaded; None when it has no coach (both are needed)."""
        if self.evaluate is None or self.outcome is None:
            return None
        return _resolve(self.evaluate), _resolve(self.outcome)

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


def board_layout() -> tuple[CellGroup, ...]:
    """Every group of cells a board description maps: the games' (in their order) and the
    board's own dice and seats. Two games may share a group only by declaring the same one."""
    groups: dict[str, tuple[CellGroup, str]] = {}
    for spec in games():
        for group in spec.cells:
            known, owner = groups.setdefault(group.name, (group, spec.title))
            if known != group:
                raise ConfigError(
                    Text(
                        N_("{game} declares cells {cells!r} unlike {other}'s; expected another name or the same group"),
                        game=spec.title,
                        cells=group.name,
                        other=owner,
                    )
                )
    for group in BOARD_CELLS:
        if group.name in groups:
            raise ConfigError(
                Text(
                    N_("{game} declares cells {cells!r}, the board's own; expected another name"),
                    game=groups[group.name][1],
                    cells=group.name,
                )
            )
        groups[group.name] = (group, "")
    return tuple(group for group, _owner in groups.values())


def cell_owners() -> dict[str, str]:
    """The title of a game needing each group of cells ("" for the board's own)."""
    owners = {group.name: spec.title for spec in reversed(games()) for group in spec.cells}
    return {group.name: owners.get(group.name, "") for group in board_layout()}


def game_names() -> tuple[str, ...]:
    return tuple(spec.name for spec in games())


def find_game(name: object) -> GameSpec:
    """The spec of a record's `game` name; RecordError (a ValueError) names the known ones."""
    _load_builtin()
    spec = _REGISTRY.get(name) if isinstance(name, str) else None
    if spec is None:
        raise RecordError(
            Text(N_("unknown game {name!r}: expected one of {games}"), name=name, games=", ".join(_REGISTRY))
        )
    return spec


def load_game_module(module: str) -> GameSpec:
    """Import the package `module` of a plug-in game and register its `SPEC`; ConfigError (one
    line) when it cannot be imported or has no GameSpec called SPEC."""
    try:
        spec = getattr(import_module(module), "SPEC", None)
    except ImportError as exc:
        raise ConfigError(
            Text(N_("game module {module!r} cannot be imported: {error}"), module=module, error=exc)
        ) from exc
    if not isinstance(spec, GameSpec):
        raise ConfigError(Text(N_("game module {module!r} defines no SPEC (a GameSpec)"), module=module))
    return register_game(spec)


def plugin_modules(environ: Mapping[str, str] | None = None) -> list[str]:
    """The plug-in games' modules named in `XTRABOARD_GAMES`.

    >>> plugin_modules({"XTRABOARD_GAMES": "examples.highdie, my.game"})
    ['examples.highdie', 'my.game']
    """
    value = (os.environ if environ is None else environ).get(GAMES_ENV, "")
    return [module.strip() for module in value.split(",") if module.strip()]


def _load_builtin() -> None:
    global _loaded
    if not _loaded:
        _loaded = True
        for module in BUILTIN:
            spec = import_module(module).SPEC
            _REGISTRY.setdefault(spec.name, spec)
        for module in plugin_modules():
            load_game_module(module)


def _resolve(target: object) -> Any:  # Any: found by name at run time; the caller's field type says what
    """ "pkg.module:attr" → that attribute; anything else (a function) as it is."""
    if not isinstance(target, str):
        return target
    module, _, attribute = target.partition(":")
    loaded = import_module(module)
    return getattr(loaded, attribute) if attribute else loaded
