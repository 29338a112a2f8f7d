"""Placeholder until the window lands: saves the OLED image scaled up."""

from __future__ import annotations

from pathlib import Path


def save_screenshot(board, path: Path) -> None:
    image = board.image()
    image.convert("RGB").resize((image.width * 4, image.height * 4)).save(path)
