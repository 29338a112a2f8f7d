"""`xtraboard hil record --target HOST:PORT OUT.toml`: a live session on a board turned into a
scenario file — a bug seen at a café table becomes a regression test.

The recorder starts the board over (`seed`), then follows the board's events through its debug
service: every button edge with its board time, every roll of the dice, and — whenever the board
has taken in new presses and stopped moving by itself — a checkpoint of the display (its text
and image checksum) and of the LEDs that changed. The file replays the edges at the same board
times, scripts the same rolls, and expects every checkpoint:

    recorder = Recorder(DebugClient.connect("127.0.0.1:7777"), name="cafe-bug")
    recorder.start(seed=0)
    ...                                   # someone plays; call recorder.poll() now and then
    Path("cafe-bug.toml").write_text(recorder.scenario_text())
"""

from __future__ import annotations

import json
import sys
import time
from collections.abc import Mapping
from dataclasses import dataclass, field
from datetime import datetime, timezone
from pathlib import Path
from typing import Any

from firmware.errors import XtraboardError
from firmware.i18n import _

POLL_S = 0.05  # how often a live recording asks the board for news (real time)
MAX_WAIT_S = 3600.0  # a scenario's longest wait step; longer pauses become several steps


@dataclass
class Checkpoint:
    t: float
    text: list[str]
    image_sha: str
    leds: dict[str, Any]  # cell → [r, g, b], or a list of colours for a multi-colour cell


@dataclass
class Recorder:
    """Follows one board's events (`poll`) and writes them as a scenario (`scenario_text`)."""

    client: Any  # a sim.hil.driver.DebugClient
    name: str = "recorded"
    target: str = ""
    seed: int | str = 0
    items: list[tuple[str, Any]] = field(default_factory=list)  # ("edge"|"roll"|"check", data), in order
    start_t: float | None = None
    _pending: bool = True  # presses taken in since the last checkpoint (the start counts as one)

    def start(self, seed: int | str = 0) -> None:
        """Start the board over with `seed` (a simulated board restarts; a real one should be at
        its main menu), and take the first checkpoint."""
        self.seed = seed
        self.client.ask(f"seed {json.dumps(seed)}")
        answer = self.client.ask("events")
        starts = [e for e in answer["events"] if e["kind"] in ("restart", "seed")]
        self.start_t = starts[-1]["t"] if starts else None
        self.poll()

    def poll(self) -> int:
        """Take in the board's news; returns how many events came. A checkpoint is taken when
        presses came in and the board is not busy (and dropped if more came meanwhile)."""
        answer = self.client.ask("events")
        self._take(answer["events"])
        if self._pending and not answer["busy"]:
            check = self._checkpoint()
            again = self.client.ask("events")
            if any(e["kind"] in ("edge", "roll") for e in again["events"]):
                self._take(again["events"])  # it moved meanwhile: look again at the next poll
            else:
                self._take(again["events"])
                self.items.append(("check", check))
                self._pending = False
        return len(answer["events"])

    def _take(self, events: list[dict[str, Any]]) -> None:
        for event in events:
            if event["kind"] == "edge":
                if self.start_t is None:
                    self.start_t = event["t"]
                self.items.append(("edge", event))
                self._pending = True
            elif event["kind"] == "roll":
                self.items.append(("roll", event))
                self._pending = True

    def _checkpoint(self) -> Checkpoint:
        leds = self.client.ask("leds")
        text = self.client.ask("text")["text"]
        image = self.client.ask("image")
        return Checkpoint(leds["t"], list(text), image["sha"], dict(leds["frame"]))

    # --- the scenario -----------------------------------------------------------------------
    def scenario_text(self) -> str:
        """The session as a scenario file (TOML)."""
        steps: list[dict[str, Any]] = []
        last_edge_step = 0  # where a roll's dice step goes: before the presses that caused it
        now = self.start_t if self.start_t is not None else 0.0
        lit: dict[str, Any] = {}
        rolls = False
        for kind, data in self.items:
            if kind == "edge":
                last_edge_step = len(steps)
                steps += _waits(data["t"] - now)
                now = max(now, data["t"])
                steps.append({"press" if data["pressed"] else "release": data["button"]})
            elif kind == "roll":
                rolls = True
                steps.insert(last_edge_step, {"dice": [data["faces"]]})
                last_edge_step += 1
            else:
                check: Checkpoint = data
                steps += _waits(check.t - now)
                now = max(now, check.t)
                steps.append({"settle": True})
                steps.append({"expect": _expectations(check, lit)})
                lit = {cell: value for cell, value in check.leds.items() if _lit(value)}
        when = datetime.now(timezone.utc).strftime("%Y-%m-%d %H:%M UTC")
        header = [
            f"# Recorded by `xtraboard hil record` from {self.target or 'a board'} on {when}.",
            "# Button edges at their board times, the dice rolled, and a checkpoint of the display and",
            "# the LEDs whenever the board had taken in presses and stopped moving by itself.",
            f"name = {_toml(self.name)}",
            f"description = {_toml('a session recorded on ' + (self.target or 'a board') + ' on ' + when)}",
            f"seed = {_toml(self.seed)}",
        ]
        if rolls:
            header.append('dice = "scripted"')
        lines = header
        for step in steps:
            lines.append("")
            lines.append("[[step]]")
            lines += [f"{key} = {_toml(value)}" for key, value in step.items()]
        return "\n".join(lines) + "\n"


