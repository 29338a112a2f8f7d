"""systemd/install.sh's own logic, run for real with stand-ins for the system's tools.

The installer is ours; what it calls (mount, systemctl, apt-get, blkid, pip, ...) is the system's.
Each stand-in is a small script on PATH in a temporary folder that writes its command line to a
log and answers as the system would (`mount` of a mounted file system exits 32), so the tests see
which commands a real run would make, in which order, and what it refuses before changing anything.
"""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
import zipfile
from pathlib import Path

import pytest

pytestmark = pytest.mark.system  # the system tier (the markers in pyproject.toml)

ROOT = Path(__file__).resolve().parents[1]
INSTALL = ROOT / "systemd" / "install.sh"

STUB = """#!/bin/bash
echo "{name} $*" >> "$STUB_LOG"
{body}
"""
BODIES = {
    # The state partition: "mounted" while the marker file exists.
    "mountpoint": 'for last; do :; done; [[ -e "$STUB_MOUNTED" && "$last" == "$STUB_STATE" ]]',
    "mount": '[[ ! -e "$STUB_MOUNTED" ]] || { echo "mount: $1: already mounted" >&2; exit 32; }; touch "$STUB_MOUNTED"',
    "findmnt": 'case "$*" in *FSTYPE*) echo ext4 ;; *SOURCE*) [[ -e "$STUB_MOUNTED" ]] && echo /dev/sda3 ;; esac; true',
    "blkid": "echo /dev/sda3",
    "raspi-config": "true",
    "systemctl": "true",
    "install": "true",
    "chown": "true",
    "apt-get": "true",
    "apt-cache": "true",
    "groupadd": "true",
    "useradd": "true",
    "usermod": "true",
    "rsync": "true",
    # Every package installed but those named in $STUB_MISSING (the last argument is the package).
    "dpkg-query": 'for last; do :; done; [[ " ${STUB_MISSING:-} " == *" $last "* ]] && exit 1; printf "install ok installed"',
}


@pytest.fixture
def system(tmp_path: Path) -> dict[str, str]:
    """The environment of a run with the stand-ins first on PATH; `STUB_LOG` collects their calls."""
    bin_dir = tmp_path / "bin"
    bin_dir.mkdir()
    for name, body in BODIES.items():
        path = bin_dir / name
        path.write_text(STUB.format(name=name, body=body))
        path.chmod(0o755)
    state = tmp_path / "state"
    state.mkdir()
    return {
        **os.environ,
        "PATH": f"{bin_dir}:{os.environ['PATH']}",
        "STUB_LOG": str(tmp_path / "calls.log"),
        "STUB_MOUNTED": str(tmp_path / "mounted"),
        "STUB_STATE": str(state),
    }


def calls(env: dict[str, str]) -> list[str]:
    log = Path(env["STUB_LOG"])
    return log.read_text().splitlines() if log.exists() else []


def installer(env: dict[str, str], script: str) -> subprocess.CompletedProcess[str]:
    """Bash code run after sourcing the installer (which then only defines its functions)."""
    return subprocess.run(
        ["bash", "-c", f"source {INSTALL}\n{script}"], env=env, capture_output=True, text=True, timeout=120
    )


def overlay_step(env: dict[str, str], tmp_path: Path, dry_run: int = 0) -> subprocess.CompletedProcess[str]:
    return installer(
        env,
        f"""
        set -euo pipefail
        DRY_RUN={dry_run}; OVERLAY=1; STATE_DIR={env["STUB_STATE"]}; FSTAB={tmp_path / "fstab"}
        RASPI_CONFIG={tmp_path / "bin" / "raspi-config"}
        setup_overlay
        echo "reboot=$REBOOT_NEEDED"
    """,
    )


# --- 5. --overlay on the documented update path -----------------------------------------------
def test_the_update_path_finds_the_state_partition_mounted_and_goes_on(system: dict[str, str], tmp_path: Path) -> None:
    """After the reboot with the overlay off, fstab has mounted the partition already: `mount`
    would exit 32 and `set -e` stop the update with the overlay off and the board stopped."""
    Path(system["STUB_MOUNTED"]).touch()
    done = overlay_step(system, tmp_path)
    assert done.returncode == 0, done.stderr
    assert f"{system['STUB_STATE']} is mounted already (/dev/sda3): kept" in done.stdout
    made = calls(system)
    assert not [c for c in made if c.startswith(("mount ", "systemctl stop"))], made
    assert made[-1] == "raspi-config nonint do_overlayfs 0" and done.stdout.endswith("reboot=1\n")
    again = overlay_step(system, tmp_path)  # and once more: nothing new
    assert again.returncode == 0 and (tmp_path / "fstab").read_text().count("LABEL=xtraboard-state") == 1


