"""A board's outcome as the wire carries it, in a table's RESULT and in a traveller's line: kinds, fields, rule.

26 bits, most significant first: kind 2 | level 3 (0-7) | strain 3 (0-4: C D H S NT) | doubling 2 (0 - X XX)
| declarer 2 (0-3: N E S W) | tricks 4 (declarer's total, 0-13) | ns_adjust 2 | ew_adjust 2 (0, or 1-3:
A- A A+) | lead 6 (0: none, 1-52: card_code). Kinds: PLAYED (a contract, level 1-7), PASSED_OUT, ADJUSTED
(an artificial adjusted score per side, Law 12C2, non-balancing allowed: e.g. NS A+, EW A-), NOT_PLAYED
(the director's "not played"). Fields that a kind does not use must be 0, so an outcome has a single encoding.
Declared here once; table_messages.py and director_messages.py both build on it.
"""

from micropython import const

from tenace_wire.fields import Message, malformed

PLAYED = const(0)
PASSED_OUT = const(1)
ADJUSTED = const(2)
NOT_PLAYED = const(3)
KIND_NAMES = ("played", "passed out", "adjusted", "not played")

AVERAGE_MINUS = const(1)  # 40% in pairs
AVERAGE = const(2)        # 50%
AVERAGE_PLUS = const(3)   # 60%

OUTCOME = ("kind", "level", "strain", "doubling", "declarer", "tricks", "ns_adjust", "ew_adjust", "lead")
OUTCOME_SPEC = (2, 0, 3, 3, 0, 7, 3, 0, 4, 2, 0, 2, 2, 0, 3, 4, 0, 13, 2, 0, 3, 2, 0, 3, 6, 0, 52)


def card_code(suit: int, rank: int) -> int:
    """A card as 1-52: suit 0-3 (clubs, diamonds, hearts, spades), rank 0-12 (two to ace); 0 is no card."""
    if not 0 <= suit <= 3 or not 0 <= rank <= 12:
        raise ValueError("suit 0-3 and rank 0-12, not %r %r" % (suit, rank))
    return 1 + suit * 13 + rank


class Outcome(Message):
    """The base of a message that carries an outcome among its FIELDS (Result, TravellerLine): its rule.

    NS and EW pair numbers may be equal: a Mitchell numbers its NS and EW pairs apart (NS 1 meets EW 1).
    """

    kind: int
    level: int
    strain: int
    doubling: int
    declarer: int
    tricks: int
    ns_adjust: int
    ew_adjust: int
    lead: int

    def check(self) -> None:
        """An outcome whose kind decides which fields are used (the others must be 0)."""
        kind = self.kind
        unused = (self.level == 0 and self.strain == 0 and self.doubling == 0 and self.declarer == 0
                  and self.tricks == 0 and self.lead == 0)
        if kind == PLAYED:
            bad = self.level == 0 or self.ns_adjust or self.ew_adjust
        elif kind == ADJUSTED:
            bad = not unused or not self.ns_adjust or not self.ew_adjust
        else:
            bad = not unused or self.ns_adjust or self.ew_adjust
        if bad:
            raise malformed("fields do not fit a board " + KIND_NAMES[kind])
