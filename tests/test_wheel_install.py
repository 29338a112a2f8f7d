"""The wheel as a new user installs it: built from the sources, installed (not editable) into a
fresh venv outside the checkout without the network, then run from a directory of its own.

Dependencies come from the wheelhouse `./dev setup` keeps in the venv (the locked, hash-checked
files), so the test needs no network.
"""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
import zipfile
from pathlib import Path

import pytest

from tests.support import stays_up_without_gpio

pytestmark = pytest.mark.system  # the system tier (the markers in pyproject.toml)

ROOT = Path(__file__).resolve().parents[1]
WHEELHOUSE = Path(sys.prefix) / "wheelhouse"
NOT_SOURCES = (
    ".git",
    ".venv",
    "venv",
    "__pycache__",
    "build",
    "dist",
    "*.egg-info",
    ".pytest_cache",
    ".hypothesis",
    ".benchmarks",
    "out",
    "*.mo",
)  # the build compiles the catalogs itself


def clean_environment(home: Path) -> dict[str, str]:
    """This process's environment without anything that points back at the checkout or at
    this machine's pip set-up (find-links, extra indexes): what a fresh shell of a new user has."""
    env = {
        key: value
        for key, value in os.environ.items()
        if not key.startswith(("PIP_", "PYTHON", "XTRABOARD_", "XDG_", "VIRTUAL_ENV"))
    }
    env.update(PIP_CONFIG_FILE=os.devnull, PIP_DISABLE_PIP_VERSION_CHECK="1", PIP_NO_INDEX="1", HOME=str(home))
    env["PATH"] = os.pathsep.join(p for p in env.get("PATH", "").split(os.pathsep) if not p.startswith(sys.prefix))
    return env


def run(command: list[str | Path], cwd: Path, env: dict[str, str]) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [str(part) for part in command],
        cwd=cwd,
        env=env,
        capture_output=True,
        text=True,
        timeout=300,
        stdin=subprocess.DEVNULL,
    )


@pytest.fixture(scope="module")
def installed(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, Path, dict[str, str]]:
    """(the wheel, the venv's bin directory, the environment to run it in); cwd is a tmp dir."""
    if not any(WHEELHOUSE.glob("*.whl")):
        pytest.fail(f"no wheels in {WHEELHOUSE}: run ./dev setup (it keeps the locked dependencies there)")
    work = tmp_path_factory.mktemp("wheel-install")
    home = work / "home"
    home.mkdir()
    env = clean_environment(home)
    # Build from a copy: building in the checkout would leave build/ and *.egg-info behind.
    source = work / "source"
    shutil.copytree(ROOT, source, symlinks=True, ignore=shutil.ignore_patterns(*NOT_SOURCES))
    dist = work / "dist"
    built = run(
        [
            sys.executable,
            "-m",
            "pip",
            "wheel",
            "--quiet",
            "--no-deps",
            "--no-build-isolation",
            "--wheel-dir",
            dist,
            source,
        ],
        work,
        env,
    )
    assert built.returncode == 0, built.stdout + built.stderr
    [wheel] = dist.glob("xtraboard-*.whl")
    venv = work / "venv"
    made = run([sys.executable, "-m", "venv", venv], work, env)
    assert made.returncode == 0, made.stderr
    done = run(
        [venv / "bin" / "python", "-m", "pip", "install", "--quiet", "--no-index", "--find-links", WHEELHOUSE, wheel],
        work,
        env,
    )
    assert done.returncode == 0, done.stdout + done.stderr
    return wheel, venv / "bin", env


def package_files() -> set[str]:
    """Every file the packages need at run time: all of firmware/ and sim/ (code, fonts, any
    data) except caches, and of firmware/boards (the link to hardware/) the board descriptions."""
    files = set()
    for top in ("firmware", "sim"):
        for folder, dirs, names in os.walk(ROOT / top, followlinks=True):
            dirs[:] = [name for name in dirs if name != "__pycache__"]
            relative = Path(folder).relative_to(ROOT)
            for name in names:
                if name.endswith(".pyc") or (
                    relative.parts[:2] == ("firmware", "boards") and not name.endswith(".toml")
                ):
                    continue
                files.add((relative / name).as_posix())
    return files


def test_the_wheel_carries_everything_the_packages_hold(installed: tuple[Path, Path, dict[str, str]]) -> None:
    wheel, _, _ = installed
    with zipfile.ZipFile(wheel) as archive:
        names = set(archive.namelist())
        shipped = archive.read("firmware/boards/board.toml")
    assert shipped == (ROOT / "hardware" / "board.toml").read_bytes()
    expected = package_files()
    assert "firmware/boards/board.toml" in expected and "sim/app.py" in expected
    assert sorted(expected - names) == []  # e.g. a new data file that package-data does not match
    assert not [name for name in names if name.startswith(("tests/", "hardware/", "systemd/"))]


def test_the_installed_firmware_is_not_the_checkout(installed: tuple[Path, Path, dict[str, str]]) -> None:
    _, bin_dir, env = installed
    code = "import firmware.hardware.config as c; print(c.__file__); print(c.find_board_path())"
    done = run([bin_dir / "python", "-c", code], Path(env["HOME"]), env)
    assert done.returncode == 0, done.stderr
    module, board = done.stdout.splitlines()
    site = bin_dir.parent / "lib"
    assert Path(module).is_relative_to(site) and Path(board).is_relative_to(site), done.stdout


