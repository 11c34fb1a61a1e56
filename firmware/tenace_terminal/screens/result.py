"""Result screen: declarer's tricks as =, +n, -n or the total, as the host's settings allow.

An entry moves on by itself as soon as it is complete and unambiguous: "=", "+1", "-2" and the
totals 0 and 2-9 at once; "1" waits for a second digit (10-13) or OK. Relative results are single
digits, except in relative-only mode, where "-1" on a contract of four or more waits for a
possible second digit (down 10 to 13). Impossible results are refused with the limit.
"""

from tenace_terminal.catalogue import text
from tenace_terminal.screens import Screen as BaseScreen
from tenace_terminal.screens import board_big


class Screen(BaseScreen):
    def __init__(self, app) -> None:
        super().__init__(app)
        self.typed = ""
        self.mode = app.settings["result"]

    def key(self, key: str) -> None:
        # One method per kind of key: a loaded function's code is one piece of heap, and a small heap
        # may have no single piece as large as all of them together.
        app = self.app
        book = app.entry.contract().level + 6
        if key == "=" or key == "+" or key == "-":
            if self.mode == "tricks":
                app.refuse("tricks_only")
            elif key == "=":
                self._done(book)
            else:
                self.typed = key
        elif key.isdigit():
            self._digit(int(key), book)
        elif key == "OK":
            self._ok(book)
        elif key == "BACK":
            self._back()
        else:
            BaseScreen.key(self, key)

    def _digit(self, d: int, book: int) -> None:
        app = self.app
        typed = self.typed
        if typed == "+":
            if book + d > 13:
                app.refuse("result_over", app.entry.contract().symbol_text(), 13 - book)
            else:
                self._done(book + d)
        elif typed == "-":
            if d > book:
                app.refuse("result_under", app.entry.contract().symbol_text(), book)
            elif d == 1 and book >= 10 and self.mode == "relative":
                self.typed = "-1"
            else:
                self._done(book - d)
        elif typed == "-1":
            if 10 + d > book:
                app.refuse("result_under", app.entry.contract().symbol_text(), book)
            else:
                self._done(book - 10 - d)
        elif typed == "1":
            if d > 3:
                app.refuse("tricks_max")
            else:
                self._done(10 + d)
        elif self.mode == "relative":
            app.refuse("relative_only")
        elif d == 1:
            self.typed = "1"
        else:
            self._done(d)

    def _ok(self, book: int) -> None:
        typed = self.typed
        if typed == "1":
            self._done(1)
        elif typed == "-1":
            self._done(book - 1)
        elif typed:
            self.app.refuse("result_digit", typed)
        else:
            self.app.refuse("result_empty")

    def _back(self) -> None:
        app = self.app
        entry = app.entry
        if self.typed:
            self.typed = self.typed[:-1]
        elif app.settings["lead"] != "off":
            # Step back to the lead, without the element keyed last.
            app.go("lead")
            if entry.lead_last == "suit":
                entry.lead_suit = ""
            else:
                entry.lead_rank = ""
            entry.lead_last = "rank" if entry.lead_rank else ("suit" if entry.lead_suit else "")
        else:
            app.go("contract")
            entry.declarer = ""

    def _done(self, tricks: int) -> None:
        self.app.go("summary")
        self.app.entry.tricks = tricks

    def draw(self, display) -> None:
        entry = self.app.entry
        board_big(display, entry.board, entry)  # rows 0 and 1
        if entry.lead_rank:
            display.text(0, 2, text("lead_card", entry.lead_card()))
        display.text(0, 3, text("result", self.typed + "_"))
        display.text(0, 6, text("result_hint_" + self.mode))
