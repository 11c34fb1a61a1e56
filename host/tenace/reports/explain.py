"""`tenace score --explain BOARD`: how each figure of one board was made, step by step, from the rescored report."""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass
from decimal import Decimal
from fractions import Fraction

from tenace.reports.model import Board, Report, TravellerLine
from tenace.scoring.butler import ButlerOptions, butler_datum
from tenace.scoring.cross_imps import CrossImpOptions, CrossImpUnit, cross_imp_totals
from tenace.scoring.imps import imps
from tenace.scoring.matchpoints import factor, published
from tenace.scoring.mp_options import BoardPercent, Factoring, MatchpointOptions, Units
from tenace.scoring.rounding import Rounding, to_decimal

# Digits shown of an exact value that does not end: enough to see which side of a half it lies.
_DIGITS = 12


@dataclass(frozen=True)
class Explained:
    lines: list[str]
    agrees: bool  # every figure recomputed here is the report's


def explain_board(report: Report, number: int, mp: MatchpointOptions, butler: ButlerOptions,
                  cross: CrossImpOptions) -> Explained:
    """The steps behind each figure of board `number` of `report` (a ValueError naming the boards it has if none)."""
    found = [b for b in report.boards if b.board == number]
    if not found:
        have = sorted({b.board for b in report.boards})
        raise ValueError(f"board {number} is not scored here (boards {_ranges(have)})")
    board = found[0]
    if report.method in ("mp", "mp-acbl"):
        return _matchpoints(board, mp)
    if report.method == "cross-imps":
        return _cross_imps(board, cross)
    if report.method == "butler":
        return _butler(board, butler)
    return _teams(board)


def _ranges(numbers: list[int]) -> str:
    out, start = [], None
    for i, n in enumerate(numbers):
        start = n if start is None else start
        if i + 1 == len(numbers) or numbers[i + 1] != n + 1:
            out.append(str(n) if start == n else f"{start}-{n}")
            start = None
    return ", ".join(out)


def exact_text(value: Fraction) -> str:
    """An exact value as a decimal: every digit when it ends within _DIGITS places, else _DIGITS of them and "..."."""
    if (value * 10**_DIGITS).denominator == 1:
        return format(Decimal(value.numerator) / Decimal(value.denominator), "f")
    return f"{to_decimal(value, _DIGITS, Rounding.DOWN)}..."


def rounding_text(value: Fraction, decimals: int, rule: Rounding) -> str:
    """How `value` is rounded to `decimals` by `rule`, the binary double shown for DOUBLE: "4.575 is the double
    4.5750000000000001776..., to 2 decimals ties to even: 4.58"."""
    got = to_decimal(value, decimals, rule)
    if rule is Rounding.DOUBLE:
        double = Decimal(float(value))
        return (f"{exact_text(value)} held as the double {double:f}, printed to {decimals} decimals as C's "
                f"%.{decimals}f: {got}")
    return f"{exact_text(value)} to {decimals} decimals {rule.value}: {got}"


def _scores(board: Board) -> tuple[Counter[int], list[str]]:
    """The NS scores compared on the board (multiplicities counted), and what is not among them, said why."""
    counts: Counter[int] = Counter()
    others = []
    for line in board.lines:
        score = _compared_score(line)
        if score is not None:
            counts[score] += line.count
        elif line.adjustment is not None and (line.adjustment.ns or line.adjustment.ew):
            others.append(f"  artificial {line.adjustment.ns}/{line.adjustment.ew}: not compared; "
                          + (f"a share of the top for each side (NS {line.mp_ns}, {line.percent_ns}%)"
                             if line.imp_ns is None else f"its IMPs as the Laws give them (NS {line.imp_ns})"))
        elif line.adjustment is not None:
            others.append(f"  assigned {line.adjustment.weights}: compared by its weights (Law 12C1(c)), NS "
                          + (f"{line.mp_ns}, {line.percent_ns}%" if line.imp_ns is None else f"{line.imp_ns} IMPs"))
    return counts, others


def _compared_score(line: TravellerLine) -> int | None:
    """The line's one NS score when it is compared as played: played, or assigned one score ("1:620")."""
    if line.adjustment is None:
        return line.ns_score
    weights = line.adjustment.weights
    if weights.startswith("1:") and not line.adjustment.ew_weights and " " not in weights:
        return int(weights[2:])
    return None


