"""The results of a pairs session as the matchpoint engine sees them: one entry per table and board, plus penalties."""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from enum import Enum
from fractions import Fraction

from tenace_rules.board import vulnerability
from tenace_rules.notation import parse_contract
from tenace_rules.score import ns_score

NS = "NS"
EW = "EW"


class Average(Enum):
    """Law 12C2(a) artificial adjusted scores; their percentages are options (60/50/40 by default)."""

    PLUS = "A+"
    EVEN = "A"
    MINUS = "A-"


@dataclass(frozen=True, slots=True)
class Played:
    """A table result: the Law 77 score from North-South's viewpoint (a passed-out board is 0)."""

    ns_score: int

    @classmethod
    def from_contract(cls, contract: str, declarer: str, tricks: int, board: int, vul: str | None = None) -> Played:
        """Score by the shared Law 77 code; vulnerability from the board number (Law 2) unless given."""
        parsed = parse_contract(contract)
        if parsed.passed_out:
            return cls(0)
        return cls(ns_score(parsed, declarer, vul if vul is not None else vulnerability(board), tricks))


@dataclass(frozen=True, slots=True)
class NotPlayed:
    """The board was not played at this table and no score was given: it counts for neither pair."""


@dataclass(frozen=True, slots=True)
class Artificial:
    """Law 12C2 artificial adjusted score, one per side (non-balancing allowed: A+/A-, A+/A+...).

    A side is an `Average` (whose percentage comes from the options and Law 12C2(c)) or an explicit
    percentage of the top (e.g. Fraction(65) for a regulation's "average plus is 65%").
    """

    ns: Average | Fraction
    ew: Average | Fraction

    def __post_init__(self) -> None:
        for side in (self.ns, self.ew):
            if isinstance(side, Fraction) and not 0 <= side <= 100:
                raise ValueError(f"an artificial score is 0 to 100% of the top, not {side}%")


@dataclass(frozen=True, slots=True)
class Weighted:
    """Law 12C1(c) weighted assigned score: NS scores with weights summing to 1 (60% of +420, 40% of -50)."""

    components: tuple[tuple[Fraction, int], ...]

    def __post_init__(self) -> None:
        if not self.components:
            raise ValueError("a weighted score needs at least one component")
        if any(w <= 0 for w, _ in self.components):
            raise ValueError("each weight of a weighted score must be positive")
        if sum(w for w, _ in self.components) != 1:
            raise ValueError("the weights of a weighted score must add up to 1 (100%)")

    @classmethod
    def of(cls, *parts: tuple[Fraction | int | str, int]) -> Weighted:
        """Weighted.of(("3/5", 420), ("2/5", -50)): weights as fractions, ints or fraction text."""
        return cls(tuple((Fraction(w), score) for w, score in parts))


@dataclass(frozen=True, slots=True)
class Split:
    """Law 12C1(b): assigned scores that need not balance, one for each side (an assigned score is a Weighted of one
    component). Each side is compared with its own field on its own score: North-South's with the other NS
    scores as if the table's result were `ns`, East-West's with the other EW scores as if it were `ew`."""

    ns: Weighted
    ew: Weighted


Outcome = Played | NotPlayed | Artificial | Weighted | Split


def weight_parts(text: str) -> tuple[tuple[Fraction, int], ...]:
    """Weights of NS scores as the event file and tenace report write them, "1:620" or "3/5:620 2/5:-100", as
    (weight, NS score) pairs."""
    return tuple((Fraction(w), int(s)) for w, _, s in (part.partition(":") for part in text.split()))


def weights_text(parts: Iterable[tuple[Fraction, int]]) -> str:
    """(weight, NS score) pairs in the form `weight_parts` reads: "3/5:620 2/5:-100"."""
    return " ".join(f"{w}:{s}" for w, s in parts)


@dataclass(frozen=True, slots=True)
class BoardResult:
    """What happened on one board at one table, with who sat North-South and East-West.

    Pair ids must name a pair in the whole session (qualify them, e.g. "A7" or "7NS", when a
    Mitchell gives NS and EW pairs the same numbers). `fouled_group` marks Law 87 groups: results of
    a board are compared only with results of the same group (None: the board in its one form).
    """

    section: str
    table: int
    round: int
    board: int
    ns_pair: str
    ew_pair: str
    outcome: Outcome
    fouled_group: str | None = None

    def __post_init__(self) -> None:
        if self.board < 1:
            raise ValueError(f"board number must be 1 or more, not {self.board}")
        if self.ns_pair == self.ew_pair:
            raise ValueError(f"pair {self.ns_pair} cannot play against itself (board {self.board})")


class PenaltyUnit(Enum):
    MATCHPOINTS = "MP"  # in the units of the session (MP1 or North American)
    PERCENT_OF_TOP = "%top"  # a share of a board's top, e.g. 25% of a top


@dataclass(frozen=True, slots=True)
class Penalty:
    """Law 90 procedural penalty: a separate entry against one pair, never mixed into a table result.

    With `board` given, PERCENT_OF_TOP is taken of that board's top, else of the session's common top.
    """

    pair: str
    amount: Fraction
    unit: PenaltyUnit = PenaltyUnit.PERCENT_OF_TOP
    board: int | None = None
    reason: str = ""

    def __post_init__(self) -> None:
        if self.amount < 0:
            raise ValueError("a penalty is a positive amount taken off the pair's total")
