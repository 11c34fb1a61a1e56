"""Summary screen: contract, declarer, result and the Law 77 score; declarer's opponents accept it.

OK (ACCEPT) journals the result and only then says it is saved; BACK rejects it and steps back
to the result (or, for a passed-out board, to the contract) to correct it; a seat key (N E S W) changes the
declarer at once, the lead and result kept (four BACKs and five keys before).
"""

from micropython import const

from tenace_rules.board import vulnerability
from tenace_terminal.app import forget
from tenace_terminal.catalogue import text
from tenace_terminal.screens import Screen as BaseScreen
from tenace_terminal.screens import board_big, seat_name

_SEAT_KEYS = const(("N", "E", "S", "W"))  # a declarer's key changes the declarer (S is South here)


class Screen(BaseScreen):
    def __init__(self, app) -> None:
        super().__init__(app)
        self.saved = False  # journaled: OK again only moves on, it never saves a second time
        self.score = 0
        self._score()

    def _score(self) -> None:
        """Law 77 for North-South. tenace_rules.score is loaded for it and let go at once: it is not in RAM
        while the result is journaled and sent, the busiest moment of a board."""
        entry = self.app.entry
        contract = entry.contract()
        if contract.level:
            from tenace_rules.score import ns_score

            self.score = ns_score(contract, entry.declarer, vulnerability(entry.board), entry.tricks)
            forget("tenace_rules.score")

    def key(self, key: str) -> None:
        app = self.app
        entry = app.entry
        if key == "OK":
            if self.saved:
                app.next_board()  # (the next screen could not be shown at the first OK)
            else:
                self._accept()
        elif self.saved:
            app.refuse("saved", entry.board)
        elif key == "BACK":
            if entry.passed:
                app.go("contract")
                entry.passed = False
            else:
                app.go("result")
                entry.tricks = -1
        elif key in _SEAT_KEYS and not entry.passed:
            # Another declarer, with one key: its code (in the lead screen's module: the lead is checked again)
            # is loaded for it and let go at once, as the score's.
            from tenace_terminal.screens.lead import new_declarer

            new_declarer(app, key)
            del new_declarer
            forget("tenace_terminal.screens.lead")  # loaded after this screen was made: not let go with it
            self._score()
        else:
            app.refuse("summary_keys" if entry.passed else "summary_seat_keys")

    def _accept(self) -> None:
        """The opponents accepted: journal the result, send it, and only then say it is saved."""
        app = self.app
        entry = app.entry
        contract = entry.contract()
        record = app.new_result(entry.board, "played" if contract.level else "passed_out")
        record["contract"] = contract.text()
        if contract.level:
            record["declarer"] = entry.declarer
            record["tricks"] = entry.tricks
            if entry.lead_rank:
                record["lead"] = entry.lead_suit + entry.lead_rank
            record["score"] = self.score
        else:
            record["score"] = 0
        if not app.save_result(record):
            return  # the bottom line says it was not saved; OK tries again
        self.saved = True
        app.status = text("saved", record["board"])
        if app.settings["traveller"]:
            app.go("traveller", record["board"])
            app.entry = None
        else:
            app.next_board()

    def draw(self, display) -> None:
        entry = self.app.entry
        if entry.passed:
            board_big(display, entry.board)  # rows 0 and 1
            display.text(0, 2, text("passed_out"))
            display.big(0, 4, text("score_ns", "0"))
            display.text(0, 6, text("accept_by", text("side_NS") + "/" + text("side_EW")))  # either side
        else:
            contract = entry.contract()
            board_big(display, entry.board, entry)  # rows 0 and 1, "4♠X by N" beside the number
            over = entry.tricks - contract.level - 6
            display.text(0, 2, text("result_line_1" if entry.tricks == 1 else "result_line",
                                    "%+d" % over if over else "=", entry.tricks))
            if entry.lead_kept:  # the opponents accept it knowing the hand record says otherwise
                display.text(0, 3, text("lead_kept", entry.lead_card(), seat_name(entry.leader())))
            elif entry.lead_rank:
                display.text(0, 3, text("lead_card", entry.lead_card()))
            score = self.score
            defenders = "EW" if entry.declarer in "NS" else "NS"
            display.big(0, 4, text("score_ns", "%+d" % score if score else "0"))  # what the opponents accept: large
            display.text(0, 6, text("accept_by", text("side_" + defenders)))
        display.text(0, 7, text("reject_hint"))  # (under the status line when there is one)
