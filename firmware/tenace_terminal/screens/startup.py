"""Start-up screen: terminal id, firmware version, battery; sign-in to a section and table (and the pairing code
when the link has no event key yet: link.needs_code)."""

from tenace_terminal import VERSION, keys
from tenace_terminal.messages import text
from tenace_terminal.screens import Screen as BaseScreen
from tenace_terminal.screens import header

_SECTIONS = "ABCDEFGHIJKLMNOPQRSTUVWXYZ"
_TABLE_DIGITS = 3
_CODE_DIGITS = 6


class Screen(BaseScreen):
    def __init__(self, app) -> None:
        super().__init__(app)
        self.section = app.section or "A"
        self.table = str(app.table) if app.table and app.session_over else ""
        self.code = None  # the pairing code being keyed, after the table (None: not asked)

    def key(self, key: str) -> None:
        app = self.app
        if app.signing_in():
            if key == keys.BACK:
                app.asking = None
            else:
                app.refuse("wait_host")
            return
        if app.signin is not None and not app.session_over:
            app.refuse("wait_host")  # signed in: the round plan is on its way
            return
        if self.code is not None:
            self._code_key(key)
        elif key in keys.DIGITS:
            if len(self.table) >= _TABLE_DIGITS:
                app.refuse("table_range")
            else:
                self.table = (self.table + key).lstrip("0")
        elif key == keys.BACK:
            if self.table:
                self.table = self.table[:-1]
            else:
                app.refuse("nothing_to_erase")
        elif key == keys.UP or key == keys.DOWN:
            step = 1 if key == keys.UP else -1
            self.section = _SECTIONS[(_SECTIONS.find(self.section) + step) % len(_SECTIONS)]
        elif key == keys.OK:
            if not self.table:
                app.refuse("table_needed")
            elif getattr(app.link, "needs_code", False):
                self.code = ""
            else:
                app.sign_in(self.section, int(self.table))
        else:
            super().key(key)

    def _code_key(self, key: str) -> None:
        app = self.app
        code = self.code or ""
        if key in keys.DIGITS:
            if len(code) >= _CODE_DIGITS:
                app.refuse("code_needed")
            else:
                self.code = code + key
        elif key == keys.BACK:
            self.code = code[:-1] if code else None
        elif key == keys.OK:
            if len(code) != _CODE_DIGITS:
                app.refuse("code_needed")
            else:
                app.sign_in(self.section, int(self.table))
                # App.sign_in takes no code: add it to the sign-in it resends, and send that one now.
                asking = app.asking
                asking["code"] = code
                app.send(asking)
        else:
            super().key(key)

    def message(self, message: dict) -> None:
        if self.code is not None and message.get("type") == "message":
            self.code = ""  # refused (a wrong code): key it again

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
        elif self.code is not None:
            display.text(0, 4, text("section_table", self.section, int(self.table)))
            display.text(0, 5, text("pair_code", self.code + "_"))
            display.text(0, 6, text("code_hint"))
        elif app.signin is not None and not app.session_over:
            display.text(0, 4, text("signed_in", app.section, app.table))
            display.text(0, 5, text("waiting_plan"))
        else:
            display.text(0, 4, text("section", self.section))
            display.text(0, 5, text("table", self.table + "_"))
            display.text(0, 6, text("signin_hint"))
