"""Game records (docs/records.md): read, validate, replay and write them.

    >>> game = replay_record({"format": "xtraboard-record", "version": 1, "game": "extra",
    ...                       "players": [{"name": "Marie"}], "steps": []})
    >>> game.pending()
    Pending(kind='roll', player=0)

Every reader goes through `replay_record`, so a record that loads is a record that replays.
"""

from __future__ import annotations

import json
import sys
from collections.abc import Collection, Mapping
from pathlib import Path
from typing import Any

from firmware.errors import IllegalStepError, RecordError
from firmware.games import Game, Player, game_class, game_names

FORMAT = "xtraboard-record"
VERSION = 1
RECORD_KEYS = ("format", "version", "game", "players", "steps", "result", "dice", "notes")
DICE_KEYS = ("scheme", "commit", "seed", "physical")  # the optional dice block (docs/dice.md)
PLAYER_KEYS = ("name", "bot", "kids")
# Keys a step may hold besides those its own kind writes (EXTRA!'s `column` may be null or left out).
OPTIONAL_STEP_KEYS = {"extra": frozenset({"column"})}


def header_of(record: Mapping[str, Any]) -> tuple[type[Game], list[Player]]:
    """The engine class and players of a record, after checking its top-level keys."""
    if not isinstance(record, Mapping):
        raise RecordError(f"a record must be a JSON object, not {type(record).__name__}")
    if record.get("format") != FORMAT:
        raise RecordError(f"'format' must be {FORMAT!r}, not {_show(record.get('format'))}")
    _check_keys(record, RECORD_KEYS, "the record")
    version = record.get("version")
    if type(version) is not int or version != VERSION:  # not True, not 1.0: a format is exact
        raise RecordError(f"'version' must be the integer {VERSION}, not {_show(version)}")
    if record.get("game") not in game_names():
        raise RecordError(f"'game' must be one of {', '.join(game_names())}, not {_show(record.get('game'))}")
    players = record.get("players")
    if not isinstance(players, list):
        raise RecordError(f"'players' must be a list of players, not {_show(players)}")
    if not isinstance(record.get("steps"), list):
        raise RecordError(f"'steps' must be a list, not {_show(record.get('steps'))}")
    for player in players:
        if isinstance(player, Mapping):
            _check_keys(player, PLAYER_KEYS, f"player {_show(player.get('name'))}")
    if "dice" in record:
        _check_dice(record["dice"])
    notes = record.get("notes", [])
    if not isinstance(notes, list) or any(not isinstance(note, str) for note in notes):
        raise RecordError(f"'notes' must be a list of texts, not {_show(notes)}")
    return game_class(record["game"]), [Player.from_json(p) for p in players]


def _check_dice(dice: Any) -> None:
    """The dice block: an object of DICE_KEYS; `commit` and `seed` text, `physical` true or false."""
    if not isinstance(dice, Mapping):
        raise RecordError(f"'dice' must be an object, not {_show(dice)}")
    _check_keys(dice, DICE_KEYS, "'dice'")
    for key in ("scheme", "commit", "seed"):
        if key in dice and not isinstance(dice[key], str):
            raise RecordError(f"'dice' {key!r} must be text, not {_show(dice[key])}")
    if "physical" in dice and type(dice["physical"]) is not bool:
        raise RecordError(f"'dice' 'physical' must be true or false, not {_show(dice['physical'])}")


def replay_record(record: Mapping[str, Any]) -> Game:
    """Rebuild the game a record describes; RecordError names the first bad step by its index."""
    cls, players = header_of(record)
    try:
        game = cls(players)
    except IllegalStepError as exc:
        raise RecordError(str(exc)) from exc
    optional = OPTIONAL_STEP_KEYS.get(cls.name, frozenset())
    for index, data in enumerate(record["steps"]):
        try:
            step = cls.parse_step(data)
            # The engines read the keys they know; a record must hold nothing else.
            _check_keys(data, set(step.to_json()) | optional, "this step")
            game.apply(step)
        except IllegalStepError as exc:
            raise RecordError(f"illegal {_show(data)}: {_cut(str(exc), 200)}", index) from exc
        except RecordError as exc:
            raise RecordError(_cut(str(exc), 200), index) from exc
    return game


def parse_record_text(text: str, source: str = "record") -> dict[str, Any]:
    """JSON text → record object; RecordError with the line and column of a syntax error, or
    saying the text is nested too deeply or holds a number too long to read."""
    try:
        data = json.loads(text)
    except json.JSONDecodeError as exc:
        raise RecordError(f"{source} is not valid JSON: {exc.msg} at line {exc.lineno} column {exc.colno}") from exc
    except RecursionError as exc:
        raise RecordError(f"{source} is nested too deeply to be a record") from exc
    except ValueError as exc:  # an integer longer than sys.get_int_max_str_digits()
        raise RecordError(f"{source} holds a number too long to read (more than "
                          f"{sys.get_int_max_str_digits()} digits)") from exc
    if not isinstance(data, dict):
        raise RecordError(f"{source} must hold one JSON object, not {type(data).__name__}")
    return data


def read_record(path: str | Path) -> dict[str, Any]:
    """Read a record from a file, or from standard input when `path` is "-"."""
    if str(path) == "-":
        try:
            text = sys.stdin.read()
        except (OSError, UnicodeDecodeError) as exc:
            raise RecordError(f"cannot read standard input: {exc}") from exc
        return parse_record_text(text, "standard input")
    try:
        text = Path(path).read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError) as exc:
        raise RecordError(f"cannot read {path}: {exc}") from exc
    return parse_record_text(text, str(path))


def _check_keys(data: Mapping[str, Any], allowed: Collection[str], what: str) -> None:
    """RecordError naming the first key of `data` that is not `allowed`."""
    for key in data:
        if key not in allowed:
            raise RecordError(f"unknown key '{_cut(key)}' in {what}; expected {', '.join(sorted(allowed))}")


def _show(value: Any) -> str:
    """A value for an error line: its JSON, cut short (a bad record may hold anything)."""
    try:
        return _cut(json.dumps(value))
    except (TypeError, ValueError, RecursionError):
        return _cut(repr(value))


def _cut(text: str, limit: int = 80) -> str:
    return text if len(text) <= limit else text[: limit - 1] + "…"


def record_json(game: Game) -> str:
    """The game's record as one line of JSON (the JSON Lines form selfplay writes)."""
    return json.dumps(game.to_record(), separators=(",", ":"))
