"""Law 2: dealer and vulnerability by board number. Runs under pytest and MicroPython."""

from tenace_rules.board import dealer, is_vulnerable, vulnerability
from tenace_rules.notation import parse_vulnerability

from checks import raises

# Law 2 as printed: boards 1-16, dealer and vulnerable side, the cycle repeating from board 17.
LAW2_TABLE = (
    (1, "N", "none"), (2, "E", "ns"), (3, "S", "ew"), (4, "W", "both"),
    (5, "N", "ns"), (6, "E", "ew"), (7, "S", "both"), (8, "W", "none"),
    (9, "N", "ew"), (10, "E", "both"), (11, "S", "none"), (12, "W", "ns"),
    (13, "N", "both"), (14, "E", "none"), (15, "S", "ns"), (16, "W", "ew"),
)


def test_law2_table_and_its_repetition():
    for board, want_dealer, want_vul in LAW2_TABLE:
        for cycle in (0, 1, 2, 6, 62):
            b = board + 16 * cycle
            assert dealer(b) == want_dealer, b
            assert vulnerability(b) == want_vul, b


def test_bad_board_numbers_are_refused():
    for bad in (0, -1, -16):
        assert "board number" in raises(ValueError, dealer, bad)
        assert "board number" in raises(ValueError, vulnerability, bad)
    raises(ValueError, dealer, "3")


def test_vulnerability_spellings():
    for text, want in (("None", "none"), ("NS", "ns"), ("e-w", "ew"), ("All", "both"), ("BOTH", "both"), ("-", "none")):
        assert parse_vulnerability(text) == want, text
    assert "none, ns, ew or both" in raises(ValueError, parse_vulnerability, "north")


def test_side_vulnerability():
    assert is_vulnerable("ns", "N") and is_vulnerable("ns", "S")
    assert not is_vulnerable("ns", "E") and not is_vulnerable("ns", "W")
    assert is_vulnerable("ew", "W") and not is_vulnerable("ew", "S")
    assert is_vulnerable("both", "E") and not is_vulnerable("none", "N")
