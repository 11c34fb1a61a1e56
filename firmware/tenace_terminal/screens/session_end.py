"""End of session: a short summary (boards entered, results still waiting for the host)."""

from tenace_terminal.catalogue import text
from tenace_terminal.screens import Screen as BaseScreen
from tenace_terminal.screens import header


class Screen(BaseScreen):
    def __init__(self, app) -> None:
        super().__init__(app)
        app.pause_keys()  # an OK meant for the round's end must not start a new sign-in

    def key(self, key: str) -> None:
        if key == "OK":
            self.app.go("startup")  # a new session starts with a new sign-in
        else:
            self.app.refuse("session_keys")

    def draw(self, display) -> None:
        app = self.app
        header(display, text("session_over"))
        display.text(0, 2, text("section_table", app.section, app.table))
        display.text(0, 3, text("boards_entered", app.boards_entered))
        if app.pending:
            display.text(0, 4, text("unsent", len(app.pending)))
        else:
            display.text(0, 4, text("all_sent"))
        display.text(0, 5, text("thanks"))
        display.text(0, 6, text("ok_new_session"))
