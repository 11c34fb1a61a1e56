#!/usr/bin/env python3
"""Writes docs/reference/commands.md, every `tenace` command's and subcommand's --help, from the parsers."""

from __future__ import annotations

import argparse
import os
import sys
from collections.abc import Iterator
from pathlib import Path

from generated_page import write_or_check

PAGE = Path(__file__).resolve().parents[1] / "docs" / "reference" / "commands.md"
WIDTH = "100"  # the help's line width, fixed so that the page does not depend on the terminal it was made in
HEADER = """# Every command's `--help`

Generated from the parsers by `tools/commands_doc.py` (`tests/test_docs.py` fails when this page is stale:
run `.venv/bin/python tools/commands_doc.py`). What each command is for, in the order of an evening, is in
[the director's guide](../director.md) and [the organiser's guide](../organiser.md).
"""


def parsers(parser: argparse.ArgumentParser) -> Iterator[argparse.ArgumentParser]:
    """The parser, then each of its subcommands' depth first, in the order they were registered."""
    yield parser
    for action in parser._actions:  # argparse keeps subparsers only here
        if isinstance(action, argparse._SubParsersAction):
            for sub in dict.fromkeys(action.choices.values()):  # an alias maps to its command's parser
                yield from parsers(sub)


def commands_markdown() -> str:
    """The page: a heading and the --help of each parser, as `tenace ... --help` prints it."""
    saved = os.environ.get("COLUMNS")
    os.environ["COLUMNS"] = WIDTH
    try:
        from tenace.cli import build_parser

        parts = [HEADER]
        for parser in parsers(build_parser()):
            parts.append(f"## `{parser.prog}`\n\n```text\n{parser.format_help().rstrip()}\n```\n")
    finally:
        if saved is None:
            del os.environ["COLUMNS"]
        else:
            os.environ["COLUMNS"] = saved
    return "\n".join(parts)


def main(argv: list[str] | None = None) -> int:
    return write_or_check(argv, PAGE, commands_markdown, __doc__ or "", "the parsers", "commands_doc.py")


if __name__ == "__main__":
    sys.exit(main())
