"""The journal's high-score tables, built from the scores of finished games. How each game
ranks comes from the game registry (`find_game(name).ranking`): which result field is the
score, whether it keeps a table of best scores (EXXTRA is a race: its table counts wins) and a
solo personal record (EXTRA!).

Bot seats never enter the tables; EXTRA! children's-variant seats have their own. Score rows
that cannot be read are skipped (one log line each).
"""

from __future__ import annotations

import sqlite3
from collections.abc import Iterable
from dataclasses import dataclass

from firmware.games.registry import find_game, game_names, games
from firmware.journal.rows import check_game
from firmware.journal.schema import FINISHED, SQLValue, text_of
from firmware.journal.storage import Storage

ENTRY = "game_id, seat, CAST(name AS BLOB), score, date, players"  # what `ScoreTables._entries` reads


@dataclass(frozen=True)
class ScoreEntry:
    """One seat's final score in a finished game."""

    game: str
    name: str
    score: int
    date: float  # when the game finished (UNIX seconds)
    game_id: int
    players: int  # seats in that game (1 = solo)


class ScoreTables(Storage):
    """Best scores, solo records, wins and counts of finished games; see the module docstring."""

    def best_scores(self, game: str, limit: int = 5, *, kids: bool = False) -> list[ScoreEntry]:
        """The best single scores of people in finished games of `game`, best first (earlier
        first on equal scores). EXXTRA is a race without scores: empty (see `wins`)."""
        if not find_game(game).ranking.high_scores:
            return []
        return self._read(
            lambda conn: self._entries(
                game,
                conn.execute(
                    f"SELECT {ENTRY} FROM scores"
                    " WHERE game = ? AND bot = 0 AND kids = ? ORDER BY score DESC, date, game_id",
                    (game, kids),
                ),
                limit,
            )
        )

    def solo_best(self, name: str | None = None, *, kids: bool = False, game: str | None = None) -> ScoreEntry | None:
        """The solo personal record of `game` (default: the first game that keeps one, EXTRA!):
        the best solo total (of `name`, if given)."""
        if game is None:
            game = next((spec.name for spec in games() if spec.ranking.solo_record), None)
            if game is None:
                return None
        elif not find_game(game).ranking.solo_record:
            return None
        entries = self._read(
            lambda conn: self._entries(
                game,
                conn.execute(
                    f"SELECT {ENTRY} FROM scores WHERE game = ? AND players = 1"
                    " AND bot = 0 AND kids = ? AND (? IS NULL OR name = ?) ORDER BY score DESC, date, game_id",
                    (game, kids, name, name),
                ),
                1,
            )
        )
        return entries[0] if entries else None

    def personal_best(self, game: str, name: str, *, kids: bool = False) -> ScoreEntry | None:
        """`name`'s best single score of `game` (any number of seats; earlier first on equal
        scores); None when they have none or the game keeps no high scores."""
        if not find_game(game).ranking.high_scores:
            return None
        entries = self._read(
            lambda conn: self._entries(
                game,
                conn.execute(
                    f"SELECT {ENTRY} FROM scores WHERE game = ? AND bot = 0 AND kids = ? AND name = ?"
                    " ORDER BY score DESC, date, game_id",
                    (game, kids, name),
                ),
                1,
            )
        )
        return entries[0] if entries else None

    def place(self, game_id: int, seat: int) -> int | None:
        """Where seat `seat`'s score of finished game `game_id` stands in its game's table of best
        scores (`best_scores`' order, 1 = the best); None when it is not in a table (a bot's
        seat, a race, a game not finished)."""

        def action(conn: sqlite3.Connection) -> int | None:
            row = conn.execute(
                "SELECT CAST(game AS BLOB), score, date, kids FROM scores WHERE game_id = ? AND seat = ? AND bot = 0",
                (game_id, seat),
            ).fetchone()
            game = None if row is None else text_of(row[0])
            if row is None or game not in game_names() or not find_game(game).ranking.high_scores:
                return None
            score, date, kids = row[1], row[2], row[3]
            if type(score) is not int:
                return None
            ahead = conn.execute(
                "SELECT COUNT(*) FROM scores WHERE game = ? AND bot = 0 AND kids = ? AND"
                " (score > ? OR (score = ? AND (date < ? OR (date = ? AND (game_id < ? OR (game_id = ? AND seat < ?))))))",
                (game, kids, score, score, date, date, game_id, game_id, seat),
            ).fetchone()[0]
            return int(ahead) + 1

        return self._read(action)

    def wins(self, game: str, limit: int = 5) -> list[tuple[str, int]]:
        """People with the most wins of `game` against others (shared wins count; solo games
        do not), most first."""
        check_game(game)

        def action(conn: sqlite3.Connection) -> list[tuple[str, int]]:
            counts: dict[str, int] = {}
            rows = conn.execute(
                "SELECT game_id, seat, CAST(name AS BLOB), won FROM scores WHERE game = ? AND bot = 0 AND players > 1",
                (game,),
            )
            for gid, seat, raw, won in rows:
                name = text_of(raw)
                if name is None or won not in (0, 1):
                    self._skip(f"game {gid} seat {seat} score", "its name or win cannot be read")
                    continue
                counts[name] = counts.get(name, 0) + int(won)
            ranked = sorted(((n, c) for n, c in counts.items() if c > 0), key=lambda nc: (-nc[1], nc[0].encode()))
            return ranked[:limit]

        return self._read(action)

    def clear_scores(self) -> None:
        """Empty the high-score tables (best scores, solo records, wins); the games themselves,
        and so the audits, stay. Only games finished afterwards enter the tables again."""
        self._write(lambda conn: conn.execute("DELETE FROM scores"))

    def stats(self) -> dict[str, int]:
        """Finished games per game name."""
        counts = dict.fromkeys(game_names(), 0)
        rows = self._read(
            lambda conn: conn.execute(
                "SELECT id, CAST(game AS BLOB) FROM games WHERE status = ?", (FINISHED,)
            ).fetchall()
        )
        for gid, raw in rows:
            game = text_of(raw)
            if game in counts:
                counts[game] += 1
            else:
                self._skip(f"game {gid}", f"its game name {raw!r} cannot be read")
        return counts

    def _entries(
        self, game: str, rows: Iterable[tuple[int, int, SQLValue, SQLValue, SQLValue, SQLValue]], limit: int
    ) -> list[ScoreEntry]:
        """Score rows (ENTRY's columns) that read as they should, at most `limit`."""
        entries: list[ScoreEntry] = []
        for gid, seat, raw, score, date, players in rows:
            name = text_of(raw)
            if name is None or type(score) is not int or not isinstance(date, (int, float)) or type(players) is not int:
                self._skip(f"game {gid} seat {seat} score", "its name, score, date or seats cannot be read")
                continue
            entries.append(ScoreEntry(game, name, score, date, gid, players))
            if len(entries) >= limit:
                break
        return entries
