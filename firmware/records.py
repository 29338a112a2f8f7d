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
from typing import cast

from firmware.errors import N_, IllegalStepError, RecordError, Text
from firmware.games import Game, Player, Roll, find_game, game_class, game_names
from firmware.games.base import RECORD_VERSION, RECORD_VERSIONS, Step
from firmware.input_files import NotRegularFile, TooLarge, read_regular_file, read_stream

FORMAT = "xtraboard-record"
VERSION = RECORD_VERSION  # the version the board writes; it reads every one of VERSIONS
VERSIONS = RECORD_VERSIONS
RECORD_KEYS = ("format", "version", "game", "players", "steps", "result", "dice", "notes")
DICE_KEYS = ("scheme", "commit", "word", "seed", "physical")  # the optional dice block (docs/dice.md)
PLAYER_KEYS = ("name", "bot", "kids")
ROLL_MARKS = frozenset({"keyed"})


def header_of(record: Mapping[str, object]) -> tuple[type[Game], list[Player]]:
    """The engine class and players of a record, after checking its top-level keys."""
    if not isinstance(record, Mapping):
        raise RecordError(Text(N_("a record must be a JSON object, not {kind}"), kind=type(record).__name__))
    if record.get("format") != FORMAT:
        raise RecordError(
            Text(N_("'format' must be {format!r}, not {value}"), format=FORMAT, value=_show(record.get("format")))
        )
    _check_keys(record, RECORD_KEYS, Text(N_("the record")))
    version = record.get("version")
    if type(version) is not int or version not in VERSIONS:  # not True, not 1.0: a format is exact
        raise RecordError(
            Text(
                N_("'version' must be one of the integers {versions}, not {value}"),
                versions=", ".join(map(str, VERSIONS)),
                value=_show(version),
            )
        )
    game = record.get("game")
    if not isinstance(game, str) or game not in game_names():
        raise RecordError(
            Text(
                N_("'game' must be one of {games}, not {value}"),
                games=", ".join(game_names()),
                value=_show(record.get("game")),
            )
        )
    players = record.get("players")
    if not isinstance(players, list):
        raise RecordError(Text(N_("'players' must be a list of players, not {value}"), value=_show(players)))
    if not isinstance(record.get("steps"), list):
        raise RecordError(Text(N_("'steps' must be a list, not {value}"), value=_show(record.get("steps"))))
    for player in players:
        if isinstance(player, Mapping):
            _check_keys(player, PLAYER_KEYS, Text(N_("player {name}"), name=_show(player.get("name"))))
    if "dice" in record:
        _check_dice(record["dice"])
    notes = record.get("notes", [])
    if not isinstance(notes, list) or any(not isinstance(note, str) for note in notes):
        raise RecordError(Text(N_("'notes' must be a list of texts, not {value}"), value=_show(notes)))
    return game_class(game), [Player.from_json(p) for p in players]


def _check_dice(dice: object) -> None:
    """The dice block: an object of DICE_KEYS; `scheme`, `commit`, `word` and `seed` text,
    `physical` true or false."""
    if not isinstance(dice, Mapping):
        raise RecordError(Text(N_("'dice' must be an object, not {value}"), value=_show(dice)))
    _check_keys(dice, DICE_KEYS, "'dice'")
    for key in ("scheme", "commit", "word", "seed"):
        if key in dice and not isinstance(dice[key], str):
            raise RecordError(Text(N_("'dice' {key!r} must be text, not {value}"), key=key, value=_show(dice[key])))
    if "physical" in dice and type(dice["physical"]) is not bool:
        raise RecordError(
            Text(N_("'dice' 'physical' must be true or false, not {value}"), value=_show(dice["physical"]))
        )


def replay_record(record: Mapping[str, object]) -> Game:
    """Rebuild the game a record describes; RecordError names the first bad step by its index."""
    cls, players = header_of(record)
    # header_of checked both: the version an integer of VERSIONS, the steps a list
    version, steps = cast(int, record["version"]), cast(list[object], record["steps"])
    try:
        game = cls.for_record(players, version)  # a version-1 record keeps its rules
    except IllegalStepError as exc:
        raise RecordError(exc.text) from exc
    optional = find_game(cls.name).optional_step_keys  # keys a step may hold besides its own
    for index, data in enumerate(steps):
        try:
            step = cls.parse_step(data)
            fields = cast(Mapping[str, object], data)  # a step is a JSON object: parse_step took it
            # The engines read the keys they know; a record must hold nothing else.
            _check_keys(fields, set(step.to_json()) | optional | _marks(step), Text(N_("this step")))
            if "keyed" in fields and fields["keyed"] is not True:
                raise RecordError(Text(N_("'keyed' must be true, not {value}"), value=_show(fields["keyed"])))
            game.apply(step)
        except IllegalStepError as exc:
            raise RecordError(
                Text(N_("illegal {step}: {reason}"), step=_show(data), reason=_short(exc)), index
            ) from exc
        except RecordError as exc:
            raise RecordError(_short(exc), index) from exc
    return game


def _marks(step: Step) -> frozenset[str]:
    """What the board may add to a step besides the engine's keys: a roll keyed in by a person
    (physical dice) says `"keyed": true` (docs/records.md; replay ignores it, verify reads it)."""
    return ROLL_MARKS if isinstance(step, Roll) else frozenset()