def _matchpoints(board: Board, o: MatchpointOptions) -> Explained:
    counts, others = _scores(board)
    n = sum(counts.values())
    e = board.expected or n
    top = board.top or 0
    half = o.units is Units.NORTH_AMERICAN
    method = o.factoring if n != e else Factoring.NONE
    units = ("ACBL units: 1 per result beaten, 1/2 per other equal one" if half
             else "MP1: 2 per result beaten, 1 per other equal one")
    set_for = f", E = {e} (the results the top is set for)" if o.factoring is not Factoring.NONE else ""
    out = [f"Board {board.board}: {n} results compared{set_for}, top {top} ({units})"]
    if method is Factoring.NEUBERG:
        out.append(f"  {n} results brought to E = {e} by Neuberg: M' = (M + 1) x {e}/{n} - 1 in MP1 units")
    elif method is Factoring.RATIO:
        out.append(f"  {n} results brought to E = {e} by ratio: M' = M x ({e} - 1)/({n} - 1) in MP1 units")
    else:
        out.append("  not factored: the board's own top")
    if o.board_percent is BoardPercent.RESULTS:
        out.append("  percentage: (beaten + half the equal results, itself included) / N = (MP1 + 1) / (top + 2)")
    else:
        out.append("  percentage: MPs / top" + (" (of the published MPs)" if o.board_percent_from_published_mp else ""))
    agrees = True
    shown = {(line.ns_score if line.adjustment is None else _compared_score(line)): line for line in board.lines
             if _compared_score(line) is not None}
    below = 0
    for score in sorted(counts):
        c = counts[score]
        raw = 2 * below + c - 1
        exact = factor(raw, n, e, method) / (2 if half else 1)
        mp, pct = published(exact, top, o)
        ew_mp, ew_pct = published(top - exact, top, o)
        step = f"2 x {below} + {c - 1} = {raw}"
        if method is not Factoring.NONE and n != e:
            step += f", factored: {exact_text(factor(raw, n, e, method))}"
        if half:
            step += f", halved: {exact_text(exact)}"
        out.append(f"  NS {score:+d} ({c} result{'s' if c > 1 else ''}): beats {below}, ties {c - 1}: MP1 {step}")
        out.append(f"    NS MPs {rounding_text(exact, o.board_mp_decimals, o.rounding)}; % {pct}"
                   f"  EW MPs {ew_mp}, % {ew_pct}")
        line = shown.get(score)
        if line is not None and (line.mp_ns, line.percent_ns) != (mp, pct):
            agrees = False
            out.append(f"    (the report shows NS {line.mp_ns}, {line.percent_ns}%: another step changed it)")
        below += c
    return Explained(out + others, agrees)


def _cross_imps(board: Board, o: CrossImpOptions) -> Explained:
    counts, others = _scores(board)
    n = sum(counts.values())
    totals = cross_imp_totals(counts)
    awarded = sum(line.count for line in board.lines if line.adjustment is not None and line.adjustment.ns)
    if o.unit is CrossImpUnit.TOTAL or n < 2:
        divisor = 1
    else:  # per comparison: the other played results; per score: every other result recorded, artificial ones too
        divisor = n - 1 + (awarded if o.unit is CrossImpUnit.PER_SCORE else 0)
    out = [f"Board {board.board}: {n} results compared; each score IMPed against every other "
           f"({'summed' if divisor == 1 else f'the sum over the {divisor} comparisons'})"]
    agrees = True
    shown = {_compared_score(line): line for line in board.lines if _compared_score(line) is not None}
    for score in sorted(counts):
        value = Fraction(totals[score], divisor)
        got = to_decimal(value, 2, o.rounding)
        out.append(f"  NS {score:+d} ({counts[score]}): {totals[score]} IMPs" + (f" / {divisor}" if divisor > 1 else "")
                   + f" = {rounding_text(value, 2, o.rounding)}")
        line = shown.get(score)
        if line is not None and line.imp_ns != got:
            agrees = False
            out.append(f"    (the report shows {line.imp_ns})")
    return Explained(out + others, agrees)


def _butler(board: Board, o: ButlerOptions) -> Explained:
    counts, others = _scores(board)
    datum, raw, used, k = butler_datum(counts.items(), o)
    out = [f"Board {board.board}: datum = the mean of {used} NS scores (the {k} highest and {k} lowest left out) "
           f"= {exact_text(raw)}, to a multiple of {o.datum_step} {o.datum_rounding.value}: {datum}"]
    agrees = board.datum is None or Fraction(board.datum) == datum
    for score in sorted(counts):
        won = imps(score - datum)
        out.append(f"  NS {score:+d}: {score:+d} - {datum} = {score - datum}: {f'{won:+d}' if won else 'no'} IMPs")
    return Explained(out + others, agrees)


def _teams(board: Board) -> Explained:
    r = board.rooms
    if r is None or r.open is None or r.closed is None or r.difference is None:
        return Explained([f"Board {board.board}: not compared; its IMPs as given: home {r.imp_home if r else '-'}, "
                          f"away {r.imp_away if r else '-'}"], True)
    won = imps(r.difference)
    to = f"{abs(won)} IMPs to the {'home' if won > 0 else 'away'} team" if won else "no IMPs (a flat board)"
    return Explained([f"Board {board.board}: open room NS {r.open.ns_score:+d}, closed room NS {r.closed.ns_score:+d}:"
                      f" difference {r.difference:+d}: {to} (the home team sits NS in the open room)"],
                     Decimal(max(won, 0)) == r.imp_home)
