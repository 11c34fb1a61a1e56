"""Writes a generated documentation page, or with --check says whether it is stale (for the page-making tools)."""

from __future__ import annotations

import argparse
import sys
from collections.abc import Callable
from pathlib import Path


def write_or_check(argv: list[str] | None, page: Path, made: Callable[[], str], about: str, source: str,
                   tool: str) -> int:
    """`tool [--check]`: the page made from `source` written (if it changed), or checked (exit 1 when stale)."""
    parser = argparse.ArgumentParser(description=about)
    parser.add_argument("--check", action="store_true",
                        help=f"write nothing: exit 1 when {page.name} differs from what {source} make")
    args = parser.parse_args(argv)
    text = made()
    current = page.read_text(encoding="utf-8") if page.is_file() else None
    if args.check:
        if current != text:
            print(f"{page} is stale: run .venv/bin/python tools/{tool}", file=sys.stderr)
            return 1
        print(f"{page} is up to date")
        return 0
    if current == text:
        print(f"{page} is up to date")
    else:
        page.write_text(text, encoding="utf-8")
        print(f"wrote {page}")
    return 0
