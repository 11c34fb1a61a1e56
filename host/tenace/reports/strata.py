"""Strata (ACBL's A/B/C by masterpoints: a pair ranks in its stratum and every one above) and handicaps (percentage
plus the pair's handicap), from the roster's optional columns."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from decimal import Decimal
from fractions import Fraction
from pathlib import Path
from typing import Any

from tenace.roster import read_roster
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
    members: Mapping[int, Member]  # the roster with its masterpoints and handicaps

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


def read_strata(doc: Mapping[str, Any], folder: Path) -> Strata | None:
    """The set-up's strata and handicap rule (a championship or event set-up file's keys `strata`, `stratum_by`,
    `handicap`, `roster`), None when it names neither; StrataError for a fault."""
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
    given = doc.get("roster")
    if not isinstance(given, str):
        raise StrataError("strata and handicaps read the players' masterpoints and handicaps from a roster CSV: "
                          "roster = \"FILE\"")
    path = folder / given
    try:
        members, _ = read_roster(path.read_text(encoding="utf-8"))
    except (OSError, UnicodeDecodeError) as e:
        raise StrataError(f"roster {path}: {e.strerror if isinstance(e, OSError) else e}") from None
    ordered = sorted(((str(k), Decimal(str(v))) for k, v in (limits or {}).items()), key=lambda kv: -kv[1])
    return Strata(tuple(ordered), by, handicap, {m.number: m for m in members})


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
