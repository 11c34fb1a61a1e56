"""Round screen: the round number, the NS and EW pair numbers and the boards to play at this table."""

from tenace_terminal.catalogue import text
from tenace_terminal.screens import Screen as BaseScreen
from tenace_terminal.screens import header


def number_list(numbers) -> str:
    """Board numbers as short text: "1-3", "5 9 13"."""
    if not numbers:
        return ""
    consecutive = True
    for i in range(1, len(numbers)):
        if numbers[i] != numbers[i - 1] + 1:
            consecutive = False
    if consecutive and len(numbers) > 2:
        return "%d-%d" % (numbers[0], numbers[-1])
    return " ".join([str(n) for n in numbers])


class Screen(BaseScreen):
    def key(self, key: str) -> None:
        app = self.app
        if key == "OK":
            if app.sits_out():
                app.next_board()  # nothing to play: the round's end, where everyone goes next
            elif app.settings["players"] != "off":
                app.go("players")
            else:
                app.next_board()
        else:
            app.refuse("press_ok")

    def draw(self, display) -> None:
        app = self.app
        plan = app.plan
        header(display, text("round_head", plan["round"], app.section, app.table))
        players = plan.get("players")
        if players:  # an individual: each player by seat, North and South, then East and West
            seats = text("seats")
            display.text(0, 2, "%s %d  %s %d" % (seats[0], players[0], seats[2], players[2]))
            display.text(0, 3, "%s %d  %s %d" % (seats[1], players[1], seats[3], players[3]))
        else:
            row = 2
            for side in ("ns", "ew"):
                display.text(0, row, text(side + "_pair", plan[side]) if plan[side]
                             else text("absent_pair", text("side_" + side.upper())))
                row += 1
        display.text(0, 4, text("boards", number_list(plan["boards"])))
        done = app.boards_done()
        if done:
            display.text(0, 5, text("boards_done", done, len(plan["boards"])))
        display.text(0, 6, text("sitting_out" if app.sits_out() else "ok_start"))
