"""Start-up screen: terminal id, firmware version, battery; sign-in to a section and table (then the pairing
code, screens/pairing.py, when the link has no event key yet: link.needs_code)."""

from micropython import const

from tenace_terminal import VERSION
from tenace_terminal.catalogue import text
from tenace_terminal.screens import Screen as BaseScreen
from tenace_terminal.screens import header

_SECTIONS = const("ABCDEFGHIJKLMNOPQRSTUVWXYZ")
_TABLE_DIGITS = const(3)


class Screen(BaseScreen):
    def __init__(self, app, section: str = "", table: str = "") -> None:
        super().__init__(app)
        self.section = section or app.section or "A"
        self.table = table or (str(app.table) if app.table and app.session_over else "")

    def key(self, key: str) -> None:
        app = self.app
        if app.signing_in():
            if key == "BACK":
                app.asking = None
            else:
                app.refuse("wait_host")
            return
        if app.signin is not None and not app.session_over:
            app.refuse("wait_host")  # signed in: the round plan is on its way
            return
        if key.isdigit():
            if len(self.table) >= _TABLE_DIGITS:
                app.refuse("table_range")
            else:
                self.table = (self.table + key).lstrip("0")
        elif key == "BACK":
            if self.table:
                self.table = self.table[:-1]
            else:
                app.refuse("nothing_to_erase")
        elif key == "UP" or key == "DOWN":
            step = 1 if key == "UP" else -1
            self.section = _SECTIONS[(_SECTIONS.find(self.section) + step) % len(_SECTIONS)]
        elif key == "OK":
            if not self.table:
                app.refuse("table_needed")
            elif getattr(app.link, "needs_code", False):
                app.go("pairing", self.section, self.table)
            else:
                app.sign_in(self.section, int(self.table))
        else:
            super().key(key)

    def draw(self, display) -> None:
        app = self.app
        header(display, text("title"))
        display.text(0, 1, text("terminal", app.terminal_id))
        display.text(0, 2, text("firmware", VERSION))
        display.text(0, 3, text("battery", app.battery.percent()))
        if app.signing_in():
            display.text(0, 4, text("section", self.section))
            display.text(0, 5, text("table", self.table))
            display.text(0, 6, text("signing_in"))
        elif app.signin is not None and not app.session_over:
            display.text(0, 4, text("signed_in", app.section, app.table))
            display.text(0, 5, text("waiting_plan"))
        else:
            display.text(0, 4, text("section", self.section))
            display.text(0, 5, text("table", self.table + "_"))
            display.text(0, 6, text("signin_hint"))
