"""Whole games played by the booted board's service: one seat the built-in bot, the other an
external engine (tests/engines/xdp_test_engine.py) in its bubblewrap box, as scenario files that
`xtraboard hil run` plays against the debug socket."""

from __future__ import annotations

import json
from collections.abc import Sequence

from firmware.games import find_game

GAMES = ("exxtra", "levelx", "extra")
ENGINE = "test"
# Inside the booted root: the installed copy of the repository's test engine, run by the venv's
# Python. What it must not reach from inside its box is checked by the engine itself at `xdp`.
ENGINE_COMMAND = ("/opt/xtraboard/venv/bin/python", "/opt/xtraboard/tests/engines/xdp_test_engine.py")
MUST_NOT_READ = ("/var/lib/xtraboard", "/etc/xtraboard/board.toml")
MUST_NOT_CONNECT = ("/run/xtraboard/debug.sock",)


def engine_entry(command: Sequence[str] = ENGINE_COMMAND) -> str:
    flags = [arg for path in MUST_NOT_READ for arg in ("--must-not-read", path)]
    flags += [arg for path in MUST_NOT_CONNECT for arg in ("--must-not-connect", path)]
    parts = ", ".join(json.dumps(part) for part in [*command, *flags])
    return f'\n[[engines]]\nname = "{ENGINE}"\ncommand = [{parts}]\ntimeout_s = 10.0\n'


def scenario(game: str) -> str:
    """Main menu → Play GAME → the fewest seats the game allows (at least two): the easiest bot
    in each but the last, the engine in the last → the game plays itself to the result screen."""
    spec = find_game(game)
    count = max(2, spec.players.start)
    lines = [
        f'name = "booted_{game}_engine"',
        f'description = "{game}: bots and the external engine play a whole game on the booted service"',
        "",
        "[[step]]",
        'expect = { state = "screen", equals = "MainMenu" }',
    ]
    lines += ["[[step]]", 'tap = "right"'] * GAMES.index(game)
    lines += ["[[step]]", 'tap = "ok"']
    lines += ["[[step]]", 'tap = "right"'] * (count - spec.players.start)
    lines += ["[[step]]", f'expect = {{ menu = "{count} players" }}', "[[step]]", 'tap = "ok"']
    for _seat in range(count - 1):  # one RIGHT from "human" is the easiest bot
        lines += ["[[step]]", 'tap = "right"', "[[step]]", 'tap = "ok"']
    lines += ["[[step]]", 'tap = "right"', f"times = {len(spec.levels) + 1}"]  # past every level
    lines += ["[[step]]", f'expect = {{ text = "< Engine: {ENGINE} >" }}', "[[step]]", 'tap = "ok"']
    lines += ["[[step]]", "settle = true", "[[step]]", 'expect = { state = "screen", equals = "ResultScreen" }']
    return "\n".join(lines) + "\n"
