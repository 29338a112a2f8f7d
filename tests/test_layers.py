"""Lower layers never import higher ones: each module of `firmware` has a layer, and no import
statement (inside functions and under TYPE_CHECKING too) reaches a module of a higher layer.
docs/architecture.md draws the same layers."""

from __future__ import annotations

from test_import_cycles import module_imports

# From the bottom. A module's layer is that of the longest prefix listed here.
LAYERS: tuple[tuple[str, ...], ...] = (
    # the ground every part stands on
    ("firmware", "firmware.errors", "firmware.paths", "firmware.i18n", "firmware.input_files", "firmware.dice")
    + ("firmware.loop",),
    # the engines and what describes a game or a board: pure, no I/O
    ("firmware.games", "firmware.hardware.config"),
    # records and the journal; a finished game's figures come from its record alone
    ("firmware.records", "firmware.journal", "firmware.verify", "firmware.audit", "firmware.games.figures")
    + tuple(f"firmware.games.{game}.figures" for game in ("exxtra", "levelx", "extra")),
    # the bots and the engine protocol
    ("firmware.bots", "firmware.hints", "firmware.coach", "firmware.thinker", "firmware.xdp", "firmware.selfplay")
    + ("firmware.turns",)  # the one play-out loop (its board side, turns.board, sits with the table)
    + tuple(
        f"firmware.games.{game}.{part}"
        for game in ("exxtra", "levelx", "extra")
        for part in ("bots", "greedy", "deep", "search", "learnt", "lesson")
    ),
    # the table, who sits at it, and the turns played at it
    ("firmware.table", "firmware.agents", "firmware.players", "firmware.turns.board", "firmware.pace"),
    # the hardware drivers
    ("firmware.hardware",),
    # the screens, and each game's view and words
    ("firmware.ui", "firmware.operator_code")
    + tuple(
        f"firmware.games.{game}.{part}"
        for game in ("exxtra", "levelx", "extra")
        for part in ("screens", "text", "sheet")
    ),
    # the services plugged into the board
    ("firmware.debug", "firmware.state_reader", "firmware.fleet", "firmware.service"),
    # the board's loop and the self-test of a whole board
    ("firmware.board_loop", "firmware.fault_mode", "firmware.hardware.selftest"),
    # the commands
    ("firmware.commands", "firmware.cli", "firmware.__main__"),
)


def layer_of(module: str) -> int:
    """The layer of `module`: that of the longest listed prefix (KeyError if none is listed)."""
    found: tuple[int, int] | None = None
    for index, prefixes in enumerate(LAYERS):
        for prefix in prefixes:
            if (module == prefix or module.startswith(prefix + ".")) and (found is None or len(prefix) > found[0]):
                found = (len(prefix), index)
    if found is None:
        raise KeyError(module)
    return found[1]


def test_the_layers_place_a_module_by_its_longest_prefix():
    assert layer_of("firmware.games.extra.rules") == 1
    assert layer_of("firmware.games.extra.screens") == 6
    assert layer_of("firmware.hardware.config") == 1
    assert layer_of("firmware.hardware.leds") == 5
    assert layer_of("firmware.hardware.selftest") == 8


def test_no_module_imports_one_of_a_higher_layer():
    graph = module_imports("firmware")
    assert "firmware.ui.colours" in graph["firmware.ui.play"]  # the graph sees the screens' imports
    upward = sorted(
        f"{module} (layer {layer_of(module)}) imports {target} (layer {layer_of(target)})"
        for module, targets in graph.items()
        for target in targets
        if layer_of(target) > layer_of(module)
    )
    assert upward == []
