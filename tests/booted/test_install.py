"""install.sh on a fresh, booted Debian root, offline: the dry run changes nothing, the real
run exits 0, and the unit is active (Type=notify: it sent READY) and stays up."""

from __future__ import annotations

import pytest

from tests.booted.conftest import Installed, report_path

pytestmark = pytest.mark.booted


def test_a_dry_run_changes_nothing_under_etc_opt_usr_var_lib(installed: Installed) -> None:
    assert "Dry run: nothing is changed" in installed.dry_run
    changed = sorted(
        path
        for path in installed.before_dry_run.keys() | installed.after_dry_run.keys()
        if installed.before_dry_run.get(path) != installed.after_dry_run.get(path)
    )
    assert changed == [], f"the dry run changed: {changed[:20]}"
    assert len(installed.before_dry_run) > 10_000  # the listing did see the root (not an empty one)


def test_the_offline_install_exits_0_and_the_unit_is_active_after_ready(installed: Installed) -> None:
    machine = installed.machine
    assert installed.install_status == 0, installed.install_output[-3000:]
    print(f"install.sh --wheelhouse: {installed.install_s:.1f} s")
    assert "offline (--wheelhouse)" in installed.install_output
    assert "not a Raspberry Pi (plain Debian): skipped raspi-config" in installed.install_output
    machine.wait_active()
    # A Type=notify unit turns active only once its main process sent READY=1.
    assert machine.unit_property("Type") == "notify"
    assert machine.unit_property("SubState") == "running"
    assert "Started xtraboard.service" in machine.journal()
    assert machine.unit_property("NRestarts") == "0"
    # The board description listed [[engines]]: the installer added their drop-in.
    assert machine.path("/etc/systemd/system/xtraboard.service.d/engines.conf").exists()


def test_the_security_report_is_printed_and_kept(installed: Installed) -> None:
    report = installed.machine.run("systemd-analyze", "security", "--no-pager", "xtraboard.service", check=False)
    text = report.stdout + report.stderr
    path = report_path("systemd-analyze-security-xtraboard.txt")
    path.write_text(text, encoding="utf-8")
    print(text)
    print(f"(kept in {path})")
    assert "Overall exposure level for xtraboard.service" in text
