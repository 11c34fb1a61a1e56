"""Headless devices for the table terminal app: scripted keypad, manual clock, in-memory link, battery, storage.

They have the shape of the real ones (hard rule 6) and run under CPython and the MicroPython unix port.
"""

import json


class ScriptedKeypad:
    """Gives the app the keys pushed into it, one per read(), then None."""

    def __init__(self):
        self.queue = []

    def push(self, *keys):
        for key in keys:
            self.queue.append(key)

    def read(self):
        if self.queue:
            return self.queue.pop(0)
        return None


class ManualClock:
    """A ticks_ms clock that only moves when the simulator says so."""

    def __init__(self, start=0):
        self.now = start

    def ticks_ms(self):
        return self.now

    def advance(self, ms):
        self.now += ms

    def sleep_ms(self, ms):
        self.now += ms


class QueueLink:
    """One end of an in-memory link. Messages cross it as JSON, as over a wire: nothing is shared."""

    def __init__(self):
        self.inbox = []
        self.peer = None
        self.sent = 0
        self.up = True  # False: everything sent is lost, as when the terminal is out of radio range

    def send(self, message):
        self.sent += 1
        if self.up and self.peer is not None:
            self.peer.inbox.append(json.dumps(message))

    def recv(self):
        if self.inbox:
            return json.loads(self.inbox.pop(0))
        return None


def link_pair():
    """Two connected ends: (the terminal's, the host's)."""
    terminal, host = QueueLink(), QueueLink()
    terminal.peer = host
    host.peer = terminal
    return terminal, host


class FixedBattery:
    def __init__(self, percent=87):
        self.level = percent

    def percent(self):
        return self.level


_made = [0]


def new_directory():
    """An empty directory on the host's disk (VfsPosix under MicroPython): a journal outside the heap."""
    try:
        import tempfile
    except ImportError:  # MicroPython: no tempfile module
        import os

        _made[0] += 1
        path = "/tmp/tenace-terminal-%s-%d" % ("".join(["%02x" % b for b in os.urandom(4)]), _made[0])
        os.mkdir(path)
        return path
    return tempfile.mkdtemp(prefix="tenace-terminal-")


def remove_directory(path):
    import os

    for name in os.listdir(path):
        os.remove(path + "/" + name)
    os.rmdir(path)
