"""Matchpoint scoring options (units, factoring, averages, decimals, ranking); presets.py names programs' ones."""

from __future__ import annotations

from dataclasses import dataclass
from enum import Enum
from fractions import Fraction

from tenace.scoring.model import Average
from tenace.scoring.ranking import FieldMode, Tiebreak
from tenace.scoring.rounding import Rounding

# No program publishes more decimals than this; more would only print noise.
MAX_DECIMALS = 10


class Units(Enum):
    """Law 78A scoring units."""

    MP1 = "MP1"  # international: 2 per score beaten, 1 per tie; top 2(N-1)
    NORTH_AMERICAN = "NA"  # ACBL: 1 per score beaten, 1/2 per tie; top N-1


class Factoring(Enum):
    """How a board scored N times is brought to the common top of E expected scores."""

    NONE = "none"  # raw matchpoints; the board keeps its own top 2(N-1)
    NEUBERG = "neuberg"  # M' = (M+1)E/N - 1 in MP1 units; in NA units M' = (M+1/2)E/N - 1/2
    RATIO = "ratio"  # simple scaling M' = M(E-1)/(N-1) (old programs, and the ACBL before Neuberg)


class BoardPercent(Enum):
    """What a board's percentage is of."""

    TOP = "top"  # its MPs over the board's top: (beaten + half the other equal results) / (N - 1), as factored
    # (beaten + half the equal results, itself included) / N: each result against every result of the board, its own
    # counted as a tie; in MP1 units (MP + 1) / (top + 2). A board of 2 results is 75/25, not 100/0 (the Fifth Friday
    # simultaneous's frequency tables, fifth-friday-1999-frequency.pbn).
    RESULTS = "results"


class ArtificialLines(Enum):
    """How a file's artificial (Law 12C2) lines are recognised."""

    SCORE = "score"  # by their score alone ("A6040" in a USEBIO SCORE, "A+" or "60%" in a PBN row)
    # Also a USEBIO line that kept its played SCORE but whose published points are an adjusted score's: on a board
    # of E lines with no artificial SCORE whose figures carry tenths (Compscore3 factors a board only when fewer than
    # E results are compared), a line written as two whole numbers that add up to the top (Compscore3's adjusted
    # file: "110" given 20/20 beside "-50" at 19.0). Only a file as published says so: rescoring its points away
    # loses it.
    POINTS = "points"


class UnequalBoards(Enum):
    """How a pair's total is made when pairs play different numbers of boards (its percentage is always over the
    boards it scored on)."""

    PLAIN = "plain"  # the sum of its own boards, whatever their number (Tenace, Magic Contest)
    # Brought to the most top a pair of its field (fields_of: NS or EW of a Mitchell, a Howell's one) scored on,
    # total x that top / own top: a pair that missed a board its field played is prorated, a sit-out that every
    # pair of the field has is not (Compscore3: 555 MPs over 26 boards of 27 published 576.35, while its NS pairs
    # of 18 boards beside EW of 21 publish plain sums).
    FIELD = "field"


@dataclass(frozen=True, kw_only=True)
class PublishedFigures:
    """What every published figure shares, board or total: how it is rounded to its decimals."""

    rounding: Rounding = Rounding.HALF_UP

    def __post_init__(self) -> None:
        if self.rounding is Rounding.NONE:  # every published figure has its number of decimals
            raise ValueError("matchpoint figures need a rounding rule, not NONE")


def _check_decimals(options: object, *names: str) -> None:
    for name in names:
        if not 0 <= getattr(options, name) <= MAX_DECIMALS:
            raise ValueError(f"{name} must be 0 to {MAX_DECIMALS}")


# No slots on the option classes: MatchpointOptions inherits from two of them, and two slotted bases clash.
@dataclass(frozen=True, kw_only=True)
class BoardOptions(PublishedFigures):
    """How a board is matchpointed and published: units, scope and top, factoring, artificial scores (Law 12C2,
    with 12C2(c)'s revision by the pair's session percentage), board decimals. Percentages are 0-100."""

    units: Units = Units.MP1
    factoring: Factoring = Factoring.NEUBERG
    fouled_factoring: Factoring = Factoring.NEUBERG  # Law 87 groups are always brought to the common top
    expected_results: int | None = None  # E; None: the most entries any board has in its comparison
    across_sections: bool = False  # compare a board across all sections (one common top)
    average_plus: Fraction = Fraction(60)
    average: Fraction = Fraction(50)
    average_minus: Fraction = Fraction(40)
    law_12c2c: bool = True  # own session percentage beyond 60% (A+) or below 40% (A-)
    board_mp_decimals: int = 2
    board_percent_decimals: int = 2
    board_percent_from_published_mp: bool = False
    board_percent: BoardPercent = BoardPercent.TOP
    artificial_lines: ArtificialLines = ArtificialLines.SCORE
    # Publish a board played fewer times than the session's E on its own top, factored only into the totals
    # (Compscore3: a board with a missing table shows its raw MPs); E of the board is then its traveller's lines.
    board_figures_own_top: bool = False

    def __post_init__(self) -> None:
        _check_decimals(self, "board_mp_decimals", "board_percent_decimals")
        if not self.average_minus <= self.average <= self.average_plus:
            raise ValueError("averages must be ordered: average-minus <= average <= average-plus")
        if self.expected_results is not None and self.expected_results < 1:
            raise ValueError("expected_results must be 1 or more")
        super().__post_init__()

    def average_percent(self, average: Average) -> Fraction:
        if average is Average.PLUS:
            return self.average_plus
        if average is Average.MINUS:
            return self.average_minus
        return self.average


