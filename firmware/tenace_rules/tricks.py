"""Results: tricks taken by declarer, as totals (0-13) or relative to the contract (=, +2, -3)."""

from tenace_rules.contract import Contract


def _check_total(contract: Contract, tricks: int) -> int:
    if contract.level == 0:
        raise ValueError("a passed-out board has no tricks")
    if not 0 <= tricks <= 13:
        raise ValueError("%d tricks is impossible: declarer takes 0 to 13" % tricks)
    return tricks


def parse_tricks(contract: Contract, text: str) -> int:
    """Declarer's total tricks from "11", "=", "+2", "-3" or "made".

    A bare number is the total (0-13); a signed one is relative to the contract.
    Refused: anything that is not 0 to 13 tricks in all (+4 on 4S, -11 on 2H, 14).
    """
    if contract.level == 0:
        raise ValueError("a passed-out board has no result to enter")
    t = text.strip().lower().replace(" ", "") if isinstance(text, str) else ""
    book = contract.level + 6
    if t in ("=", "made"):
        return book
    sign = 0
    if t[:1] == "+":
        sign = 1
    elif t[:1] in ("-", "\u2212"):
        sign = -1
    digits = t[1:] if sign else t
    if not digits or not digits.isdigit() or len(digits) > 2:
        raise ValueError("result %r: give =, +n, -n or the total tricks 0 to 13" % (text,))
    n = int(digits)
    if sign == 0:
        return _check_total(contract, n)
    tricks = book + sign * n
    if tricks > 13:
        raise ValueError("%s+%d is impossible: at most +%d on a %d-level contract"
                         % (contract.text(), n, 7 - contract.level, contract.level))
    if tricks < 0:
        raise ValueError("%s-%d is impossible: at most -%d on a %d-level contract"
                         % (contract.text(), n, book, contract.level))
    return tricks


def relative_text(contract: Contract, tricks: int) -> str:
    """The result relative to the contract: "=", "+1", "-3"."""
    diff = _check_total(contract, tricks) - contract.level - 6
    if diff == 0:
        return "="
    return "%+d" % diff
