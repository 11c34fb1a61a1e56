"""Language menu: the players switch the terminal's language; the choice is journaled and survives a reboot."""

from micropython import const

from tenace_terminal import catalogue
from tenace_terminal.catalogue import text
from tenace_terminal.screens import Screen as BaseScreen
from tenace_terminal.screens import header

_MSG_LANG = const("lang")

# Language codes in menu order, and each language's name in itself.
_CODES = const(("en", "sr", "sk", "lv", "he"))
_NAMES = const(("English", "Srpski", "Sloven\u010dina", "Latvie\u0161u", "\u05e2\u05d1\u05e8\u05d9\u05ea"))


class Screen(BaseScreen):
    menu_allowed = False

    def __init__(self, app) -> None:
        super().__init__(app)
        current = catalogue.language()
        self.selected = _CODES.index(current) if current in _CODES else 0

    def key(self, key: str) -> None:
        app = self.app
        count = len(_CODES)
        if key.isdigit() and 1 <= int(key) <= count:
            self._choose(int(key) - 1)
        elif key == "UP" or key == "DOWN":
            self.selected = (self.selected + (1 if key == "DOWN" else -1)) % count
        elif key == "OK":
            self._choose(self.selected)
        elif key == "BACK" or key == "MENU":
            app.close_menu()
        else:
            app.refuse("menu_keys")

    def _choose(self, index: int) -> None:
        app = self.app
        code = _CODES[index]
        try:
            catalogue.set_language(code)
        except OSError:  # its catalogue is not in the firmware
            self.selected = index
            app.refuse("lang_missing", _NAMES[index])
            return
        app.display.rtl = catalogue.is_rtl()
        app.record({"type": _MSG_LANG, "code": code})
        app.close_menu()

    def draw(self, display) -> None:
        header(display, text("language_head"))
        for i in range(len(_CODES)):
            display.text(0, 1 + i, "%d %s" % (i + 1, _NAMES[i]), i == self.selected)
