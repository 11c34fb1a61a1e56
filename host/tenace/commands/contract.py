"""`tenace contract`: the Law 77 score of one contract, or of many read from standard input."""

from __future__ import annotations

import argparse
import sys
from typing import TextIO

from tenace.errors import UsageError
from tenace_rules.board import dealer, vulnerability
from tenace_rules.notation import parse_contract, parse_declarer, parse_vulnerability
from tenace_rules.score import ns_score
from tenace_rules.tricks import parse_tricks, relative_text

HELP = "score a contract by Law 77 (NS viewpoint), one on the command line or many with --batch"
EPILOG = """\
examples:
  tenace contract 4SX N 11 --board 7      4 spades doubled by North, 11 tricks, board 7's vulnerability
  tenace contract 3nt w -2 --vul ew       results may be relative: =, +1, -2
  tenace contract pass
  printf '4SX N 11 both\\n3NT E 9 none\\npass\\n' | tenace contract --batch

--batch reads one case a line: <contract> <declarer> <tricks> <vul: none|ns|ew|both>, or "pass";
it writes one NS score a line and stops at the first malformed line with exit code 2 (blank lines
are skipped)."""


def register(sub: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    p = sub.add_parser(
        "contract", help=HELP, description=HELP, epilog=EPILOG, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    p.add_argument("contract", nargs="?", help='contract: 4SX, 4♠x, 3nt, 3N, 7NTXX or "pass"')
    p.add_argument("declarer", nargs="?", help="declarer: N, E, S or W")
    p.add_argument("tricks", nargs="?", help="declarer's tricks: 0-13, or =, +n, -n")
    vul = p.add_mutually_exclusive_group()
    vul.add_argument("--board", type=int, metavar="N", help="derive vulnerability from the board number (Law 2)")
    vul.add_argument("--vul", metavar="VUL", help="vulnerability: none, ns, ew or both (default: none)")
    p.add_argument("--batch", action="store_true", help="read cases from standard input, one a line")
    p.set_defaults(run=run)


def run(args: argparse.Namespace) -> int:
    if args.batch:
        if args.contract or args.board is not None or args.vul:
            raise UsageError("--batch reads everything from standard input; give no other arguments")
        return run_batch(sys.stdin, sys.stdout)
    if not args.contract:
        raise UsageError("give a contract (e.g. 4SX N 11 --board 7), or --batch; see tenace contract --help")
    print(describe_one(args.contract, args.declarer, args.tricks, args.board, args.vul))
    return 0


def describe_one(contract_text: str, declarer_text: str | None, tricks_text: str | None,
                 board: int | None, vul_text: str | None) -> str:
    try:
        contract = parse_contract(contract_text)
        if board is not None:
            vul = vulnerability(board)
            where = f"board {board}: dealer {dealer(board)}, vulnerable {vul}"
        else:
            vul = parse_vulnerability(vul_text or "none")
            where = f"vulnerable {vul}"
        if contract.passed_out:
            if declarer_text or tricks_text:
                raise UsageError("a passed-out board takes no declarer or tricks")
            return f"NS 0  passed out; {where}"
        if not declarer_text or not tricks_text:
            raise UsageError(f"give the declarer and the tricks after {contract.text()} (e.g. {contract.text()} N =)")
        declarer = parse_declarer(declarer_text)
        tricks = parse_tricks(contract, tricks_text)
        score = ns_score(contract, declarer, vul, tricks)
    except ValueError as e:
        raise UsageError(str(e)) from None
    result = relative_text(contract, tricks)
    return f"NS {score:+d}  {contract.text()}{result} by {declarer}, {tricks} tricks; {where}"


def score_line(line: str) -> int:
    """The NS score of one batch line: `<contract> <declarer> <tricks> <vul>` or `pass [vul]`."""
    fields = line.split()
    contract = parse_contract(fields[0])
    if contract.passed_out:
        if len(fields) > 2:
            raise ValueError("a passed-out board takes at most a vulnerability after it")
        if len(fields) == 2:
            parse_vulnerability(fields[1])
        return 0
    if len(fields) != 4:
        raise ValueError(f"expected 4 fields <contract> <declarer> <tricks> <vul>, found {len(fields)}")
    declarer = parse_declarer(fields[1])
    tricks = parse_tricks(contract, fields[2])
    return ns_score(contract, declarer, parse_vulnerability(fields[3]), tricks)


def run_batch(source: TextIO, sink: TextIO) -> int:
    number = 0
    try:
        for number, line in enumerate(source, start=1):
            if number == 1:
                line = line.removeprefix("\ufeff")  # the byte order mark some Windows editors write first
            if not line.strip():
                continue  # blank lines (a trailing one above all) hold no case
            try:
                line.encode("utf-8")
                score = score_line(line)
            except UnicodeEncodeError:  # bytes that were not UTF-8, read with surrogate escapes
                raise UsageError(f"standard input is not UTF-8 text (line {number})") from None
            except ValueError as e:
                sink.flush()
                raise UsageError(f"line {number} {line.strip()!r}: {e}") from None
            sink.write(f"{score}\n")
    except UnicodeDecodeError:
        sink.flush()
        raise UsageError(f"standard input is not UTF-8 text (after line {number})" if number else
                         "standard input is not UTF-8 text") from None
    return 0
