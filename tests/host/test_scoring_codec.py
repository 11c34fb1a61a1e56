"""The one codec of results (tenace.scoring.codec): what the club stores and pushes read as an outcome, its Law 77
check, and the hub's key written and read back."""

from __future__ import annotations

from fractions import Fraction

import pytest

from tenace.scoring import codec
from tenace.scoring.model import Artificial, Average, NotPlayed, Played, Split, Weighted


@pytest.mark.parametrize(("fields", "want"), [
    (("normal", 420), Played(420)),
    (("passed_out", 0), Played(0)),
    (("passed_out", None), Played(0)),
    (("not_played",), NotPlayed()),
    (("artificial", None, "A+", "A-"), Artificial(Average.PLUS, Average.MINUS)),
    (("artificial", None, "65%", "35%"), Artificial(Fraction(65), Fraction(35))),
    (("weighted", None, None, None, "1:620"), Weighted.of((1, 620))),
    (("weighted", None, None, None, "3/5:620 2/5:-100"), Weighted.of(("3/5", 620), ("2/5", -100))),
    (("weighted", None, None, None, "1/3:420 1/3:-50 1/3:-100"),
     Weighted.of(("1/3", 420), ("1/3", -50), ("1/3", -100))),
    (("weighted", None, None, None, "1:620", "1:-100"), Split(Weighted.of((1, 620)), Weighted.of((1, -100)))),
])
def test_a_stored_result_is_read_and_its_key_reads_back_the_same(fields: tuple[object, ...], want: object) -> None:
    got = codec.outcome(*fields)  # type: ignore[arg-type]
    assert got == want
    assert codec.from_key(codec.key(got)) == got


@pytest.mark.parametrize("fields", [
    ("normal", None), ("normal", 425), ("passed_out", 50), ("artificial", None, "ZZ", "ZZ"),
    ("artificial", None, "A+", None), ("artificial", None, "120%", "A"), ("weighted", None, None, None, None),
    ("weighted", None, None, None, "0.6:420,0.4:-50"),  # the club writes its parts apart with spaces
    ("weighted", None, None, None, "1/2:420 1/3:-50"), ("weighted", None, None, None, "1e999999:420"),
    ("erased",),
])
def test_a_result_that_cannot_be_scored_is_unreadable_in_one_line(fields: tuple[object, ...]) -> None:
    with pytest.raises(codec.Unreadable) as e:
        codec.outcome(*fields)  # type: ignore[arg-type]
    assert "\n" not in str(e.value)


def test_a_files_artificial_percentages_are_averages_when_they_are_60_50_40() -> None:
    found = codec.PERCENTAGES.fullmatch("A6040")
    assert found is not None
    assert codec.from_percentages(Fraction(found[1]), Fraction(found[2])) == Artificial(Average.PLUS, Average.MINUS)
    assert codec.from_percentages(Fraction(55), Fraction(45)) == Artificial(Fraction(55), Fraction(45))


def test_a_played_score_is_derived_again_by_law_77() -> None:
    assert codec.played("3NT", "N", 9, 1, 400) == Played(400)
    assert codec.played("4S", "E", 10, 2, -420) == Played(-420)  # board 2: North-South vulnerable, not East-West
    with pytest.raises(codec.Unreadable, match=r"1C by N taking 7 tricks on board 1 scores NS \+70"):
        codec.played("1C", "N", 7, 1, 7600)
    for contract, declarer in (("8C", "N"), ("3NT", "X")):
        with pytest.raises(codec.Unreadable):
            codec.played(contract, declarer, 9, 1, 400)


@pytest.mark.parametrize("key", ["Pabc", "AZZ|ZZ", "W0.6:420,0.4:-50|", "X", "?the push could not be read", ""])
def test_a_key_that_is_no_outcome_is_unreadable(key: str) -> None:
    with pytest.raises(codec.Unreadable):
        codec.from_key(key)
