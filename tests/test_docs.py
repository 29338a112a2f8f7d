"""The repository stands on its own: no tracked file points outside it, and every relative link
in README.md and docs/ leads to a tracked file or folder."""

from __future__ import annotations

import re
import subprocess
from pathlib import Path, PurePosixPath

import pytest

ROOT = Path(__file__).resolve().parent.parent
SCANNED = ["firmware", "sim", "tests", "docs", "hardware", "systemd", "README.md"]
# The team's notebook lives outside the repository; users only ever get the repository.
# Spelt in pieces so this file does not match itself.
OUTSIDE = ["../" + "shared"] + [name + ".md" for name in ("RULES", "RECORDS", "DESIGN", "STYLE")]
# Inline links and images `[text](target)`, and reference definitions `[label]: target`.
INLINE_LINK = re.compile(r"!?\[[^\]]*\]\(\s*<?([^)\s>]+)>?(?:\s+\"[^\"]*\")?\s*\)")
REFERENCE_LINK = re.compile(r"^\s{0,3}\[[^\]]+\]:\s*<?(\S+?)>?(?:\s.*)?$", re.M)
FENCE = re.compile(r"^(```|~~~).*?^\1", re.M | re.S)
INLINE_CODE = re.compile(r"`[^`\n]*`")


def tracked(*paths: str) -> list[str]:
    """Tracked files under `paths`, relative to the repository root (git's own list)."""
    try:
        out = subprocess.run(["git", "ls-files", "-z", "--", *paths], cwd=ROOT, check=True, capture_output=True).stdout
    except (OSError, subprocess.CalledProcessError) as exc:  # pragma: no cover - needs git
        pytest.fail(f"git ls-files failed in {ROOT}: {exc}")
    return [name for name in out.decode("utf-8").split("\0") if name]


def relative_links(text: str) -> list[str]:
    """Link targets in Markdown `text` that are paths in the repository (no URL, no code)."""
    text = INLINE_CODE.sub("", FENCE.sub("", text))
    targets = INLINE_LINK.findall(text) + REFERENCE_LINK.findall(text)
    return [t for t in targets if not re.match(r"[a-zA-Z][a-zA-Z0-9+.-]*:", t)]


def test_relative_links_finds_paths_only() -> None:
    text = (
        'See [records](records.md#steps), ![pic](screenshots/a.png "A"), [web](https://x.org/a.md),\n'
        "[mail](mailto:a@b.c), [here](#top), `[code](nowhere.md)`.\n"
        "```\n[fenced](nowhere.md)\n```\n"
        "[ref]: ../hardware/BENCH.md\n"
    )
    assert relative_links(text) == ["records.md#steps", "screenshots/a.png", "#top", "../hardware/BENCH.md"]


def test_no_tracked_file_points_outside_the_repository() -> None:
    files = tracked(*SCANNED)
    assert "docs/records.md" in files and "firmware/games/exxtra/rules.py" in files  # the scan sees the tree
    found = []
    for name in files:
        path = ROOT / name
        if path.is_symlink() or not path.is_file():
            continue  # a link to a tracked folder (firmware/boards) is scanned there
        data = path.read_bytes()
        for needle in OUTSIDE:
            if needle.encode() in data:
                line = data[: data.index(needle.encode())].count(b"\n") + 1
                found.append(f"{name}:{line}: {needle}")
    assert found == [], "say it in the repository's own docs instead:\n" + "\n".join(found)


def test_every_relative_link_in_the_docs_leads_somewhere() -> None:
    files = set(tracked())
    folders = {str(parent) for name in files for parent in PurePosixPath(name).parents}
    pages = [name for name in tracked("README.md", "docs") if name.endswith(".md")]
    assert "README.md" in pages and "docs/rules/levelx.md" in pages
    broken = []
    for page in pages:
        for target in relative_links((ROOT / page).read_text(encoding="utf-8")):
            path = target.split("#", 1)[0]
            if not path:
                continue  # an anchor in the same page
            resolved = PurePosixPath(page).parent / path
            parts: list[str] = []
            for part in resolved.parts:
                if part == "..":
                    if not parts:
                        break
                    parts.pop()
                elif part != ".":
                    parts.append(part)
            else:
                name = "/".join(parts)
                if name in files or name in folders:
                    continue
            broken.append(f"{page}: {target}")
    assert broken == [], "links to files the repository does not track:\n" + "\n".join(broken)
