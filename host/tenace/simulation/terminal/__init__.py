"""The terminal simulator: the firmware app on the MicroPython unix port, its screen drawn on the laptop."""
