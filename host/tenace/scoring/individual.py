"""An individual session: its boards matchpointed by partnership, each player ranked on the sum of their boards."""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import replace
from decimal import Decimal
from fractions import Fraction

from tenace.scoring.matchpoints import DEFAULT_OPTIONS, MatchpointOptions
from tenace.scoring.model import BoardResult
from tenace.scoring.pairs_session import PairTotal, SessionScore, rank_session, score_pairs_session
from tenace.scoring.ranking import FieldMode
from tenace.scoring.rounding import round_ratio


def score_individual_session(results: Iterable[BoardResult], partners: Mapping[str, tuple[str, str]],
                             options: MatchpointOptions = DEFAULT_OPTIONS) -> SessionScore:
    """Matchpoint an individual: the results name partnerships (as a Howell's pairs, one field) and `partners`
    names each partnership's two players. Every board is scored as a pairs board; each player's total is the
    sum of the MPs and tops of the boards they played, whoever their partner was, and the players are ranked
    on it in one field. The session's `totals` and `ranking` are the players'; its boards stay by partnership.
    A Law 12C2(c) average-plus is revised on the partnership's own boards (a round's), and there are no Law 90
    penalties here: both would be the player's in an individual, and neither is asked for yet.
    """
    one_field = replace(options, fields=FieldMode.ONE)
    session = score_pairs_session(results, one_field)
    sums: dict[str, list[PairTotal]] = {}
    for partnership, total in session.totals.items():
        if partnership not in partners:
            raise ValueError(f"partnership {partnership} has results but no players")
        for player in partners[partnership]:
            sums.setdefault(player, []).append(total)
    totals = {player: _player_total(player, got, one_field) for player, got in sums.items()}
    return SessionScore(one_field, session.boards, totals, tuple(rank_session(totals, None, one_field)))


def _player_total(player: str, partnerships: list[PairTotal], o: MatchpointOptions) -> PairTotal:
    """A player's total: the sums of their partnerships' boards (MPs as published, or exact, as the options rank)."""
    exact = sum((t.exact for t in partnerships), Fraction(0))
    top = sum(t.top for t in partnerships)
    if o.total_from_published_boards:  # each partnership's MPs are its published boards' sum: add them up
        mp = sum((t.mp for t in partnerships), Decimal(0))
        n, d = mp.as_integer_ratio()
    else:
        mp = round_ratio(exact.numerator, exact.denominator, o.total_mp_decimals, o.rounding)
        n, d = exact.numerator, exact.denominator
    percent = round_ratio(n * 100, d * top, o.total_percent_decimals, o.rounding) if top else Decimal(50)
    directions = frozenset(d for t in partnerships for d in t.directions)
    return PairTotal(player, partnerships[0].section, directions, sum(t.boards for t in partnerships), top, exact, mp,
                     percent, Fraction(0))
