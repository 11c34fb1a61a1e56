"""Contracts, declarers and cards: canonical text and what people type. Runs under pytest and MicroPython."""

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
from tenace_rules.notation import CARD_RANKS, CARD_SUITS, card_text, parse_card, parse_contract, parse_declarer

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


def test_cards_are_suit_then_rank_in_the_wires_order():
    assert card_text(3, 12) == "SA" and card_text(0, 0) == "C2" and card_text(2, 8) == "HT"
    assert [card_text(s, r) for s in range(4) for r in range(13)][13:15] == ["D2", "D3"]
    assert CARD_SUITS == "CDHS" and CARD_RANKS == "23456789TJQKA"


def test_cards_as_people_write_them():
    for typed, card in (("SA", "SA"), ("AS", "SA"), ("\u2660A", "SA"), ("A\u2660", "SA"), ("H10", "HT"),
                        ("10H", "HT"), ("ht", "HT"), (" dk ", "DK"), ("\u2663" + "2", "C2")):
        assert parse_card(typed) == card, typed
    for wrong in ("", "S", "S1", "SS", "HS", "SAK", "10", "X9", "S11"):
        message = raises(ValueError, parse_card, wrong)
        assert "suit and a rank such as SA or H10" in message, message
