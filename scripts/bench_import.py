"""Cold-start figures of the strongest EXTRA! bot, with no bytecode at all.

Each figure comes from a fresh interpreter run with `PYTHONDONTWRITEBYTECODE=1` on a fresh copy
of the `firmware` package without any `__pycache__` (so none of its modules has a `.pyc`, as
under the service, which sets that variable; the standard library keeps its own, as installed).
Printed as `name: value` lines, medians over `--runs`:

- `import_ms`: importing `firmware.games.extra.bots` and loading the strong bot's learnt tables
  (everything its first decision needs), wall clock;
- `import_peak_rss_mb`: the process's peak resident size after that, less the peak before it
  (`resource.getrusage`, the interpreter's own start-up not counted);
- `import_tracemalloc_peak_mb`: the peak of Python allocations during it (a separate run:
  tracemalloc slows imports down);
- `engine_ready_ms`, `engine_first_go_ms`, `engine_later_go_ms`: `xtraboard engine` from start to
  `readyok`, then its first `go` on a fresh EXTRA! solo position (strong) and the median of
  later ones on other positions, round trips as the board's client sees them.

    python scripts/bench_import.py --runs 5
    python scripts/bench_import.py --root /path/to/another/checkout   # the same figures there
"""

from __future__ import annotations

import argparse
import json
import os
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent

# Runs in the child: imports the bot and loads its learnt tables (firmware/games/extra/learnt.bin).
_IMPORT = r"""
import json, resource, sys, time
trace = sys.argv[1] == "trace"
if trace:
    import tracemalloc
    tracemalloc.start()
before = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
start = time.perf_counter()
import firmware.games.extra.bots
from firmware.games.extra import learnt
learnt.tables()
elapsed = time.perf_counter() - start
after = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
peak = tracemalloc.get_traced_memory()[1] if trace else 0
print(json.dumps({"ms": elapsed * 1000, "rss_kb": after - before, "trace_bytes": peak}))
"""

_POSITIONS = [(1, 2, 3, 4, 6), (2, 2, 5, 6, 1), (3, 4, 4, 5, 6), (1, 1, 2, 5, 6), (6, 5, 3, 2, 2), (4, 4, 4, 1, 3)]


def _cold_env(copy: str) -> dict[str, str]:
    env = dict(os.environ, PYTHONDONTWRITEBYTECODE="1", PYTHONPATH=copy)
    for name in ("PYTHONSTARTUP", "PYTHONPYCACHEPREFIX"):
        env.pop(name, None)
    return env


def _fresh_copy(root: Path, into: str) -> None:
    """The firmware package of `root` without a single `.pyc`."""
    shutil.copytree(
        root / "firmware", Path(into) / "firmware", symlinks=True, ignore=shutil.ignore_patterns("__pycache__", "*.pyc")
    )


def _import_run(root: Path, mode: str) -> dict[str, float]:
    with tempfile.TemporaryDirectory() as copy:
        _fresh_copy(root, copy)
        out = subprocess.run(
            [sys.executable, "-c", _IMPORT, mode],
            cwd=copy,
            env=_cold_env(copy),
            capture_output=True,
            text=True,
            check=True,
        )
    return json.loads(out.stdout.strip().splitlines()[-1])


def _record(faces: tuple[int, ...]) -> str:
    return json.dumps(
        {
            "format": "xtraboard-record",
            "version": 1,
            "game": "extra",
            "players": [{"name": "Solo"}],
            "steps": [{"roll": list(faces)}],
        }
    )


def _engine_run(root: Path) -> tuple[float, float, float]:
    """(start to readyok, first go, median later go) in ms, one fresh `xtraboard engine`."""
    with tempfile.TemporaryDirectory() as copy:
        _fresh_copy(root, copy)
        start = time.perf_counter()
        engine = subprocess.Popen(
            [sys.executable, "-c", "import sys; from firmware.cli import main; sys.exit(main(['engine']))"],
            cwd=copy,
            env=_cold_env(copy),
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            text=True,
        )
        assert engine.stdin is not None and engine.stdout is not None

        def ask(line: str, until: str) -> None:
            engine.stdin.write(line + "\n")  # type: ignore[union-attr]
            engine.stdin.flush()  # type: ignore[union-attr]
            while not engine.stdout.readline().startswith(until):  # type: ignore[union-attr]
                pass

        ask("xdp", "xdpok")
        engine.stdin.write("setoption name Level value strong\n")  # answers nothing
        ask("isready", "readyok")
        ready = time.perf_counter() - start
        goes = []
        for faces in _POSITIONS:
            engine.stdin.write(f"position {_record(faces)}\n")
            began = time.perf_counter()
            ask("go movetime 100", "bestmove")
            goes.append(time.perf_counter() - began)
        engine.stdin.write("quit\n")
        engine.stdin.close()
        engine.wait(timeout=30)
    return ready * 1000, goes[0] * 1000, statistics.median(goes[1:]) * 1000


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=5, help="fresh interpreters per figure (default 5)")
    parser.add_argument("--root", type=Path, default=ROOT, help="the checkout to measure (default: this one)")
    args = parser.parse_args(argv)
    root = args.root.resolve()
    runs = [_import_run(root, "plain") for _ in range(args.runs)]
    traced = [_import_run(root, "trace") for _ in range(args.runs)]
    engines = [_engine_run(root) for _ in range(args.runs)]
    figures = {
        "import_ms": statistics.median(r["ms"] for r in runs),
        "import_peak_rss_mb": statistics.median(r["rss_kb"] for r in runs) / 1024,
        "import_tracemalloc_peak_mb": statistics.median(r["trace_bytes"] for r in traced) / 2**20,
        "engine_ready_ms": statistics.median(e[0] for e in engines),
        "engine_first_go_ms": statistics.median(e[1] for e in engines),
        "engine_later_go_ms": statistics.median(e[2] for e in engines),
    }
    for name, value in figures.items():
        print(f"{name}: {value:.1f}", flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