def test_the_installed_profiles_extend_the_installed_default(installed: tuple[Path, Path, dict[str, str]]) -> None:
    """The profiles' `extends = "../board.toml"` finds the installed default, and an operator's
    description names a shipped one with `shipped:` wherever the package went."""
    _, bin_dir, env = installed
    home = Path(env["HOME"])
    mine = home / "board.toml"
    mine.write_text('extends = "shipped:boards/ssd1322.toml"\n[leds]\nbrightness = 0.25\n', encoding="utf-8")
    code = (
        "import sys; from firmware.hardware.config import default_board_path, load_board\n"
        "profiles = sorted((default_board_path().parent / 'boards').glob('*.toml'))\n"
        "boards = [load_board(p) for p in profiles]\n"
        "mine = load_board(sys.argv[1])\n"
        "print(len(boards), all(b.buzzer is not None for b in boards), mine.display.driver, mine.leds.brightness,"
        " mine.buttons.pins['left'])"
    )
    done = run([bin_dir / "python", "-c", code, mine], home, env)
    assert done.returncode == 0, done.stderr
    assert done.stdout.split() == [
        str(len(list((ROOT / "hardware" / "boards").glob("*.toml")))),
        "True",
        "ssd1322",
        "0.25",
        "22",
    ]


def test_the_headless_demo_plays_a_game(installed: tuple[Path, Path, dict[str, str]]) -> None:
    _, bin_dir, env = installed
    done = run(
        [bin_dir / "xtraboard", "sim", "--headless", "--demo", "extra", "--seats", "2", "--seed", "7"],
        Path(env["HOME"]),
        env,
    )
    assert done.returncode == 0, done.stderr
    assert done.stderr == ""
    record = json.loads(done.stdout)
    assert record["game"] == "extra" and record["steps"] > 0 and len(record["result"]["scores"]) == 2


def test_the_installed_strong_extra_bot_reads_its_learnt_tables(installed: tuple[Path, Path, dict[str, str]]) -> None:
    """The strong EXTRA! bot's learnt tables are a data file in the wheel, read (and checked
    against their header) from the installed package, with no bytecode written."""
    wheel, bin_dir, env = installed
    with zipfile.ZipFile(wheel) as archive:
        shipped = archive.read("firmware/games/extra/learnt.bin")
    assert shipped == (ROOT / "firmware" / "games" / "extra" / "learnt.bin").read_bytes()
    code = (
        "from firmware.games.extra import learnt; t = learnt.tables(); print(learnt.PATH);"
        " print(len(t.rows), len(t.numbers), len(t.joint))"
    )
    done = run([bin_dir / "python", "-c", code], Path(env["HOME"]), {**env, "PYTHONDONTWRITEBYTECODE": "1"})
    assert done.returncode == 0, done.stderr
    path, sizes = done.stdout.splitlines()
    assert Path(path).is_relative_to(bin_dir.parent / "lib")
    assert sizes == "26970 42 69"


def test_the_wheel_speaks_german_without_babel(installed: tuple[Path, Path, dict[str, str]]) -> None:
    """The build compiled the catalogs (build_hooks.py): the board reads them without Babel."""
    wheel, bin_dir, env = installed
    with zipfile.ZipFile(wheel) as archive:
        assert {"firmware/locale/de/LC_MESSAGES/xtraboard.mo", "firmware/locale/fr/LC_MESSAGES/xtraboard.mo"} <= set(
            archive.namelist()
        )
    code = (
        "import importlib.util; from firmware import i18n; i18n.use('de');"
        " print(importlib.util.find_spec('babel'), i18n._('Settings'))"
    )
    done = run([bin_dir / "python", "-c", code], Path(env["HOME"]), env)
    assert (done.returncode, done.stdout, done.stderr) == (0, "None Einstellungen\n", "")


def test_selftest_has_its_help(installed: tuple[Path, Path, dict[str, str]]) -> None:
    _, bin_dir, env = installed
    done = run([bin_dir / "xtraboard", "selftest", "--help"], Path(env["HOME"]), env)
    assert done.returncode == 0, done.stderr
    assert done.stdout.startswith("usage: xtraboard selftest") and "--board" in done.stdout


def test_run_without_gpio_says_so_in_one_line_and_waits(installed: tuple[Path, Path, dict[str, str]]) -> None:
    """Not a Pi: the installed board stays up waiting for GPIO (no restart loop under systemd),
    the reason in one line; SIGTERM ends it cleanly."""
    _, bin_dir, env = installed
    command = [str(bin_dir / "xtraboard"), "run", "--state-dir", str(Path(env["HOME"]) / "state")]
    child = subprocess.Popen(
        command,
        cwd=env["HOME"],
        env=env,
        stdin=subprocess.DEVNULL,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )
    lines, stdout, rest = stays_up_without_gpio(child)
    assert child.returncode == 0 and stdout == "" and "Traceback" not in rest
    [message] = [line for line in lines + rest.splitlines() if not line.startswith("xtraboard run: warning:")]
    assert message.startswith("xtraboard run: buttons: no GPIO access") and "gpio" in message
