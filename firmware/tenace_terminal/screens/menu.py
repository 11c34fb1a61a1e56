"""The player's menu (MENU key): the language, the director's menu behind a PIN, the ranking so far."""

from tenace_terminal.messages import text
from tenace_terminal.screens import Screen as BaseScreen
from tenace_terminal.screens import header


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
        elif key == "BACK" or key == "MENU":
            app.close_menu()
        else:
            app.refuse("menu_keys")

    def draw(self, display) -> None:
        header(display, text("menu_head"))
        display.text(0, 2, text("menu_language"))
        display.text(0, 3, text("menu_director"))
        display.text(0, 4, text("menu_ranking"))
        display.text(0, 6, text("back_return"))