def _waits(seconds: float) -> list[dict[str, Any]]:
    """Wait steps for a pause (none for no pause; several for one longer than a step's limit)."""
    steps = []
    seconds = round(seconds, 6)
    while seconds > 0:
        part = min(seconds, MAX_WAIT_S)
        steps.append({"wait": part})
        seconds = round(seconds - part, 6)
    return steps


def _lit(value: Any) -> bool:
    return bool(value) and value != [0, 0, 0]


def _expectations(check: Checkpoint, before: Mapping[str, Any]) -> list[dict[str, Any]]:
    """The display's text lines and image, and every LED cell that changed since the last one."""
    expect: list[dict[str, Any]] = [{"text": line} for line in check.text if line.strip()]
    if check.image_sha:
        expect.append({"image_sha": check.image_sha})
    now = {cell: value for cell, value in check.leds.items() if _lit(value)}
    for cell in sorted(set(now) | set(before)):
        value = now.get(cell, [0, 0, 0])
        if before.get(cell) != value or cell not in before:
            expect.append({"led": cell, "colour": value})
    if not expect:
        expect.append({"state": "over", "equals": False})  # a blank board still says something
    return expect


def _toml(value: Any) -> str:
    """A value as TOML: strings, numbers, booleans, arrays and inline tables."""
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, str):
        return json.dumps(value, ensure_ascii=False)  # a JSON string is a TOML basic string
    if isinstance(value, (int, float)):
        return repr(value)
    if isinstance(value, (list, tuple)):
        return "[" + ", ".join(_toml(v) for v in value) + "]"
    if isinstance(value, dict):
        return "{ " + ", ".join(f"{k} = {_toml(v)}" for k, v in value.items()) + " }"
    raise XtraboardError(f"cannot write {value!r} into a scenario")


def record_session(
    target: str, out: Path, *, seconds: float | None = None, name: str | None = None, seed: int | str = 0
) -> int:
    """`xtraboard hil record`: follow the board until `seconds` pass or Ctrl-C, then write `out`."""
    from sim.hil.driver import BenchError, DebugClient

    if not out.parent.is_dir():
        print("xtraboard hil: " + _("the folder {folder} does not exist").format(folder=out.parent), file=sys.stderr)
        return 2
    try:
        client = DebugClient.connect(target)
    except BenchError as exc:
        print(f"xtraboard hil: {exc}", file=sys.stderr)
        return 2
    recorder = Recorder(client, name=name or out.stem, target=target)
    print(
        _("recording {target} into {file}; play on the board, Ctrl-C to stop").format(target=target, file=out),
        file=sys.stderr,
    )
    try:
        recorder.start(seed)
        end = None if seconds is None else time.monotonic() + seconds
        while end is None or time.monotonic() < end:
            time.sleep(POLL_S)
            recorder.poll()
    except KeyboardInterrupt:
        pass
    except BenchError as exc:
        print("xtraboard hil: " + _("{error}; writing what was recorded").format(error=exc), file=sys.stderr)
    finally:
        try:
            recorder.poll()
        except (BenchError, OSError):
            pass
        client.close()
    out.write_text(recorder.scenario_text(), encoding="utf-8")
    edges = sum(1 for kind, _ in recorder.items if kind == "edge")
    checks = sum(1 for kind, _ in recorder.items if kind == "check")
    # Translators: two counts in one line; a "label: number" form avoids plurals.
    print(
        _("recorded {edges} button edges and {checks} checkpoints into {file}").format(
            edges=edges, checks=checks, file=out
        )
    )
    return 0
