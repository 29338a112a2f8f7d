"""systemd integration: the notifier over a real datagram socket, the unit, the installer."""

from __future__ import annotations

import logging
import os
import re
import shutil
import socket
import subprocess
import sys
import uuid
from collections.abc import Iterator
from pathlib import Path

import pytest

from firmware.service import SystemdNotifier, watchdog_interval

pytestmark = pytest.mark.system  # the system tier (the markers in pyproject.toml)

ROOT = Path(__file__).resolve().parents[1]
UNIT = ROOT / "systemd" / "xtraboard.service"
INSTALL = ROOT / "systemd" / "install.sh"


# --- the notifier ----------------------------------------------------------------------------
@pytest.fixture
def notify_socket(tmp_path: Path) -> Iterator[tuple[socket.socket, str]]:
    """systemd's end: a datagram socket bound to a path, and $NOTIFY_SOCKET for it."""
    path = tmp_path / "notify"
    server = socket.socket(socket.AF_UNIX, socket.SOCK_DGRAM)
    server.bind(str(path))
    server.settimeout(10)  # a guard against hanging, not a timing assertion
    yield server, str(path)
    server.close()


def test_messages_reach_the_notify_socket(notify_socket: tuple[socket.socket, str]) -> None:
    server, path = notify_socket
    with SystemdNotifier({"NOTIFY_SOCKET": path}) as notifier:
        assert notifier.enabled
        assert notifier.ready("menu")
        assert server.recv(4096) == b"READY=1\nSTATUS=menu"
        assert notifier.watchdog()
        assert server.recv(4096) == b"WATCHDOG=1"
        assert notifier.status("EXTRA!\n  round 3")  # one line, or it would start a new key
        assert server.recv(4096) == b"STATUS=EXTRA! round 3"
        assert notifier.ready()
        assert server.recv(4096) == b"READY=1"
        assert notifier.stopping()
        assert server.recv(4096) == b"STOPPING=1"


def test_an_abstract_socket_name_starts_with_at() -> None:
    name = f"xtraboard-test-{os.getpid()}-{uuid.uuid4().hex}"
    server = socket.socket(socket.AF_UNIX, socket.SOCK_DGRAM)
    server.bind(b"\0" + name.encode())
    server.settimeout(10)
    try:
        notifier = SystemdNotifier({"NOTIFY_SOCKET": "@" + name})
        assert notifier.address == b"\0" + name.encode()
        assert notifier.status("rolling")
        assert server.recv(4096) == b"STATUS=rolling"
        notifier.close()
        notifier.close()
    finally:
        server.close()


@pytest.mark.parametrize(
    "environ", [{}, {"NOTIFY_SOCKET": ""}, {"NOTIFY_SOCKET": "relative/path"}, {"NOTIFY_SOCKET": "vsock:2:1234"}]
)
def test_outside_systemd_every_call_is_a_no_op(environ: dict[str, str]) -> None:
    notifier = SystemdNotifier(environ)
    assert not notifier.enabled and notifier.address is None
    assert [notifier.ready(), notifier.watchdog(), notifier.status("x"), notifier.stopping()] == [False] * 4
    assert notifier._socket is None  # no socket was even opened


def test_the_environment_is_read_by_default(notify_socket, monkeypatch: pytest.MonkeyPatch) -> None:
    server, path = notify_socket
    monkeypatch.setenv("NOTIFY_SOCKET", path)
    assert SystemdNotifier().watchdog() and server.recv(4096) == b"WATCHDOG=1"


def test_a_vanished_socket_is_logged_once_and_never_raised(tmp_path: Path, caplog: pytest.LogCaptureFixture) -> None:
    path = tmp_path / "gone"
    notifier = SystemdNotifier({"NOTIFY_SOCKET": str(path)})
    assert notifier.watchdog() is False
    assert notifier.watchdog() is False
    lines = [r.getMessage() for r in caplog.records if r.name == "xtraboard.service" and r.levelno == logging.WARNING]
    assert len(lines) == 1 and str(path) in lines[0] and "No such file or directory" in lines[0]


