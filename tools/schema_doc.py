#!/usr/bin/env python3
"""Writes docs/schema.md, the event file's current schema, from the migrations (tenace.store.schema_doc)."""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

from tenace.store.schema_doc import schema_markdown

PAGE = Path(__file__).resolve().parents[1] / "docs" / "schema.md"


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--check", action="store_true",
                        help="write nothing: exit 1 when docs/schema.md differs from what the migrations make")
    args = parser.parse_args(argv)
    text = schema_markdown()
    current = PAGE.read_text(encoding="utf-8") if PAGE.is_file() else None
    if args.check:
        if current != text:
            print(f"{PAGE} is stale: run .venv/bin/python tools/schema_doc.py", file=sys.stderr)
            return 1
        print(f"{PAGE} is up to date")
        return 0
    if current == text:
        print(f"{PAGE} is up to date")
    else:
        PAGE.write_text(text, encoding="utf-8")
        print(f"wrote {PAGE}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
