"""Contract and card notation: the canonical card text, and lenient readers of what people and files write
(contracts, cards, seats, vulnerability) into the rules' forms (the canonical contract is Contract.text()).

The host reads what a director types and what PBN files hold with these; on the terminal only the wire
mapping imports it, for the card text.
"""

from tenace_rules.board import SEATS, VUL_BOTH, VUL_EW, VUL_NONE, VUL_NS
from tenace_rules.contract import (
    CLUBS,
    DIAMONDS,
    DOUBLED,
    HEARTS,
    NOTRUMP,
    PASSED_OUT,
    REDOUBLED,
    SPADES,
    STRAINS,
    UNDOUBLED,
    Contract,
)

# A card is written suit then rank ("SA", "HT"); these are also the wire's card order (card_code: clubs to
# spades, two to ace).
CARD_SUITS = "CDHS"
CARD_RANKS = "23456789TJQKA"

_PASS_WORDS = ("PASS", "PASSED", "P", "AP", "ALLPASS", "PASSEDOUT", "PO")
_SYMBOL_STRAINS = {
    "\u2663": CLUBS, "\u2667": CLUBS,
    "\u2666": DIAMONDS, "\u2662": DIAMONDS,
    "\u2665": HEARTS, "\u2661": HEARTS,
    "\u2660": SPADES, "\u2664": SPADES,
}
# The same suit symbols as a card's suit letter (a suit's strain index is its place in CARD_SUITS).
_CARD_SUITS = {symbol: CARD_SUITS[strain] for symbol, strain in _SYMBOL_STRAINS.items()}
_SEAT_WORDS = {"NORTH": "N", "EAST": "E", "SOUTH": "S", "WEST": "W"}
_VUL_ALIASES = {
    "none": VUL_NONE, "-": VUL_NONE, "love": VUL_NONE, "o": VUL_NONE, "0": VUL_NONE,
    "ns": VUL_NS, "n-s": VUL_NS, "n/s": VUL_NS,
    "ew": VUL_EW, "e-w": VUL_EW, "e/w": VUL_EW,
    "both": VUL_BOTH, "all": VUL_BOTH, "b": VUL_BOTH,
}


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


def parse_vulnerability(text: str) -> str:
    """One of VULNERABILITIES from what people and PBN files write (None, NS, EW, All, Both...)."""
    vul = _VUL_ALIASES.get(text.strip().lower())
    if vul is None:
        raise ValueError("vulnerability must be none, ns, ew or both, not %r" % (text,))
    return vul


def card_text(suit: int, rank: int) -> str:
    """The card of suit 0-3 (clubs to spades) and rank 0-12 (two to ace) as text: "SA", "HT"."""
    return CARD_SUITS[suit] + CARD_RANKS[rank]


def parse_card(text: str) -> str:
    """A card as suit then rank ("SA", "HT") from "SA", "AS", "\u2660A", "H10", "sa"."""
    t = text.strip().upper() if isinstance(text, str) else ""
    if 2 <= len(t) <= 3:
        for suit, rank in ((t[0], t[1:]), (t[-1], t[:-1])):
            suit = _CARD_SUITS.get(suit, suit)
            rank = "T" if rank == "10" else rank
            if len(suit) == 1 and suit in CARD_SUITS and len(rank) == 1 and rank in CARD_RANKS:
                return suit + rank
    raise ValueError("a card is a suit and a rank such as SA or H10, not %r" % (text,))
