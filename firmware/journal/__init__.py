"""The board's journal (being split by concern; see storage.py for now)."""

from firmware.journal.storage import *  # noqa: F403
from firmware.journal.storage import (  # noqa: F401
    DAMAGED, DB_NAME, FAILING, FULL, READ_ONLY, SCHEMA_VERSION, UNAVAILABLE, Journal, ScoreEntry, StoredGame,
    connect_file,
)
