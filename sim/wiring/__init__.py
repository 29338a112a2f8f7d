"""The wiring documents generated from the board description (`xtraboard wiring`): the SVG
diagram (`svg`) and the generated sections of hardware/WIRING.md and BOM.md (`docs`). A desktop
tool: the board itself never needs them."""
