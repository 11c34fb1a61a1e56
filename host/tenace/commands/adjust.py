"""`tenace adjust`: an adjusted score for a board at a table (Law 12C), or a Law 90 procedural penalty for a pair."""

from __future__ import annotations

import argparse
import re
import sqlite3
from fractions import Fraction
from typing import Any

from tenace.commands.director_options import add_signature, add_slot, event, logged, percent_split, signature, slot
from tenace.commands.options import add_event_file
from tenace.commands.pair_option import parse_pair
from tenace.errors import UsageError
from tenace.store import Action, add_penalty, enter_result, event_info

HELP = "give an adjusted score (A+/A/A-, percentages, assigned, weighted) or a Law 90 penalty"
EPILOG = """\
examples:
  tenace adjust club.sqlite --table 3 --board 7 --ns A+ --ew A- --why "fouled board, NS not at fault"
  tenace adjust club.sqlite --table 3 --board 7 --percent 60/40 --why "regulation: 60% to the non-offenders"
  tenace adjust club.sqlite --table 2 --board 5 --assigned +420 --why "Law 23: 4S making"
  tenace adjust club.sqlite --table 2 --board 5 --weighted "0.6:+420,0.4:-50" --why "Law 12C1(c)"
  tenace adjust club.sqlite --table 2 --board 5 --assigned +420 --ew-assigned -50 --why "Law 12C1(b): split"
  tenace adjust club.sqlite --pair "NS 3" --penalty 25% --board 4 --why "Law 90: slow play"
  tenace adjust club.sqlite --pair "EW 2" --penalty 1.5MP --why "Law 90: mobile phone"

An adjusted score replaces the table's result (the result stays in the event file's history); it
counts at once in `tenace results`, marked on the board's traveller. Artificial scores are A+, A, A-
or a percentage of the top for each side (Law 12C2); an assigned score is the NS score the TD
assigns (Law 12C1(b)); a weighted score gives weights to NS scores, adding up to 1 (Law 12C1(c)). The
two sides' scores need not balance (Law 12C1(b)): with --ew-assigned or --ew-weighted, East-West get
their own (still written as NS scores) and --assigned/--weighted is North-South's alone; each side is
then compared with its own field on its own score.
A penalty is taken off one pair's total, in MPs or in percent of a top (of the board's top when
--board is given): it never changes the table's result. --why is required; every action is in
`tenace problems` under the director's log. After the Law 79C correction period (tenace finish)
changes are refused unless --force, and the force is logged."""


