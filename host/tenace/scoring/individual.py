"""An individual session: its boards matchpointed by partnership, each player ranked on the sum of their boards."""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import replace

from tenace.scoring.model import BoardResult
from tenace.scoring.mp_options import DEFAULT_OPTIONS, MatchpointOptions
from tenace.scoring.pairs_session import (
    PairSums,
    SessionScore,
    pair_total,
    rank_session,
    revisions,
    score_pairs_session,
)
from tenace.scoring.ranking import FieldMode


def score_individual_session(results: Iterable[BoardResult], partners: Mapping[str, tuple[str, str]],
                             options: MatchpointOptions = DEFAULT_OPTIONS) -> SessionScore:
    """Matchpoint an individual: the results name partnerships (as a Howell's pairs, one field) and `partners`
    names each partnership's two players. Every board is scored as a pairs board; each player's total is the
    sum of their sides on the boards they played, whoever their partner was, and the players are ranked on it in
    one field. The session's `totals` and `ranking` are the players'; its boards stay by partnership.

    Law 12C2(c) revises an average-plus or -minus by the contestant's own percentage, here the player's over all
    their boards: the two partners of one board may get different figures, so the boards show the averages and
    each player's total holds their own. There are no Law 90 penalties here: they would be the player's too, and
    none is asked for yet.
    """
    one_field = replace(options, fields=FieldMode.ONE)
    session = score_pairs_session(results, replace(one_field, law_12c2c=False))
    for partnership in session.totals:
        if partnership not in partners:
            raise ValueError(f"partnership {partnership} has results but no players")
    sums: dict[str, PairSums] = {}
    for board in session.boards:
        key = (board.section, board.board)  # the key of SessionScore.revised
        for r, (ns, ew) in zip(board.results, board.figures, strict=True):
            if ns is None or ew is None:  # not played: the board counts for none of the four
                continue
            for partnership, side, opponents in ((r.ns_pair, ns, r.ew_pair), (r.ew_pair, ew, r.ns_pair)):
                for player in partners[partnership]:
                    acc = sums.get(player)
                    if acc is None:
                        acc = sums[player] = PairSums(session.totals[partnership].section)
                    acc.add(key, side, opponents)
    revised = revisions(sums, one_field)
    totals = {player: pair_total(player, acc, revised, None, one_field) for player, acc in sums.items()}
    return SessionScore(one_field, session.boards, totals, tuple(rank_session(totals, None, one_field)), revised)
