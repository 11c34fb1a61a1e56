"""`tenace score`: rescore a PBN or USEBIO file from its raw results (matchpoints, Butler, cross-IMPs or teams)."""

from __future__ import annotations

import argparse
import logging
import sys
from dataclasses import replace
from fractions import Fraction
from pathlib import Path
from typing import Any

from tenace.commands.options import cannot_write, in_range, output_file
from tenace.errors import UsageError
from tenace.pbn.reader import PbnError, PbnGame, pbn_games, read_pbn
from tenace.pbn.results import NothingScored, PbnResultError, team_match
from tenace.reports.explain import explain_board
from tenace.reports.json import write_json
from tenace.reports.model import Report
from tenace.reports.pbn import write_report_pbn
from tenace.reports.rescore import butler_report, cross_imps_report, matchpoint_report, team_report
from tenace.reports.rescore_usebio import usebio_report
from tenace.reports.text import write_text
from tenace.scoring.butler import ButlerOptions
from tenace.scoring.cross_imps import CrossImpOptions, CrossImpUnit
from tenace.scoring.left_out import LeftOut, ScoredAsGiven
from tenace.scoring.mp_options import MAX_DECIMALS, BoardPercent, Factoring, MatchpointOptions, UnequalBoards, Units
from tenace.scoring.presets import PRESETS, preset_names, presets_help
from tenace.scoring.ranking import FieldMode, Tiebreak
from tenace.scoring.rounding import DATUM_ROUNDINGS, MP_ROUNDINGS, Rounding
from tenace.scoring.teams import TeamMatchOptions
from tenace.usebio.reader import UsebioError, is_usebio, parse_usebio
from tenace.usebio.rewrite import rewrite

log = logging.getLogger(__name__)

HELP = "rescore a PBN or USEBIO file from its raw results and print every board and the ranking"
METHODS = ("mp", "mp-acbl", "butler", "cross-imps", "teams")
# Why a pairs method has nothing to work on in a team match's two results per board.
PAIRS_ONLY = {"mp": "matchpoints rank a field of pairs on each board's traveller",
              "mp-acbl": "matchpoints rank a field of pairs on each board's traveller",
              "butler": "Butler IMPs need a field's results per board for a datum",
              "cross-imps": "cross-IMPs compare a field's results per board"}
EPILOG = """\
methods:
  mp          Law 78A matchpoints, international units (2 per score beaten, 1 per tie)
  mp-acbl     Law 78A matchpoints, North American units (1 per score beaten, 1/2 per tie)
  butler      IMP pairs against a datum (trimmed mean of the NS scores, rounded to 10)
  cross-imps  IMP pairs, every score against every other (with PBN Multiplicity)
  teams       two rooms per board (open room first): IMPs, the match total and WBF VPs

Only contract, declarer and result (A+/A/A- or 60% for artificial scores, +620 or "3/5:620 2/5:-100"
for assigned ones, NP for a board not played) are read; the file's computed columns are ignored (a
row's own score only stands in for a contract that cannot be read, below) and everything is
recomputed with the shared Law 77. A TotalScoreTable's Penalty column (Law 90: MPs
taken off a pair's total, as tenace report writes it) is taken off the matchpoint totals again.

A score table with a Multiplicity column (a frequency table: one row for that many equal results)
is matchpointed row by row on all its results (top 2(N-1), N counting multiplicities); with no
pairs named there are per-board figures and no ranking.

A row or team room whose contract or result cannot be read (a contract 8S, no result) is scored by
the score the file gives it (Score_NS, a Score tag "NS +620"), as the program that wrote it did;
without one, the row is left out of its board, which is scored on the rows that remain (factored
to the common top, Law 78), and a team board with one room is left out of the match. Each is
listed on stderr (file:line, board, row, why) and under "problems" in --json, and the exit code is
still 0; --strict refuses the file instead (exit 2).

A USEBIO 1.2 file (an XML document whose root is <USEBIO>, whatever its name) is scored by its EVENT_TYPE:
MP_PAIRS by matchpoints (mp, or mp-acbl), BUTLER_PAIRS by Butler, CROSS_IMP by cross-IMPs; another type is
refused. Its travellers' scores are read (SCORE, or A6040 for an artificial score: NS then EW percentage) and
every computed figure is recomputed; --usebio OUT writes the file back with only those changed. --preset
compscore3 reproduces the figures Compscore3 publishes (docs/reference/score.md lists its conventions).

examples:
  tenace score session.pbn
  cat session.pbn | tenace score -
  tenace score session.pbn --preset magic-contest --json > scores.json
  tenace score pairs.pbn --method cross-imps --unit per-comparison
  tenace score okbridge.pbn --preset okbridge
  tenace score match.pbn --method teams --pbn rescored.pbn
  tenace score club-night.xml --preset compscore3 --usebio rescored.xml"""


