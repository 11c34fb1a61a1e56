"""Contracts and declarers: canonical PBN text and what people type. Runs under pytest and MicroPython."""

from tenace_rules.contract import (
    DOUBLED,
    HEARTS,
    NOTRUMP,
    PASSED_OUT,
    REDOUBLED,
    SPADES,
    UNDOUBLED,
    Contract,
    from_text,
)
from tenace_rules.notation import parse_contract, parse_declarer

from checks import raises

TYPED = (
    ("4SX", 4, SPADES, DOUBLED),
    ("4\u2660x", 4, SPADES, DOUBLED),
    ("4sx", 4, SPADES, DOUBLED),
    (" 4 S X ", 4, SPADES, DOUBLED),
    ("3nt", 3, NOTRUMP, UNDOUBLED),
    ("3N", 3, NOTRUMP, UNDOUBLED),
    ("3NTXX", 3, NOTRUMP, REDOUBLED),
    ("7ntxx", 7, NOTRUMP, REDOUBLED),
    ("2\u2665", 2, HEARTS, UNDOUBLED),
    ("2h**", 2, HEARTS, REDOUBLED),
    ("1c", 1, 0, UNDOUBLED),
    ("5\u2666X", 5, 1, DOUBLED),
)


def test_typed_forms():
    for text, level, strain, doubling in TYPED:
        assert parse_contract(text) == Contract(level, strain, doubling), text


def test_pass_spellings():
    for text in ("pass", "PASS", "Pass", "passed", "p", "AP"):
        c = parse_contract(text)
        assert c.passed_out and c == PASSED_OUT and c.text() == "Pass", text


def test_canonical_text_is_pbn():
    assert parse_contract("4\u2660x").text() == "4SX"
    assert parse_contract("3n").text() == "3NT"
    assert parse_contract("6nt xx").text() == "6NTXX"
    assert parse_contract("4sx").symbol_text() == "4\u2660X"
    assert Contract(1, 0).text() == "1C"


def test_malformed_contracts_say_why():
    assert "level 1 to 7" in raises(ValueError, parse_contract, "8S")
    assert "level 1 to 7" in raises(ValueError, parse_contract, "0S")
    assert "level 1 to 7" in raises(ValueError, parse_contract, "S4")
    assert "level 1 to 7" in raises(ValueError, parse_contract, "4")
    assert "no strain" in raises(ValueError, parse_contract, "4Z")
    assert "X or XX" in raises(ValueError, parse_contract, "4SXXX")
    assert "X or XX" in raises(ValueError, parse_contract, "4SY")
    assert "empty" in raises(ValueError, parse_contract, "  ")
    raises(ValueError, parse_contract, None)
    raises(ValueError, Contract, 8, 0, 0)
    raises(ValueError, Contract, 1, 5, 0)
    raises(ValueError, Contract, 1, 0, 3)


def test_declarers():
    for text, seat in (("N", "N"), ("e", "E"), (" South ", "S"), ("west", "W")):
        assert parse_declarer(text) == seat
    for bad in ("", "NS", "X", "north-east"):
        assert "declarer must be" in raises(ValueError, parse_declarer, bad)


def test_from_text_reads_exactly_the_canonical_form():
    for level in range(1, 8):
        for strain in range(5):
            for doubling in range(3):
                contract = Contract(level, strain, doubling)
                assert from_text(contract.text()) == contract
    assert from_text("Pass") == PASSED_OUT
    for text in ("", "pass", "4N", "4sx", "4S*", "8S", "0S", "4SXXX", "4\u2660", " 4S", "4SX ", "NT"):
        assert raises(ValueError, from_text, text), text
