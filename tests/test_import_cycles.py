"""No module of `firmware` or `sim` imports another that imports it back, directly or round a longer
loop, counting every import statement (inside functions and under TYPE_CHECKING too)."""

from __future__ import annotations

import ast
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


def module_imports(*packages: str) -> dict[str, set[str]]:
    """Each module of `packages` and the modules of `packages` it imports."""
    files = {}
    for path in (p for package in packages for p in (ROOT / package).rglob("*.py")):
        name = ".".join(path.relative_to(ROOT).with_suffix("").parts)
        files[name.removesuffix(".__init__")] = path
    graph: dict[str, set[str]] = {}
    for name, path in files.items():
        base = name if path.name == "__init__.py" else name.rpartition(".")[0]
        found = set()
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            targets = []
            if isinstance(node, ast.Import):
                targets = [alias.name for alias in node.names]
            elif isinstance(node, ast.ImportFrom):
                module = node.module or ""
                if node.level:
                    parts = base.split(".")[: len(base.split(".")) - node.level + 1]
                    module = ".".join(parts + ([module] if module else []))
                targets = [module] + [f"{module}.{alias.name}" for alias in node.names]
            for target in targets:
                while target and target not in files:
                    target = target.rpartition(".")[0]
                # a package importing its own submodules is how packages work, not a cycle
                if target and target != name and not target.startswith(name + "."):
                    found.add(target)
        graph[name] = found
    return graph


def cycles(graph: dict[str, set[str]]) -> list[list[str]]:
    """Groups of modules that reach each other (Tarjan's strongly connected components)."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    groups: list[list[str]] = []

    def visit(node: str) -> None:
        index[node] = low[node] = len(index)
        stack.append(node)
        for other in graph[node]:
            if other not in index:
                visit(other)
                low[node] = min(low[node], low[other])
            elif other in stack:
                low[node] = min(low[node], index[other])
        if low[node] == index[node]:
            group = []
            while True:
                member = stack.pop()
                group.append(member)
                if member == node:
                    break
            if len(group) > 1:
                groups.append(sorted(group))

    for node in graph:
        if node not in index:
            visit(node)
    return groups


def test_the_checker_sees_a_cycle():
    assert cycles({"a": {"b"}, "b": {"c"}, "c": {"a"}, "d": {"a"}}) == [["a", "b", "c"]]


def test_no_import_cycle_in_firmware_and_sim():
    graph = module_imports("firmware", "sim")
    assert "firmware.ui.intents" in graph["firmware.ui.screen"]  # the graph sees TYPE_CHECKING imports
    assert cycles(graph) == []


def test_firmware_never_imports_sim():
    graph = module_imports("firmware", "sim")
    assert "sim.board" in graph["sim.app"]  # the graph sees sim's own imports
    assert {
        m: sorted(t for t in ts if t.split(".")[0] == "sim")
        for m, ts in graph.items()
        if m.startswith("firmware") and any(t.startswith("sim") for t in ts)
    } == {}


def test_screens_never_import_the_app():
    graph = module_imports("firmware")
    screens = [m for m in graph if m.startswith("firmware.ui.") and m != "firmware.ui.app"]
    assert [m for m in screens if "firmware.ui.app" in graph[m]] == []
    assert not any(m.startswith("firmware.ui") for m in graph["firmware.table"] | graph["firmware.agents"])
