"""Shared for every test: the board and the CLI speak English unless a test says otherwise (the
developer's own $LANG must not change what the tests read), and a test that switches the
language leaves English behind."""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from firmware import i18n


@pytest.fixture(autouse=True)
def english(monkeypatch: pytest.MonkeyPatch) -> Iterator[None]:
    monkeypatch.setenv(i18n.ENV, "en")
    i18n.use("en")
    yield
    i18n.use("en")
