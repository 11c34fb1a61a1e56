"""Tenace table terminal: the MicroPython app players key results on, over injected devices.

Entry point: tenace_terminal.app.App(keypad, display, clock, link, storage, battery, terminal_id),
then App.run() on a device, or App.step() repeatedly from a simulator or a test.
"""

VERSION = "0.1.0"
