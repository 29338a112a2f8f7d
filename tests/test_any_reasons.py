"""Every line of firmware/ that names `Any` (as `grep -w Any` counts them) says why, on the line
or the one above ("Any: gpiozero has no type hints"); an import needs none, and no alias stands
in for it."""

from __future__ import annotations

import re
from pathlib import Path

FIRMWARE = Path(__file__).resolve().parent.parent / "firmware"
ANY = re.compile(r"\bAny\b")


def any_lines() -> list[tuple[str, int, str, str]]:
    """(path, line number, the line, the line above) of each line naming Any."""
    found = []
    for path in sorted(FIRMWARE.rglob("*.py")):
        lines = path.read_text(encoding="utf-8").splitlines()
        for index, line in enumerate(lines):
            if ANY.search(line):
                found.append(
                    (path.relative_to(FIRMWARE).as_posix(), index + 1, line, lines[index - 1] if index else "")
                )
    return found


def test_each_any_says_why():
    unexplained = [
        f"{path}:{number}: {line.strip()}"
        for path, number, line, above in any_lines()
        if not line.lstrip().startswith("from typing import") and "Any:" not in line and "Any:" not in above
    ]
    assert unexplained == []


def test_no_alias_stands_in_for_any():
    aliases = [
        f"{path}:{number}"
        for path, number, line, _ in any_lines()
        if re.match(r"\s*\w+\s*(: TypeAlias)?\s*=\s*Any\b", line)
    ]
    assert aliases == []


def test_few_lines_name_any():
    assert 0 < len(any_lines()) < 150
