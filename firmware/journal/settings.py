"""The journal's kept settings (the menu's: brightness, LED budget, dice, ...), JSON values by
key. One that cannot be read is moved, as it is, to the quarantine table and reads as its
default; `set_aside` names it so the display can say which setting was reset.

Not every row is a preference: the operator code's gate (its wrong codes, locks and a lock in
force, firmware/operator_code.py) is kept here so a power cut does not lift it, and no reset
forgets it (`KEPT_ON_CLEAR`): a reset that did would lift the lockout and empty its audit line.
"""

from __future__ import annotations

import sqlite3
from typing import Any

from firmware.errors import RecordError
from firmware.journal.schema import QUARANTINE, from_json, to_json
from firmware.journal.storage import Storage

OPERATOR_GATE = "operator_gate"  # the operator code's gate: wrong codes, locks, a lock in force
KEPT_ON_CLEAR = (OPERATOR_GATE,)  # audits and lockouts, not settings: `clear_settings` keeps them


class KeptSettings(Storage):
    """Settings by key; see the module docstring."""

    def get_setting(self, key: str, default: object = None) -> Any:  # Any: JSON as stored; readers check it
        """A setting's value, or `default` if it was never set or cannot be read (then it is
        moved to the quarantine table and `set_aside` says so)."""
        row = self._read(
            lambda conn: conn.execute("SELECT CAST(value AS BLOB) FROM settings WHERE key = ?", (key,)).fetchone()
        )
        if row is None:
            return default
        try:
            return from_json(row[0], f"setting {key!r}")
        except RecordError as exc:
            if self.read_only:
                self._skip(f"setting {key}", str(exc))
            else:
                self._quarantine_setting(key, str(exc))
            return default

    def set_setting(self, key: str, value: object) -> None:
        """Store a setting (any JSON value)."""
        if not isinstance(key, str) or not key:
            raise RecordError(f"a setting's key must be a non-empty string, not {key!r}")
        text = to_json(value, f"setting {key!r}")
        self._write(
            lambda conn: conn.execute(
                "INSERT INTO settings (key, value) VALUES (?, ?) ON CONFLICT (key) DO UPDATE SET value = excluded.value",
                (key, text),
            )
        )

    def clear_settings(self) -> None:
        """Forget every kept setting (a factory reset of settings: each reads as its default),
        but not the rows of `KEPT_ON_CLEAR` (the operator's lockout and its counts)."""
        kept = ", ".join("?" for _ in KEPT_ON_CLEAR)
        self._write(lambda conn: conn.execute(f"DELETE FROM settings WHERE key NOT IN ({kept})", KEPT_ON_CLEAR))

    def _quarantine_setting(self, key: str, reason: str) -> None:
        """Move an unreadable setting's row, as it is, to the quarantine table."""
        now = self._clock()

        def action(conn: sqlite3.Connection) -> None:
            conn.execute(QUARANTINE)
            conn.execute(
                "INSERT INTO quarantine (item, reason, data, date) SELECT 'setting ' || key, ?, value, ?"
                " FROM settings WHERE key = ?",
                (reason, now, key),
            )
            conn.execute("DELETE FROM settings WHERE key = ?", (key,))

        self._write(action)
        self.set_aside.append(f"setting {key}")
        self._log.error("journal: setting %r cannot be read (%s): set aside, using its default", key, reason)
