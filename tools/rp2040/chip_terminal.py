"""One table's session on the emulated Pico (tools/chip_session.py): a MicroPython program run on the chip.

    import chip_terminal; chip_terminal.main(CODE, SEED, BOARDS, TABLE)

The app is board.main()'s, over the chip's own machine.I2C, Pins, SPI and ADC; its loop (board.main's `run`) is this
file's, with a scripted player (the simulator's) beside the app, which says the keys it wants on the serial line
after the screen's name ("KEYS contract 1 C N = OK"). The harness presses them one by one on the GPIO key matrix,
holding each until the app has read it ("GOT key", or "DROP key" when the app dropped it in a pause of the keys) and
letting go until the matrix has settled with no key down ("UP"), and answers with one byte after the last. Prints
"ACCEPTED round board result" as the table accepts each, "HEAP n" (gc.mem_free() after a collection) at each batch
of keys, and "DONE ..." when the host has every result of the session, or BOARDS of them.
"""

import gc
import select
import sys
import time

import board
from accepted_log import accepted_lines
from scripted_player import Player


class Finger:
    """The keypad as the player sees it (queue, push): the keys named on the serial line, gone when pressed. Also
    the app's keypad, in front of the matrix: it says when the app took a key, and when the matrix saw it let go."""

    def __init__(self, app):
        self.app = app
        self.matrix = app.keypad
        app.keypad = self
        self.up = False  # a key was read: "UP" once the matrix has settled with none down
        self.queue = []
        self.poller = select.poll()
        self.poller.register(sys.stdin, select.POLLIN)

    def read(self):
        matrix = self.matrix
        key = matrix.read()
        if key is not None:
            # As App.step will judge it: a key in a pause of the keys is dropped (the finger tries again later).
            print("%s %s" % ("DROP" if self.app.keys_paused() else "GOT", key))
            self.up = True
        elif self.up and not any(matrix._stable):  # the debounced state: a release shorter than it is not seen
            print("UP")
            self.up = False
        return key

    def held(self):
        return self.matrix.held()

    def push(self, *keys):
        for key in keys:
            self.queue.append(key)
        print("KEYS %s %s" % (self.app.screen_name, " ".join(keys)))  # the screen they are for, first

    def tick(self):
        if self.queue and self.poller.poll(0):
            sys.stdin.read(1)  # the harness let go of the last key
            self.queue = []


def main(code, seed, boards, table):
    """The board file's own start-up (board.main) on the chip's devices, with the player's loop as its loop."""
    board.main(lambda app: play(app, code, seed, boards, table))


def play(app, code, seed, boards, table):
    """App.step's loop with the player keying what each screen asks, until the session ends or `boards` results are
    acknowledged. Between idle passes it sleeps 2 ms, not power.run's lightsleep(10): that puts the journal's write
    19 to 26 ms after the accept's OK is read instead of 11 to 16, and every cut of the power-cut test (within 30 ms of
    the OK) then fell before it."""
    finger = Finger(app)
    player = Player(app, finger, table, code, seed)
    logged = set()
    print("READY")
    while not player.finished() and not (len(logged) >= boards and not app.pending):
        finger.tick()
        busy = app.step()
        if not busy and not finger.queue and player.act():
            gc.collect()
            print("HEAP %d" % gc.mem_free())
        for line in accepted_lines(app, logged):
            print("ACCEPTED " + line.strip())
        if not busy:
            time.sleep_ms(2)
    gc.collect()
    print("DONE keys=%d faults=%d heap=%d" % (player.keys, app.faults, gc.mem_free()))
