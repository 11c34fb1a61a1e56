"""The headless simulator: the real terminal app, fed keys from a script, its screens captured as text.

    sim = Simulator()                  # a terminal and a stand-in host on an in-memory link
    sim.sign_in(table=3)               # section A, table 3: the host sends round 1
    screen = sim.press("OK")           # one key, then app and host run until idle; the screen's text
    screens = sim.type("4 S N K H + 1 OK")
    sim.reboot()                       # a new App on the same storage, as after a power cut

An error the app catches to stay alive (App.faults) fails the run at once: AssertionError from the
key or message that caused it, unless the Simulator was made with strict=False (an interactive run).

Run it directly to print the screens of a key script:
    python3 host/tenace/micropython/session_runner.py 3 OK OK 4 S N K H + 1 OK
    MICROPYPATH=firmware:host/tenace/micropython micropython host/tenace/micropython/session_runner.py 3 OK
"""

# The app first: its message index is made while the heap is still empty and in one piece.
from tenace_terminal.app import App  # isort: skip
from tenace_terminal.text_grid import TextGrid  # isort: skip

import sim_devices
from sim_devices import FixedBattery, ManualClock, ScriptedKeypad, link_pair
from standin_host import StandInHost

_STEP_MS = 10
_SETTLE_LIMIT = 200


def check_faults(app):
    """Fail (AssertionError) when `app` has caught an error to stay alive: a bug, even if it lives on."""
    if app.faults:
        raise AssertionError("the app caught %d error(s), the last %s" % (app.faults, app.last_fault))


class Simulator:
    def __init__(self, storage=None, settings=None, rounds=3, boards_per_round=3, deals=False,
                 terminal_id="T01", compact_bytes=4096, strict=True):
        self.own_storage = storage is None
        self.storage = storage if storage is not None else sim_devices.new_directory()
        self.clock = ManualClock(1000)
        self.link, host_link = link_pair()
        self.host = StandInHost(host_link, rounds=rounds, boards_per_round=boards_per_round,
                                settings=settings, deals=deals)
        self.terminal_id = terminal_id
        self.compact_bytes = compact_bytes
        self.keys_pressed = 0
        self.strict = strict
        self.app = None
        self.boot()

    def new_display(self):
        """The display a boot starts with: text lines (PixelSimulator: pixels)."""
        return TextGrid()

    def boot(self):
        """Start the app (again) on the same storage, with a fresh display and keypad."""
        self.display = self.new_display()
        self.keypad = ScriptedKeypad()
        self.battery = FixedBattery()
        self.app = App(self.keypad, self.display, self.clock, self.link, self.storage, self.battery,
                       self.terminal_id, self.compact_bytes)
        self.settle()
        return self.app

    def reboot(self):
        """Power off and on: what was in RAM is gone, the storage and the host remain."""
        self.app = None
        self.link.inbox = []  # whatever was on the way to the terminal is lost
        return self.boot()

    def settle(self):
        """Run the app and the host until neither has anything left to do."""
        app = self.app
        for _ in range(_SETTLE_LIMIT):
            self.host.poll()
            busy = app.step()
            self.check()
            self.clock.advance(_STEP_MS)
            if not busy and not self.link.inbox and not (self.host.online and self.host.link.inbox):
                return
        raise RuntimeError("the terminal never went idle")

    def wait(self, ms):
        """Let `ms` milliseconds pass (resends happen), running app and host."""
        end = self.clock.now + ms
        while self.clock.now < end:
            self.host.poll()
            self.app.step()
            self.check()
            self.clock.advance(_STEP_MS * 10)
        self.settle()

    def check(self):
        if self.strict:
            check_faults(self.app)

    def press(self, key):
        """One key press; returns the screen after the app (and host) dealt with it."""
        self.keypad.push(key)
        self.keys_pressed += 1
        self.settle()
        return self.display.screen()

    def type(self, script):
        """Press the keys of a space-separated script; returns the screen after each."""
        return [self.press(key) for key in script.split()]

    def screen(self):
        return self.display.screen()

    def close(self):
        """Delete the journal's directory when the simulator made it."""
        if self.own_storage:
            sim_devices.remove_directory(self.storage)

    def sign_in(self, table=1):
        self.type(" ".join(str(table)) + " OK")
        return self.screen()


def main(argv):
    sim = Simulator()
    print(sim.screen())
    for key in argv:
        print("--- %s" % key)
        print(sim.press(key))
    sim.close()


if __name__ == "__main__":
    import sys

    main(sys.argv[1:])
