"""Fixed hand records for the simulated event: one PBN deal per board, the same on every run and interpreter."""

_RANKS = "AKQJT98765432"
# The double-dummy analysis of boards 1-12's deals as endplay (DDS) makes it, fixed here so that the simulator's
# collector need not load endplay: the tricks of declarers N E S W in strains C D H S NT (hexadecimal, as the
# event file keeps them), and NS's score at par. tests/host/test_hand_records.py checks them against endplay.
ANALYSES = (
    ("49596937474959683736", 100), ("54454789695446478969", -400), ("5D9DD802005D9DD80200", 1520),
    ("45856975864685696586", -110), ("979AA36323979A936334", 630), ("569A987424569A987424", 420),
    ("87999453338799945333", 600), ("4AA87932454AB8793145", 450), ("23886A935723886A9357", -130),
    ("97AB84532597AB835325", 650), ("65898575456589857435", 140), ("953B848825953B748825", 650),
)


def deal(board):
    """A fixed PBN deal for `board` ("N:spades.hearts.diamonds.clubs ..."), the same on every run."""
    cards = list(range(52))
    seed = board * 7919 + 17
    for i in range(51, 0, -1):  # Fisher-Yates with a small LCG: deterministic on both interpreters
        seed = (seed * 1103515245 + 12345) & 0x7FFFFFFF
        j = seed % (i + 1)
        cards[i], cards[j] = cards[j], cards[i]
    hands = []
    for seat in range(4):
        hand = sorted(cards[seat * 13:seat * 13 + 13])
        suits = []
        for suit in range(4):  # card c: suit c // 13 (S H D C), rank c % 13 (A..2)
            suits.append("".join([_RANKS[c % 13] for c in hand if c // 13 == suit]))
        hands.append(".".join(suits))
    return "N:" + " ".join(hands)


def hand(deal_text, seat):
    """The hand of `seat` (N E S W) in a deal from deal(), as a PBN hand "AK7.Q2.T98.J654"."""
    return deal_text[2:].split()[("NESW").find(seat)]


def analysis(board):
    """(tricks, par) of board's fixed deal as in ANALYSES, or None for a board past them."""
    return ANALYSES[board - 1] if 1 <= board <= len(ANALYSES) else None
