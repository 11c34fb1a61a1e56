"""Fixed hand records for the simulated event: one PBN deal per board, the same on every run and interpreter."""

_RANKS = "AKQJT98765432"


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
