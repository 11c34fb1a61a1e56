"""The `tenace` command line: one subcommand per module under tenace.commands."""

from __future__ import annotations

import argparse
import logging
import sys
from collections.abc import Sequence

from tenace import __version__, crash_report
from tenace.commands import adjust as adjust_command
from tenace.commands import championship as championship_command
from tenace.commands import check as check_command
from tenace.commands import collect as collect_command
from tenace.commands import contract as contract_command
from tenace.commands import correct as correct_command
from tenace.commands import demo as demo_command
from tenace.commands import erase as erase_command
from tenace.commands import event as event_command
from tenace.commands import finish as finish_command
from tenace.commands import flash as flash_command
from tenace.commands import hub as hub_command
from tenace.commands import move as move_command
from tenace.commands import movement as movement_command
from tenace.commands import names as names_command
from tenace.commands import problems as problems_command
from tenace.commands import report as report_command
from tenace.commands import resolve as resolve_command
from tenace.commands import results as results_command
from tenace.commands import score as score_command
from tenace.commands import serve as serve_command
from tenace.commands import sim as sim_command
from tenace.commands import survey as survey_command
from tenace.commands import terminal as terminal_command
from tenace.commands import terminals as terminals_command
from tenace.errors import Failure, UsageError

COMMANDS = (adjust_command, championship_command, check_command, collect_command, contract_command, correct_command,
            demo_command, erase_command, event_command, finish_command, flash_command, hub_command, move_command,
            movement_command, names_command, problems_command, report_command, resolve_command, results_command,
            score_command, serve_command, sim_command, survey_command, terminal_command, terminals_command)


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="tenace",
        description="Tenace: duplicate bridge scoring for clubs and tournament directors.",
    )
    parser.add_argument("--version", action="version", version=f"tenace {__version__}")
    parser.add_argument("-v", "--verbose", action="store_true", help="log progress and details to stderr")
    sub = parser.add_subparsers(dest="command", metavar="COMMAND")
    for module in COMMANDS:
        module.register(sub)
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    """Run one command; the exit code: 0 done, 2 the user's mistake (one line saying so), 130 interrupted,
    1 a fault of ours (one line pointing at the crash log) or what the command itself returns."""
    parser = build_parser()
    args = parser.parse_args(argv)
    if args.command is None:  # bare `tenace`: what there is to run, rather than an error about it
        parser.print_help()
        return 0
    logging.basicConfig(
        level=logging.INFO if args.verbose else logging.WARNING,
        format="%(levelname)s %(name)s: %(message)s",
    )
    try:
        return int(args.run(args))
    except UsageError as e:
        print(f"tenace {args.command}: {one_line(args.command, str(e))}", file=sys.stderr)
        return 2
    except BrokenPipeError:  # the reader went away (e.g. `| head`): not an error of ours
        sys.stderr.close()
        return 0
    except Failure as e:
        print(f"tenace {args.command}: {one_line(args.command, str(e))}", file=sys.stderr)
        return 1
    except KeyboardInterrupt:
        print(f"tenace {args.command}: interrupted", file=sys.stderr)
        return 130
    except Exception as e:  # a fault of ours: the traceback goes to a file, the user gets one line
        print(f"tenace {args.command}: {crash_report.write(args.command, e)}", file=sys.stderr)
        return 1


def one_line(command: str, message: str) -> str:
    """A message as the one line the user sees: a longer one (a child process's output) is saved to a file."""
    first, _, rest = message.strip().partition("\n")
    if not rest.strip():
        return first
    saved = crash_report.save(command, message + "\n")
    return f"{first.rstrip(':')}; the details are in {saved}" if saved else first.rstrip(":")


if __name__ == "__main__":
    sys.exit(main())
