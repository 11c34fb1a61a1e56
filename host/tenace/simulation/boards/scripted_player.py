"""Scripted players at one simulated table: they read the terminal's screen state and key what a table would.

The result of each board is a pure function of (seed, table, board), so a session replayed with any
faults on the radio, any host crash or terminal reboot, gives the same results and the same ranking.
Runs under the MicroPython unix port (the simulator's terminal processes) and CPython.
"""

_LEVELS = (1, 2, 2, 3, 3, 3, 4, 4, 4, 5, 6, 7)
_STRAINS = ("C", "D", "H", "S", "NT")
_SEATS = "NESW"
_RANKS = "AKQJT98765432"
_SUITS = "CDHS"
_OVER = (-3, -2, -1, -1, 0, 0, 0, 0, 0, 1, 1, 1, 2)  # tricks over the contract, roughly as at a club


class Draws:
    """A small xorshift generator: the same numbers on MicroPython and CPython (no `random` differences)."""

    def __init__(self, *seeds: int) -> None:
        x = 0x9E3779B9
        for s in seeds:
            x = ((x ^ (s & 0xFFFFFFFF)) * 0x01000193) & 0xFFFFFFFF
        self.x = x or 1
        for _ in range(4):
            self.next()

    def next(self) -> int:
        x = self.x
        x ^= (x << 13) & 0xFFFFFFFF
        x ^= x >> 17
        x ^= (x << 5) & 0xFFFFFFFF
        self.x = x
        return x

    def pick(self, options):
        return options[self.next() % len(options)]


def board_result(seed: int, table: int, board: int) -> tuple:
    """(level, strain, doubling, declarer, lead, tricks) for a board at a table; level 0 is passed out."""
    d = Draws(seed, table, board)
    if d.next() % 25 == 0:
        return (0, 0, 0, "", "", 0)
    level = d.pick(_LEVELS)
    strain = d.next() % 5
    doubling = d.pick((0, 0, 0, 0, 0, 0, 0, 0, 1, 1, 2))
    declarer = d.pick(_SEATS)
    lead = d.pick(_RANKS) + d.pick(_SUITS)
    tricks = min(13, max(level + 6 - 9, level + 6 + d.pick(_OVER)))
    return (level, strain, doubling, declarer, lead, tricks)


def lead_from(deal: str, declarer: str, pick: int) -> str:
    """A card the opening leader (declarer's left-hand opponent) holds in a PBN deal, as rank and suit ("KH")."""
    hand = deal[2:].split()[(_SEATS.find(declarer) + 1) % 4]
    cards = []
    suits = hand.split(".")
    for i in range(4):
        for rank in suits[i]:
            cards.append(rank + "SHDC"[i])
    return cards[pick % len(cards)]


def result_keys(result: tuple, lead: bool, deal=None) -> list:
    """The keys that enter a result on the contract screen, the opponents' ACCEPT last. With the board's deal
    (the terminal checks the lead) the lead is a card the leader holds."""
    level, strain, doubling, declarer, card, tricks = result
    if not level:
        return ["PASS", "OK"]
    out = [str(level), _STRAINS[strain]] + ["X"] * doubling + [declarer]
    if lead:
        if deal:
            card = lead_from(deal, declarer, _RANKS.find(card[0]) * 4 + _SUITS.find(card[1]))
        out += [card[0], card[1]]
    over = tricks - level - 6
    out += ["="] if over == 0 else (["+", str(over)] if over > 0 else ["-", str(-over)])
    out.append("OK")
    return out


def _moving(app) -> bool:
    """The round clock says "move" (its code is the terminal's, loaded once the host sends a clock)."""
    from tenace_terminal import round_clock

    return round_clock.minutes(app) <= 0


class Player:
    """Keys for one terminal's app: sign-in (table, pairing code), each round's boards, the round ends."""

    def __init__(self, app, keypad, table: int, code: str, seed: int, section: str = "A", caller: bool = False) -> None:
        self.app = app
        self.caller = caller  # calls the director once, at the start of its second round (MENU 5)
        self.keypad = keypad
        self.table = table
        self.section = section
        self.code = code
        self.seed = seed
        self.keys = 0

    def act(self) -> bool:
        """Push the keys for what the screen asks now; False when there is nothing to key."""
        if self.keypad.queue:
            return False
        app = self.app
        name = app.screen_name
        keys = None
        if name == "startup" or name == "pairing":
            if not app.signing_in() and app.signin is None:
                # The pairing screen follows the table's OK when the link has no key; it comes back
                # after a sign-in that went unanswered (a wrong code, or a host too busy to answer).
                keys = [] if name == "pairing" else self._section_keys() + [c for c in str(self.table)] + ["OK"]
                if name == "pairing" or getattr(app.link, "needs_code", False):
                    keys += [c for c in self.code] + ["OK"]
        elif name == "round" and self.caller and app.plan is not None and app.plan["round"] >= 2:
            self.caller = False
            keys = ["MENU", "5"]
        elif name == "round" or name == "traveller" or name == "call":  # (the call made: back to the round)
            keys = ["OK"]
        elif name == "round_end":
            # They read where to move first, and move when the round clock, if one runs, says so.
            if not app.waiting_round and not app.keys_paused() and (app.director is None or _moving(app)):
                keys = ["OK"]
        elif name == "contract":
            entry = app.entry
            if entry is not None and not entry.level and not entry.passed:
                result = board_result(self.seed, self.table, entry.board)
                keys = result_keys(result, app.settings["lead"] != "off", self._deal(entry.board))
        elif name == "summary":
            keys = ["OK"]  # a result keyed before a reboot, not yet accepted
        if not keys:
            return False
        self.keys += len(keys)
        self.keypad.push(*keys)
        return True

    def _section_keys(self) -> list:
        """UP until the start-up screen shows the table's section (it starts at the last one signed in to)."""
        shown = getattr(self.app.screen, "section", "A")
        return ["UP"] * ((ord(self.section) - ord(shown)) % 26)

    def _deal(self, board: int):
        """The board's deal as the host sent it with the round plan, or None."""
        plan = self.app.plan or {}
        deals = plan.get("deals") or ()
        boards = plan.get("boards") or ()
        for i in range(min(len(deals), len(boards))):
            if boards[i] == board:
                return deals[i]
        return None

    def finished(self) -> bool:
        """The session is over at this table and the host has every result."""
        app = self.app
        return app.session_over and not app.pending
