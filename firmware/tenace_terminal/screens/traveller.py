"""Traveller screen: after a result is accepted, the board's results so far and the pair's percentage; 4 shows
the deal when the terminal holds it (screens/deal.py)."""

from micropython import const

from tenace_rules.contract import from_text
from tenace_terminal.catalogue import text
from tenace_terminal.screens import Screen as BaseScreen
from tenace_terminal.screens import dealt_boards, header

_FIRST_ROW = const(1)
_LINES = const(4)  # rows 1-4 list results, row 5 the percentages


def percent_text(value) -> str:
    s = "%.1f" % value
    return s[:-2] if s.endswith(".0") else s


def traveller_line(line) -> str:
    """One result of a traveller, [ns, ew, contract, declarer, result, ns score], in 21 columns."""
    ns, ew, contract, declarer, result, score = line
    try:
        contract = from_text(contract).symbol_text()
    except ValueError:
        pass  # shown as the host wrote it
    # Padded by hand: MicroPython's %-5s counts bytes, and a suit symbol is three of them in UTF-8.
    return "%2s-%-2s %s%1s%3s%6s" % (ns, ew, contract + " " * (5 - len(contract)), declarer or "", result or "",
                                     score)


class Screen(BaseScreen):
    def __init__(self, app, board: int) -> None:
        super().__init__(app)
        self.board = board
        self.top = 0

    def _lines(self):
        traveller = self.app.traveller
        if traveller is None or traveller.get("board") != self.board:
            return None
        return traveller.get("lines") or []

    def key(self, key: str) -> None:
        app = self.app
        lines = self._lines()
        if key == "OK":
            app.next_board()
        elif key == "4" and self.board in dealt_boards(app):
            app.menu_return = ("traveller", (self.board,))  # the deal's OK or BACK comes back here
            app.go("deal", self.board)
        elif (key == "UP" or key == "DOWN") and lines is not None:
            top = self.top + (1 if key == "DOWN" else -1)
            if 0 <= top <= len(lines) - _LINES:
                self.top = top
        else:
            app.refuse("next_board_keys")

    def draw(self, display) -> None:
        header(display, text("traveller_head", self.board))
        lines = self._lines()
        if lines is None:
            display.text(0, 2, text("traveller_wait"))
        else:
            for i in range(min(_LINES, len(lines) - self.top)):
                display.text(0, _FIRST_ROW + i, traveller_line(lines[self.top + i]))
            pct = self.app.traveller.get("percentage")
            if pct is not None:
                display.text(0, 5, text("pct", percent_text(pct), percent_text(100 - pct)))
        display.text(0, 6, text("next_deal_hint" if self.board in dealt_boards(self.app) else "next_board_hint"))
