"""Contracts: level, strain and doubling, and their one canonical (PBN) text form ("4SX", "3NT", "Pass").

What people type and files hold in other spellings is read by tenace_rules.notation (host side).
"""

from micropython import const

# Strains in rank order; the index is what scoring and the wire use.
STRAINS = "CDHSN"
CLUBS = 0
DIAMONDS = 1
HEARTS = 2
SPADES = 3
NOTRUMP = 4

# PBN spellings of the strains; "N" is written "NT" in a contract.
_STRAIN_TEXT = const(("C", "D", "H", "S", "NT"))
# Suit symbols for displays and reports.
STRAIN_SYMBOLS = ("\u2663", "\u2666", "\u2665", "\u2660", "NT")

UNDOUBLED = 0
DOUBLED = 1
REDOUBLED = 2
_DOUBLING_TEXT = const(("", "X", "XX"))

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


def from_text(text: str) -> Contract:
    """The contract whose canonical text (Contract.text()) is `text`; ValueError for any other string."""
    if text == "Pass":
        return PASSED_OUT
    level = ord(text[0]) - 48 if text else 0
    if 1 <= level <= 7:
        rest = text[1:]
        for strain in range(5):
            name = _STRAIN_TEXT[strain]
            if rest.startswith(name) and rest[len(name):] in _DOUBLING_TEXT:
                return Contract(level, strain, _DOUBLING_TEXT.index(rest[len(name):]))
    raise ValueError("not a contract in canonical form (4SX, 3NT, Pass): %r" % (text,))
