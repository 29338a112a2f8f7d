"""The board's user interface: screens that turn button presses into game steps, and pure
drawing of the OLED image and the LED frame from their state."""
