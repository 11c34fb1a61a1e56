"""Contract screen: level, strain, X/XX and declarer for the preselected board, or PASS for passed out.

It opens ready for the next unplayed board, so the first key of a result is its level. The
declarer's key completes the contract and moves on by itself (to the lead or the result).
"""

from tenace_terminal import keys
from tenace_terminal.messages import text
from tenace_terminal.screens import Screen as BaseScreen
from tenace_terminal.screens import board_header


class Screen(BaseScreen):
    def key(self, key: str) -> None:
        app = self.app
        entry = app.entry
        if entry.strain < 0:
            self._before_strain(key)
        elif key in keys.SEATS:  # after the strain, S is South
            app.go("result" if app.settings["lead"] == "off" else "lead")
            entry.declarer = key
        elif key == keys.DOUBLE:
            entry.doubling = (entry.doubling + 1) % 3
        elif key == keys.BACK:
            if entry.doubling:
                entry.doubling -= 1
            else:
                entry.strain = -1
        elif key in keys.STRAINS:
            app.refuse("strain_set")
        elif key in keys.DIGITS:
            app.refuse("level_set")
        elif key == keys.OK:
            app.refuse("declarer_missing")
        elif key == keys.PASS:
            app.refuse("pass_clear")
        else:
            app.refuse("declarer_missing")

    def _before_strain(self, key: str) -> None:
        app = self.app
        entry = app.entry
        if key in keys.LEVELS:
            entry.level = int(key)  # a second level key replaces the first
        elif key in keys.STRAINS:
            if entry.level:
                entry.strain = keys.STRAINS.index(key)
            else:
                app.refuse("level_first")
        elif key in keys.DIGITS:
            app.refuse("level_range")
        elif key == keys.PASS:
            if entry.level:
                app.refuse("pass_clear")
            else:
                app.go("summary")
                entry.passed = True
        elif key == keys.BACK:
            if entry.level:
                entry.level = 0
            else:
                app.go("board")
        elif key == keys.UP or key == keys.DOWN:
            if entry.level:
                app.refuse("clear_first")
            else:
                app.go("board")
        elif key in keys.SEATS or key == keys.DOUBLE:
            app.refuse("strain_first" if entry.level else "level_first")
        elif key == keys.OK:
            app.refuse("strain_first" if entry.level else "contract_empty")
        else:
            BaseScreen.key(self, key)

    def draw(self, display) -> None:
        app = self.app
        entry = app.entry
        plan = app.plan
        board_header(display, entry.board)
        display.text(0, 1, text("pairs", plan["ns"], plan["ew"]))
        display.text(0, 3, text("contract", entry.contract_text() + ("" if entry.strain >= 0 else "_")))
        if entry.strain >= 0:
            display.text(0, 4, text("declarer", "_"))
            display.text(0, 6, text("declarer_hint"))
        elif entry.level:
            display.text(0, 6, text("strain_hint"))
        else:
            display.text(0, 5, text("contract_hint"))
            display.text(0, 6, text("board_hint"))
