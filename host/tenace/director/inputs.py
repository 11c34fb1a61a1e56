"""What the director asks for, typed: where a result is, who signs and why, and each action's own input."""

from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction
from typing import Literal

Weights = tuple[tuple[Fraction, int], ...]  # (weight, NS score) pairs, the weights adding up to 1


@dataclass(frozen=True)
class Place:
    """Where a result is: table and board (either may be missing until the action needs them), the section when
    the event has several, the round when the table plays the board in several."""

    table: int | None = None
    board: int | None = None
    section: str | None = None
    round: int | None = None


@dataclass(frozen=True)
class Signature:
    """Who decides and why (Law 79C: every change is explained); `force` acts after the correction period."""

    who: str
    why: str
    force: bool = False


@dataclass(frozen=True)
class Artificial:
    """Law 12C2: each side's artificial score, A+, A, A- or a percentage of the top ("60%")."""

    ns: str
    ew: str


@dataclass(frozen=True)
class Assigned:
    """Law 12C1: weighted NS scores (an assigned score is one of weight 1); `ew_weights`, when the sides' scores need
    not balance, are East-West's own."""

    weights: Weights
    ew_weights: Weights | None = None

    @property
    def one_score(self) -> bool:
        """One NS score of weight 1 for both sides (an assigned score): what a USEBIO line can hold (a weighted or a
        split score is refused by tenace.reports.event_usebio when the file is written)."""
        return self.ew_weights is None and len(self.weights) == 1


@dataclass(frozen=True)
class Adjustment:
    place: Place
    score: Artificial | Assigned


@dataclass(frozen=True)
class Penalty:
    """A Law 90 procedural penalty: `amount` MPs ("MP") or percent of a top ("%top", of the board's with `board`)."""

    pair: str  # as the director writes it: "NS 3", "B-EW 7", a Howell's "7"
    amount: Fraction
    unit: Literal["%top", "MP"]
    section: str | None = None
    board: int | None = None


@dataclass(frozen=True)
class ResultInput:
    """A result as the table should have entered it: a contract played, a passed-out board, or not played."""

    kind: Literal["normal", "passed_out", "not_played"]
    contract: str | None = None
    declarer: str | None = None
    tricks: int | str | None = None  # 10, or relative: "=", "+1", "-2"
    lead: str | None = None


@dataclass(frozen=True)
class Correction:
    place: Place
    result: ResultInput


@dataclass(frozen=True)
class Erasure:
    place: Place


@dataclass(frozen=True)
class Keep:
    """The result a resolution keeps: its id, or its version at the place's slot."""

    text: str  # as typed, for the refusals
    id: int | None = None
    version: int | None = None


@dataclass(frozen=True)
class Resolution:
    """A conflict settled: one of its results kept, or the right one entered."""

    place: Place
    settled: Keep | ResultInput


MoveKind = Literal["late", "leave", "absent", "present", "close", "swap"]
MOVE_KINDS: tuple[MoveKind, ...] = ("late", "leave", "absent", "present", "close", "swap")


@dataclass(frozen=True)
class MovementChange:
    """A change of the movement from `first_round` on: a pair late, gone, absent or present (to `last_round`), a
    table closed, or two pairs swapped (`pair` and `other`)."""

    kind: MoveKind
    first_round: int
    pair: str | None = None
    other: str | None = None
    table: int | None = None
    last_round: int | None = None
    section: str | None = None


@dataclass(frozen=True)
class Seating:
    """A terminal seated at a table from the laptop (a spare replacing a broken one): it is let in there at once
    when it signs in. `who` signs the sign-in's history."""

    terminal: int
    table: int
    section: str
    who: str


@dataclass(frozen=True)
class Finish:
    """The session closed and its results published, to be corrected for `minutes` (Law 79C)."""

    minutes: int
