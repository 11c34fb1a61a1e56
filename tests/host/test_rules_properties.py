"""Property tests (hypothesis) of the rules package: text round trips and Law 77 invariants."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from tenace_rules.board import SEATS, VULNERABILITIES, dealer, vulnerability
from tenace_rules.contract import STRAIN_SYMBOLS, Contract
from tenace_rules.notation import parse_contract
from tenace_rules.score import contract_trick_score, declarer_score, ns_score
from tenace_rules.tricks import parse_tricks, relative_text

contracts = st.builds(Contract, st.integers(1, 7), st.integers(0, 4), st.integers(0, 2))
tricks = st.integers(0, 13)


@given(contracts)
def test_canonical_text_round_trips(c: Contract) -> None:
    assert parse_contract(c.text()) == c
    assert parse_contract(c.symbol_text()) == c
    assert parse_contract(c.text().lower()) == c


@given(contracts, st.sampled_from(["", " "]), st.booleans())
def test_typed_variants_parse_to_the_same_contract(c: Contract, gap: str, symbol: bool) -> None:
    strain = STRAIN_SYMBOLS[c.strain] if symbol and c.strain < 4 else ("N" if c.strain == 4 else "CDHS"[c.strain])
    typed = f"{c.level}{gap}{strain}{gap}{'x' * c.doubling}"
    assert parse_contract(typed) == c


@given(contracts, tricks)
def test_relative_text_round_trips(c: Contract, t: int) -> None:
    assert parse_tricks(c, relative_text(c, t)) == t
    assert parse_tricks(c, str(t)) == t


@given(contracts, st.booleans(), tricks)
def test_sign_follows_making(c: Contract, vul: bool, t: int) -> None:
    score = declarer_score(c, vul, t)
    assert (score > 0) == (t >= c.level + 6)
    assert score % 10 == 0


@given(contracts, st.booleans(), st.integers(0, 12))
def test_one_more_trick_never_scores_less(c: Contract, vul: bool, t: int) -> None:
    assert declarer_score(c, vul, t + 1) > declarer_score(c, vul, t)


@given(contracts, tricks)
def test_vulnerability_raises_stakes(c: Contract, t: int) -> None:
    nv, v = declarer_score(c, False, t), declarer_score(c, True, t)
    assert abs(v) >= abs(nv)


@given(st.integers(1, 7), st.integers(0, 4), st.booleans(), tricks)
def test_doubling_raises_stakes(level: int, strain: int, vul: bool, t: int) -> None:
    scores = [declarer_score(Contract(level, strain, d), vul, t) for d in range(3)]
    if t >= level + 6:
        assert scores[0] < scores[1] < scores[2]
    else:
        assert scores[0] > scores[1] > scores[2]


@given(contracts)
def test_game_is_100_trick_points(c: Contract) -> None:
    made = declarer_score(c, False, c.level + 6)
    bonus = 50 * c.doubling + {6: 500, 7: 1000}.get(c.level, 0)
    assert made - contract_trick_score(c) - bonus == (300 if contract_trick_score(c) >= 100 else 50)


@pytest.mark.slow
@given(contracts, st.sampled_from(SEATS), st.sampled_from(VULNERABILITIES), tricks)
def test_partners_score_alike_and_opponents_opposite(c: Contract, seat: str, vul: str, t: int) -> None:
    partner = SEATS[(SEATS.index(seat) + 2) % 4]
    assert ns_score(c, seat, vul, t) == ns_score(c, partner, vul, t)
    mirrored = {"none": "none", "both": "both", "ns": "ew", "ew": "ns"}[vul]
    lho = SEATS[(SEATS.index(seat) + 1) % 4]
    assert ns_score(c, lho, mirrored, t) == -ns_score(c, seat, vul, t)


@given(st.integers(1, 10_000))
def test_law2_cycles_every_16_boards(board: int) -> None:
    assert vulnerability(board) == vulnerability(board + 16)
    assert dealer(board) == SEATS[(board - 1) % 4]
    # Across one 16-board cycle each vulnerability occurs four times.
    start = 16 * ((board - 1) // 16) + 1
    cycle = [vulnerability(b) for b in range(start, start + 16)]
    assert all(cycle.count(v) == 4 for v in VULNERABILITIES)
