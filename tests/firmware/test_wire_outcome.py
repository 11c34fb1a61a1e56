"""A board's outcome, declared once (outcome.py): its fields round trip, and one rule says which fit each kind."""

from tenace_wire.errors import WireError
from tenace_wire.fields import size_of
from tenace_wire.outcome import (
    ADJUSTED,
    AVERAGE,
    AVERAGE_MINUS,
    AVERAGE_PLUS,
    NOT_PLAYED,
    OUTCOME,
    OUTCOME_SPEC,
    PASSED_OUT,
    PLAYED,
    Outcome,
    card_code,
)

from checks import raises


class Bare(Outcome):
    """An outcome and nothing else (RESULT and a traveller's line add their own fields around it)."""

    FIELDS = OUTCOME
    SPEC = OUTCOME_SPEC


GOOD = (dict(kind=PLAYED, level=4, strain=3, doubling=1, declarer=2, tricks=10, lead=card_code(0, 12)),
        dict(kind=PLAYED, level=7, strain=4, doubling=2, declarer=3, tricks=0, lead=52),
        dict(kind=PASSED_OUT), dict(kind=NOT_PLAYED),
        dict(kind=ADJUSTED, ns_adjust=AVERAGE_PLUS, ew_adjust=AVERAGE_MINUS),
        dict(kind=ADJUSTED, ns_adjust=AVERAGE, ew_adjust=AVERAGE))
BAD = (dict(kind=PLAYED), dict(kind=PASSED_OUT, level=1), dict(kind=NOT_PLAYED, lead=1),
       dict(kind=ADJUSTED, ns_adjust=AVERAGE_PLUS), dict(kind=PLAYED, level=1, ns_adjust=AVERAGE))


def test_an_outcome_is_26_bits():
    assert len(OUTCOME) * 3 == len(OUTCOME_SPEC)
    assert sum(OUTCOME_SPEC[i] for i in range(0, len(OUTCOME_SPEC), 3)) == 26 and size_of(OUTCOME_SPEC) == 4


def test_outcomes_round_trip():
    for fields in GOOD:
        msg = Bare(**fields)
        back = Bare()
        back.decode_payload(msg.encode())
        assert back == msg, (back, msg)


def test_fields_that_do_not_fit_the_kind_are_refused():
    for fields in BAD:
        assert "fit a board" in raises(WireError, Bare(**fields).encode), fields


def test_card_codes():
    assert (card_code(0, 0), card_code(3, 12)) == (1, 52)
    assert "suit 0-3" in raises(ValueError, card_code, 4, 0)