def test_the_first_overlay_moves_the_games_onto_the_partition(system: dict[str, str], tmp_path: Path) -> None:
    games = Path(system["STUB_STATE"]) / "xtraboard.db"
    games.write_text("the games so far")
    done = overlay_step(system, tmp_path)
    assert done.returncode == 0, done.stderr
    made = [
        " ".join(c.split(" ")[:2])
        for c in calls(system)
        if c.split(" ")[0] in ("systemctl", "mount", "chown", "raspi-config")
    ]
    assert made == ["systemctl stop", f"mount {system['STUB_STATE']}", "chown -R", "raspi-config nonint"]
    assert games.read_text() == "the games so far"


@pytest.mark.parametrize("mounted", [False, True], ids=["first time", "update"])
def test_a_dry_run_shows_the_sequence_a_real_run_makes(system: dict[str, str], tmp_path: Path, mounted: bool) -> None:
    if mounted:
        Path(system["STUB_MOUNTED"]).touch()
    done = overlay_step(system, tmp_path, dry_run=1)
    assert done.returncode == 0, done.stderr
    shown = [
        line.split("would run: ", 1)[1].split(" ")[0] for line in done.stdout.splitlines() if "would run: " in line
    ]
    raspi_config = str(tmp_path / "bin" / "raspi-config")
    if mounted:
        assert shown == ["install", raspi_config] and "is mounted already" in done.stdout
    else:
        assert shown == ["install", "systemctl", "cp", "mount", "cp", "chown", "chmod", "rm", raspi_config]
    assert [c for c in calls(system) if not c.startswith(("mountpoint", "findmnt", "blkid"))] == []  # it only looked


# --- 7. check first, change nothing, say why ---------------------------------------------------
def test_without_systemd_as_pid_1_nothing_is_changed_and_it_says_why(system: dict[str, str], tmp_path: Path) -> None:
    done = installer(system, f"SYSTEMD_RUN_DIR={tmp_path / 'no-systemd'}; SOURCE={ROOT}; main")
    assert done.returncode == 1
    assert f"install.sh: systemd is not running as PID 1 here (no {tmp_path / 'no-systemd'})" in done.stderr
    assert done.stderr.endswith("install.sh: nothing was changed\n") and done.stdout == ""
    assert [c for c in calls(system) if not c.startswith(("findmnt", "blkid", "mountpoint"))] == []


def test_an_overlay_without_its_partition_is_refused_before_any_change(system: dict[str, str], tmp_path: Path) -> None:
    (tmp_path / "bin" / "blkid").write_text("#!/bin/sh\nexit 2\n")  # no file system with that label
    done = installer(system, f"SYSTEMD_RUN_DIR={tmp_path}; SOURCE={ROOT}; main --overlay")
    assert done.returncode == 1
    assert "install.sh: no file system labelled xtraboard-state: make one first" in done.stderr
    assert "apt-get" not in "".join(calls(system))


def clone(tmp_path: Path) -> Path:
    """A copy of what the installer copies to /opt: enough of the repository to build it."""
    source = tmp_path / "clone"
    source.mkdir()
    for name in ("pyproject.toml", "build_hooks.py", "README.md"):
        shutil.copy2(ROOT / name, source / name)
    for name in ("firmware", "sim", "hardware", "systemd", "requirements"):
        shutil.copytree(ROOT / name, source / name, symlinks=True, ignore=shutil.ignore_patterns("__pycache__", "*.mo"))
    return source


def test_links_leading_out_of_the_clone_and_private_files_are_refused(system: dict[str, str], tmp_path: Path) -> None:
    source = clone(tmp_path)
    check = f"SOURCE={source}; unfit_source"
    assert (source / "firmware" / "boards").is_symlink()  # a link within the clone is fine
    assert installer(system, check).stdout == ""
    (tmp_path / "elsewhere.py").write_text("print('the clone owner's code, run by root')\n")
    (source / "firmware" / "plugin.py").symlink_to(tmp_path / "elsewhere.py")
    found = installer(system, check).stdout
    assert found.startswith(f"{source}/firmware/plugin.py is a symbolic link leading out of the clone")
    (source / "firmware" / "plugin.py").unlink()
    (source / "hardware" / "secret.toml").write_text('password = "the broker\'s"\n')
    (source / "hardware" / "secret.toml").chmod(0o600)
    found = installer(system, check).stdout
    assert found.startswith(f"{source}/hardware/secret.toml is private (mode 600)")
    done = installer(system, f"SYSTEMD_RUN_DIR={tmp_path}; SOURCE={source}; main")
    assert done.returncode == 1 and "secret.toml is private" in done.stderr
    assert "rsync" not in "".join(calls(system)) and "apt-get" not in "".join(calls(system))


