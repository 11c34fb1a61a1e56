"""Ranking screen (menu 3): the section's ranking so far, asked of the host, a pair a line as directors name it."""

from micropython import const

from tenace_terminal.catalogue import text
from tenace_terminal.screens import Screen as BaseScreen
from tenace_terminal.screens import header
from tenace_terminal.screens.traveller import percent_text

_MSG_RANKING_REQUEST = const("ranking_request")

_FIRST_ROW = const(1)
_LINES = const(5)  # rows 1-5 list pairs, row 6 the hint


def ranking_line(line) -> str:
    """[rank, pair, score in hundredths] in 21 columns: "  1 NS 3      62.5%"."""
    rank, pair, score = line
    return "%3d %-8s %7s%%" % (rank, pair, percent_text(score / 100))


class Screen(BaseScreen):
    menu_allowed = False

    def __init__(self, app) -> None:
        super().__init__(app)
        self.top = 0
        self._ask()

    def _ask(self) -> None:
        app = self.app
        app.ranking = None
        app.link.send({"type": _MSG_RANKING_REQUEST})

    def key(self, key: str) -> None:
        app = self.app
        ranking = app.ranking
        if key == "BACK" or key == "MENU":
            app.close_menu()
        elif key == "OK":
            self.top = 0
            self._ask()
        elif (key == "UP" or key == "DOWN") and ranking is not None:
            top = self.top + (1 if key == "DOWN" else -1)
            if 0 <= top <= len(ranking["lines"]) - _LINES:
                self.top = top
        else:
            app.refuse("key_unused", key)

    def draw(self, display) -> None:
        header(display, text("ranking_head"))
        ranking = self.app.ranking
        if ranking is None:
            display.text(0, 2, text("traveller_wait"))
        else:
            lines = ranking["lines"]
            for i in range(min(_LINES, len(lines) - self.top)):
                display.text(0, _FIRST_ROW + i, ranking_line(lines[self.top + i]))
        display.text(0, 6, text("ranking_hint"))
