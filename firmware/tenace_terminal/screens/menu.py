"""The player's menu (MENU key): the language, the director's menu behind a PIN, the ranking so far, the deal of a
board played here when the terminal holds its hand record, and calling the director (MENU then 5)."""

from tenace_terminal.catalogue import text
from tenace_terminal.screens import Screen as BaseScreen
from tenace_terminal.screens import dealt_boards, header


class Screen(BaseScreen):
    menu_allowed = False

    def key(self, key: str) -> None:
        app = self.app
        if key == "1":
            app.go("language")
        elif key == "2":
            app.go("director")
        elif key == "3":
            app.go("ranking")
        elif key == "4" and dealt_boards(app):
            app.go("deal")
        elif key == "5":
            app.go("call")  # (which goes back, as the menu does, to the screen the menu was opened on)
        elif key == "BACK" or key == "MENU":
            app.close_menu()
        else:
            app.refuse("menu_keys")

    def draw(self, display) -> None:
        header(display, text("menu_head"))
        display.text(0, 1, text("menu_language"))
        display.text(0, 2, text("menu_director"))
        display.text(0, 3, text("menu_ranking"))
        if dealt_boards(self.app):
            display.text(0, 4, text("menu_deal"))
        display.text(0, 5, text("menu_call"))
        display.text(0, 6, text("back_return"))
