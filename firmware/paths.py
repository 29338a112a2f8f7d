"""Where the board keeps its files.

    >>> default_state_dir({"STATE_DIRECTORY": "/var/lib/xtraboard"})
    PosixPath('/var/lib/xtraboard')
"""

from __future__ import annotations

import os
from collections.abc import Mapping
from pathlib import Path


def default_state_dir(environ: Mapping[str, str] | None = None) -> Path:
    """$STATE_DIRECTORY (systemd's StateDirectory=), else $XDG_STATE_HOME/xtraboard,
    else ~/.local/state/xtraboard."""
    env = os.environ if environ is None else environ
    state = env.get("STATE_DIRECTORY", "")
    if state:
        # systemd lists several directories separated by ':' when the unit names several.
        return Path(state.split(":")[0])
    xdg = env.get("XDG_STATE_HOME", "")
    if xdg and Path(xdg).is_absolute():  # the XDG spec says to ignore relative paths
        return Path(xdg) / "xtraboard"
    home = env.get("HOME") or str(Path.home())
    return Path(home) / ".local" / "state" / "xtraboard"
