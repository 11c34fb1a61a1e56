"""Headless devices for the table terminal app: scripted keypad, manual clock, seeded random bits, battery, storage.

They have the shape of the real ones (hard rule 6) and run under CPython and the MicroPython unix port.
"""


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


class Bits:
    """A seeded xorshift32: the same random bits on every run and on both interpreters (MicroPython's
    random module has no Random class, and the tests must not depend on the run)."""

    def __init__(self, seed):
        self.state = seed or 1

    def getrandbits(self, n):
        out = 0
        for _ in range((n + 15) // 16):
            x = self.state
            x ^= (x << 13) & 0xFFFFFFFF
            x ^= x >> 17
            x ^= (x << 5) & 0xFFFFFFFF
            self.state = x
            out = (out << 16) | (x >> 16)
        return out & ((1 << n) - 1)


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
