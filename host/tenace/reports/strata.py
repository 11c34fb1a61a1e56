"""Strata (ACBL's A/B/C by masterpoints: a pair ranks in its stratum and every one above) and handicaps (percentage
plus the pair's handicap), from the roster's optional columns as the sessions' event files keep them."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from decimal import Decimal
from fractions import Fraction
from typing import Any

from tenace.scoring.ranking import rank_field
from tenace.store.names import Member

BY = ("higher", "average")  # a pair's masterpoints: its better player's, or the two players' average
HANDICAPS = ("sum", "average")  # a pair's handicap: its players' added, or their average


class StrataError(ValueError):
    pass


@dataclass(frozen=True)
class Strata:
    limits: tuple[tuple[str, Decimal], ...]  # (stratum, its lowest masterpoints), the highest stratum first
    by: str  # "higher" or "average"
    handicap: str | None  # "sum" or "average"; None: no handicap ranking
    # The players' masterpoints and handicaps (as the sessions keep them: reports.championship fills them in)
    members: Mapping[int, Member] = field(default_factory=dict)

    def masterpoints(self, players: Sequence[int]) -> Decimal:
        """The pair's masterpoints as the strata read them (a player not in the roster, or without any, has 0)."""
        held = [self._figure(p, "masterpoints") for p in players] or [Decimal(0)]
        return max(held) if self.by == "higher" else sum(held, Decimal(0)) / len(held)

    def stratum(self, players: Sequence[int]) -> str | None:
        """The pair's stratum: the highest whose limit its masterpoints reach; None when there are no strata."""
        held = self.masterpoints(players)
        return next((name for name, lowest in self.limits if held >= lowest), None)

    def pair_handicap(self, players: Sequence[int]) -> Decimal:
        held = [self._figure(p, "handicap") for p in players] or [Decimal(0)]
        return sum(held, Decimal(0)) if self.handicap == "sum" else sum(held, Decimal(0)) / len(held)

    def _figure(self, player: int, what: str) -> Decimal:
        member = self.members.get(player)
        value = getattr(member, what) if member is not None else None
        return value if value is not None else Decimal(0)

    def eligible(self, stratum: str, players: Sequence[int]) -> bool:
        """Whether the pair ranks in `stratum`: its own stratum or any above it (ACBL's way)."""
        own = self.stratum(players)
        names = [name for name, _ in self.limits]
        return own is not None and names.index(own) >= names.index(stratum)


def read_strata(doc: Mapping[str, Any]) -> Strata | None:
    """The set-up's strata and handicap rule (a championship file's keys `strata`, `stratum_by`, `handicap`), None
    when it names neither; StrataError for a fault. The players' figures are not in it: the sessions keep them."""
    if "roster" in doc:
        # The figures were read from this CSV each time, so that editing it changed a ranking already published.
        raise StrataError("roster: the players' masterpoints and handicaps are kept in the sessions' event files: "
                          "import the CSV into each session (tenace names EVENT --roster FILE), and take the roster "
                          "line out of this file")
    limits, handicap = doc.get("strata"), doc.get("handicap")
    if limits is None and handicap is None:
        return None
    if limits is not None and (not isinstance(limits, dict) or not limits
                               or not all(isinstance(v, int | float) and not isinstance(v, bool) and v >= 0
                                          for v in limits.values())):
        raise StrataError("strata name each stratum's lowest masterpoints: strata = { A = 1500, B = 500, C = 0 }")
    by = doc.get("stratum_by", "higher")
    if by not in BY:
        raise StrataError(f"stratum_by is {' or '.join(BY)}, not {by!r}")
    if handicap is not None and handicap not in HANDICAPS:
        raise StrataError(f"handicap is {' or '.join(HANDICAPS)} (of the players' handicaps), not {handicap!r}")
    ordered = sorted(((str(k), Decimal(str(v))) for k, v in (limits or {}).items()), key=lambda kv: -kv[1])
    return Strata(tuple(ordered), by, handicap)


def kept_figures(rosters: Sequence[Mapping[int, Member]]) -> dict[int, Member]:
    """Each player's masterpoints and handicap as the first session (of `rosters`, in order) that keeps any for them
    has them: a pair's stratum is fixed when the championship starts, not moved by a later roster."""
    found: dict[int, Member] = {}
    for members in rosters:
        for number, member in members.items():
            if number not in found and (member.masterpoints is not None or member.handicap is not None):
                found[number] = member
    return found


@dataclass(frozen=True)
class StratumPlace:
    stratum: str
    rank: str


def stratum_places(strata: Strata, pairs: Sequence[tuple[str, Sequence[int], Fraction]]
                   ) -> dict[str, list[StratumPlace]]:
    """Each pair's place in every stratum it ranks in, by the same score as overall: pairs are (key, players,
    score); a pair ranks in its own stratum and every stratum above it."""
    out: dict[str, list[StratumPlace]] = {key: [] for key, _, _ in pairs}
    for name, _ in strata.limits:
        field = {key: score for key, players, score in pairs if strata.eligible(name, players)}
        for placing in rank_field(name, field):
            out[placing.pair].append(StratumPlace(name, placing.text))
    return out


def handicap_places(strata: Strata, pairs: Sequence[tuple[str, Sequence[int], Fraction]]
                    ) -> dict[str, tuple[Decimal, Fraction, str]]:
    """Each pair's handicap, its handicapped percentage (percentage plus handicap) and its place by that: pairs are
    (key, players, percentage)."""
    handicapped = {key: percent + Fraction(strata.pair_handicap(players)) for key, players, percent in pairs}
    handicaps = {key: strata.pair_handicap(players) for key, players, _ in pairs}
    return {p.pair: (handicaps[p.pair], handicapped[p.pair], p.text) for p in rank_field("", handicapped)}