def test_the_copy_keeps_no_link_out_and_makes_nothing_readable_that_was_not() -> None:
    done = subprocess.run([str(INSTALL), "--dry-run"], capture_output=True, text=True, timeout=120)
    [copy] = [line for line in done.stdout.splitlines() if "would run: rsync " in line]
    assert " --safe-links " in copy and " --chmod=go-w " in copy and "a+r" not in copy


# --- 6. modules deleted upstream do not come back --------------------------------------------
def test_a_module_deleted_upstream_is_not_in_the_reinstalled_wheel(system: dict[str, str], tmp_path: Path) -> None:
    """What an earlier install left in /opt/xtraboard/build/ (rsync leaves it alone) used to be
    packed into the new wheel. The venv's pip stands in here: it builds the wheel as pip would."""
    prefix = clone(tmp_path)
    stale = prefix / "build" / "lib" / "firmware" / "removed_upstream.py"
    stale.parent.mkdir(parents=True)
    stale.write_text("GONE = True\n")
    venv = tmp_path / "venv" / "bin"
    venv.mkdir(parents=True)
    (venv / "python").write_text("#!/bin/sh\n")
    wheels = tmp_path / "wheels"
    (venv / "pip").write_text(f"""#!/bin/bash
echo "pip $*" >> "$STUB_LOG"
for last; do :; done
case "$*" in *--force-reinstall*)
    exec {sys.executable} -m pip wheel --quiet --no-deps --no-build-isolation -w {wheels} "$last" ;;
esac
""")
    for name in ("python", "pip"):
        (venv / name).chmod(0o755)
    done = installer(
        system, f"set -euo pipefail; OWNER=$(id -un); DRY_RUN=0; VENV={venv.parent}; PREFIX={prefix}\ninstall_venv"
    )
    assert done.returncode == 0, done.stderr
    [wheel] = wheels.glob("*.whl")
    names = zipfile.ZipFile(wheel).namelist()
    assert "firmware/cli.py" in names and "firmware/removed_upstream.py" not in names
    assert not (prefix / "build").exists()


def test_the_parts_it_checks_are_read_from_the_merged_description(system: dict[str, str], tmp_path: Path) -> None:
    """A description that extends another has its [fleet], [[engines]] and LED driver where the
    base put them: the installer asks the installed firmware for the merged description."""
    venv = tmp_path / "venv"
    (venv / "bin").mkdir(parents=True)
    xtraboard = venv / "bin" / "xtraboard"
    xtraboard.write_text(f'#!/bin/sh\ncd {ROOT} && exec {sys.executable} -m firmware "$@"\n', encoding="utf-8")
    xtraboard.chmod(0o755)
    default = ROOT / "hardware" / "board.toml"
    (tmp_path / "cafe.toml").write_text(
        f'extends = "{default}"\n[fleet]\ntable = "t1"\nbroker = "127.0.0.1"\n'
        '[[engines]]\nname = "E"\ncommand = ["/bin/true"]\n',
        encoding="utf-8",
    )
    board = tmp_path / "board.toml"
    board.write_text('extends = "cafe.toml"\n[leds]\nbrightness = 0.3\n', encoding="utf-8")
    script = f"VENV={venv}\nhas_fleet {board} && echo fleet\nhas_engines {board} && echo engines\nled_driver {board}\n"
    done = installer(system, script)
    assert done.returncode == 0, done.stderr
    assert done.stdout.split() == ["fleet", "engines", "spi"]
    # Without the firmware installed yet, the file itself is read, as before.
    done = installer(system, f"VENV={tmp_path / 'none'}\nhas_fleet {default} || echo none\nled_driver {default}\n")
    assert done.stdout.split() == ["none", "spi"]


# --- --wheelhouse DIR: offline, and plain Debian -------------------------------------------------
def wheelhouse_dir(tmp_path: Path) -> Path:
    folder = tmp_path / "wheelhouse"
    folder.mkdir()
    (folder / "smbus2-0.6.1-py2.py3-none-any.whl").write_bytes(b"")
    return folder


