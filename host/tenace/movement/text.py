"""A movement and its check as the director reads them: round by round, then the report."""

from __future__ import annotations

from dataclasses import dataclass

from tenace.movement.check import Report, span
from tenace.movement.model import Movement


@dataclass(frozen=True)
class Seat:
    """A table in a round as the director reads it: its pairs, its boards ("1-3") and what to note."""

    table: int
    ns: str
    ew: str
    boards: str
    note: str


@dataclass(frozen=True)
class RoundPlan:
    round: int
    seats: tuple[Seat, ...]
    byes: str  # the pairs at no table, "" when none
    resting: str  # the sets no table plays, "" when none (or not to say)


def plan_rounds(m: Movement) -> list[RoundPlan]:
    """Round by round, each table: who sits North-South, who East-West, which boards; then the sets resting."""
    all_sets = {tuple(sorted(e.boards)) for e in m.encounters}
    relay_of = {t: g for g in m.relays for t in g}
    byes_of = m.at_no_table()
    out = []
    for r in range(1, m.rounds + 1):
        plan = sorted(m.round_plan(r), key=lambda e: e.table)
        seats = []
        for e in plan:
            ns, ew = (m.label(p) for p in m.seated(e))
            note = ""
            if m.sits_out(e):
                present = ew if m.seated(e)[0] == m.phantom else ns
                note = f"{present} sits out"
            elif e.switched:
                note = "arrow switched"
            sharing = [x.table for x in plan if x.table != e.table and x.table in relay_of.get(e.table, ())
                       and set(x.boards) == set(e.boards) and not m.sits_out(x) and not m.sits_out(e)]
            if sharing:
                shares = f"shares with table{'s' if len(sharing) > 1 else ''} {', '.join(map(str, sharing))}"
                note = f"{note}  {shares}" if note else shares
            seats.append(Seat(e.table, ns, ew, span(list(e.boards)), note))
        byes = byes_of.get(r, [])
        resting = sorted(all_sets - {tuple(sorted(e.boards)) for e in plan})
        shown = resting and m.copies == 1 and m.kind != "teams"  # a match's later sets are not resting, just later
        out.append(RoundPlan(r, tuple(seats), ", ".join(m.label(p) for p in byes),
                             "; ".join(span(list(s)) for s in resting) if shown else ""))
    return out


def render_plan(m: Movement) -> str:
    """Round by round, each table: who sits North-South, who East-West, which boards; then the sets resting."""
    lines = [m.name]
    width = max((len(m.label(p)) for p in m.pairs()), default=4)
    lines.append(f"  {'table':>5}  {'North-South':<{max(width, 11)}}  {'East-West':<{max(width, 9)}}  boards")
    for plan in plan_rounds(m):
        lines.append(f"round {plan.round}")
        for s in plan.seats:
            note = f"  {s.note}" if s.note else ""
            lines.append(f"  {s.table:>5}  {s.ns:<{max(width, 11)}}  {s.ew:<{max(width, 9)}}  {s.boards}{note}")
        if plan.byes:
            lines.append(f"  bye: {plan.byes} sit{'s' if ', ' not in plan.byes else ''} out")
        if plan.resting:
            lines.append(f"  resting: boards {plan.resting}")
    return "\n".join(lines)


def verdict(report: Report) -> str:
    """The checker's verdict in a few words: "no rule broken", "2 errors, broken: ..."."""
    broken = sorted({p.rule for p in report.errors})
    return "no rule broken" if report.ok else \
        f"{len(report.errors)} error{'s' if len(report.errors) > 1 else ''}, broken: {', '.join(broken)}"


def render_report(report: Report) -> str:
    m = report.movement
    lines = [f"{m.name}: {verdict(report)}"]
    if report.errors:
        lines.append("errors:")
        lines += [f"  {p.rule}: {p.message}" for p in report.errors]
    lines.append("observations:")
    lines += [f"  {o}" for o in report.observations]
    if report.pairs:
        who = "player" if m.kind == "individual" else "pair"
        width = max(4, *(len(s.label) for s in report.pairs))
        lines.append(f"  {who:<{width}}  boards  sits out  opponents  compares on")
        for s in report.pairs:
            compares = f"{s.compare_low}" if s.compare_low == s.compare_high else f"{s.compare_low}-{s.compare_high}"
            lines.append(f"  {s.label:<{width}}  {s.boards:>6}  {s.sit_outs:>8}  {s.opponents:>9}  {compares} boards "
                         f"with each other {who}")
    return "\n".join(lines)
