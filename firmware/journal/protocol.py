"""What the board uses of a journal: the table, the app and its screens. `firmware.journal.Journal`
is one, and so is any stand-in (a test's, or another board's) offering the same methods.

    >>> import tempfile
    >>> from firmware.journal import Journal
    >>> with tempfile.TemporaryDirectory() as folder, Journal(folder) as journal:
    ...     kept: BoardJournal = journal
    ...     kept.unfinished() is None
    True
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Protocol

from firmware.journal.rows import StoredGame
from firmware.journal.scores import ScoreEntry


class SettingsStore(Protocol):
    """The board's settings kept as JSON values by key (the journal's, or a test's)."""

    set_aside: list[str]  # what was unreadable and set aside since the store opened ("setting sound")

    def get_setting(self, key: str, default: object = None) -> object: ...

    def set_setting(self, key: str, value: object) -> None: ...


class BoardJournal(SettingsStore, Protocol):
    """A game's steps kept as they are played (`firmware.table.Table`), the unfinished game found
    again after a power cut, the finished games and their tables (the review, the high scores,
    the operator's audit), the board's settings, and what the display should say about storage."""

    problem: str | None  # storage read-only, full or failing: the display says so
    notes: list[str]  # what the players should be told (short, for the display)

    # the game in play (the table)
    def start_game(self, header: Mapping[str, object], meta: object = None) -> int: ...

    def append_step(self, game_id: int, index: int, step: Mapping[str, object]) -> None: ...

    def truncate(self, game_id: int, length: int, meta: object = None) -> None: ...

    def finish(self, game_id: int, result: Mapping[str, object]) -> None: ...

    def add_note(self, game_id: int, note: str) -> None: ...

    def reseal(self, game_id: int, header: Mapping[str, object], meta: object) -> None: ...

    def abandon(self, game_id: int) -> None: ...

    def unfinished(self) -> StoredGame | None: ...

    # the finished games and their tables
    def all_games(self) -> list[StoredGame]: ...

    def place(self, game_id: int, seat: int) -> int | None: ...

    def wins(self, game: str, limit: int = 5) -> list[tuple[str, int]]: ...

    def best_scores(self, game: str, limit: int = 5, *, kids: bool = False) -> list[ScoreEntry]: ...

    def personal_best(self, game: str, name: str, *, kids: bool = False) -> ScoreEntry | None: ...

    def solo_best(
        self, name: str | None = None, *, kids: bool = False, game: str | None = None
    ) -> ScoreEntry | None: ...

    def stats(self) -> dict[str, int]: ...

    # the operator's clearing
    def clear_records(self) -> int: ...

    def clear_scores(self) -> None: ...

    def clear_settings(self) -> None: ...
