"""`xtraboard hil`: the scenario suite against a board behind its debug service (docs/hil.md).

    xtraboard hil run --target 127.0.0.1:7777 --buttons virtual tests/scenarios/*.toml
    xtraboard hil run --target pi.local:7777 --buttons gpio --pins roll=17,ok=27,back=22,left=23,right=24 menu.toml
    xtraboard hil run --target 127.0.0.1:7777 --between "ssh pi@xtraboard.local sudo systemctl restart xtraboard" ...
    xtraboard hil record --target 127.0.0.1:7777 session.toml

`run` prints the same lines as `xtraboard sim --headless --scenario` (`FAIL step N …` and
`scenario NAME: S steps, E expectations, passed|failed`) and exits 0 when every scenario
passed, 1 when one failed, 2 when a file is invalid or the board cannot be reached.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path
from typing import Any

from firmware.errors import ConfigError
from firmware.i18n import _

PROG = "xtraboard hil"


def add_arguments(parser: argparse.ArgumentParser) -> None:
    sub = parser.add_subparsers(dest="hil_command", required=True, metavar="ACTION")
    run = sub.add_parser("run", help=_("run scenarios against a board"), description=_("run scenarios against a board"))
    run.add_argument(
        "--target", required=True, metavar="HOST:PORT", help=_("the board's debug service: HOST:PORT or unix:PATH")
    )
    run.add_argument(
        "--buttons",
        choices=("virtual", "gpio"),
        help=_(
            "press buttons through the bench's GPIO or a simulated board's virtual buttons "
            "(default: virtual for a simulated board, else gpio)"
        ),
    )
    run.add_argument(
        "--pins",
        metavar="NAME=PIN,...",
        help=_("gpio: the bench pin switching each button (default: $XTRABOARD_BENCH_PINS)"),
    )
    run.add_argument(
        "--active-low", action="store_true", help=_("gpio: the switch closes when its pin is low (default: high)")
    )
    run.add_argument(
        "--between",
        metavar="COMMAND",
        help=_(
            "a shell command that restarts a real board before each scenario but the first "
            "(e.g. a power cycle through the bench's relay); the bench then connects again"
        ),
    )
    run.add_argument(
        "--wait",
        type=float,
        default=10.0,
        metavar="S",
        help=_("how long to wait for the board's debug service to come up (default: 10 s)"),
    )
    run.add_argument("scenarios", nargs="+", type=Path, metavar="SCENARIO")
    record = sub.add_parser(
        "record",
        help=_("turn a live session into a scenario file"),
        description=_("turn a live session into a scenario file"),
    )
    record.add_argument(
        "--target", required=True, metavar="HOST:PORT", help=_("the board's debug service: HOST:PORT or unix:PATH")
    )
    record.add_argument(
        "--seconds", type=float, metavar="S", help=_("stop after S seconds (default: when interrupted, Ctrl-C)")
    )
    record.add_argument("--name", help=_("the scenario's name (default: the file's name)"))
    record.add_argument("out", type=Path, metavar="OUT.toml")


def run(args: argparse.Namespace) -> int:
    if args.hil_command == "record":
        from sim.hil.record import record_session

        return record_session(args.target, args.out, seconds=args.seconds, name=args.name)
    return run_scenarios(
        args.target,
        args.scenarios,
        buttons=args.buttons,
        pins=args.pins,
        active_high=not args.active_low,
        connect_s=args.wait,
        between=args.between,
    )


def run_scenarios(
    target: str,
    paths: list[Path],
    *,
    buttons: str | None = None,
    pins: str | None = None,
    active_high: bool = True,
    pin_factory: Any = None,
    out: Any = None,
    connect_s: float = 10.0,
    between: str | None = None,
) -> int:
    """Every scenario in turn against the board at `target`, each from a fresh start: `seed`
    restarts a simulated board; a real one is restarted by the shell command `between` (run
    before every scenario but the first), after which the bench connects again."""
    from sim.hil.driver import (
        BenchDriver,
        BenchError,
        DebugClient,
        GpioButtons,
        VirtualButtons,
        default_pin_factory,
        environ_pins,
        parse_pin_map,
    )
    from sim.scenario import load_scenario, run_scenario

    out = out if out is not None else sys.stdout
    try:
        scenarios = [load_scenario(path) for path in paths]  # every file checked before the first runs
        for scenario in scenarios:
            if scenario.secret is not None:  # a board takes no dice secret from outside, ever
                raise ConfigError(
                    f"{scenario.path}: key 'secret': the board's dice secret is never set from outside;"
                    " this scenario runs in the simulator only (xtraboard sim --headless --scenario)"
                )
        client = DebugClient.connect(target, connect_s)
    except (ConfigError, BenchError) as exc:
        print(f"{PROG}: {exc}", file=sys.stderr)
        return 2
    try:
        if buttons is None:
            buttons = "virtual" if client.simulated else "gpio"
        if buttons == "virtual":
            pressing: Any = VirtualButtons(client)
        else:
            wiring = parse_pin_map(pins if pins is not None else environ_pins())
            missing = [name for name in client.hello.get("buttons", ()) if name not in wiring]
            if missing:
                raise BenchError(
                    f"--pins names no bench pin for {', '.join(missing)} "
                    "(e.g. --pins roll=17,ok=27,back=22,left=23,right=24)"
                )
            pressing = GpioButtons(wiring, pin_factory=pin_factory or default_pin_factory(), active_high=active_high)
    except (BenchError, ConfigError) as exc:
        client.close()
        print(f"{PROG}: {exc}", file=sys.stderr)
        return 2
    driver = BenchDriver(client, pressing)
    failed = 0
    try:
        for n, scenario in enumerate(scenarios):
            if scenario.board is not None:
                print(
                    f"{PROG}: note: {scenario.path} names board {scenario.board}; the target runs its own description",
                    file=sys.stderr,
                )
            try:
                if between and n > 0:
                    driver = restart_board(driver, between, target, connect_s)
                driver.start(scenario.seed)
            except BenchError as exc:
                print(f"{PROG}: {exc}", file=sys.stderr)
                return 2
            result = run_scenario(scenario, driver, hold_s=driver.hold_s, out=out)
            failed += not result.passed
    finally:
        driver.close()
    return 1 if failed else 0


def restart_board(driver: Any, command: str, target: str, connect_s: float) -> Any:
    """Run `command` (e.g. a power cycle through the bench's relay), then connect again."""
    import subprocess

    from sim.hil.driver import BenchDriver, BenchError, DebugClient, VirtualButtons

    virtual = isinstance(driver.buttons, VirtualButtons)
    driver.client.close()
    done = subprocess.run(command, shell=True, check=False, stdout=2)  # our stdout is the summary lines
    if done.returncode != 0:
        raise BenchError(f"--between {command!r} failed with exit code {done.returncode}")
    client = DebugClient.connect(target, connect_s)
    return BenchDriver(client, VirtualButtons(client) if virtual else driver.buttons)
