"""A finished game in figures: what players talk about after the game (the review's pages).

A game may name, in its `GameSpec.figures`, a pure function `record -> list[FigurePage]` (or its
"module:attribute"): the record ([records.md](../../docs/records.md)) in, the figures out, each
one a text per seat. A game without it (a plug-in game) simply has no figures; the board's
review shows its other pages.

    >>> from firmware.games.exxtra.figures import figures
    >>> record = {"format": "xtraboard-record", "version": 2, "game": "exxtra",
    ...           "players": [{"name": "A"}, {"name": "B"}, {"name": "C"}],
    ...           "steps": [{"roll": ["7", "X"]}, {"do": "reroll"}, {"roll": ["X", "1"]}]}
    >>> [(figure.label, figure.values) for figure in figures(record)[0].figures][:3]
    [('Turns', ('1', '0', '0')), ('Re-rolls', ('1', '0', '0')), ("X's rolled", ('2', '0', '0'))]
"""

from __future__ import annotations

from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, cast

if TYPE_CHECKING:
    from firmware.games.base import Event, Game, GameRecord, Step

FiguresOf = Callable[["GameRecord"], "list[FigurePage]"]


@dataclass(frozen=True)
class Figure:
    """One figure of a finished game: `label`, an English text marked with `N_()` (translated
    where it is shown), and `values`, its value per seat as a short text ("14", "3 1 2 0 4 1")."""

    label: str
    values: tuple[str, ...]


@dataclass(frozen=True)
class FigurePage:
    """Figures shown together, one page per seat: `title` (marked with `N_()`), the figures."""

    title: str
    figures: tuple[Figure, ...]


def figure(label: str, values: Sequence[object]) -> Figure:
    """A Figure of `values` written as text (a sequence of numbers as "3 1 2", none as "-")."""
    return Figure(label, tuple(_text(value) for value in values))


def _text(value: object) -> str:
    if isinstance(value, (list, tuple)):
        return " ".join(map(str, value)) if value else "-"
    return str(value)


def replay_events(record: GameRecord) -> Iterator[tuple[Game, Step, Sequence[Event]]]:
    """Replay a record step by step: (the game after the step, the step, its events). A record
    that does not replay raises RecordError, as every reader does."""
    from firmware.records import header_of

    cls, players = header_of(record)
    game = cls.for_record(players, record["version"])
    for data in record["steps"]:
        step = cls.parse_step(data)
        game.apply(step)
        yield game, step, game.events


def figures_of(record: GameRecord) -> list[FigurePage]:
    """The figures of a finished game's record, by its game's `GameSpec.figures` ([] for a game
    without them)."""
    from firmware.games.registry import find_game

    spec = find_game(record.get("game"))
    function = spec.figures_function
    # a game's figures function gives FigurePages (GameSpec.figures)
    return [] if function is None else cast(list[FigurePage], list(function(record)))
