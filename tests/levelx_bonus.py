"""A LEVEL X game of two, Yellow (seat 0) against Red, up to the offer of the last bonus tile:
Yellow reaches every X, takes three sets (tiles 15, 12, 9) and all but a 10 of a fourth, Red
passing each turn; then Yellow's 10 + 7 completes the fourth set. Shared by the tests of that
choice across the board: records, the journal, the engine protocol, the board, the fit walk.
"""

from __future__ import annotations

from typing import Any

PASS: tuple[tuple[int, ...], list[list[int]]] = ((2, 2, 2, 2), [])
SINGLES = [[0], [1], [2], [3]]
PAIRS = [[0, 1], [2, 3]]
# Yellow's turns: onto every X (a first set), two more sets, then all but a 10 of a fourth.
YELLOW = [
    ((5, 5, 5, 5), SINGLES), ((6, 6, 6, 6), SINGLES), ((3, 4, 3, 4), PAIRS), ((3, 4, 3, 4), PAIRS),
    ((4, 4, 4, 4), PAIRS), ((4, 4, 4, 4), PAIRS), ((4, 5, 4, 5), PAIRS), ((5, 5, 5, 5), PAIRS),
    *[((5, 6, 4, 5), [[0], [1], [2, 3]]), ((5, 5, 3, 4), PAIRS), ((4, 4, 1, 2), [[0, 1]])] * 2,
    ((5, 6, 4, 5), [[0], [1], [2, 3]]),
]  # fmt: skip
COMPLETING = ((5, 5, 3, 4), PAIRS)  # 10 + 7: the fourth set, so the last tile (6) is Yellow's to take


def turn_steps(faces: tuple[int, ...], groups: list[list[int]]) -> list[dict[str, Any]]:
    return [{"roll": list(faces)}, {"groups": groups}]


def steps_before_offer() -> list[dict[str, Any]]:
    """Every step up to Yellow's roll of the completing turn excluded (Yellow to roll)."""
    steps: list[dict[str, Any]] = []
    for faces, groups in YELLOW:
        steps += turn_steps(faces, groups) + turn_steps(*PASS)
    return steps


def record(steps: list[dict[str, Any]], version: int = 2, red_bot: str | None = None) -> dict[str, Any]:
    red: dict[str, Any] = {"name": "Red"} | ({"bot": red_bot} if red_bot else {})
    return {
        "format": "xtraboard-record",
        "version": version,
        "game": "levelx",
        "players": [{"name": "Yellow"}, red],
        "steps": steps,
    }


def offer_record(version: int = 2, red_bot: str | None = None) -> dict[str, Any]:
    """The record up to the completing turn's groups: under version 2, Yellow is asked."""
    return record(steps_before_offer() + turn_steps(*COMPLETING), version, red_bot)
