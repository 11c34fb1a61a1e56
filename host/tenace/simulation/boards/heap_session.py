"""A full 27-board session (9 rounds of 3) on a simulated terminal, printing the peak heap in use.

The devices are as lean as a real board's: one small object is keypad, clock, battery and link, and
it answers the app's messages in a few lines (sign-in, plans, acks, travellers) in place of the
WireLink and the collector, so what is measured is the app alone: its screens, messages, journal
and the rules package. The link and the wire stack are measured with the real collector by
tests/terminal/wire_session_check.py. Run by
tools/bench_heap.py and tests/test_terminal_on_micropython.py under the MicroPython unix port:
    TENACE_JOURNAL_DIR=j micropython -X heapsize=64k -m heap_session
with MICROPYPATH the compiled firmware and this program, and j an empty folder for the journal. The callers
give a path of the same length on every machine: a path is heap, and the smallest heap must not vary.
Prints "heap in use after the imports: N bytes" (the code: on a device the packages are frozen into flash
and this costs no heap), "peak heap in use: N bytes" (code and data), "errors caught by the app: N" (must
be 0: the app lives on after an error, the measure would not), "results acknowledged: 27" and the last screen.
"""

import gc
import os

import tenace_terminal.app  # noqa: F401  (first: the app's code at the bottom of the heap, as on a device)
from tenace_terminal.text_grid import TextGrid

ROUNDS = 9
BOARDS = 3
KEYS_PER_BOARD = ("4 S N K H + 1 OK OK", "3 NT E 4 S = OK OK", "PASS OK OK")  # OK again: the traveller


class LeanDevices:
    """Keypad, clock, battery, and the link's answers to the app, in one object."""

    def __init__(self):
        self.keys = []
        self.now = 0
        self.inbox = []  # to the terminal
        self.acknowledged = 0

    def read(self):
        return self.keys.pop(0) if self.keys else None

    def ticks_ms(self):
        return self.now

    def percent(self):
        return 80

    def recv(self):
        return self.inbox.pop(0) if self.inbox else None

    def send(self, message):
        kind = message["type"]
        if kind == "sign_in":
            self.inbox.append({"type": "sign_in_ok", "section": "A", "table": message["table"],
                               "settings": {"traveller": True}})
            self.plan(1)
        elif kind == "round_request":
            self.plan(message["round"])
        elif kind == "result":
            self.acknowledged += 1
            self.inbox.append({"type": "ack", "seq": message["seq"]})
            if message["kind"] == "played":
                self.inbox.append({"type": "traveller", "board": message["board"], "percentage": 50.0,
                                   "lines": [[1, 2, message["contract"], message["declarer"], "=", message["score"]],
                                             [3, 4, "3NT", "S", "+1", 430]]})
            if message["board"] % BOARDS == 0 and message["round"] < ROUNDS:
                self.plan(message["round"] + 1)

    def plan(self, number):
        first = BOARDS * (number - 1) + 1
        plan = {"type": "round_plan", "round": number, "ns": 1, "ew": 11, "boards": list(range(first, first + BOARDS)),
                "next": {"ns": [1, "ns"], "ew": [2, "ew"], "boards": 4}}
        if number == ROUNDS:
            plan["last"] = True
        self.inbox.append(plan)


def main():
    gc.collect()
    code = gc.mem_alloc()
    storage = os.getenv("TENACE_JOURNAL_DIR")  # an empty folder of its own, made by the caller
    if storage is None:
        raise SystemExit("heap_session: TENACE_JOURNAL_DIR names an empty folder for the journal")
    devices = LeanDevices()
    display = TextGrid()
    from tenace_terminal.build import build_terminal

    app = build_terminal(None, 1, devices, display, devices, storage, devices, link=devices)
    del build_terminal
    peak = [0, 0]

    def press(key):
        while app.keys_paused():  # a player reads where to move before pressing OK
            devices.now += 100
        devices.keys.append(key)
        while app.step():
            devices.now += 10
        devices.now += 10
        gc.collect()
        in_use = gc.mem_alloc()
        if in_use > peak[0]:
            peak[0] = in_use
        peak[1] += 1

    for key in ("1", "OK"):
        press(key)
    for _ in range(ROUNDS):
        press("OK")
        for board in range(BOARDS):
            for key in KEYS_PER_BOARD[board].split():
                press(key)
        press("OK")
    print("heap in use after the imports: %d bytes (the code)" % code)
    print("peak heap in use: %d bytes (live, sampled after each of %d keys; heap %d bytes)"
          % (peak[0], peak[1], gc.mem_alloc() + gc.mem_free()))
    print("errors caught by the app: %d%s" % (app.faults, ", the last " + app.last_fault if app.faults else ""))
    print("results acknowledged: %d" % devices.acknowledged)
    print(display.screen())


main()
