"""Factory test (BACK and OK held at power-on): every key, a display pattern, a radio round trip, the battery.

1. Keys: the keypad's grid, each key shown inverse once pressed, until every one has been seen; BACK pressed
   three times running gives the check up as failed (a dead key would hold it for ever).
2. Display: every cell lit; the tester presses OK when no pixel is dark, BACK when one is.
3. Radio: HELLO to the base station until the collector's PAIR_OFFER answers (it needs no key), timed; no
   answer in 5 s fails it.
4. Battery: the cell's voltage, a pass between 3.0 V and 4.35 V (a cell there, neither flat nor overcharged).
The results are shown, and kept on flash (wire_link.FACTORY_FILE, beside the journal) for the status report the
host's inventory lists (`tenace terminals`). OK then starts the terminal as usual. The texts are English only:
the test is the builder's, at the bench, not the players'.
"""

from micropython import const

from tenace_terminal.keypad_layout import LAYOUT, all_keys
from tenace_terminal.screens import Screen as BaseScreen
from tenace_terminal.screens import header
from tenace_wire.field_messages import BATTERY, DISPLAY, FAILED, KEYS, PASSED, RADIO

_MSG_PROBE = const("probe")

_KEYS = const(0)
_DISPLAY = const(1)
_RADIO = const(2)
_DONE = const(3)
_GIVE_UP = const(3)  # BACK this many times running ends the key check, failed
_MIN_MV = const(3000)
_MAX_MV = const(4350)


class Screen(BaseScreen):
    menu_allowed = False

    def __init__(self, app) -> None:
        super().__init__(app)
        self.stage = _KEYS
        self.seen = []
        self.count = len(all_keys())
        self.backs = 0
        self.checks = 0
        self.ms = -1
        self.mv = 0
        self.percent = 0
        self.saved = False

    def key(self, key: str) -> None:
        stage = self.stage
        if stage == _KEYS:
            self.backs = self.backs + 1 if key == "BACK" else 0
            if key not in self.seen:
                self.seen.append(key)
            if len(self.seen) == self.count:
                self.checks |= KEYS
                self.stage = _DISPLAY
            elif self.backs >= _GIVE_UP:
                self.stage = _DISPLAY
        elif stage == _DISPLAY:
            if key == "OK" or key == "BACK":
                if key == "OK":
                    self.checks |= DISPLAY
                self.stage = _RADIO
                self.app.link.send({"type": _MSG_PROBE})
        elif stage == _DONE and key == "OK":
            link = self.app.link
            if getattr(link, "status_at", -1) >= 0:
                link.status_at = 0  # signed in: the result goes to the host at once
            self.app._first_screen()  # as at power-on: the session under way (from the journal), or the sign-in

    def message(self, message: dict) -> None:
        if self.stage != _RADIO or message.get("type") != _MSG_PROBE:
            return
        self.ms = message.get("ms", -1)
        if self.ms >= 0:
            self.checks |= RADIO
        self._battery()
        self._save()
        self.stage = _DONE
        self.app.dirty = True

    def _battery(self) -> None:
        battery = self.app.battery
        try:
            millivolts = getattr(battery, "millivolts", None)
            self.mv = millivolts() if millivolts is not None else 0
            self.percent = battery.percent()
        except Exception as e:  # no reading is a failed check, shown as 0 mV
            print("factory test: battery: %s" % e)
            self.mv = 0
            return
        if _MIN_MV < self.mv <= _MAX_MV or (millivolts is None and self.percent > 0):
            self.checks |= BATTERY

    def _save(self) -> None:
        result = [PASSED if self.checks == KEYS | DISPLAY | RADIO | BATTERY else FAILED, self.checks, self.ms,
                  self.mv]
        path = getattr(self.app.link, "factory_path", "")
        if not path:
            return  # a link without flash of its own (a simulator's): nothing to keep
        try:  # whole or not at all: a new file, then renamed over the old one
            with open(path + ".tmp", "w") as f:
                f.write("%d %d %d %d\n" % (result[0], result[1], result[2], result[3]))
            import os

            os.rename(path + ".tmp", path)
            self.saved = True
        except OSError as e:
            print("factory test: not saved: %s" % e)

    def draw(self, display) -> None:
        stage = self.stage
        if stage == _DISPLAY:
            blank = " " * display.cols
            for row in range(display.rows - 1):
                display.text(0, row, blank, True)
            prompt = "OK good  BACK dark"
            display.text(0, display.rows - 1, prompt + " " * (display.cols - len(prompt)), True)
            return
        if stage == _KEYS:
            header(display, "Test keys %d/%d" % (len(self.seen), self.count))
            for r in range(len(LAYOUT)):
                row = LAYOUT[r]
                for c in range(len(row)):
                    if row[c]:
                        display.text(c * 3, r + 1, row[c][:2], row[c] in self.seen)
            return
        if stage == _RADIO:
            header(display, "Test radio")
            display.text(0, 2, "Calling the base")
            display.text(0, 3, "station...")
            return
        checks = self.checks
        header(display, "Test passed" if checks == KEYS | DISPLAY | RADIO | BATTERY else "Test FAILED")
        display.text(0, 1, "keys    " + ("ok" if checks & KEYS else "FAILED"))
        display.text(0, 2, "display " + ("ok" if checks & DISPLAY else "FAILED"))
        display.text(0, 3, "radio   " + ("%d ms" % self.ms if checks & RADIO else "FAILED"))
        display.text(0, 4, "battery %d mV %d%%" % (self.mv, self.percent))
        if not checks & BATTERY:
            display.text(0, 5, "battery FAILED")
        display.text(0, 6, "saved, OK: start" if self.saved else "NOT SAVED, OK: start")
