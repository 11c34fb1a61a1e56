"""The simulator's terminal process on the MicroPython unix port: real terminal apps, scripted players, a TCP radio.

Started by `tenace sim` (tenace.simulation.session), with MICROPYPATH=<mpy-cross'd firmware>:<this folder>:
    micropython radio_terminal.py port=PORT seed=S code=123456 dir=DIR terminals=ID:A3,ID:B1... [caller=ID]
Each terminal is the real App (firmware/tenace_terminal) with a WireLink over its own TCP connection
to the simulator's virtual radio (one connection per terminal: one radio each), SLIP-framed by
tenace_radio's StreamTransport, its journal in DIR/ID. What each table accepted is appended to
DIR/ID/accepted.txt ("round board result", flushed line by line) for the simulator to compare with
the store. While the file DIR/hold names a table's section, its players key nothing (the simulated
director holds the tables until a movement change has reached them). Terminal `caller` calls the director once, at
the start of its second round. Prints "DONE ID keys=N" when a table has finished and the host acknowledged
everything, "COMING ID" when the director's answer to its call reached it, "MOVE ID" when its screen first showed
the round clock's "move"; exits when all tables are done; exits at once if the radio goes.
"""

import os
import select
import sys
import time

from accepted_log import log_accepted, read_logged
from radio_socket import PolledSocket
from scripted_player import Player
from sim_devices import FixedBattery, ScriptedKeypad
from tenace_radio.uart_transport import StreamTransport
from tenace_terminal import catalogue
from tenace_terminal.build import build_terminal
from tenace_terminal.text_grid import TextGrid

_IDLE_MS = 5


class SleepyTransport(StreamTransport):
    """The terminal's radio as the sleepy link leaves it (wire_link.py: transport.listen): a frame that comes while
    the receiver is off is lost, as on the air (counted in `deaf`); the host sends it again when the terminal speaks."""

    ear = True
    deaf = 0

    def listen(self, on):
        self.ear = on

    def recv(self):
        frame = StreamTransport.recv(self)
        while frame is not None and not self.ear:
            self.deaf += 1
            frame = StreamTransport.recv(self)
        return frame

_THINK_MS = 30  # a table takes this long to key the next thing, so that the radio sees tables interleave
_HOLD_MS = 100  # how often the players look at the director's hold file


class Clock:
    def ticks_ms(self):
        return time.ticks_ms()


class Table:
    """One terminal: its app, its players, and the log of what the table accepted."""

    def __init__(self, terminal, section, table, opts, clock):
        self.terminal = terminal
        self.section = section
        self.table = table
        self.seed = int(opts["seed"])
        self.think_ms = int(opts["think"])  # between two keys: the players' pace
        storage = opts["dir"] + "/" + str(terminal)
        try:  # noqa: SIM105  (MicroPython has no contextlib)
            os.mkdir(storage)
        except OSError:
            pass  # a restarted process: the journal is there
        self.radio = PolledSocket(int(opts["port"]), "radio_terminal")
        # The SLIP stream transport of a terminal wired by serial: the radio's socket is its stream; deaf between the
        # sleepy link's windows, as a radio terminal is.
        self.transport = SleepyTransport(self.radio, self.radio.sock)
        self.keypad = ScriptedKeypad()
        self.app = build_terminal(self.transport, terminal, self.keypad, TextGrid(), clock, storage, FixedBattery(),
                                  link_battery=False)  # the simulated battery is the app's alone, as before
        self.player = Player(self.app, self.keypad, table, opts["code"], self.seed, section,
                             terminal == int(opts["caller"]))
        self.display = self.app.display
        self.moved = False  # its screen has shown the round clock's "move"
        self.coming = False  # the director's answer to its call has reached it
        self.log_path = storage + "/accepted.txt"
        self.logged = read_logged(self.log_path)
        self.next_key = 0
        self.done = False

    def step(self, now, held):
        busy = self.app.step()
        if not busy and self.section not in held and time.ticks_diff(now, self.next_key) >= 0 and self.player.act():
            self.next_key = time.ticks_add(now, self.think_ms)
            busy = True
        self._log_accepted()
        app = self.app
        if not self.moved and app.director is not None and \
                catalogue.text("clock_move") in [line.rstrip() for line in self.display.frame]:
            self.moved = True
            print("MOVE %d" % self.terminal)
        if not self.coming and app.director is not None and app.director[0] < 0:
            self.coming = True
            print("COMING %d" % self.terminal)
        if not self.done and self.player.finished():
            self.done = True
            print("DONE %d keys=%d faults=%d" % (self.terminal, self.player.keys, self.app.faults))
        return busy

    def _log_accepted(self):
        log_accepted(self.app, self.logged, self.log_path)


class Hold:
    """The sections the director holds: the text of DIR/hold, read again every _HOLD_MS."""

    def __init__(self, path):
        self.path = path
        self.sections = ""
        self.read_at = None

    def read(self, now):
        if self.read_at is None or time.ticks_diff(now, self.read_at) >= _HOLD_MS:
            self.read_at = now
            try:
                with open(self.path) as f:
                    self.sections = f.read()
            except OSError:
                self.sections = ""
        return self.sections


def options(argv):
    found = {"port": "", "seed": "1", "code": "", "dir": "", "terminals": "", "think": str(_THINK_MS), "caller": "0"}
    for arg in argv:
        name, _, value = arg.partition("=")
        if name not in found:
            raise SystemExit("radio_terminal: unknown option %r" % arg)
        found[name] = value
    if not found["port"] or not found["dir"] or not found["terminals"]:
        raise SystemExit("radio_terminal: port=, dir= and terminals= are needed")
    return found


def main(argv):
    opts = options(argv)
    clock = Clock()
    tables = []
    for item in opts["terminals"].split(","):
        terminal, _, seat = item.partition(":")  # "12:A3": terminal 12 at section A table 3
        tables.append(Table(int(terminal), seat[0], int(seat[1:]), opts, clock))
    poller = select.poll()
    for t in tables:
        poller.register(t.radio.sock, select.POLLIN)
    hold = Hold(opts["dir"] + "/hold")
    print("READY %d" % len(tables))
    while True:
        now = time.ticks_ms()
        held = hold.read(now)
        busy = False
        for t in tables:
            if t.step(now, held):
                busy = True
        if all(t.done for t in tables):
            return
        if not busy:
            poller.poll(_IDLE_MS)


main(sys.argv[1:])
