"""Deal screen (4 on the traveller or in the menu): a board played here, its four hands, then double dummy and par.

Only the round's boards with a result at this table, and only when the plan holds their deals ("deals", PBN
from North) and, for the second page, their analyses ("dd": "<20 hex digits> <NS par>", tenace_terminal.
wire_mapping.analysis_text). DOWN and UP go through the pages, board after board; OK or BACK return.
"""

from micropython import const

from tenace_rules.board import dealer, vulnerability
from tenace_terminal.catalogue import text
from tenace_terminal.screens import Screen as BaseScreen
from tenace_terminal.screens import dealt_boards, header, seat_name

_SUITS = const("\u2660\u2665\u2666\u2663")  # a PBN hand's order: spades first
_DECLARERS = const("NSEW")  # partners together, as `tenace results` shows them
_STRAINS = const((4, 3, 2, 1, 0))  # shown NT, spades .. clubs; kept C D H S NT
# Padded by hand: MicroPython's %3s counts bytes, and a suit sign is three of them in UTF-8.
_HEADS = const((" NT", "  \u2660", "  \u2665", "  \u2666", "  \u2663"))


class Screen(BaseScreen):
    menu_allowed = False

    def __init__(self, app, board: int = 0) -> None:
        super().__init__(app)
        self.boards = boards = dealt_boards(app)
        back = app.menu_return
        if not board and back is not None and back[0] == "traveller":
            board = back[1][0]  # the menu opened on a board's traveller: that board
        if board not in boards and boards:
            # The last board accepted here: the result with the highest number.
            board = boards[0]
            for b in boards:
                if app.results[b]["seq"] > app.results[board]["seq"]:
                    board = b
        self.board = board
        self.page = 0  # 0: the hands; 1: double dummy and par

    def _kept(self, name: str, board: int) -> str:
        """The plan's deal ("deals") or analysis ("dd") of `board`; "" when it has none."""
        plan = self.app.plan
        kept = plan.get(name)
        i = plan["boards"].index(board)
        return (kept[i] or "") if kept and i < len(kept) else ""

    def _turn(self, step: int):
        """(board, page) of the next (1) or previous (-1) page, on to the next or previous board; None at the end."""
        boards = self.boards
        i = boards.index(self.board)
        page = self.page + step
        if page > 1 or (page == 1 and not self._kept("dd", boards[i])):
            i += 1
            page = 0
        elif page < 0:
            i -= 1
            page = 1 if i >= 0 and self._kept("dd", boards[i]) else 0
        return (boards[i], page) if 0 <= i < len(boards) else None

    def key(self, key: str) -> None:
        app = self.app
        if key == "OK" or key == "BACK" or key == "MENU":
            app.close_menu()
        elif (key == "DOWN" or key == "UP") and self.board in self.boards:
            turned = self._turn(1 if key == "DOWN" else -1)
            if turned is not None:
                self.board, self.page = turned
        else:
            app.refuse("deal_keys")

    def draw(self, display) -> None:
        board = self.board
        if board not in self.boards:  # (the menu and the traveller offer it only with a board to show)
            header(display, text("no_deal"))
            display.text(0, 6, text("back_return"))
            return
        if self.page == 0:
            # The board's number, dealer and vulnerability (Law 2) as the header row: this screen is read, not keyed.
            header(display, text("board_head", board, seat_name(dealer(board)), text("vul_" + vulnerability(board))))
            hands = self._kept("deals", board)[2:].split()  # from North, as deal_text writes it
            for seat in range(4):
                # Suit by suit, a space between two: 13 cards, 4 signs and 3 spaces are 20 columns, and the seat
                # takes the 21st, so it stands right against the spades ("N♠AK7 ♥Q2 ♦T98 ♣J654").
                suits = hands[seat].split(".")
                line = seat_name("NESW"[seat])
                for s in range(4):
                    line += (" " if s else "") + _SUITS[s] + suits[s]  # a suit sign alone: a void
                display.text(0, 1 + seat, line)
        else:
            dd = self._kept("dd", board)
            header(display, text("dd_head", board))
            # Cell by cell, each 3 columns: in Hebrew the display lays each one out from the right edge, so the
            # table is mirrored whole rather than its lines reordered by the bidi rules.
            for k in range(5):
                display.text(1 + 3 * k, 1, _HEADS[k])
            for row in range(4):
                declarer = "NESW".find(_DECLARERS[row])
                display.text(0, 2 + row, seat_name(_DECLARERS[row]))
                for k in range(5):
                    tricks = int(dd[5 * declarer + _STRAINS[k]], 16)
                    display.text(1 + 3 * k, 2 + row, "%3s" % (tricks - 6 if tricks > 6 else "-"))  # 9 tricks make 3
            par = int(dd[21:])
            display.text(0, 6, text("par", text("side_NS" if par >= 0 else "side_EW"), "%+d" % abs(par) if par
                                    else "0"))
        # The hint under the hands, under the par on the second page.
        display.text(0, 7 if self.page else 6, text("deal_more" if self._turn(1) else "back_return"))
