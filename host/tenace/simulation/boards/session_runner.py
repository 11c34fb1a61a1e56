"""The headless simulator: the real terminal app and link, fed keys from a script, its screens captured as text.

    sim = Simulator()                  # a terminal over the real wire to the real collector (host_end.py)
    sim.sign_in(table=3)               # section A, table 3: the host sends round 1
    screen = sim.press("OK")           # one key, then app, link and host run until idle; the screen's text
    screens = sim.type("4 S N K H + 1 OK")
    screen = sim.burst("PASS OK OK")   # keys as fast as the keypad gives them, no player reading in between
    sim.radio.up = sim.radio.down = False   # the host out of reach (up: terminal to host, down: back)
    sim.reboot()                       # a new App and link on the same storage, as after a power cut
    sim.host.result(1, 2)              # what the event file holds: "played v0 4S N 11 HK +450"
    Simulator(movement="howell")       # the first rounds of a 4-table Howell instead of a Mitchell
    Simulator(sleepy=True)             # a radio deaf while the link's receiver is off (sim.radio.ear), as on the air

The terminal holds the event's key from the start (as one provisioned by cable would), so it signs in
without the pairing code (paired=False: it asks for it); a clock the simulator moves drives terminal and
collector alike. An error the app or its link catches to stay alive (faults) fails the run at once:
AssertionError from the key or message that caused it, unless the Simulator was made with strict=False
(an interactive run).

Run it directly to print the screens of a key script:
    python3 host/tenace/simulation/boards/session_runner.py 3 OK OK 4 S N K H + 1 OK
"""

# The app first: its message index is made while the heap is still empty and in one piece.
import tenace_terminal.app  # noqa: F401  # isort: skip
from tenace_terminal.text_grid import TextGrid  # isort: skip

import sim_devices
from host_end import Radio, connect
from sim_devices import Bits, FixedBattery, ManualClock, ScriptedKeypad
from tenace_terminal.wire_link import STATE_FILE

TERMINAL = 1  # the wire's terminal id
_STEP_MS = 10
_QUIET_MS = 100  # with nothing to say either way, the host is polled this often (its retransmissions)
_SETTLE_LIMIT = 300


def check_faults(app):
    """Fail (AssertionError) when `app` or its link has caught an error to stay alive: a bug, even if it lives on."""
    for part in (app, app.link):
        if getattr(part, "faults", 0):
            raise AssertionError("the %s caught %d error(s), the last %s" % (
                "app" if part is app else "link", part.faults, part.last_fault))


def provision(storage, key):
    """Give the terminal the event's key in its link state, keeping what else the state holds."""
    path = storage.rstrip("/") + "/" + STATE_FILE
    try:
        with open(path) as f:
            words = f.read().split()
    except OSError:
        words = []
    if len(words) == 4 and words[0] == key.hex():
        return
    if len(words) != 4:
        words = ["-", "1", "-1", "0"]
    try:
        with open(path, "w") as f:
            f.write("%s %s %s %s\n" % (key.hex(), words[1], words[2], words[3]))
    except OSError:
        pass  # a dead flash (the power-cut test): the terminal boots without a key, as such a terminal would


class Simulator:
    def __init__(self, storage=None, settings=None, rounds=3, boards_per_round=3, deals=False, analysed=True,
                 terminal_id="T01", compact_bytes=4096, strict=True, online=True, paired=True, loss=0.0,
                 movement="mitchell", club=None, sleepy=False):
        self.own_storage = storage is None
        self.storage = storage if storage is not None else sim_devices.new_directory()
        self.clock = ManualClock(1000)
        self.host = connect({"rounds": rounds, "boards_per_round": boards_per_round, "settings": settings or {},
                             "deals": deals, "analysed": analysed, "movement": movement,
                             "club": club.hex() if club else ""})
        self.club = club  # the club key tenace flash would have written (the host has it too), or None
        if sleepy:  # deaf while the link does not listen
            from sleepy_radio import SleepyRadio

            self.radio = SleepyRadio(loss)
        else:
            self.radio = Radio(loss)
        self.radio.up = self.radio.down = online  # False: the terminal boots out of the host's reach
        self._polled = -_QUIET_MS
        self._host_spoke = False
        if paired:  # else the terminal pairs with the event's code (self.host.code), keyed at sign-in
            provision(self.storage, self.host.key)
        self.terminal_id = terminal_id
        self.compact_bytes = compact_bytes
        self.keys_pressed = 0
        self.strict = strict
        self.app = None
        self.link = None
        self.boots = 1
        self.boot()

    def new_display(self):
        """The display a boot starts with: text lines (PixelSimulator: pixels)."""
        return TextGrid()

    def boot(self):
        """Start the link and the app (again) on the same storage, with a fresh display and keypad."""
        self.display = self.new_display()
        self.keypad = ScriptedKeypad()
        self.battery = FixedBattery()
        from tenace_terminal.build import build_terminal  # (it drops its module: imported again at each boot)

        # Seeded: the same nonces and retransmission times on every run, so the heap a test needs is the same too.
        self.app = build_terminal(self.radio, TERMINAL, self.keypad, self.display, self.clock, self.storage,
                                  self.battery, self.terminal_id, Bits(self.boots).getrandbits, self.club,
                                  self.compact_bytes)
        self.link = self.app.link
        self.boots += 1
        self.settle()
        return self.app

    def reboot(self):
        """Power off and on: what was in RAM is gone (and what was on its way to the terminal), the storage and
        the host remain."""
        self.app = None
        self.link = None
        self.radio.to_terminal = []
        return self.boot()

    def exchange(self):
        """What the terminal put on the air to the host; what the host broadcasts back."""
        radio = self.radio
        frames = radio.take()
        now = self.clock.now
        if not frames and not self._host_spoke and now - self._polled < _QUIET_MS:
            return
        down = self.host.exchange(frames, now)
        self._polled = now
        self._host_spoke = bool(down)
        radio.deliver(down)

    def step(self, ms):
        self.exchange()
        busy = self.app.step()  # pyright: ignore[reportOptionalMemberAccess]  (None only after close())
        self.check()
        self.clock.advance(ms)
        return busy

    def settle(self):
        """Run the app, its link and the host until none has anything left to do."""
        radio = self.radio
        for _ in range(_SETTLE_LIMIT):
            busy = self.step(_STEP_MS)
            if not busy and not radio.to_host and not radio.to_terminal and not self._host_spoke \
                    and not self.link.inbox:  # pyright: ignore[reportOptionalMemberAccess]
                return
        raise RuntimeError("the terminal never went idle")

    def wait(self, ms):
        """Let `ms` milliseconds pass (the link retransmits), running app, link and host."""
        end = self.clock.now + ms
        while self.clock.now < end:
            self.step(_STEP_MS * 10)
        self.settle()

    def check(self):
        if self.strict:
            check_faults(self.app)

    def press(self, key):
        """One key press, once the screen takes keys (a player reads where to move before pressing OK); returns
        the screen after the app (and host) dealt with it."""
        while self.app.keys_paused():  # pyright: ignore[reportOptionalMemberAccess]
            self.step(_STEP_MS * 10)
        self.keypad.push(key)
        self.keys_pressed += 1
        self.settle()
        return self.display.screen()

    def burst(self, script):
        """Press the keys of a space-separated script as fast as the keypad can (one per step of the app, no
        waiting for the screen); returns the screen after the last."""
        for key in script.split():
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
        """End the host's event; delete the journal's directory when the simulator made it."""
        self.host.close()
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
