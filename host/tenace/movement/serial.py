"""A movement as JSON and back (what `tenace movement show --json` writes and `check --file` reads), and a
check report as JSON."""

from __future__ import annotations

from typing import Any

from tenace.movement.check import Report
from tenace.movement.model import (
    KINDS,
    MAX_BOARDS_PER_ROUND,
    MAX_ROUNDS,
    MAX_TABLES,
    Encounter,
    Field,
    Kind,
    Movement,
    Pair,
    pair_label,
)


class FormError(ValueError):
    """JSON that does not describe a movement; the message says where."""


def movement_to_json(m: Movement) -> dict[str, Any]:
    return {
        "kind": m.kind,
        "name": m.name,
        "tables": m.tables,
        "rounds": m.rounds,
        "boards_per_round": m.boards_per_round,
        "copies": m.copies,
        "relays": [list(g) for g in m.relays],
        "phantom": None if m.phantom is None else {"field": m.phantom[0] or None, "pair": m.phantom[1]},
        **({"partners": [list(p) for p in m.partners]} if m.partners else {}),
        "plan": [{"round": r, "tables": [
            {"table": e.table, "ns": e.ns_pair, "ew": e.ew_pair, "boards": list(e.boards),
             **({"switched": True} if e.switched else {})}
            for e in sorted(m.round_plan(r), key=lambda e: e.table)]} for r in range(1, m.rounds + 1)],
    }


def movement_from_json(data: object) -> Movement:
    """The movement `movement_to_json` wrote, perhaps edited since; FormError naming the first thing amiss.
    Only the form is checked here: whether it is a sound movement is tenace.movement.check's job."""
    top = _object(data, "the file")
    kind = top.get("kind", "mitchell")
    if kind not in KINDS:
        raise FormError(f"kind must be one of {', '.join(KINDS)}, not {kind!r}")
    kind_: Kind = kind
    # The figures in the ranges a movement is made in, so that checking an edited file stays quick.
    tables = _whole(top, "tables", "the file", low=1, high=MAX_TABLES)
    boards_per_round = _whole(top, "boards_per_round", "the file", low=1, high=MAX_BOARDS_PER_ROUND)
    copies = _whole(top, "copies", "the file", default=1, low=1, high=tables)
    name = top.get("name", f"{kind} movement")
    if not isinstance(name, str):
        raise FormError("name must be text")
    relays = tuple(tuple(_numbers(g, f"relays[{i}]")) for i, g in enumerate(_list(top.get("relays", []), "relays")))
    phantom = _phantom(top.get("phantom"), kind_)
    partners = tuple(tuple(_numbers(p, f"partners[{i}]")) for i, p in enumerate(_list(top.get("partners", []),
                                                                                        "partners")))
    if any(len(p) != 2 for p in partners):
        raise FormError("partners: each partnership is a list of its two players' numbers")
    if (kind_ == "individual") != bool(partners):
        raise FormError("partners: an individual names its partnerships' players, and only an individual does")
    encounters = []
    rounds_plan = _list(top.get("plan"), "plan")
    for i, round_data in enumerate(rounds_plan):
        where = f"plan[{i}]"
        rd = _object(round_data, where)
        r = _whole(rd, "round", where)
        for j, table_data in enumerate(_list(rd.get("tables"), f"{where}.tables")):
            at = f"round {r}, plan[{i}].tables[{j}]"
            td = _object(table_data, at)
            switched = td.get("switched", False)
            if not isinstance(switched, bool):
                raise FormError(f"{at}: switched must be true or false")
            encounters.append(Encounter(_whole(td, "table", at), r, _whole(td, "ns", at), _whole(td, "ew", at),
                                        tuple(_numbers(td.get("boards"), f"{at}.boards")), switched))
    rounds = _whole(top, "rounds", "the file", default=len(rounds_plan), low=1, high=MAX_ROUNDS)
    return Movement(name, tables, rounds, boards_per_round, tuple(encounters), kind=kind_, copies=copies,
                    relays=relays, phantom=phantom, partners=tuple((a, b) for a, b in partners))


def report_to_json(report: Report) -> dict[str, Any]:
    kind = report.movement.kind

    def couples(counts: dict[tuple[Pair, Pair], int], what: str) -> list[dict[str, Any]]:
        return [{"pairs": [pair_label(a, kind), pair_label(b, kind)], what: n} for (a, b), n in counts.items()]

    balance = report.balance
    return {
        "movement": report.movement.name,
        "ok": report.ok,
        "errors": [{"rule": p.rule, "message": p.message} for p in report.errors],
        "observations": list(report.observations),
        "pairs": [{"pair": s.label, "boards": s.boards, "sit_outs": s.sit_outs, "opponents": s.opponents,
                   "compares_low": s.compare_low, "compares_high": s.compare_high} for s in report.pairs],
        "meetings": couples(report.meetings, "times"),
        "comparisons": couples(report.comparisons, "boards"),
        "balance": None if balance is None else {
            "balanced": balance.balanced, "couples": balance.couples, "lowest": balance.lowest,
            "highest": balance.highest, "even_spread": balance.ideal, "off_by": balance.off_by},
    }


def _object(value: object, where: str) -> dict[str, Any]:
    if not isinstance(value, dict):
        raise FormError(f"{where} must be a JSON object")
    return value


def _list(value: object, where: str) -> list[Any]:
    if not isinstance(value, list):
        raise FormError(f"{where} must be a JSON list")
    return value


def _whole(obj: dict[str, Any], key: str, where: str, default: int | None = None, low: int = 1,
           high: int | None = None) -> int:
    value = obj.get(key, default)
    if value is None:
        raise FormError(f"{where}: {key} is missing")
    if isinstance(value, bool) or not isinstance(value, int):
        raise FormError(f"{where}: {key} must be a whole number, not {value!r}")
    if value < low or (high is not None and value > high):
        raise FormError(f"{where}: {key} is {low} to {high}, not {value}" if high is not None else
                        f"{where}: {key} is {low} or more, not {value}")
    return value


def _numbers(value: object, where: str) -> list[int]:
    items = _list(value, where)
    if any(isinstance(v, bool) or not isinstance(v, int) for v in items):
        raise FormError(f"{where} must be a list of whole numbers")
    return items


def _phantom(value: object, kind: Kind) -> Pair | None:
    if value is None:
        return None
    obj = _object(value, "phantom")
    field = obj.get("field") or ""
    if field not in (("NS", "EW") if kind == "mitchell" else ("",)):
        raise FormError(f"phantom: field must be {'NS or EW' if kind == 'mitchell' else 'null'} in a {kind}")
    field_: Field = "NS" if field == "NS" else "EW" if field == "EW" else ""
    return (field_, _whole(obj, "pair", "phantom"))
