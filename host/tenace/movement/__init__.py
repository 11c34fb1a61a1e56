"""Pairs movements: which pairs meet at which table on which boards, round by round; generated and checked."""

from tenace.movement.check import RULES, Balance, PairSummary, Problem, Report, check, nothing_to_compare
from tenace.movement.howell import MAX_HOWELL_TABLES, MIN_HOWELL_TABLES, howell
from tenace.movement.mitchell import appendix_mitchell, check_size, mitchell, relay_mitchell, skip_mitchell
from tenace.movement.model import (
    KINDS,
    MAX_BOARDS,
    MAX_BOARDS_PER_ROUND,
    MAX_ROUNDS,
    MAX_TABLES,
    MIN_TABLES,
    Encounter,
    Kind,
    Movement,
    MovementError,
    Pair,
    pair_label,
)
from tenace.movement.teams import teams
from tenace.movement.variants import arrow_switched, half_table, shortened, with_phantom

__all__ = [
    "KINDS", "MAX_BOARDS", "MAX_BOARDS_PER_ROUND", "MAX_HOWELL_TABLES", "MAX_ROUNDS", "MAX_TABLES",
    "MIN_HOWELL_TABLES", "MIN_TABLES", "RULES", "Balance", "Encounter", "Kind", "Movement", "MovementError", "Pair",
    "PairSummary", "Problem", "Report", "appendix_mitchell", "arrow_switched", "check", "check_size", "half_table",
    "howell",
    "mitchell", "nothing_to_compare", "pair_label",
    "relay_mitchell", "shortened", "skip_mitchell", "teams", "with_phantom",
]
