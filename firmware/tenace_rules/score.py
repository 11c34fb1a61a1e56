"""Law 77 duplicate scores: for declarer's side, and from North-South's viewpoint."""

from micropython import const

from tenace_rules.board import SEATS, is_vulnerable
from tenace_rules.contract import DIAMONDS, NOTRUMP, Contract

_GAME_TRICK_POINTS = const(100)


def declarer_score(contract: Contract, vulnerable: bool, tricks: int) -> int:
    """Law 77 score for declarer's side: positive when made, negative when defeated."""
    level = contract.level
    if level == 0:
        return 0
    if not 0 <= tricks <= 13:
        raise ValueError("%d tricks is impossible: declarer takes 0 to 13" % tricks)
    doubling = contract.doubling
    mult = 1 << doubling  # 1, 2 or 4
    needed = level + 6
    if tricks < needed:  # defeated: the undertricks' penalty
        down = needed - tricks
        if doubling == 0:
            return -down * (100 if vulnerable else 50)
        if vulnerable:
            penalty = 200 + (down - 1) * 300
        else:
            # 100 for the first, 200 each for the second and third, 300 each from the fourth.
            penalty = 100 + min(down - 1, 2) * 200 + max(down - 3, 0) * 300
        return -penalty * doubling
    trick_score = contract_trick_score(contract)
    score = trick_score
    if trick_score >= _GAME_TRICK_POINTS:
        score += 500 if vulnerable else 300
    else:
        score += 50
    if level == 6:
        score += 750 if vulnerable else 500
    elif level == 7:
        score += 1500 if vulnerable else 1000
    if doubling:
        score += 50 * doubling  # the "insult": 50 for making doubled, 100 redoubled
    over = tricks - needed
    if over:
        per_trick = 20 if contract.strain <= DIAMONDS else 30
        score += over * ((100 if vulnerable else 50) * mult if doubling else per_trick)
    return score


def contract_trick_score(contract: Contract) -> int:
    """Trick points for the tricks bid (doubled or redoubled): what decides game or partscore."""
    if contract.level == 0:
        return 0
    points = (20 if contract.strain <= DIAMONDS else 30) * contract.level
    if contract.strain == NOTRUMP:
        points += 10
    return points << contract.doubling


def ns_score(contract: Contract, declarer: str, vulnerability: str, tricks: int) -> int:
    """Law 77 score from North-South's viewpoint: declarer's score, negated for East-West."""
    if contract.level == 0:
        return 0
    if len(declarer) != 1 or declarer not in SEATS:
        raise ValueError("declarer must be N, E, S or W, not %r" % (declarer,))
    score = declarer_score(contract, is_vulnerable(vulnerability, declarer), tricks)
    return score if declarer in "NS" else -score
