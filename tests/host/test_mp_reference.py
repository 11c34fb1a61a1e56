"""The fast matchpoint paths equal Law 78A's definition by pairwise comparison, on random fields (hypothesis)."""

from __future__ import annotations

from collections.abc import Sequence
from decimal import Decimal
from fractions import Fraction

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from tenace.scoring.matchpoints import SideKind, matchpoint_board, mp1_raw
from tenace.scoring.model import EW, NS, Artificial, Average, BoardResult, NotPlayed, Outcome, Played, Weighted
from tenace.scoring.mp_options import Factoring, MatchpointOptions, Units
from tenace.scoring.rounding import Rounding, round_fraction

POOL = (-1430, -620, -100, -50, 0, 110, 140, 420, 450)  # few scores, so fields have many ties

Row = tuple[str, str, Fraction, Decimal, Decimal, int, SideKind, Average | None]


def components(o: Played | Weighted) -> tuple[tuple[Fraction, int], ...]:
    return ((Fraction(1), o.ns_score),) if isinstance(o, Played) else o.components


def pairwise_mp1(mine: Played | Weighted, others: list[Played | Weighted]) -> Fraction:
    """Law 78A straight from the text: 2 per score beaten, 1 per tie, each comparison weighted (12C1(c))."""
    total = Fraction(0)
    for other in others:
        for w, s in components(mine):
            for v, t in components(other):
                total += w * v * (2 if s > t else 1 if s == t else 0)
    return total


def reference_board(results: list[BoardResult], o: MatchpointOptions, expected: int | None) -> list[tuple[Row | None,
                                                                                                          Row | None]]:
    """Each table's two sides, computed the slow obvious way: every pair of results compared."""
    e = expected if expected is not None else len(results)
    groups: dict[str | None, list[int]] = {}
    for i, r in enumerate(results):
        if isinstance(r.outcome, Played | Weighted):
            groups.setdefault(r.fouled_group, []).append(i)
    method = o.fouled_factoring if len(groups) > 1 else o.factoring
    comparing = sum(len(g) for g in groups.values())
    top1 = 2 * max(comparing - 1, 0) if method is Factoring.NONE else 2 * (e - 1)
    half = o.units is Units.NORTH_AMERICAN
    top = top1 // 2 if half else top1

    def published(exact: Fraction) -> tuple[Decimal, Decimal]:
        mp = round_fraction(exact, o.board_mp_decimals, o.rounding)
        base = Fraction(mp) if o.board_percent_from_published_mp else exact
        share = base * 100 / top if top else Fraction(50)
        return mp, round_fraction(share, o.board_percent_decimals, o.rounding)

    exact_ns: dict[int, Fraction] = {}
    for members in groups.values():
        n = len(members)
        for i in members:
            mine = results[i].outcome
            assert isinstance(mine, Played | Weighted)
            others = [results[j].outcome for j in members if j != i]
            raw = pairwise_mp1(mine, [x for x in others if isinstance(x, Played | Weighted)])
            if method is Factoring.NONE or n == e:
                x = raw
            elif method is Factoring.NEUBERG:
                x = (raw + 1) * e / n - 1
            else:
                x = Fraction(e - 1) if n == 1 else raw * (e - 1) / (n - 1)
            exact_ns[i] = x

    out: list[tuple[Row | None, Row | None]] = []
    for i, r in enumerate(results):
        if i in exact_ns:
            kind = SideKind.PLAYED if isinstance(r.outcome, Played) else SideKind.ASSIGNED
            ns, ew = exact_ns[i], top1 - exact_ns[i]
            if half:
                ns, ew = ns / 2, ew / 2
            out.append(((r.ns_pair, NS, ns, *published(ns), top, kind, None),
                        (r.ew_pair, EW, ew, *published(ew), top, kind, None)))
        elif isinstance(r.outcome, Artificial):
            rows: list[Row] = []
            for pair, direction, side in ((r.ns_pair, NS, r.outcome.ns), (r.ew_pair, EW, r.outcome.ew)):
                pct = o.average_percent(side) if isinstance(side, Average) else side
                x = pct * top / 100
                rows.append((pair, direction, x, *published(x), top, SideKind.ARTIFICIAL,
                             side if isinstance(side, Average) else None))
            out.append((rows[0], rows[1]))
        else:
            out.append((None, None))
    return out


