"""A movement and its check as the director reads them: round by round, then the report."""

from __future__ import annotations

from tenace.movement.check import Report, span
from tenace.movement.model import Movement


def render_plan(m: Movement) -> str:
    """Round by round, each table: who sits North-South, who East-West, which boards; then the sets resting."""
    lines = [m.name]
    all_sets = {tuple(sorted(e.boards)) for e in m.encounters}
    relay_of = {t: g for g in m.relays for t in g}
    width = max((len(m.label(p)) for p in m.pairs()), default=4)
    lines.append(f"  {'table':>5}  {'North-South':<{max(width, 11)}}  {'East-West':<{max(width, 9)}}  boards")
    byes_of = m.at_no_table()
    for r in range(1, m.rounds + 1):
        lines.append(f"round {r}")
        plan = sorted(m.round_plan(r), key=lambda e: e.table)
        for e in plan:
            ns, ew = (m.label(p) for p in m.seated(e))
            note = ""
            if m.sits_out(e):
                present = ew if m.seated(e)[0] == m.phantom else ns
                note = f"  {present} sits out"
            elif e.switched:
                note = "  arrow switched"
            sharing = [x.table for x in plan if x.table != e.table and x.table in relay_of.get(e.table, ())
                       and set(x.boards) == set(e.boards) and not m.sits_out(x) and not m.sits_out(e)]
            if sharing:
                note += f"  shares with table{'s' if len(sharing) > 1 else ''} {', '.join(map(str, sharing))}"
            lines.append(f"  {e.table:>5}  {ns:<{max(width, 11)}}  {ew:<{max(width, 9)}}  {span(list(e.boards))}{note}")
        byes = byes_of.get(r, [])
        if byes:
            who = ", ".join(m.label(p) for p in byes)
            lines.append(f"  bye: {who} sit{'s' if len(byes) == 1 else ''} out")
        resting = sorted(all_sets - {tuple(sorted(e.boards)) for e in plan})
        if resting and m.copies == 1 and m.kind != "teams":  # a match's later sets are not resting, just later
            lines.append(f"  resting: boards {'; '.join(span(list(s)) for s in resting)}")
    return "\n".join(lines)


def render_report(report: Report) -> str:
    m = report.movement
    broken = sorted({p.rule for p in report.errors})
    verdict = "no rule broken" if report.ok else \
        f"{len(report.errors)} error{'s' if len(report.errors) > 1 else ''}, broken: {', '.join(broken)}"
    lines = [f"{m.name}: {verdict}"]
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
