"""Bot levels above "easy" (which lives in firmware/bots.py): one module per game, each offering
`medium` and `strong` policies `(game, legal_decisions, rng) -> decision` (docs/bots.md)."""