@pytest.mark.parametrize(
    ("environ", "interval"),
    [
        ({"WATCHDOG_USEC": "30000000"}, 15.0),
        ({"WATCHDOG_USEC": "5000000", "WATCHDOG_PID": "42"}, 2.5),
        ({"WATCHDOG_USEC": "30000000", "WATCHDOG_PID": "43"}, None),  # meant for another process
        ({"WATCHDOG_USEC": "30000000", "WATCHDOG_PID": "x"}, None),
        ({"WATCHDOG_USEC": "0"}, None),
        ({"WATCHDOG_USEC": "soon"}, None),
        ({"WATCHDOG_PID": "42"}, None),
        ({}, None),
    ],
)
def test_watchdog_interval_is_half_of_watchdog_usec(environ: dict[str, str], interval: float | None) -> None:
    assert watchdog_interval(environ, pid=lambda: 42) == interval


def test_the_notifier_tells_the_board_loop_its_watchdog_interval() -> None:
    """Board.run asks the notifier; it had no such method, so `run` under systemd crashed."""
    assert SystemdNotifier({"NOTIFY_SOCKET": "/run/x", "WATCHDOG_USEC": "20000000"}).watchdog_interval() == 10.0
    assert SystemdNotifier({}).watchdog_interval() is None


def test_watchdog_interval_reads_the_environment_and_pid(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("WATCHDOG_USEC", "20000000")
    monkeypatch.setenv("WATCHDOG_PID", str(os.getpid()))
    assert watchdog_interval() == 10.0


# --- the unit ----------------------------------------------------------------------------------
def unit_entries(text: str) -> list[tuple[str, str, str]]:
    """(section, key, value) for every assignment; keys may repeat (DeviceAllow=)."""
    section, entries = "", []
    for line in text.splitlines():
        line = line.strip()
        if not line or line.startswith(("#", ";")):
            continue
        if line.startswith("["):
            section = line.strip("[]")
            continue
        key, _, value = line.partition("=")
        entries.append((section, key.strip(), value.strip()))
    return entries


def systemd_analyze() -> str:
    path = shutil.which("systemd-analyze")
    if path is None:
        pytest.fail(
            "systemd-analyze not found: install the `systemd` package (apt-get install systemd) to verify the unit"
        )
    return path


def verify(unit_text: str, directory: Path) -> list[str]:
    """Lines `systemd-analyze verify` prints about a copy of the unit whose ExecStart exists."""
    runnable = re.sub(r"^ExecStart=\S+", f"ExecStart={shutil.which('true') or sys.executable}", unit_text, flags=re.M)
    copy = directory / "xtraboard.service"
    copy.write_text(runnable)
    done = subprocess.run([systemd_analyze(), "verify", str(copy)], capture_output=True, text=True, timeout=120)
    return [line for line in (done.stdout + done.stderr).splitlines() if "xtraboard" in line] + (
        [f"exit status {done.returncode}"] if done.returncode else []
    )


def test_systemd_analyze_verifies_the_unit_without_a_warning(tmp_path: Path) -> None:
    assert verify(UNIT.read_text(), tmp_path) == []


def test_systemd_analyze_would_catch_a_mistake(tmp_path: Path) -> None:
    broken = UNIT.read_text().replace("ProtectHome=yes", "ProtectHomes=yes")
    assert any("ProtectHomes" in line for line in verify(broken, tmp_path))


def test_the_unit_is_a_hardened_notify_service_of_its_own_user() -> None:
    entries = unit_entries(UNIT.read_text())
    service = {key: value for section, key, value in entries if section == "Service"}
    assert service["Type"] == "notify" and service["NotifyAccess"] == "main"
    assert service["ExecStart"] == "/opt/xtraboard/venv/bin/xtraboard run --kiosk --state-dir /var/lib/xtraboard"
    assert int(service["WatchdogSec"]) > 0 and service["Restart"] == "always" and int(service["RestartSec"]) > 0
    assert service["User"] == service["Group"] == "xtraboard" and service["StateDirectory"] == "xtraboard"
    assert set(service["SupplementaryGroups"].split()) == {"gpio", "i2c", "spi"}
    for key, value in [
        ("ProtectSystem", "strict"),
        ("ProtectHome", "yes"),
        ("PrivateTmp", "yes"),
        ("NoNewPrivileges", "yes"),
        ("ProtectKernelTunables", "yes"),
        ("ProtectKernelModules", "yes"),
        ("RestrictAddressFamilies", "AF_UNIX"),
        ("DevicePolicy", "closed"),
    ]:
        assert service[key] == value, key
    assert "PrivateDevices" not in service  # it would hide the GPIO chips, I2C and SPI devices
    assert service["MemoryMax"].endswith("M")
    devices = [value for section, key, value in entries if key == "DeviceAllow"]
    assert devices == ["char-gpiochip rw", "char-i2c rw", "char-spi rw"]
    assert ("Install", "WantedBy", "multi-user.target") in entries


def test_the_unit_exposes_little(tmp_path: Path) -> None:
    copy = tmp_path / "xtraboard.service"
    copy.write_text(UNIT.read_text())
    done = subprocess.run(
        [systemd_analyze(), "security", "--offline=yes", str(copy)], capture_output=True, text=True, timeout=120
    )
    found = re.search(r"Overall exposure level for xtraboard\.service: ([\d.]+)", done.stdout)
    assert found is not None, done.stdout + done.stderr
    assert float(found.group(1)) <= 2.0


# --- the installer -----------------------------------------------------------------------------
def test_the_installer_is_valid_bash() -> None:
    done = subprocess.run(["bash", "-n", str(INSTALL)], capture_output=True, text=True, timeout=60)
    assert done.returncode == 0, done.stderr
    assert os.access(INSTALL, os.X_OK)
    assert "set -euo pipefail" in INSTALL.read_text()


def _system_state() -> tuple[bool, bool, int]:
    user = subprocess.run(["getent", "passwd", "xtraboard"], capture_output=True, timeout=60).returncode
    return Path("/etc/systemd/system/xtraboard.service").exists(), Path("/opt/xtraboard").exists(), user


def test_a_dry_run_prints_every_step_and_changes_nothing() -> None:
    before = _system_state()
    done = subprocess.run([str(INSTALL), "--dry-run"], capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stderr
    steps = re.findall(r"^\[(\d)/9\] (.*)$", done.stdout, flags=re.M)
    assert [int(n) for n, _ in steps] == list(range(1, 10))
    assert steps[0][1].startswith("apt packages: ") and "python3-venv" in steps[0][1] and "i2c-tools" in steps[0][1]
    for expected in [
        "would run: apt-get update",
        f"would run: install -o root -g root -m 0644 {UNIT} /etc/systemd/system/xtraboard.service",
        "would run: systemctl enable xtraboard.service",
    ]:
        assert expected in done.stdout, expected
    assert _system_state() == before


def dry_run_commands() -> list[str]:
    done = subprocess.run([str(INSTALL), "--dry-run"], capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stderr
    return [line.split("would run: ", 1)[1] for line in done.stdout.splitlines() if "would run: " in line]


def test_a_dry_run_shows_the_code_and_venv_owned_by_root() -> None:
    commands = dry_run_commands()
    assert "install -d -o root -g root -m 0755 /opt/xtraboard" in commands
    [copy] = [command for command in commands if command.startswith("rsync ")]
    # rsync -a alone would keep the clone owner's uid: that user could then swap the venv's code.
    # --chmod only takes write access away: a file the clone keeps private is never made readable.
    assert "--chown=root:root" in copy and " --chmod=go-w " in copy and copy.endswith(" /opt/xtraboard/")
    assert "python3 -m venv /opt/xtraboard/venv" in commands  # created by root (the script runs as root)
    assert not [command for command in commands if "sudo -u" in command or "runuser" in command]


def test_a_dry_run_shows_hash_pinned_installs_only() -> None:
    pips = [command for command in dry_run_commands() if command.startswith("/opt/xtraboard/venv/bin/pip ")]
    assert pips == [
        "/opt/xtraboard/venv/bin/pip install --quiet --require-hashes -r /opt/xtraboard/requirements/pi.lock",
        "/opt/xtraboard/venv/bin/pip install --quiet --no-deps --no-build-isolation --force-reinstall /opt/xtraboard",
    ]


def test_a_dry_run_creates_the_operators_board_description_from_the_shipped_one() -> None:
    commands = dry_run_commands()
    assert "install -d -o root -g root -m 0755 /etc/xtraboard" in commands
    assert "install -o root -g root -m 0644 /opt/xtraboard/hardware/board.toml /etc/xtraboard/board.toml" in commands


def test_an_existing_board_description_is_never_replaced(tmp_path: Path) -> None:
    board = tmp_path / "board.toml"
    board.write_text("# the operator's\n")
    done = source_and_run(f"DRY_RUN=1; BOARD_CONFIG={board}; install_board_config")
    assert done.returncode == 0, done.stderr
    assert "exists: kept" in done.stdout and "would run" not in done.stdout
    assert board.read_text() == "# the operator's\n"


def test_a_venv_anyone_but_root_could_change_is_made_anew(tmp_path: Path) -> None:
    venv = tmp_path / "venv"
    (venv / "bin").mkdir(parents=True)
    (venv / "bin" / "python").write_text("#!/bin/sh\n")
    (venv / "bin" / "python").chmod(0o755)
    mine = f"OWNER=$(id -un); DRY_RUN=1; VENV={venv}; PREFIX={tmp_path}; install_venv"
    trusted = source_and_run(mine)
    assert trusted.returncode == 0, trusted.stderr
    assert f"{venv} exists" in trusted.stdout and f"rm -rf {venv}" not in trusted.stdout
    (venv / "bin" / "activate").write_text("")
    (venv / "bin" / "activate").chmod(0o666)  # writable by anyone: no longer the owner's alone
    stranger = source_and_run(mine)
    assert stranger.returncode == 0, stranger.stderr
    assert f"{venv} is not " in stranger.stdout and "made anew" in stranger.stdout
    assert f"would run: rm -rf {venv}" in stranger.stdout and f"would run: python3 -m venv {venv}" in stranger.stdout


def test_installing_from_a_clone_in_place_needs_it_to_be_roots_alone(tmp_path: Path) -> None:
    (tmp_path / "firmware").mkdir()
    (tmp_path / "firmware" / "cli.py").write_text("")
    (tmp_path / "firmware" / "cli.py").chmod(0o666)
    done = source_and_run(f"OWNER=$(id -un); DRY_RUN=1; SOURCE={tmp_path}; PREFIX={tmp_path}; copy_code")
    assert done.returncode == 1
    assert f"install.sh: {tmp_path} is the repository and not " in done.stderr and "clone it elsewhere" in done.stderr


def test_the_installer_refuses_to_run_without_root() -> None:
    as_nobody = {"user": 65534, "group": 65534, "extra_groups": []} if os.geteuid() == 0 else {}
    done = subprocess.run(["bash", str(INSTALL)], capture_output=True, text=True, timeout=60, **as_nobody)
    assert done.returncode == 1
    assert "install.sh: must run as root" in done.stderr and done.stdout == ""


def test_the_installer_rejects_unknown_options() -> None:
    done = subprocess.run([str(INSTALL), "--dryrun"], capture_output=True, text=True, timeout=60)
    assert done.returncode == 2 and "unknown option --dryrun" in done.stderr and "Usage:" in done.stderr


def source_and_run(script: str) -> subprocess.CompletedProcess[str]:
    """Run bash code after sourcing the installer (which then only defines its functions)."""
    return subprocess.run(["bash", "-c", f"source {INSTALL}\n{script}"], capture_output=True, text=True, timeout=60)


def test_i2c_and_spi_lines_are_added_to_config_txt_only_once(tmp_path: Path) -> None:
    config = tmp_path / "config.txt"
    config.write_text("[all]\ndtparam=audio=on\n")
    script = f"""
        BOOT_CONFIGS=({tmp_path / "missing.txt"} {config}); RASPI_CONFIG={tmp_path / "no-raspi-config"}
        MODULES_LOAD_DIR={tmp_path}
        enable_buses; echo "reboot=$REBOOT_NEEDED"
        REBOOT_NEEDED=0; enable_buses; echo "reboot=$REBOOT_NEEDED"
    """
    done = source_and_run(script)
    assert done.returncode == 0, done.stderr
    assert config.read_text() == "[all]\ndtparam=audio=on\ndtparam=i2c_arm=on\ndtparam=spi=on\n"
    assert (tmp_path / "xtraboard.conf").read_text() == "i2c-dev\n"
    first, second = done.stdout.split("reboot=1\n")
    assert first.count("added to") == 3
    assert second.count("already has") == 3 and second.endswith("reboot=0\n")


@pytest.mark.parametrize(
    ("toml", "driver"),
    [
        ('[display]\ndriver = "ssd1306"\n\n[leds]\n# a comment\ndriver = "spi"   # GPIO10\npin = 10\n', "spi"),
        ('[leds]\ndriver="pwm"\n[display]\ndriver = "sh1106"\n', "pwm"),
        ('[display]\ndriver = "ssd1306"\n', ""),
    ],
)
def test_the_installer_reads_the_led_driver(tmp_path: Path, toml: str, driver: str) -> None:
    board = tmp_path / "board.toml"
    board.write_text(toml)
    done = source_and_run(f"led_driver {board}")
    assert done.returncode == 0 and done.stdout.strip() == driver


def test_the_shipped_board_toml_has_a_driver_the_installer_reads() -> None:
    done = source_and_run(f"led_driver {ROOT / 'hardware' / 'board.toml'}")
    assert done.stdout.strip() in ("pwm", "spi")


# --- the fleet's network drop-in and the read-only root (--overlay) --------------------------------
FLEET_DROP_IN = ROOT / "systemd" / "xtraboard-fleet.conf"


def test_the_fleet_drop_in_opens_the_network_but_nothing_may_listen(tmp_path: Path) -> None:
    service = {key: value for section, key, value in unit_entries(FLEET_DROP_IN.read_text()) if section == "Service"}
    assert service == {
        "PrivateNetwork": "no",
        "IPAddressDeny": "",
        "RestrictAddressFamilies": "AF_UNIX AF_INET AF_INET6",
        "SocketBindDeny": "any",
    }
    (tmp_path / "xtraboard.service.d").mkdir()
    (tmp_path / "xtraboard.service.d" / "fleet.conf").write_text(FLEET_DROP_IN.read_text())
    assert verify(UNIT.read_text(), tmp_path) == []


@pytest.mark.parametrize(("fleet", "installed"), [(True, True), (False, False)])
def test_the_installer_adds_the_fleet_drop_in_only_for_a_board_with_fleet(
    tmp_path: Path, fleet: bool, installed: bool
) -> None:
    board = tmp_path / "board.toml"
    board.write_text('[board]\nname = "x"\n' + ('\n[fleet]  # the café\ntable = "t"\n' if fleet else ""))
    done = source_and_run(f"DRY_RUN=1; BOARD_CONFIG={board}; SOURCE={ROOT}; install_unit")
    assert done.returncode == 0, done.stderr
    line = (
        f"would run: install -o root -g root -m 0644 {FLEET_DROP_IN} /etc/systemd/system/xtraboard.service.d/fleet.conf"
    )
    assert (line in done.stdout) is installed
    assert ("no [fleet] in" in done.stdout) is not installed


# --- external engines: bubblewrap, and the drop-in that lets it build the box ----------------------
ENGINES_DROP_IN = ROOT / "systemd" / "xtraboard-engines.conf"


def test_a_dry_run_installs_bubblewrap() -> None:
    [apt] = [command for command in dry_run_commands() if " apt-get install " in command]
    assert "bubblewrap" in apt.split()


def test_the_engines_drop_in_allows_the_namespaces_bwrap_needs_and_verifies(tmp_path: Path) -> None:
    entries = [
        (key, value) for section, key, value in unit_entries(ENGINES_DROP_IN.read_text()) if section == "Service"
    ]
    assert ("RestrictNamespaces", "user mnt pid net ipc uts cgroup") in entries
    assert ("RestrictAddressFamilies", "AF_NETLINK") in entries  # merged with the unit's AF_UNIX
    filters = [value for key, value in entries if key == "SystemCallFilter"]
    assert filters[-1].split() == ["setrlimit", "prlimit64"]  # an engine's memory limit: after @resources is denied
    assert any(value.startswith("~") and "@resources" in value for value in filters[:-1])
    (tmp_path / "xtraboard.service.d").mkdir()
    (tmp_path / "xtraboard.service.d" / "engines.conf").write_text(ENGINES_DROP_IN.read_text())
    assert verify(UNIT.read_text(), tmp_path) == []


@pytest.mark.parametrize("engines", [True, False])
def test_the_installer_adds_the_engines_drop_in_only_for_a_board_with_engines(tmp_path: Path, engines: bool) -> None:
    board = tmp_path / "board.toml"
    board.write_text(
        '[board]\nname = "x"\n' + ('\n[[engines]]\nname = "deep"\ncommand = ["deep"]\n' if engines else "")
    )
    done = source_and_run(f"DRY_RUN=1; BOARD_CONFIG={board}; SOURCE={ROOT}; install_unit")
    assert done.returncode == 0, done.stderr
    line = f"would run: install -o root -g root -m 0644 {ENGINES_DROP_IN} /etc/systemd/system/xtraboard.service.d/engines.conf"
    assert (line in done.stdout) is engines


def test_a_dry_run_with_overlay_shows_the_state_partition_and_the_overlay(tmp_path: Path) -> None:
    before = _system_state()
    done = subprocess.run([str(INSTALL), "--dry-run", "--overlay"], capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stderr
    steps = re.findall(r"^\[(\d+)/10\] (.*)$", done.stdout, flags=re.M)
    assert [int(n) for n, _ in steps] == list(range(1, 11))
    assert (
        steps[8][1]
        == "read-only root file system (overlay), /var/lib/xtraboard on the partition labelled xtraboard-state"
    )
    overlay = done.stdout.split("[9/10]")[1].split("[10/10]")[0]
    assert (
        "would add to /etc/fstab: LABEL=xtraboard-state /var/lib/xtraboard ext4 defaults,noatime,commit=1,nofail,x-systemd.device-timeout=10s 0 2"
        in overlay
    )
    assert overlay.index("/etc/fstab") < overlay.index("would run: /usr/bin/raspi-config nonint do_overlayfs 0")
    assert _system_state() == before


def test_the_fstab_line_is_added_once(tmp_path: Path) -> None:
    fstab = tmp_path / "fstab"
    fstab.write_text("proc /proc proc defaults 0 0\n")
    script = f"""
        FSTAB={fstab}
        add_line "$FSTAB" "LABEL=$STATE_LABEL $STATE_DIR ext4 defaults,noatime,commit=1,nofail,x-systemd.device-timeout=10s 0 2"
        add_line "$FSTAB" "LABEL=$STATE_LABEL $STATE_DIR ext4 defaults,noatime,commit=1,nofail,x-systemd.device-timeout=10s 0 2"
    """
    done = source_and_run(script)
    assert done.returncode == 0, done.stderr
    assert fstab.read_text() == (
        "proc /proc proc defaults 0 0\n"
        "LABEL=xtraboard-state /var/lib/xtraboard ext4 defaults,noatime,commit=1,nofail,x-systemd.device-timeout=10s 0 2\n"
    )


def test_a_dry_run_sets_up_the_operator_code_file_for_the_board_alone() -> None:
    """The code's hash is root:xtraboard 0640 (the board reads it, engines and guests cannot);
    `xtraboard operator set-code` writes it (docs/kiosk.md)."""
    done = subprocess.run([str(INSTALL), "--dry-run"], capture_output=True, text=True, timeout=120)
    commands = [line.split("would run: ", 1)[1] for line in done.stdout.splitlines() if "would run: " in line]
    assert "chown root:xtraboard /etc/xtraboard/operator-code" in commands
    assert "chmod 0640 /etc/xtraboard/operator-code" in commands
    assert "xtraboard operator set-code writes /etc/xtraboard/operator-code" in done.stdout
