"""What an IMP-scored board holds: North-South scores with multiplicity, and Law 12C2 artificial awards."""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from enum import Enum
from fractions import Fraction

# Law 12C2(b): average plus / minus at IMP play is plus / minus 3 IMPs (a Tournament Organizer may vary it).
AVERAGE_PLUS_IMPS = 3
AVERAGE_IMPS = 0
AVERAGE_MINUS_IMPS = -3


class Award(Enum):
    """Law 12C2(a) artificial adjusted scores, by responsibility for the irregularity."""

    AVERAGE_PLUS = "A+"  # in no way at fault
    AVERAGE = "A"  # only partly at fault
    AVERAGE_MINUS = "A-"  # directly at fault

    @property
    def imps(self) -> int:
        return {"A+": AVERAGE_PLUS_IMPS, "A": AVERAGE_IMPS, "A-": AVERAGE_MINUS_IMPS}[self.value]

    @classmethod
    def parse(cls, text: str) -> Award:
        """From what a director types: "A+", "60", "avg+", "A", "50", "A-", "40"."""
        t = text.strip().upper().replace("AVG", "A").replace("AVERAGE", "A").replace(" ", "")
        t = {"60": "A+", "60%": "A+", "50": "A", "50%": "A", "40": "A-", "40%": "A-", "A=": "A"}.get(t, t)
        try:
            return cls(t)
        except ValueError:
            raise ValueError(f"artificial score must be A+, A or A-, not {text!r}") from None


@dataclass(frozen=True, slots=True, init=False)
class Score:
    """A North-South score obtained `count` times on the board (a multiplicity, not `count` entries)."""

    ns: int
    count: int = 1
    # A Law 12C1 assigned adjusted score: a real score, which Butler may keep out of the datum.
    assigned: bool = False

    def __init__(self, ns: int, count: int = 1, assigned: bool = False) -> None:
        # Written out: a board builds one per distinct score, and setting the slots through their descriptors
        # costs about half the generated frozen __init__ (object.__setattr__ per field, then __post_init__).
        if count < 1:
            raise ValueError(f"a score occurs at least once, not {count} times")
        _set_ns(self, ns)
        _set_count(self, count)
        _set_assigned(self, assigned)


_set_ns = Score.__dict__["ns"].__set__
_set_count = Score.__dict__["count"].__set__
_set_assigned = Score.__dict__["assigned"].__set__


@dataclass(frozen=True, slots=True)
class ArtificialImps:
    """A Law 12C2 artificial adjusted score, in IMPs per side; the two sides need not balance (A+ / A-)."""

    ns_imps: Fraction | int
    ew_imps: Fraction | int
    count: int = 1

    def __post_init__(self) -> None:
        if self.count < 1:
            raise ValueError(f"an artificial score occurs at least once, not {self.count} times")

    @classmethod
    def awards(cls, ns: Award | str, ew: Award | str, count: int = 1) -> ArtificialImps:
        """The IMPs of Law 12C2(b) for the awards to each side, e.g. ArtificialImps.awards("A+", "A-")."""
        ns_award = ns if isinstance(ns, Award) else Award.parse(ns)
        ew_award = ew if isinstance(ew, Award) else Award.parse(ew)
        return cls(ns_award.imps, ew_award.imps, count)


Entry = Score | ArtificialImps


@dataclass(frozen=True, slots=True)
class ImpLine:
    """IMPs for one result (each of its `count` occurrences) on a board: for the NS pair and for the EW pair."""

    ns_imps: Fraction
    ew_imps: Fraction


def as_entries(entries: Iterable[Entry | int]) -> list[Entry]:
    """Plain ints are North-South scores, once each."""
    out: list[Entry] = []
    plain: dict[int, Score] = {}  # Score is immutable: one per distinct int keeps 10,000-result boards cheap
    for e in entries:
        if isinstance(e, (Score, ArtificialImps)):
            out.append(e)
        elif isinstance(e, int) and not isinstance(e, bool):
            score = plain.get(e)
            if score is None:
                score = plain[e] = Score(e)
            out.append(score)
        else:
            raise not_an_entry(e)
    return out


def not_an_entry(e: object) -> TypeError:
    return TypeError(f"a board entry is a Score, an ArtificialImps or an int NS score, not {e!r}")
