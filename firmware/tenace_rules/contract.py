"""Contracts: level, strain, doubling and declarer, in one canonical (PBN) text form and typed forms."""

from tenace_rules.board import SEATS

# Strains in rank order; the index is what scoring and the wire use.
STRAINS = "CDHSN"
CLUBS = 0
DIAMONDS = 1
HEARTS = 2
SPADES = 3
NOTRUMP = 4

# PBN spellings of the strains; "N" is written "NT" in a contract.
_STRAIN_TEXT = ("C", "D", "H", "S", "NT")
# Suit symbols for displays and reports.
STRAIN_SYMBOLS = ("\u2663", "\u2666", "\u2665", "\u2660", "NT")

UNDOUBLED = 0
DOUBLED = 1
REDOUBLED = 2
_DOUBLING_TEXT = ("", "X", "XX")

_PASS_WORDS = ("PASS", "PASSED", "P", "AP", "ALLPASS", "PASSEDOUT", "PO")
_SYMBOL_STRAINS = {
    "\u2663": CLUBS, "\u2667": CLUBS,
    "\u2666": DIAMONDS, "\u2662": DIAMONDS,
    "\u2665": HEARTS, "\u2661": HEARTS,
    "\u2660": SPADES, "\u2664": SPADES,
}
_SEAT_WORDS = {"NORTH": "N", "EAST": "E", "SOUTH": "S", "WEST": "W"}


class Contract:
    """A bid contract (level 1-7) or a passed-out board (level 0, nothing else set)."""

    def __init__(self, level: int, strain: int = 0, doubling: int = UNDOUBLED) -> None:
        if level == 0:
            strain = 0
            doubling = UNDOUBLED
        elif not 1 <= level <= 7:
            raise ValueError("contract level must be 1 to 7, not %r" % (level,))
        if not 0 <= strain <= 4:
            raise ValueError("strain must be 0 to 4 (C D H S NT), not %r" % (strain,))
        if not 0 <= doubling <= 2:
            raise ValueError("doubling must be 0, 1 (X) or 2 (XX), not %r" % (doubling,))
        self.level = level
        self.strain = strain
        self.doubling = doubling

    @property
    def passed_out(self) -> bool:
        return self.level == 0

    def text(self) -> str:
        """Canonical PBN form: "4SX", "3NT", "7NTXX", or "Pass"."""
        if self.level == 0:
            return "Pass"
        return str(self.level) + _STRAIN_TEXT[self.strain] + _DOUBLING_TEXT[self.doubling]

    def symbol_text(self) -> str:
        """Display form with suit symbols: "4\u2660X", "3NT"."""
        if self.level == 0:
            return "Pass"
        return str(self.level) + STRAIN_SYMBOLS[self.strain] + _DOUBLING_TEXT[self.doubling]

    def __eq__(self, other: object) -> bool:
        return (
            isinstance(other, Contract)
            and self.level == other.level
            and self.strain == other.strain
            and self.doubling == other.doubling
        )

    def __hash__(self) -> int:
        return self.level * 15 + self.strain * 3 + self.doubling

    def __repr__(self) -> str:
        return "Contract(%r)" % self.text()


PASSED_OUT = Contract(0)


def parse_contract(text: str) -> Contract:
    """A contract from what people type or PBN holds: "4SX", "4\u2660x", "4sx", "3nt", "3N", "pass"."""
    if not isinstance(text, str):
        raise ValueError("contract must be text, not %r" % (text,))
    t = text.strip().upper().replace(" ", "")
    if t in _PASS_WORDS:
        return PASSED_OUT
    if not t:
        raise ValueError("contract is empty: give level and strain (4S, 3NT) or PASS")
    level = ord(t[0]) - 48
    if not 1 <= level <= 7 or len(t) < 2:
        raise ValueError("contract %r must start with a level 1 to 7 then a strain" % (text,))
    rest = t[1:]
    strain = _SYMBOL_STRAINS.get(rest[0], -1)
    if strain >= 0:
        rest = rest[1:]
    elif rest.startswith("NT"):
        strain = NOTRUMP
        rest = rest[2:]
    else:
        strain = STRAINS.find(rest[0])
        if strain < 0:
            raise ValueError("contract %r has no strain: use C D H S or NT" % (text,))
        rest = rest[1:]
    if rest == "":
        doubling = UNDOUBLED
    elif rest in ("X", "*", "D", "DBL"):
        doubling = DOUBLED
    elif rest in ("XX", "**", "R", "RDBL"):
        doubling = REDOUBLED
    else:
        raise ValueError("contract %r: after the strain only X or XX may follow" % (text,))
    return Contract(level, strain, doubling)


def parse_declarer(text: str) -> str:
    """A seat letter N, E, S or W from "N", "n", "North"."""
    t = text.strip().upper() if isinstance(text, str) else ""
    t = _SEAT_WORDS.get(t, t)
    if len(t) != 1 or t not in SEATS:
        raise ValueError("declarer must be N, E, S or W, not %r" % (text,))
    return t
