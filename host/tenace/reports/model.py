"""What a report holds: pairs with their names, boards and their travellers, adjustments, rankings, a team match."""

from __future__ import annotations

from dataclasses import dataclass, field
from decimal import Decimal

from tenace.scoring.codec import split_text, weighted_text
from tenace.scoring.left_out import LeftOut

NS = "NS"
EW = "EW"


@dataclass(frozen=True)
class Pair:
    """A pair as directors name it: `NS 3` in a Mitchell, `A-EW 7` where there are several sections, `7` in a Howell."""

    number: str  # as the event or the file numbers it: "3"
    direction: str | None = None  # NS or EW when the pair keeps its direction (a Mitchell); None in a Howell
    section: str | None = None  # the section's letter, only when the event has several sections
    names: str | None = None  # the players, "Philippe CHESNY - Rémi LEGRAS", when known
    members: tuple[str, ...] = ()  # the players' member ids in order (MemberID1, MemberID2...), "" for one unknown

    @property
    def label(self) -> str:
        """The pair's name without the players: `NS 3`, `A-EW 7`, `7`, `A-7`."""
        name = f"{self.direction} {self.number}" if self.direction else self.number
        return f"{self.section}-{name}" if self.section else name

    def __str__(self) -> str:
        """The name with the players beside it when they are known: `NS 3 (Ann Lee - Bob Ray)`."""
        return f"{self.label} ({self.names})" if self.names else self.label

    @property
    def member_text(self) -> str:
        """The member ids as the text report shows them: "[00203787 00835093]", "-" for one unknown; "" for none."""
        return f"[{' '.join(m or '-' for m in self.members)}]" if self.members else ""


def section_shown(section: str | None, sections: int) -> str | None:
    """The section letter a pair's name carries: only when the event has several sections."""
    return section if section and sections > 1 else None


@dataclass(frozen=True)
class Adjustment:
    """A director's score instead of a played result.

    Law 12C2 artificial scores, side by side ("A+", "A", "A-" or a percentage of the top, "65%"), or a Law
    12C1(c) weighted score ("0.6:420 0.4:-50": weights of NS scores) in `weights`, and in `ew_weights` East-West's
    own when the two sides' scores need not balance (Law 12C1(b)).
    """

    ns: str = ""
    ew: str = ""
    weights: str = ""
    ew_weights: str = ""

    @property
    def text(self) -> str:
        """ "A+/A-", "60%/40%", "weighted NS 3/5:420 2/5:-50", "assigned NS +420", or a split's two."""
        if self.weights and self.ew_weights:
            return split_text(self.weights, self.ew_weights)
        return weighted_text(self.weights) if self.weights else f"{self.ns}/{self.ew}"


@dataclass(frozen=True)
class TravellerLine:
    """One result on a board's traveller, with the figures its method gives each side (None when it gives none).

    A played board has a contract ("4SX", "Pass" when passed out, PBN's form), a director's score has an
    adjustment, and a board not played has neither.
    """

    table: int | None
    round: int | None
    ns: Pair | None
    ew: Pair | None
    contract: str | None = None
    declarer: str | None = None  # N, E, S or W
    tricks: int | None = None  # declarer's total tricks
    lead: str | None = None  # the opening lead, "SK", when it was keyed
    ns_score: int | None = None
    adjustment: Adjustment | None = None
    count: int = 1  # how many tables had this result (a PBN Multiplicity)
    mp_ns: Decimal | None = None
    mp_ew: Decimal | None = None
    percent_ns: Decimal | None = None
    percent_ew: Decimal | None = None
    imp_ns: Decimal | None = None
    imp_ew: Decimal | None = None
    marked: str = ""  # who changed the result after the table: "TD" for the director's entry (Law 79C, 12C)

    @property
    def passed_out(self) -> bool:
        return self.contract == "Pass"

    @property
    def not_played(self) -> bool:
        return self.contract is None and self.adjustment is None


@dataclass(frozen=True)
class Room:
    """One room's result on a team-match board."""

    contract: str
    declarer: str
    tricks: str
    ns_score: int


@dataclass(frozen=True)
class RoomsResult:
    """A team-match board: both rooms and the IMPs each team won on it."""

    open: Room | None  # None: a board played in the other room only, scored by the IMPs its file gives
    closed: Room | None
    difference: int | None  # open-room NS minus closed-room NS; None for an artificial board
    imp_home: Decimal
    imp_away: Decimal


