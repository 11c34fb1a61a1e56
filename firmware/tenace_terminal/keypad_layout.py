"""The keypad's key names, where each key is on the reference terminal (hardware/keypad.md shows the same grid).

A name is the string a keypad driver reports and the screens compare against: "0"-"9" (also the levels
1-7 and the ranks 2-9), "C" "D" "H" "S" (strains and suits; "S" is South too), "NT", "X" (pressed
again: XX, then undoubled), "PASS", the seats "N" "E" "W", the ranks "A" "K" "Q" "J" "T" (or "0" for
the ten), "+" "-" "=", "OK" (also ACCEPT), "BACK", "MENU", "UP", "DOWN". The screens write them as
literals: a module of names would cost a terminal some 1.7 KB of RAM. A matrix driver in a board file
maps (row, column) scan codes onto LAYOUT; the app never imports this module.
"""

# Row by row from the top, six columns; "" = no key in that place.
LAYOUT = (
    ("1", "2", "3", "C", "D", "N"),
    ("4", "5", "6", "H", "S", "E"),
    ("7", "8", "9", "NT", "X", "W"),
    ("+", "0", "-", "=", "PASS", "MENU"),
    ("A", "K", "Q", "J", "T", "UP"),
    ("BACK", "", "", "", "OK", "DOWN"),
)


def all_keys() -> tuple:
    """Every key name on the keypad, row by row."""
    return tuple([k for row in LAYOUT for k in row if k])

# Held while the terminal is switched on: the factory test (screens/factory.py) instead of the session. Two keys of
# one row, so that no ghost (three corners of a rectangle) can make the chord.
FACTORY_CHORD = ("BACK", "OK")
