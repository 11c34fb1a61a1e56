"""Law 2 board conditions: dealer and vulnerability from the board number."""

# Seats in the order the deal rotates; a seat index is 0..3 into this string.
SEATS = "NESW"

# Vulnerability names, as used on the wire and in the CLI (tenace_rules.notation reads other spellings).
VUL_NONE = "none"
VUL_NS = "ns"
VUL_EW = "ew"
VUL_BOTH = "both"
VULNERABILITIES = (VUL_NONE, VUL_NS, VUL_EW, VUL_BOTH)

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


def is_vulnerable(vul: str, seat: str) -> bool:
    """True when the side of `seat` (N, E, S or W) is vulnerable under `vul`."""
    if vul == VUL_BOTH:
        return True
    if vul == VUL_NONE:
        return False
    return seat in vul.upper()
