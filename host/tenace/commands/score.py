"""`tenace score`: rescore a PBN file from its raw results (matchpoints, Butler, cross-IMPs or teams)."""

from __future__ import annotations

import argparse
import json
import logging
import sys
from collections import defaultdict
from dataclasses import dataclass, field, replace
from decimal import Decimal
from fractions import Fraction
from pathlib import Path
from typing import Any

from tenace.commands.options import cannot_write, in_range, output_file
from tenace.errors import UsageError
from tenace.pbn.reader import PbnColumn, PbnError, PbnGame, PbnTable, read_pbn
from tenace.pbn.results import (
    PbnResultError,
    RawResult,
    all_raw_results,
    has_pairs,
    imp_entries,
    pairs_results,
    team_boards,
    team_rooms,
)
from tenace.pbn.writer import write_pbn
from tenace.scoring import imp_rounding, rounding
from tenace.scoring.butler import ButlerOptions, butler_board
from tenace.scoring.cross_imps import CrossImpOptions, CrossImpUnit, cross_imps_board
from tenace.scoring.imp_pairs_session import imp_totals, rank_imp_pairs
from tenace.scoring.imp_results import ImpLine
from tenace.scoring.matchpoints import (
    DEFAULT_OPTIONS,
    MAGIC_CONTEST_FFB,
    MAX_DECIMALS,
    Factoring,
    MatchpointOptions,
    Units,
)
from tenace.scoring.pairs_session import score_pairs_session
from tenace.scoring.ranking import FieldMode, Tiebreak
from tenace.scoring.rounding import DATUM_ROUNDINGS, MP_ROUNDINGS
from tenace.scoring.teams import TeamMatchOptions, score_team_match
from tenace_rules.notation import parse_contract

log = logging.getLogger(__name__)

HELP = "rescore a PBN file from its raw results and print every board and the ranking"
METHODS = ("mp", "mp-acbl", "butler", "cross-imps", "teams")
PRESETS = {"default": DEFAULT_OPTIONS, "magic-contest": MAGIC_CONTEST_FFB}
EPILOG = """\
methods:
  mp          Law 78A matchpoints, international units (2 per score beaten, 1 per tie)
  mp-acbl     Law 78A matchpoints, North American units (1 per score beaten, 1/2 per tie)
  butler      IMP pairs against a datum (trimmed mean of the NS scores, rounded to 10)
  cross-imps  IMP pairs, every score against every other (with PBN Multiplicity)
  teams       two rooms per board (open room first): IMPs, the match total and WBF VPs

Only contract, declarer and result (and A+/A/A- for artificial scores) are read; the file's
computed columns are ignored and everything is recomputed with the shared Law 77.

examples:
  tenace score session.pbn
  tenace score session.pbn --preset magic-contest --json > scores.json
  tenace score pairs.pbn --method cross-imps --unit per-comparison
  tenace score match.pbn --method teams --pbn rescored.pbn"""


