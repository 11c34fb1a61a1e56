"""Law 2 board conditions: dealer and vulnerability from the board number."""

# Seats in the order the deal rotates; a seat index is 0..3 into this string.
SEATS = "NESW"

# Vulnerability names, as used on the wire, in the CLI and in PBN ("None", "NS", "EW", "All").
VUL_NONE = "none"
VUL_NS = "ns"
VUL_EW = "ew"
VUL_BOTH = "both"
VULNERABILITIES = (VUL_NONE, VUL_NS, VUL_EW, VUL_BOTH)

_VUL_ALIASES = {
    "none": VUL_NONE, "-": VUL_NONE, "love": VUL_NONE, "o": VUL_NONE, "0": VUL_NONE,
    "ns": VUL_NS, "n-s": VUL_NS, "n/s": VUL_NS,
    "ew": VUL_EW, "e-w": VUL_EW, "e/w": VUL_EW,
    "both": VUL_BOTH, "all": VUL_BOTH, "b": VUL_BOTH,
}


def _check_board(board: int) -> int:
    if not isinstance(board, int) or board < 1:
        raise ValueError("board number must be a whole number from 1 up, not %r" % (board,))
    return (board - 1) % 16


def dealer(board: int) -> str:
    """Law 2: North deals board 1, then the deal passes clockwise."""
    return SEATS[_check_board(board) % 4]


def vulnerability(board: int) -> str:
    """Law 2: the 16-board cycle, each group of four shifted by one from the last."""
    i = _check_board(board)
    return VULNERABILITIES[(i + i // 4) % 4]


def parse_vulnerability(text: str) -> str:
    """One of VULNERABILITIES from what people and PBN files write (None, NS, EW, All, Both...)."""
    vul = _VUL_ALIASES.get(text.strip().lower())
    if vul is None:
        raise ValueError("vulnerability must be none, ns, ew or both, not %r" % (text,))
    return vul


def is_vulnerable(vul: str, seat: str) -> bool:
    """True when the side of `seat` (N, E, S or W) is vulnerable under `vul`."""
    if vul == VUL_BOTH:
        return True
    if vul == VUL_NONE:
        return False
    return seat in vul.upper()
