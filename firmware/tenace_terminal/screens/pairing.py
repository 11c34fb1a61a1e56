"""Pairing screen: after the table number, the 6-digit code shown on the director's laptop (link.needs_code)."""

from micropython import const

from tenace_terminal import VERSION
from tenace_terminal.catalogue import text
from tenace_terminal.screens import Screen as BaseScreen
from tenace_terminal.screens import header

_MSG_MESSAGE = const("message")

_CODE_DIGITS = const(6)


class Screen(BaseScreen):
    def __init__(self, app, section: str, table: str) -> None:
        super().__init__(app)
        self.section = section
        self.table = table
        self.code = ""

    def key(self, key: str) -> None:
        app = self.app
        if app.signing_in() or app.signin is not None:
            app.refuse("wait_host")
        elif key.isdigit():
            if len(self.code) >= _CODE_DIGITS:
                app.refuse("code_needed")
            else:
                self.code += key
        elif key == "BACK":
            if self.code:
                self.code = self.code[:-1]
            else:
                app.go("startup", self.section, self.table)
        elif key == "OK":
            if len(self.code) != _CODE_DIGITS:
                app.refuse("code_needed")
            else:
                app.sign_in(self.section, int(self.table), self.code)
        else:
            super().key(key)

    def message(self, message: dict) -> None:
        if message.get("type") == _MSG_MESSAGE:
            self.code = ""  # refused (a wrong code): key it again
        super().message(message)  # (the round clock may come with the sign-in's answer)

    def draw(self, display) -> None:
        app = self.app
        header(display, text("title"))
        display.text(0, 1, text("terminal", app.terminal_id))
        display.text(0, 2, text("firmware", VERSION))
        display.text(0, 4, text("section_table", self.section, int(self.table)))
        if app.signin is not None:
            display.text(0, 5, text("waiting_plan"))
        elif app.signing_in():
            display.text(0, 6, text("signing_in"))
        else:
            display.text(0, 5, text("pair_code", self.code + "_"))
            display.text(0, 6, text("code_hint"))