def test_an_offline_dry_run_installs_from_the_wheelhouse_only_and_never_updates_apt(
    system: dict[str, str], tmp_path: Path
) -> None:
    wheels = wheelhouse_dir(tmp_path)
    done = installer(system, f"SYSTEMD_RUN_DIR={tmp_path}; SOURCE={ROOT}; main --dry-run --wheelhouse {wheels}")
    assert done.returncode == 0, done.stderr
    assert "offline (--wheelhouse): all installed, kept; no apt-get update" in done.stdout
    pips = [line for line in done.stdout.splitlines() if "would run:" in line and "/pip install" in line]
    assert len(pips) == 2 and all(f"--no-index --find-links {wheels}" in line for line in pips)
    assert "--require-hashes -r /opt/xtraboard/requirements/pi.lock" in pips[0]
    assert "apt-get" not in done.stdout.replace("no apt-get update", "")
    assert not [c for c in calls(system) if c.startswith(("apt-get", "apt-cache"))]


def test_offline_missing_apt_packages_are_named_and_nothing_is_changed(system: dict[str, str], tmp_path: Path) -> None:
    system["STUB_MISSING"] = "bubblewrap rsync"
    wheels = wheelhouse_dir(tmp_path)
    done = installer(system, f"SYSTEMD_RUN_DIR={tmp_path}; SOURCE={ROOT}; main --wheelhouse {wheels}")
    assert done.returncode == 1
    assert (
        "install.sh: --wheelhouse installs offline, but these apt packages are not installed: rsync bubblewrap"
        " (install them first: apt-get install rsync bubblewrap)"
    ) in done.stderr
    assert done.stderr.endswith("install.sh: nothing was changed\n") and done.stdout == ""
    assert not [c for c in calls(system) if not c.startswith(("findmnt", "blkid", "mountpoint", "dpkg-query"))]


@pytest.mark.parametrize("make", ["missing", "empty"])
def test_a_wheelhouse_that_is_not_there_or_empty_is_refused(system: dict[str, str], tmp_path: Path, make: str) -> None:
    wheels = tmp_path / "wheelhouse"
    if make == "empty":
        wheels.mkdir()
    done = installer(system, f"SYSTEMD_RUN_DIR={tmp_path}; SOURCE={ROOT}; main --wheelhouse {wheels}")
    assert done.returncode == 1
    if make == "missing":
        assert done.stderr == f"install.sh: --wheelhouse: no directory {wheels}\n"
    else:
        assert f"install.sh: --wheelhouse {wheels} has no wheels or sdists" in done.stderr
    assert not [c for c in calls(system) if c.startswith(("apt-get", "useradd", "rsync", "systemctl"))]


def test_on_plain_debian_the_pi_steps_are_skipped_with_a_line_saying_so(system: dict[str, str], tmp_path: Path) -> None:
    nothing = tmp_path / "nothing"
    script = (
        f"RASPI_CONFIG={nothing}; DEVICE_TREE_MODEL={nothing}; BOOT_CONFIGS=({nothing});"
        f" MODULES_LOAD_DIR={tmp_path}; DRY_RUN=1; create_user; enable_buses"
    )
    done = installer(system, script)
    assert done.returncode == 0, done.stderr
    assert (
        "not a Raspberry Pi: groups gpio i2c spi are made if missing, but no device here belongs to them" in done.stdout
    )
    assert "not a Raspberry Pi (plain Debian): skipped raspi-config, config.txt" in done.stdout
    assert done.stderr == "" and not list(tmp_path.glob("*.conf"))


def test_a_pi_without_raspi_config_or_config_txt_is_told_to_enable_the_buses(
    system: dict[str, str], tmp_path: Path
) -> None:
    model = tmp_path / "model"
    model.write_bytes(b"Raspberry Pi Zero 2 W Rev 1.0\0")
    nothing = tmp_path / "nothing"
    done = installer(
        system, f"RASPI_CONFIG={nothing}; DEVICE_TREE_MODEL={model}; BOOT_CONFIGS=({nothing}); enable_buses"
    )
    assert done.returncode == 0
    assert "no raspi-config and no config.txt: enable I2C and SPI by hand" in done.stderr


@pytest.mark.parametrize("cmdline, refused", [("console=tty1 boot=overlay", True), ("console=tty1", False)])
def test_only_raspberry_pi_oss_overlay_counts_as_the_read_only_root(
    system: dict[str, str], tmp_path: Path, cmdline: str, refused: bool
) -> None:
    (tmp_path / "bin" / "findmnt").write_text("#!/bin/sh\necho overlay\n")  # / is an overlay either way
    (tmp_path / "cmdline").write_text(cmdline + "\n")
    done = installer(system, f"KERNEL_CMDLINE={tmp_path / 'cmdline'}; read_only_overlay && echo refused || echo kept")
    assert done.stdout == ("refused\n" if refused else "kept\n")
