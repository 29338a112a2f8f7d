"""Golden OLED images: tests/golden/<folder>/<name>.png, regenerated with XTRABOARD_REGEN_GOLDEN=1
(then look at them before committing). Per display profile: tests/golden/<profile>/<name>.png
(`check_profile_golden`; the profiles are hardware/boards/*.toml and "default")."""

from __future__ import annotations

import os
from pathlib import Path

from PIL import Image, ImageChops

GOLDEN = Path(__file__).parent / "golden"


def check_golden(folder: str, name: str, image: Image.Image) -> None:
    """Compare `image` with its golden file pixel by pixel (or write it when regenerating)."""
    path = GOLDEN / folder / f"{name}.png"
    if os.environ.get("XTRABOARD_REGEN_GOLDEN") == "1":
        path.parent.mkdir(parents=True, exist_ok=True)
        image.convert("1").save(path)
        return
    assert path.exists(), f"golden image {path} is missing; run with XTRABOARD_REGEN_GOLDEN=1 to create it"
    expected = Image.open(path).convert("L")
    assert expected.size == image.size, f"{name}: size {image.size}, golden {expected.size}"
    diff = ImageChops.difference(expected, image.convert("L")).getbbox()
    assert diff is None, (
        f"{name} differs from {path} within {diff}; look at both, then regenerate with XTRABOARD_REGEN_GOLDEN=1"
    )


def check_profile_golden(profile: str, name: str, image: Image.Image) -> None:
    """A screen drawn for a display profile (e.g. "ssd1322", "default"), against
    tests/golden/<profile>/<name>.png."""
    check_golden(profile, name, image)
