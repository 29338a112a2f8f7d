"""Scenarios: scripted button presses, dice and expectations in TOML (docs/scenarios.md).

The format (parsing, validation) is `sim.scenario.format`, running one against a board is
`sim.scenario.runner`, and reading a board's state is `firmware.state_reader`; this package gathers their
public names so `from sim.scenario import run_scenario` keeps working.

    >>> scenario = load_scenario("tests/scenarios/menu.toml")         # doctest: +SKIP
    >>> run_scenario(scenario, SimBoard(seed=scenario.seed)).passed   # doctest: +SKIP
    True
"""

from firmware.dice import ScriptedDice
from sim.scenario.format import (
    BoardDriver,
    Expectation,
    Scenario,
    ScenarioError,
    Step,
    load_scenario,
    parse_scenario,
)
from sim.scenario.runner import (
    Runner,
    ScenarioResult,
    StepFailed,
    replay_problem,
    run_scenario,
    run_scenario_file,
)
from firmware.state_reader import StateError, parse_path, plain, read_state, same, state_roots

__all__ = [
    "BoardDriver",
    "Expectation",
    "Runner",
    "Scenario",
    "ScenarioError",
    "ScenarioResult",
    "ScriptedDice",
    "StateError",
    "Step",
    "StepFailed",
    "load_scenario",
    "parse_path",
    "parse_scenario",
    "plain",
    "read_state",
    "replay_problem",
    "run_scenario",
    "run_scenario_file",
    "same",
    "state_roots",
]
