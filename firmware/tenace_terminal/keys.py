"""The keypad's key names: what a keypad driver reports and what the screens compare against."""

# Tuples, not strings, so that "in" never matches a part of a longer key name.
# Levels 1-7 double as digits (tricks, board, table, player numbers, PIN) and as card ranks 2-7.
DIGITS = tuple("0123456789")
LEVELS = tuple("1234567")

# Strain keys in strain order (index = contract strain 0..4 = C D H S NT).
CLUBS = "C"
DIAMONDS = "D"
HEARTS = "H"
SPADES = "S"
NOTRUMP = "NT"
STRAINS = (CLUBS, DIAMONDS, HEARTS, SPADES, NOTRUMP)
SUITS = tuple("CDHS")

DOUBLE = "X"  # pressed once X, twice XX, a third time undoubled again
PASS = "PASS"

# Seat keys in seat order (tenace_rules.board.SEATS). South shares the spade key: on the contract
# screen a strain is always keyed before the declarer, so "S" after the strain can only be South.
NORTH = "N"
EAST = "E"
SOUTH = "S"
WEST = "W"
SEATS = tuple("NESW")

# Card ranks for the opening lead: A K Q J T and the digits 2-9 (T or 0 for the ten).
RANKS = tuple("AKQJT98765432")
ACE = "A"
KING = "K"
QUEEN = "Q"
JACK = "J"
TEN = "T"

PLUS = "+"
MINUS = "-"
EQUALS = "="

OK = "OK"  # also ACCEPT on the summary screen
BACK = "BACK"
MENU = "MENU"
UP = "UP"
DOWN = "DOWN"
