"""A short session of the terminal app over WireLink to the collector, printing the peak heap in use (MicroPython).

Pairing, sign-in, one round of three boards with a reboot after the first, each result stored once.
Run by tests/test_wire_link_on_micropython.py under the unix port with a limited heap:
    micropython -X heapsize=180k -m wire_session_check     (MICROPYPATH: the compiled firmware and tests;
    TENACE_HOST_PORT: the collector's line protocol, tenace.simulation.terminal.table_host)
Prints "peak heap in use: N bytes", then "stored once: 3" and the last screen.
"""

import gc

from session_runner import Simulator
from test_wire_link import BOARD_KEYS, until


def main():
    peak = [0]
    sim = Simulator(rounds=1, paired=False)

    def sample():
        gc.collect()
        in_use = gc.mem_alloc()
        if in_use > peak[0]:
            peak[0] = in_use

    try:
        sim.type("3 OK")
        for key in sim.host.code + "K":
            sim.press("OK" if key == "K" else key)
            sample()
        until(sim, lambda: "Round 1" in sim.screen(), 5000)
        sim.type("OK " + BOARD_KEYS[0])
        sample()
        sim.reboot()  # a power cut: new App and WireLink on the same storage
        sample()
        for script in ("OK", BOARD_KEYS[1], BOARD_KEYS[2]):
            for key in script.split():
                sim.press(key)
                sample()
        until(sim, lambda: sim.app.pending == {}, 20000)
        stored = sim.host.stored()  # every message the event file holds from the terminal
        boards = sim.host.results()  # the boards with a result
        print("peak heap in use: %d bytes (heap %d bytes)" % (peak[0], gc.mem_alloc() + gc.mem_free()))
        print("stored once: %d" % len(boards) if len(stored) == len(boards) else "stored: %r" % stored)
        print(sim.display.screen())
    finally:
        sim.close()


main()
