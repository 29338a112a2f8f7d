"""Run first inside the engine's box (firmware.xdp.sandbox): set the engine's memory limit, then
become the engine, so the limit holds for it and every process it starts.

    python -I -S limits.py BYTES -- PROGRAM [ARGUMENT...]

The limit is on address space (RLIMIT_AS): an allocation past it fails (Python: MemoryError,
C: malloc returns NULL), and an engine that dies of it fails like one that crashes. Only the
standard library is used, and no `site`, so it starts in a few milliseconds. Set inside the box
rather than with `preexec_fn`, which is not safe in a board with threads.
"""

from __future__ import annotations

import os
import resource
import sys

NOT_STARTED = 127  # the shell's code for a program that could not be run


def main(argv: list[str]) -> int:
    if len(argv) < 4 or argv[2] != "--" or not argv[1].isdigit():
        print("usage: limits.py BYTES -- PROGRAM [ARGUMENT...]", file=sys.stderr)
        return 2
    limit, command = int(argv[1]), argv[3:]
    resource.setrlimit(resource.RLIMIT_AS, (limit, limit))
    try:
        os.execvp(command[0], command)
    except OSError as exc:
        print(f"cannot start {command[0]}: {exc.strerror or exc}", file=sys.stderr)
    return NOT_STARTED


if __name__ == "__main__":
    sys.exit(main(sys.argv))
