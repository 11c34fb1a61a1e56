"""The spare terminal's board: the real terminal app in a phone's browser, on MicroPython's WebAssembly port.

The page (tenace/web/static/spare.js) writes the firmware's packages and this module into the port's
file system, then:
    board = SpareBoard(terminal, random_hex)   # terminal: the wire id; random_hex(n): n random bytes in hex
    board.key("OK")                            # a key of the keypad (tenace_terminal.keypad_layout names)
    board.heard("a1b2...")                     # a frame from the laptop (the page's WebSocket), in hex
    state = board.tick()                       # the app run until idle: JSON with the frames to send and the screen

The app, its link and its journal are the firmware's own, unchanged; what a board file does on a device is
done here with what a browser has: the page's WebSocket is the radio (one frame per message, so no SLIP),
crypto.getRandomValues is the random source (this port has no os.urandom), the journal is in the port's
in-memory file system (the page keeps a copy in localStorage, so a reload loses nothing), and the page's
timer calls tick() where App.run() would loop and sleep (a browser's loop must not be held).
Runs under the MicroPython unix port too (the tests), where random_hex may come from os.urandom.
"""

import json
import time
from binascii import hexlify, unhexlify

from tenace_terminal.keypad_layout import LAYOUT
from tenace_terminal.text_grid import TextGrid

STORAGE = "/journal"
_STEPS = 64  # app steps per tick at most: a tick must give the page back its loop soon
_OUTBOX = 32  # frames kept for the page at most: it takes them every tick (a radio would lose the rest too)


class Keys:
    """The keypad: keys the page pushed, one per read()."""

    def __init__(self):
        self.queue = []

    def read(self):
        if self.queue:
            return self.queue.pop(0)
        return None


class Clock:
    def ticks_ms(self):
        return time.ticks_ms()


class Battery:
    """A phone's battery is its own to watch: the terminal's low-battery warning stays off."""

    def percent(self):
        return 100


class PageTransport:
    """The WebSocket as the link's transport: send() keeps the frame for the page, recv() gives what it heard."""

    def __init__(self):
        self.inbox = []
        self.outbox = []

    def send(self, frame):
        if len(self.outbox) < _OUTBOX:
            self.outbox.append(hexlify(frame).decode())

    def recv(self):
        if self.inbox:
            return self.inbox.pop(0)
        return None


class SpareBoard:
    def __init__(self, terminal, random_hex, storage=STORAGE, clock=None):
        self._random_hex = random_hex
        self.terminal = terminal
        self.keys = Keys()
        self.display = TextGrid()
        self.transport = PageTransport()
        clock = clock or Clock()  # (a test's manual clock)
        from tenace_terminal.build import build_terminal

        # A phone's battery is not the terminal's: the link's status reports none, as before.
        self.app = build_terminal(self.transport, terminal, self.keys, self.display, clock, storage, Battery(),
                                  random_bits=self.random_bits, link_battery=False)
        self.link = self.app.link
        self.asked = ""  # the table of the last sign-in the app asked for, "A2": the page's help names it

    def random_bits(self, n):
        value = int.from_bytes(unhexlify(self._random_hex((n + 7) >> 3)), "big")
        return value & ((1 << n) - 1)

    def key(self, name):
        self.keys.queue.append(name)

    def heard(self, frame_hex):
        try:  # noqa: SIM105  (MicroPython has no contextlib)
            self.transport.inbox.append(unhexlify(frame_hex))
        except ValueError:
            pass  # not hex: noise, as a radio would hear it

    def tick(self):
        """Run the app until it is idle (or _STEPS steps); what the page needs, as JSON: the frames to send
        ("out", hex), the screen as last shown ("lines", "inverse", "shown": frames drawn so far), whether
        anything was done ("busy": the page then saves the journal), the app's caught errors ("faults"), and the
        table of the last sign-in asked for ("asked": "A2", "" before one; the page's help on a table taken
        names it)."""
        app = self.app
        busy = False
        for _ in range(_STEPS):
            if not app.step():
                break
            busy = True
        asking = app.asking
        if asking is not None and asking["type"] == "sign_in":
            self.asked = "%s%d" % (asking["section"], asking["table"])
        out = self.transport.outbox
        self.transport.outbox = []
        display = self.display
        return json.dumps({"out": out, "lines": display.frame, "inverse": display.inverse, "rtl": display.rtl,
                           "shown": display.shown, "busy": busy or bool(out), "screen": app.screen_name,
                           "faults": app.faults + getattr(self.link, "faults", 0), "signed_in": app.signin is not None,
                           "pending": len(app.pending), "asked": self.asked})


def layout():
    """The keypad's rows of key names, as JSON: the page draws its buttons from the firmware's own layout."""
    return json.dumps(LAYOUT)
