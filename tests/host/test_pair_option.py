"""A pair as the director writes it, for tenace adjust --pair, tenace names --pair and tenace move."""

from __future__ import annotations

import pytest

from tenace.commands.pair_option import PairOption, parse_pair
from tenace.errors import UsageError


@pytest.mark.parametrize(("text", "sections", "section", "wanted"), [
    ("NS 3", ["A"], None, PairOption("A", "NS", 3)),
    ("ew3", ["A"], None, PairOption("A", "EW", 3)),
    ("b-NS 7", ["A", "B"], None, PairOption("B", "NS", 7)),
    (" B - EW 12 ", ["A", "B"], "B", PairOption("B", "EW", 12)),
    ("7", ["A", "B"], "B", PairOption("B", "", 7)),  # a Howell's pair
])
def test_a_pair_is_found_in_its_section(text: str, sections: list[str], section: str | None,
                                        wanted: PairOption) -> None:
    assert parse_pair(text, sections, section) == wanted


@pytest.mark.parametrize(("text", "sections", "section", "said"), [
    ("XY 2", ["A"], None, "--pair 'XY 2' is not a pair as directors write it"),
    ("NS 12345", ["A"], None, "is not a pair"),
    ("C-NS 1", ["A", "B"], None, "--pair 'C-NS 1': there is no section C (sections: A, B)"),
    ("A-NS 1", ["A", "B"], "B", "--pair 'A-NS 1' is in section A, not --section B"),
    ("NS 1", ["A", "B"], None, 'the event has sections A, B: write "A-NS 3" or give --section'),
])
def test_a_pair_that_cannot_be_found_says_why(text: str, sections: list[str], section: str | None,
                                              said: str) -> None:
    with pytest.raises(UsageError) as caught:
        parse_pair(text, sections, section, option="--pair")
    assert said in str(caught.value)
