"""The named presets of `tenace score --preset`: a program's conventions, for the methods it scored with."""

from __future__ import annotations

from dataclasses import dataclass

from tenace.scoring.cross_imps import CrossImpOptions, CrossImpUnit
from tenace.scoring.mp_options import (
    COMPSCORE3,
    DEFAULT_OPTIONS,
    FIFTH_FRIDAY,
    MAGIC_CONTEST_FFB,
    MatchpointOptions,
)
from tenace.scoring.rounding import Rounding

MATCHPOINTS = ("mp", "mp-acbl")
EVERY_METHOD = ("mp", "mp-acbl", "butler", "cross-imps", "teams")
DEFAULT_CROSS_IMPS = CrossImpOptions()


@dataclass(frozen=True)
class Preset:
    """A program's conventions to start from, by name; the options given beside it change them one by one.

    `methods` are the `--method` values it is for, the first taken when `--method` is not given. The table of presets
    in docs/reference/score.md says, for each, which figures it rounds how and on which published files it was checked.
    """

    methods: tuple[str, ...]
    summary: str = ""  # what it sets, for --help; "" for the default, which needs none
    checked_on: str = ""  # the published files (in ../shared/oracles) it reproduces, for --help
    matchpoints: MatchpointOptions = DEFAULT_OPTIONS
    cross_imps: CrossImpOptions = DEFAULT_CROSS_IMPS


PRESETS: dict[str, Preset] = {
    "default": Preset(EVERY_METHOD),
    "magic-contest": Preset(MATCHPOINTS, "MPs to 0.1, whole board %, head-to-head tiebreak",
                            "ffb-2022-dn1-session1.pbn", matchpoints=MAGIC_CONTEST_FFB),
    # Compscore3 as its USEBIO files publish it (scoring/mp_options.COMPSCORE3 lists each convention found); its
    # Butler and cross-IMP figures are the default options'.
    "compscore3": Preset(("mp", "butler", "cross-imps"), "Compscore3's USEBIO figures: half-even, factored boards "
                         "as 2-decimal %, totals prorated to the field's boards (not for a sit-out)",
                         "usebio/compscore3-*.xml", matchpoints=COMPSCORE3),
    # The Fifth Friday simultaneous's frequency tables (scoring/mp_options.FIFTH_FRIDAY).
    "fifth-friday": Preset(MATCHPOINTS, "each board on its own results, unfactored: (beaten + half the equal ones, "
                           "itself included) / N, to 0.1 half-up", "fifth-friday-1999-frequency.pbn",
                           matchpoints=FIFTH_FRIDAY),
    # OKbridge IMP pairs: every result against every other of the board (a frequency table, Multiplicity counted),
    # averaged per comparison: the exact IMP sum over the comparisons held as a binary double and printed to 0.01
    # as C's %.2f does (Rounding.DOUBLE), the program's arithmetic (checked on okbridge-imp-pairs-01.pbn).
    "okbridge": Preset(("cross-imps",), "cross-IMPs per comparison, printed to 0.01 from a binary double (C's %.2f)",
                       "okbridge-imp-pairs-01.pbn",
                       cross_imps=CrossImpOptions(unit=CrossImpUnit.PER_COMPARISON, rounding=Rounding.DOUBLE)),
}


def preset_names() -> list[str]:
    return sorted(PRESETS)


def presets_help() -> str:
    """Each preset that sets something, with what it sets and the files it was checked on: "magic-contest: MPs to
    0.1, ... (checked on ffb-2022-dn1-session1.pbn)" (; between two)."""
    return "; ".join(f"{name}: {p.summary}" + (f" (checked on {p.checked_on})" if p.checked_on else "")
                     for name, p in sorted(PRESETS.items()) if p.summary)
