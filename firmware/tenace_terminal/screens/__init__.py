"""The terminal's screens, one module each, imported by App.go when shown; this holds what they share."""

from micropython import const

from tenace_rules.board import dealer, vulnerability
from tenace_terminal.catalogue import text

_MSG_DIRECTOR = const("director")


class Screen:
    """A screen takes keys, draws itself and may react to host messages; the app owns the state."""

    name = ""  # the module name, set by App.go
    args = ()  # what App.go passed after the app, to make the screen again after the menu
    menu_allowed = True  # MENU opens the player's menu from here

    def __init__(self, app) -> None:
        self.app = app

    def key(self, key: str) -> None:
        self.app.refuse("key_unused", key)

    def draw(self, display) -> None:
        pass

    def message(self, message: dict) -> None:
        """A message from the host arrived (after the app has dealt with it). The director's (COMING, CLOCK) go to
        round_clock.py here, whatever the screen: in the app's code they would cost every session's RAM."""
        if message.get("type") == _MSG_DIRECTOR:
            from tenace_terminal import round_clock

            round_clock.message(self.app, message)


def header(display, s: str) -> None:
    """Row 0, inverse across the whole width: what this screen is about."""
    display.text(0, 0, s + " " * (display.cols - len(s)), True)


def seat_name(seat: str) -> str:
    """A seat letter N E S W in the current language's spelling."""
    return text("seats")["NESW".find(seat)]


def table_pairs(plan: dict) -> str:
    """Who plays at the table: "NS 3  EW 5", or an individual's partnerships by their players, "8+1 v 2+4"."""
    players = plan.get("players")
    if players:
        return "%d+%d v %d+%d" % (players[0], players[2], players[1], players[3])
    return text("pairs", plan["ns"], plan["ew"])


def board_big(display, board: int, entry=None) -> None:
    """Rows 0 and 1 of an entry screen: the board's number in large type ("Bd 12": the board confirmed at a glance,
    issue 37); beside it in normal type the dealer (or the entry's contract and declarer) and the vulnerability."""
    s = text("board_big", board)
    display.big(0, 0, s)
    col = 2 * len(s) + 1
    if entry is None:
        top = text("dealer", seat_name(dealer(board)))
    else:
        contract = entry.contract_text()
        seat = seat_name(entry.declarer)
        top = text("by", contract, seat)
        if col + len(top) > display.cols:  # "4♠X by N" where it fits, else "4♠X N"
            top = contract + " " + seat
    display.text(col, 0, top)
    display.text(col, 1, text("vul", text("vul_" + vulnerability(board))))


def dealt_boards(app) -> list:
    """The boards of the round with a result at this table whose deal the terminal holds (the plan's "deals",
    sent when the lead is checked): only those may be shown, never a board still to be played here."""
    plan = app.plan
    if plan is None or not plan.get("deals"):
        return []
    deals = plan["deals"]
    boards = plan["boards"]
    return [boards[i] for i in range(min(len(boards), len(deals))) if deals[i] and app.board_done(boards[i])]
