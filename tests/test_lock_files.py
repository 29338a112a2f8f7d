"""requirements/*.lock pin, with hashes, every dependency pyproject.toml declares: a changed
dependency without `./dev lock` fails here rather than on a Pi."""

from __future__ import annotations

import re
import tomllib
from pathlib import Path

import pytest
from packaging.requirements import Requirement
from packaging.utils import canonicalize_name

ROOT = Path(__file__).resolve().parents[1]
PROJECT = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))
LOCKS = {"pi.lock": ("pi",), "dev.lock": ("sim", "dev")}
PIN = re.compile(r"^([A-Za-z0-9][A-Za-z0-9._-]*)==([^\s;\\]+)")


def pins(text: str) -> dict[str, list[tuple[str, int]]]:
    """Name -> [(version, number of hashes)] (a name can be pinned twice, under different markers)."""
    found: dict[str, list[tuple[str, int]]] = {}
    for entry in re.split(r"\n(?=\S)", text):
        match = PIN.match(entry)
        if match:
            name, version = match.groups()
            found.setdefault(canonicalize_name(name), []).append(
                (version, len(re.findall(r"--hash=sha256:[0-9a-f]{64}", entry)))
            )
    return found


def declared(extras: tuple[str, ...]) -> list[Requirement]:
    texts = PROJECT["project"]["dependencies"] + PROJECT["build-system"]["requires"]
    for extra in extras:
        texts += PROJECT["project"]["optional-dependencies"][extra]
    return [Requirement(text) for text in texts]


@pytest.mark.parametrize("lock", sorted(LOCKS))
def test_every_declared_dependency_is_pinned_within_its_range(lock: str) -> None:
    pinned = pins((ROOT / "requirements" / lock).read_text(encoding="utf-8"))
    for requirement in declared(LOCKS[lock]):
        versions = pinned.get(canonicalize_name(requirement.name))
        assert versions, f"{requirement.name} is not in requirements/{lock}: run ./dev lock"
        for version, _ in versions:
            assert requirement.specifier.contains(version, prereleases=True), (
                f"requirements/{lock} pins {requirement.name}=={version}, outside {requirement.specifier}: run ./dev lock"
            )


@pytest.mark.parametrize("lock", sorted(LOCKS))
def test_every_pin_has_its_hashes(lock: str) -> None:
    text = (ROOT / "requirements" / lock).read_text(encoding="utf-8")
    pinned = pins(text)
    assert len(pinned) >= 10
    assert [name for name, versions in pinned.items() if any(hashes == 0 for _, hashes in versions)] == []
    assert "./dev lock" in text.splitlines()[1]  # the header says how to remake it


def test_the_pi_lock_covers_the_pi_and_builds_lgpio_from_its_sdist() -> None:
    text = (ROOT / "requirements" / "pi.lock").read_text(encoding="utf-8")
    entry = next(e for e in re.split(r"\n(?=\S)", text) if e.startswith("lgpio=="))
    assert "platform_machine == 'aarch64'" in entry and "platform_machine == 'armv7l'" in entry
    # Several files per version: the sdist and the wheels of every platform, not just this machine's.
    assert len(re.findall(r"--hash=", entry)) >= 2