def register(sub: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    p = sub.add_parser("score", help=HELP, description=HELP, epilog=EPILOG,
                       formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("file", type=Path, help="the PBN file (UTF-8 or Latin-1) or USEBIO file, or - to read it from "
                                          "standard input")
    p.add_argument("--method", choices=METHODS,
                   help="how to score (default mp, or the method of --preset; a USEBIO file: its EVENT_TYPE's method)")
    p.add_argument("--json", action="store_true", help="print one JSON document instead of text")
    p.add_argument("--pbn", type=Path, metavar="OUT", help="also write the rescored file as PBN 2.1")
    p.add_argument("--usebio", type=Path, metavar="OUT",
                   help="a USEBIO file: also write it back with every computed figure recomputed")
    p.add_argument("--section", metavar="S",
                   help="a USEBIO file with several <SECTION>s (as tenace report --usebio writes them): the one to "
                        "score")
    p.add_argument("--explain", type=int, metavar="BOARD",
                   help="print how each figure of that board was made (results compared, top, factoring, rounding "
                        "step by step) instead of the report")
    p.add_argument("--strict", action="store_true",
                   help="refuse a file with any row or board that cannot be scored (exit 2) instead of leaving it out")
    p.add_argument("--preset", choices=preset_names(),
                   help=f"a program's conventions to start from ({presets_help().replace('%', '%%')})")
    mp = p.add_argument_group("matchpoints (mp, mp-acbl)")
    mp.add_argument("--factoring", choices=[f.value for f in Factoring],
                    help="bring boards played fewer times to the common top (default neuberg)")
    mp.add_argument("--expected", type=int, metavar="E", help="results a board should have (default: the most any has)")
    mp.add_argument("--mp-decimals", type=int, metavar="N", help="decimals of board matchpoints")
    mp.add_argument("--percent-decimals", type=int, metavar="N", help="decimals of board percentages")
    mp.add_argument("--total-decimals", type=int, metavar="N", help="decimals of total matchpoints and percentages")
    mp.add_argument("--rounding", choices=[r.value for r in MP_ROUNDINGS], help="how ties round (default half-up)")
    mp.add_argument("--board-percent", choices=[b.value for b in BoardPercent],
                    help="a board's percentage: of its top (default), or of its results, each result's own counted "
                         "as a tie ((beaten + half the equal ones) / N)")
    mp.add_argument("--unequal-boards", choices=[u.value for u in UnequalBoards],
                    help="pairs with fewer boards: plain sums (default), or totals brought to the most boards of "
                         "their field")
    mp.add_argument("--fields", choices=[f.value for f in FieldMode], help="rank NS/EW apart or as one field")
    mp.add_argument("--tiebreak", choices=[t.value for t in Tiebreak], help="break tied places (default none)")
    imp = p.add_argument_group("IMPs (butler, cross-imps)")
    imp.add_argument("--unit", choices=[u.value for u in CrossImpUnit],
                     help="cross-IMPs as a total, per score or per comparison (default per-comparison)")
    imp.add_argument("--trim", type=int, metavar="K",
                     help="Butler: drop the K highest and K lowest scores from the datum (default 1)")
    imp.add_argument("--trim-percent", type=int, metavar="P",
                     help="Butler: drop P%% of the scores at each end instead of --trim")
    imp.add_argument("--datum-rounding", choices=[r.value for r in DATUM_ROUNDINGS],
                     help="Butler datum rounding to 10 (default half-up)")
    teams = p.add_argument_group("teams")
    teams.add_argument("--carry-over", type=_imps_given, metavar="IMPS",
                       help="IMPs the home team (NS in the open room) brings into the match; negative for the away")
    teams.add_argument("--vp-boards", type=int, metavar="N", help="boards the VP scale is for (default: boards scored)")
    p.set_defaults(run=run)


# The options of one scoring method (argparse dest: the methods it is for), and their defaults.
METHOD_OPTIONS: dict[str, tuple[str, ...]] = {
    **{dest: ("mp", "mp-acbl") for dest in ("factoring", "expected", "mp_decimals", "percent_decimals",
                                            "total_decimals", "rounding", "board_percent", "unequal_boards",
                                            "fields", "tiebreak")},
    "unit": ("cross-imps",),
    **{dest: ("butler",) for dest in ("trim", "trim_percent", "datum_rounding")},
    **{dest: ("teams",) for dest in ("carry_over", "vp_boards")},
}
DEFAULTS: dict[str, Any] = {"preset": "default", "trim": 1,
                            "trim_percent": 0, "datum_rounding": Rounding.HALF_UP.value,
                            "carry_over": Fraction(0)}


def _imps_given(text: str) -> Fraction:
    """--carry-over: IMPs as 12, -3.5 or 7/2 (argparse's own Fraction would let 1/0 through as a crash)."""
    try:
        return Fraction(text)
    except (ValueError, ZeroDivisionError):
        raise argparse.ArgumentTypeError(f"IMPs as a number (12, -3.5, 7/2), not {text!r}") from None


def check_options(args: argparse.Namespace, usebio: bool = False) -> None:
    """Refuse, by the option's name, an option of another method and a value out of range; then fill in defaults
    (the method of --preset when --method is not given)."""
    if args.preset is not None:
        methods = PRESETS[args.preset].methods
        if args.method is None:
            args.method = methods[0]
        elif args.method not in methods:
            raise UsageError(f"--preset is for --method {' or '.join(methods)}, not {args.method} "
                             f"(--preset {args.preset})")
    args.method = args.method or "mp"
    for dest, methods in METHOD_OPTIONS.items():
        if getattr(args, dest) is not None and args.method not in methods:
            raise UsageError(f"--{dest.replace('_', '-')} is for --method {' or '.join(methods)}, "
                             f"not {args.method}")
    if args.expected is not None:
        in_range("--expected", args.expected, 1)
    for dest in ("mp_decimals", "percent_decimals", "total_decimals"):
        if getattr(args, dest) is not None:
            in_range(f"--{dest.replace('_', '-')}", getattr(args, dest), 0, MAX_DECIMALS, unit="decimals")
    if args.trim is not None and args.trim_percent is not None:
        raise UsageError("--trim or --trim-percent, not both")
    if args.trim is not None:
        in_range("--trim", args.trim, 0)
    if args.trim_percent is not None and not 0 <= args.trim_percent < 50:
        raise UsageError(f"--trim-percent is 0 to 49 (a percentage at each end), not {args.trim_percent}")
    if args.vp_boards is not None:
        in_range("--vp-boards", args.vp_boards, 1)
    for dest, value in DEFAULTS.items():
        if getattr(args, dest) is None:
            setattr(args, dest, 0 if dest == "trim" and args.trim_percent else value)
    if args.explain is not None and args.json:
        raise UsageError("--explain prints a board's steps as text: leave out --json")
    if args.pbn is not None:
        if usebio:
            raise UsageError("--pbn writes a PBN file back: for a USEBIO file use --usebio OUT")
        output_file("--pbn", args.pbn, not_same_as=None if from_stdin(args) else args.file)
    if args.usebio is not None:
        if not usebio:
            raise UsageError("--usebio writes a USEBIO file back: the input is PBN (use --pbn OUT)")
        output_file("--usebio", args.usebio, not_same_as=None if from_stdin(args) else args.file)


STDIN = "<stdin>"  # how messages name standard input (`tenace score -`)


def from_stdin(args: argparse.Namespace) -> bool:
    return str(args.file) == "-"


def read_input(args: argparse.Namespace) -> bytes | None:
    """Standard input's bytes for `-` (refused when it is a terminal), else None: the file is read by its reader."""
    if not from_stdin(args):
        return None
    if sys.stdin is None or sys.stdin.isatty():
        raise UsageError("- reads the PBN or USEBIO file from standard input, which is a terminal: pipe a file in "
                         "(cat session.pbn | tenace score -) or name it (tenace score session.pbn)")
    try:
        return sys.stdin.buffer.read()
    except OSError as e:
        raise UsageError(f"{STDIN}: cannot read standard input: {e.strerror or e}") from None


def read_games(args: argparse.Namespace, data: bytes | None) -> list[PbnGame]:
    """The games of the file, or of standard input's bytes (refused when empty)."""
    if data is None:
        return read_pbn(args.file)
    return pbn_games(data, empty="standard input is empty: pipe a PBN file in (cat session.pbn | tenace score -)")


def usebio_bytes(args: argparse.Namespace, data: bytes | None) -> bytes | None:
    """The input's bytes when it is a USEBIO file (known by its content: a <USEBIO> root), else None."""
    if data is None:
        try:
            with args.file.open("rb") as f:
                if not is_usebio(f.read(4096)):
                    return None
            return bytes(args.file.read_bytes())
        except OSError:
            return None  # the PBN reader says why it cannot be read
    return data if is_usebio(data) else None


def run(args: argparse.Namespace) -> int:
    data = read_input(args)
    usebio = usebio_bytes(args, data)
    if usebio is not None:
        return run_usebio(args, usebio)
    check_options(args)
    if args.section is not None:
        raise UsageError("--section chooses a section of a USEBIO file; a PBN file's sections are scored together")
    name = STDIN if from_stdin(args) else str(args.file)
    try:
        games = read_games(args, data)
        if args.method != "teams" and team_match(games):
            raise UsageError(f"{name}: no game in it has a ScoreTable: there are no results to score by --method "
                             f"{args.method} ({PAIRS_ONLY[args.method]}), only a team match's rooms: "
                             "use --method teams")
        report = METHOD_RUNNERS[args.method](games, args)
    except NothingScored as e:
        write_problems(name, e.problems, sys.stderr, summary=False)
        raise UsageError(f"{name}: {e}") from None
    except (PbnError, PbnResultError, ValueError) as e:  # options are checked: what is left is the file's
        raise UsageError(f"{name}: {e}") from None
    if report.problems and args.strict:
        write_problems(name, report.problems, sys.stderr, summary=False)
        given = any(isinstance(p, ScoredAsGiven) for p in report.problems)
        raise UsageError(f"{name}: {_count(report.problems)} that cannot be scored (--strict; without it they are "
                         f"left out{', or scored by the score the file gives them,' if given else ''} and the rest "
                         "is scored)")
    if args.explain is not None:
        explain(report, args, name)
    elif args.json:
        write_json(report, sys.stdout)
    else:
        write_text(report, sys.stdout)
    if args.pbn:
        try:
            with args.pbn.open("w", encoding="utf-8") as out:
                write_report_pbn(games, report, out)
        except OSError as e:
            raise cannot_write("--pbn", args.pbn, e) from None
        log.info("wrote %s", args.pbn)
    if report.problems:  # after the report, where the user's eye ends up
        write_problems(name, report.problems, sys.stderr, summary=True)
    return 0


def run_usebio(args: argparse.Namespace, data: bytes) -> int:
    """A USEBIO event: rescored by its EVENT_TYPE's method, printed, and written back by --usebio OUT."""
    name = STDIN if from_stdin(args) else str(args.file)
    try:
        event = parse_usebio(data, args.section)
    except UsebioError as e:
        raise UsageError(f"{name}: {e}") from None
    allowed = (event.method, "mp-acbl") if event.method == "mp" else (event.method,)
    if args.method is not None and args.method not in allowed:
        raise UsageError(f"{name}: its EVENT_TYPE {event.event_type} is scored by --method "
                         f"{' or '.join(allowed)}, not {args.method}")
    args.method = args.method or event.method
    check_options(args, usebio=True)
    try:
        report, figures = usebio_report(event, mp_options(args), butler_options(args), cross_imp_options(args))
    except (UsebioError, ValueError) as e:
        raise UsageError(f"{name}: {e}") from None
    if args.explain is not None:
        explain(report, args, name)
    elif args.json:
        write_json(report, sys.stdout)
    else:
        write_text(report, sys.stdout)
    if args.usebio:
        try:
            args.usebio.write_bytes(rewrite(data, event.method, figures, args.section))
        except OSError as e:
            raise cannot_write("--usebio", args.usebio, e) from None
        log.info("wrote %s", args.usebio)
    return 0


def explain(report: Report, args: argparse.Namespace, name: str) -> None:
    """--explain BOARD: the steps behind each figure of the board, in place of the report."""
    try:
        done = explain_board(report, args.explain, mp_options(args), butler_options(args), cross_imp_options(args))
    except ValueError as e:
        raise UsageError(f"{name}: --explain {args.explain}: {e}") from None
    sys.stdout.write("\n".join(done.lines) + "\n")
    if not done.agrees:
        sys.stdout.write("Some figure above is not the report's: a step not shown here (Law 12C2(c), a Law 87 group, "
                         "a split score) changed it.\n")


def _count(problems: tuple[LeftOut, ...] | list[LeftOut]) -> str:
    return f"{len(problems)} row{'s' if len(problems) != 1 else ''} or board{'s' if len(problems) != 1 else ''}"


def write_problems(file: str, problems: tuple[LeftOut, ...] | list[LeftOut], err: Any, summary: bool) -> None:
    """What was left out or scored by the file's own score, one line each (`file:line: board B row R: why`), after a
    count when the rest is scored."""
    if summary:
        given = [p for p in problems if isinstance(p, ScoredAsGiven)]
        left = [p for p in problems if not isinstance(p, ScoredAsGiven)]
        counts = [f"{_count(left)} left out"] if left else []
        if given:
            plural = "s" if len(given) != 1 else ""
            counts.append(f"{len(given)} row{plural} or room{plural} scored by the file's own score")
        err.write(f"tenace score: {file}: {' and '.join(counts)}, the rest scored:\n")
    for problem in problems:
        err.write(f"  {problem.text(file)}\n")


# --- from the options to the report ---------------------------------------------------------------------------

def mp_options(args: argparse.Namespace) -> MatchpointOptions:
    options = PRESETS[args.preset].matchpoints
    changes: dict[str, Any] = {"units": Units.NORTH_AMERICAN if args.method == "mp-acbl" else Units.MP1}
    if args.factoring:
        changes["factoring"] = Factoring(args.factoring)
    if args.expected is not None:
        changes["expected_results"] = args.expected
    if args.mp_decimals is not None:
        changes["board_mp_decimals"] = args.mp_decimals
    if args.percent_decimals is not None:
        changes["board_percent_decimals"] = args.percent_decimals
    if args.total_decimals is not None:
        changes["total_mp_decimals"] = changes["total_percent_decimals"] = args.total_decimals
    if args.rounding:
        changes["rounding"] = Rounding(args.rounding)
    if args.board_percent:
        changes["board_percent"] = BoardPercent(args.board_percent)
    if args.unequal_boards:
        changes["unequal_boards"] = UnequalBoards(args.unequal_boards)
    if args.fields:
        changes["fields"] = FieldMode(args.fields)
    if args.tiebreak:
        changes["tiebreak"] = Tiebreak(args.tiebreak)
    return replace(options, **changes)


def run_matchpoints(games: list[PbnGame], args: argparse.Namespace) -> Report:
    return matchpoint_report(games, args.method, mp_options(args))


def cross_imp_options(args: argparse.Namespace) -> CrossImpOptions:
    options = PRESETS[args.preset].cross_imps
    return replace(options, unit=CrossImpUnit(args.unit)) if args.unit else options


def butler_options(args: argparse.Namespace) -> ButlerOptions:
    rounding_ = Rounding(args.datum_rounding)
    if args.trim_percent:
        return ButlerOptions(trim_count=0, trim_percent=args.trim_percent, datum_rounding=rounding_)
    return ButlerOptions(trim_count=args.trim, datum_rounding=rounding_)


def run_cross_imps(games: list[PbnGame], args: argparse.Namespace) -> Report:
    return cross_imps_report(games, cross_imp_options(args))


def run_butler(games: list[PbnGame], args: argparse.Namespace) -> Report:
    return butler_report(games, butler_options(args))


def run_teams(games: list[PbnGame], args: argparse.Namespace) -> Report:
    home = max(args.carry_over, Fraction(0))
    away = max(-args.carry_over, Fraction(0))
    return team_report(games, TeamMatchOptions(carry_over_home=home, carry_over_away=away, vp_boards=args.vp_boards))


METHOD_RUNNERS = {"mp": run_matchpoints, "mp-acbl": run_matchpoints, "butler": run_butler,
                  "cross-imps": run_cross_imps, "teams": run_teams}
