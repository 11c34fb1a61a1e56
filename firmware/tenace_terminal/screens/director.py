"""The director's menu, behind the event's PIN (sent by the host at sign-in): erase a board's result, mark it
not played, or give it an artificial adjusted score (A+, A or A- for each side, Law 12C2). Erasing and
marking not played are confirmed first. Each is a new result record, journaled and sent like a played
result, so the host keeps every version.
"""

from micropython import const

from tenace_terminal.catalogue import text
from tenace_terminal.screens import Screen as BaseScreen
from tenace_terminal.screens import header

_PIN_DIGITS = const(8)
_ADJUSTMENTS = {"+": "A+", "=": "A", "-": "A-"}


class Screen(BaseScreen):
    menu_allowed = False

    def __init__(self, app) -> None:
        super().__init__(app)
        self.step = "pin"
        self.typed = ""
        self.board = 0
        self.ns_adjustment = ""

    def key(self, key: str) -> None:
        app = self.app
        step = self.step
        if key == "MENU":
            app.close_menu()
        elif step == "pin" or step == "board":
            self._number(key)
        elif step == "action":
            if key == "1":
                if app.board_done(self.board):
                    self.step = "erase"
                else:
                    app.refuse("no_result", self.board)
            elif key == "2":
                self.step = "notplayed"
            elif key == "3":
                self.step = "ns"
            elif key == "BACK":
                self.step = "board"
            else:
                app.refuse("director_keys")
        elif step == "erase" or step == "notplayed":
            if key == "OK":
                self._save(step, "erased" if step == "erase" else "notplayed_saved")
            elif key == "BACK":
                self.step = "action"
            else:
                app.refuse("confirm_keys")
        elif key in _ADJUSTMENTS:
            if step == "ns":
                self.ns_adjustment = _ADJUSTMENTS[key]
                self.step = "ew"
            else:
                self._save("adjusted", "adjusted_saved", _ADJUSTMENTS[key])
        elif key == "BACK":
            self.step = "action" if step == "ns" else "ns"
        else:
            app.refuse("adjust_keys")

    def _number(self, key: str) -> None:
        app = self.app
        if key.isdigit():
            if len(self.typed) < _PIN_DIGITS:
                self.typed += key
        elif key == "BACK":
            if self.typed:
                self.typed = self.typed[:-1]
            elif self.step == "board":
                self.step = "pin"
            else:
                app.close_menu()
        elif key == "OK":
            typed = self.typed
            self.typed = ""
            if self.step == "pin":
                if typed == str(app.settings["pin"]):
                    self.step = "board"
                else:
                    app.refuse("wrong_pin")
            elif app.plan is None:
                app.refuse("no_round")
            else:
                board = int(typed) if typed else self._default_board()
                if board in app.plan["boards"]:
                    self.board = board
                    self.step = "action"
                else:
                    app.refuse("board_not_in_round", board)
        else:
            app.refuse("pin_keys" if self.step == "pin" else "dir_board_keys")

    def _default_board(self) -> int:
        entry = self.app.entry
        if entry is not None:
            return entry.board
        return self.app.plan["boards"][-1]

    def _save(self, kind: str, done: str, ew_adjustment: str = "") -> None:
        app = self.app
        record = app.new_result(self.board, kind)
        if kind == "adjusted":
            record["ns_adj"] = self.ns_adjustment
            record["ew_adj"] = ew_adjustment
        if app.save_result(record):
            app.leave_menu()
            app.next_board()
            app.status = text(done, self.board, self.ns_adjustment, ew_adjustment) if ew_adjustment else \
                text(done, self.board)

    def draw(self, display) -> None:
        header(display, text("director_head"))
        step = self.step
        if step == "pin":
            display.text(0, 2, text("pin_prompt", "*" * len(self.typed) + "_"))
            display.text(0, 6, text("back_return"))
        elif step == "board":
            display.text(0, 2, text("dir_board", self.typed + "_"))
            display.text(0, 6, text("dir_board_hint"))
        else:
            display.text(0, 1, text("dir_board", str(self.board)))
            if step == "action":
                if self.app.board_done(self.board):  # nothing to erase on a board without a result
                    display.text(0, 2, text("dir_erase"))
                display.text(0, 3, text("dir_notplayed"))
                display.text(0, 4, text("dir_adjusted"))
            elif step == "erase" or step == "notplayed":
                display.text(0, 3, text("confirm_" + step))
                display.text(0, 5, text("confirm_keys"))
            else:
                display.text(0, 2, text("adj_side", text("side_NS"), self.ns_adjustment or "_"))
                if step == "ew":
                    display.text(0, 3, text("adj_side", text("side_EW"), "_"))
                display.text(0, 5, text("adj_hint"))
