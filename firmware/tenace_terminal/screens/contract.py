"""Contract screen: level, strain, X/XX and declarer for the preselected board, or PASS for passed out.

It opens ready for the next unplayed board, so the first key of a result is its level. The
declarer's key completes the contract and moves on by itself (to the lead or the result).
"""

from micropython import const

from tenace_terminal.catalogue import text
from tenace_terminal.screens import Screen as BaseScreen
from tenace_terminal.screens import board_big, table_pairs

# Key names (tenace_terminal.keypad_layout), as tuples so that "in" never matches part of a longer name.
_LEVEL_KEYS = const(("1", "2", "3", "4", "5", "6", "7"))
_STRAIN_KEYS = const(("C", "D", "H", "S", "NT"))  # in strain order: the index is the contract's strain
_SEAT_KEYS = const(("N", "E", "S", "W"))  # South shares the spade key: a strain is keyed first, so "S" then is South


class Screen(BaseScreen):
    def key(self, key: str) -> None:
        app = self.app
        entry = app.entry
        if entry.strain < 0:
            self._before_strain(key)
        elif key in _SEAT_KEYS:  # after the strain, S is South
            app.go("result" if app.settings["lead"] == "off" else "lead")
            entry.declarer = key
        elif key == "X":
            entry.doubling = (entry.doubling + 1) % 3
        elif key == "BACK":
            if entry.doubling:
                entry.doubling -= 1
            else:
                entry.strain = -1
        elif key in _STRAIN_KEYS:
            app.refuse("strain_set")
        elif key.isdigit():
            app.refuse("level_set")
        elif key == "OK":
            app.refuse("declarer_missing")
        elif key == "PASS":
            app.refuse("pass_clear")
        else:
            app.refuse("declarer_missing")

    def _before_strain(self, key: str) -> None:
        app = self.app
        entry = app.entry
        if key in _LEVEL_KEYS:
            entry.level = int(key)  # a second level key replaces the first
        elif key in _STRAIN_KEYS:
            if entry.level:
                entry.strain = _STRAIN_KEYS.index(key)
            else:
                app.refuse("level_first")
        elif key.isdigit():
            app.refuse("level_range")
        elif key == "PASS":
            if entry.level:
                app.refuse("pass_clear")
            else:
                app.go("summary")
                entry.passed = True
        elif key == "BACK":
            if entry.level:
                entry.level = 0
            else:
                app.go("board")
        elif key == "UP" or key == "DOWN":
            if entry.level:
                app.refuse("clear_first")
            else:
                app.go("board")
        elif key in _SEAT_KEYS or key == "X":
            app.refuse("strain_first" if entry.level else "level_first")
        elif key == "OK":
            app.refuse("strain_first" if entry.level else "contract_empty")
        else:
            BaseScreen.key(self, key)

    def draw(self, display) -> None:
        app = self.app
        entry = app.entry
        plan = app.plan
        board_big(display, entry.board)  # rows 0 and 1
        display.text(0, 2, table_pairs(plan))
        # The contract in large type after its label ("Contract 4♠X": 4♠X twice the size, rows 3 and 4), in
        # normal type where the label leaves no room for the longest, "7NTXX_".
        label = text("contract", "")
        keyed = entry.contract_text() + ("" if entry.strain >= 0 else "_")
        if len(label) + 12 <= display.cols:
            display.text(0, 3, label)
            display.big(len(label), 3, keyed)
        else:
            display.text(0, 3, label + keyed)
        if entry.strain >= 0:
            display.text(0, 5, text("declarer", "_"))
            display.text(0, 6, text("declarer_hint"))
        elif entry.level:
            display.text(0, 6, text("strain_hint"))
        else:
            display.text(0, 5, text("board_other"))  # (BACK too): a result keyed on the wrong board is easy else
            display.text(0, 6, text("contract_hint"))
            display.text(0, 7, text("board_hint"))  # (under the status line when there is one: said again by BACK)
