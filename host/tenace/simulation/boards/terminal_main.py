"""The terminal app on the MicroPython unix port, pixel for pixel: keys in on stdin, SSD1306 frames out on stdout.

Started by `tenace terminal` (tenace.simulation.terminal.process), with MICROPYPATH=firmware:<this folder>
and TENACE_HOST_PORT the loopback port of the collector it serves (tenace.simulation.terminal.table_host):
    micropython terminal_main.py [lang=he] [storage=/tmp/dir] [rounds=3] [boards=3] [deals=1] [traveller=1]

The line protocol on stdout, one message per line:
    F <2048 hex digits>   a frame: the display's 1024-byte MONO_VLSB buffer as of show()
    K                     the app is idle and waits for one line on stdin
anything else is the app's own output (a traceback, a log) and is passed on as such; an error the app
caught is on its screen and in that output, and the run goes on (strict=False), as on a table. On stdin each
line is one key name (tenace_terminal.keypad_layout: "4", "S", "NT", "OK", ...) or a simulator command:
    !reboot      power off and on: the app restarts from its journal
    !wait MS     let MS milliseconds pass (the link retransmits what is unacknowledged)
    !offline / !online   the host goes out of / comes back into radio range
End of input ends the run.
"""

import sys
from binascii import hexlify

import framebuf
from session_runner import Simulator
from tenace_terminal import catalogue
from tenace_terminal.text_display import TextDisplay

_W = 128
_H = 64


class FrameDevice(framebuf.FrameBuffer):
    """An SSD1306 of 128x64 as micropython-lib's driver is (a FrameBuffer subclass); show() prints the frame."""

    def __init__(self):
        self.buffer = bytearray(_W * _H // 8)
        super().__init__(self.buffer, _W, _H, framebuf.MONO_VLSB)
        self.frames = 0

    def show(self):
        self.frames += 1
        out = sys.stdout
        out.write("F ")
        # In slices: a device-sized heap has no 4 KB in one piece to spare for the whole frame's hex.
        view = memoryview(self.buffer)
        for start in range(0, len(self.buffer), 128):
            # hexlify takes any buffer (the stubs say bytes): a slice of the view, not a copy.
            out.write(hexlify(view[start:start + 128]).decode())  # pyright: ignore[reportArgumentType]
        out.write("\n")


class PixelSimulator(Simulator):
    """The headless simulator (link, collector, clock), with the real display."""

    # Pixels in place of text lines, and press() returns no text: the screen went out on show().
    def new_display(self):  # pyright: ignore[reportIncompatibleMethodOverride]
        return TextDisplay(FrameDevice())

    def press(self, key):  # pyright: ignore[reportIncompatibleMethodOverride]
        # The pixels are the screen here: they went out on show(); there is no text to return.
        while self.app.keys_paused():  # pyright: ignore[reportOptionalMemberAccess]  (as Simulator.press)
            self.step(100)
        self.keypad.push(key)
        self.keys_pressed += 1
        self.settle()


def options(argv):
    found = {"lang": "en", "storage": "", "rounds": "3", "boards": "3", "deals": "0", "traveller": "0"}
    for arg in argv:
        name, _, value = arg.partition("=")
        if name not in found:
            raise SystemExit("terminal_main: unknown option %r" % arg)
        found[name] = value
    return found


def main(argv):
    opts = options(argv)
    catalogue.set_language(opts["lang"])
    settings = {"traveller": opts["traveller"] == "1", "language": opts["lang"]}
    if opts["deals"] == "1":
        settings["lead"] = "warn"  # hand records go to the terminals that check the lead
    sim = PixelSimulator(storage=opts["storage"] or None, settings=settings, rounds=int(opts["rounds"]),
                         boards_per_round=int(opts["boards"]), deals=opts["deals"] == "1", strict=False)
    try:
        while True:
            sys.stdout.write("K\n")
            line = sys.stdin.readline()
            if not line:
                break
            word = line.strip()
            if not word:
                continue
            if word == "!reboot":
                sim.reboot()
            elif word.startswith("!wait"):
                sim.wait(int(word[5:]))
            elif word == "!offline" or word == "!online":
                sim.radio.up = sim.radio.down = word == "!online"
                sim.settle()
            else:
                sim.press(word)
    finally:
        sim.close()


main(sys.argv[1:])
