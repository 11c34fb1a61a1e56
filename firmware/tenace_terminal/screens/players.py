"""Player numbers for the round, seat by seat (N, E, S, W), when the host's settings ask for them."""

from micropython import const

from tenace_rules.board import SEATS
from tenace_terminal.catalogue import text
from tenace_terminal.screens import Screen as BaseScreen
from tenace_terminal.screens import header

_MSG_PLAYERS = const("players")

_MAX_DIGITS = const(6)


class Screen(BaseScreen):
    def __init__(self, app) -> None:
        super().__init__(app)
        self.numbers = ["", "", "", ""]
        self.seat = 0

    def key(self, key: str) -> None:
        app = self.app
        typed = self.numbers[self.seat]
        if key.isdigit():
            if len(typed) >= _MAX_DIGITS:
                app.refuse("player_digits", _MAX_DIGITS)
            else:
                self.numbers[self.seat] = typed + key
        elif key == "BACK":
            if typed:
                self.numbers[self.seat] = typed[:-1]
            elif self.seat:
                self.seat -= 1
            else:
                app.go("round")
        elif key == "OK":
            if not typed and app.settings["players"] == "required":
                app.refuse("player_needed", text("seat_" + SEATS[self.seat]))
            elif self.seat < 3:
                self.seat += 1
            else:
                self._save()
        else:
            super().key(key)

    def _save(self) -> None:
        app = self.app
        plan = app.plan
        record = {"type": _MSG_PLAYERS, "seq": app.next_seq, "section": app.section, "table": app.table,
                  "round": plan["round"], "ns": plan["ns"], "ew": plan["ew"],
                  "numbers": [int(n) if n else 0 for n in self.numbers]}
        if app.save_result(record):
            app.next_board()

    def draw(self, display) -> None:
        header(display, text("players_head"))
        for i in range(4):
            seat = SEATS[i]
            mark = "_" if i == self.seat else ""
            display.text(0, 1 + i, text("player_line", text("seat_" + seat), self.numbers[i] + mark), i == self.seat)
        if self.app.settings["players"] == "optional":
            display.text(0, 6, text("players_optional"))
        else:
            display.text(0, 6, text("players_required"))
