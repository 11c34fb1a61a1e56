"""Board screen: choose another board of the round (number and OK, or UP/DOWN); other boards are refused."""

from micropython import const

from tenace_terminal.app import Entry
from tenace_terminal.catalogue import text
from tenace_terminal.screens import Screen as BaseScreen
from tenace_terminal.screens import header

_MAX_DIGITS = const(3)


class Screen(BaseScreen):
    def __init__(self, app) -> None:
        super().__init__(app)
        boards = app.plan["boards"]
        current = app.entry.board if app.entry is not None else app.next_unplayed()
        self.selected = boards.index(current) if current in boards else 0
        self.typed = ""

    def key(self, key: str) -> None:
        app = self.app
        boards = app.plan["boards"]
        if key.isdigit():
            if len(self.typed) >= _MAX_DIGITS:
                app.refuse("board_digits")
            else:
                self.typed = (self.typed + key).lstrip("0")
        elif key == "UP" or key == "DOWN":
            self.typed = ""
            self.selected = (self.selected + (1 if key == "DOWN" else -1)) % len(boards)
        elif key == "BACK":
            if self.typed:
                self.typed = self.typed[:-1]
            elif app.entry is not None:
                app.go("contract")
            else:
                app.next_board()
        elif key == "OK":
            board = int(self.typed) if self.typed else boards[self.selected]
            self.typed = ""
            if board not in boards:
                app.refuse("board_not_in_round", board)
            elif app.board_done(board):
                app.refuse("board_done", board)
            else:
                app.go("contract")
                app.entry = Entry(board)
        else:
            BaseScreen.key(self, key)

    def draw(self, display) -> None:
        app = self.app
        plan = app.plan
        boards = plan["boards"]
        header(display, text("choose_board", plan["round"]))
        # The round's boards (rows 1-3), a mark on those entered, the selected one in inverse video.
        col = 0
        row = 1
        for i in range(len(boards)):
            cell = "%d%s" % (boards[i], "*" if app.board_done(boards[i]) else "")
            if col + len(cell) > display.cols:
                col = 0
                row += 1
            if row > 3:
                break
            display.text(col, row, cell, i == self.selected and not self.typed)
            col += len(cell) + 1
        # The board OK picks, in large type after its label (rows 4 and 5): the number typed, else the one selected
        # (no "_" after a typed one: drawn large, it would touch the hint below).
        label = text("board_prompt", "")
        display.text(0, 4, label)
        display.big(len(label), 4, self.typed or str(boards[self.selected]))
        display.text(0, 6, text("choose_hint"))