def register(sub: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    p = sub.add_parser("adjust", help=HELP, description=HELP, epilog=EPILOG,
                       formatter_class=argparse.RawDescriptionHelpFormatter)
    add_event_file(p)
    add_slot(p)
    score = p.add_argument_group("the adjusted score (one of)")
    score.add_argument("--ns", metavar="A", help="NS's artificial score: A+, A, A- or a percentage, 60%%")
    score.add_argument("--ew", metavar="A", help="EW's artificial score: A+, A, A- or a percentage, 40%%")
    score.add_argument("--percent", metavar="NS/EW", help="both sides' percentages of the top: 60/40")
    score.add_argument("--assigned", metavar="SCORE", help="an assigned NS score: +420, -50")
    score.add_argument("--weighted", metavar="W:SCORE,...",
                       help='weighted NS scores, weights adding up to 1: "0.6:+420,0.4:-50" (or 3/5, 60%%)')
    score.add_argument("--ew-assigned", metavar="SCORE",
                       help="East-West's own assigned score, as an NS score, when the sides' scores need not balance")
    score.add_argument("--ew-weighted", metavar="W:SCORE,...",
                       help="East-West's own weighted NS scores, when the sides' scores need not balance")
    penalty = p.add_argument_group("a Law 90 procedural penalty")
    penalty.add_argument("--penalty", metavar="AMOUNT", help="taken off the pair's total: 25%% (of a top) or 1.5MP")
    penalty.add_argument("--pair", metavar="PAIR", help='the pair penalised: "NS 3", "A-EW 7", a Howell\'s "7"')
    add_signature(p)
    p.set_defaults(run=run)


def run(args: argparse.Namespace) -> int:
    who, why = signature(args)
    # The options' faults are told before the file's.
    if args.penalty is not None or args.pair is not None:
        penalty_amount(args)
    else:
        score_fields(args)
    with event(args) as conn:
        print(act(conn, args, who, why))
    return 0


def act(conn: sqlite3.Connection, args: argparse.Namespace, who: str, why: str) -> str:
    """The adjusted score or penalty `args` give, entered; the director's log line. `tenace serve`'s console too."""
    if args.penalty is not None or args.pair is not None:
        return _penalty(conn, args, who, why)
    fields = score_fields(args)
    where = slot(conn, args)
    _team_score(conn, where.section, fields)
    enter_result(conn, *where, who=who, why=why, action=Action.ADJUST, force=args.force, **fields)
    return logged(conn)


def _kind(conn: sqlite3.Connection, section: str) -> str:
    return next((s.kind for s in event_info(conn).sections if s.name == section), "mitchell")


def _team_score(conn: sqlite3.Connection, section: str, fields: dict[str, Any]) -> None:
    """A team match's adjusted scores are A+/A/A- (Law 12C2: +3/0/-3 IMPs) or assigned and weighted ones (12C1);
    UsageError for a pairs' percentage or a split score, which its scoring does not take."""
    if _kind(conn, section) != "teams":
        return
    if fields["kind"] == "artificial" and not {fields["ns_adjust"], fields["ew_adjust"]} <= {"A+", "A", "A-"}:
        raise UsageError(f"section {section} is a team event: its artificial scores are A+, A or A- (+3, 0, -3 "
                         "IMPs), not percentages")
    if fields.get("ew_weights") is not None:
        raise UsageError(f"section {section} is a team event: a split score (--ew-assigned, --ew-weighted) is not "
                         "scored in a team match yet; give one --assigned or --weighted score for both sides")


def score_fields(args: argparse.Namespace) -> dict[str, Any]:
    """The store's fields of the one adjusted score given."""
    given = [o for o, v in (("--ns/--ew", args.ns is not None or args.ew is not None),
                            ("--percent", args.percent is not None), ("--assigned", args.assigned is not None),
                            ("--weighted", args.weighted is not None)) if v]
    split = [o for o, v in (("--ew-assigned", args.ew_assigned), ("--ew-weighted", args.ew_weighted)) if v is not None]
    if split and args.assigned is None and args.weighted is None:
        raise UsageError(f"{split[0]} is East-West's side of a split score: give North-South's with --assigned or "
                         "--weighted")
    if len(given) != 1:
        what = f"not {' and '.join(given)}" if given else "none was given"
        raise UsageError(f"give one adjusted score (--ns/--ew, --percent, --assigned, --weighted or --penalty): {what}")
    if args.ns is not None or args.ew is not None:
        if args.ns is None or args.ew is None:
            raise UsageError("an artificial score is given to both sides: --ns A+ --ew A-")
        return {"kind": "artificial", "ns_adjust": args.ns, "ew_adjust": args.ew}
    if args.percent is not None:
        ns, ew = percent_split(args.percent)
        return {"kind": "artificial", "ns_adjust": ns, "ew_adjust": ew}
    fields: dict[str, Any] = {"kind": "weighted"}
    if args.assigned is not None:
        fields["weights"] = [(1, ns_score("--assigned", args.assigned))]
    else:
        fields["weights"] = weighted("--weighted", args.weighted)
    if args.ew_assigned is not None and args.ew_weighted is not None:
        raise UsageError("give East-West's own score once: --ew-assigned or --ew-weighted, not both")
    if args.ew_assigned is not None:
        fields["ew_weights"] = [(1, ns_score("--ew-assigned", args.ew_assigned))]
    elif args.ew_weighted is not None:
        fields["ew_weights"] = weighted("--ew-weighted", args.ew_weighted)
    return fields


_SCORE = re.compile(r"^[+-]?\d{1,4}$")
_WEIGHT = re.compile(r"^(\d{1,3}(?:\.\d{1,6})?%|\d{1,2}/\d{1,3}|0?\.\d{1,6}|1(?:\.0*)?)$")


def ns_score(option: str, text: str) -> int:
    t = text.strip()
    if not _SCORE.match(t):
        raise UsageError(f"{option} {text!r}: an NS score is a whole number such as +420 or -50")
    return int(t)


def weighted(option: str, text: str) -> list[tuple[Fraction, int]]:
    """ "0.6:+420,0.4:-50" (weights as decimals, fractions or percentages) as (weight, NS score) pairs."""
    parts = [part.strip() for part in re.split(r"[,;]", text) if part.strip()]
    if not parts:
        raise UsageError(f"{option} {text!r}: give weight:NS score pairs, such as 0.6:+420,0.4:-50")
    out = []
    for part in parts:
        weight, colon, score = part.partition(":")
        weight = weight.strip()
        if not colon or not _WEIGHT.match(weight) or not _SCORE.match(score.strip()):
            raise UsageError(f"{option}: {part!r} is not weight:NS score, such as 0.6:+420")
        value = Fraction(weight[:-1]) / 100 if weight.endswith("%") else Fraction(weight)
        out.append((value, int(score)))
    total = sum((w for w, _ in out), Fraction(0))
    if total != 1:
        raise UsageError(f"{option} {text!r}: the weights add up to {float(total):g}, not 1")
    return out


_AMOUNT = re.compile(r"^\s*(\d{1,4}(?:\.\d{1,2})?)\s*(%|MP)\s*$", re.IGNORECASE)


def penalty_amount(args: argparse.Namespace) -> tuple[Fraction, str]:
    """The penalty's amount and unit ("%top" or "MP"); UsageError when the options do not make one."""
    if args.penalty is None or args.pair is None:
        raise UsageError("a penalty needs both --pair and --penalty: --pair \"NS 3\" --penalty 25%")
    others = [o for o, v in (("--table", args.table), ("--round", args.round), ("--ns", args.ns), ("--ew", args.ew),
                             ("--percent", args.percent), ("--assigned", args.assigned),
                             ("--weighted", args.weighted), ("--ew-assigned", args.ew_assigned),
                             ("--ew-weighted", args.ew_weighted)) if v is not None]
    if others:
        raise UsageError(f"a penalty is against a pair, not a table's result: drop {', '.join(others)}")
    amount = _AMOUNT.match(args.penalty)
    if amount is None:
        raise UsageError(f"--penalty {args.penalty!r}: a percentage of a top, 25%, or matchpoints, 1.5MP")
    return Fraction(amount[1]), "%top" if amount[2] == "%" else "MP"


def _penalty(conn: sqlite3.Connection, args: argparse.Namespace, who: str, why: str) -> str:
    amount, unit = penalty_amount(args)
    pair = parse_pair(args.pair, [s.name for s in event_info(conn).sections], args.section, option="--pair")
    if _kind(conn, pair.section) == "teams":
        raise UsageError(f"section {pair.section} is a team event: a Law 90 penalty there is in IMPs or VPs, which "
                         "tenace does not score yet (a percentage of a top or matchpoints are for pairs)")
    add_penalty(conn, pair.section, pair.number, pair.field or None, amount, unit,
                who=who, why=why, board=args.board, force=args.force)
    return logged(conn)
