"""The desktop simulator: the board's firmware on simulated adapters, in a pygame window or
headless (scenarios, demos, screenshots)."""
