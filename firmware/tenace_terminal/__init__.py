"""Tenace table terminal: the MicroPython app players key results on, over injected devices.

Entry point: tenace_terminal.build.build_terminal(transport, terminal, keypad, display, clock, storage, battery)
makes the link and the App over it, then App.run() on a device, or App.step() repeatedly from a simulator or a test.
"""

VERSION = "0.1.0"
