"""The ways a pairs session can be ranked by the demo and the simulator: matchpoints or Butler IMPs."""

from __future__ import annotations

from collections.abc import Iterable

from tenace.scoring.imp_pairs_session import ImpSessionScore, score_butler_session
from tenace.scoring.model import BoardResult, Penalty
from tenace.scoring.mp_options import DEFAULT_OPTIONS, MatchpointOptions
from tenace.scoring.pairs_session import SessionScore, score_pairs_session

SCORINGS = ("mp", "butler")
AnySessionScore = SessionScore | ImpSessionScore


def score_session(results: Iterable[BoardResult], scoring: str = "mp", mp_options: MatchpointOptions = DEFAULT_OPTIONS,
                  penalties: Iterable[Penalty] = ()) -> AnySessionScore:
    """Matchpoints (Law 78A, with `mp_options`) or Butler IMPs (Law 78B, default options) over the same results.

    Law 90 `penalties` are taken in matchpoints: the Butler session has none to take them from.
    """
    penalties = list(penalties)
    if scoring == "mp":
        return score_pairs_session(results, mp_options, penalties)
    if scoring == "butler":
        if penalties:
            raise ValueError("Law 90 penalties are taken in matchpoints: a Butler session cannot apply them")
        return score_butler_session(results)
    raise ValueError(f"scoring is one of {', '.join(SCORINGS)}, not {scoring!r}")
