"""How people and files write contracts, seats and vulnerability: lenient readers into the rules' forms.

The host reads what a director types and what PBN files hold with these; the terminal keys contracts
and never parses such text, so this module stays off it (RAM).
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

_PASS_WORDS = ("PASS", "PASSED", "P", "AP", "ALLPASS", "PASSEDOUT", "PO")
_SYMBOL_STRAINS = {
    "\u2663": CLUBS, "\u2667": CLUBS,
    "\u2666": DIAMONDS, "\u2662": DIAMONDS,
    "\u2665": HEARTS, "\u2661": HEARTS,
    "\u2660": SPADES, "\u2664": SPADES,
}
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
