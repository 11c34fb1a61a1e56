"""The `tenace` command line run in-process by the tests: its exit code and what it printed."""

from __future__ import annotations

import pytest

from tenace.cli import main


def run(argv: list[str], capsys: pytest.CaptureFixture[str]) -> tuple[int, str, str]:
    """(exit code, stdout, stderr) of `tenace ARGV`; argparse's own refusals exit through SystemExit."""
    try:
        code = main(argv)
    except SystemExit as e:  # argparse
        code = int(e.code or 0)
    out, err = capsys.readouterr()
    return code, out, err


def tenace(capsys: pytest.CaptureFixture[str], *args: str) -> tuple[int, str, str]:
    """`run` with the arguments as written on the command line: tenace(capsys, "results", "club.sqlite")."""
    return run(list(args), capsys)
