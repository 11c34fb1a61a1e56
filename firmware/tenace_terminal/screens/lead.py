"""Lead screen: the opening lead, rank and suit in either order; checked against the hand record if set.

Settings: "on" takes any card; "warn" warns when the hand record does not give the card to the
leader (OK keeps it, BACK corrects it); "force" refuses it until it is corrected.
"""

from micropython import const

from tenace_terminal.catalogue import text
from tenace_terminal.screens import Screen as BaseScreen
from tenace_terminal.screens import board_big, seat_name

_PBN_SUITS = const("SHDC")  # the order of the suits in a PBN hand
# Key names (tenace_terminal.keypad_layout): ranks A K Q J T and 2-9 (T or 0 for the ten), suits.
_RANK_KEYS = const(("A", "K", "Q", "J", "T", "9", "8", "7", "6", "5", "4", "3", "2"))
_SUIT_KEYS = const(("C", "D", "H", "S"))


def holds(deal: str, seat: str, suit: str, rank: str) -> bool:
    """True when, in a PBN deal ("N:AK7.Q2.... ..."), `seat` holds the card."""
    first = "NESW".find(deal[0])
    hands = deal[2:].split()
    hand = hands[("NESW".find(seat) - first) % 4]
    holding = hand.split(".")[_PBN_SUITS.find(suit)]
    return rank in holding


def board_deal(plan: dict, board: int):
    """The PBN deal of `board` that the host sent with the round's plan, or None."""
    deals = plan.get("deals")
    if not deals:
        return None
    i = plan["boards"].index(board)
    return deals[i] if i < len(deals) else None


def new_declarer(app, seat: str) -> None:
    """The summary's seat key: `seat` declares, the lead kept; checked against the hand record for the new
    leader, it is marked (warn) or goes back to the lead screen to be corrected (force)."""
    entry = app.entry
    entry.declarer = seat
    check = app.settings["lead"]
    if not entry.lead_rank or (check != "warn" and check != "force"):
        return
    deal = board_deal(app.plan, entry.board)
    entry.lead_kept = bool(deal) and not holds(deal, entry.leader(), entry.lead_suit, entry.lead_rank)
    if entry.lead_kept and check == "force":
        app.go("lead")  # the result is kept
        entry.lead_kept = False
        app.refuse("lead_must_fix", entry.lead_card(), seat_name(entry.leader()))


class Screen(BaseScreen):
    def __init__(self, app) -> None:
        super().__init__(app)
        self.warned = False

    def key(self, key: str) -> None:
        app = self.app
        entry = app.entry
        if key in _RANK_KEYS or key == "0":
            entry.lead_rank = "T" if key == "0" else key
            entry.lead_last = "rank"
            self._complete()
        elif key in _SUIT_KEYS:
            entry.lead_suit = key
            entry.lead_last = "suit"
            self._complete()
        elif key == "BACK":
            self.warned = False
            entry.lead_kept = False
            if entry.lead_last == "suit":
                entry.lead_suit = ""
            elif entry.lead_last == "rank":
                entry.lead_rank = ""
            else:
                app.go("contract")
                entry.declarer = ""  # back to the contract, without the declarer that completed it
                return
            entry.lead_last = "rank" if entry.lead_rank else ("suit" if entry.lead_suit else "")
        elif key == "OK":
            if self.warned:
                app.go("result")
                entry.lead_kept = True  # the opponents see it marked on the summary they accept
            elif entry.lead_rank and entry.lead_suit:
                self._complete()
            else:
                app.refuse("lead_incomplete")
        elif key == "1":
            app.refuse("lead_ten")
        else:
            BaseScreen.key(self, key)

    def _complete(self) -> None:
        app = self.app
        entry = app.entry
        self.warned = False
        entry.lead_kept = False
        if not (entry.lead_rank and entry.lead_suit):
            return
        check = app.settings["lead"]
        deal = board_deal(app.plan, entry.board) if check in ("warn", "force") else None
        if deal and not holds(deal, entry.leader(), entry.lead_suit, entry.lead_rank):
            if check == "force":
                app.refuse("lead_must_fix", entry.lead_card(), seat_name(entry.leader()))
            else:
                self.warned = True
                app.refuse("lead_not_in_hand", entry.lead_card(), seat_name(entry.leader()))
            return
        app.go("result")

    def draw(self, display) -> None:
        entry = self.app.entry
        board_big(display, entry.board, entry)  # rows 0 and 1
        display.text(0, 2, text("lead_by", seat_name(entry.leader())))
        display.text(0, 3, text("lead_card", entry.lead_card() + "_"))
        if self.warned:
            display.text(0, 5, text("lead_warn_hint"))
        else:
            display.text(0, 6, text("lead_hint"))