def parse_record_text(text: str, source: str = "record") -> dict[str, object]:
    """JSON text → record object; RecordError with the line and column of a syntax error, or
    saying the text is nested too deeply or holds a number too long to read."""
    try:
        data = json.loads(text)
    except json.JSONDecodeError as exc:
        if "\n" not in text.rstrip("\r\n"):  # one line (of JSON Lines): its column says where
            raise RecordError(
                Text(
                    N_("{source} is not valid JSON: {error} at column {column}"),
                    source=source,
                    error=exc.msg,
                    column=exc.colno,
                )
            ) from exc
        raise RecordError(
            Text(
                N_("{source} is not valid JSON: {error} at line {line} column {column}"),
                source=source,
                error=exc.msg,
                line=exc.lineno,
                column=exc.colno,
            )
        ) from exc
    except RecursionError as exc:
        raise RecordError(Text(N_("{source} is nested too deeply to be a record"), source=source)) from exc
    except ValueError as exc:  # an integer longer than sys.get_int_max_str_digits()
        raise RecordError(
            Text(
                N_("{source} holds a number too long to read (more than {digits} digits)"),
                source=source,
                digits=sys.get_int_max_str_digits(),
            )
        ) from exc
    if not isinstance(data, dict):
        raise RecordError(
            Text(N_("{source} must hold one JSON object, not {kind}"), source=source, kind=type(data).__name__)
        )
    _check_text(data, source)
    return data


def _check_text(data: object, source: str) -> None:
    """RecordError naming the first key or text that is not valid Unicode (JSON lets "\\ud800",
    a lone surrogate, through; no UTF-8 can hold it, so hashing or printing it would fail)."""
    stack: list[tuple[str, object]] = [("", data)]
    while stack:
        where, value = stack.pop()
        items: list[tuple[str, object]] = []
        if isinstance(value, dict):
            items = [(f"{where}.{key}" if where else str(key), item) for key, item in value.items()]
            texts = [(f"{where}.{key}" if where else str(key), key) for key in value]
        elif isinstance(value, list):
            items = [(f"{where}.{i}" if where else str(i), item) for i, item in enumerate(value)]
            texts = []
        else:
            texts = [(where, value)] if isinstance(value, str) else []
        for place, text in texts:
            try:
                text.encode("utf-8")
            except UnicodeEncodeError as exc:
                raise RecordError(
                    Text(
                        N_("{source}: '{where}' holds text that is not valid Unicode ({char})"),
                        source=source,
                        where=_cut(place.encode("utf-8", "backslashreplace").decode()),
                        char=ascii(text[exc.start])[1:-1],
                    )
                ) from None
        stack.extend(reversed(items))


MAX_RECORD_FILE_BYTES = 64 * 1024 * 1024  # a record is a few kilobytes; an export of 64 MiB is ~15,000 games


def read_record(path: str | Path) -> dict[str, object]:
    """Read a record from a file, or from standard input when `path` is "-"."""
    return parse_record_text(read_record_text(path), record_source(path))


def record_source(path: str | Path) -> str:
    """How messages name the record file: its path, or "standard input" for "-"."""
    return Text(N_("standard input")) if str(path) == "-" else str(path)


def read_record_text(path: str | Path) -> str:
    """The text of a record file (or of standard input for "-"), read by every command that takes
    one (replay, analyse, verify): a regular file or standard input of at most
    MAX_RECORD_FILE_BYTES of UTF-8, else a RecordError naming the file and why."""
    source = record_source(path)
    try:
        if str(path) == "-":
            stdin = getattr(sys.stdin, "buffer", None)
            if stdin is None:  # a text stream put in its place (a test's, an embedding program's)
                text = sys.stdin.read(MAX_RECORD_FILE_BYTES + 1)
                if len(text) > MAX_RECORD_FILE_BYTES:
                    raise TooLarge(source, MAX_RECORD_FILE_BYTES)
                return text
            data = read_stream(stdin, MAX_RECORD_FILE_BYTES)
        else:
            data = read_regular_file(path, MAX_RECORD_FILE_BYTES)
        return data.decode("utf-8")
    except NotRegularFile as exc:
        raise RecordError(
            Text(
                N_("{file}: not a regular file ({kind}); expected a record file (JSON or JSON Lines)"),
                file=source,
                kind=Text(exc.kind),
            )
        ) from None
    except TooLarge:
        raise RecordError(
            Text(
                N_("{file}: larger than {size} bytes; expected a record file (JSON or JSON Lines)"),
                file=source,
                size=MAX_RECORD_FILE_BYTES,
            )
        ) from None
    except (OSError, UnicodeDecodeError) as exc:
        if str(path) == "-":
            raise RecordError(Text(N_("cannot read standard input: {error}"), error=exc)) from exc
        raise RecordError(Text(N_("cannot read {file}: {error}"), file=path, error=exc)) from exc


def _short(exc: IllegalStepError | RecordError) -> str:
    """An error's text for a step's message: its Text (translatable) unless it must be cut."""
    return exc.text if len(exc.text) <= 200 else _cut(str(exc), 200)


def _check_keys(data: Mapping[str, object], allowed: Collection[str], what: str) -> None:
    """RecordError naming the first key of `data` that is not `allowed`."""
    for key in data:
        if key not in allowed:
            raise RecordError(
                Text(
                    N_("unknown key '{key}' in {what}; expected {keys}"),
                    key=_cut(key),
                    what=what,
                    keys=", ".join(sorted(allowed)),
                )
            )


def _show(value: object) -> str:
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
