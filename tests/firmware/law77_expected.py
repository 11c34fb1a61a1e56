"""Law 77 scores rebuilt from the Law's tables, trick by trick: an oracle independent of tenace_rules.score.

The production code uses closed formulas; this walks the tables of Law 77 as printed (trick points
per odd trick, premiums, and the undertrick table one undertrick at a time).
"""

# Law 77 trick score per odd trick bid and made: (first trick, each later trick), undoubled.
ODD_TRICK_POINTS = {"C": (20, 20), "D": (20, 20), "H": (30, 30), "S": (30, 30), "NT": (40, 30)}
# Overtrick points (each): undoubled = the odd-trick value; doubled/redoubled by vulnerability.
OVERTRICK_DOUBLED = {(1, False): 100, (1, True): 200, (2, False): 200, (2, True): 400}
# Undertrick table, per undertrick number 1, 2, 3, 4 and "each further" (index 4 repeats).
UNDERTRICKS = {
    (0, False): (50, 50, 50, 50, 50),
    (0, True): (100, 100, 100, 100, 100),
    (1, False): (100, 200, 200, 300, 300),
    (1, True): (200, 300, 300, 300, 300),
    (2, False): (200, 400, 400, 600, 600),
    (2, True): (400, 600, 600, 600, 600),
}
MAKING_DOUBLED_PREMIUM = {0: 0, 1: 50, 2: 100}
SLAM_PREMIUM = {6: (500, 750), 7: (1000, 1500)}
GAME_PREMIUM = (300, 500)
PARTSCORE_PREMIUM = 50

STRAIN_NAMES = ("C", "D", "H", "S", "NT")
DOUBLING_NAMES = ("", "X", "XX")


def expected_score(level, strain_name, doubling, vulnerable, tricks):
    """Declarer's score by Law 77 for a contract such as (4, "S", 1, True, 10)."""
    needed = level + 6
    v = 1 if vulnerable else 0
    if tricks < needed:
        table = UNDERTRICKS[(doubling, vulnerable)]
        total = 0
        for k in range(needed - tricks):
            total += table[min(k, 4)]
        return -total
    first, later = ODD_TRICK_POINTS[strain_name]
    factor = (1, 2, 4)[doubling]
    bid_points = 0
    for k in range(level):
        bid_points += (first if k == 0 else later) * factor
    score = bid_points
    score += GAME_PREMIUM[v] if bid_points >= 100 else PARTSCORE_PREMIUM
    if level in SLAM_PREMIUM:
        score += SLAM_PREMIUM[level][v]
    score += MAKING_DOUBLED_PREMIUM[doubling]
    for _ in range(tricks - needed):
        score += later if doubling == 0 else OVERTRICK_DOUBLED[(doubling, vulnerable)]
    return score


def all_cases():
    """Every level x strain x doubling x vulnerability x tricks 0-13: 7*5*3*2*14 = 2940 cases."""
    for level in range(1, 8):
        for strain_name in STRAIN_NAMES:
            for doubling in range(3):
                for vulnerable in (False, True):
                    for tricks in range(14):
                        yield level, strain_name, doubling, vulnerable, tricks
