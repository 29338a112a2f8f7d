"""The hardware-in-the-loop bench (docs/hil.md): the scenarios CI runs, run against a board —
a real one wired to a bench controller, or a simulated one in a process of its own.

- `sim.hil.serve`: `xtraboard sim --headless --debug-port PORT`, a simulated board serving the
  debug service (`firmware.debug`).
- `sim.hil.driver`: `BenchDriver`, the scenario runner's `BoardDriver` over the debug service,
  pressing buttons through gpiozero outputs or the service's virtual buttons.
- `sim.hil.record`: a live session turned into a scenario file.
- `sim.hil.wire`: the LED frame and the display image rebuilt from captured wire traffic.
- `sim.hil.command`: `xtraboard hil run|record`.
"""
