"""Results as total tricks or relative to the contract, and the impossible ones. Pytest and MicroPython."""

from tenace_rules.contract import PASSED_OUT
from tenace_rules.notation import parse_contract
from tenace_rules.tricks import parse_tricks, relative_text

from checks import raises


def test_relative_and_total_forms():
    four_spades = parse_contract("4S")
    for text, tricks in (("=", 10), ("made", 10), ("+1", 11), ("+3", 13), ("-1", 9), ("-10", 0),
                         ("11", 11), ("0", 0), ("13", 13), (" -2 ", 8), ("+0", 10), ("\u22122", 8)):
        assert parse_tricks(four_spades, text) == tricks, text


def test_impossible_results_are_refused():
    assert "at most +3" in raises(ValueError, parse_tricks, parse_contract("4S"), "+4")
    assert "at most -8" in raises(ValueError, parse_tricks, parse_contract("2H"), "-11")
    assert "14 tricks" in raises(ValueError, parse_tricks, parse_contract("2H"), "14")
    assert "+1 is impossible" in raises(ValueError, parse_tricks, parse_contract("7NT"), "+1")
    for bad in ("", "x", "+", "--1", "1.5", "+1a", "100"):
        assert "give =, +n, -n" in raises(ValueError, parse_tricks, parse_contract("1C"), bad), bad
    assert "passed-out" in raises(ValueError, parse_tricks, PASSED_OUT, "=")


def test_relative_text_for_every_trick_count():
    for level in range(1, 8):
        contract = parse_contract("%dH" % level)
        for tricks in range(14):
            text = relative_text(contract, tricks)
            assert parse_tricks(contract, text) == tricks, (level, tricks, text)
    assert relative_text(parse_contract("3NT"), 9) == "="
    assert relative_text(parse_contract("3NT"), 11) == "+2"
    assert relative_text(parse_contract("3NT"), 6) == "-3"
    raises(ValueError, relative_text, parse_contract("3NT"), 14)
