"""`./dev test` and `./dev lint`: the lint checks run first, in order, and the first that fails stops
the run with a line naming it. The real script runs in a scratch copy whose venv holds recording
stand-ins for python, ruff and mypy (the real tools are slow, and the tree is not formatted yet)."""

from __future__ import annotations

import os
import shutil
import stat
import subprocess
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
# Logs each call ("ruff format --check ."), then fails when the call contains $FAIL; the stand-in
# python answers `-m pytest` with $PYTEST_STATUS.
TOOL = """#!/bin/sh
tool=$(basename "$0")
echo "$tool $*" >> "$CALLS"
if [ -n "$FAIL" ]; then
    case "$tool $*" in *"$FAIL"*) exit 1 ;; esac
fi
if [ "$tool" = python ] && [ "$1 $2" = "-m pytest" ]; then exit "${PYTEST_STATUS:-0}"; fi
exit 0
"""


@pytest.fixture
def checkout(tmp_path: Path) -> Path:
    shutil.copy2(ROOT / "dev", tmp_path / "dev")
    bin_dir = tmp_path / ".venv" / "bin"
    bin_dir.mkdir(parents=True)
    for tool in ("python", "ruff", "mypy"):
        path = bin_dir / tool
        path.write_text(TOOL, encoding="utf-8")
        path.chmod(path.stat().st_mode | stat.S_IXUSR)
    (tmp_path / ".venv" / ".installed").touch()  # set up already: no pip
    return tmp_path


def dev(checkout: Path, *args: str, fail: str = "", pytest_status: int = 0) -> tuple[int, str, list[str]]:
    calls = checkout / "calls"
    env = dict(os.environ, CALLS=str(calls), FAIL=fail, PYTEST_STATUS=str(pytest_status))
    done = subprocess.run(
        [str(checkout / "dev"), *args], cwd=checkout, env=env, capture_output=True, text=True, timeout=60
    )
    made = calls.read_text(encoding="utf-8").splitlines() if calls.exists() else []
    return done.returncode, done.stderr, [c.strip() for c in made if not c.startswith("python -m firmware.i18n")]


LINT = ["ruff check .", "ruff format --check .", "mypy"]


def test_dev_test_lints_before_the_tests(checkout: Path) -> None:
    code, _, calls = dev(checkout, "test", "-k", "fast")
    assert code == 0
    assert calls == [*LINT, "python -m pytest -k fast"]


@pytest.mark.parametrize("failing", ["ruff check", "ruff format", "mypy"])
def test_the_first_failing_check_stops_the_run_and_is_named(checkout: Path, failing: str) -> None:
    code, stderr, calls = dev(checkout, "test", fail=failing)
    assert code != 0
    check = next(c for c in LINT if c.startswith(failing))
    assert f"lint failed: '{check}'" in stderr
    assert calls == LINT[: LINT.index(check) + 1]  # nothing after it: no later check, no pytest


def test_dev_lint_runs_only_the_checks(checkout: Path) -> None:
    code, _, calls = dev(checkout, "lint")
    assert (code, calls) == (0, LINT)
    code, stderr, _ = dev(checkout, "lint", fail="mypy")
    assert code == 1 and "lint failed: 'mypy'" in stderr


def test_no_tests_collected_is_still_a_failure(checkout: Path) -> None:
    code, stderr, _ = dev(checkout, "test", pytest_status=5)
    assert code == 1 and "collected no tests" in stderr