weights = st.integers(1, 9).map(lambda k: Fraction(k, 10))
outcomes: st.SearchStrategy[Outcome] = st.one_of(
    st.sampled_from(POOL).map(Played),
    st.sampled_from(POOL).map(Played),
    st.sampled_from(POOL).map(Played),
    st.just(NotPlayed()),
    st.builds(Artificial, st.sampled_from(Average), st.one_of(st.sampled_from(Average),
                                                             st.integers(0, 100).map(Fraction))),
    st.builds(lambda w, a, b: Weighted(((w, a), (1 - w, b))), weights, st.sampled_from(POOL), st.sampled_from(POOL)),
)
options = st.builds(
    MatchpointOptions,
    units=st.sampled_from(Units),
    factoring=st.sampled_from(Factoring),
    fouled_factoring=st.sampled_from(Factoring),
    rounding=st.sampled_from([r for r in Rounding if r is not Rounding.NONE]),  # published figures have decimals
    board_mp_decimals=st.integers(0, 3),
    board_percent_decimals=st.integers(0, 3),
    board_percent_from_published_mp=st.booleans(),
)


@st.composite
def fields(draw: st.DrawFn) -> tuple[list[BoardResult], int | None]:
    outs = draw(st.lists(outcomes, min_size=1, max_size=14))
    fouled = draw(st.booleans()) and draw(st.integers(0, 9)) == 0  # Law 87 groups now and then
    results = [BoardResult("A", t, 1, 3, f"N{t}", f"E{t}", o, draw(st.sampled_from(("x", "y", None))) if fouled
                           else None) for t, o in enumerate(outs, start=1)]
    expected = draw(st.one_of(st.none(), st.integers(len(results), len(results) + 6)))
    return results, expected


def rows(results: list[BoardResult], o: MatchpointOptions, expected: int | None) -> list[tuple[Row | None, ...]]:
    scored = matchpoint_board(results, o, expected)
    assert [t.result for t in scored.tables] == results
    return [tuple(None if s is None else (pair, s.direction, s.exact, s.mp, s.percent, s.top, s.kind, s.average)
                  for pair, s in ((t.ns_pair, t.ns), (t.ew_pair, t.ew))) for t in scored.tables]


def shown(tables: Sequence[Sequence[Row | None]]) -> list[list[tuple[object, ...] | None]]:
    """Tables with published decimals as text: 1.50 and 1.5 are equal Decimals but not the same publication."""
    return [[None if s is None else tuple(str(x) if isinstance(x, Decimal) else x for x in s) for s in t]
            for t in tables]


@pytest.mark.slow
@settings(max_examples=400, deadline=None)
@given(fields(), options)
def test_matchpoint_board_equals_the_pairwise_definition(field: tuple[list[BoardResult], int | None],
                                                         o: MatchpointOptions) -> None:
    results, expected = field
    got = rows(results, o, expected)
    assert shown(got) == shown(reference_board(results, o, expected))
    assert all(type(side[2]) is Fraction for table in got for side in table if side is not None)  # never int/float


@settings(max_examples=300, deadline=None)
@given(st.lists(st.sampled_from(POOL) | st.integers(-7600, 7600), min_size=1, max_size=60))
def test_mp1_raw_equals_the_pairwise_definition(scores: list[int]) -> None:
    want = [sum(2 if s > t else 1 if s == t else 0 for j, t in enumerate(scores) if j != i)
            for i, s in enumerate(scores)]
    got = mp1_raw(scores)
    assert got == want
    assert all(type(x) is int for x in got)


def test_all_played_fast_path_on_a_big_field_with_ties() -> None:
    # 200 tables over 5 scores: every score tied many times; NS and EW mirror to the top.
    results = [BoardResult("A", t, 1, 1, f"N{t}", f"E{t}", Played(POOL[t % 5])) for t in range(1, 201)]
    got = rows(results, MatchpointOptions(), None)
    assert shown(got) == shown(reference_board(results, MatchpointOptions(), None))
    assert {s[2] + e[2] for s, e in got if s and e} == {Fraction(398)}
