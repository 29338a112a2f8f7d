"""The board's hardware: its description as data (config), and thin adapters over gpiozero, PixelBuf and luma."""