@dataclass(frozen=True)
class HandRecord:
    """A board's deal from North ("N:AKQ.JT9.876.5432 ...") and, once analysed, its double-dummy tricks and par."""

    deal: str
    double_dummy: dict[str, dict[str, int]] | None = None  # declarer (N E S W) -> strain (C D H S NT) -> tricks
    par_score: int | None = None  # NS's score at par
    par_contracts: tuple[str, ...] = ()  # "4S N =", "4CX S -1"

    def hands(self) -> dict[str, str]:
        """Each seat's hand as PBN writes it: {"N": "AKQ.JT9.876.5432", ...}."""
        return dict(zip("NESW", self.deal[2:].split(" "), strict=True))


@dataclass(frozen=True)
class Board:
    """A board: its traveller (pairs) or its two rooms (teams), and what the method compared it to."""

    board: int
    lines: tuple[TravellerLine, ...] = ()
    dealer: str | None = None
    vulnerable: str | None = None
    top: int | None = None  # matchpoints: the top on the board
    expected: int | None = None  # matchpoints: the results the board was factored to
    datum: int | None = None  # Butler: the datum
    results: int | None = None  # cross-IMPs: the results compared
    rooms: RoomsResult | None = None
    hand: HandRecord | None = None  # the deal and its analysis, when the event file keeps them


@dataclass(frozen=True)
class RankingLine:
    """A pair's place in its field with its total: matchpoints and percentage, or IMPs."""

    field: str  # "NS", "EW", or "" when the pairs are ranked as one field
    rank: str  # "3", or "3=" for a shared place
    pair: Pair
    directions: str  # the directions the pair sat: "NS", "EW" or "EW/NS"
    boards: int
    mp: Decimal | None = None
    percent: Decimal | None = None
    imps: Decimal | None = None
    tiebreak: int | None = None  # tiebreak points when a tie had to be broken
    penalty: Decimal | None = None  # Law 90: MPs taken off the total (already out of `mp` and `percent`)


@dataclass(frozen=True)
class TeamMatch:
    """A team match's totals: IMPs with any carry-over, and VPs."""

    home: str  # the home team (NS in the open room): its HomeTeam tag, "China", else its open-room NS, "Lee - Ray"
    boards: int
    carry_over: Decimal
    imps_home: Decimal
    imps_away: Decimal
    vp_home: Decimal | None = None
    vp_away: Decimal | None = None
    away: str = ""  # the away team: its VisitTeam tag, "USA 1", else its open-room EW, "Kim - Orr"


Setting = str | int | None


@dataclass(frozen=True)
class Report:
    """A scored session or match, ready for any writer (text, JSON, PBN, the terminals)."""

    method: str  # mp, mp-acbl, butler, cross-imps, teams
    title: str = ""
    settings: dict[str, Setting] = field(default_factory=dict)  # how it was scored, and how much was
    boards: tuple[Board, ...] = ()
    ranking: tuple[RankingLine, ...] = ()
    match: TeamMatch | None = None
    notes: tuple[str, ...] = ()
    problems: tuple[LeftOut, ...] = ()  # what the input held that could not be scored (`tenace score`)
    # The notes as the public pages show them where they differ (None: the same): what kind of score the director
    # gave and which pair was penalised, without the director's own reasons ("Law 90: mobile phone"), which stay
    # for the director (the console, tenace results).
    public_notes: tuple[str, ...] | None = None

    def shown_notes(self) -> tuple[str, ...]:
        """The notes for the public pages: the director's reasons left out."""
        return self.notes if self.public_notes is None else self.public_notes

    @property
    def imps(self) -> bool:
        """Whether the pairs' figures are IMPs (Butler, cross-IMPs) rather than matchpoints."""
        return self.method in ("butler", "cross-imps")

    def pairs(self) -> list[Pair]:
        """Every pair named in the report, once, in the order they first appear (ranking first)."""
        seen: dict[str, Pair] = {}
        for p in self.ranking:
            seen.setdefault(p.pair.label, p.pair)
        for b in self.boards:
            for line in b.lines:
                for pair in (line.ns, line.ew):
                    if pair is not None:
                        seen.setdefault(pair.label, pair)
        return list(seen.values())
