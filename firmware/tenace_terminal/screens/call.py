"""Calling the director (the menu's 5): the call goes at once; the screen says so, then "director coming" once the
director has acknowledged it in the console (round_clock.py also puts that in the status line, on any screen)."""

from micropython import const

from tenace_terminal import round_clock
from tenace_terminal.catalogue import text
from tenace_terminal.screens import Screen as BaseScreen
from tenace_terminal.screens import header

_MSG_CALL = const("call")
_NO_CLOCK = const(255)  # a call's minutes left when the table has no round clock (tenace_wire.director_call)


class Screen(BaseScreen):
    menu_allowed = False

    def __init__(self, app) -> None:
        super().__init__(app)
        self.sent = app.signin is not None  # (before the sign-in there is no table to send the director to)
        if self.sent:
            d = round_clock.state(app)
            d[0] = abs(d[0]) % 255 + 1
            left = round_clock.minutes(app)
            app.link.send({"type": _MSG_CALL, "round": app.plan["round"] if app.plan is not None else 1,
                           "call": d[0], "left": _NO_CLOCK if left < 0 else min(left, _NO_CLOCK - 1)})

    def key(self, key: str) -> None:
        if key == "OK" or key == "BACK" or key == "MENU":
            self.app.close_menu()
        else:
            self.app.refuse("press_ok")

    def draw(self, display) -> None:
        header(display, text("call_head"))
        if not self.sent:
            display.text(0, 3, text("call_signin"))
        else:
            display.text(0, 3, text("coming" if round_clock.coming(self.app) else "called"))
        display.text(0, 6, text("back_return"))
