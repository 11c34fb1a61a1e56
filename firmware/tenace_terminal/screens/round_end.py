"""End of round: where each pair and the boards go next, then the next round (or the session's end)."""

from tenace_terminal.catalogue import text
from tenace_terminal.screens import Screen as BaseScreen
from tenace_terminal.screens import header


def _move(display, row: int, side_name: str, pair: int, table: int, side: str) -> None:
    """A pair's move, "EW 3 > table 4 EW", its table number in large type on rows `row` and `row` + 1 (all of it in
    normal type where that would not fit)."""
    label = text("move_to", side_name, pair)
    number = str(table)
    col = len(label) + 1
    if col + 2 * len(number) + 1 + len(side) > display.cols:
        display.text(0, row, text("move_pair", side_name, pair, table, side))
    else:
        display.text(0, row, label)
        display.big(col, row, number)
        display.text(col + 2 * len(number) + 1, row, side)


class Screen(BaseScreen):
    def __init__(self, app) -> None:
        super().__init__(app)
        app.pause_keys()  # where everyone moves: an OK meant for the last board must not skip it

    def key(self, key: str) -> None:
        app = self.app
        if key == "OK":
            if app.waiting_round:
                app.refuse("wait_host")
            else:
                app.finish_round()
        else:
            app.refuse("press_ok")

    def draw(self, display) -> None:
        app = self.app
        plan = app.plan
        header(display, text("round_over", plan["round"]))
        moves = plan.get("next") or {}
        row = 1
        players = plan.get("players")
        if players:  # an individual: each player to a table and seat of their own (rows 1-4, boards on 5)
            seats = text("seats")
            going = plan.get("player_next") or []
            for i in range(len(players)):
                if i < len(going) and going[i][0]:
                    display.text(0, row, text("move_pair", seats[i], players[i], going[i][0], seats[going[i][1]]))
                    row += 1
        for side in ("ns", "ew") if not players else ():
            move = moves.get(side)
            if move and plan[side]:  # (an absent pair goes nowhere)
                pair = plan[side]
                side_name = text("side_" + side.upper())
                if move[0] == app.table and move[1] == side:  # a stationary pair
                    display.text(0, row, text("move_stay", side_name, pair))
                elif move[0]:
                    _move(display, row, side_name, pair, move[0], text("side_" + move[1].upper()))
                else:
                    display.text(0, row, text("move_sit_out", side_name, pair))
                row += 2  # each pair on rows of its own: a table number in large type takes two
        if moves.get("boards"):
            display.text(0, row, text("move_boards", moves["boards"]))
        if app.waiting_round:
            display.text(0, 6, text("waiting_round", plan["round"] + 1))
        elif plan.get("last"):
            display.text(0, 6, text("ok_end"))
        else:
            display.text(0, 6, text("ok_next_round"))
