"""The journal's games and steps: a game is stored step by step as it is played (each step
durable before the board shows it), then finished with its result, or abandoned; undo
truncates it. Readers give back records (docs/records.md) for resume, exports and replays.

A game being played that cannot be read is set aside (kept, marked abandoned, listed in the
quarantine table with the reason) rather than resumed; the record readers skip rows they
cannot read.
"""

from __future__ import annotations

import json
import sqlite3
from collections.abc import Iterable, Mapping
from functools import partial
from typing import Any

from firmware.errors import N_, RecordError, Text
from firmware.journal.rows import (
    StoredGame,
    check_game,
    checked_header,
    resumable,
    seat_scores,
    status_of,
    step_count,
    stored,
    stored_players,
)
from firmware.journal.schema import ABANDONED, FINISHED, PLAYING, QUARANTINE, to_json
from firmware.journal.storage import Storage


class GameRecords(Storage):
    """Games and their steps; see the package docstring."""

    # --- writing ---------------------------------------------------------------------------
    def start_game(self, header: Mapping[str, object], meta: object = None) -> int:
        """Begin a game; `header` is its record without steps or result, `meta` free JSON
        (seed, mode, ...) to recognise the same game on restart. Returns the game's id."""
        game, header_text = checked_header(header)
        meta_text = to_json({} if meta is None else meta, "meta")
        now = self._clock()

        def action(conn: sqlite3.Connection) -> int:
            for (old,) in conn.execute("SELECT id FROM games WHERE status = ?", (PLAYING,)):
                self._log.info("journal: game %d was still being played; abandoned for a new game", old)
            conn.execute("UPDATE games SET status = ?, updated = ? WHERE status = ?", (ABANDONED, now, PLAYING))
            cursor = conn.execute(
                "INSERT INTO games (game, header, meta, status, started, updated) VALUES (?, ?, ?, ?, ?, ?)",
                (game, header_text, meta_text, PLAYING, now, now),
            )
            return int(cursor.lastrowid or 0)

        return self._write(action)

    def append_step(self, game_id: int, index: int, step: Mapping[str, object]) -> None:
        """Store step number `index` (0-based) of a game being played; it must be the next one."""
        if not isinstance(step, Mapping):
            raise RecordError(f"a step must be a JSON object, not {step!r}", index)
        text = to_json(dict(step), f"step {index}")

        def action(conn: sqlite3.Connection) -> None:
            status = status_of(conn, game_id)
            if status != PLAYING:
                raise RecordError(f"game {game_id} is {status}: it takes no more steps", index)
            count = step_count(conn, game_id)
            if index != count:
                raise RecordError(f"game {game_id} has {count} steps, so the next step is number {count}", index)
            conn.execute("INSERT INTO steps (game_id, idx, step) VALUES (?, ?, ?)", (game_id, index, text))
            conn.execute("UPDATE games SET updated = ? WHERE id = ?", (self._clock(), game_id))

        self._write(action)

    def truncate(self, game_id: int, length: int, meta: object = None) -> None:
        """Keep only the first `length` steps (undo). A finished game is reopened (its result
        and scores removed) so its last decision can be taken back. `meta` (when given) is the
        game's meta from now on, in the same transaction: what was taken back, for the game's log,
        is never lost to a power cut that kept the shorter game."""
        meta_text = to_json(meta, "meta") if meta is not None else None

        def action(conn: sqlite3.Connection) -> None:
            status = status_of(conn, game_id)
            count = step_count(conn, game_id)
            if status == ABANDONED:
                raise RecordError(f"game {game_id} was abandoned: nothing to undo")
            if not 0 <= length <= count or (status == FINISHED and length == count):
                raise RecordError(f"game {game_id} has {count} steps: cannot keep {length} of them by undo")
            if status == FINISHED:
                other = conn.execute("SELECT id FROM games WHERE status = ?", (PLAYING,)).fetchone()
                if other is not None:
                    raise RecordError(f"game {game_id} cannot be reopened while game {other[0]} is being played")
                conn.execute("DELETE FROM scores WHERE game_id = ?", (game_id,))
            conn.execute("DELETE FROM steps WHERE game_id = ? AND idx >= ?", (game_id, length))
            if meta_text is not None:
                conn.execute("UPDATE games SET meta = ? WHERE id = ?", (meta_text, game_id))
            conn.execute(
                "UPDATE games SET status = ?, result = NULL, updated = ? WHERE id = ?",
                (PLAYING, self._clock(), game_id),
            )

        self._write(action)

    def finish(self, game_id: int, result: Mapping[str, object]) -> None:
        """Mark a game over with its result (docs/records.md) and enter its scores."""
        if not isinstance(result, Mapping):
            raise RecordError(f"game {game_id}: a result must be a JSON object, not {result!r}")
        text = to_json(dict(result), "result")

        def action(conn: sqlite3.Connection) -> None:
            status = status_of(conn, game_id)
            if status != PLAYING:
                raise RecordError(f"game {game_id} is {status}: it cannot finish again")
            game, header_text = conn.execute("SELECT game, header FROM games WHERE id = ?", (game_id,)).fetchone()
            players = stored_players(header_text, game_id)
            scores, winners = seat_scores(game, len(players), result)
            now = self._clock()
            conn.executemany(
                "INSERT INTO scores (game_id, seat, game, name, score, won, players, bot, kids, date)"
                " VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
                [
                    (
                        game_id,
                        seat,
                        game,
                        p.name,
                        scores[seat],
                        seat in winners,
                        len(players),
                        p.bot is not None,
                        p.kids,
                        now,
                    )
                    for seat, p in enumerate(players)
                ],
            )
            conn.execute(
                "UPDATE games SET status = ?, result = ?, updated = ? WHERE id = ?", (FINISHED, text, now, game_id)
            )

        self._write(action)

    def add_note(self, game_id: int, note: str) -> None:
        """Add `note` to the `notes` of a game being played (the record says what happened
        at the table, e.g. an engine that failed; docs/records.md)."""
        if not isinstance(note, str):
            raise RecordError(f"a note must be text, not {note!r}")

        def action(conn: sqlite3.Connection) -> None:
            status = status_of(conn, game_id)
            if status != PLAYING:
                raise RecordError(f"game {game_id} is {status}: it takes no more notes")
            (header_text,) = conn.execute("SELECT header FROM games WHERE id = ?", (game_id,)).fetchone()
            header = json.loads(header_text)
            header["notes"] = [*header.get("notes", []), note]
            conn.execute(
                "UPDATE games SET header = ?, updated = ? WHERE id = ?",
                (to_json(header, "the game header"), self._clock(), game_id),
            )

        self._write(action)

    def reseal(self, game_id: int, header: Mapping[str, object], meta: object) -> None:
        """Rewrite the header and meta of a game being played that has no step yet: the table's
        word joins its dice block before the first roll (docs/dice.md)."""
        game, header_text = checked_header(header)
        meta_text = to_json({} if meta is None else meta, "meta")

        def action(conn: sqlite3.Connection) -> None:
            status = status_of(conn, game_id)
            if status != PLAYING:
                raise RecordError(f"game {game_id} is {status}: its dice cannot be sealed again")
            (steps,) = conn.execute("SELECT COUNT(*) FROM steps WHERE game_id = ?", (game_id,)).fetchone()
            if steps:
                raise RecordError(f"game {game_id} has {steps} steps: its dice were sealed before the first")
            conn.execute(
                "UPDATE games SET header = ?, meta = ?, updated = ? WHERE id = ? AND game = ?",
                (header_text, meta_text, self._clock(), game_id, game),
            )

        self._write(action)

    def abandon(self, game_id: int) -> None:
        """Give up a game being played (kept, but never resumed or counted); idempotent."""

        def action(conn: sqlite3.Connection) -> None:
            status = status_of(conn, game_id)
            if status == FINISHED:
                raise RecordError(f"game {game_id} is finished: it cannot be abandoned")
            conn.execute(
                "UPDATE games SET status = ?, updated = ? WHERE id = ? AND status = ?",
                (ABANDONED, self._clock(), game_id, PLAYING),
            )

        self._write(action)

    # --- reading -------------------------------------------------------------------------
    def unfinished(self) -> StoredGame | None:
        """The game being played when the board stopped, if any. One whose header, steps or
        meta cannot be read is set aside (see the module docstring) and is no longer it."""
        seen: set[int] = set()
        while True:
            row = self._read(
                lambda conn: conn.execute(
                    "SELECT id FROM games WHERE status = ? ORDER BY id DESC LIMIT 1", (PLAYING,)
                ).fetchone()
            )
            if row is None or row[0] in seen:
                return None
            gid = int(row[0])
            try:
                return self._read(partial(resumable, game_id=gid))
            except RecordError as exc:
                if self.read_only:
                    raise
                seen.add(gid)
                self._quarantine_game(gid, str(exc))

    def finished(self, game: str | None = None, limit: int | None = None) -> list[StoredGame]:
        """Finished games, newest first; only those of `game` if given, at most `limit`."""
        if game is not None:
            check_game(game)

        def action(conn: sqlite3.Connection) -> list[StoredGame]:
            rows = conn.execute(
                "SELECT id FROM games WHERE status = ? AND (? IS NULL OR game = ?) ORDER BY id DESC LIMIT ?",
                (FINISHED, game, game, -1 if limit is None else limit),
            ).fetchall()
            return self._readable(conn, (gid for (gid,) in rows))

        return self._read(action)

    def all_games(self) -> list[StoredGame]:
        """Every game, finished, abandoned or being played, oldest first (the audits'); rows
        that cannot be read are skipped (named in `skipped`)."""

        def action(conn: sqlite3.Connection) -> list[StoredGame]:
            rows = conn.execute("SELECT id FROM games ORDER BY id").fetchall()
            return self._readable(conn, (gid for (gid,) in rows))

        return self._read(action)

    def _readable(self, conn: sqlite3.Connection, ids: Iterable[int]) -> list[StoredGame]:
        """The games `ids` that can be read; the others are skipped (named in `skipped`)."""
        games = []
        for gid in ids:
            try:
                games.append(stored(conn, gid))
            except RecordError as exc:
                self._skip(f"game {gid}", str(exc))
        return games

    def clear_records(self) -> int:
        """Delete every game that is over (finished or abandoned), with its steps and scores;
        the game being played stays. Returns how many were deleted. The operator menu asks
        twice before calling this."""

        def action(conn: sqlite3.Connection) -> int:
            over = "SELECT id FROM games WHERE status != ?"
            conn.execute(f"DELETE FROM scores WHERE game_id IN ({over})", (PLAYING,))
            conn.execute(f"DELETE FROM steps WHERE game_id IN ({over})", (PLAYING,))
            return int(conn.execute("DELETE FROM games WHERE status != ?", (PLAYING,)).rowcount)

        return self._write(action)

    def record(self, game_id: int) -> dict[str, Any]:  # Any: as `StoredGame.record`
        """A game's record (docs/records.md): header, steps, and result once finished."""
        return self._read(lambda conn: stored(conn, game_id).record)

    def _quarantine_game(self, game_id: int, reason: str) -> None:
        """Set aside a game being played that cannot be read: kept as it is, never resumed."""
        now = self._clock()

        def action(conn: sqlite3.Connection) -> None:
            conn.execute(QUARANTINE)
            conn.execute(
                "INSERT INTO quarantine (item, reason, date) VALUES (?, ?, ?)", (f"game {game_id}", reason, now)
            )
            conn.execute(
                "UPDATE games SET status = ?, updated = ? WHERE id = ? AND status = ?",
                (ABANDONED, now, game_id, PLAYING),
            )

        self._write(action)
        self.set_aside.append(f"game {game_id}")
        self.notes.append(Text(N_("saved game {id} unreadable: set aside"), id=game_id))
        self._log.error("journal: game %d cannot be resumed (%s): set aside (kept, marked abandoned)", game_id, reason)