@dataclass(frozen=True, kw_only=True)
class RankingOptions(PublishedFigures):
    """How the pairs' totals are published and ranked.

    `total_from_published_boards` adds the published (rounded) board MPs as Magic Contest does, or else
    adds the exact values and rounds only the total.
    """

    total_mp_decimals: int = 2
    total_percent_decimals: int = 2
    total_from_published_boards: bool = True
    fields: FieldMode = FieldMode.AUTO
    rank_by_section: bool = False
    rank_on_exact: bool = False  # rank on unrounded totals instead of the published ones
    # A board brought to the common top counts in the published total as its published percentage of the top,
    # not its exact MPs (Compscore3 keeps a factored result as a percentage to board_percent_decimals); the
    # session percentage stays that of the exact MPs.
    total_factored_as_percent: bool = False
    unequal_boards: UnequalBoards = UnequalBoards.PLAIN
    tiebreak: Tiebreak = Tiebreak.NONE

    def __post_init__(self) -> None:
        _check_decimals(self, "total_mp_decimals", "total_percent_decimals")
        super().__post_init__()


@dataclass(frozen=True, kw_only=True)
class MatchpointOptions(BoardOptions, RankingOptions):
    """Every choice a TD may need to reproduce another program's figures: the board options and the ranking
    options in one, with one rounding rule for both (a program rounds its board and total figures alike).

    The board engine takes only BoardOptions, the totals and ranks only RankingOptions; a session takes both.
    """


DEFAULT_OPTIONS = MatchpointOptions()

# Magic Contest as exported for the FFB: board MPs to 0.1, board percentages whole, totals to 0.1 from the
# published board MPs, session percentages to 0.01, ties broken by the pairs' own meetings.
MAGIC_CONTEST_FFB = MatchpointOptions(
    board_mp_decimals=1,
    board_percent_decimals=0,
    total_mp_decimals=1,
    total_percent_decimals=2,
    tiebreak=Tiebreak.HEAD_TO_HEAD,
)


# Compscore3 (the ABF's club scoring program) as its USEBIO files publish it (the conventions found from the
# real files in the shared oracles, each reproduced to the last decimal by tests/host/test_usebio_score.py):
# - MP1 units (top 2(E-1)); E is the most results any board has (its traveller lines, artificial ones counted).
# - The played results of a board are compared among themselves and brought to E by Neuberg; a board with a
#   missing table (fewer traveller lines than E) is published unfactored on its own top and factored only
#   into the totals (board_figures_own_top); a board with an artificial line is published factored.
# - A factored board figure is its percentage to 2 decimals (half-even), published as MPs to 1 decimal; a
#   whole number of MPs is written without decimals ("20", but "37.8").
# - An artificial score (SCORE A6060: NS then EW percentage) is that percentage of the top for each side
#   (no Law 12C2(c) revision). A line may keep its played SCORE and be given an artificial score's points: it
#   is known by them (ArtificialLines.POINTS).
# - A pair's total adds the exact MPs of full boards and the 2-decimal percentages of factored ones
#   (total_factored_as_percent), is brought to its field's boards when the pair missed boards the others of its
#   field played (UnequalBoards.FIELD; a sit-out every pair of the field has is not: the sit-out file's NS pairs
#   of 18 boards publish plain sums beside EW pairs of 21), and is rounded to 2 decimals (half-even: no tie
#   arises). The percentage is of the exact Neuberg MPs over the pair's own top (a pair that missed a board: its
#   own boards), to 2 decimals: 7EW's board 15 counts 31.7232
#   (88.12%) in its total 514.72 but 31.7222 in its 52.95%. Ranks by total, NS and EW apart in a Mitchell, tied
#   pairs sharing the place (written "6", "6").
COMPSCORE3 = MatchpointOptions(
    rounding=Rounding.HALF_EVEN,
    board_mp_decimals=1,
    board_percent_decimals=2,
    board_figures_own_top=True,
    law_12c2c=False,
    artificial_lines=ArtificialLines.POINTS,
    total_from_published_boards=False,
    total_factored_as_percent=True,
    unequal_boards=UnequalBoards.FIELD,
)


# The Fifth Friday simultaneous (an online tournament's PBN 2.0 export, fifth-friday-1999-frequency.pbn): each board
# a frequency table on its own results, not factored to a common top; a result's percentage is (beaten + half the
# equal ones, itself included) / N, to 0.1 half-up (1,298 figures of 40 boards, every one). Its TotalScoreTable's MP
# is a pair's sum of board percentages and its Percentage that sum over the pair's boards.
FIFTH_FRIDAY = MatchpointOptions(
    factoring=Factoring.NONE,
    board_percent=BoardPercent.RESULTS,
    board_percent_decimals=1,
    total_mp_decimals=1,
)
