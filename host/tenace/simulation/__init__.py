"""Simulation: the real firmware on MicroPython's unix port, on virtual boards, over a virtual radio.

boards/: the MicroPython programs the simulators run, each in the role a hardware/<board>/board.py has on a
device (shipped as package data, compiled by mpy-cross, imported by bare name; tenace.firmware_build.SIM_DIR), and
the models of the chips around them (bus_models: SSD1306, PCF8574; nrf24_model) for the board tests and the emulated
RP2040 (tools/chip_board.py);
session/: `tenace sim` (processes, event, outcome) and `tenace demo`'s session; terminal/: `tenace terminal`,
one simulated terminal on the laptop's screen, and the collector it signs in to; faults.py: the one fault
model of a frame in flight; radio.py: the virtual radio `tenace sim` runs; loopback.py: terminals and a
collector on a simulated channel and clock, in one process (tests and benchmarks).
"""
