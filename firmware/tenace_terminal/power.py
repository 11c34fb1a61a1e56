"""The terminal between passes of its loop: the display off when nobody looks, the processor asleep.

    run(app)           # a board file's main(): App.run()'s loop, resting between passes with nothing to do
Idle takes the app's keypad and the display's show() in hand: a key or a new screen is activity; DISPLAY_OFF_MS
without either turns the panel off (display.fb.poweroff(): micropython-lib's SSD1306 sends 0xAE, the panel keeps its
RAM at about 10 µA), and the next key only lights it again (poweron())
(the players see the screen before they key anything). rest() then waits IDLE_MS in clock.lightsleep, where the
board's clock has it (its radio listens by itself while the processor sleeps), else in clock.sleep_ms.
"""

from micropython import const

IDLE_MS = const(10)  # the keys are scanned this often: a press lasts 100 ms and more
DISPLAY_OFF_MS = const(60000)  # an OLED lit all evening is a fifth of the budget; a board takes 7 minutes
_TICKS_MASK = const(0x3FFFFFFF)


class Idle:
    def __init__(self, app) -> None:
        self.app = app
        self.clock = app.clock
        self.keypad = app.keypad
        self.display = app.display
        self.dark = False
        self.at = self.clock.ticks_ms()  # the last key or screen
        self._show = self.display.show
        self.display.show = self.show
        app.keypad = self
        clock = self.clock
        self.sleep = getattr(clock, "lightsleep", None) or getattr(clock, "sleep_ms", None)

    def read(self):
        """The keypad's next key; the one that finds the display off only lights it."""
        key = self.keypad.read()
        if key is not None:
            self.at = self.clock.ticks_ms()
            if self.dark:
                self.app.dirty = True  # drawn again, which lights it
                return None
        return key

    def held(self) -> list:
        return self.keypad.held()

    def show(self) -> None:
        self.at = self.clock.ticks_ms()
        if self.dark:
            self.dark = False
            self.display.fb.poweron()
        self._show()

    def rest(self) -> None:
        if not self.dark and (self.clock.ticks_ms() - self.at) & _TICKS_MASK >= DISPLAY_OFF_MS:
            off = getattr(getattr(self.display, "fb", None), "poweroff", None)
            if off is not None:  # (a simulator's text display has no panel)
                off()
                self.dark = True
        if self.sleep is not None:
            self.sleep(IDLE_MS)


def run(app) -> None:
    """The terminal's main loop on a device, as App.run() but resting in Idle between passes; forever."""
    rest = Idle(app).rest
    step = app.step
    while True:
        if not step():
            rest()
