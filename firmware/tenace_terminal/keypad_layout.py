"""Where each key is on the reference terminal's keypad (hardware/keypad.md shows the same grid).

A keypad matrix driver in a board file maps (row, column) scan codes onto these key names; the app
itself only sees the names (tenace_terminal.keys). Kept apart from keys.py so it costs no RAM there.
"""

from tenace_terminal import keys

# Row by row from the top, six columns; "" = no key in that place.
LAYOUT = (
    ("1", "2", "3", keys.CLUBS, keys.DIAMONDS, keys.NORTH),
    ("4", "5", "6", keys.HEARTS, keys.SPADES, keys.EAST),
    ("7", "8", "9", keys.NOTRUMP, keys.DOUBLE, keys.WEST),
    (keys.PLUS, "0", keys.MINUS, keys.EQUALS, keys.PASS, keys.MENU),
    (keys.ACE, keys.KING, keys.QUEEN, keys.JACK, keys.TEN, keys.UP),
    (keys.BACK, "", "", "", keys.OK, keys.DOWN),
)


def all_keys() -> tuple:
    """Every key name on the keypad, row by row."""
    return tuple([k for row in LAYOUT for k in row if k])
