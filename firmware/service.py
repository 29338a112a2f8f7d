"""Talking to systemd (Type=notify, WatchdogSec=) without a dependency: sd_notify's protocol.

    >>> notifier = SystemdNotifier()        # reads $NOTIFY_SOCKET; a no-op outside systemd
    >>> notifier.ready("menu")              # doctest: +SKIP
    >>> interval = watchdog_interval()      # ping `notifier.watchdog()` this often, or None

systemd passes $NOTIFY_SOCKET, a datagram socket's path or "@name" for the abstract
namespace; each message is newline-separated KEY=value lines (see sd_notify(3)).
"""

from __future__ import annotations

import logging
import os
import socket
from collections.abc import Callable, Mapping

LOGGER_NAME = "xtraboard.service"


class SystemdNotifier:
    """Sends READY/WATCHDOG/STATUS/STOPPING to systemd; every method returns whether a message
    went out, and failing to send is logged once, never raised (the board plays on)."""

    def __init__(self, environ: Mapping[str, str] | None = None) -> None:
        env = os.environ if environ is None else environ
        self.environ = env
        self.address = _address(env.get("NOTIFY_SOCKET", ""))
        self._socket: socket.socket | None = None
        self._warned = False

    @property
    def enabled(self) -> bool:
        """True when running under systemd with a notify socket."""
        return self.address is not None

    def ready(self, status: str | None = None) -> bool:
        """Start-up is done (systemd now counts the unit as started)."""
        return self.notify("READY=1", *([] if status is None else [_status(status)]))

    def watchdog(self) -> bool:
        """The loop is alive; send at least every `watchdog_interval()` seconds."""
        return self.notify("WATCHDOG=1")

    def watchdog_interval(self) -> float | None:
        """How often the board loop must call `watchdog()` (see the function of that name)."""
        return watchdog_interval(self.environ)

    def status(self, text: str) -> bool:
        """A one-line state shown by `systemctl status`."""
        return self.notify(_status(text))

    def stopping(self) -> bool:
        """Shutting down on purpose."""
        return self.notify("STOPPING=1")

    def notify(self, *lines: str) -> bool:
        """Send one message of KEY=value lines."""
        if self.address is None:
            return False
        try:
            if self._socket is None:
                self._socket = socket.socket(socket.AF_UNIX, socket.SOCK_DGRAM | socket.SOCK_CLOEXEC)
            self._socket.sendto("\n".join(lines).encode("utf-8"), self.address)
            return True
        except OSError as exc:
            if not self._warned:
                self._warned = True
                logging.getLogger(LOGGER_NAME).warning(
                    "systemd notify socket %r: %s (further failures not logged)", self.address, exc
                )
            return False

    def close(self) -> None:
        """Close the socket; idempotent."""
        if self._socket is not None:
            self._socket.close()
            self._socket = None

    def __enter__(self) -> SystemdNotifier:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()


def watchdog_interval(environ: Mapping[str, str] | None = None, *, pid: Callable[[], int] = os.getpid) -> float | None:
    """Seconds between watchdog pings: half of $WATCHDOG_USEC, as sd_watchdog_enabled(3)
    advises; None when there is no watchdog or $WATCHDOG_PID names another process."""
    env = os.environ if environ is None else environ
    usec, for_pid = env.get("WATCHDOG_USEC", ""), env.get("WATCHDOG_PID", "")
    if not usec.isdigit() or int(usec) == 0:
        return None
    if for_pid and (not for_pid.isdigit() or int(for_pid) != pid()):
        return None
    return int(usec) / 2 / 1_000_000


def _address(value: str) -> str | bytes | None:
    if value.startswith("@"):
        return b"\0" + value[1:].encode()  # abstract namespace
    if value.startswith("/"):
        return value
    return None  # unset, or a kind we do not speak (vsock:): behave as outside systemd


def _status(text: str) -> str:
    return "STATUS=" + " ".join(text.split())  # one line: a newline would start a new key
