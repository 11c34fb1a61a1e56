"""A short session of the terminal app over WireLink to a wire host, printing the peak heap in use (MicroPython).

Pairing, sign-in, one round of three boards with a reboot after the first, each result stored once.
Run by tests/test_wire_link_on_micropython.py under the unix port with a limited heap:
    micropython -X heapsize=112k -m wire_session_check     (MICROPYPATH: the compiled firmware and tests)
Prints "peak heap in use: N bytes", then "stored once: 3" and the last screen.
"""

import gc

from test_wire_link import BOARD_KEYS, CODE, Table


def main():
    peak = [0]
    table = Table(rounds=1, boards=3)

    def sample():
        gc.collect()
        in_use = gc.mem_alloc()
        if in_use > peak[0]:
            peak[0] = in_use

    try:
        table.keys("3 OK")
        for key in CODE + "K":
            table.keys("OK" if key == "K" else key)
            sample()
        table.until(lambda: "Round 1" in table.screen(), 5000)
        table.keys("OK " + BOARD_KEYS[0])
        sample()
        table.boot()  # a power cut: new App and WireLink on the same storage
        sample()
        for script in ("OK", BOARD_KEYS[1], BOARD_KEYS[2]):
            for key in script.split():
                table.keys(key)
                sample()
        table.until(lambda: table.app.pending == {}, 20000)
        results = table.host.results()
        print("peak heap in use: %d bytes (heap %d bytes)" % (peak[0], gc.mem_alloc() + gc.mem_free()))
        print("stored once: %d" % len(set(results)) if len(set(results)) == len(results) else "stored twice!")
        print(table.display.screen())
    finally:
        table.close()


main()
