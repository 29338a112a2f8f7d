"""The board's journal: every game step on storage before the board shows its effect.

One SQLite file, `state_dir/xtraboard.db` (WAL, synchronous=FULL: a step is durable when
`append_step` returns). It holds the game being played, finished games (records with their
result), the scores behind the high-score tables, and the menu's settings.

    >>> import tempfile
    >>> journal = Journal(tempfile.mkdtemp())     # the board passes its state directory
    >>> gid = journal.start_game({"format": "xtraboard-record", "version": 1, "game": "extra",
    ...                           "players": [{"name": "Marie"}]}, {"seed": 3})
    >>> journal.append_step(gid, 0, {"roll": [1, 2, 2, 3, 5]})
    >>> journal.unfinished().record["steps"]
    [{'roll': [1, 2, 2, 3, 5]}]
    >>> journal.close()

Games: `start_game(header, meta) -> id` (abandons a game still being played),
`append_step(id, index, step)` (index = the number of steps so far), `truncate(id, length)`
(undo; on a finished game it reopens it), `finish(id, result)`, `abandon(id)`.
Reading: `unfinished()`, `finished(game, limit)` (newest first), `all_games()` (every game,
oldest first: the audits), `record(id)`. Clearing (the operator menu): `clear_scores()`,
`clear_records()` (games that are over), `clear_settings()`.
Records: `best_scores(game, limit, kids=)`, `solo_best(name, kids=)` (EXTRA! solo personal
record), `wins(game, limit)` (EXXTRA has no score: its table counts wins), `stats()`, `personal_best(game, name, kids=)` and `place(game_id, seat)` (the
review: a person's best score, where a seat's score stands in its table).
Settings: `get_setting(key, default)`, `set_setting(key, value)` (JSON values).
`Journal(state_dir, read_only=True)` is for commands that only read (never creates or repairs).
Mistakes by the caller (a wrong step index, an unknown game id, a bad header) raise RecordError.

Bot seats never enter the score tables; EXTRA! children's-variant seats have their own tables.

The journal never crashes on its own files: a corrupt, truncated or foreign database is moved
aside (`xtraboard.db.corrupt-<UTC time>`, `moved_aside`, kept as found) and replaced by a fresh
one holding every game that still reads and replays (`salvage = (kept, lost)`; built as
`xtraboard.db.salvage` and swapped in by one rename, so a power cut never loses it); storage that
is read-only, full or failing switches the journal to memory so play goes on, and `problem`
says so in a few words for the display. Damaged rows in a usable file never stop the board:
an unfinished game that cannot be read is set aside (marked abandoned, listed in the
`quarantine` table with the reason; nothing is deleted), an unreadable setting is moved to that
table and reads as its default, and the record readers skip rows they cannot read (one log line
per row; named in `skipped`). What was set aside is in `set_aside` ("game 3", "setting brightness"); what the
players should be told, in a few words for the display, in `notes`.
It belongs to one thread (the board's loop).

The package, by concern (each module imports only those above it):
`schema` (the file's tables, JSON values), `rows` (a game's rows read back and checked),
`rescue` (salvage from a damaged file), `storage` (opening, fall-backs, transactions),
`records` (games and steps), `scores` (the high-score tables, ranked as the game registry
says) and `settings`; `Journal` is all of them at once. `protocol` says what the board (table, app,
screens) uses of a journal (`BoardJournal`, `SettingsStore`), so a stand-in can offer the same.
"""

from __future__ import annotations

from firmware.journal.games import GameRecords
from firmware.journal.rows import StoredGame
from firmware.journal.schema import DB_NAME, LOGGER_NAME, RECORD_FORMAT, RECORD_VERSION, RECORD_VERSIONS, SCHEMA_VERSION
from firmware.journal.scores import ScoreEntry, ScoreTables
from firmware.journal.settings import KeptSettings
from firmware.journal.storage import DAMAGED, FAILING, FULL, READ_ONLY, UNAVAILABLE, Storage, connect_file

__all__ = [
    "DAMAGED",
    "DB_NAME",
    "FAILING",
    "FULL",
    "LOGGER_NAME",
    "READ_ONLY",
    "RECORD_FORMAT",
    "RECORD_VERSION",
    "RECORD_VERSIONS",
    "SCHEMA_VERSION",
    "UNAVAILABLE",
    "Journal",
    "ScoreEntry",
    "Storage",
    "StoredGame",
    "connect_file",
]


class Journal(GameRecords, ScoreTables, KeptSettings):
    """Games, records and settings kept on the board; see the package docstring."""
