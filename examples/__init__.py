"""Examples of code that plugs into the board from outside `firmware/` (docs/adding-a-game.md)."""