def register(sub: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    p = sub.add_parser("score", help=HELP, description=HELP, epilog=EPILOG,
                       formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("file", type=Path, help="the PBN file (UTF-8 or Latin-1)")
    p.add_argument("--method", choices=METHODS, default="mp", help="how to score (default mp)")
    p.add_argument("--json", action="store_true", help="print one JSON document instead of text")
    p.add_argument("--pbn", type=Path, metavar="OUT", help="also write the rescored file as PBN 2.1")
    mp = p.add_argument_group("matchpoints (mp, mp-acbl)")
    mp.add_argument("--preset", choices=sorted(PRESETS),
                    help="a program's conventions to start from (magic-contest: MPs to 0.1, whole board %%, "
                         "head-to-head tiebreak)")
    mp.add_argument("--factoring", choices=[f.value for f in Factoring],
                    help="bring boards played fewer times to the common top (default neuberg)")
    mp.add_argument("--expected", type=int, metavar="E", help="results a board should have (default: the most any has)")
    mp.add_argument("--mp-decimals", type=int, metavar="N", help="decimals of board matchpoints")
    mp.add_argument("--percent-decimals", type=int, metavar="N", help="decimals of board percentages")
    mp.add_argument("--total-decimals", type=int, metavar="N", help="decimals of total matchpoints and percentages")
    mp.add_argument("--rounding", choices=[r.value for r in MP_ROUNDINGS], help="how ties round (default half-up)")
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


@dataclass
class Report:
    """What a scoring method produced, ready for text, JSON or PBN."""

    method: str
    boards: list[dict[str, Any]] = field(default_factory=list)
    ranking: list[dict[str, Any]] = field(default_factory=list)
    summary: dict[str, Any] = field(default_factory=dict)
    notes: list[str] = field(default_factory=list)


# The options of one scoring method (argparse dest: the methods it is for), and their defaults.
METHOD_OPTIONS: dict[str, tuple[str, ...]] = {
    **{dest: ("mp", "mp-acbl") for dest in ("preset", "factoring", "expected", "mp_decimals", "percent_decimals",
                                            "total_decimals", "rounding", "fields", "tiebreak")},
    "unit": ("cross-imps",),
    **{dest: ("butler",) for dest in ("trim", "trim_percent", "datum_rounding")},
    **{dest: ("teams",) for dest in ("carry_over", "vp_boards")},
}
DEFAULTS: dict[str, Any] = {"preset": "default", "unit": CrossImpUnit.PER_COMPARISON.value, "trim": 1,
                            "trim_percent": 0, "datum_rounding": imp_rounding.Rounding.HALF_UP.value,
                            "carry_over": Fraction(0)}


def _imps_given(text: str) -> Fraction:
    """--carry-over: IMPs as 12, -3.5 or 7/2 (argparse's own Fraction would let 1/0 through as a crash)."""
    try:
        return Fraction(text)
    except (ValueError, ZeroDivisionError):
        raise argparse.ArgumentTypeError(f"IMPs as a number (12, -3.5, 7/2), not {text!r}") from None


def check_options(args: argparse.Namespace) -> None:
    """Refuse, by the option's name, an option of another method and a value out of range; then fill in defaults."""
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
    if args.pbn is not None:
        output_file("--pbn", args.pbn, not_same_as=args.file)


def run(args: argparse.Namespace) -> int:
    check_options(args)
    try:
        games = read_pbn(args.file)
        report = METHOD_RUNNERS[args.method](games, args)
    except (PbnError, PbnResultError, ValueError) as e:  # options are checked: what is left is the file's
        raise UsageError(f"{args.file}: {e}") from None
    if args.json:
        json.dump(_jsonable(report), sys.stdout, indent=2, ensure_ascii=False)
        sys.stdout.write("\n")
    else:
        print_report(report)
    if args.pbn:
        try:
            with args.pbn.open("w", encoding="utf-8") as out:
                write_pbn(rescored_games(games, report), out)
        except OSError as e:
            raise cannot_write("--pbn", args.pbn, e) from None
        log.info("wrote %s", args.pbn)
    return 0


def _jsonable(report: Report) -> dict[str, Any]:
    def convert(value: Any) -> Any:
        if isinstance(value, Decimal):
            return float(value)
        if isinstance(value, Fraction):
            return float(value)
        if isinstance(value, dict):
            return {k: convert(v) for k, v in value.items()}
        if isinstance(value, list | tuple):
            return [convert(v) for v in value]
        return value

    converted: dict[str, Any] = convert({"method": report.method, "summary": report.summary, "boards": report.boards,
                    "ranking": report.ranking, "notes": report.notes})
    return converted


def _signed(score: int | None) -> str:
    return "" if score is None else f"{score:+d}"


def _result_text(r: RawResult) -> str:
    if r.artificial is not None:
        return f"{r.artificial[0]}/{r.artificial[1]}"
    contract = parse_contract(r.contract)
    return "Pass" if contract.passed_out else f"{contract.text()} {r.declarer} {r.result}"


# --- matchpoints -------------------------------------------------------------------------------------

def mp_options(args: argparse.Namespace) -> MatchpointOptions:
    options = PRESETS[args.preset]
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
        changes["rounding"] = rounding.Rounding(args.rounding)
    if args.fields:
        changes["fields"] = FieldMode(args.fields)
    if args.tiebreak:
        changes["tiebreak"] = Tiebreak(args.tiebreak)
    return replace(options, **changes)


def run_matchpoints(games: list[PbnGame], args: argparse.Namespace) -> Report:
    rows = all_raw_results(games)
    options = mp_options(args)
    session = score_pairs_session(pairs_results(rows), options)
    raw = {(r.board, r.table or r.row): r for r in rows}
    report = Report(args.method, summary={"units": options.units.value, "factoring": options.factoring.value,
                                          "boards": len(session.boards), "results": len(rows)})
    for board in session.boards:
        lines = []
        for t in board.tables:
            r = raw[(board.board, t.result.table)]
            lines.append({
                "table": t.result.table, "round": t.result.round,
                "ns_pair": t.result.ns_pair, "ew_pair": t.result.ew_pair,
                "result": _result_text(r), "contract": r.contract, "declarer": r.declarer, "tricks": r.result,
                "ns_score": r.ns_score, "artificial": r.artificial,
                "mp_ns": t.ns.mp if t.ns else None, "mp_ew": t.ew.mp if t.ew else None,
                "percent_ns": t.ns.percent if t.ns else None, "percent_ew": t.ew.percent if t.ew else None,
            })
        report.boards.append({"board": board.board, "top": board.top, "expected": board.expected, "lines": lines})
    for placing in session.ranking:
        total = session.totals[placing.pair]
        report.ranking.append({
            "field": placing.field, "rank": placing.text, "pair": placing.pair,
            "direction": "/".join(sorted(total.directions)), "mp": total.mp, "percent": total.percent,
            "boards": total.boards, "tiebreak": placing.tiebreak,
        })
    return report


# --- IMP pairs -----------------------------------------------------------------------------------------

def _imp_report(rows: list[RawResult], method: str, lines_of: dict[int, tuple[ImpLine, ...]],
                extra: dict[int, dict[str, Any]], summary: dict[str, Any]) -> Report:
    report = Report(method, summary=summary)
    by_board: dict[int, list[RawResult]] = defaultdict(list)
    for r in rows:
        by_board[r.board].append(r)
    results: list[tuple[str, str, ImpLine]] = []
    for board, board_rows in sorted(by_board.items()):
        lines = []
        for r, line in zip(board_rows, lines_of[board], strict=True):
            lines.append({"table": r.table, "ns_pair": r.ns_pair, "ew_pair": r.ew_pair, "count": r.count,
                          "result": _result_text(r), "contract": r.contract, "declarer": r.declarer,
                          "tricks": r.result, "ns_score": r.ns_score, "artificial": r.artificial,
                          "imp_ns": _imps(line.ns_imps), "imp_ew": _imps(line.ew_imps)})
            if r.ns_pair and r.ew_pair:
                results.append((r.ns_pair, r.ew_pair, line))
        report.boards.append({"board": board, **extra.get(board, {}), "lines": lines})
    if has_pairs(rows):
        totals = imp_totals(results)
        # Tied pairs are listed in the order they first appear in the file, as `tenace score` always has.
        seen = {pair: i for i, pair in enumerate(totals)}
        for placing in sorted(rank_imp_pairs(totals), key=lambda p: (p.field != "NS", p.rank, seen[p.pair])):
            total = totals[placing.pair]
            report.ranking.append({"field": placing.field, "rank": placing.text, "pair": placing.pair,
                                   "direction": "/".join(sorted(total.directions)), "imps": _imps(total.imps),
                                   "boards": total.boards})
    else:
        report.notes.append("the score tables name no pairs, so there is no ranking: per-board figures only")
    return report


def _imps(value: Fraction) -> Decimal:
    return imp_rounding.to_decimal(value, 2, imp_rounding.Rounding.HALF_EVEN)


def run_cross_imps(games: list[PbnGame], args: argparse.Namespace) -> Report:
    rows = all_raw_results(games)
    options = CrossImpOptions(unit=CrossImpUnit(args.unit))
    boards = {board: cross_imps_board(entries, options) for board, entries in imp_entries(rows).items()}
    return _imp_report(rows, args.method, {b: s.lines for b, s in boards.items()},
                       {b: {"results": s.results} for b, s in boards.items()},
                       {"unit": options.unit.value, "boards": len(boards), "results": len(rows)})


def run_butler(games: list[PbnGame], args: argparse.Namespace) -> Report:
    rows = all_raw_results(games)
    if args.trim_percent:
        options = ButlerOptions(trim_count=0, trim_percent=args.trim_percent,
                                datum_rounding=imp_rounding.Rounding(args.datum_rounding))
    else:
        options = ButlerOptions(trim_count=args.trim, datum_rounding=imp_rounding.Rounding(args.datum_rounding))
    boards = {board: butler_board(entries, options) for board, entries in imp_entries(rows).items()}
    return _imp_report(rows, args.method, {b: s.lines for b, s in boards.items()},
                       {b: {"datum": s.datum} for b, s in boards.items()},
                       {"trim": args.trim, "trim_percent": args.trim_percent, "datum_rounding": args.datum_rounding,
                        "boards": len(boards), "results": len(rows)})


# --- teams -------------------------------------------------------------------------------------------

def run_teams(games: list[PbnGame], args: argparse.Namespace) -> Report:
    rooms = team_rooms(games)
    if not rooms:
        raise PbnResultError("no played results (Contract/Result tags) found for a team match")
    home = max(args.carry_over, Fraction(0))
    away = max(-args.carry_over, Fraction(0))
    match = score_team_match(team_boards(rooms), TeamMatchOptions(carry_over_home=home, carry_over_away=away,
                                                                   vp_boards=args.vp_boards))
    report = Report(args.method)
    for b in match.boards:
        open_room, closed_room = rooms[b.board]
        report.boards.append({
            "board": b.board, "open": _room(open_room.game, open_room.ns_score),
            "closed": _room(closed_room.game, closed_room.ns_score),
            "difference": b.difference, "imp_home": b.home, "imp_away": b.away,
        })
    first = rooms[min(rooms)][0].game
    report.summary = {"home": f"{first.tag('North')} - {first.tag('South')} (NS in the open room)",
                      "boards": len(match.boards), "carry_over": args.carry_over,
                      "imps_home": match.home_imps, "imps_away": match.away_imps,
                      "vp_home": match.vp.home if match.vp else None, "vp_away": match.vp.away if match.vp else None}
    return report


def _room(game: PbnGame, ns_score: int) -> dict[str, Any]:
    return {"contract": game.tag("Contract"), "declarer": game.tag("Declarer"), "tricks": game.tag("Result"),
            "ns_score": ns_score}


METHOD_RUNNERS = {"mp": run_matchpoints, "mp-acbl": run_matchpoints, "butler": run_butler,
                  "cross-imps": run_cross_imps, "teams": run_teams}


# --- output ------------------------------------------------------------------------------------------

def print_report(report: Report) -> None:
    w = sys.stdout.write
    if report.method == "teams":
        w("Board  Open room           Closed room          Diff   Home  Away\n")
        for b in report.boards:
            o, c = b["open"], b["closed"]
            w(f"{b['board']:>5}  {o['contract']:>5} {o['declarer']} {o['tricks']:>2} {o['ns_score']:>+6}    "
              f"{c['contract']:>5} {c['declarer']} {c['tricks']:>2} {c['ns_score']:>+6}  {b['difference']:>+6} "
              f"{_num(b['imp_home']):>6}{_num(b['imp_away']):>6}\n")
        s = report.summary
        w(f"\nHome: {s['home']}\nIMPs {_num(s['imps_home'])} - {_num(s['imps_away'])}")
        if s["vp_home"] is not None:
            w(f"   VPs {s['vp_home']} - {s['vp_away']}")
        w("\n")
        return
    imps = report.method in ("butler", "cross-imps")
    for b in report.boards:
        head = f"Board {b['board']}"
        if "top" in b:
            head += f"  top {b['top']}"
        if "datum" in b:
            head += f"  datum {_num(b['datum'])}"
        w(head + "\n")
        for line in b["lines"]:
            who = f"{line['table'] or '':>3} {line['ns_pair'] or '':>4} {line['ew_pair'] or '':>4}"
            if imps:
                count = f" x{line['count']}" if line["count"] != 1 else ""
                w(f"  {who}  {line['result']:<12} {_signed(line['ns_score']):>6}{count:<5} "
                  f"{_num(line['imp_ns']):>7} {_num(line['imp_ew']):>7}\n")
            else:
                w(f"  {who}  {line['result']:<12} {_signed(line['ns_score']):>6} "
                  f"{_num(line['mp_ns']):>6} {_num(line['mp_ew']):>6} {_num(line['percent_ns']):>6} "
                  f"{_num(line['percent_ew']):>6}\n")
    if report.ranking:
        w("\nRanking\n")
        field_name = None
        for p in report.ranking:
            if p["field"] != field_name:
                field_name = p["field"]
                if field_name:
                    w(f"  {field_name}\n")
            figure = f"{_num(p['imps']):>8} IMPs" if imps else f"{_num(p['mp']):>8} MP {_num(p['percent']):>6}%"
            w(f"  {p['rank']:>4}  pair {p['pair']:>4} {p['direction']:<5} {figure}\n")
    for note in report.notes:
        w(f"\nNote: {note}\n")


def _num(value: Any) -> str:
    if value is None:
        return "-"
    if isinstance(value, Fraction):
        value = imp_rounding.to_decimal(value, 2, imp_rounding.Rounding.HALF_EVEN)
    return str(value)


# --- PBN out -----------------------------------------------------------------------------------------

_MP_COLUMNS = [("Table", 2, "R"), ("Round", 2, "R"), ("PairId_NS", 2, "R"), ("PairId_EW", 2, "R"),
               ("Contract", 5, "L"), ("Declarer", 1, "R"), ("Result", 2, "R"), ("Score_NS", 6, "R"),
               ("Score_EW", 6, "R"), ("MP_NS", 5, "R"), ("MP_EW", 5, "R"), ("Percentage_NS", 6, "R"),
               ("Percentage_EW", 6, "R")]
_IMP_COLUMNS = [("Table", 2, "R"), ("PairId_NS", 2, "R"), ("PairId_EW", 2, "R"), ("Contract", 5, "L"),
                ("Declarer", 1, "R"), ("Result", 2, "R"), ("Score_NS", 6, "R"), ("Score_EW", 6, "R"),
                ("IMP_NS", 6, "R"), ("IMP_EW", 6, "R"), ("Multiplicity", 3, "R")]


def _columns(spec: list[tuple[str, int, str]]) -> list[PbnColumn]:
    return [PbnColumn(name, width, align) for name, width, align in spec]


def _cell(value: Any) -> str:
    return "-" if value is None or value == "" else _num(value)


def _score_imp(net: Fraction) -> str:
    """A ScoreIMP tag value: the side that won and its IMPs, whole IMPs as integers ("EW 2"); "NS 0" when flat."""
    figure = str(abs(net.numerator)) if net.denominator == 1 else _num(abs(net))
    return f"{'EW' if net < 0 else 'NS'} {figure}"


def rescored_games(games: list[PbnGame], report: Report) -> list[PbnGame]:
    """The input games with recomputed score tables (and, for pairs, a TotalScoreTable on the first game)."""
    out = [PbnGame(tags=dict(g.tags), tables=dict(g.tables), sections=dict(g.sections), line=g.line) for g in games]
    by_board = {b["board"]: b for b in report.boards}
    for game in out:
        for stale in ("ScoreTable", "TotalScoreTable", "ScoreIMP", "ScoreMP", "ScorePercentage"):
            game.tables.pop(stale, None)
            game.tags.pop(stale, None)
        board = by_board.get(int(game.tag("Board") or 0))
        if board is None:
            continue
        if report.method == "teams":
            continue
        imps = report.method in ("butler", "cross-imps")
        spec = _IMP_COLUMNS if imps else _MP_COLUMNS
        rows = []
        for line in board["lines"]:
            awards = line["artificial"] or (line["ns_score"], None)
            values = {"Table": line["table"], "Round": line.get("round"), "PairId_NS": line["ns_pair"],
                      "PairId_EW": line["ew_pair"], "Contract": line["contract"] or "-",
                      "Declarer": line["declarer"], "Result": line["tricks"],
                      "Score_NS": awards[0], "Score_EW": awards[1],
                      "MP_NS": line.get("mp_ns"), "MP_EW": line.get("mp_ew"),
                      "Percentage_NS": line.get("percent_ns"), "Percentage_EW": line.get("percent_ew"),
                      "IMP_NS": line.get("imp_ns"), "IMP_EW": line.get("imp_ew"), "Multiplicity": line.get("count")}
            rows.append([_cell(values[name]) for name, _, _ in spec])
        game.tags["ScoreTable"] = ""
        game.tables["ScoreTable"] = PbnTable("ScoreTable", _columns(spec), rows)
    if report.method == "teams":
        # PBN's ScoreIMP is from the table's own North-South ("EW 2": its EW won 2), as published: the home team is
        # NS in the open room and EW in the closed one. The rooms are found in `out` as run_teams found them.
        for number, (open_room, closed_room) in team_rooms(out).items():
            net = Fraction(by_board[number]["imp_home"] - by_board[number]["imp_away"])
            open_room.game.tags["ScoreIMP"] = _score_imp(net)
            closed_room.game.tags["ScoreIMP"] = _score_imp(-net)
    if report.ranking and out:
        figure = "TotalIMP" if report.method in ("butler", "cross-imps") else "TotalScoreMP"
        spec = [("Rank", 3, "R"), ("PairId", 3, "R"), ("Direction", 5, "R"), (figure, 7, "R"),
                ("TotalPercentage", 6, "R")]
        rows = [[p["rank"], p["pair"], p["direction"], _cell(p.get("imps", p.get("mp"))), _cell(p.get("percent"))]
                for p in report.ranking]
        out[0].tags["TotalScoreTable"] = ""
        out[0].tables["TotalScoreTable"] = PbnTable("TotalScoreTable", _columns(spec), rows)
    return out
