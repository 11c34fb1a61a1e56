"""The `tenace` command line: one subcommand per module under tenace.commands."""

from __future__ import annotations

import argparse
import logging
import sys
from collections.abc import Sequence

from tenace import __version__
from tenace.commands import collect as collect_command
from tenace.commands import contract as contract_command
from tenace.commands import demo as demo_command
from tenace.commands import event as event_command
from tenace.commands import problems as problems_command
from tenace.commands import score as score_command
from tenace.commands import sim as sim_command
from tenace.commands import terminal as terminal_command
from tenace.errors import UsageError

COMMANDS = (collect_command, contract_command, demo_command, event_command, problems_command, score_command,
            sim_command, terminal_command)


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="tenace",
        description="Tenace: duplicate bridge scoring for clubs and tournament directors.",
    )
    parser.add_argument("--version", action="version", version=f"tenace {__version__}")
    parser.add_argument("-v", "--verbose", action="store_true", help="log progress and details to stderr")
    sub = parser.add_subparsers(dest="command", metavar="COMMAND", required=True)
    for module in COMMANDS:
        module.register(sub)
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    parser = build_parser()
    args = parser.parse_args(argv)
    logging.basicConfig(
        level=logging.INFO if args.verbose else logging.WARNING,
        format="%(levelname)s %(name)s: %(message)s",
    )
    try:
        return int(args.run(args))
    except UsageError as e:
        print(f"tenace {args.command}: {e}", file=sys.stderr)
        return 2
    except BrokenPipeError:  # the reader went away (e.g. `| head`): not an error of ours
        sys.stderr.close()
        return 0
    except KeyboardInterrupt:
        print(f"tenace {args.command}: interrupted", file=sys.stderr)
        return 130


if __name__ == "__main__":
    sys.exit(main())
